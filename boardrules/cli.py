"""The command line: check, compile and simulate editions.

Every failure a user can cause (a broken rules file, a bad argument, no C
compiler) ends with a clear message and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from .compiler.build import BuildError, build_extension, write_source
from .compiler.diagnostics import CompileError
from .harness.simulate import (
    ENGINES,
    ProgressBar,
    SimulationError,
    format_summary,
    simulate,
    write_records,
)
from .runtime.loader import BACKENDS, EditionNotFound, resolve_edition


class UsageError(Exception):
    """A bad command-line argument: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not argparse's usage dump
        raise UsageError(message)


def _at_least(minimum: int):
    """An argparse type: a whole number no smaller than `minimum`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    return parse


_positive = _at_least(1)
_seed = _at_least(0)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardrules", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    check = commands.add_parser("check", help="parse and check a rules file")
    check.add_argument("file", help="an edition's .rules file (or an edition name)")

    compile_ = commands.add_parser("compile", help="compile an edition to a C extension")
    compile_.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    compile_.add_argument("--backend", choices=BACKENDS, default="compiled",
                          help="interpreted only writes the generated module")
    compile_.add_argument("--dump-ir", nargs="?", const="all", metavar="PASS",
                          help="print the IR after each pass from check on (or after PASS "
                          "only: check, capacity or an optimization such as index-filters)")

    cache = commands.add_parser("cache", help="manage the cache of compiled editions")
    cache.add_argument("action", choices=["clean", "where"],
                       help="clean: remove every cached edition; where: print the cache folder")

    sim = commands.add_parser("simulate", help="play N seeded games and summarise them")
    sim.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    sim.add_argument("--games", type=_positive, default=1000)
    sim.add_argument("--players", type=_positive, default=4)
    sim.add_argument("--seed", type=_seed, default=0)
    sim.add_argument("--backend", choices=BACKENDS, default="compiled")
    sim.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    sim.add_argument("--games-out", metavar="FILE",
                     help="write one record per game: .csv, else JSON lines (seed, turns, "
                     "winner, how it ended, final cash per seat)")
    sim.add_argument("--workers", type=_positive, help="worker processes (default: CPUs)")
    sim.add_argument("--engine", choices=ENGINES, default="processes")
    sim.add_argument("--turn-limit", type=_positive, help="override the edition's turn cap")
    sim.add_argument("--policy", choices=("default", "random"), default="default",
                     help="the built-in policy every seat plays")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="choose one of the edition's options (variants); repeatable")
    test = commands.add_parser("test", help="run an edition's scenarios on both backends")
    test.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    test.add_argument("--backend", choices=BACKENDS, help="only this backend")

    cov = commands.add_parser("coverage",
                              help="which rulebook sentences are implemented and tested")
    cov.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    cov.add_argument("--json", metavar="FILE", help="write the report as JSON")
    cov.add_argument("--html", metavar="FILE",
                     help="write the coverage page: one self-contained HTML file")
    cov.add_argument("--games", type=_positive,
                     help="also simulate N games and list the rules that never fired")
    cov.add_argument("--seed", type=_seed, default=0)
    cov.add_argument("--players", type=_positive, help="for --games (default: the most)")
    cov.add_argument("--fail-under", type=float, metavar="PCT",
                     help="exit 1 when fewer sentences are tested or waived")
    _add_analysis_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            build_parser().print_help()
            return 2
        return COMMANDS[args.command](args)
    except UsageError as exc:
        print(f"boardrules: error: {exc}", file=sys.stderr)
        return 2
    except CompileError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except (BuildError, EditionNotFound, SimulationError, ValueError, OSError) as exc:
        print(f"boardrules: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("boardrules: interrupted", file=sys.stderr)
        return 130


def _compile(name: str, until: str = "codegen", after_pass=None):
    from .compiler.pipeline import compile_rules

    return compile_rules(resolve_edition(name), until=until, after_pass=after_pass)


def _ir_dumper(wanted: str):
    """Print the program after each pass that has one (or only after `wanted`)."""
    from .compiler import ir_text
    from .compiler.pipeline import PASS_NAMES

    dumpable = PASS_NAMES[PASS_NAMES.index("check"):PASS_NAMES.index("codegen")]
    if wanted != "all" and wanted not in dumpable:
        raise UsageError(f"--dump-ir takes one of: {', '.join(dumpable)}")

    def dump(name: str, compilation) -> None:
        if name in dumpable and wanted in ("all", name):
            print(f"# ---- IR after {name} ----")
            print(ir_text.program(compilation.program), end="")
    return dump


def _print_warnings(compilation) -> None:
    for warning in compilation.warnings:
        print(warning.render(compilation.sources.texts if compilation.sources else None),
              file=sys.stderr)


def cmd_check(args) -> int:
    # every pass that can reject a program, so that check never passes what compile rejects
    compilation = _compile(args.file, until=_last_checking_pass())
    _print_warnings(compilation)
    program = compilation.program
    print(f"{args.file}: ok: {len(program.rules)} rules, {len(program.space_ids)} spaces, "
          f"{len(program.card_ids)} cards, {len(program.decisions)} decisions, "
          f"{len(compilation.warnings)} warning(s)")
    return 0


def _last_checking_pass() -> str:
    from .compiler.pipeline import PASS_NAMES

    return PASS_NAMES[PASS_NAMES.index("codegen") - 1]


def cmd_compile(args) -> int:
    dump = _ir_dumper(args.dump_ir) if args.dump_ir else None
    compilation = _compile(args.edition, after_pass=dump)
    _print_warnings(compilation)
    if args.backend == "compiled":
        artifact = build_extension(compilation)
        print(f"compiled {compilation.edition}: {artifact.extension}")
    else:
        artifact = write_source(compilation)
        print(f"generated {compilation.edition}: {artifact.source}")
    return 0


def cmd_simulate(args) -> int:
    policies = None if args.policy == "default" else [args.policy] * args.players
    for output in (args.json, args.games_out):  # before any game is played
        if output and not _writable(Path(output)):
            raise UsageError(f"cannot write {output}")
    summary = simulate(args.edition, args.games, args.players, args.seed, args.backend,
                       workers=args.workers, engine=args.engine, turn_cap=args.turn_limit,
                       policies=policies, options=args.option, progress=ProgressBar(),
                       records=bool(args.games_out))
    data = summary.to_json()
    print(format_summary(data))
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    if args.games_out:
        write_records(Path(args.games_out), sorted(summary.tally.records,
                                                   key=lambda r: r["game"]))
        print(f"wrote {args.games_out}")
    return 0


def _writable(path: Path) -> bool:
    folder = path.parent if str(path.parent) else Path(".")
    return folder.is_dir() and os.access(folder, os.W_OK) and (
        not path.exists() or os.access(path, os.W_OK))


def cmd_test(args) -> int:
    from .harness.scenarios import run_edition  # the front end: not on simulate's path

    backends = (args.backend,) if args.backend else ("interpreted", "compiled")
    _, outcomes = run_edition(args.edition, backends)
    failed = [o for o in outcomes if not o.passed]
    for outcome in failed:
        print(f"FAILED {outcome.case.test_id} [{outcome.backend}]\n{outcome.message}\n")
    print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed "
          f"({len(outcomes) // max(1, len(backends))} scenarios x {len(backends)} backend(s))")
    return 1 if failed else 0


def cmd_coverage(args) -> int:
    from .harness.coverage import coverage, format_table
    from .harness.coverage_html import render_html
    from .harness.scenarios import run_edition

    compilation, outcomes = run_edition(args.edition)
    report = coverage(compilation, outcomes)
    if args.games:
        players = args.players or compilation.program.max_players
        summary = simulate(args.edition, args.games, players, args.seed,
                           progress=ProgressBar())
        figures = summary.to_json()
        report.never_fired = figures["rules_never_fired"]
        report.without_handlers = figures["rules_without_handlers"]
        report.games = args.games
    print(format_table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_json(), indent=2) + "\n")
    if args.html:
        Path(args.html).write_text(render_html(report), encoding="utf-8")
    if args.fail_under is not None and report.percent_done() < args.fail_under:
        print(f"boardrules: error: {report.percent_done():.1f}% of sentences tested or waived, "
              f"under {args.fail_under}%", file=sys.stderr)
        return 1
    return 0


def cmd_cache(args) -> int:
    from .compiler.build import cache_root, clean_cache

    if args.action == "where":
        print(cache_root())
    else:
        print(f"removed {clean_cache()} cached edition(s) from {cache_root()}")
    return 0


# ---- report and compare: pictures and differences ------------------------------------------
def _add_run_options(command: argparse.ArgumentParser, option_help: str) -> None:
    """The options of a simulated run that report and compare share."""
    command.add_argument("--games", type=_positive, default=1000,
                         help="games per run (default: 1000)")
    command.add_argument("--players", type=_positive, default=4, help="players (default: 4)")
    command.add_argument("--seed", type=_seed, default=0, help="the run's seed (default: 0)")
    command.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                         help=option_help)
    command.add_argument("--backend", choices=BACKENDS, default="compiled",
                         help="default: compiled")
    command.add_argument("--workers", type=_positive,
                         help="worker processes (default: one per CPU)")
    command.add_argument("--turn-limit", type=_positive,
                         help="override the edition's turn cap (default: the edition's)")
    command.add_argument("--policy", choices=("default", "random"), default="default",
                         help="the built-in policy every seat plays (default: default)")


def _add_analysis_commands(commands) -> None:
    report = commands.add_parser(
        "report", help="simulate and write an HTML page with figures (and each variant's)")
    report.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    report.add_argument("--out", required=True, metavar="DIR",
                        help="the folder to write index.html, summary.json and the figures "
                        "into (created if missing; required, no default)")
    _add_run_options(report, "fix one of the edition's options for every run; the options "
                     "not fixed each add a variant run (default: none fixed)")
    report.add_argument("--samples", type=_positive, default=3,
                        help="sample games drawn in the cash-over-time figure (default: 3)")
    compare = commands.add_parser(
        "compare", help="simulate two variants (or two editions) and test their differences")
    compare.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    compare.add_argument("edition_b", nargs="?", metavar="EDITION_B",
                         help="a second edition to compare with the first (default: none: "
                         "compare two variants of the first)")
    _add_run_options(compare, "one side's options, NAME=VALUE[,NAME=VALUE...] ('' for the "
                     "edition's defaults): give it twice, A then B (with two editions: "
                     "twice or not at all; default: none)")
    compare.add_argument("--json", metavar="FILE",
                         help="also write the comparison as JSON (default: none)")


def _check_output(path: Path, folder: bool = False) -> None:
    """Refuse an output path that cannot be written, before any game is played: a folder
    is created (parents too) and a file tried in it; a file's folder must exist."""
    try:
        if folder:
            path.mkdir(parents=True, exist_ok=True)
        elif path.is_dir():
            raise UsageError(f"cannot write to {path}: it is a folder")
        with tempfile.TemporaryFile(dir=path if folder else path.parent):
            pass
        if not folder and path.exists():
            path.open("a").close()
    except OSError as exc:
        raise UsageError(f"cannot write to {path}: {exc.strerror or exc}") from None


