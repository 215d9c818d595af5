"""narrow-integers' loop spans: a range that may be long counts in the turn's loop rounds
(`k_span`, so that nested loops cannot run for ever); one of the seats, at most the
kernel's capacity of players, is not counted (every window walks one)."""

from __future__ import annotations

from opt_programs import DATA

from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.optimize.walk import walk_stmts


def test_a_walk_of_the_seats_is_not_counted_but_a_long_range_is(editions):
    program = editions.compile(DATA + (
        "proc seats() -> int {\n  let n = 0\n"
        "  for k in 0 to players_count - 1 { n += k }\n  return n\n}\n"
        "proc span(p: player) -> int {\n  let n = 0\n"
        "  for k in 1 to p.cash { n += 1 }\n  return n\n}\n"
        "rule r { on turn(p: player) { move(p, seats() + span(p)) } }\n"),
        until="narrow-integers").program
    loops = {f.name: [s for s in walk_stmts(f.body) if isinstance(s, ir.Loop)]
             for f in program.functions if f.name in ("proc_seats", "proc_span")}
    assert [loop.domain.guarded for loop in loops["proc_seats"]] == [False]
    assert [loop.domain.guarded for loop in loops["proc_span"]] == [True]
