"""The warning `end-turn-in-expression`: a call that may end the turn, inside an expression,
costs every turn a try (optimize/unwinding.py)."""

from __future__ import annotations

from pathlib import Path

RULES = """counter player.tries: int = 0
proc tired(p: player) -> bool {
  if p.tries > 2 {
    end turn
  }
  return false
}
rule rest { on land(p: player, s: space) {
  p.tries += 1
  if p.tries > 0 and tired(p) {
    move(p, 1)
  }
} }
"""


def test_a_call_that_may_end_the_turn_inside_an_expression_is_warned(editions):
    compilation = editions.compile(RULES, until="split-unwinding-calls")
    (warning,) = [w for w in compilation.reporter.warnings
                  if w.code == "end-turn-in-expression"]
    assert "'tired' may end the turn inside an expression here" in warning.message
    line = Path(warning.span.path).read_text().splitlines()[warning.span.line - 1]
    assert "if p.tries > 0 and tired(p)" in line


def test_a_call_evaluated_first_is_taken_out_and_not_warned(editions):
    """`if tired(p) and ...`: the call is split into a local of its own, no try needed."""
    compilation = editions.compile(RULES.replace("p.tries > 0 and tired(p)",
                                                 "tired(p) and p.tries > 0"),
                                   until="split-unwinding-calls")
    assert not [w for w in compilation.reporter.warnings
                if w.code == "end-turn-in-expression"]


def test_a_file_that_allows_the_check_is_not_warned(editions):
    compilation = editions.compile("# boardrules: allow end-turn-in-expression\n" + RULES,
                                   until="split-unwinding-calls")
    assert not [w for w in compilation.reporter.warnings
                if w.code == "end-turn-in-expression"]
