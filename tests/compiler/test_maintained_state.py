"""Derived state that the counters' writes keep (counter indexes: members, bits, counts by
group, whole-group words) equals a recomputation after every write, in seeded games of the
editions whose default strategies read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.back.codegen import whole_word
from boardrules.compiler.build.obtain import compile_edition
from boardrules.compiler.ir import derived
from boardrules.compiler.ir import nodes as ir
from boardrules.runtime.loader import import_compilation

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = [ROOT / "benchmarks/editions/classic_reference/classic_reference.rules",
            ROOT / "rulesets/disney_theme_park/disney_theme_park.rules"]
KEPT = ("vxn_", "vxb_", "vxc_", "vxw_")


def _kept(game, counter: str) -> dict[str, list[int]]:
    """The arrays a counter index keeps, and each value's members in order."""
    arrays = {name: list(getattr(game, name)) for name in vars(game)
              if name.startswith(KEPT) and name[4:].split("_by_")[0] == counter}
    n, m = getattr(game, "vxn_" + counter), getattr(game, "vxm_" + counter)
    width = len(m) // len(n)
    arrays["members"] = [list(m[k * width:k * width + n[k]]) for k in range(len(n))]
    return arrays


def _wholes(game, program: ir.Program, cx: derived.CounterIndex) -> dict[str, list[int]]:
    """Each whole-key word worked out from the counter itself."""
    owner = list(getattr(game, "c_" + cx.counter))
    words = {}
    for table in cx.whole_by:
        ix = next(i for i in program.indexes if i.name == table)
        field = next(t for t in program.tables if t.name == ix.table).values
        word = [0] * cx.values
        for x in range(cx.entities):
            members = [y for y in range(cx.entities) if field[y] == field[x]]
            for v in range(cx.values):
                if all(owner[y] - cx.offset == v for y in members):
                    word[v] |= 1 << x
        words[whole_word(cx, table)] = word
    return words


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_every_kept_value_equals_a_recomputation_after_every_write(path, monkeypatch):
    compilation = compile_edition(path)
    program = compilation.program
    module = import_compilation(compilation, "interpreted")
    indexes = {cx.counter: cx for cx in program.counter_indexes}
    assert any(cx.whole_by for cx in program.counter_indexes)
    checked = {"writes": 0, "wholes": 0}

    def checking(counter: str, write):
        def vxset(self, value, x):
            result = write(self, value, x)
            kept = _kept(self, counter)
            getattr(self, "vxrebuild_" + counter)()
            assert kept == _kept(self, counter), f"{counter} after writing {value} to {x}"
            wholes = _wholes(self, program, indexes[counter])
            for name, word in wholes.items():
                assert list(getattr(self, name)) == word, f"{name} after {value} to {x}"
                checked["wholes"] += word != [0] * len(word)
            checked["writes"] += 1
            return result
        return vxset

    for counter in indexes:
        name = "vxset_" + counter
        monkeypatch.setattr(module.Game, name, checking(counter, getattr(module.Game, name)))
    for seed in range(3):
        for policy in ("default", "random"):
            game = module.Game(4, seed=seed, policies=[policy] * 4)
            game.play()
    assert checked["writes"] > 100 and checked["wholes"] > 10
