"""Scenario fixtures: `fixture NAME { STEPS }` and `use NAME`, expanded by the collector.

A scenario that uses a fixture is the scenario with the fixture's steps written where `use`
stands; fixtures are shared by the edition's rules file and all its scenario files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.common.error_codes import ErrorCode
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.scenarios import cases, run_case

# the edition's rules file has conftest's 12-line PRELUDE before the body: line 13 is its first
E = ErrorCode
# a decision the scenarios answer, and a rule whose result depends on the answer
ASKING = """decision hop(p: player) by p -> bool { }
rule hopping { on turn(p: player) { if ask hop(p) { move(p, 1) } } }
"""
SETUP = "fixture hop_from_s1 {\n  given {\n    p1.position = s1\n  }\n  answer hop [true]\n}\n"
USE = 'scenario "{title}" for hopping {{\n  use hop_from_s1\n  play p1\n  expect {expect}\n}}\n'
INLINE = ('scenario "{title}" for hopping {{\n  given {{\n    p1.position = s1\n  }}\n'
          '  answer hop [true]\n  play p1\n  expect {expect}\n}}\n')


def _scenarios(compilation):
    """The compiled scenarios without where they are written: what runs and is covered."""
    return [(s.title, s.target, s.players, tuple((st.kind, st.values, st.target, st.text)
                                                 for st in s.steps))
            for s in compilation.program.scenarios]


def test_two_scenarios_in_two_files_use_a_fixture_of_a_third_as_if_written_inline(editions):
    expectations = {"a": "p1.position == s0", "b": "p1.position != s1"}
    used = editions.compile(ASKING, files={
        "scenarios/setup.rules": SETUP,
        "scenarios/a.rules": USE.format(title="a", expect=expectations["a"]),
        "conformance/b.rules": USE.format(title="b", expect=expectations["b"])})
    inline = editions.compile(ASKING, name="inline", files={
        "scenarios/a.rules": INLINE.format(title="a", expect=expectations["a"]),
        "conformance/b.rules": INLINE.format(title="b", expect=expectations["b"])})
    assert len(used.program.scenarios) == 2
    assert _scenarios(used) == _scenarios(inline)
    kinds = [st.kind for st in used.program.scenarios[0].steps]
    assert kinds == ["given", "answer", "play", "expect"]


def test_a_fixture_may_use_another_and_stands_where_it_is_used(editions):
    body = ASKING + ("fixture at_s1 {\n  given {\n    p1.position = s1\n  }\n}\n"
                     "fixture hopping_from_s1 {\n  use at_s1\n  answer hop [true]\n}\n"
                     'scenario "s" for hopping {\n  players 3\n  use hopping_from_s1\n'
                     "  play p1\n  use at_s1\n  expect p1.position == s1\n}\n")
    (scenario,) = editions.compile(body).program.scenarios
    assert scenario.players == 3
    assert [st.kind for st in scenario.steps] == ["given", "answer", "play", "given", "expect"]


def test_an_unknown_fixture_is_located_with_a_did_you_mean(editions):
    files = {"scenarios/setup.rules": SETUP,
             "scenarios/a.rules": USE.format(title="a", expect="true").replace(
                 "use hop_from_s1", "use hop_from_s2")}
    (error,) = editions.diagnostics(ASKING, files=files)
    assert (error.code, Path(error.span.path).name, error.span.line, error.span.column) == \
        (E.SCENARIO_UNKNOWN.code, "a.rules", 2, 3)
    assert error.message == "unknown fixture 'hop_from_s2'"
    assert error.hint == "did you mean 'hop_from_s1'?"


def test_a_fixture_defined_twice_in_two_files_is_located_at_the_second(editions):
    files = {"scenarios/setup.rules": SETUP, "scenarios/setup_again.rules": "\n" + SETUP}
    (error,) = editions.diagnostics(ASKING, files=files)
    assert (error.code, Path(error.span.path).name, error.span.line, error.span.column) == \
        (E.DEFINED_TWICE.code, "setup_again.rules", 2, 1)
    assert "fixture 'hop_from_s1' is already defined at" in error.message


@pytest.mark.parametrize(("fixtures", "where", "message"), [
    ("fixture f {\n  use f\n}\n", (14, 3), "fixture 'f' uses itself: f -> f"),
    ("fixture f {\n  use g\n}\nfixture g {\n  use f\n}\n", (17, 3),
     "fixture 'f' uses itself: f -> g -> f"),
    ("fixture f {\n  play p1\n}\n", (14, 3), "a fixture cannot hold 'play'"),
    ("fixture f {\n  expect p1.cash == 0\n}\n", (14, 3), "a fixture cannot hold 'expect'"),
])
def test_a_fixture_that_uses_itself_or_plays_is_one_located_error(editions, fixtures, where,
                                                                  message):
    body = fixtures + 'scenario "s" for turn {\n  use f\n  play p1\n}\n'
    assert editions.located(body) == [(E.BAD_FIXTURE.code, *where)]
    assert editions.errors(body) == [message]


def test_a_mistake_in_a_fixture_is_reported_once_where_the_fixture_writes_it(editions):
    body = ("fixture f {\n  given {\n    p1.cash = nobody\n  }\n}\n"
            'scenario "s" for turn {\n  use f\n  play p1\n}\n'
            'scenario "t" for turn {\n  use f\n  play p1\n}\n')
    assert [(line, column) for _, line, column in editions.located(body)] == [(15, 15)]


def test_a_failure_at_a_fixtures_step_names_the_fixtures_file_and_line(editions):
    files = {"scenarios/setup.rules": SETUP.replace("[true]", "[true, true]"),
             "scenarios/a.rules": USE.format(title="a", expect="p1.position == s0")}
    compilation = compile_rules(editions.write(ASKING, files=files))
    (case,) = cases(compilation)
    outcome = run_case(compilation, case, "interpreted")
    assert not outcome.passed
    assert "answer hop [true, true] (scenarios/setup.rules:5): true never asked" in \
        outcome.message


def test_options_that_exclude_each_other_are_located_at_the_scenarios_step(editions):
    """A fixture's option and the scenario's, on the same line number of two files: the
    error is at the one that chose second."""
    options = 'option a: bool = false "A"\noption b: int = 0 "B" excludes a\n'
    files = {"scenarios/setup.rules": "fixture variant_a {\n  option a = true\n}\n",
             "scenarios/a.rules": 'scenario "s" for turn {\n  option b = 2\n  use variant_a\n'
                                  "  play p1\n}\n"}
    (error,) = editions.diagnostics(options, files=files)
    assert (error.code, Path(error.span.path).name, error.span.line, error.span.column) == \
        (E.EXCLUDED_OPTIONS.code, "setup.rules", 2, 3)
