"""Golden game digests: what seeded games of each edition end with.

An optimization or refactoring must not change a single seeded game. This
module plays a fixed set of seeded games per edition, variant and built-in
policy and records, per game, the turn count, the winners (a seat, seats sharing the
win joined by `+`, -1 for nobody), every player's final
cash and a short hash of the final counters (not the options: the key names
them) and landing counts. The record of
the shipped rulesets lives in `tests/golden/game_digests.json`; a test replays
it, and only a commit that changes a rules file regenerates it:

    python -m boardrules.harness.digests --write tests/golden/game_digests.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from types import ModuleType

from ..runtime.loader import load_module
from .simulate import game_seed

GAMES = 200
PLAYERS = 4
SEED = 1
POLICIES = ("default", "random")
# (edition, options): every shipped edition and each of its variants
CONFIGURATIONS: tuple[tuple[str, dict[str, int]], ...] = (
    ("disney_theme_park", {}),
    ("disney_theme_park", {"short_game": 1}),
    ("disney_theme_park", {"time_limit": 30}),
    ("super_mario_celebration", {}),
    ("super_mario_celebration", {"without_sound": 1}),
    ("animal_crossing", {}),
    ("builder", {}),
)


def configuration_key(edition: str, options: dict[str, int], policy: str) -> str:
    chosen = ",".join(f"{name}={value}" for name, value in sorted(options.items()))
    return f"{edition}[{chosen}]/{policy}"


def _ints(value):
    """Values as plain ints (the interpreted backend may keep a bool where C keeps 0 or 1)."""
    return [_ints(v) for v in value] if isinstance(value, list) else int(value)


# Options are a game's configuration (its key names them), not its state, so the state
# hash leaves them out; but the records made when it hashed every counter hashed these
# options too, and still do, so that no recorded game changes.
HASHED_OPTIONS = frozenset({("super_mario_celebration", "without_sound")})


def state_counters(module: ModuleType, edition: str) -> list[int]:
    """The indices of the counters the state hash covers (every one but the options)."""
    options = {option[0] for option in module.OPTIONS}
    return [i for i, (label, owner, _) in enumerate(module.COUNTERS)
            if owner or label not in options or (edition, label) in HASHED_OPTIONS]


def game_record(game, counters: list[int] | None = None) -> str:
    """One finished game as a line: turns, winners, cash per seat, state hash (over the
    counters listed, by default all)."""
    values = game.counter_values()
    if counters is not None:
        values = [values[i] for i in counters]
    state = hashlib.sha256(repr((_ints(values), _ints(game.landings()),
                                 _ints(game.holders()))).encode()).hexdigest()[:12]
    cash = " ".join(str(c) for c in game.players_cash())
    winners = "+".join(str(p) for p in game.winners()) or "-1"
    return f"{game.turn} {winners} {cash} {state}"


def play_records(edition: str, options: dict[str, int], policy: str, backend: str = "compiled",
                 games: int = GAMES) -> list[str]:
    module = load_module(edition, backend)
    counters = state_counters(module, edition)
    records = []
    for index in range(games):
        game = module.Game(PLAYERS, seed=game_seed(SEED, index), policies=[policy] * PLAYERS,
                           options=options)
        game.play()
        records.append(game_record(game, counters))
    return records


def all_records(backend: str = "compiled") -> dict[str, list[str]]:
    return {configuration_key(edition, options, policy): play_records(edition, options, policy,
                                                                      backend)
            for edition, options in CONFIGURATIONS for policy in POLICIES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record the golden game digests.")
    parser.add_argument("--write", metavar="FILE", required=True, type=Path)
    args = parser.parse_args(argv)
    args.write.write_text(json.dumps(all_records(), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
