"""Landing shares per throw of an edition on the classic board against the C reference.

    python benchmarks/landing_vs_cref.py [EDITION] [--games N] [--players P] [--seed S]
        [--cref PATH] [--jail SPACE] [--jail-policy never|always|own] [--reserve-param NAME]
        [--option NAME=VALUE] [--json FILE]

The edition (default disney_theme_park, the classic board renamed) is simulated with
its default strategy; its resting shares (`simulate --json`'s `landing[].frequency`,
the share of throws after which the token rests on a space) are compared square by
square with the landing table of the hand-written C simulator
../shared/reference/cref/monopoly_ref.c, built with its turn cap (rounds a player)
set to the edition's mean game length over the players and run with the same games,
players and seed. Track position p is compared with the reference's square p, the
edition's jail space (--jail) with its "In Jail".

How long a token rests in jail depends on when its player pays the fine to leave
early: strategy, not rules. So that the comparison measures the rules (dice, doubles,
three tries, the fine after the last, cards, Go to Jail), both sides play the same jail
policy, by default `never`: nobody pays the fine before a throw (the edition built with
its reserve param, --reserve-param, set to NEVER, as `simulate --param` does; the
reference compiled with JAIL_RESERVE the same), so a player leaves jail by doubles, a
Get Out of Jail Free card or the third throw. `--jail-policy always` pays it whenever the
cash covers it (a reserve of 0 on both sides), `own` keeps each side's own reserve (the
edition's default strategy against the reference's 150). The reference has
no auctions or trades and its own buying and building, which change no landing but
through the game's length and the players' cash. The table lists the squares by the
size of the difference (points of percentage). Exit status 2 when the reference or gcc
is missing.
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
NEVER = 1_000_000_000  # a reserve no player's cash reaches: the fine is never paid early
# the reserve both sides keep before paying the fine early, by jail policy (own: their own)
RESERVES = {"never": NEVER, "always": 0, "own": None}
POLICY_TEXT = {"never": "neither pays the jail fine early",
               "always": "both pay the jail fine early when they can",
               "own": "each its own jail reserve"}
TABLE_ROW = re.compile(r"^\s*(\d+) (.*?)\s+([\d.]+)$")


def with_defines(source: Path, values: dict[str, int], folder: Path) -> Path:
    """A copy of the reference's source with these `#define NAME VALUE` knobs changed
    (TURN_CAP, JAIL_RESERVE): the reference itself stays as it is."""
    text = source.read_text()
    for name, value in values.items():
        text, replaced = re.subn(rf"^#define {name}\s+\d+", f"#define {name} {value}", text,
                                 count=1, flags=re.MULTILINE)
        if not replaced:
            raise ValueError(f"{source}: no `#define {name}` line")
    copy = folder / source.name
    copy.write_text(text)
    return copy


def jail_settings(policy: str, reserve_param: str) -> tuple[list[str], dict[str, int]]:
    """The edition's --param settings and the reference's defines for a jail policy. The
    edition pays with cash of at least the reserve and the fine, the reference with the
    fine and the reserve: the same with a reserve of 0 or one nobody reaches."""
    reserve = RESERVES[policy]
    if reserve is None:
        return [], {}
    return [f"{reserve_param}={reserve}"], {"JAIL_RESERVE": reserve}


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
    parser.add_argument("--jail-policy", choices=tuple(RESERVES), default="never",
                        help="never: neither side pays the fine early; always: both do when "
                        "they can; own: each side its own reserve")
    parser.add_argument("--reserve-param", default="jail_reserve", metavar="NAME",
                        help="the edition's param below which its strategy keeps the fine")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    gcc = gcc_for(args.cref)
    if gcc is None:
        return 2
    params, jail_defines = jail_settings(args.jail_policy, args.reserve_param)
    try:
        summary = simulate(args.edition, args.games, args.players, args.seed, workers=1,
                           options=args.option, params=params).to_json()
    except ValueError as exc:  # an unknown option or param, a value it cannot take
        print(f"boardrules: error: {exc}", file=sys.stderr)
        return 2
    rounds = max(1, round(summary["mean_turns"] / args.players))
    knobs = {"TURN_CAP": rounds, **jail_defines}
    with tempfile.TemporaryDirectory() as tmp, \
            built_cref(gcc, with_defines(args.cref, knobs, Path(tmp))) as binary:
        reference = reference_table(binary, args.games, args.players, args.seed)
    rows = compared(summary["landing"], reference, args.jail)
    print(f"{args.edition}: {args.games} games of {args.players}, seed {args.seed}, mean "
          f"{summary['mean_turns']:.1f} turns; the reference capped at {rounds} rounds; "
          + POLICY_TEXT[args.jail_policy])
    print(f"{'square':>6}  {'space':<24}{'edition %':>10}{'reference %':>13}{'difference':>12}")
    for row in rows:
        print(f"{row['square']:>6}  {row['id']:<24}{row['edition']:>10.3f}"
              f"{row['reference']:>13.3f}{row['difference']:>+12.3f}")
    print(f"largest difference: {abs(rows[0]['difference']):.3f} points ({rows[0]['id']})")
    if args.json:
        args.json.write_text(json.dumps({"edition": args.edition, "games": args.games,
                                         "players": args.players, "seed": args.seed,
                                         "mean_turns": summary["mean_turns"],
                                         "jail_policy": args.jail_policy, "params": params,
                                         "reference_rounds": rounds, "reference_defines": knobs,
                                         "squares": rows},
                                        indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
