"""Where the compiled backend spends its time: `perf` over whole games of an edition.

    python benchmarks/profile_compiled.py [EDITION] [--games N] [--players K]
        [--seed S] [--top T] [--output perf.data]

Loads (building if needed) the compiled edition first, then attaches
`perf record -g` to this process only while it plays N seeded games, and prints
the top T symbols of `perf report --stdio --no-children --sort symbol` (self
time, flat). Exits 2 if perf is not installed.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_backends import play_once
from games_arguments import games_parser

from boardrules.runtime.loader import load_module


def main() -> int:
    parser = games_parser(__doc__, games=2000)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--output", type=Path, help="keep perf.data here (default: temp)")
    args = parser.parse_args()
    perf = shutil.which("perf")
    if perf is None:
        print("perf not found: install linux-perf (or linux-tools) to profile")
        return 2

    module = load_module(args.edition, "compiled")
    with tempfile.TemporaryDirectory() as tmp:
        data = args.output or Path(tmp) / "perf.data"
        recorder = subprocess.Popen([perf, "record", "-g", "-q", "-o", str(data),
                                     "-p", str(os.getpid())])
        time.sleep(0.5)  # let perf attach before the games start
        seconds, turns_each = play_once(module, args.games, args.players, args.seed)
        turns = sum(turns_each)
        recorder.send_signal(signal.SIGINT)
        recorder.wait()
        report = subprocess.run([perf, "report", "-i", str(data), "--stdio", "--no-children",
                                 "--sort", "symbol", "-g", "none"],
                                capture_output=True, text=True, check=True).stdout
    print(f"{args.edition}: {args.games} games, {args.players} players, seed {args.seed}, "
          f"{turns} turns in {seconds:.2f} s ({turns / seconds:,.0f} turns/s under perf)")
    rows = [line for line in report.splitlines() if line.strip()[:1].isdigit()]
    print("\n".join(row.rstrip(" -") for row in rows[:args.top]))  # drop IPC columns
    return 0


if __name__ == "__main__":
    sys.exit(main())
