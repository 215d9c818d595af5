"""Shared fixtures: compiled edition modules are built once per session (and cached on disk)."""

from __future__ import annotations

import compileall
import os
from pathlib import Path

import pytest

from boardrules.compiler.build.build_settings import OPT_LEVEL_ENV
from boardrules.runtime.loader import load_module

# The suite checks what modules do, not how fast they play: it builds them with `gcc -O0`,
# in a third of -O1's time (its subprocesses inherit the setting). A test in
# test_golden_games.py plays Disney's golden games on a module built the shipped way.
os.environ.setdefault(OPT_LEVEL_ENV, "0")

ROOT = Path(__file__).resolve().parents[1]

# The suite's builds (the editions at -O0 and some fifty small test editions) go to a cache
# of the checkout's own, never the user's (`$BOARDRULES_TEST_CACHE` chooses another): kept
# between runs, so a second run builds nothing, and `rm -r .cache` empties it.
SUITE_CACHE = Path(os.environ.get("BOARDRULES_TEST_CACHE", ROOT / ".cache" / "builds"))
os.environ["BOARDRULES_CACHE"] = str(SUITE_CACHE)
RULESETS = ROOT / "rulesets"


def pytest_configure(config) -> None:
    """Compile the package's bytecode once, before the workers start: where
    $PYTHONDONTWRITEBYTECODE is set, every process the suite starts (command-line runs,
    Cython's, Ray's) would otherwise compile the package's sources again, 0.3 s each."""
    if not hasattr(config, "workerinput"):  # pytest-xdist's workers find it done
        compileall.compile_dir(ROOT / "boardrules", quiet=1)


def pytest_collection_modifyitems(items) -> None:
    """The tests marked `long` first: with them at the front of the queue, the workers end
    on short tests and together (one at the end of a worker's share kept the other idle
    for up to its 10 s)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_addoption(parser) -> None:
    parser.addoption("--fuzz-examples", type=int, default=None,
                     help="examples per long fuzz test (pytest -m fuzz; default: "
                     "$BOARDRULES_FUZZ_EXAMPLES, else each test's own)")


@pytest.fixture(scope="session")
def fuzz_examples(request) -> int | None:
    """The long fuzz budget asked for, if any (tests/fuzz)."""
    given = request.config.getoption("--fuzz-examples")
    return given or int(os.environ.get("BOARDRULES_FUZZ_EXAMPLES", 0)) or None


@pytest.fixture(scope="session")
def disney_interpreted():
    return load_module("disney_theme_park", "interpreted")


@pytest.fixture(scope="session")
def disney_compiled():
    return load_module("disney_theme_park", "compiled")


@pytest.fixture(scope="session", params=["interpreted", "compiled"])
def disney(request):
    """The Disney module on each backend in turn."""
    return load_module("disney_theme_park", request.param)


def same_game(a, b, label: str = "") -> None:
    """Fail unless two played games (one per backend) are byte-identical."""
    first_trace, second_trace = a.trace(), b.trace()
    if first_trace != second_trace:
        line = next(i for i, (x, y) in enumerate(zip(first_trace, second_trace, strict=False))
                    if x != y)
        pytest.fail(f"{label}: traces differ at line {line}: "
                    f"{first_trace[line]!r} != {second_trace[line]!r}")
    assert a.payments() == b.payments(), label
    assert a.landings() == b.landings(), label
    assert a.rests() == b.rests(), label
    assert a.counter_values() == b.counter_values(), label
    assert a.holders() == b.holders(), label
    assert [a.score(p) for p in range(a.n_players)] == [b.score(p) for p in range(b.n_players)]


@pytest.fixture
def assert_same_game():
    return same_game


@pytest.fixture(scope="module")
def compiled(request):
    """The compiled module of the edition named by the test module's EDITION."""
    return load_module(request.module.EDITION, "compiled")


@pytest.fixture(scope="module")
def interpreted(request):
    """The interpreted module of the edition named by the test module's EDITION."""
    return load_module(request.module.EDITION, "interpreted")


def _play_on_both(interpreted, compiled, players: int, seed: int, **kwargs) -> list:
    """The same game, traced and played to its end on each backend."""
    games = [module.Game(players, seed=seed, trace=True, **kwargs)
             for module in (interpreted, compiled)]
    for game in games:
        game.play()
    return games


def _default_seat_wins(module, games: int, cap_allowed: bool = False) -> int:
    """Games won by one default seat (rotating) against random seats; each game must end,
    by the rules unless `cap_allowed`."""
    wins = 0
    for seed in range(games):
        seat = seed % 4
        policies = ["random"] * 4
        policies[seat] = "default"
        game = module.Game(4, seed=seed, policies=policies)
        game.play()
        assert game.over and (cap_allowed or not game.capped), f"seed {seed}: did not end"
        wins += game.winner() == seat
    return wins


@pytest.fixture
def play_on_both():
    return _play_on_both


@pytest.fixture
def default_seat_wins():
    return _default_seat_wins
