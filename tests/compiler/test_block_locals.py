"""A name an enclosing block still uses cannot be declared again in an inner block.

The generated function has one variable per name, so an inner `for p` (or `let x`, or a
window's player) of a name the enclosing block uses would leave that variable at the
inner value after the inner block: the outer loop would go on with the inner loop's
last member. The checker rejects it at the inner declaration, so both backends reject
the program with the same located error; names declared again where nothing outer is
overwritten (one loop after another, `let` again in its own block, an aggregate's
variable) keep working.
"""

from __future__ import annotations

import pytest

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.runtime.loader import load_module

NESTED = """counter seen: int = 0
rule probe {
  on start() {
    for a in 1 to 3 {
      for a in 5 to 6 {
        seen += 0
      }
      seen += a
    }
  }
}
"""


def test_an_inner_loop_over_the_outer_loops_name_is_an_error_at_the_inner_for(editions):
    diagnostics = editions.diagnostics(NESTED)
    assert [(d.code, d.span.line, d.span.column) for d in diagnostics] == [
        (E.LOCAL_REDECLARED.code, 17, 7)]
    assert diagnostics[0].message == "'a' already names the outer loop's member"


@pytest.mark.parametrize("body, line, column, what", [
    ("proc f(x: int) -> int {\n  for x in 1 to 2 { }\n  return x\n}\n", 14, 3, "a parameter"),
    ("proc f() -> int {\n  let x = 1\n  if x > 0 {\n    let x = 2\n  }\n  return x\n}\n",
     16, 5, "a local of an enclosing block"),
    ("proc f(p: player) {\n  for q in players {\n    window q from p { }\n  }\n}\n",
     15, 5, "the outer loop's member"),
    ("proc f(p: player) {\n  window q from p {\n    for q in players { }\n  }\n}\n",
     15, 5, "the window's player"),
])
def test_any_inner_declaration_of_a_name_in_use_is_an_error(editions, body, line, column,
                                                            what):
    diagnostics = editions.diagnostics(body)
    assert [(d.code, d.span.line, d.span.column) for d in diagnostics] == [
        (E.LOCAL_REDECLARED.code, line, column)]
    assert diagnostics[0].message.endswith(what)


ALLOWED = """counter after_loops: int = 0
counter relet: int = 0
counter outer_kept: int = 0
rule probe {
  on start() {
    for a in 1 to 2 { after_loops += a }
    for a in 5 to 6 { after_loops += a }
    let b = 1
    let b = 4
    relet = b
    let c = 3
    if any(c in 7 to 9 where c > 7) {
      outer_kept = c
    }
  }
}
"""
EXPECTED = {"after_loops": 14, "relet": 4, "outer_kept": 3}


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_names_declared_again_without_overwriting_an_outer_one_still_run(module_editions,
                                                                         backend):
    module = load_module(str(module_editions.write(ALLOWED, name="allowed")), backend)
    game = module.Game(2, seed=1)
    game.play(1)
    names = [label for label, _, _ in module.COUNTERS]
    values = game.counter_values()
    assert {n: values[names.index(n)] for n in EXPECTED} == EXPECTED
