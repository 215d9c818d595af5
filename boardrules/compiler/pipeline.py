"""The compiler as one explicit, ordered list of passes.

    load (parse + imports) -> collect -> quotes -> check/lower -> capacity -> nesting
    -> call-budget -> the optimizations (optimize/: fold-constants, inline-procedures, ...)
    -> codegen

`compile_rules` runs them all and returns the generated module source; the
build step (`build.py`) turns that into a C extension.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from .back.codegen import check_capacity, generate
from .common.collector import cycle_collection_paused
from .common.diagnostics import Diagnostic, Reporter, Span
from .common.error_codes import ErrorCode
from .front.checker import Checker
from .front.lint import lint
from .front.modules import SourceSet, load_sources
from .front.quotes import check_quotes
from .front.rulebook import Rulebook
from .front.scenario_lowering import check_scenario_dice
from .front.symbols import Collector, Symbols
from .ir import nodes as ir
from .ir.call_budget import charge_calls
from .ir.limits import check_nesting, deepest_span
from .ir.optimize import OPTIMIZATIONS, Effects, Optimization, analyse


@dataclass
class Compilation:
    """What the passes have produced so far."""

    path: Path
    reporter: Reporter = field(default_factory=Reporter)
    sources: SourceSet | None = None
    symbols: Symbols | None = None
    rulebook: Rulebook | None = None
    program: ir.Program | None = None
    used: set[str] = field(default_factory=set)  # what the checker saw used, for lint
    effects: Effects | None = None
    code: str = ""
    # load the edition's scenario files (scenarios/, conformance/); without them, the
    # edition alone (`describe` while a scenario file does not check)
    scenario_files: bool = True

    @property
    def warnings(self) -> list[Diagnostic]:
        return self.reporter.warnings

    @property
    def edition(self) -> str:
        return self.path.stem


def _load(c: Compilation) -> None:
    c.sources = load_sources(c.path, scenario_files=c.scenario_files)


def _collect(c: Compilation) -> None:
    c.symbols = Collector(c.sources, c.reporter).run()


def _quotes(c: Compilation) -> None:
    c.rulebook = check_quotes(c.symbols, c.path, c.reporter)


def _check(c: Compilation) -> None:
    checker = Checker(c.symbols, c.reporter, c.edition)
    program = checker.run()  # (nesting too deep for Python's stack: _guarded reports it)
    check_scenario_dice(program, c.reporter)  # needs the whole program: the rules' roll order
    c.program = program
    c.used = checker.used


def _lint(c: Compilation) -> None:
    lint(c.symbols, c.used, c.sources.texts if c.sources else {}, c.reporter)


def _capacity(c: Compilation) -> None:
    if c.program is None:
        return
    assert c.symbols is not None and c.symbols.edition is not None
    for problem in check_capacity(c.program):
        c.reporter.error(c.symbols.edition.span, problem, code=ErrorCode.CAPACITY)


def _call_budget(c: Compilation) -> None:
    c.program = charge_calls(c.program)


def _optimization(optimize: Optimization) -> Callable[[Compilation], None]:
    def run(c: Compilation) -> None:
        # the one error an optimization reports: a folded constant out of range
        reporter = c.reporter.reporting(ErrorCode.CONSTANT_OUT_OF_RANGE)
        c.program = optimize(c.program, analyse(c.program), reporter)
    return run


def _codegen(c: Compilation) -> None:
    c.effects = analyse(c.program)
    c.code = generate(c.program, c.path.name, c.effects)


# (name, pass, stop here when errors were reported)
PASSES: list[tuple[str, Callable[[Compilation], None], bool]] = [
    ("load", _load, True),
    ("collect", _collect, True),
    ("quotes", _quotes, False),
    ("check", _check, True),
    ("lint", _lint, False),
    ("capacity", _capacity, True),
    ("nesting", lambda c: check_nesting(c.program, c.reporter), True),
    ("call-budget", _call_budget, True),
    *((name, _optimization(optimize), True) for name, optimize in OPTIMIZATIONS),
    ("codegen", _codegen, True),
]
PASS_NAMES = tuple(name for name, _, _ in PASSES)
# the last pass that can reject a program: `check` runs up to it, and a compilation kept
# after code generation (front_end_cache.py) went through it with the same warnings
LAST_CHECKING_PASS = PASS_NAMES[PASS_NAMES.index("codegen") - 1]


def _guarded(name: str, run: Callable[[Compilation], None], c: Compilation) -> None:
    """A pass; one that exhausts Python's stack (nesting that fits the limits, walked from
    deep in the caller's own stack: the fuzzer's) is a located error at the most deeply
    nested code, never a traceback."""
    try:
        run(c)
    except RecursionError:
        edition = c.symbols.edition if c.symbols is not None else None
        span = deepest_span(c.sources.modules) if c.sources is not None else None
        if span is None:
            span = edition.span if edition is not None else Span(str(c.path), 1, 1, 1, 1)
        c.reporter.error(span, "the rules nest too deeply to compile",
                         f"split deeply nested expressions or blocks into procedures "
                         f"(the {name} pass ran out of stack)", code=ErrorCode.TOO_DEEP)
        c.reporter.raise_if_errors()


def recheck(checked: Compilation, symbols: Symbols) -> Compilation:
    """Other symbols for a compiled edition (a param given another value) through the
    passes from `check` on, as the edition's own went (raises CompileError)."""
    compilation = Compilation(checked.path, sources=checked.sources, symbols=symbols,
                              rulebook=checked.rulebook, scenario_files=checked.scenario_files)
    first = PASS_NAMES.index("check")
    with cycle_collection_paused():
        for name, run, stop_on_error in PASSES[first:]:
            _guarded(name, run, compilation)
            if stop_on_error:
                compilation.reporter.raise_if_errors()
    return compilation


def compile_rules(path: Path, until: str = "codegen",
                  after_pass: Callable[[str, Compilation], None] | None = None,
                  skip: Collection[str] = (), scenario_files: bool = True) -> Compilation:
    """Run the passes up to and including `until`; raise CompileError on errors.
    `after_pass(name, compilation)` sees the result of each pass (to dump the IR); the
    optimizations named in `skip` are left out (the fuzzer's reference for the others);
    `scenario_files=False` leaves the edition's scenario files out."""
    unknown = set(skip) - {name for name, _ in OPTIMIZATIONS}
    if unknown:
        raise ValueError(f"not optimization passes: {', '.join(sorted(unknown))}")
    compilation = Compilation(Path(path), scenario_files=scenario_files)
    with cycle_collection_paused():
        for name, run, stop_on_error in PASSES:
            if name not in skip:
                _guarded(name, run, compilation)
                if stop_on_error:
                    compilation.reporter.raise_if_errors()
                if after_pass is not None:
                    after_pass(name, compilation)
            if name == until:
                break
    return compilation
