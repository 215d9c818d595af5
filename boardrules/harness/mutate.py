"""Mutation testing: run the edition's scenarios against each mutant of its rules.

Each mutant (`compiler/mutation/mutations.py`) is finished by the passes that can reject a
program (MUTANT_PASSES: the optimizations are left out, since none may change a game,
and they would make a mutant several times dearer) and generated (with the unmutated
program's effects, see `finish`), then run on the interpreted backend, in memory, in a
worker process, with the unmutated scenario layer (compiled once; a param's mutant,
checked again, gets its own):

- a mutant whose generated code is the original's (comments aside) is *equivalent*:
  skipped;
- one that no longer checks is *invalid*: discarded;
- one that some scenario fails is *killed* (the scenarios of the units it counts for
  run first, and the first failure stops it); one that runs past the time limit is
  *killed by timeout*: its worker is ended and replaced;
- one that every scenario passes *survives*.

A declared number's mutant (`compiler/mutation/data.py`) runs the same way; one that
survives is a number no scenario reads, which the report lists apart from the rules'
score (mutation_report.py).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import CodeType, ModuleType

from ..compiler.back.codegen import generate, generate_scenarios
from ..compiler.common.diagnostics import CompileError
from ..compiler.ir import nodes as ir
from ..compiler.ir.optimize import Effects, analyse
from ..compiler.mutation.mutations import DATA, InvalidMutant, Mutant, apply, mutants
from ..compiler.pipeline import PASSES, Compilation, compile_rules
from ..runtime.loader import resolve_edition
from .coverage import sources_hash
from .mutant_notes import match_notes
from .scenarios import play

MUTANT_PASSES = ("capacity", "nesting", "call-budget")  # then code generation
STATUSES = ("killed", "timeout", "survived", "equivalent", "invalid")
NUMBERS = ("include", "skip", "only")  # the declared numbers' mutants, beside the rules'
RECYCLE_AFTER = 200  # mutants per worker process before a fresh one (bounds its memory)


class UnknownRule(LookupError):
    """--rule names nothing that has mutants."""


@dataclass(frozen=True)
class Result:
    """What became of one mutant."""

    id: int
    status: str  # one of STATUSES
    scenario: str = ""  # the scenario that killed it
    detail: str = ""  # the first line of the failure, or why it is invalid
    seconds: float = 0.0


@dataclass
class Baseline:
    """The unmutated edition: its checked program, code, scenarios and mutants."""

    checked: Compilation  # after the check pass
    key: str  # the hash of the unmutated code (the mutants' passes)
    sources_hash: str  # of the rules files and the rulebook, as coverage computes it
    scenarios: tuple[ir.Scenario, ...]  # those that pass unmutated
    failing: tuple[str, ...]  # those that fail unmutated: left out
    mutants: list[Mutant]
    seconds: float  # one run of every scenario against the unmutated code, with codegen
    effects: Effects | None = None  # what code generation knew of the unmutated functions
    layer: CodeType | None = None  # the unmutated scenario layer, compiled
    noted: dict[int, str] = field(default_factory=dict)  # equivalent notes: id -> reason
    stale: list[str] = field(default_factory=list)  # notes that name no mutant
    ambiguous: list[str] = field(default_factory=list)  # notes that name several
    names: dict[int, str] = field(default_factory=dict)  # what a note names each mutant by

    def take_notes(self) -> None:
        """Match the rules' `equivalent "..." because "..."` notes with the mutants."""
        self.noted, self.stale, self.ambiguous, self.names = match_notes(self.checked,
                                                                         self.mutants)

    def order(self, mutant: Mutant) -> list[ir.Scenario]:
        """The scenarios of the units the mutant counts for first, then the others."""
        mine = set(mutant.units) | {mutant.origin.split(" ", 1)[-1]}
        return ([s for s in self.scenarios if s.target in mine]
                + [s for s in self.scenarios if s.target not in mine])


@dataclass
class Run:
    """A mutation run: every mutant made, the ones run and their results."""

    baseline: Baseline
    selected: list[int]  # the mutants chosen to run (budget, rule), in the order run
    results: dict[int, Result] = field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 1
    timeout: float = 0.0
    budget: int | None = None
    time_limit: float | None = None
    rule: str | None = None
    numbers: str = "include"  # one of NUMBERS
    partial: bool = False  # interrupted (Ctrl-C): some selected mutants did not run


