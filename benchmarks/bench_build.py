"""A cold build and a cached load of an edition, measured as a user meets them.

    python benchmarks/bench_build.py [EDITION] [--repeat R] [--json FILE]

Each round: `boardrules compile EDITION` into an empty temporary cache, in a fresh
process as a user runs it (its front end, Cython and C compiler steps timed inside
it), then a fresh process that loads the module from that cache and plays one game.
The fastest cold build is shown with its steps, and every round beside it: this
machine's speed moves by half from one hour to the next, and the rounds show how much
it moved during the run. The issue's limits are 10 s for Disney's cold build and
0.3 s for the load. The C optimization level is the shipped one unless
$BOARDRULES_OPT_LEVEL says otherwise.
Not a test: performance is measured here, not asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# run in the fresh process of a cold build: the command line's compile, its steps timed
COLD_BUILD = """
import contextlib, json, sys, time
from boardrules import cli
from boardrules.compiler.build import artifacts
steps = {}
@contextlib.contextmanager
def timed(name, size):
    started = time.perf_counter()
    yield
    steps[name] = steps.get(name, 0.0) + time.perf_counter() - started
with artifacts.watching(timed):
    status = cli.main(["compile", sys.argv[1]])
print(json.dumps(steps))
sys.exit(status)
"""
CACHED_LOAD = """
import sys
from boardrules.runtime.loader import load_module
load_module(sys.argv[1], "compiled").Game(4, seed=1).play()
"""


def timed_run(what: str, command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall time of a command and its standard output; a failure ends the run with its
    error output."""
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"error: the {what} failed:\n{done.stderr.strip()}")
    return seconds, done.stdout


def one_round(edition: str) -> dict[str, object]:
    """The cold build (with its steps) and the cached load, once."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, BOARDRULES_CACHE=cache)
        total, out = timed_run("cold build", [sys.executable, "-c", COLD_BUILD, edition], env)
        figures: dict[str, object] = {"cold build": total,
                                      "steps": json.loads(out.strip().splitlines()[-1])}
        figures["cached load and a game"], _ = timed_run(
            "cached load", [sys.executable, "-c", CACHED_LOAD, edition], env)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", nargs="?", default="disney_theme_park")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    rounds = [one_round(args.edition) for _ in range(args.repeat)]
    fastest = min(rounds, key=lambda r: r["cold build"])
    rows = [("cold build", fastest["cold build"], [r["cold build"] for r in rounds])]
    rows += [(f"  {step}", seconds, [r["steps"].get(step, 0.0) for r in rounds])
             for step, seconds in fastest["steps"].items()]
    loads = [r["cached load and a game"] for r in rounds]
    rows.append(("cached load and a game", min(loads), loads))
    level = os.environ.get("BOARDRULES_OPT_LEVEL") or "shipped"
    print(f"{args.edition}: best of {args.repeat} rounds (the steps of the fastest "
          f"cold build; C optimization level: {level})")
    print(f"{'what':<28}{'seconds':>9}   all rounds")
    for name, seconds, every in rows:
        print(f"{name:<28}{seconds:>9.2f}   {' '.join(f'{s:.2f}' for s in every)}")
    if args.json:
        settings = {"edition": args.edition, "repeat": args.repeat, "opt_level": level}
        best = {name.strip(): seconds for name, seconds, _ in rows}
        with open(args.json, "w") as handle:
            json.dump({"settings": settings, "rounds": rounds, "best": best}, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
