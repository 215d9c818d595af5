"""Instructions a turn of compiled games, counted by callgrind: a figure the noise of this
machine's clock does not move.

    python benchmarks/instructions.py [EDITION] [--games N] [--players K] [--seed S]

Builds (or finds in the cache) the compiled edition, then runs valgrind's callgrind over a
fresh process that plays N seeded games with counting on only inside the game loop
(`Play.play`: neither Python's start nor a game's set-up), and prints the instructions
counted, the turns and their ratio. The same games give the same count to within a few
instructions, so two versions of the compiler compare on a few hundred games where turns
a second would need many runs. Exits 2 when valgrind is not installed.
Not a test: performance is measured here, not asserted.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from games_arguments import games_parser

from boardrules.runtime.loader import load_module

# the counted process: bench_backends.py's seeded games (its directory is passed first)
PLAY = """
import sys
sys.path.insert(0, sys.argv[1])
from bench_backends import play_once
from boardrules.runtime.loader import load_module
module = load_module(sys.argv[2], "compiled")
players, games, seed = (int(n) for n in sys.argv[3:6])
print(sum(play_once(module, games, players, seed)[1]))
"""
COUNTED = "*Play_3play*"  # Cython's Python wrapper of Play.play, and what it calls


def count_instructions(valgrind: str, edition: str, games: int, players: int,
                       seed: int) -> tuple[int, int]:
    """(turns, instructions) of the seeded compiled games, counted in the game loop only."""
    load_module(edition, "compiled")  # built here, not under valgrind
    return callgrind(valgrind, [f"--toggle-collect={COUNTED}", sys.executable, "-c", PLAY,
                                str(Path(__file__).resolve().parent), edition, str(players),
                                str(games), str(seed)],
                     lambda out: int(out.split()[-1]))


def callgrind(valgrind: str, command: list[str], turns_of) -> tuple[int, int]:
    """(turns read from the command's output by `turns_of`, instructions callgrind counted)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={out}",
                              *command], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"error: the counted games failed:\n{run.stderr.strip()[-2000:]}")
        counted = re.search(r"^summary: (\d+)$", out.read_text(), re.MULTILINE)
    if counted is None:
        sys.exit("error: callgrind wrote no instruction count")
    return turns_of(run.stdout), int(counted.group(1))


def main() -> int:
    parser = games_parser(__doc__, games=100)
    args = parser.parse_args()
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("valgrind not found: install valgrind to count instructions")
        return 2
    turns, instructions = count_instructions(valgrind, args.edition, args.games,
                                             args.players, args.seed)
    print(f"{args.edition}: {args.games} games, {args.players} players, seed {args.seed}: "
          f"{turns} turns, {instructions:,} instructions in the game loop, "
          f"{instructions / max(turns, 1):,.0f} a turn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
