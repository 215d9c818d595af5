"""The same game on both engines: the reference edition against the C reference, on one core.

    python benchmarks/bench_reference.py [--games N] [--cref-games G] [--players K]
        [--seed S] [--repeat R] [--core C] [--cref PATH] [--instruction-games M]
        [--no-pgo] [--json FILE]

benchmarks/editions/classic_reference plays the rules of the hand-written C simulator
../shared/reference/cref/monopoly_ref.c (benchmarks/equivalence.py measures that they
play the same game), so their turns per second compare the same work. The process is
pinned to one core (default: the last CPU); the compiled edition (and its profile-guided
build, unless --no-pgo) and the C program, built with `gcc -O2 -march=native`, take
turns, --repeat rounds of one pass each, and each keeps its best round. Then, when
valgrind is installed, callgrind counts the instructions a turn of each over
--instruction-games games (the edition's game loop; the C program's `main`, built with
`gcc -O2` alone, for valgrind decodes not every instruction -march=native may choose): a
figure the noise of a shared machine does not move. Exit status 2 when the reference or gcc is
missing. Not a test: performance is measured here, not asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

from bench_backends import (
    CREF_DEFAULT,
    built_cref,
    figures,
    gcc_for,
    load_at_level,
    play_once,
    run_cref,
)
from instructions import callgrind, count_instructions

from boardrules.compiler.build import profile_guided
from boardrules.runtime.loader import load_module

CALLGRIND_CFLAGS = ["-O2"]
EDITION = str(Path(__file__).resolve().parent / "editions" / "classic_reference")


def cref_instructions(valgrind: str, binary: Path, games: int, players: int,
                      seed: int) -> tuple[int, int]:
    """(turns, instructions) of the C program's games, counted inside `main`."""
    def turns_of(out: str) -> int:
        return int(next(line for line in out.splitlines()
                        if line.startswith("total turns:")).split(": ")[1])
    return callgrind(valgrind, ["--toggle-collect=main", str(binary), str(games),
                                str(players), str(seed)], turns_of)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games of the edition")
    parser.add_argument("--cref-games", type=int, default=20000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--core", type=int, default=max(os.sched_getaffinity(0)))
    parser.add_argument("--cref", type=Path, default=CREF_DEFAULT)
    parser.add_argument("--instruction-games", type=int, default=20,
                        help="games counted by callgrind (0: none)")
    parser.add_argument("--no-pgo", dest="pgo", action="store_false",
                        help="leave out the profile-guided build")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    gcc = gcc_for(args.cref)
    if gcc is None:
        return 2
    os.sched_setaffinity(0, {args.core})
    builds = {"compiled": load_module(EDITION, "compiled")}
    if args.pgo:
        builds["compiled, pgo"] = load_at_level(EDITION, profile_guided.LEVEL)
    results: dict[str, dict[str, float]] = {}
    instructions: dict[str, dict[str, float]] = {}
    with built_cref(gcc, args.cref) as binary:
        for _ in range(args.repeat):  # in turn, so that a slow spell falls on each alike
            for name, module in builds.items():
                seconds, turns = play_once(module, args.games, args.players, args.seed)
                keep_best(results, name, figures(seconds, sum(turns), args.games))
            keep_best(results, "C reference", run_cref(binary, args.core, args.cref_games,
                                                       args.players, args.seed))
    valgrind = shutil.which("valgrind")
    if valgrind and args.instruction_games > 0:
        with built_cref(gcc, args.cref, CALLGRIND_CFLAGS) as portable:
            counts = {"compiled": count_instructions(valgrind, EDITION, args.instruction_games,
                                                     args.players, args.seed),
                      "C reference": cref_instructions(valgrind, portable,
                                                       args.instruction_games, args.players,
                                                       args.seed)}
        instructions = {name: {"turns": turns, "instructions": counted,
                               "per_turn": counted / turns}
                        for name, (turns, counted) in counts.items()}
    rate = {name: r["turns_per_second"] for name, r in results.items()}
    ratios = {f"{name}/C": rate[name] / rate["C reference"] for name in builds}
    print(f"classic_reference against the C reference, {args.players} players, core "
          f"{args.core}, best of {args.repeat} rounds in turn")
    print(f"{'engine':<15}{'games':>8}{'turns':>12}{'seconds':>10}{'turns/s':>14}"
          f"{'instr./turn':>13}")
    for name, r in results.items():
        per_turn = instructions.get(name, {}).get("per_turn")
        shown = f"{per_turn:>13,.0f}" if per_turn else f"{'':>13}"
        print(f"{name:<15}{r['games']:>8}{r['turns']:>12}{r['seconds']:>10.3f}"
              f"{r['turns_per_second']:>14,.0f}{shown}")
    for name, ratio in ratios.items():
        print(f"{name} (turns/s): {ratio:.3f}x")
    if len(instructions) == 2:
        times = instructions["compiled"]["per_turn"] / instructions["C reference"]["per_turn"]
        print(f"instructions a turn, compiled/C: {times:.1f}x "
              f"({args.instruction_games} games each)")
    elif args.instruction_games > 0:
        print("instructions not counted: valgrind not found")
    if args.json:
        args.json.write_text(json.dumps({"settings": vars(args) | {"cref": str(args.cref),
                                                                   "json": str(args.json)},
                                         "results": results, "ratios": ratios,
                                         "instructions": instructions}, indent=2) + "\n")
    return 0


def keep_best(results: dict[str, dict[str, float]], name: str, result: dict[str, float]) -> None:
    """Keep an engine's fastest round."""
    if name not in results or result["seconds"] < results[name]["seconds"]:
        results[name] = result


if __name__ == "__main__":
    sys.exit(main())
