"""Landing as published tables count it (the kernel's resting spaces), and `boardrules
report`: the folder it writes, its sample games, its exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.harness import figures
from boardrules.harness.report import cash_samples, run_report, variants
from boardrules.harness.simulate import game_seed, simulate
from boardrules.runtime.loader import load_module

OPTIONS_DEMO = Path(__file__).parents[1] / "editions" / "options_demo" / "options_demo.rules"


def test_a_throw_rests_where_everything_it_caused_leaves_the_token(disney):
    """A card that moves the token, three doubles and a failed throw in jail."""
    ids, cards = disney.SPACE_IDS, disney.CARD_IDS
    game = disney.Game(2, seed=1)
    game.start()
    p = game.current
    game.stack_cards(disney.DECK_NAMES.index("well"), [cards.index("well_go")])
    game.script_rolls([3, 4])  # to the Wishing Well, whose card sends the token to GO
    game.play_turn(p)
    assert game.landings()[ids.index("well_1")] == 1
    assert game.rests()[ids.index("well_1")] == 0 and game.rests()[ids.index("go")] == 1
    game.script_rolls([2, 2, 3, 3, 4, 4])  # doubles, doubles, and the third: to Jail
    game.play_turn(p)
    rests = game.rests()
    assert [rests[ids.index(s)] for s in ("villains_tax_1", "visiting", "in_jail")] == [1, 1, 1]
    game.force_answers("pay_jail_fine", [0])
    game.script_rolls([1, 2])  # no doubles: the token stays In Jail
    game.play_turn(p)
    assert game.rests()[ids.index("in_jail")] == 2 and sum(game.rests()) == 5


def test_the_throw_that_bankrupts_the_player_still_rests(disney):
    """Published tables (and the C reference) count every throw: a player who goes
    bankrupt on their own throw leaves the token where that throw put it."""
    ids, cards = disney.SPACE_IDS, disney.CARD_IDS
    game = disney.Game(3, seed=1)
    game.start()
    p = game.current
    game.state_set("cash", p, 0)
    game.stack_cards(disney.DECK_NAMES.index("well"), [cards.index("well_tax")])
    game.script_rolls([3, 4])  # to the Wishing Well: a tax of 15 Wishes, with none
    game.play_turn(p)
    assert not game.alive_of(p)
    assert game.rests()[ids.index("well_1")] == 1 and sum(game.rests()) == 1


def test_a_games_counts_add_to_running_totals_as_its_lists_do(disney):
    """`add_counts` (the simulation's tally, in C) adds what `landings()`, `rests()` and
    `fired()` list, element by element, into the totals it is given."""
    rules = len(disney.RULE_NAMES)
    totals = [[1] * len(disney.SPACE_IDS), [2] * len(disney.SPACE_IDS), [3] * rules]
    expected = [list(t) for t in totals]
    for seed in range(3):
        game = disney.Game(4, seed=seed)
        game.play()
        game.add_counts(*totals)
        for kept, counts in zip(expected, (game.landings(), game.rests(), game.fired(rules)),
                                strict=True):
            kept[:] = [a + b for a, b in zip(kept, counts, strict=True)]
    assert totals == expected and sum(totals[0]) > len(disney.SPACE_IDS)


def test_disney_landing_frequency_is_the_published_one(disney_compiled):
    data = simulate("disney_theme_park", 30, 4, 7, workers=1).to_json()
    landing = {entry["id"]: entry for entry in data["landing"]}
    assert sum(e["frequency"] for e in data["landing"]) == pytest.approx(1.0)
    assert sum(e["arrivals"] for e in data["landing"]) == pytest.approx(1.0)
    assert landing["go_to_jail"]["frequency"] == 0 and landing["go_to_jail"]["arrivals"] > 0
    for well in ("well_1", "well_2", "well_3"):
        assert landing[well]["frequency"] < landing[well]["arrivals"]
    assert landing["in_jail"]["frequency"] > landing["in_jail"]["arrivals"]


def test_sample_games_replayed_turn_by_turn_are_the_runs_games(disney_compiled):
    samples = cash_samples(disney_compiled, 4, 7, {}, None, None, 2)
    for sample in samples:
        game = disney_compiled.Game(4, seed=game_seed(7, sample.game))
        game.play()
        assert sample.seed == game_seed(7, sample.game)
        assert sample.turns[-1] == game.turn and sample.winners == game.winners()
        assert [series[-1] for series in sample.cash] == [
            cash if game.alive_of(seat) else None for seat, cash in enumerate(game.players_cash())]
        assert all(len(series) == len(sample.turns) for series in sample.cash)
        # the score (net worth under Disney's standard rules) beside the cash: what wins
        assert [series[-1] for series in sample.score] == [
            game.score(seat) if game.alive_of(seat) else None for seat in range(4)]
        assert all(len(series) == len(sample.turns) for series in sample.score)


def test_each_option_gives_a_variant():
    demo = load_module(str(OPTIONS_DEMO), "interpreted")
    assert [(v.label, v.slug, v.options) for v in variants(demo, {})] == [
        ("standard rules", "standard", {}), ("generous=true", "generous-true", {"generous": 1})]
    assert [v.label for v in variants(demo, {"generous": 0})] == ["generous=false"]


def test_report_writes_a_self_contained_page_figures_and_json(tmp_path):
    out = tmp_path / "report"
    runs = run_report(str(OPTIONS_DEMO), 30, 2, 3, out, backend="interpreted", workers=1,
                      samples=2)
    assert [run.variant.label for run in runs] == ["standard rules", "generous=true"]
    svgs = sorted(path.name for path in out.glob("*.svg"))
    assert svgs == ["board.svg", "cash.svg", "turns.svg", "win_rate.svg"]
    summary = json.loads((out / "summary.json").read_text())
    alone = simulate(str(OPTIONS_DEMO), 30, 2, 3, backend="interpreted", workers=1).to_json()
    for timing in ("seconds", "games_per_second"):
        summary.pop(timing), alone.pop(timing)
    assert summary == json.loads(json.dumps(alone))  # what simulate --json writes
    variant = json.loads((out / "summary-generous-true.json").read_text())
    assert variant["options"] == {"generous": 1}
    page = (out / "index.html").read_text()
    assert page.count('src="data:image/svg+xml;base64,') == 4
    assert str(tmp_path) not in page and not re.search(r"(src|href)=\"(https?:|/)", page)
    assert "Options Demo" in page and "generous=true" in page


def test_report_refuses_an_unwritable_folder_before_playing(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["report", "disney_theme_park", "--games", "5", "--out", str(blocker)]) == 2
    assert main(["report", "no_such_edition", "--out", str(tmp_path / "r")]) == 2
    assert main(["report", "disney_theme_park", "--out", str(tmp_path / "r"),
                 "--option", "nosuch=1"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and "cannot write to" in errors[0]


@pytest.mark.parametrize("names", [
    ["Collect 2 Resources: Dump Trucks", "Collect 2 Resources: Cranes",
     "Collect 2 Resources: Excavators", "Collect 2 Resources: Boats"],
    ["Mediterranean Ave", "Twilight Zone Tower of Terror", "Bus at Walt Disney World Resort",
     "Monorail at Disneyland Resort", "Pirates of the Caribbean"],
])
def test_board_labels_wrap_at_words_keep_every_word_and_read_apart(names):
    labels = [figures.name_lines(name) for name in names]
    for name, lines in zip(names, labels, strict=True):
        assert " ".join(lines) == name  # no word lost, none split
        assert len(lines) <= 3
    assert len({tuple(lines) for lines in labels}) == len(names)
