"""Simulate N seeded games of an edition and summarise how it plays.

Games are split into chunks played by local worker processes (or by Ray tasks:
harness/ray_engine.py); each chunk returns partial tallies that are merged here,
so the result for a seed does not depend on the number of workers or the engine.
"""

from __future__ import annotations

import csv
import json
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from types import ModuleType
from typing import Any

from .. import __version__
from ..agents.policies import playable
from ..outputs import atomic_file, write_atomic
from ..runtime.errors import rules_location
from ..runtime.loader import load_module, load_published, published_name
from .options import parse_options
from .seats import seat_name
from .statistics import describe, seats_differ, wilson

ENGINES = ("processes", "ray")


class SimulationError(Exception):
    """A game failed: the rules raised an error (named with the game's seed to replay it)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) during a run, with what was done before it (`done`: a partial
    Summary, or whatever the command had finished), for the command to write as partial."""

    def __init__(self, done: Any) -> None:
        super().__init__()
        self.done = done


@dataclass
class Tally:
    """What a chunk of games produced; chunks merge by addition."""

    turns: list[int] = field(default_factory=list)
    capped: int = 0
    wins: list[int] = field(default_factory=list)  # per seat, games it won alone
    # per seat, games whose win it shared with others (a tie for first place); and games
    # that ended in a shared win
    shared_wins: list[int] = field(default_factory=list)
    shared_games: int = 0
    landings: list[int] = field(default_factory=list)  # token placements per space
    moves: int = 0
    rests: list[int] = field(default_factory=list)  # throws that left the token there
    fired: list[int] = field(default_factory=list)
    ends: dict[str, int] = field(default_factory=dict)  # how games ended, by reason
    records: list[dict[str, Any]] = field(default_factory=list)  # per game, when asked
    game_seconds: float = 0.0  # time spent playing (not starting processes or compiling)

    def merge(self, other: Tally) -> None:
        self.turns += other.turns
        self.capped += other.capped
        for reason, count in other.ends.items():
            self.ends[reason] = self.ends.get(reason, 0) + count
        self.game_seconds += other.game_seconds
        self.records += other.records
        self.wins = _add(self.wins, other.wins)
        self.shared_wins = _add(self.shared_wins, other.shared_wins)
        self.shared_games += other.shared_games
        self.landings = _add(self.landings, other.landings)
        self.moves += other.moves
        self.rests = _add(self.rests, other.rests)
        self.fired = _add(self.fired, other.fired)


