"""`break` leaves the innermost for or while loop, on both backends, and every pass keeps
what it means (it lowers to a flag the loop's filter and the rest of the body check)."""

from __future__ import annotations

import pytest

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.ir import nodes as ir
from boardrules.runtime.loader import load_module

PROBE = """counter walked: int = 0
counter after: int = 0
counter spins: int = 0
counter inner: int = 0
counter outer: int = 0
rule probe {
  on start() {
    for s in spaces {
      walked += 1
      if walked == 2 { break }
      after += 1
    }
    let k = 0
    while true {
      k += 1
      if k >= 5 { break }
    }
    spins = k
    for a in 1 to 3 {
      for b in 1 to 3 {
        if b == 2 { break }
        inner += 1
      }
      outer += 1
    }
  }
}
"""
EXPECTED = {"walked": 2, "after": 1, "spins": 5, "inner": 3, "outer": 3}


def _values(module, game) -> dict[str, int]:
    names = [label for label, _, _ in module.COUNTERS]
    values = game.counter_values()
    return {name: values[names.index(name)] for name in EXPECTED}


def test_break_leaves_the_innermost_loop_interpreted(editions):
    _, _, namespace = editions.module(PROBE)
    game = namespace["Game"](2, seed=1)
    game.play(1)
    names = [label for label, _, _ in namespace["COUNTERS"]]
    values = game.counter_values()
    assert {n: values[names.index(n)] for n in EXPECTED} == EXPECTED


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_break_on_both_backends(module_editions, backend):
    path = module_editions.write(PROBE, name="breaks")
    module = load_module(str(path), backend)
    game = module.Game(2, seed=1)
    game.play(1)
    assert _values(module, game) == EXPECTED


def test_break_lowers_to_a_flag_the_loop_checks(editions):
    c = editions.compile(PROBE)
    probe = next(f for f in c.program.functions if f.name.startswith("rule_probe"))
    loops = [s for s in probe.body if isinstance(s, ir.Loop | ir.While)]
    assert all(isinstance(s, ir.Declare) for s in probe.body[:1])
    first = loops[0]
    assert isinstance(first, ir.Loop) and first.where == ir.Unary(
        ir.BOOL, "not", ir.Local(ir.BOOL, "break_0_"))


def test_break_outside_a_loop_or_in_a_window_is_an_error(editions):
    located = editions.located("rule r { on turn(p: player) { break } }\n")
    assert located == [(E.BREAK_OUTSIDE_LOOP.code, 13, 31)]
    located = editions.located(
        "rule r { on turn(p: player) { for q in players { window w from q { break } } } }\n")
    assert [code for code, _, _ in located] == [E.BREAK_OUTSIDE_LOOP.code]
