"""How many memo recomputes would a finer read set avoid? An oracle over seeded games.

    python benchmarks/recompute_oracle.py [EDITION] [--games N] [--players K] [--seed S]
        [--regions counter|entity|FIELD] [--cash exact|ranges] [--scalars value|sign]
        [--calls PROCEDURE [--call-reads dynamic|static]]

A memoized aggregate of the generated module is worked out again when a version it is
stamped with moves: a write to *any* entity's counter it reads (memo.py), or its player's
cash leaving the range with the same answer (cash_ranges.py). This plays the edition's
seeded games on the interpreted backend with every counter write and every read inside a
memo's computation recorded, and counts, of the recomputes the module does, those whose
recorded reads were all left alone since the memo's last computation: the recomputes a
memo keeping its own read set, at the chosen grain, would not do (a write that leaves a
value as it was is no change here, where the module's versions count it). It measures
the room for such a design before building it; nothing it prints is a game's result.

- `--regions counter`: a read depends on the whole counter (today's versions, but only
  the counters the computation's path read);
  `entity`: on the one entity's value; a declared field such as `group`: on the
  entities with the same value of it (the regions a kernel would version).
  A walk of a counter's index depends on the whole counter in every grain.
- `--cash ranges` (default without --calls): cash reads are left to the ranges the memos
  keep already; `exact`: any change of a read player's cash counts.
- `--scalars sign`: a game counter read by a memo depends only on its being above zero.

`--calls manage` asks the same of a procedure's calls (its generated `proc_` method): of
the calls that wrote nothing, how many follow a call with the same arguments that wrote
nothing either and whose reads were left alone since: the calls a window could skip.
Cash is then read exactly, in the call and in the memos it finds kept, unless `--cash
ranges` leaves it to ranges kept per player (ideal ones: an upper bound).
`--call-reads static` checks every call against all that any call of the procedure
read (what a compile-time read set holds) instead of its own reads.

Only the default policy's games (the one whose questions are memoized on windows).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Collection
from pathlib import Path
from types import ModuleType
from typing import Any

from games_arguments import games_parser

from boardrules.harness.simulate import game_seed
from boardrules.runtime.loader import load_module

MEMO_WRAPPER = re.compile(r"def (\w+)\(self[^)]*\)[^:]*:\n\s+# memoized")
# per-game tables the rules never write, and the module's own bookkeeping
UNTRACKED_PREFIXES = ("t_", "s_", "m_", "memo", "kept", "trace", "rule_fired")
# what a read of `name[index]` depends on (None: nothing this oracle follows)
Dependency = Callable[[str, int], "tuple | None"]


class Recorder:
    """The writes' clock, each dependency's last write, and the reads of the memo
    computations under way (one set per nesting level)."""

    def __init__(self, dependency: Dependency, scalar_sign: bool):
        self.dependency = dependency
        self.scalar_sign = scalar_sign
        self.clock = 0
        self.last_write: dict[tuple, int] = {}
        self.reading: list[set[tuple]] = []
        self.kept: dict[tuple, tuple[frozenset[tuple], int]] = {}  # per memo and arguments
        self.computes = 0
        self.counts: Counter[str] = Counter()

    def read(self, name: str, index: int) -> None:
        if self.reading:
            dep = self.dependency(name, index)
            if dep is not None:
                self.reading[-1].add(dep)

    def write(self, *deps: tuple | None) -> None:
        self.clock += 1
        for dep in deps:
            if dep is not None:
                self.last_write[dep] = self.clock

    def pass_up(self, reads: Collection[tuple]) -> None:
        """What a call read counts for the computation or call that made it."""
        if self.reading:
            self.reading[-1] |= reads

    def scalar_dependency(self, name: str, value: int) -> tuple:
        return (name, value > 0) if self.scalar_sign else (name,)

    def scalar_changed(self, old: int, new: int) -> bool:
        return (old > 0) != (new > 0) if self.scalar_sign else old != new

    def unchanged_since(self, deps: Collection[tuple], time: int) -> bool:
        return all(self.last_write.get(dep, 0) <= time for dep in deps)


class TrackedList(list):
    """A game's counter array whose reads and changes the recorder sees."""

    def __init__(self, recorder: Recorder, name: str, values: list) -> None:
        super().__init__(values)
        self.recorder, self.name = recorder, name

    def __getitem__(self, index):
        self.recorder.read(self.name, index)
        return list.__getitem__(self, index)

    def __setitem__(self, index, value):
        if list.__getitem__(self, index) != value:
            coarse = (self.name,) if not self.name.startswith("vx") else None
            self.recorder.write(self.recorder.dependency(self.name, index), coarse)
        list.__setitem__(self, index, value)


