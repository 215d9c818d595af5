"""The command line the benchmarks that play seeded games share: which edition, how many
games, of how many players, from which seed (each script its own default number)."""

from __future__ import annotations

import argparse


def games_parser(doc: str, games: int) -> argparse.ArgumentParser:
    """A parser described by the script's docstring, with the games' arguments."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("edition", nargs="?", default="disney_theme_park")
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    return parser
