"""Profile-guided builds (`$BOARDRULES_OPT_LEVEL=pgo`), for long simulations.

gcc builds the module instrumented, a child process plays seeded games with it (every
player count the edition allows, the default policy and a few random ones), and gcc builds
it again from what those games counted: which way each branch goes, which code is hot.
Measured on the benchmark's edition (2026-12-03, alternating rounds of 200 games, one
core; docs/performance.md): at -O2, 1.25 to 1.30 times the turns a second of the shipped
-O1 build; at -O3, 3% more again (gcc's inlining budget doubled as well: nothing more).
Its C step takes about four times as long (two compiles and the games), so it is a
setting to choose for a study of many games, not the default.

The games are seeded and the instrumented module counts in one thread, so the same
generated code and toolchain give the same counts and the same module: the cache key
holds `TRAINING` instead of the profile itself.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

DEFAULT_GAMES = 24  # a player count's default-policy games
RANDOM_GAMES = 4  # and its random-policy ones: the options of every decision listed
TRAINING = f"profile-guided 1: {DEFAULT_GAMES} default and {RANDOM_GAMES} random games"
TRAINING_SECONDS = 600  # the games' time limit (a few seconds for the four editions)
LEVEL = "pgo"
C_LEVEL = "3"  # the optimization level both of gcc's builds run at


class TrainingError(Exception):
    """The instrumented module could not play its training games."""


def build(command: list[str], extension: Path, compile_c: Callable[[list[str]], None],
          step: Callable[[str], object]) -> None:
    """Build `extension` with `command` twice around the training games; `compile_c` runs
    the C compiler, `step(name)` shows each of the three steps to whoever watches."""
    profile = extension.parent / "profile"
    try:
        with step("C compiler, instrumented"):
            compile_c([*command, f"-fprofile-generate={profile}", "-fprofile-update=single"])
        with step("training games"):
            train(extension)
        with step("C compiler, trained"):
            # functions no game ran stay optimized as without a profile, not for size
            compile_c([*command, f"-fprofile-use={profile}", "-fprofile-partial-training"])
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def train(extension: Path) -> None:
    """Play the training games with the instrumented module in a child process (its
    counts are written when that process exits)."""
    module_name = extension.name.split(".", 1)[0]
    command = [sys.executable, "-m", __name__, module_name, str(extension)]
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=TRAINING_SECONDS)
    except subprocess.TimeoutExpired:
        raise TrainingError(f"the training games took over {TRAINING_SECONDS} s") from None
    if result.returncode != 0:
        tail = "\n".join(result.stderr.strip().splitlines()[-15:])
        raise TrainingError(f"the training games failed:\n{tail}")


def play_training_games(module_name: str, extension: Path) -> int:
    """Every player count's seeded games, each seat with the same built-in policy; a game
    that the rules end with an error has still counted what it ran. How many were played."""
    loader = importlib.machinery.ExtensionFileLoader(module_name, str(extension))
    spec = importlib.util.spec_from_loader(module_name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    played = 0
    for players in range(module.MIN_PLAYERS, module.MAX_PLAYERS + 1):
        for policy, games in (("default", DEFAULT_GAMES), ("random", RANDOM_GAMES)):
            for _ in range(games):
                played += 1
                game = module.Game(players, seed=played, policies=[policy] * players)
                try:
                    game.play()
                except module.RuleError:
                    pass
    return played


if __name__ == "__main__":
    play_training_games(sys.argv[1], Path(sys.argv[2]))
