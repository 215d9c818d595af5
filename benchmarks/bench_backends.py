"""Compiled vs interpreted: whole games of an edition, measured in one run.

    python benchmarks/bench_backends.py [EDITION] [--games N] [--players K] [--seed S]

Both backends play the same seeded games (same turns, checked); the
interpreted backend is the baseline. Prints turns and games per second and
the speed-up ratio. Not a test: performance is measured here, not asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from boardrules.harness.simulate import game_seed
from boardrules.runtime.loader import load_module


def measure(module, games: int, players: int, seed: int, repeat: int) -> tuple[float, int]:
    """Best wall time of `repeat` runs over the same games, and the turns played."""
    best = float("inf")
    turns = 0
    for _ in range(repeat):
        turns = 0
        started = time.perf_counter()
        for index in range(games):
            game = module.Game(players, seed=game_seed(seed, index))
            game.play()
            turns += game.turn
        best = min(best, time.perf_counter() - started)
    return best, turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", nargs="?", default="disney_theme_park")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()

    results = {}
    for backend in ("interpreted", "compiled"):
        module = load_module(args.edition, backend)
        seconds, turns = measure(module, args.games, args.players, args.seed, args.repeat)
        results[backend] = {"seconds": seconds, "turns": turns,
                            "turns_per_second": turns / seconds,
                            "games_per_second": args.games / seconds}
    if results["interpreted"]["turns"] != results["compiled"]["turns"]:
        print("error: the backends played different games", file=sys.stderr)
        return 1
    ratio = results["interpreted"]["seconds"] / results["compiled"]["seconds"]
    print(f"{args.edition}: {args.games} games, {args.players} players, seed {args.seed}, "
          f"{results['compiled']['turns']} turns, best of {args.repeat}")
    print(f"{'backend':<22}{'games/s':>12}{'turns/s':>14}")
    for backend, r in results.items():
        label = backend + (" (baseline)" if backend == "interpreted" else "")
        print(f"{label:<22}{r['games_per_second']:>12.1f}{r['turns_per_second']:>14.0f}")
    print(f"compiled / interpreted speed-up: {ratio:.1f}x")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"edition": args.edition, "games": args.games, "players": args.players,
                       "seed": args.seed, "results": results, "speedup": ratio}, handle,
                      indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
