"""The GameState API's cost, as a search pays it: apply, clone and rollouts from mid-game.

    python benchmarks/bench_state.py [EDITION] [--players K] [--actions A] [--samples S]
        [--rollouts R] [--api-rollouts P] [--seed N] [--seeded]
        [--backend compiled|interpreted] [--json FILE]

A game (chance mode unless --seeded) is played by uniformly random actions, chance
outcomes drawn uniformly too, for A actions (default 1,000): the mid-game state. From it:
`apply` is timed on S actions played on from a clone (the game restarted from the state
when it ends), `clone` S times, R rollouts (GameState.rollout: the random policy on every
seat in C, chance nodes drawn from the rollout's seed) are played to the end, and
--api-rollouts more through apply (random actions chosen in Python, one by one). Medians of
the S timings; rollouts a second over the R. Not a test: performance is measured here,
not asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from boardrules.runtime.loader import load_module
from boardrules.runtime.state import GameState, play_random


def mid_game(edition: str, backend: str, players: int, actions: int, seed: int,
             chance: bool) -> GameState:
    """The state after `actions` random actions (fewer if the game ends first)."""
    state = GameState(load_module(edition, backend), players, seed=seed, chance=chance)
    return play_random(state, actions, seed)


def time_applies(state: GameState, samples: int, seed: int) -> list[float]:
    pick = random.Random(seed)
    timings: list[float] = []
    playing = state.clone()
    while len(timings) < samples:
        if playing.is_over:
            playing = state.clone()
        action = pick.choice(playing.legal_actions())
        start = time.perf_counter()
        playing.apply(action)
        timings.append(time.perf_counter() - start)
    return timings


def time_clones(state: GameState, samples: int) -> list[float]:
    timings: list[float] = []
    for _ in range(samples):
        start = time.perf_counter()
        state.clone()
        timings.append(time.perf_counter() - start)
    return timings


def time_rollouts(state: GameState, rollouts: int) -> tuple[float, float]:
    """Rollouts a second, and the mean turns a rollout ended at."""
    turns = 0
    start = time.perf_counter()
    for i in range(rollouts):
        turns += state.rollout(i).turn
    return rollouts / (time.perf_counter() - start), turns / rollouts


def time_api_rollouts(state: GameState, rollouts: int) -> float:
    """Rollouts a second played through the API: clone, then uniformly random actions and
    chance outcomes applied one by one to the end (what a Python search loop pays)."""
    start = time.perf_counter()
    for i in range(rollouts):
        play_random(state.clone(), 10**9, i)
    return rollouts / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", nargs="?", default="disney_theme_park")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--api-rollouts", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeded", action="store_true",
                        help="the seeded game (dice from the seed), not chance nodes")
    parser.add_argument("--backend", choices=("compiled", "interpreted"), default="compiled")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    state = mid_game(args.edition, args.backend, args.players, args.actions, args.seed,
                     not args.seeded)
    applies = time_applies(state, args.samples, args.seed)
    clones = time_clones(state, args.samples)
    per_second, turns = time_rollouts(state, args.rollouts)
    api_per_second = time_api_rollouts(state, args.api_rollouts)
    report = {
        "edition": args.edition, "backend": args.backend, "players": args.players,
        "mode": "seeded" if args.seeded else "chance", "actions": len(state.actions),
        "turn": state.game.turn, "apply_median_us": statistics.median(applies) * 1e6,
        "apply_mean_us": statistics.mean(applies) * 1e6,
        "clone_median_us": statistics.median(clones) * 1e6,
        "rollouts_per_second": per_second, "rollout_end_turn": turns,
        "api_rollouts_per_second": api_per_second,
    }
    print(f"{args.edition}, {args.players} players, {args.backend}, {report['mode']} mode: "
          f"{report['actions']} actions in, turn {report['turn']}")
    print(f"  apply  median {report['apply_median_us']:8.1f} us  "
          f"(mean {report['apply_mean_us']:.1f} us, {args.samples} actions played on)")
    print(f"  clone  median {report['clone_median_us']:8.1f} us")
    print(f"  rollouts to the end: {per_second:.0f} a second (ending at turn {turns:.0f} "
          f"on average, {args.rollouts} rollouts)")
    print(f"  rollouts through apply (random actions from Python): {api_per_second:.1f} a "
          f"second ({args.api_rollouts} rollouts)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