def dependency_rule(game: Any, regions: str, exact_cash: bool) -> Dependency:
    """What a read of `name[index]` depends on, at the chosen grain."""

    def dependency(name: str, index: int) -> tuple | None:
        if name.startswith("vx"):  # a counter's index: every write of the counter
            counter = re.match(r"vx\w*?_(\w+?_\w+?)(?:_by_\w+)?$", name)
            return (f"c_{counter.group(1)}",) if counter else (name,)
        if name == "cash":
            return ("cash", index) if exact_cash else None
        if not name.startswith("c_") or regions == "counter":
            return (name,)
        if regions == "entity":
            return (name, index)
        entity_type = name.split("_")[1]
        field = getattr(game, f"t_{entity_type}_{regions}", None)
        if field is None:
            return (name, index)
        stride = max(1, len(getattr(game, name)) // len(field))  # a list counter: values an entity
        return (name, field[index // stride])

    return dependency


def instrument(module: ModuleType, recorder: Recorder) -> None:
    """Wrap the memo wrappers and their computations of the module's Game class."""
    game_class = module.Game
    source = Path(module.__file__).read_text(encoding="utf-8")
    for name in MEMO_WRAPPER.findall(source):
        wrapper = getattr(game_class, name)
        compute = getattr(game_class, f"compute_{name}", None)
        setattr(game_class, name, _observed_memo(recorder, name, wrapper))
        if compute is not None:
            setattr(game_class, f"compute_{name}", _counted(recorder, compute))
    plain_setattr = game_class.__setattr__
    plain_getattribute = game_class.__getattribute__

    def setattr_(self, name, value):
        if name.startswith("g_") and hasattr(self, name):
            old = plain_getattribute(self, name)
            if recorder.scalar_changed(old, value):
                recorder.write(recorder.scalar_dependency(name, old))
        plain_setattr(self, name, value)

    def getattribute(self, name):
        value = plain_getattribute(self, name)
        if recorder.reading and name.startswith("g_"):
            recorder.reading[-1].add(recorder.scalar_dependency(name, value))
        return value

    game_class.__setattr__ = setattr_
    game_class.__getattribute__ = getattribute


def observe_calls(module: ModuleType, recorder: Recorder, procedure: str,
                  static: bool) -> None:
    """Record each call of the procedure with its reads, and count the idle ones a kept
    read set would skip (its own reads, or all that the procedure's calls ever read)."""
    name = f"proc_{procedure}"
    body = getattr(module.Game, name)
    passed: dict[tuple, tuple[frozenset[tuple], int]] = {}
    every_read: set[tuple] = set()

    def observed(self, *args):
        recorder.reading.append(set())
        clock = recorder.clock
        value = body(self, *args)
        reads = frozenset(recorder.reading.pop())
        recorder.pass_up(reads)
        idle = recorder.clock == clock  # it wrote nothing
        every_read.update(reads)
        recorder.counts["calls"] += 1
        if idle:
            recorder.counts["idle calls"] += 1
            before = passed.get(args)
            if before is not None and recorder.unchanged_since(
                    every_read if static else before[0], before[1]):
                recorder.counts["skippable calls"] += 1
            passed[args] = (reads, clock)
        else:
            passed.pop(args, None)
        return value

    setattr(module.Game, name, observed)


def _counted(recorder: Recorder, compute: Callable) -> Callable:
    def counted(self, *args):
        recorder.computes += 1
        return compute(self, *args)

    return counted


def _observed_memo(recorder: Recorder, name: str, wrapper: Callable) -> Callable:
    def observed(self, *args):
        key = (name, args)
        recorder.reading.append(set())
        before = recorder.computes
        value = wrapper(self, *args)
        reads = frozenset(recorder.reading.pop())
        if recorder.computes != before:  # worked out (again)
            kept = recorder.kept.get(key)
            if kept is not None:
                recorder.counts["recomputes"] += 1
                recorder.counts[f"recomputes {name}"] += 1
                if recorder.unchanged_since(*kept):
                    recorder.counts["avoidable"] += 1
                    recorder.counts[f"avoidable {name}"] += 1
            recorder.kept[key] = (reads, recorder.clock)
        else:  # a kept value: what it read counts for the caller too
            reads = recorder.kept.get(key, (frozenset(), 0))[0]
        recorder.pass_up(reads)
        return value

    return observed


def main() -> int:
    parser = games_parser(__doc__, games=20)
    parser.add_argument("--regions", default="counter",
                        help="counter, entity, or a declared field (default: counter)")
    parser.add_argument("--cash", choices=("ranges", "exact"),
                        help="default: ranges, and exact with --calls")
    parser.add_argument("--scalars", choices=("value", "sign"), default="value")
    parser.add_argument("--calls", metavar="PROCEDURE",
                        help="also count the idle calls of this procedure a read set skips")
    parser.add_argument("--call-reads", choices=("dynamic", "static"), default="dynamic")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    module = load_module(args.edition, "interpreted")
    recorder = Recorder(lambda name, index: None, args.scalars == "sign")
    instrument(module, recorder)
    if args.calls:
        observe_calls(module, recorder, args.calls, args.call_reads == "static")
    exact_cash = args.cash == "exact" or (args.cash is None and bool(args.calls))
    turns = 0
    for index in range(args.games):
        game = module.Game(args.players, seed=game_seed(args.seed, index))
        recorder.dependency = dependency_rule(game, args.regions, exact_cash)
        recorder.kept.clear()
        for name, value in list(vars(game).items()):
            if isinstance(value, list) and not name.startswith(UNTRACKED_PREFIXES):
                setattr(game, name, TrackedList(recorder, name, value))
        game.play()
        turns += game.turn
    counts = recorder.counts
    print(f"{args.edition}: {args.games} games, {turns} turns; reads by {args.regions}, "
          f"cash {'exact' if exact_cash else 'by ranges'}, game counters by {args.scalars}"
          + (f", {args.call_reads} reads of {args.calls}" if args.calls else ""))
    print(f"recomputes {counts['recomputes'] / turns:.3f} a turn, of which a kept read set "
          f"avoids {counts['avoidable'] / turns:.3f}")
    if args.calls:
        print(f"{args.calls}: {counts['calls'] / turns:.3f} calls a turn, "
              f"{counts['idle calls'] / turns:.3f} of them write nothing, "
              f"{counts['skippable calls'] / turns:.3f} of those after an idle call "
              "whose reads are unchanged")
    ranked = sorted((key.split(" ", 1)[1] for key in counts if key.startswith("recomputes ")),
                    key=lambda name: -counts[f"recomputes {name}"])
    for name in ranked[:args.top]:
        print(f"  {name:50s} {counts[f'recomputes {name}'] / turns:7.3f}"
              f" {counts[f'avoidable {name}'] / turns:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
