"""Run generated programs on both backends and compare what they did (test_differential.py).

`build(folder, seed, ids)` writes the edition of programs `ids`, drops the programs the
compiler rejects (a located error, the same for both backends by construction) and loads
the module on both backends, and, interpreted, the same edition compiled without the
optimizations that only make it faster (REFERENCE_PASSES are kept): every program must
do the same there, which is how a wrong optimization shows (it would be wrong alike on
both backends). `outcome(module, k, inputs, seed, policy)` plays program K for two turns
and returns everything observable: the trace, payments, counters, cash, positions, card
holders, the result, or the error with its type, message and rules location.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from programs import INPUTS, RULEBOOK, edition

from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.ir.optimize import OPTIMIZATIONS
from boardrules.compiler.pipeline import compile_rules
from boardrules.runtime.errors import rules_location
from boardrules.runtime.loader import import_compilation

POLICIES = ("default", "random")
SEEDS = (3, 2**64 - 1)
# The optimizations the reference keeps: they decide what a program does (32-bit checks,
# folded constants out of range, ending the turn from inside an expression) or where its
# errors point (a merged aggregate's names the first; an inlined procedure's, its caller,
# and lets-as-arguments makes more procedures inlinable, as known-elements does: a list
# read at a constant element is an argument that cannot fail, so the call is inlined).
REFERENCE_PASSES = ("fold-constants", "narrow-integers", "known-elements", "merge-aggregates",
                    "lets-as-arguments", "inline-procedures", "split-unwinding-calls")
SKIPPED = tuple(name for name, _ in OPTIMIZATIONS if name not in REFERENCE_PASSES)


@dataclass
class Batch:
    """One edition of programs, loaded on both backends."""

    path: Path
    programs: list[int]
    rejected: dict[int, str] = field(default_factory=dict)  # program -> its compile error
    modules: tuple[ModuleType, ModuleType] | None = None
    texts: dict[int, str] = field(default_factory=dict)
    reference: ModuleType | None = None  # interpreted, without the SKIPPED optimizations


def build(folder: Path, seed: int, ids: list[int], written: dict[int, str] | None = None,
          load: bool = True, deep: bool = True) -> Batch:
    """The edition of programs `ids` (`written` gives some of them); those the compiler
    rejects are left out (`deep`: see programs.call_tree)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rulebook.txt").write_text(RULEBOOK)
    path = folder / f"{folder.name}.rules"
    batch = Batch(path, list(ids))
    for _ in range(10):
        text, spans = edition(seed, batch.programs, written, deep)
        path.write_text(text)
        try:
            compilation = compile_rules(path, until="codegen")
            break
        except CompileError as error:
            for d in error.diagnostics:
                culprits = [k for k, (a, b) in spans.items() if a <= d.span.line <= b]
                assert culprits, f"the prelude does not compile: {d.render()}"
                batch.rejected[culprits[0]] = d.message
            batch.programs = [k for k in batch.programs if k not in batch.rejected]
    lines = path.read_text().split("\n")
    batch.texts = {k: "\n".join(lines[a - 1:b]) for k, (a, b) in spans.items()}
    if load:  # the compilation at hand: no second run of the front end
        batch.modules = (import_compilation(compilation, "interpreted"),
                         import_compilation(compilation, "compiled"))
        batch.reference = import_compilation(compile_rules(path, skip=SKIPPED), "interpreted")
    return batch


def outcome(module: ModuleType, k: int, inputs: tuple[int, int, int], seed: int,
            policy: str, traced: bool = True, players: int = 3, turns: int = 2) -> tuple:
    """Everything program K did in `turns` turns, or the error it stopped with. Untraced,
    the default policy's answers are taken inline and a window that nothing it reads has
    changed since all passed is skipped (blind_writes.py): what a trace turns off."""
    game = module.Game(players, seed=seed, trace=traced, policies=[policy] * players)
    for name, value in zip(("g_game_mode", "g_game_arg1", "g_game_arg2", "g_game_arg3"),
                           (k, *inputs), strict=True):
        game.state_set(name, 0, value)
    try:
        game.play(turns)
        error = None
    except Exception as exc:  # a rules error (or a defect): compared between backends
        error = (type(exc).__name__, str(exc), rules_location(module, exc))
    return (error, game.trace(), game.payments(), game.counter_values(), game.players_cash(),
            [game.position_of(p) for p in range(players)], game.holders(), game.turn,
            game.over)


