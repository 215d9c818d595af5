"""Handler guards worked out for every space (back/space_guards.py): the land event's last
handlers, whose guards read only the space's declared data, skipped together with one test
on the spaces where none of them runs."""

from __future__ import annotations

from boardrules.compiler.back.space_guards import guards_by_space, land_rest
from boardrules.compiler.ir.optimize import analyse

# a dynamic handler (the cash), then two that only the space's kind decides
RULES = """
counter player.got: int = 0
rule paid { on land(p: player, s: space) when p.cash > 0 { p.got += 1 } }
rule twice { on land(p: player, s: space) when s.kind == special { p.got += 2 } }
rule thrice { on land(p: player, s: space) when s.kind == special { p.got += 3 } }
"""


def test_the_land_events_last_static_handlers_are_skipped_together(editions):
    compilation, code, namespace = editions.module(RULES)
    first, mask = land_rest(compilation.program, analyse(compilation.program))
    kinds = [namespace["Game"](2).state_get("t_space_kind", s) for s in range(3)]
    assert first == 1 and mask == [int(kind == 1) for kind in kinds] == [0, 1, 0]
    event = code[code.index("    def event_land("):]
    event = event[:event.index("\n    @cython")]
    assert event.index("rule_paid_0") < event.index("if not self.land_rest[v_s]:") \
        < event.index("rule_twice_0") < event.index("rule_thrice_0")


def test_a_last_handler_the_state_decides_leaves_the_event_as_it_is(editions):
    compilation, code, _ = editions.module(
        RULES + "rule last { on land(p: player, s: space) when p.got > 2 { p.got = 0 } }\n")
    assert land_rest(compilation.program, analyse(compilation.program)) == (-1, [])
    assert "land_rest" not in code


def test_one_static_handler_is_left_to_its_own_test(editions):
    alone = RULES[:RULES.index("rule thrice")]
    compilation, code, _ = editions.module(alone)
    assert land_rest(compilation.program, analyse(compilation.program)) == (-1, [])
    assert "land_rest" not in code


def test_handlers_that_run_on_most_spaces_keep_their_own_tests(editions):
    """Two of the three spaces run them: the test would skip one landing in three."""
    compilation, _, _ = editions.module(
        RULES.replace("s.kind == special", "s.kind != plain or s == s2"))
    program, fx = compilation.program, analyse(compilation.program)
    twice = next(f for f in program.functions if f.name == "rule_twice_0")
    assert [held.value for held in guards_by_space(program, fx, twice)] == [False, True, True]
    assert land_rest(program, fx) == (-1, [])
