"""Landing shares per throw of an edition on the classic board against the C reference.

    python benchmarks/landing_vs_cref.py [EDITION] [--games N] [--players P] [--seed S]
        [--cref PATH] [--jail SPACE] [--option NAME=VALUE] [--json FILE]

The edition (default disney_theme_park, the classic board renamed) is simulated with
its default strategy; its resting shares (`simulate --json`'s `landing[].frequency`,
the share of throws after which the token rests on a space) are compared square by
square with the landing table of the hand-written C simulator
../shared/reference/cref/monopoly_ref.c, built with its turn cap (rounds a player)
set to the edition's mean game length over the players and run with the same games,
players and seed. Track position p is compared with the reference's square p, the
edition's jail space (--jail) with its "In Jail". The table lists the squares by the
size of the difference (points of percentage); the reference has no auctions or trades
and its own policy, so a difference may come from the strategies as well as from the
rules. Exit status 2 when the reference or gcc is missing.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_backends import CREF_DEFAULT, built_cref, gcc_for
from games_arguments import games_parser

from boardrules.harness.simulate import simulate

REFERENCE_JAIL = 40  # the reference's square for a token in jail
TABLE_ROW = re.compile(r"^\s*(\d+) (.*?)\s+([\d.]+)$")


def with_turn_cap(source: Path, rounds: int, folder: Path) -> Path:
    """A copy of the reference's source whose TURN_CAP is `rounds`."""
    text, replaced = re.subn(r"^#define TURN_CAP\s+\d+", f"#define TURN_CAP {rounds}",
                             source.read_text(), count=1, flags=re.MULTILINE)
    if not replaced:
        raise ValueError(f"{source}: no `#define TURN_CAP` line")
    copy = folder / source.name
    copy.write_text(text)
    return copy


def reference_table(binary: Path, games: int, players: int, seed: int) -> dict[int, float]:
    """The reference's landing frequency (% of landings) by square, 40 = In Jail."""
    out = subprocess.run([str(binary), str(games), str(players), str(seed)], check=True,
                         capture_output=True, text=True).stdout
    table = out.split("landing frequency", 1)[1].splitlines()
    rows = (TABLE_ROW.match(line) for line in table)
    return {int(m.group(1)): float(m.group(3)) for m in rows if m}


def compared(landing: list[dict], reference: dict[int, float], jail: str) -> list[dict]:
    """Each of the edition's spaces with a square in the reference, largest gap first."""
    rows = []
    for entry in landing:
        square = REFERENCE_JAIL if entry["id"] == jail else entry["position"]
        if square in reference:
            share = 100 * entry["frequency"]
            rows.append({"square": square, "id": entry["id"], "edition": round(share, 4),
                         "reference": reference[square],
                         "difference": round(share - reference[square], 4)})
    return sorted(rows, key=lambda row: -abs(row["difference"]))


def main() -> int:
    parser = games_parser(__doc__, 100000)
    parser.add_argument("--cref", type=Path, default=CREF_DEFAULT)
    parser.add_argument("--jail", default="in_jail", help="the edition's jail space")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    gcc = gcc_for(args.cref)
    if gcc is None:
        return 2
    summary = simulate(args.edition, args.games, args.players, args.seed, workers=1,
                       options=args.option).to_json()
    rounds = max(1, round(summary["mean_turns"] / args.players))
    with tempfile.TemporaryDirectory() as tmp, \
            built_cref(gcc, with_turn_cap(args.cref, rounds, Path(tmp))) as binary:
        reference = reference_table(binary, args.games, args.players, args.seed)
    rows = compared(summary["landing"], reference, args.jail)
    print(f"{args.edition}: {args.games} games of {args.players}, seed {args.seed}, mean "
          f"{summary['mean_turns']:.1f} turns; the reference capped at {rounds} rounds")
    print(f"{'square':>6}  {'space':<24}{'edition %':>10}{'reference %':>13}{'difference':>12}")
    for row in rows:
        print(f"{row['square']:>6}  {row['id']:<24}{row['edition']:>10.3f}"
              f"{row['reference']:>13.3f}{row['difference']:>+12.3f}")
    print(f"largest difference: {abs(rows[0]['difference']):.3f} points ({rows[0]['id']})")
    if args.json:
        args.json.write_text(json.dumps({"edition": args.edition, "games": args.games,
                                         "players": args.players, "seed": args.seed,
                                         "mean_turns": summary["mean_turns"],
                                         "reference_rounds": rounds, "squares": rows},
                                        indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
