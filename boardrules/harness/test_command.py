"""`boardrules test`: which of an edition's scenarios to run, and what to print of them.

A reader writing a conformance suite runs one file, one rule or one scenario again and
again, and needs to see what a scenario did even when it passes (an auction's bids, a
window's questions): so the scenarios can be picked by id, rule and suite, the run can stop
at the first failure, and traces are printed whole on request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .failure_trace import TRACE_LINES

if TYPE_CHECKING:  # the front end is imported when the scenarios run, not with the CLI
    from ..compiler.pipeline import Compilation
    from .scenarios import Case, Outcome

SUITES = ("conformance", "scenarios", "rules")


@dataclass(frozen=True)
class Selection:
    """What `test` runs and prints (its flags)."""

    patterns: tuple[str, ...] = ()  # -k: every one a case-insensitive part of the id
    rules: tuple[str, ...] = ()  # --rule: the scenario's target is one of them
    suite: str | None = None  # --suite
    first_failure: bool = False  # -x
    verbose: bool = False  # -v
    trace: bool = False  # --trace
    trace_lines: int | None = TRACE_LINES  # --trace-lines (None: whole)


def suite_of(case: Case) -> str:
    """"conformance" (conformance/*.rules), "scenarios" (scenarios/*.rules, or another
    folder's file) or "rules" (the scenarios written in the rules file itself)."""
    if case.suite == "conformance":
        return "conformance"
    return "scenarios" if case.file else "rules"


def selected(all_cases: list[Case], selection: Selection) -> list[Case]:
    """The cases the flags pick, in the edition's order."""
    patterns = [p.lower() for p in selection.patterns]
    return [case for case in all_cases
            if all(p in case.test_id.lower() for p in patterns)
            and (not selection.rules or case.target in selection.rules)
            and (selection.suite is None or suite_of(case) == selection.suite)]


def unknown_rules(all_cases: list[Case], rules: tuple[str, ...]) -> list[str]:
    """The `--rule` names that no scenario of the edition targets (a typo, most likely)."""
    targets = {case.target for case in all_cases}
    return [rule for rule in rules if rule not in targets]


def run_selected(compilation: Compilation, chosen: list[Case], backends: tuple[str, ...],
                 selection: Selection, say: Callable[[str], None] = print) -> list[Outcome]:
    """Run the chosen cases on each backend, printing as they finish; stop after the first
    failure with -x."""
    from .scenarios import run_case

    limit = None if selection.verbose or selection.trace else selection.trace_lines
    outcomes: list[Outcome] = []
    for backend in backends:
        for case in chosen:
            outcome = run_case(compilation, case, backend, limit)
            outcomes.append(outcome)
            if not outcome.passed:
                say(f"FAILED {case.test_id} [{backend}]\n{outcome.message}\n")
                if selection.first_failure:
                    return outcomes
                continue
            if selection.verbose:
                say(f"PASSED {case.test_id} [{backend}]")
            if selection.trace:
                say(f"trace of {case.test_id} [{backend}]:")
                say("\n".join(f"  {line}" for line in outcome.trace) + "\n")
    return outcomes


def run_test_command(edition: str, backends: tuple[str, ...], selection: Selection,
                     usage_error: Callable[[str], None]) -> int:
    """The `test` command: 0 when every selected scenario passes, 1 otherwise."""
    from ..compiler.common.diagnostics import print_warnings
    from .scenarios import cases, load_edition

    compilation = load_edition(edition)
    print_warnings(compilation)
    all_cases = cases(compilation)
    missing = unknown_rules(all_cases, selection.rules)
    if missing:
        usage_error(f"no scenario of {compilation.edition} tests {', '.join(missing)}")
    chosen = selected(all_cases, selection)
    filtered = selection.patterns or selection.rules or selection.suite is not None
    if not chosen and filtered:  # an edition without scenarios passes an unfiltered run
        usage_error(f"no scenario of {compilation.edition} matches the selection "
                    f"({len(all_cases)} scenarios in all)")
    outcomes = run_selected(compilation, chosen, backends, selection)
    failed = sum(1 for o in outcomes if not o.passed)
    stopped = " (stopped at the first failure)" if (
        selection.first_failure and len(outcomes) < len(chosen) * len(backends)) else ""
    print(f"{len(outcomes) - failed} passed, {failed} failed ({len(chosen)} scenarios"
          f"{' selected' if len(chosen) < len(all_cases) else ''} x {len(backends)} "
          f"backend(s)){stopped}")
    return 1 if failed else 0
