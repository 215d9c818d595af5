"""MCTS against the default strategy: how often a search agent wins an edition's game.

    python benchmarks/bench_mcts.py [EDITION] [--games G] [--players K] [--simulations S]
        [--rollouts R] [--turn-cap T] [--seed N] [--workers W] [--json FILE]

Seat p1 is OpenSpiel's MCTSBot (S simulations a move, UCT c = 2, each leaf valued by R
random games played to the end in C: agents/search.py); every other seat plays the edition's
default strategy inside the game (the OpenSpiel game's `others=default`); chance nodes are
sampled with their probabilities. G games (game i from seed N + i, in W processes); the
MCTS seat's win rate with its 95% (Wilson) interval, and the rate a default seat would
have by symmetry (1/K). Not a test: measured
here, not asserted.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pyspiel

import boardrules.openspiel  # noqa: F401  (registers the games)
from boardrules.agents.search import mcts_bot, sample_chance
from boardrules.harness.statistics import wilson


def play(edition: str, params: dict, simulations: int, rollouts: int,
         seed: int) -> tuple[float, int]:
    """One game: the MCTS seat's return and the moves it made."""
    game = pyspiel.load_game(f"boardrules_{edition}", params)
    bot = mcts_bot(game, simulations, seed=seed, rollouts=rollouts)
    chance = np.random.RandomState(seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
        else:
            state.apply_action(bot.step(state))
            moves += 1
    return state.returns()[0], moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", nargs="?", default="disney_theme_park")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--turn-cap", type=int, default=0, help="0: the edition's")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    params = {"players": args.players, "turn_cap": args.turn_cap, "others": "default"}
    started = time.perf_counter()
    jobs = [(args.edition, params, args.simulations, args.rollouts, args.seed + number)
            for number in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(play, *zip(*jobs, strict=True)))
    wins = sum(reward > 0 for reward, _ in results)
    moves = sum(made for _, made in results)
    seconds = time.perf_counter() - started
    low, high = wilson(wins, args.games)
    report = {"edition": args.edition, "games": args.games, "players": args.players,
              "simulations": args.simulations, "rollouts": args.rollouts, "mcts_wins": wins,
              "win_rate": wins / args.games, "win_rate_ci95": [low, high],
              "by_symmetry": 1 / args.players, "moves": moves, "seconds": round(seconds, 1)}
    print(f"{args.edition}, {args.players} players: MCTS ({args.simulations} simulations a "
          f"move, {args.rollouts} rollout(s) a leaf) as p1 against the default strategy")
    print(f"MCTS won {wins} of {args.games} games: {100 * wins / args.games:.1f}% "
          f"[{100 * low:.1f}, {100 * high:.1f}] (95%); a default seat by symmetry "
          f"{100 / args.players:.1f}%; {moves} moves, {seconds:.1f} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