def _checked_module(edition: str, backend: str, players: int, options: list[str]):
    """The edition's module, with the players and the options checked (exit 2)."""
    from .harness.simulate import parse_options
    from .runtime.loader import load_module

    try:
        resolve_edition(edition)
    except EditionNotFound as exc:
        raise UsageError(str(exc)) from None
    module = load_module(edition, backend)
    if not module.MIN_PLAYERS <= players <= module.MAX_PLAYERS:
        raise UsageError(f"{module.EDITION} is for {module.MIN_PLAYERS} to "
                         f"{module.MAX_PLAYERS} players, not {players}")
    try:
        parse_options(module, options)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return module


def cmd_report(args) -> int:
    from .harness.report import run_report

    out = Path(args.out)
    _check_output(out, folder=True)
    _checked_module(args.edition, args.backend, args.players, args.option)
    policies = None if args.policy == "default" else [args.policy] * args.players
    runs = run_report(args.edition, args.games, args.players, args.seed, out,
                      options=args.option, backend=args.backend, workers=args.workers,
                      turn_cap=args.turn_limit, policies=policies, samples=args.samples,
                      progress=ProgressBar)
    for run in runs:
        turns = run.data["turns"]
        print(f"{run.variant.label}: {run.data['games']} games, mean {turns['mean']:.1f} "
              f"turns, median {turns['p50']:.0f}")
    print(f"wrote {out / 'index.html'}")
    return 0


