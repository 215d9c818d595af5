"""Simulate N seeded games of an edition and summarise how it plays.

Games are split into chunks played by local worker processes (or by Ray when
asked and installed); each chunk returns partial tallies that are merged here,
so the result for a seed does not depend on the number of workers.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from ..runtime.loader import load_module

ENGINES = ("processes", "ray")


class SimulationError(Exception):
    """A game failed: the rules raised an error (named with the game's seed to replay it)."""


@dataclass
class Tally:
    """What a chunk of games produced; chunks merge by addition."""

    turns: list[int] = field(default_factory=list)
    capped: int = 0
    wins: list[int] = field(default_factory=list)
    landings: list[int] = field(default_factory=list)
    moves: int = 0
    fired: list[int] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        self.turns += other.turns
        self.capped += other.capped
        self.wins = _add(self.wins, other.wins)
        self.landings = _add(self.landings, other.landings)
        self.moves += other.moves
        self.fired = _add(self.fired, other.fired)


def _add(a: list[int], b: list[int]) -> list[int]:
    if not a:
        return list(b)
    return [x + y for x, y in zip(a, b, strict=True)]


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run: distinct, reproducible, independent of chunking."""
    return (seed * 1_000_003 + index) & 0xFFFFFFFFFFFFFFFF


def parse_options(module: ModuleType, settings: list[str]) -> dict[str, int]:
    """`name=value` settings as option values: true/false, a number, or an enum member."""
    declared = {name: (type_name, title) for name, type_name, _, title in module.OPTIONS}
    chosen: dict[str, int] = {}
    for setting in settings:
        name, _, text = setting.partition("=")
        if name not in declared:
            known = ", ".join(declared) or "none"
            raise ValueError(f"{module.EDITION} has no option '{name}' (options: {known})")
        type_name = declared[name][0]
        text = text.strip().lower() or "true"
        if type_name == "bool" and text in ("true", "yes", "on", "1", "false", "no", "off", "0"):
            chosen[name] = int(text in ("true", "yes", "on", "1"))
        elif type_name in module.ENUMS and text in module.ENUMS[type_name]:
            chosen[name] = module.ENUMS[type_name].index(text)
        elif type_name == "int" and text.lstrip("-").isdigit():
            chosen[name] = int(text)
        else:
            raise ValueError(f"option '{name}' takes a {type_name}, not '{text}'")
    return chosen


def play_chunk(edition: str, backend: str, players: int, seed: int, first: int, count: int,
               turn_cap: int | None, policies: list[str] | None,
               options: dict[str, int] | None = None) -> Tally:
    module = load_module(edition, backend)
    tally = Tally(wins=[0] * players, landings=[0] * len(module.SPACE_IDS),
                  fired=[0] * len(module.RULE_NAMES))
    for index in range(first, first + count):
        kwargs = {} if turn_cap is None else {"turn_cap": turn_cap}
        game = module.Game(players, seed=game_seed(seed, index), policies=policies,
                           options=options, **kwargs)
        try:
            game.play()
        except Exception as exc:  # the rules failed: report which game, as plain data
            raise SimulationError(
                f"game {index} (seed {game_seed(seed, index)}) failed at turn {game.turn}: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        tally.turns.append(game.turn)
        tally.capped += 1 if game.capped else 0
        winner = game.winner()
        if winner >= 0:
            tally.wins[winner] += 1
        tally.landings = _add(tally.landings, game.landings())
        tally.moves += game.moves
        tally.fired = _add(tally.fired, game.fired(len(module.RULE_NAMES)))
    return tally


@dataclass
class Summary:
    edition: str
    games: int
    players: int
    seed: int
    backend: str
    tally: Tally
    seconds: float
    space_ids: tuple[str, ...]
    space_names: tuple[str, ...]
    track: tuple[int, ...]
    rule_names: tuple[str, ...]
    rule_handled: tuple[bool, ...]
    options: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        t = self.tally
        order = sorted(range(len(self.space_ids)), key=lambda s: (self.track[s], s))
        return {
            "edition": self.edition,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "backend": self.backend,
            "options": self.options,
            "capped_games": t.capped,
            "capped_fraction": t.capped / self.games,
            "mean_turns": statistics.fmean(t.turns),
            "median_turns": statistics.median(t.turns),
            "win_rate_by_seat": [w / self.games for w in t.wins],
            "games_per_second": self.games / self.seconds if self.seconds > 0 else 0.0,
            "seconds": self.seconds,
            "landing": [
                {"position": self.track[s], "id": self.space_ids[s],
                 "name": self.space_names[s],
                 "frequency": t.landings[s] / t.moves if t.moves else 0.0}
                for s in order
            ],
            "rules_never_fired": [r for r, n, handled in zip(self.rule_names, t.fired,
                                                             self.rule_handled, strict=True)
                                  if n == 0 and handled],
            "rules_without_handlers": [r for r, handled in zip(self.rule_names,
                                                               self.rule_handled, strict=True)
                                       if not handled],
        }


def simulate(edition: str, games: int, players: int, seed: int, backend: str = "compiled",
             workers: int | None = None, engine: str = "processes", turn_cap: int | None = None,
             policies: list[str] | None = None, options: list[str] | None = None,
             progress: Callable[[int, int], None] | None = None) -> Summary:
    module = load_module(edition, backend)  # compile once, before any worker starts
    if not module.MIN_PLAYERS <= players <= module.MAX_PLAYERS:
        raise ValueError(f"{module.EDITION} is for {module.MIN_PLAYERS} to "
                         f"{module.MAX_PLAYERS} players, not {players}")
    chosen = parse_options(module, options or [])
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    chunk = max(1, min(250, -(-games // (workers * 4))))
    jobs = [(edition, backend, players, seed, first, min(chunk, games - first), turn_cap,
             policies, chosen) for first in range(0, games, chunk)]
    total = Tally(wins=[0] * players, landings=[0] * len(module.SPACE_IDS),
                  fired=[0] * len(module.RULE_NAMES))
    started = time.perf_counter()
    done = 0
    for tally in _run(jobs, workers, engine):
        total.merge(tally)
        done += len(tally.turns)
        if progress:
            progress(done, games)
    seconds = time.perf_counter() - started
    return Summary(module.EDITION if edition.endswith(".rules") else edition, games, players,
                   seed, backend, total, seconds, module.SPACE_IDS, module.SPACE_NAMES,
                   module.TRACK, module.RULE_NAMES, module.RULE_HANDLED, chosen)


def _run(jobs: list[tuple], workers: int, engine: str):
    if engine == "ray":
        yield from _run_ray(jobs)
        return
    if engine != "processes":
        raise ValueError(f"unknown engine '{engine}': choose {' or '.join(ENGINES)}")
    if workers == 1:
        for job in jobs:
            yield play_chunk(*job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_chunk, *job) for job in jobs]
        for future in as_completed(futures):
            yield future.result()


def _run_ray(jobs: list[tuple]):
    try:
        import ray
    except ImportError:
        raise ValueError("the ray engine needs Ray: pip install ray") from None
    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(play_chunk)
    pending = [remote.remote(*job) for job in jobs]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        yield ray.get(ready[0])


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def format_summary(data: dict[str, Any], top: int = 10) -> str:
    lines = [
        f"edition            {data['edition']}",
        f"games              {data['games']} ({data['players']} players, seed {data['seed']}, "
        f"{data['backend']})" + "".join(f", {k}={v}" for k, v in data["options"].items()),
        f"mean turns         {data['mean_turns']:.1f}",
        f"median turns       {data['median_turns']:.1f}",
        f"capped games       {data['capped_games']} ({100 * data['capped_fraction']:.1f}%)",
        "win rate by seat   " + "  ".join(
            f"p{seat + 1}: {100 * rate:.1f}%"
            for seat, rate in enumerate(data["win_rate_by_seat"])),
        f"games per second   {data['games_per_second']:.1f}",
        "",
        f"most landed spaces (share of all moves, top {top}):",
    ]
    ranked = sorted(data["landing"], key=lambda e: -e["frequency"])[:top]
    for entry in ranked:
        share = 100 * entry["frequency"]
        lines.append(f"  {entry['position']:>3}  {entry['name']:<36} {share:5.2f}%")
    return "\n".join(lines)