def _code_key(code: str) -> str:
    lines = (line for line in code.splitlines()
             if not line.lstrip().startswith("#") or line.startswith("# cython:"))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def finish(checked: Compilation, program: ir.Program, effects: Effects | None = None
           ) -> Compilation:
    """A checked (possibly mutated) program through MUTANT_PASSES (raises CompileError), then
    code generation, with `effects` when given (else analysed afresh, as the pipeline does).

    A mutant of the IR takes the unmutated program's effects: its changes (a statement
    dropped, a test changed) can only make a function do less, so the unmutated facts are
    conservative (an unwinding check too many); on the interpreted backend they generate
    the same behaviour, and the analysis is the dearest part of generating a mutant."""
    c = Compilation(checked.path, sources=checked.sources, symbols=checked.symbols,
                    rulebook=checked.rulebook, program=program)
    for name, run, stop in PASSES:
        if name in MUTANT_PASSES:
            run(c)
            if stop:
                c.reporter.raise_if_errors()
    c.effects = effects if effects is not None else analyse(c.program)
    c.code = generate(c.program, c.path.name, c.effects)
    return c


def scenario_code(c: Compilation) -> CodeType:
    """The compilation's scenario layer, compiled."""
    source = generate_scenarios(c.program, c.path.name, c.effects)
    return compile(source, f"<scenarios of {c.path.name}>", "exec")


def load(c: Compilation, tag: str, layer_code: CodeType | None = None) -> ModuleType:
    """The generated module and its scenario layer, run in memory (interpreted)."""
    module = ModuleType(f"{c.edition}_mutant_{tag}")
    exec(compile(c.code, f"<{c.path.name}, mutant {tag}>", "exec"), module.__dict__)
    layer = ModuleType(f"{c.edition}_mutant_{tag}_scenarios")
    layer.production = module
    exec(layer_code or scenario_code(c), layer.__dict__)
    return layer


def _play(layer: ModuleType, scenario: ir.Scenario) -> tuple[bool, str]:
    try:
        passed, detail = play(layer, scenario)
    except Exception as exc:  # the game could not even be set up
        return False, f"{type(exc).__name__}: {exc}"
    return passed, detail[0] if detail else ""


def baseline(edition: str) -> Baseline:
    """Compile the edition, keep its checked program, and run its scenarios unmutated."""
    checked = compile_rules(resolve_edition(edition), until="check")
    start = time.perf_counter()
    finished = finish(checked, checked.program)
    code = scenario_code(finished)
    layer = load(finished, "none", code)
    passing, failing = [], []
    for scenario in checked.program.scenarios:
        (passing if _play(layer, scenario)[0] else failing).append(scenario)
    seconds = time.perf_counter() - start
    base = Baseline(checked, _code_key(finished.code), sources_hash(checked), tuple(passing),
                    tuple(s.title for s in failing), mutants(checked), seconds,
                    finished.effects, code)
    base.take_notes()
    return base


def evaluate(base: Baseline, mutant: Mutant) -> Result:
    """Make, generate and run one mutant (in a worker: the caller enforces the time limit)."""
    start = time.perf_counter()

    def result(status: str, scenario: str = "", detail: str = "") -> Result:
        return Result(mutant.id, status, scenario, detail, time.perf_counter() - start)

    reuse = mutant.operator != "param"  # a param's value is checked again: analysed afresh
    try:
        finished = finish(base.checked, apply(base.checked, mutant),
                          base.effects if reuse else None)
    except (InvalidMutant, CompileError) as exc:
        return result("invalid", detail=str(exc).splitlines()[0] if str(exc) else "")
    except Exception as exc:  # code generation refused it (a CodegenError, say)
        return result("invalid", detail=f"{type(exc).__name__}: {exc}")
    if _code_key(finished.code) == base.key:
        return result("equivalent")
    same = reuse or finished.effects == base.effects
    try:
        layer = load(finished, str(mutant.id), base.layer if same else None)
    except Exception as exc:  # generated code that does not even load: a scenario would fail
        return result("killed", detail=f"{type(exc).__name__}: {exc}")
    for scenario in base.order(mutant):
        passed, detail = _play(layer, scenario)
        if not passed:
            return result("killed", scenario.title, detail)
    return result("survived")


# ---- choosing the mutants ------------------------------------------------------------------------

def spread(found: list[Mutant], seed: int = 0) -> list[int]:
    """The mutants in an order that spreads over origins: shuffled within each origin, then
    taken one origin after another, so that any prefix (a budget, a time limit) samples
    every rule."""
    rng = random.Random(seed)
    groups: dict[str, list[int]] = {}
    for m in found:
        groups.setdefault(m.origin, []).append(m.id)
    for ids in groups.values():
        rng.shuffle(ids)
    order: list[int] = []
    queues = list(groups.values())
    while queues:
        order += [q.pop(0) for q in queues]
        queues = [q for q in queues if q]
    return order


def select(base: Baseline, budget: int | None = None, rule: str | None = None,
           seed: int = 0, numbers: str = "include") -> list[int]:
    """The mutants to run: of one rule (its origin or a unit it counts for) or all, with
    the declared numbers' or without them or only those (`numbers`), spread, at most
    `budget` of them."""
    found = base.mutants
    if numbers != "include":
        found = [m for m in found if (m.operator == DATA) == (numbers == "only")]
    if rule is not None:
        found = [m for m in found if m.origin.split(" ", 1)[-1] == rule or rule in m.units]
    order = spread(found, seed)
    return order[:budget] if budget is not None else order