def cmd_compare(args) -> int:
    from .harness.compare import (
        B_SEED_OFFSET,
        compare,
        comparison_json,
        format_comparison,
        side_label,
        sides_to_compare,
    )

    try:
        sides = sides_to_compare(args.edition, args.edition_b, args.option)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        _check_output(Path(args.json))
    for edition, options in sides:
        _checked_module(edition, args.backend, args.players, options)
    policies = None if args.policy == "default" else [args.policy] * args.players
    a, b = (simulate(edition, args.games, args.players, args.seed + offset, args.backend,
                     workers=args.workers, turn_cap=args.turn_limit, policies=policies,
                     options=options, progress=ProgressBar())
            for (edition, options), offset in zip(sides, (0, B_SEED_OFFSET), strict=True))
    rows = compare(a, b)
    labels = (side_label(a, sides[0][1]), side_label(b, sides[1][1]))
    print(format_comparison(a, b, rows, labels))
    if args.json:
        Path(args.json).write_text(json.dumps(comparison_json(a, b, rows, labels), indent=2)
                                   + "\n")
        print(f"\nwrote {args.json}")
    return 0


COMMANDS = {"check": cmd_check, "compile": cmd_compile, "cache": cmd_cache,
            "simulate": cmd_simulate,
            "test": cmd_test, "coverage": cmd_coverage,
            "report": cmd_report, "compare": cmd_compare}

if __name__ == "__main__":
    sys.exit(main())
