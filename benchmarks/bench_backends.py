"""Compiled vs interpreted vs the C reference: turns per second, in one run, on one core.

    python benchmarks/bench_backends.py [EDITION] [--games N] [--compiled-games M]
        [--players K] [--policy default|random] [--seed S] [--repeat R] [--core C]
        [--cref PATH] [--cref-games G] [--cref-seed S] [--json FILE]

The process is pinned to one core (default: the last CPU). Both backends play
the same seeded games (the turn counts are checked); the compiled backend may
play more of them (--compiled-games, default 2000) for a steadier timing.
When the hand-written C simulator ../shared/reference/cref/monopoly_ref.c exists
(or --cref PATH), it is built with `gcc -O2 -march=native` into a temp dir and
run on the same core; its turns/s is the speed limit the others are compared to.
The engines take turns, --repeat rounds of one pass each, and each keeps its best
round: a slow spell of a shared machine falls on all of them alike.
It plays classic Monopoly, not the edition: compare turns/s, not games/s.
It also plays the profile-guided build (`BOARDRULES_OPT_LEVEL=pgo`, built on first use)
unless --no-pgo: the setting for a long study, next to the shipped one.
`--policy random` plays every seat with the random policy, which lists every legal
option of every decision (as an agent's `legal_actions()` does).
Not a test: performance is measured here, not asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from decimal import Decimal
from pathlib import Path
from types import ModuleType

from boardrules.compiler.build import profile_guided
from boardrules.compiler.build.build_settings import OPT_LEVEL_ENV
from boardrules.harness.simulate import game_seed
from boardrules.runtime.loader import load_module

CREF_PATH = "shared/reference/cref/monopoly_ref.c"
CFLAGS = ["-O2", "-march=native"]


def reference_source() -> Path:
    """../shared/reference/cref/monopoly_ref.c beside the checkout, or beside a folder above
    it (a worktree's); the first place when there is none."""
    checkout = Path(__file__).resolve().parents[1]
    found = (folder / CREF_PATH for folder in checkout.parents)
    return next((path for path in found if path.exists()), checkout.parent / CREF_PATH)


CREF_DEFAULT = reference_source()


def gcc_for(cref: Path) -> str | None:
    """gcc, when it and the C reference are there; otherwise None, the error said."""
    gcc = shutil.which("gcc")
    if cref.exists() and gcc is not None:
        return gcc
    print(f"boardrules: error: needs {cref} and gcc", file=sys.stderr)
    return None


def play_once(module: ModuleType, games: int, players: int, seed: int,
              policy: str = "default") -> tuple[float, list[int]]:
    """Wall time of one pass over the seeded games, and each game's turns."""
    turns = []
    started = time.perf_counter()
    for index in range(games):
        game = module.Game(players, seed=game_seed(seed, index), policies=[policy] * players)
        game.play()
        turns.append(game.turn)
    return time.perf_counter() - started, turns


@contextmanager
def built_cref(gcc: str, source: Path, flags: list[str] = CFLAGS) -> Iterator[Path]:
    """The C reference built with CFLAGS (or `flags`) into a temporary folder."""
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "monopoly_ref"
        subprocess.run([gcc, *flags, "-o", str(binary), str(source)], check=True)
        yield binary


def run_cref(binary: Path, core: int, games: int, players: int, seed: int) -> dict[str, float]:
    """One run of the C reference pinned to `core`; its `key: value` figures."""
    command = [str(binary), str(games), str(players), str(seed)]
    taskset = shutil.which("taskset")
    if taskset:
        out = subprocess.run([taskset, "-c", str(core), *command], check=True,
                             capture_output=True, text=True).stdout
    else:
        out = subprocess.run(command, check=True, capture_output=True, text=True,
                             preexec_fn=lambda: os.sched_setaffinity(0, {core})).stdout
    values = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    return {"seconds": float(values["elapsed s"]), "turns": int(values["total turns"]),
            "games": games, "turns_per_second": float(values["turns/s"]),
            "games_per_second": float(values["games/s"])}


def load_at_level(edition: str, level: str) -> ModuleType:
    """The edition's compiled module built at an optimization level of $BOARDRULES_OPT_LEVEL."""
    saved = os.environ.get(OPT_LEVEL_ENV)
    os.environ[OPT_LEVEL_ENV] = level
    try:
        return load_module(edition, "compiled")
    finally:
        if saved is None:
            del os.environ[OPT_LEVEL_ENV]
        else:
            os.environ[OPT_LEVEL_ENV] = saved


def figures(seconds: float, turns: int, games: int) -> dict[str, float]:
    return {"seconds": seconds, "turns": turns, "games": games,
            "turns_per_second": turns / seconds, "games_per_second": games / seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", nargs="?", default="disney_theme_park")
    parser.add_argument("--games", type=int, default=40, help="games on both backends")
    parser.add_argument("--compiled-games", type=int, default=2000,
                        help="games on the compiled backend (at least --games)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", choices=("default", "random"), default="default",
                        help="every seat's built-in policy (random: the options of every "
                        "decision listed, as agents see them; the C reference plays its own)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--core", type=int, default=max(os.sched_getaffinity(0)))
    parser.add_argument("--cref", type=Path, default=CREF_DEFAULT)
    parser.add_argument("--cref-games", type=int, default=20000)
    parser.add_argument("--cref-seed", type=int, default=1)
    parser.add_argument("--no-pgo", dest="pgo", action="store_false",
                        help="leave out the profile-guided build")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    compiled_games = max(args.compiled_games, args.games)
    os.sched_setaffinity(0, {args.core})

    interpreted = load_module(args.edition, "interpreted")
    compiled = load_module(args.edition, "compiled")
    builds = {"compiled": compiled}
    if args.pgo:
        builds["compiled, pgo"] = load_at_level(args.edition, profile_guided.LEVEL)
    note, gcc = "", shutil.which("gcc")
    if not args.cref.exists():
        note = f"C reference skipped: {args.cref} not found"
    elif gcc is None:
        note = "C reference skipped: gcc not found"
    results: dict[str, dict[str, float]] = {}

    def keep_best(name: str, result: dict[str, float]) -> None:
        if name not in results or result["seconds"] < results[name]["seconds"]:
            results[name] = result

    # the engines take turns, round after round, so that a slow spell of the machine
    # falls on each of them alike; each keeps its best round
    with ExitStack() as stack:
        binary = None if note else stack.enter_context(built_cref(gcc, args.cref))
        for _ in range(args.repeat):
            seconds, turns_i = play_once(interpreted, args.games, args.players, args.seed,
                                         args.policy)
            keep_best("interpreted", figures(seconds, sum(turns_i), args.games))
            for name, module in builds.items():
                seconds, turns_c = play_once(module, compiled_games, args.players, args.seed,
                                             args.policy)
                keep_best(name, figures(seconds, sum(turns_c), compiled_games))
                if turns_c[:args.games] != turns_i:
                    print(f"error: {name} and interpreted played different games",
                          file=sys.stderr)
                    return 1
            if binary is not None:
                keep_best("C reference", run_cref(binary, args.core, args.cref_games,
                                                  args.players, args.cref_seed))

    rate = {name: r["turns_per_second"] for name, r in results.items()}
    ratios = {f"{name}/interpreted": rate[name] / rate["interpreted"] for name in builds}
    if "C reference" in rate:
        ratios.update({f"{name}/C": rate[name] / rate["C reference"]
                       for name in (*builds, "interpreted")})

    policy = "" if args.policy == "default" else f", {args.policy} policy"
    print(f"{args.edition}, {args.players} players{policy}, seed {args.seed}, core {args.core}, "
          f"best of {args.repeat} rounds in turn; {sum(turns_i)} turns in the {args.games} "
          "shared games")
    print(f"{'engine':<15}{'games':>8}{'turns':>12}{'seconds':>10}{'games/s':>11}"
          f"{'turns/s':>14}")
    for name, r in results.items():
        print(f"{name:<15}{r['games']:>8}{r['turns']:>12}{r['seconds']:>10.3f}"
              f"{r['games_per_second']:>11.1f}{r['turns_per_second']:>14,.0f}")
    if note:
        print(note)
    width = max(len(name) for name in ratios) + len(" (turns/s): ")
    for name, ratio in ratios.items():
        print(f"{name + ' (turns/s):':<{width}}{Decimal(f'{ratio:.3g}'):f}x")
    if args.json:
        settings = {"edition": args.edition, "policy": args.policy, "games": args.games,
                    "compiled_games": compiled_games, "players": args.players,
                    "seed": args.seed, "repeat": args.repeat, "core": args.core,
                    "cref": str(args.cref), "cref_games": args.cref_games,
                    "cref_seed": args.cref_seed, "pgo": args.pgo,
                    "cflags": " ".join(["gcc", *CFLAGS])}
        with open(args.json, "w") as handle:
            json.dump({"settings": settings, "results": results, "ratios": ratios},
                      handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