# ---- worker processes with a time limit per mutant ---------------------------------------------

def _serve(conn: Connection, base: Baseline) -> None:
    """A worker: evaluate the mutants it is sent until told to stop or its parent is gone
    (Ctrl-C on the terminal is the parent's to handle: it ends the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            index = conn.recv()
            if index is None:
                return
            conn.send(evaluate(base, base.mutants[index]))
        except (EOFError, OSError):  # the parent went away
            return


class _Worker:
    def __init__(self, base: Baseline) -> None:
        context = multiprocessing.get_context("fork")  # inherits the compiled baseline
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, base), daemon=True)
        self.process.start()
        child.close()
        self.task: int | None = None
        self.started = 0.0
        self.done = 0

    def send(self, index: int) -> None:
        self.task, self.started = index, time.monotonic()
        self.conn.send(index)

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def run_mutants(base: Baseline, selected: list[int], workers: int = 2,
                timeout: float | None = None, time_limit: float | None = None,
                progress: Callable[[int, int], None] | None = None) -> Run:
    """Run the selected mutants over worker processes. A mutant past `timeout` seconds is
    killed by timeout (its worker ended, another started); after `time_limit` seconds no
    further mutant starts. Ctrl-C ends the workers and returns the results so far, the run
    marked partial."""
    timeout = timeout if timeout is not None else default_timeout(base)
    run = Run(base, list(selected), workers=workers, timeout=timeout, time_limit=time_limit)
    for index in selected:  # noted as equivalent in the rules: not run
        if index in base.noted:
            run.results[index] = Result(index, "equivalent", detail=base.noted[index])
    pending = [index for index in selected if index not in base.noted]
    pool = [_Worker(base) for _ in range(max(1, min(workers, len(pending) or 1)))]
    start = time.monotonic()
    try:
        while pending or any(w.task is not None for w in pool):
            expired = time_limit is not None and time.monotonic() - start > time_limit
            for i, worker in enumerate(pool):
                if worker.task is None and worker.done >= RECYCLE_AFTER:
                    worker.stop()
                    pool[i] = worker = _Worker(base)
                if worker.task is None and pending and not expired:
                    worker.send(pending.pop(0))
            busy = [w for w in pool if w.task is not None]
            if not busy:
                break
            deadline = min(w.started for w in busy) + timeout
            ready = wait([w.conn for w in busy], max(0.0, deadline - time.monotonic()))
            for i, worker in enumerate(pool):
                if worker.task is None:
                    continue
                if worker.conn in ready:
                    try:
                        result = worker.conn.recv()
                    except (EOFError, OSError):
                        result = Result(worker.task, "killed", detail="the worker process died")
                        worker.stop(kill=True)
                        pool[i] = _Worker(base)
                    else:
                        worker.task, worker.done = None, worker.done + 1
                    run.results[result.id] = result
                elif time.monotonic() - worker.started > timeout:
                    run.results[worker.task] = Result(
                        worker.task, "timeout", detail=f"ran over {timeout:.1f} s",
                        seconds=time.monotonic() - worker.started)
                    worker.stop(kill=True)
                    pool[i] = _Worker(base)
                if progress is not None:
                    progress(len(run.results), len(selected))
    except KeyboardInterrupt:  # the results so far are the run's, marked partial
        run.partial = True
    finally:
        for worker in pool:
            worker.stop(kill=worker.task is not None)
    run.seconds = time.monotonic() - start
    return run


def default_timeout(base: Baseline) -> float:
    """Five times what the unmutated edition took (code generation, cold, and every scenario),
    at least 5 s: generous for a mutant that plays differently, short for one that loops."""
    return max(5.0, 5 * base.seconds)


def mutate(edition: str, budget: int | None = None, time_limit: float | None = None,
           rule: str | None = None, workers: int = 2, timeout: float | None = None,
           seed: int = 0, progress: Callable[[int, int], None] | None = None,
           numbers: str = "include") -> Run:
    """Make the edition's mutants and run the chosen ones (see the module's docstring)."""
    base = baseline(edition)
    if rule is not None and not select(base, rule=rule, numbers=numbers):
        which = {"include": "", "skip": "rules ", "only": "declared-number "}[numbers]
        raise UnknownRule(f"no {which}mutants of '{rule}' (a rule, procedure, card, decision, "
                          f"param, space or group of {Path(base.checked.path).stem})")
    run = run_mutants(base, select(base, budget, rule, seed, numbers), workers, timeout,
                      time_limit, progress)
    run.budget, run.rule, run.numbers = budget, rule, numbers
    return run
