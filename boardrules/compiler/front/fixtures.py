"""Scenario fixtures: `fixture NAME { STEPS }` shared by scenarios that say `use NAME`.

The collector expands them before anything else sees a scenario: each `use` is replaced by
the fixture's steps, so a scenario is checked, lowered, run on both backends, covered and
mutated exactly as if the steps were written inline. The steps keep their spans, so a
mistake in them is reported where the fixture writes it. Fixtures have one namespace per
compilation (the edition's rules file, its libraries and all its scenario files), so that
every scenario file of an edition shares the same setups.
"""

from __future__ import annotations

from dataclasses import replace

from ..common.diagnostics import Reporter, did_you_mean
from ..common.error_codes import ErrorCode
from . import ast

# What a fixture may hold: a scenario's setup. Playing and expecting stay in each scenario,
# which is what a reader of the scenario must see.
FIXTURE_STEPS = frozenset({"players", "given", "dice", "random", "cards", "answer", "option",
                           "policy", "use"})


def add_fixture(fixtures: dict[str, ast.Fixture], decl: ast.Fixture, report: Reporter) -> None:
    """Keep a fixture by its name; an error when the name is taken or a step is no setup."""
    for step in decl.steps:
        if step.kind not in FIXTURE_STEPS:
            report.error(step.span, f"a fixture cannot hold '{_keyword(step)}'",
                         "a fixture sets a scenario up (players, given, dice, random, cards, "
                         "answer, option, policy, use); play and expect stay in the scenario",
                         code=ErrorCode.BAD_FIXTURE)
    previous = fixtures.get(decl.name)
    if previous is not None:
        report.error(decl.span, f"fixture '{decl.name}' is already defined at {previous.span}",
                     "rename or remove one of them", code=ErrorCode.DEFINED_TWICE)
        return
    fixtures[decl.name] = decl


def expand_scenarios(scenarios: list[ast.Scenario], fixtures: dict[str, ast.Fixture],
                     report: Reporter) -> list[ast.Scenario]:
    """The scenarios with each `use` replaced by its fixture's steps (fixtures used by
    fixtures expanded too); an unknown fixture and a fixture that uses itself are errors."""
    resolved = _Resolver(fixtures, report).run()
    expanded: list[ast.Scenario] = []
    for scenario in scenarios:
        if not any(step.kind == "use" for step in scenario.steps):
            expanded.append(scenario)
            continue
        steps: list[ast.ScenarioStep] = []
        for step in scenario.steps:
            if step.kind != "use":
                steps.append(step)
            elif step.name in resolved:
                steps += resolved[step.name]
            else:
                _unknown(step, fixtures, report)
        expanded.append(replace(scenario, steps=tuple(steps)))
    return expanded


class _Resolver:
    """Each fixture's steps with its own `use`s expanded, each fixture resolved once, so
    that a mistake in one is reported once however many scenarios use it."""

    def __init__(self, fixtures: dict[str, ast.Fixture], report: Reporter):
        self.fixtures = fixtures
        self.report = report
        self.done: dict[str, tuple[ast.ScenarioStep, ...]] = {}

    def run(self) -> dict[str, tuple[ast.ScenarioStep, ...]]:
        for name in self.fixtures:
            self._resolve(name, (name,))
        return self.done

    def _resolve(self, name: str, stack: tuple[str, ...]) -> tuple[ast.ScenarioStep, ...]:
        if name in self.done:
            return self.done[name]
        steps: list[ast.ScenarioStep] = []
        for step in self.fixtures[name].steps:
            if step.kind != "use":
                steps.append(step)
            elif step.name in stack:
                chain = " -> ".join((*stack[stack.index(step.name):], step.name))
                self.report.error(step.span, f"fixture '{step.name}' uses itself: {chain}",
                                  "a fixture may use other fixtures, but not in a cycle",
                                  code=ErrorCode.BAD_FIXTURE)
            elif step.name in self.fixtures:
                steps += self._resolve(step.name, (*stack, step.name))
            else:
                _unknown(step, self.fixtures, self.report)
        self.done[name] = tuple(steps)
        return self.done[name]


def _unknown(step: ast.ScenarioStep, fixtures: dict[str, ast.Fixture], report: Reporter) -> None:
    hint = did_you_mean(step.name, set(fixtures)) or (
        f"fixtures: {', '.join(sorted(fixtures))}" if fixtures else
        "define it with `fixture NAME { ... }` in the edition or one of its scenario files")
    report.error(step.span, f"unknown fixture '{step.name}'", hint,
                 code=ErrorCode.SCENARIO_UNKNOWN)


def _keyword(step: ast.ScenarioStep) -> str:
    """How the step is written: `expect` for every expectation."""
    return "play" if step.kind == "play" else "expect"
