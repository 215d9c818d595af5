"""Scenario files beside the rules: scenarios/*.rules and conformance/*.rules.

tests/editions/conformance_demo has a scenario in its rules file, one in scenarios/ and
two in conformance/ (one fails on purpose). They are checked against the edition, run
with its ids naming their file, and never change what simulations load.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.build import source_index
from boardrules.compiler.build.artifacts import artifact_for
from boardrules.compiler.build.obtain import compile_edition, publish_compilation
from boardrules.harness.scenarios import cases, run_edition

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "tests" / "editions" / "conformance_demo"
EXTRA = '\nscenario "a second bonus scenario" for bonus {\n  play p1\n  expect p1.cash == 5\n}\n'


@pytest.fixture
def demo(tmp_path, monkeypatch) -> Path:
    """A private copy of the demo, with a private cache."""
    monkeypatch.setenv("BOARDRULES_CACHE", str(tmp_path / "cache"))
    shutil.copytree(DEMO, tmp_path / "conformance_demo")
    return tmp_path / "conformance_demo" / "conformance_demo.rules"


def test_the_files_scenarios_are_loaded_and_their_ids_name_the_file():
    found = {case.test_id: case.suite
             for case in cases(compile_edition(DEMO / "conformance_demo.rules"))}
    assert found == {
        "conformance_demo::turn::a turn moves one space": "",
        "conformance_demo::scenarios/tax::tax::landing on the tax space costs 3 coins": "",
        "conformance_demo::conformance/play::bonus::landing on the bonus space pays 5 coins":
            "conformance",
        "conformance_demo::conformance/play::tax::the tax is 4 coins (fails on purpose: the "
        "rulebook says 3)": "conformance",
    }


def test_a_failure_names_the_scenario_file_and_line(capsys):
    _, outcomes = run_edition(str(DEMO), ("interpreted",))
    failed = [o for o in outcomes if not o.passed]
    assert [o.case.file for o in failed] == ["conformance/play"]
    assert '"the tax is 4 coins (fails on purpose: the rulebook says 3)" ' \
           "(conformance/play.rules:7, interpreted)" in failed[0].message
    assert main(["test", str(DEMO), "--backend", "interpreted"]) == 1
    assert "3 passed, 1 failed" in capsys.readouterr().out


def test_anything_but_scenarios_in_a_scenario_file_is_a_located_error(demo, capsys):
    bad = demo.parent / "scenarios" / "bad.rules"
    bad.write_text('scenario "s" for turn {\n  play p1\n}\nrule extra { }\n', encoding="utf-8")
    assert main(["check", str(demo)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:4:1: error: a scenario file holds only scenarios" in err
    assert "[BR507]" in err


def test_editing_a_scenario_file_changes_nothing_simulations_load(demo):
    first = compile_edition(demo)
    artifact = publish_compilation(first, "interpreted")
    assert source_index.lookup(demo) == artifact.module_name
    play = demo.parent / "conformance" / "play.rules"
    play.write_text(play.read_text(encoding="utf-8") + EXTRA, encoding="utf-8")
    # the loader's fast path still finds the module: no front end, no build
    assert source_index.lookup(demo) == artifact.module_name
    edited = compile_edition(demo)  # ...while the scenarios see the new one
    assert len(edited.program.scenarios) == len(first.program.scenarios) + 1
    assert artifact_for(edited).module_name == artifact.module_name
    (demo.parent / "conformance" / "more.rules").write_text(EXTRA, encoding="utf-8")
    added = compile_edition(demo)  # a file added is seen too
    assert len(added.program.scenarios) == len(first.program.scenarios) + 2
    assert artifact_for(added).module_name == artifact.module_name


def test_scenarios_of_two_files_using_a_fixture_play_as_written_inline_on_both_backends(demo):
    """The demo's two scenarios that start on the bonus space take that from a fixture of a
    third file: each backend passes and fails the same scenarios with the same traces."""
    inline = run_edition(str(demo))[1]
    given = "  given {\n    p1.position = bonus_space\n  }\n"
    (demo.parent / "scenarios" / "fixtures.rules").write_text(
        "# The setups the demo's scenarios share.\nfixture on_bonus_space {\n" + given + "}\n",
        encoding="utf-8")
    for name in ("scenarios/tax.rules", "conformance/play.rules"):
        path = demo.parent / name
        text = path.read_text(encoding="utf-8")
        assert given in text
        path.write_text(text.replace(given, "  use on_bonus_space\n"), encoding="utf-8")
    used = run_edition(str(demo))[1]
    assert [(o.case.test_id, o.backend, o.passed, o.trace) for o in used] == \
        [(o.case.test_id, o.backend, o.passed, o.trace) for o in inline]
    assert {o.backend for o in used} == {"interpreted", "compiled"}
    assert [o.case.title for o in used if o.passed and "tax" in o.case.title] == \
        ["landing on the tax space costs 3 coins"] * 2