@dataclass
class Report:
    """What the runs of a batch gave: runs, errors, and the divergences found."""

    runs: int = 0
    errors: int = 0
    divergences: list[str] = field(default_factory=list)


class TooLong(BaseException):
    """An interpreted run took longer than compare's `limit` (not an Exception: the
    generated code and outcome() catch those)."""


@contextmanager
def time_limit(seconds: float | None):
    """Interrupt what runs inside after `seconds` (Python code only: the C extension cannot
    be interrupted, so the interpreted backend runs first, under the limit)."""
    if not seconds:
        yield
        return

    def interrupt(*_) -> None:
        raise TooLong()

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def compare(batch: Batch, inputs: tuple = INPUTS, seeds: tuple = SEEDS,
            policies: tuple = POLICIES, limit: float | None = None) -> Report:
    """Run every program of the batch with every input, seed and policy on both backends,
    and interpreted without the optimizations that only make it faster; an interpreted
    run longer than `limit` seconds is a finding (a turn that never ends)."""
    assert batch.modules is not None
    report = Report()
    for k in batch.programs:
        for i, args in enumerate(inputs):
            seed, policy = seeds[i % len(seeds)], policies[(i // len(seeds)) % len(policies)]
            for traced in (True, False) if policy == "default" else (True,):
                _compare_run(batch, report, (k, args, seed, policy, traced), limit)
    return report


def _compare_run(batch: Batch, report: Report, run: tuple, limit: float | None) -> None:
    """One run on both backends and unoptimized; what differs is a divergence."""
    interpreted = _limited(batch, report, batch.modules[0], run, limit, "interpreted")
    if interpreted is None:
        return
    compiled = outcome(batch.modules[1], *run)
    report.runs += 1
    report.errors += interpreted[0] is not None
    if interpreted != compiled:
        report.divergences.append(_describe(batch, run, interpreted, compiled))
    unoptimized = batch.reference and _limited(batch, report, batch.reference, run, limit,
                                               "unoptimized")
    if unoptimized and unoptimized != interpreted:
        report.divergences.append(_describe(batch, run, unoptimized, interpreted,
                                            ("unoptimized", "optimized")))


def _limited(batch: Batch, report: Report, module: ModuleType, run: tuple,
             limit: float | None, label: str) -> tuple | None:
    """The outcome of an interpreted run, or None, with a finding, when it took longer
    than `limit` seconds."""
    try:
        with time_limit(limit):
            return outcome(module, *run)
    except TooLong:
        report.divergences.append(f"{_run_name(batch, run)}: no end after {limit} s {label}\n"
                                  + batch.texts.get(run[0], ""))
        return None


FIELDS = ("error", "trace", "payments", "counters", "cash", "positions", "holders", "turn",
          "over")


def _run_name(batch: Batch, run: tuple) -> str:
    k, args, seed, policy, traced = run
    return (f"program {k} (inputs {args}, seed {seed}, {policy} policy"
            f"{'' if traced else ', untraced'}) in {batch.path}")


def _describe(batch: Batch, run: tuple, a: tuple, b: tuple,
              labels: tuple[str, str] = ("interpreted", "compiled")) -> str:
    first, second = labels
    differ = [f"{name}: {first} {x!r:.300} {second} {y!r:.300}"
              for name, x, y in zip(FIELDS, a, b, strict=True) if x != y and name != "trace"]
    if a[1] != b[1]:
        at = next((i for i, (x, y) in enumerate(zip(a[1], b[1], strict=False)) if x != y),
                  min(len(a[1]), len(b[1])))
        differ.append(f"trace line {at}: {a[1][at:at + 1]} != {b[1][at:at + 1]}")
    return f"{_run_name(batch, run)}:\n" + "\n".join(differ) + "\n" + batch.texts.get(run[0], "")
