"""`--param NAME=VALUE`: an edition built with declared params set, for a simulation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.param_settings import ParamError
from boardrules.harness.simulate import simulate
from boardrules.runtime.loader import BACKENDS, load_module

DEMO = str(Path(__file__).parent / "editions" / "param_demo")


def final_cash(module) -> list[int]:
    game = module.Game(2, seed=1)
    game.play()
    return game.players_cash()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_param_set_is_built_in_with_the_params_derived_from_it(backend):
    changed = load_module(DEMO, backend, ["bonus_pay=7"])
    assert changed.PARAMS["bonus_pay"] == 7 and changed.PARAMS["keep"] == 14
    assert final_cash(changed) == [14, 14]  # the bonus of 7, taken below 14
    strategy = load_module(DEMO, backend, ["keep=100", "doubled=yes"])
    assert final_cash(strategy) == [40, 40]  # taken at every landing (4), twice the bonus
    own = load_module(DEMO, backend)  # the edition's own module is still the one it loads
    assert own.PARAMS["bonus_pay"] == 5 and own.PARAMS["keep"] == 10
    assert final_cash(own) == [10, 10]


@pytest.mark.parametrize(("setting", "message"), [
    ("bonus_py=7", "param_demo has no param 'bonus_py' (did you mean 'bonus_pay'?"),
    ("nothing=1", "has no param 'nothing' (`boardrules describe` lists them)"),
    ("keep=lots", "param 'keep' (money) takes an integer, not 'lots'"),
    ("keep=--5", "param 'keep' (money) takes an integer, not '--5'"),
    ("doubled=2", "param 'doubled' (bool) takes true or false, not '2'"),
    ("keep", "--param keep: give a value, as in keep=VALUE"),
    ("keep=99999999999", "--param keep=99999999999: the constant 99999999999 is outside"),
])
def test_a_setting_the_edition_cannot_take_is_refused_in_one_line(setting, message):
    with pytest.raises(ParamError) as info:
        load_module(DEMO, "interpreted", [setting])
    assert message in str(info.value) and "\n" not in str(info.value)


def test_only_int_money_and_bool_params_can_be_set(tmp_path):
    edition = tmp_path / "param_demo"
    edition.mkdir()
    (edition / "rulebook.txt").write_text((Path(DEMO) / "rulebook.txt").read_text())
    (edition / "param_demo.rules").write_text((Path(DEMO) / "param_demo.rules").read_text()
                                              + 'param home: space = start\n  assume "a"\n')
    with pytest.raises(ParamError, match="param 'home' is a space: --param sets int, money"):
        load_module(str(edition), "interpreted", ["home=middle"])


def test_simulate_plays_the_param_build_in_every_worker(tmp_path):
    records = tmp_path / "games.jsonl"
    summary = tmp_path / "summary.json"
    assert main(["simulate", DEMO, "--games", "4", "--players", "2", "--workers", "2",
                 "--param", "keep=100", "--json", str(summary),
                 "--games-out", str(records)]) == 0
    assert json.loads(summary.read_text())["settings"]["params"] == ["keep=100"]
    cash = [json.loads(line)["cash"] for line in records.read_text().splitlines()]
    assert cash == [[20, 20]] * 4  # not the edition's own [10, 10]
    same = simulate(DEMO, 4, 2, 0, workers=1, params=["keep=100"], records=True)
    assert [r["cash"] for r in same.tally.records] == cash


def test_a_bad_param_on_the_command_line_exits_2(capsys):
    assert main(["simulate", DEMO, "--games", "2", "--players", "2",
                 "--param", "keep=lots"]) == 2
    assert capsys.readouterr().err.strip() == (
        "boardrules: error: param 'keep' (money) takes an integer, not 'lots'")
