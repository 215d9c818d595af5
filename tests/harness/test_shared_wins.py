"""Shared wins in simulate's outputs: the tally counts a win shared by several seats apart
from the wins of one seat, the summary (text and JSON) says so, and `--games-out` names
the winners and each seat's place alike in CSV and JSON lines. Animal Crossing's 4th
game of seed 1 (four default players) ends in a tie for the most Nook Miles between p1
and p2 (tests/golden/game_digests.json: `0+1`)."""

from __future__ import annotations

import csv
import json

import pytest

from boardrules.harness import figures
from boardrules.harness.seats import won_words
from boardrules.harness.simulate import (
    format_summary,
    game_seed,
    play_games,
    simulate,
    write_records,
)
from boardrules.play.view import decision_lines
from boardrules.runtime.loader import load_module
from boardrules.runtime.state import snapshot

EDITION, SEED, TIED = "animal_crossing", 1, 3


@pytest.fixture(scope="module")
def summary():
    return simulate(EDITION, TIED + 1, 4, SEED, workers=1, records=True)


def test_a_shared_win_is_tallied_apart(summary):
    module = load_module(EDITION, "compiled")
    tally = play_games(module, 4, SEED, TIED, 1, None, None, records=True)
    assert tally.wins == [0, 0, 0, 0] and tally.shared_wins == [1, 1, 0, 0]
    assert tally.shared_games == 1
    record = tally.records[0]
    assert record["winners"] == [0, 1] and record["rank"][:2] == [1, 1]
    assert sorted(record["rank"][2:]) == [3, 4]


def test_the_summary_counts_shared_wins_apart_from_the_win_rates(summary):
    data = summary.to_json()
    t = summary.tally
    shared = [r for r in t.records if len(r["winners"]) > 1]
    assert data["shared_wins"] == len(shared) >= 1
    assert data["shared_win_rate_by_seat"] == [
        sum(seat in r["winners"] for r in shared) / data["games"] for seat in range(4)]
    alone = [r for r in t.records if len(r["winners"]) == 1]
    assert sum(data["win_rate_by_seat"]) * data["games"] == pytest.approx(len(alone))
    assert f"shared wins        {len(shared)} games" in format_summary(data)


def test_games_out_names_winners_and_places_alike_in_csv_and_json_lines(summary, tmp_path):
    records = summary.tally.records
    table, lines = tmp_path / "games.csv", tmp_path / "games.jsonl"
    write_records(table, records)
    write_records(lines, records)
    rows = list(csv.DictReader(table.open()))
    parsed = [json.loads(line) for line in lines.read_text().splitlines()]
    assert list(rows[0])[:9] == ["game", "seed", "turns", "winners", "end", "rank_p1",
                                 "rank_p2", "rank_p3", "rank_p4"]
    for row, record in zip(rows, parsed, strict=True):
        assert row["winners"] == " ".join(record["winners"])
        assert [int(row[f"rank_p{seat + 1}"]) for seat in range(4)] == record["rank"]
        assert [int(row[f"cash_p{seat + 1}"]) for seat in range(4)] == record["cash"]
    assert parsed[TIED]["winners"] == ["p1", "p2"] and rows[TIED]["winners"] == "p1 p2"


def test_the_report_draws_shared_wins_and_names_them_in_titles(summary):
    data = json.loads(json.dumps(summary.to_json()))
    figure = figures.win_rate_figure([figures.Panel("standard rules", data, [])])
    hatched = [p for p in figure.axes[0].patches if p.get_hatch() == "//"]
    assert [round(p.get_height(), 6) for p in hatched] == [
        round(100 * rate, 6) for rate in data["shared_win_rate_by_seat"]]
    assert won_words([0, 1]) == "p1 and p2 share the win"
    assert won_words([0, 2, 3]) == "p1, p3 and p4 share the win"
    assert won_words([2]) == "p3 wins" and won_words([]) == "no winner"


def test_a_finished_games_snapshot_and_the_terminal_name_the_winners():
    module = load_module(EDITION, "compiled")
    game = module.Game(4, seed=game_seed(SEED, TIED))
    game.play()
    snap = snapshot(module, game)
    assert snap["winners"] == [0, 1] and [p["rank"] for p in snap["players"]][:2] == [1, 1]
    assert decision_lines(snap, {}) == [
        f"The game is over after {game.turn} turns: p1 and p2 share the win."]
    going = module.Game(4, seed=1)
    going.start()
    assert "winners" not in snapshot(module, going)
