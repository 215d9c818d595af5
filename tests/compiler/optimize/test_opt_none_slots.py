"""drop-none-slots: a counter index keeps no members of none when no walk asks for them
(test_opt_index.py's test of every write then checks such an index)."""

from __future__ import annotations

from opt_programs import DATA, DATA_BOARD

from boardrules.compiler.optimize.none_slots import uses_of_none

OWNED = ("proc mine(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
         "proc others(p: player) -> int {\n"
         "  return count(s in spaces where s.owner != none and s.owner != p) }\n")


def test_an_index_walked_for_players_only_keeps_no_members_of_none(editions):
    program = editions.compile(DATA + OWNED + (
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, mine(p))\n} }\n"),
        until="drop-none-slots").program
    (index,) = program.counter_indexes
    assert uses_of_none(program) == {index.name: False}
    assert (index.offset, index.values) == (0, 4)  # the four seats, and no slot of none


def test_an_index_walked_for_none_keeps_its_members(editions):
    program = editions.compile(DATA + OWNED + (
        "proc free() -> int { return count(s in spaces where s.owner == none) }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, mine(p) + others(p) + free())\n} }\n"),
        until="drop-none-slots").program
    (index,) = program.counter_indexes
    assert (index.offset, index.values) == (-1, 5)


def test_a_walk_of_bits_of_every_owner_but_some_keeps_the_members_of_none(editions):
    """Its word takes out none's members: three spaces make `others` a walk of bits."""
    program = editions.compile(DATA_BOARD + DATA + OWNED + (
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, others(p))\n} }\n"),
        until="drop-none-slots", prelude=False).program
    (index,) = program.counter_indexes
    assert index.bits and uses_of_none(program) == {index.name: True}
    assert (index.offset, index.values) == (-1, 5)
