"""Pass 3 (symbols.py): one table of declarations, duplicates, overriding, `use`."""

from __future__ import annotations

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.front import ast
from boardrules.compiler.front.primitives import KERNEL_FUNCTIONS, KERNEL_PARAMETER_NAMES

EDITION_HEAD = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
import base
enum kind { plain }
board { space s0 "S0" plain  space s1 "S1" plain }
"""

LIB = """param steps: int = 1
param bonus: money = 5
decision again(p: player) by p -> bool { default false }
proc distance_for(p: player) -> int { return steps }
rule turn {
  on turn(p: player) {
    if ask again(p) { move(p, distance_for(p)) } else { move(p, distance_for(p)) }
  }
}
rule bonus_on_land {
  on land(p: player, s: space) { pay(bank, p, bonus) }
}
"""


def messages(reporter) -> list[str]:
    return [d.message for d in reporter.errors]


# ---- duplicates -------------------------------------------------------------------------


def test_duplicate_param_reports_first_definition(editions):
    symbols, reporter = editions.collect("param x: int = 1\nparam x: int = 2\n")
    (error,) = reporter.errors
    assert error.message.startswith("param 'x' is already defined at ")
    assert error.code == E.DEFINED_TWICE.code
    assert error.message.endswith("ed.rules:13:1")
    assert error.span.line == 14
    assert symbols.params["x"].span.line == 13  # the first one stays


def test_same_name_for_different_kinds(editions):
    _, reporter = editions.collect(
        'deck luck(p: player) "Luck" { card s1 "Clash with a space." }\n')
    (error,) = reporter.errors
    assert "card 's1' is already defined as a space at" in error.message
    assert error.code == E.DEFINED_TWICE.code
    assert error.hint == "rename one of them"


def test_duplicate_enum_member_and_owned_names(editions):
    _, reporter = editions.collect(
        "enum color { red, blue, red }\n"
        "counter player.score: int = 0\n"
        "counter player.score: int = 1\n"
        "field space.price: money = 0\n"
        "counter space.price: int = 0\n"
    )
    assert messages(reporter) == [
        "enum 'color' lists 'red' twice",
        "'player.score' is already declared",
        "'space.price' is already declared",
    ]


def test_builtin_names_cannot_be_redefined(editions):
    _, reporter = editions.collect("param current: int = 1\n")
    assert messages(reporter) == ["'current' is a built-in name and cannot be redefined"]


def test_kernel_events_cannot_be_redeclared(editions):
    _, reporter = editions.collect("event land(p: player)\n")
    assert [d.code for d in reporter.errors] == [E.DEFINED_TWICE.code]
    assert messages(reporter) == ["event 'land' is already defined"]


def test_rule_defined_twice_in_one_file(editions):
    _, reporter = editions.collect("rule turn { }\n")  # the prelude has one already
    (error,) = reporter.errors
    assert error.message.startswith("rule 'turn' is already defined at ")
    assert error.code == E.DEFINED_TWICE.code


def test_procedure_defined_twice_in_one_file(editions):
    _, reporter = editions.collect("proc f() { }\nproc f() { }\n")
    (error,) = reporter.errors
    assert error.message.startswith("procedure 'f' is already defined at")
    assert error.code == E.DEFINED_TWICE.code


def test_collected_tables(editions):
    symbols, reporter = editions.collect(
        "counter houses: int = 3\ncounter player.score: int\ndie six faces 1 to 6\n"
        "group blue \"Blue\"\n")
    assert not reporter.errors
    assert list(symbols.spaces) == ["s0", "s1", "s2"]
    assert set(symbols.counters) == {("", "houses"), ("player", "score")}
    assert list(symbols.dice) == ["six"]
    assert {"houses", "six", "blue", "s0", "plain", "current"} <= symbols.global_names()
    assert "score" not in symbols.global_names()  # owned counters are attributes
    assert set(symbols.events) >= {"start", "turn", "pass", "land"}


# ---- libraries and overriding ---------------------------------------------------------------


def test_library_definitions_are_visible(editions):
    symbols, reporter = editions.collect(EDITION_HEAD, prelude=False, libs={"base": LIB})
    assert not reporter.errors
    assert list(symbols.rules) == ["turn", "bonus_on_land"]
    assert symbols.rule_origin["turn"].endswith("lib/base.rules")
    assert set(symbols.procs) == {"distance_for"}
    assert set(symbols.decisions) == {"again"}


def test_edition_overrides_rule_proc_and_decision(editions):
    symbols, reporter = editions.collect(
        EDITION_HEAD
        + "decision again(p: player) by p -> bool { default true }\n"
        + "proc distance_for(p: player) -> int { return 2 }\n"
        + "rule turn { on turn(p: player) { move(p, 3) } }\n",
        prelude=False, libs={"base": LIB},
    )
    assert not reporter.errors, messages(reporter)
    assert symbols.rule_origin["turn"].endswith("ed.rules")
    assert symbols.rules["turn"].span.path.endswith("ed.rules")
    assert symbols.procs["distance_for"].span.path.endswith("ed.rules")
    assert symbols.decisions["again"].span.path.endswith("ed.rules")
    assert isinstance(symbols.decisions["again"].default, ast.BoolLit)
    assert symbols.decisions["again"].default.value is True
    # the untouched library rule stays, and the rule order is the library's
    assert list(symbols.rules) == ["turn", "bonus_on_land"]


def test_an_edition_replaces_only_a_decisions_default(editions):
    symbols, reporter = editions.collect(
        EDITION_HEAD + "decision again default p.cash > 100\n",
        prelude=False, libs={"base": LIB})
    assert not reporter.errors, messages(reporter)
    again = symbols.decisions["again"]
    assert again.span.path.endswith("base.rules")  # the library's declaration, kept...
    assert again.kind == "bool" and [n.name for n in again.params] == ["p"]
    assert again.default.span.path.endswith("ed.rules")  # ...with the edition's default
    assert isinstance(again.default, ast.BinOp)


def test_a_default_is_checked_against_the_decision(editions):
    compilation = editions.compile(
        EDITION_HEAD + "decision again default p.cash > 100\n", prelude=False,
        libs={"base": LIB})
    (again,) = compilation.program.decisions
    assert again.default is not None and again.default.op == ">"
    messages_of = editions.errors(EDITION_HEAD + "decision again default 3\n",
                                  prelude=False, libs={"base": LIB})
    assert any("bool" in m for m in messages_of), messages_of


def test_a_default_for_an_unknown_decision_or_given_twice(editions):
    located = editions.located(
        EDITION_HEAD + "decision agian default true\ndecision again default true\n"
        "decision again default false\n", prelude=False, libs={"base": LIB})
    assert sorted(code for code, _, _ in located) == [E.UNKNOWN_DECISION.code,
                                                     E.GIVEN_TWICE.code]


def test_overriding_rule_is_what_gets_compiled(editions):
    compilation = editions.compile(
        EDITION_HEAD + "rule turn { on turn(p: player) { move(p, 3) } }\n",
        prelude=False, libs={"base": LIB},
    )
    program = compilation.program
    (turn_handler,) = program.events["turn"].handlers
    function = next(f for f in program.functions if f.name == turn_handler.function)
    (statement,) = function.body
    assert statement.expr.function == "k_move"
    assert statement.expr.args[1].value == 3


def test_params_cannot_be_overridden_only_set(editions):
    _, reporter = editions.collect(
        EDITION_HEAD + "param steps: int = 2\n", prelude=False, libs={"base": LIB})
    (error,) = reporter.errors
    assert error.message.startswith("param 'steps' is already defined at ")
    assert error.code == E.DEFINED_TWICE.code
    symbols, reporter = editions.collect(
        EDITION_HEAD + "set steps = 2\n", prelude=False, libs={"base": LIB})
    assert not reporter.errors
    assert symbols.sets["steps"].value.value == 2


def test_override_must_keep_the_kind(editions):
    _, reporter = editions.collect(
        EDITION_HEAD + "decision distance_for(p: player) by p -> bool { }\n",
        prelude=False, libs={"base": LIB})
    (error,) = reporter.errors
    assert "decision 'distance_for' is already defined as a procedure" in error.message
    assert error.code == E.DEFINED_TWICE.code


# ---- use, set, edition --------------------------------------------------------------------


def test_use_of_an_unknown_rule(editions):
    _, reporter = editions.collect('use trun { quote "x" }\n')
    (error,) = reporter.errors
    assert error.code == E.UNKNOWN_RULE.code
    assert error.hint == "did you mean 'turn'?"
    assert error.span.line == 13


def test_use_of_a_known_rule(editions):
    symbols, reporter = editions.collect('use turn { quote "Each player starts with" }\n')
    assert not reporter.errors
    assert [u.provenance[0].text for u in symbols.uses["turn"]] == ["Each player starts with"]


def test_set_of_an_unknown_param(editions):
    _, reporter = editions.collect("param speed: int = 1\nset sped = 2\n")
    (error,) = reporter.errors
    assert (error.code, error.span.line) == (E.UNKNOWN_PARAM.code, 14)
    assert error.hint == "did you mean 'speed'?"


def test_set_twice(editions):
    _, reporter = editions.collect("param speed: int = 1\nset speed = 2\nset speed = 3\n")
    assert messages(reporter) == ["'speed' is set twice"]


def test_missing_edition_and_edition_in_a_library(editions):
    _, reporter = editions.collect(
        "import base\nrule turn { }\n", prelude=False,
        libs={"base": 'edition "Lib" { }\n'})
    assert [d.code for d in reporter.errors] == [E.NO_EDITION.code] * 2
    assert set(messages(reporter)) == {
        "a library cannot declare an edition", "the file declares no edition"}


def test_unknown_types_get_a_hint(editions):
    _, reporter = editions.collect("counter player.score: integr = 0\nfield space.x: kidn\n")
    errors = {(d.code, d.span.line, d.span.column): d.hint for d in reporter.errors}
    assert errors == {(E.UNKNOWN_TYPE.code, 13, 23): "did you mean 'int'?",
                      (E.UNKNOWN_TYPE.code, 14, 16): "did you mean 'kind'?"}


def test_counter_owner_must_be_an_entity(editions):
    _, reporter = editions.collect("counter plyer.score: int = 0\n")
    (error,) = reporter.errors
    assert (error.code, error.span.line) == (E.UNKNOWN_TYPE.code, 13)
    assert error.hint == "did you mean 'player'?"


def test_every_kernel_function_names_its_parameters():
    """Messages name a kernel function's parameters (`argument 'steps' of 'move'`)."""
    assert {name: len(types) for name, (types, _) in KERNEL_FUNCTIONS.items()} == {
        name: len(names) for name, names in KERNEL_PARAMETER_NAMES.items()}
