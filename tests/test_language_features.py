"""Decks as values, card copies, symbol dice and enum-indexed counters, end to end."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.harness.scenarios import cases, load_edition, run_case
from boardrules.runtime.loader import load_module
from boardrules.runtime.state import snapshot

DEMO = Path(__file__).parent / "editions" / "features_demo" / "features_demo.rules"


@pytest.fixture(scope="module")
def compilation():
    return load_edition(str(DEMO))


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_the_demo_scenarios_pass(compilation, backend):
    found = cases(compilation)
    assert len(found) == 4
    for case in found:
        outcome = run_case(compilation, case, backend)
        assert outcome.passed, outcome.message


def test_card_copies_get_their_own_ids(compilation):
    assert compilation.program.card_ids == ("bug_1", "bug_1_2", "bug_1_3", "bug_5", "fish_2",
                                            "fish_2_2")
    assert compilation.program.card_kinds == (0, 0, 0, 3, 4, 4)


def test_snapshot_names_list_counters_and_decks():
    module = load_module(str(DEMO), "interpreted")
    game = module.Game(2, seed=3)
    game.play(4)
    snap = snapshot(module, game)
    assert all(isinstance(p["chips"], list) and len(p["chips"]) == 2 for p in snap["players"])
    assert set(snap["decks"]) == {"bugs", "fishes"}


def test_both_backends_play_the_demo_alike():
    games = [load_module(str(DEMO), b).Game(3, seed=5, trace=True)
             for b in ("interpreted", "compiled")]
    for game in games:
        game.play()
    assert games[0].trace() == games[1].trace()
    assert games[0].counter_values() == games[1].counter_values()
