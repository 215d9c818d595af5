"""A bundled edition's rules file holds its rules only, so that it reads like its rulebook:
its scenarios, their fixtures and equivalent notes live beside it, in scenarios/ (one file
per rulebook section, each opening with a comment naming it) and conformance/.

A scenario or note written in a rules file fails here: it belongs in the scenario file
of the rulebook section its rule quotes (a note, in scenarios/equivalent_mutants.rules)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.front import ast
from boardrules.compiler.front.libpath import bundled_rulesets, scenario_paths
from boardrules.compiler.front.parser import parse

EDITIONS = sorted(p for p in bundled_rulesets().iterdir()
                  if (p / f"{p.name}.rules").is_file())


@pytest.mark.parametrize("folder", EDITIONS, ids=lambda p: p.name)
def test_the_rules_file_holds_no_scenario_and_no_note(folder: Path):
    rules = folder / f"{folder.name}.rules"
    module = parse(rules.read_text(encoding="utf-8"), str(rules))
    beside = [f"{rules.name}:{d.span.line}: {type(d).__name__.lower()}" for d in module.decls
              if isinstance(d, ast.Scenario | ast.Fixture | ast.Equivalent)]
    assert not beside, (f"{len(beside)} to move to {folder.name}/scenarios/, such as "
                        f"{', '.join(beside[:3])}")


@pytest.mark.parametrize("folder", EDITIONS, ids=lambda p: p.name)
def test_its_scenario_files_each_name_what_they_hold(folder: Path):
    files = [path for path, suite in scenario_paths(folder / f"{folder.name}.rules")
             if not suite]
    assert files, f"{folder.name} has no scenarios/*.rules"
    for path in files:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        assert first.startswith("# "), f"{path.name}: the first line says what it holds"
