"""The game's C fields are read from the rendered module: every one, and only those."""

from __future__ import annotations

from boardrules.compiler.back.state_fields import c_fields, fill_state_code

MODULE = '''
class Rng:
    s0: cython.ulonglong

class Kernel:
    turn = cython.declare(cython.int, visibility="readonly")
    cash: cython.int[16]
    script: list
    chance: Rng

    def run(self) -> cython.int:
        local: cython.int = 0

class Game(KernelApi):
    c_space_owner: cython.int[40]
    kept_item: cython.short[8]
    STATE_FIELDS: tuple = ()  # (filled in by compiler/back/state_fields.py)

    def copy_c_fields_into(self, other):
        if cython.compiled:
            # @copy-fields@
        return {
            # @dump-fields@
        }

    def load_c_fields(self, fields):
        # @load-fields@
'''


def test_the_c_fields_of_the_games_classes_only():
    assert c_fields(MODULE) == ["turn", "cash", "c_space_owner", "kept_item"]


def test_each_marker_becomes_a_line_per_field():
    text = fill_state_code(MODULE)
    assert "            other.turn = self.turn\n            other.cash = self.cash\n" in text
    assert "            'kept_item': self.kept_item,\n" in text
    assert "        self.c_space_owner = fields['c_space_owner']\n" in text
    assert "STATE_FIELDS: tuple = ('turn', 'cash', 'c_space_owner', 'kept_item', )" in text
    assert "@copy-fields@" not in text and "@load-fields@" not in text
