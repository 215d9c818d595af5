"""Do the reference edition and the C reference play the same game? Figure by figure, measured.

    python benchmarks/equivalence.py [EDITION] [--batches K] [--games G] [--players P]
        [--seed S] [--cref PATH] [--workers W] [--json FILE]

Plays K batches of G games on each engine: the hand-written C simulator
../shared/reference/cref/monopoly_ref.c (built with gcc, batch k seeded S + k) and the
edition (default benchmarks/editions/classic_reference, compiled, batch k seeded
S * 1000 + k). Each batch gives every figure once; a figure's value is the mean over the
batches, its standard error their standard deviation over sqrt(K), and z the difference
over the two errors combined. The figures, counted the C program's way: mean turns a
game, the capped fraction (a game the round cap ends has no winner), the win rate of each
seat (wins over all games), landings a turn, and the landing share (% of all landings) of
each square 0..39 and of In Jail (40). The edition's landings are the kernel's resting
count (`simulate --json`'s `landing[].frequency`): one per throw, where the token rests
once all the throw caused is done, a token in jail on the jail space, as the C program
records one per dice roll. Under equivalent rules the z are standard normal: no |z| far
above 3, and the sum of z squared near the number of figures. Exit status 2 when the
reference or gcc is missing.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import subprocess
import sys
from pathlib import Path

from bench_backends import CREF_DEFAULT, built_cref, gcc_for

from boardrules.harness.simulate import simulate

EDITION_DEFAULT = str(Path(__file__).resolve().parent / "editions" / "classic_reference")
IN_JAIL = 40  # the C program's square for a token in jail
JAIL_SPACE = "in_jail"  # the edition's
TABLE_ROW = re.compile(r"^\s*(\d+) (.*?)\s+([\d.]+)$")
CAPPED_ENDS = ("round limit", "turn cap")  # the C program's capped games end one of these ways


def cref_batch(binary: Path, games: int, players: int, seed: int) -> dict[str, float]:
    """One batch of the C program: its figures by name."""
    out = subprocess.run([str(binary), str(games), str(players), str(seed)], check=True,
                         capture_output=True, text=True).stdout
    head, table = out.split("landing frequency", 1)
    values = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    figures = {"mean turns": float(values["mean turns per game"]),
               "capped fraction": float(values["capped fraction"]),
               "landings per turn": int(values["total landings"]) / int(values["total turns"])}
    for seat, rate in re.findall(r"(\d+)=([\d.]+)", values["win rate by seat"]):
        figures[f"win rate p{int(seat) + 1}"] = float(rate)
    for match in filter(None, (TABLE_ROW.match(line) for line in table.splitlines())):
        figures[square_name(int(match.group(1)))] = float(match.group(3))
    return figures


def edition_batch(edition: str, games: int, players: int, seed: int,
                  workers: int) -> dict[str, float]:
    """One batch of the edition, counted as the C program counts."""
    summary = simulate(edition, games, players, seed, workers=workers, records=True)
    records, tally = summary.tally.records, summary.tally
    turns = sum(r["turns"] for r in records)
    figures = {"mean turns": turns / games,
               "capped fraction": sum(r["end"] in CAPPED_ENDS for r in records) / games,
               "landings per turn": sum(tally.rests) / turns}
    for seat in range(players):
        wins = sum(r["winners"] == [seat] and r["end"] not in CAPPED_ENDS for r in records)
        figures[f"win rate p{seat + 1}"] = wins / games
    throws = sum(tally.rests)
    for index, space in enumerate(summary.space_ids):
        square = IN_JAIL if space == JAIL_SPACE else summary.track[index]
        share = 100 * tally.rests[index] / throws
        figures[square_name(square)] = figures.get(square_name(square), 0.0) + share
    return figures


def square_name(square: int) -> str:
    return "In Jail (40)" if square == IN_JAIL else f"square {square}"


def compare(edition: list[dict[str, float]], cref: list[dict[str, float]]) -> list[dict]:
    """Per figure: both means, their standard errors and z (0 when both agree exactly)."""
    rows = []
    for name in cref[0]:
        sides = []
        for batches in (edition, cref):
            values = [batch.get(name, 0.0) for batch in batches]
            spread = statistics.stdev(values) if len(values) > 1 else 0.0
            sides.append((statistics.fmean(values), spread / math.sqrt(len(values))))
        (ed, ed_se), (c, c_se) = sides
        error = math.hypot(ed_se, c_se)
        z = (ed - c) / error if error > 0 else (0.0 if ed == c else math.inf)
        rows.append({"figure": name, "edition": ed, "edition_se": ed_se, "cref": c,
                     "cref_se": c_se, "z": z})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", nargs="?", default=EDITION_DEFAULT)
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--games", type=int, default=1000, help="games a batch")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cref", type=Path, default=CREF_DEFAULT)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    gcc = gcc_for(args.cref)
    if gcc is None:
        return 2
    if args.batches < 2 or args.games < 1:
        print("boardrules: error: needs at least 2 batches of 1 game", file=sys.stderr)
        return 2
    with built_cref(gcc, args.cref) as binary:
        cref = [cref_batch(binary, args.games, args.players, args.seed + k)
                for k in range(args.batches)]
    edition = [edition_batch(args.edition, args.games, args.players, args.seed * 1000 + k,
                             args.workers) for k in range(args.batches)]
    rows = compare(edition, cref)
    chi2 = sum(row["z"] ** 2 for row in rows)
    # a figure both engines give without spread (Go To Jail's share, 0) tells nothing
    measured = sum(row["edition_se"] + row["cref_se"] > 0 for row in rows)
    print(f"{Path(args.edition).name} against the C reference: {args.batches} batches of "
          f"{args.games} games, {args.players} players")
    print(f"{'figure':<20}{'edition':>12}{'se':>10}{'C':>12}{'se':>10}{'z':>8}")
    for row in rows:
        print(f"{row['figure']:<20}{row['edition']:>12.4f}{row['edition_se']:>10.4f}"
              f"{row['cref']:>12.4f}{row['cref_se']:>10.4f}{row['z']:>+8.2f}")
    worst = max(rows, key=lambda row: abs(row["z"]))
    print(f"sum of z^2: {chi2:.1f} over {measured} figures with a spread "
          f"({len(rows)} in all); largest |z| {abs(worst['z']):.2f} "
          f"({worst['figure']})")
    if args.json:
        report = {"edition": args.edition, "batches": args.batches, "games": args.games,
                  "players": args.players, "seed": args.seed, "figures": rows,
                  "sum_z2": chi2, "figures_with_spread": measured}
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
