"""The command line: check, compile and simulate editions.

Every failure a user can cause (a broken rules file, a bad argument, no C
compiler) ends with a clear message and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from . import __version__
from .agents.policies import PYTHON_POLICIES
from .cli_authoring import add_authoring, check_library_file, cmd_new, library_search
from .cli_mutate import add_mutate, apply_mutation_file, cmd_mutate, read_mutation
from .cli_play import add_play, cmd_play, cmd_replay
from .cli_support import (
    INT_MAX,
    USAGE_ERROR,
    DefaultsHelpFormatter,
    QuietWhenClosed,
    UsageError,
    at_least,
    cap_workers,
    check_edition,
    check_engine,
    checked_module,
    interrupted,
    percent,
)
from .compiler.build.artifacts import verified, watching
from .compiler.build.build_settings import BuildError
from .compiler.build.obtain import compile_edition, indexed_artifact, publish_compilation
from .compiler.common.diagnostics import CompileError, did_you_mean, print_warnings, terminal_text
from .harness.describe_format import SECTIONS as DESCRIBED_SECTIONS
from .harness.failure_trace import TRACE_LINES
from .harness.ray_engine import RayUnavailable
from .harness.simulate import (
    ENGINES,
    Interrupted,
    ProgressBar,
    SimulationError,
    format_summary,
    simulate,
    write_records,
)
from .harness.test_command import SUITES
from .outputs import check_outputs, run_inputs, write_atomic
from .progress import BuildProgress
from .runtime.loader import BACKENDS, EditionNotFound, resolve_edition


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:  # every command's help says the defaults
        kwargs.setdefault("formatter_class", DefaultsHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # one line, not argparse's usage dump
        raise UsageError(message + self._suggestion(message))

    def _suggestion(self, message: str) -> str:
        """' (did you mean ...?)' for a mistyped command or option, as git and cargo say."""
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            given, known = choice.group(1), re.findall(r"'([^']*)'", choice.group(2))
            started = [name for name in known if given and name.startswith(given)]
            hint = (f"did you mean '{started[0]}'?" if len(started) == 1
                    else did_you_mean(given, known))
            if message.startswith("argument COMMAND") and given in DESCRIBED_SECTIONS:
                # `boardrules options EDITION`: what an edition declares is describe's
                hint = f"did you mean 'describe EDITION --section {given}'?"
        else:
            unknown = re.search(r"unrecognized arguments: (-[^\s=]+)", message)
            hint = did_you_mean(unknown.group(1), self._option_strings()) if unknown else ""
        return f" ({hint})" if hint else ""

    def _option_strings(self) -> set[str]:
        """Every option of this parser and of its commands."""
        found: set[str] = set()
        for action in self._actions:
            found.update(s for s in action.option_strings if s.startswith("--"))
            commands = getattr(action, "choices", None)
            if isinstance(commands, dict):  # a command's own parser
                found.update(*(sub._option_strings() for sub in commands.values()
                               if isinstance(sub, _Parser)))
        return found


_positive = at_least(1)
_seed = at_least(0)
_turn_limit = at_least(1, INT_MAX)


def _days(text: str) -> float:
    """An argparse type: a finite number of days, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}") from None
    if not 0 <= value <= 100_000:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be from 0 to 100000 days, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boardrules", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
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
    cache.add_argument("--older-than", type=_days, metavar="DAYS",
                       help="with clean: only what no command built or loaded for DAYS days "
                       "(default: everything)")

    sim = commands.add_parser("simulate", help="play N seeded games and summarise them")
    sim.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    sim.add_argument("--games", type=_positive, default=1000, help="games to play")
    sim.add_argument("--players", type=_positive, default=4, help="players in each game")
    sim.add_argument("--seed", type=_seed, default=0,
                     help="the run's seed, from which each game's seed derives")
    sim.add_argument("--backend", choices=BACKENDS, default="compiled",
                     help="the C extension, or the same generated module run by CPython")
    sim.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    sim.add_argument("--games-out", metavar="FILE",
                     help="write one record per game: .csv, else JSON lines (seed, turns, "
                     "winners, how it ended, each seat's place and final cash)")
    sim.add_argument("--workers", type=_positive,
                     help="worker processes, or the CPUs of the local Ray that --engine ray "
                     "starts (default: one per CPU; with --address, the cluster's CPUs)")
    sim.add_argument("--engine", choices=ENGINES, default="processes",
                     help="local worker processes, or Ray tasks playing batches of games, "
                     "which needs pip install -e '.[ray]'")
    sim.add_argument("--address", metavar="ADDR",
                     help="with --engine ray: the Ray cluster to run on, as `ray start "
                     "--head` prints it (host:port) (default: a local Ray for the run)")
    sim.add_argument("--turn-limit", type=_turn_limit,
                     help="override the edition's turn cap (default: the edition's)")
    sim.add_argument("--policy", choices=("default", "random", *PYTHON_POLICIES),
                     default="default",
                     help="the policy every seat plays: built in, or window-passer (random, "
                     "but often passing in windows; docs/agents.md)")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="choose one of the edition's options (variants); repeatable")
    sim.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                     help="build the edition with a declared int, money or bool param set to "
                     "VALUE (a strategy's reserve, a fine), as if the rules file said so; "
                     "repeatable")
    sim.add_argument("--check-invariants", action="store_true",
                     help="also check every game's invariants after each turn (money through "
                     "the ledger, retired owners, supply, even building...); exit 1 on a "
                     "violation")
    test = commands.add_parser("test", help="run an edition's scenarios on both backends")
    test.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    test.add_argument("--backend", choices=BACKENDS,
                      help="only this backend (default: both)")
    test.add_argument("-k", dest="patterns", action="append", default=[], metavar="PATTERN",
                      help="only the scenarios whose id (EDITION::file::RULE::title) holds "
                      "PATTERN, ignoring case; repeatable: all must match")
    test.add_argument("--rule", dest="rules", action="append", default=[], metavar="NAME",
                      help="only the scenarios that test this rule (or target); repeatable")
    test.add_argument("--suite", choices=SUITES,
                      help="only one suite: conformance/*.rules, scenarios/*.rules, or the "
                      "rules file's own scenarios")
    test.add_argument("-x", "--exitfirst", action="store_true",
                      help="stop at the first failure")
    test.add_argument("-v", "--verbose", action="store_true",
                      help="list every scenario run, passed or failed, and show a failure's "
                      "whole trace")
    test.add_argument("--trace", action="store_true",
                      help="print the whole trace of every selected scenario, passed or "
                      "failed")
    test.add_argument("--trace-lines", type=_seed, default=TRACE_LINES, metavar="N",
                      help="the lines of the trace shown under a failure")

    cov = commands.add_parser("coverage",
                              help="which rulebook sentences are implemented and tested")
    cov.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    cov.add_argument("--json", metavar="FILE", help="write the report as JSON")
    cov.add_argument("--html", metavar="FILE",
                     help="write the coverage page: one self-contained HTML file")
    cov.add_argument("--games", type=_positive,
                     help="also simulate N games and list the rules that never fired")
    cov.add_argument("--seed", type=_seed, default=0, help="the seed of the --games run")
    cov.add_argument("--players", type=_positive, help="for --games (default: the most)")
    cov.add_argument("--fail-under", type=percent, metavar="PCT",
                     help="exit 1 when fewer sentences are tested or waived (0 to 100; "
                     "default: never)")
    describe = commands.add_parser(
        "describe", help="an edition's vocabulary without its logic, for writing scenarios")
    describe.add_argument("edition", help="an edition name under rulesets/ or a .rules file")
    describe.add_argument("--json", action="store_true",
                          help="print JSON (a stable schema) instead of text")
    describe.add_argument("--section", action="append", choices=DESCRIBED_SECTIONS,
                          metavar="NAME", help="only this section (repeatable), after the "
                          "edition and its players: options (their types, ranges and "
                          "defaults), params, spaces, decisions, rules, ... "
                          f"(one of {', '.join(DESCRIBED_SECTIONS)}) (default: all)")
    _add_analysis_commands(commands)
    commands.add_parser("lsp", help="the language server for editors, on stdin and stdout "
                        "(docs/editor.md)")
    add_mutate(commands)  # mutate, and coverage --mutation
    add_authoring(commands)  # new, and --lib on every command that compiles
    add_play(commands)  # play and replay
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a command: 0 when it succeeds, 1 when the rules or the games fail, 2 for a bad
    argument (README, "Commands")."""
    stdout, sys.stdout = sys.stdout, QuietWhenClosed(sys.stdout)
    try:
        return _run(argv)
    finally:
        sys.stdout = stdout


def _run(argv: list[str] | None) -> int:
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help, --version
            return exc.code if isinstance(exc.code, int) else 0
        if args.command is None:
            raise UsageError("a command is needed: " + ", ".join(COMMANDS)
                             + " (boardrules --help says more)")
        cap_workers(args)
        with watching(BuildProgress()):  # compiling shows its steps on a terminal
            with library_search(args):
                return COMMANDS[args.command](args)
    except (UsageError, EditionNotFound, RayUnavailable) as exc:
        print(f"boardrules: error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except CompileError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except (BuildError, SimulationError, ValueError, OSError) as exc:
        print(f"boardrules: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return interrupted()


def _compile(name: str, until: str = "codegen", after_pass=None):
    path = resolve_edition(name)
    if after_pass is not None:  # the IR goes to the terminal: no progress bar over it
        from .compiler.pipeline import compile_rules

        return compile_rules(path, until=until, after_pass=after_pass)
    return compile_edition(path, until)


def _ir_dumper(wanted: str):
    """Print the program after each pass that has one (or only after `wanted`)."""
    from .compiler.ir import ir_text
    from .compiler.pipeline import PASS_NAMES

    dumpable = PASS_NAMES[PASS_NAMES.index("check"):PASS_NAMES.index("codegen")]
    if wanted != "all" and wanted not in dumpable:
        raise UsageError(f"--dump-ir takes one of: {', '.join(dumpable)}")

    def dump(name: str, compilation) -> None:
        if name in dumpable and wanted in ("all", name):
            print(f"# ---- IR after {name} ----")
            print(ir_text.program(compilation.program), end="")
    return dump


def cmd_check(args) -> int:
    library = check_library_file(args.file)  # a library module alone: what can be checked
    if library is not None:
        return library
    # every pass that can reject a program, so that check never passes what compile rejects
    from .compiler.pipeline import LAST_CHECKING_PASS

    compilation = _compile(args.file, until=LAST_CHECKING_PASS)
    print_warnings(compilation)
    program = compilation.program
    print(f"{args.file}: ok: {len(program.rules)} rules, {len(program.space_ids)} spaces, "
          f"{len(program.card_ids)} cards, {len(program.decisions)} decisions, "
          f"{len(compilation.warnings)} warning(s)")
    return 0


def cmd_compile(args) -> int:
    dump = _ir_dumper(args.dump_ir) if args.dump_ir else None
    if args.backend == "compiled" and not _built(args.edition):
        from .compiler.build import cython_process

        cython_process.start_ahead()  # its start overlaps the front end
    compilation = _compile(args.edition, after_pass=dump)
    print_warnings(compilation)
    artifact = publish_compilation(compilation, args.backend)
    if args.backend == "compiled":
        print(f"compiled {compilation.edition}: {artifact.extension}")
    else:
        print(f"generated {compilation.edition}: {artifact.source}")
    return 0


def _built(name: str) -> bool:
    """Whether the edition's extension is in the cache for its unchanged files: then no
    Cython process is started ahead for nothing."""
    artifact = indexed_artifact(resolve_edition(name))
    return artifact is not None and verified(artifact.extension)


def cmd_simulate(args) -> int:
    policies = None if args.policy == "default" else [args.policy] * args.players
    check_edition(args.edition)
    check_outputs([("--json", args.json), ("--games-out", args.games_out)],
                  run_inputs([args.edition]))  # before any game is played
    check_engine(args.engine, args.address)
    checked_module(args.edition, args.backend, args.players, args.option, args.param)
    try:
        summary = simulate(args.edition, args.games, args.players, args.seed, args.backend,
                           workers=args.workers, engine=args.engine, turn_cap=args.turn_limit,
                           policies=policies, options=args.option, progress=ProgressBar(),
                           records=bool(args.games_out), address=args.address,
                           params=args.param)
    except Interrupted as stop:
        summary = stop.done
    data = summary.to_json()
    print(terminal_text(format_summary(data), keep="\t\n"))
    if args.json:
        write_atomic(args.json, json.dumps(data, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    if args.games_out:
        write_records(Path(args.games_out), sorted(summary.tally.records,
                                                   key=lambda r: r["game"]))
        print(f"wrote {args.games_out}")
    if summary.partial:
        return interrupted(f"{summary.games} of {args.games} games played"
                           + (", written as partial" if args.json or args.games_out else ""))
    if args.check_invariants:
        from .harness.invariant_run import command as check_invariants

        return check_invariants(args, policies)
    return 0


def cmd_test(args) -> int:
    from .harness.test_command import Selection, run_test_command  # not on simulate's path

    def usage_error(message: str) -> None:
        raise UsageError(message)

    check_edition(args.edition)
    backends = (args.backend,) if args.backend else ("interpreted", "compiled")
    selection = Selection(tuple(args.patterns), tuple(args.rules), args.suite, args.exitfirst,
                          args.verbose, args.trace, args.trace_lines)
    return run_test_command(args.edition, backends, selection, usage_error)


def cmd_coverage(args) -> int:
    from .harness.coverage import coverage, format_table
    from .harness.coverage_html import render_html
    from .harness.scenarios import run_edition

    check_edition(args.edition)
    check_outputs([("--json", args.json), ("--html", args.html)],
                  run_inputs([args.edition], [("--mutation", args.mutation)]))
    mutation = read_mutation(args.mutation)
    if args.games:  # the players checked before the scenarios run
        module = checked_module(args.edition, "compiled")
        players = args.players or module.MAX_PLAYERS
        checked_module(args.edition, "compiled", players)
    compilation, outcomes = run_edition(args.edition)
    report = coverage(compilation, outcomes)
    apply_mutation_file(report, mutation, args)
    if args.games:
        summary = simulate(args.edition, args.games, players, args.seed,
                           progress=ProgressBar())
        figures = summary.to_json()
        report.never_fired = figures["rules_never_fired"]
        report.without_handlers = figures["rules_without_handlers"]
        report.games = args.games
    print(terminal_text(format_table(report), keep="\t\n"))
    written = []
    if args.json:
        write_atomic(args.json, json.dumps(report.to_json(), indent=2) + "\n")
        written.append(args.json)
    if args.html:
        write_atomic(args.html, render_html(report))
        written.append(args.html)
    if written:  # where the files went, as simulate, report and mutate say
        print("\n" + "\n".join(f"wrote {path}" for path in written))
    if args.fail_under is not None and report.percent_done() < args.fail_under:
        print(f"boardrules: error: {report.percent_done():.1f}% of sentences tested or waived, "
              f"under {args.fail_under}%", file=sys.stderr)
        return 1
    return 0


def cmd_describe(args) -> int:
    from .harness.describe import describe, edition_alone, format_text
    from .harness.describe_format import only

    try:  # the whole front end, as `test` runs it: its result is kept, so either reads it back
        compilation = _compile(args.edition)
    except CompileError as exc:  # a scenario file being written does not hide the vocabulary
        compilation = edition_alone(resolve_edition(args.edition), exc)
        print("boardrules: warning: described without the scenario files, which do not "
              f"check (boardrules check {args.edition})", file=sys.stderr)
    data = describe(compilation)
    if args.section:
        data = only(data, args.section)
    print(json.dumps(data, indent=2) if args.json else format_text(data), end="\n"
          if args.json else "")
    return 0


def cmd_cache(args) -> int:
    from .compiler.build.artifacts import clean_cache
    from .compiler.common.cache_folder import cache_root

    if args.older_than is not None and args.action != "clean":
        raise UsageError("--older-than is for cache clean")
    if args.action == "where":
        print(cache_root())
    else:
        removed = clean_cache(None if args.older_than is None else args.older_than * 86400)
        print(f"removed {removed} cached edition(s) from {cache_root()}")
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
    command.add_argument("--turn-limit", type=_turn_limit,
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


def cmd_report(args) -> int:
    from .harness.report import run_report, writes_in_folder

    out = Path(args.out)
    check_outputs([], run_inputs([args.edition]), ("--out", out), writes_in_folder)
    checked_module(args.edition, args.backend, args.players, args.option)
    policies = None if args.policy == "default" else [args.policy] * args.players
    try:
        runs = run_report(args.edition, args.games, args.players, args.seed, out,
                          options=args.option, backend=args.backend, workers=args.workers,
                          turn_cap=args.turn_limit, policies=policies, samples=args.samples,
                          progress=ProgressBar)
    except Interrupted as stop:
        return interrupted(f"{len(stop.done)} run(s) written as partial JSON into {out}"
                           if stop.done else "")
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
    check_outputs([("--json", args.json)], run_inputs(edition for edition, _ in sides))
    for edition, options in sides:
        checked_module(edition, args.backend, args.players, options)
    policies = None if args.policy == "default" else [args.policy] * args.players
    done: list = []
    try:
        for (edition, options), offset in zip(sides, (0, B_SEED_OFFSET), strict=True):
            done.append(simulate(edition, args.games, args.players, args.seed + offset,
                                 args.backend, workers=args.workers, turn_cap=args.turn_limit,
                                 policies=policies, options=options, progress=ProgressBar()))
    except KeyboardInterrupt as stop:
        done += [stop.done] if isinstance(stop, Interrupted) else []
        if args.json and done:  # no comparison: each side's figures so far
            write_atomic(args.json, json.dumps(
                {"partial": True, "sides": [side.to_json() for side in done]}, indent=2) + "\n")
        return interrupted(f"{len(done)} side(s) simulated" + (", written as partial"
                                                               if args.json and done else ""))
    a, b = done
    rows = compare(a, b)
    labels = (side_label(a, sides[0][1]), side_label(b, sides[1][1]))
    print(terminal_text(format_comparison(a, b, rows, labels), keep="\t\n"))
    if args.json:
        write_atomic(args.json, json.dumps(comparison_json(a, b, rows, labels), indent=2)
                     + "\n")
        print(f"\nwrote {args.json}")
    return 0


def cmd_lsp(args) -> int:
    try:
        from .editor.lsp import serve
    except ImportError as exc:  # the editor extra is not installed
        raise UsageError(f"the language server needs {(exc.name or 'pygls').split('.')[0]}: "
                         "pip install 'boardrules[editor]'") from None
    serve()
    return 0


COMMANDS = {"check": cmd_check, "compile": cmd_compile, "cache": cmd_cache,
            "simulate": cmd_simulate,
            "test": cmd_test, "coverage": cmd_coverage,
            "report": cmd_report, "compare": cmd_compare, "new": cmd_new,
            "mutate": cmd_mutate, "describe": cmd_describe, "lsp": cmd_lsp,
            "play": cmd_play, "replay": cmd_replay}

if __name__ == "__main__":
    sys.exit(main())