def _add(a: list[int], b: list[int]) -> list[int]:
    if not a:
        return list(b)
    return [x + y for x, y in zip(a, b, strict=True)]


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run: distinct, reproducible, independent of chunking."""
    return (seed * 1_000_003 + index) & 0xFFFFFFFFFFFFFFFF


# What ended a game, when the kernel saw it (its END_ codes, `Kernel.ended_by`).
ENDED_BY = {1: "round limit", 2: "first bankruptcy", 3: "winner named"}


def end_reason(game) -> str:
    """Why a finished game ended."""
    if game.capped:
        return "turn cap"
    if game.ended_by in ENDED_BY:
        return ENDED_BY[game.ended_by]
    if game.n_alive <= 1:
        return "last player standing"
    return "the edition's end"


def play_chunk(module_name: str, backend: str, *chunk: Any) -> Tally:
    """Play a chunk of games in a worker process (loading the module from the cache)."""
    return play_games(load_published(module_name, backend), *chunk)


def play_games(module: ModuleType, players: int, seed: int, first: int, count: int,
               turn_cap: int | None, policies: list[str] | None,
               options: dict[str, int] | None = None, records: bool = False) -> Tally:
    """Games `first` to `first + count - 1` of a run, tallied."""
    tally = Tally(wins=[0] * players, shared_wins=[0] * players,
                  landings=[0] * len(module.SPACE_IDS), rests=[0] * len(module.SPACE_IDS),
                  fired=[0] * len(module.RULE_NAMES))
    for index in range(first, first + count):
        kwargs = {} if turn_cap is None else {"turn_cap": turn_cap}
        game = module.Game(players, seed=game_seed(seed, index), policies=policies,
                           options=options, **kwargs)
        started = time.perf_counter()
        try:
            game.play()
        except Exception as exc:  # the rules failed: report which game, as plain data
            where = rules_location(module, exc)
            raise SimulationError(
                f"game {index} (seed {game_seed(seed, index)}) failed at turn {game.turn}"
                f"{' in ' + where if where else ''}: {type(exc).__name__}: {exc}"
            ) from None
        tally.game_seconds += time.perf_counter() - started
        tally.turns.append(game.turn)
        tally.capped += 1 if game.capped else 0
        reason = end_reason(game)
        tally.ends[reason] = tally.ends.get(reason, 0) + 1
        winners = game.winners()
        if records:
            tally.records.append({"game": index, "seed": game_seed(seed, index),
                                  "turns": game.turn, "winners": winners, "end": reason,
                                  "rank": game.ranks(), "cash": game.players_cash()})
        for seat in winners:
            (tally.wins if len(winners) == 1 else tally.shared_wins)[seat] += 1
        tally.shared_games += len(winners) > 1
        game.add_counts(tally.landings, tally.rests, tally.fired)
        tally.moves += game.moves
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
    settings: dict[str, Any] = field(default_factory=dict)  # everything that made the run
    partial: bool = False  # interrupted: `games` were played of the settings' games

    def to_json(self) -> dict[str, Any]:
        t = self.tally
        order = sorted(range(len(self.space_ids)), key=lambda s: (self.track[s], s))
        differ = seats_differ(t.wins)
        throws = sum(t.rests)
        return {
            **({"partial": True} if self.partial else {}),
            "settings": self.settings,
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
            "turns": describe(t.turns),
            # a win shared by several seats (a tie for first place) is counted apart
            "win_rate_by_seat": [w / self.games for w in t.wins],
            "win_rate_ci95": [wilson(w, self.games) for w in t.wins],
            "shared_wins": t.shared_games,
            "shared_win_rate_by_seat": [w / self.games for w in t.shared_wins],
            "seat_differences": {None: "too few decided games to tell", True: "significant",
                                 False: "within noise"}[differ],
            "end_reasons": dict(sorted(t.ends.items())),
            # games per second of playing, on one core (not process start or compiling)
            "games_per_second": self.games / t.game_seconds if t.game_seconds > 0 else 0.0,
            "seconds": self.seconds,
            "landing": [
                {"position": self.track[s], "id": self.space_ids[s],
                 "name": self.space_names[s],
                 # the share of dice throws after which the token rests here, once all the
                 # throw caused is done (published tables' landing frequency)
                 "frequency": t.rests[s] / throws if throws else 0.0,
                 # the share of all token placements (every move, card advance, trip to Jail)
                 "arrivals": t.landings[s] / t.moves if t.moves else 0.0}
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
             progress: Callable[[int, int], None] | None = None,
             records: bool = False, address: str | None = None,
             params: list[str] | None = None) -> Summary:
    """Play the games; with `records`, keep one record per game (Summary.tally.records).
    `params` (`NAME=VALUE`) builds the edition with those params set (a strategy's
    reserve, a fine: runtime/loader.py's load_module).
    The ray engine runs on the Ray cluster at `address`, else on a local Ray started for
    the run with `workers` CPUs. Ctrl-C stops the workers at once and raises Interrupted
    with the games played so far (a partial Summary), unless none was."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine '{engine}': choose {' or '.join(ENGINES)}")
    module = load_module(edition, backend, params or ())  # compiled before any worker starts
    if not module.MIN_PLAYERS <= players <= module.MAX_PLAYERS:
        raise ValueError(f"{module.EDITION} is for {module.MIN_PLAYERS} to "
                         f"{module.MAX_PLAYERS} players, not {players}")
    chosen = parse_options(module, options or [])
    played = playable(edition, policies)  # a Python policy's name: the policy
    with ExitStack() as session:
        if engine == "ray":
            from .ray_engine import ray_session

            cpus = session.enter_context(ray_session(address, workers))
            workers = workers or cpus
        workers = max(1, min(workers or os.cpu_count() or 1, games))
        chunk = max(1, min(250, -(-games // (workers * 4))))
        chunks = [(players, seed, first, min(chunk, games - first), turn_cap, played,
                   chosen, records) for first in range(0, games, chunk)]
        total = Tally(wins=[0] * players, shared_wins=[0] * players,
                      landings=[0] * len(module.SPACE_IDS), rests=[0] * len(module.SPACE_IDS),
                      fired=[0] * len(module.RULE_NAMES))
        started = time.perf_counter()
        done = 0
        if progress:
            progress(done, games)
        interrupted = False
        try:
            with closing(_run(module, backend, chunks, workers, engine)) as tallies:
                for tally in tallies:
                    total.merge(tally)
                    done += len(tally.turns)
                    if progress:
                        progress(done, games)
        except KeyboardInterrupt:
            if not done:
                raise
            interrupted = True
        seconds = time.perf_counter() - started
    settings = {
        "edition": edition, "title": module.EDITION,
        "rules_hash": published_name(module).rsplit("_", 1)[-1],
        "backend": backend, "policies": policies or ["default"] * players, "options": chosen,
        "params": list(params or []),
        "turn_limit": turn_cap if turn_cap is not None else module.TURN_LIMIT,
        "seed": seed, "games": games, "players": players, "engine": engine,
        "workers": workers, "boardrules_version": __version__,
    }
    summary = Summary(module.EDITION if edition.endswith(".rules") else edition, done, players,
                      seed, backend, total, seconds, module.SPACE_IDS, module.SPACE_NAMES,
                      module.TRACK, module.RULE_NAMES, module.RULE_HANDLED, chosen, settings,
                      partial=interrupted)
    if interrupted:
        raise Interrupted(summary)
    return summary


def _run(module: ModuleType, backend: str, chunks: list[tuple], workers: int,
         engine: str) -> Iterator[Tally]:
    """Each chunk's tally, in the order they finish; a worker process loads the module the
    driver built from the cache, by name."""
    name = published_name(module)
    if engine == "ray":
        from .ray_engine import run_batches

        yield from run_batches(module, backend, chunks, play_games, SimulationError)
    elif workers == 1:
        for chunk in chunks:
            yield play_games(module, *chunk)
    else:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_sigint)
        waiting = iter(chunks)  # a few chunks in flight, not a million futures at once
        try:
            running = {pool.submit(play_chunk, name, backend, *chunk)
                       for chunk in islice(waiting, 2 * workers)}
            while running:
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    running |= {pool.submit(play_chunk, name, backend, *chunk)
                                for chunk in islice(waiting, 1)}
                    yield future.result()
        except BaseException:  # Ctrl-C, a failed game, the caller gone: no game goes on
            stop_pool(pool)
            raise
        pool.shutdown()


def ignore_sigint() -> None:
    """In a worker: Ctrl-C on the terminal reaches every process of the group; the parent
    alone handles it (it ends the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End a pool's worker processes now, whatever they are playing (shutdown alone would
    wait for every game submitted)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(1)


def write_records(path: Path, records: list[dict[str, Any]]) -> None:
    """Per-game records for pandas and friends: CSV for a .csv file, else JSON lines. The
    winners are seat names in both (`p2`; `p1 p3` when they shared the win, in CSV one
    cell, in JSON a list; empty when nobody won); a seat's place (`rank`, 1 the first,
    shared places alike) and cash are per seat: CSV columns `rank_p1`..., `cash_p1`...,
    JSON lists in seat order."""
    named = [r | {"winners": [seat_name(p) for p in r["winners"]]} for r in records]
    if path.suffix.lower() == ".csv":
        seats = max((len(r["cash"]) for r in records), default=0)
        with atomic_file(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["game", "seed", "turns", "winners", "end",
                             *(f"rank_p{i + 1}" for i in range(seats)),
                             *(f"cash_p{i + 1}" for i in range(seats))])
            for r in named:
                writer.writerow([r["game"], r["seed"], r["turns"], " ".join(r["winners"]),
                                 r["end"], *r["rank"], *r["cash"]])
    else:
        write_atomic(path, "".join(json.dumps(r) + "\n" for r in named))


def _shared_line(data: dict[str, Any]) -> str:
    """The summary's line of shared wins: how many games, and each seat's share of them."""
    games = data["shared_wins"]
    if not games:
        return "shared wins        none (every decided game had one winner)"
    return (f"shared wins        {games} games ({100 * games / data['games']:.1f}%), by seat "
            + "  ".join(f"p{seat + 1}: {100 * rate:.1f}%"
                        for seat, rate in enumerate(data["shared_win_rate_by_seat"])))


class ProgressBar:
    """Games done, rate and time left on a terminal (tqdm); silent when stderr is piped."""

    def __init__(self, what: str = "games") -> None:
        self.what = what
        self.bar = None
        self.done = 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit=self.what.rstrip("s"), desc=self.what,
                            file=sys.stderr, disable=not sys.stderr.isatty(), leave=False)
        self.bar.update(done - self.done)
        self.done = done
        if done >= total:
            self.bar.close()


def format_summary(data: dict[str, Any], top: int = 10) -> str:
    settings, turns = data["settings"], data["turns"]
    lines = [
        f"edition            {data['edition']}",
        f"games              {data['games']} ({data['players']} players, seed {data['seed']}, "
        f"{data['backend']})" + "".join(f", {k}={v}" for k, v in data["options"].items()),
        f"policies           {', '.join(settings['policies'])}; turn limit "
        f"{settings['turn_limit']}; {settings['engine']} x{settings['workers']}; "
        f"rules {settings['rules_hash']}"
        + "".join(f"; param {setting}" for setting in settings.get("params", [])),
        f"mean turns         {data['mean_turns']:.1f} (sd {turns['sd']:.1f})",
        f"median turns       {data['median_turns']:.1f} (5% {turns['p5']:.0f}, 25% "
        f"{turns['p25']:.0f}, 75% {turns['p75']:.0f}, 95% {turns['p95']:.0f}; "
        f"{turns['min']:.0f} to {turns['max']:.0f})",
        f"capped games       {data['capped_games']} ({100 * data['capped_fraction']:.1f}%)",
        "how games ended    " + ", ".join(f"{reason}: {count}"
                                          for reason, count in data["end_reasons"].items()),
        "win rate by seat   " + "  ".join(
            f"p{seat + 1}: {100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
            for seat, (rate, (low, high)) in enumerate(
                zip(data["win_rate_by_seat"], data["win_rate_ci95"], strict=True))),
        f"                   (95% intervals; seat differences: {data['seat_differences']})",
        _shared_line(data),
        f"games per second   {data['games_per_second']:.1f} (one core, games only)",
        "",
        f"most landed spaces (where throws leave the token, top {top}):   rests  arrivals",
    ]
    ranked = sorted(data["landing"], key=lambda e: -e["frequency"])[:top]
    for entry in ranked:
        share, arrivals = 100 * entry["frequency"], 100 * entry["arrivals"]
        lines.append(f"  {entry['position']:>3}  {entry['name']:<36} {share:5.2f}%    "
                     f"{arrivals:5.2f}%")
    return "\n".join(lines)
