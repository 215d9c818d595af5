"""`boardrules mutate` and `boardrules coverage --mutation`: the command line of mutation
testing (the work is in harness/mutate.py and harness/mutation_report.py)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cli_support import UsageError, at_least, check_edition, interrupted, percent

if TYPE_CHECKING:
    from .harness.coverage import Report


MAX_SECONDS = 7 * 24 * 3600  # a week: longer is a typo (and inf or 1e12 overflow a clock)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= MAX_SECONDS:  # also refuses nan, which compares false
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most {MAX_SECONDS} "
                                         f"seconds (a week), not {text}")
    return value


def add_mutate(commands: argparse._SubParsersAction) -> None:
    """Register `mutate`, and give `coverage` its --mutation options."""
    mutate = commands.add_parser(
        "mutate", help="mutation testing: would the scenarios notice a wrong rule?")
    mutate.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    limit = mutate.add_mutually_exclusive_group()
    limit.add_argument("--budget", type=at_least(1), metavar="N",
                       help="run at most N mutants, spread over the rules (default: all)")
    limit.add_argument("--time", type=_seconds, metavar="S",
                       help="start no mutant after S seconds, the ones run spread over the "
                       "rules (default: no limit)")
    mutate.add_argument("--rule", metavar="NAME",
                        help="only the mutants of this rule, procedure, card, decision, "
                        "param, space or group, or that count for it (default: all)")
    mutate.add_argument("--numbers", choices=("include", "skip", "only"), default="include",
                        help="the declared numbers' mutants (each field value of a space, "
                        "group or card + 1): run with the rules' (include, the default), "
                        "not at all (skip) or alone (only)")
    mutate.add_argument("--json", metavar="FILE",
                        help="write the results as JSON (what coverage --mutation reads)")
    mutate.add_argument("--html", metavar="FILE", help="write the results as one HTML page")
    mutate.add_argument("--workers", type=at_least(1), default=2, help="worker processes")
    mutate.add_argument("--timeout", type=_seconds, metavar="S",
                        help="a mutant running longer is killed by timeout (default: five "
                        "times the unmutated run, at least 5 s)")
    mutate.add_argument("--seed", type=at_least(0), default=0,
                        help="the seed that orders (and with --budget samples) the mutants")
    mutate.add_argument("--survivors", type=at_least(0), metavar="N",
                        help="show at most N survivors on the terminal (default: all)")
    coverage = commands.choices["coverage"]
    coverage.add_argument("--mutation", metavar="FILE",
                          help="mutation results (boardrules mutate --json): a sentence is "
                          "tested only when the scenarios kill its rules' mutants, else "
                          "exercised (default: none)")
    coverage.add_argument("--mutation-threshold", type=percent, default=100.0, metavar="PCT",
                          help="with --mutation: the share of the quoting rules' mutants "
                          "that must be killed (or equivalent) for tested")


def cmd_mutate(args: argparse.Namespace) -> int:
    from .compiler.common.diagnostics import terminal_text
    from .harness.mutate import mutate
    from .harness.mutation_report import format_report, render_html, summary
    from .harness.simulate import ProgressBar
    from .outputs import check_outputs, run_inputs, write_atomic

    check_edition(args.edition)
    check_outputs([("--json", args.json), ("--html", args.html)], run_inputs([args.edition]))
    try:
        run = mutate(args.edition, budget=args.budget, time_limit=args.time, rule=args.rule,
                     workers=args.workers, timeout=args.timeout, seed=args.seed,
                     progress=ProgressBar("mutants"), numbers=args.numbers)
    except LookupError as exc:
        raise UsageError(str(exc)) from None
    data = summary(run)
    print(terminal_text(format_report(data, args.survivors), keep="\t\n"))
    if args.json:
        write_atomic(args.json, json.dumps(data, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    if args.html:
        write_atomic(args.html, render_html(data))
        print(f"wrote {args.html}")
    if run.partial:
        return interrupted(f"{len(run.results)} of {len(run.selected)} mutants run"
                           + (", written as partial" if args.json or args.html else ""))
    return 0


def read_mutation(path: str | None) -> dict[str, Any] | None:
    """The JSON of a mutate run, checked before any scenario runs (exit 2 when unusable)."""
    if path is None:
        return None
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise UsageError(f"--mutation {path}: cannot read mutation results: {exc}") from None
    if not isinstance(data, dict) or not {"edition", "units", "totals"} <= set(data):
        raise UsageError(f"--mutation {path}: not the JSON of boardrules mutate")
    return data


def apply_mutation_file(report: Report, data: dict[str, Any] | None,
                        args: argparse.Namespace) -> None:
    """Feed the coverage report with mutation results (tested or exercised)."""
    if data is None:
        return
    from .harness.coverage import apply_mutation

    try:
        warnings = apply_mutation(report, data, args.mutation, args.mutation_threshold)
    except ValueError as exc:
        raise UsageError(f"--mutation: {exc}") from None
    for warning in warnings:
        print(f"boardrules: warning: {warning}", file=sys.stderr)
