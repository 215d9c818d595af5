"""What the fuzz suite found, kept: each file of regressions/ is a small edition that once
crashed a stage (or made it report the wrong place). Its first lines say what it found
and what must happen now (`# expect: ok`, or a part of the first error's message); it
goes through every stage (rules_stages.replay): parse, check, codegen, CPython's
compile and a few interpreted turns."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rules_stages import replay

REGRESSIONS = sorted((Path(__file__).parent / "regressions").glob("*.rules"))
RULEBOOK = "The Fuzz Regressions.\n\nEach file once broke a stage of the compiler.\n"


@pytest.mark.parametrize("path", REGRESSIONS, ids=lambda p: p.stem)
def test_a_fuzz_finding_stays_fixed(path, tmp_path):
    expected = re.search(rb"^# expect: (.*)$", path.read_bytes(), re.MULTILINE)
    assert expected, f"{path.name} says nothing of what must happen (# expect: ...)"
    folder = tmp_path / path.stem
    folder.mkdir()
    (folder / "rulebook.txt").write_text(RULEBOOK)
    copy = folder / path.name
    copy.write_bytes(path.read_bytes())
    outcome = replay(copy)
    assert expected.group(1).decode() in outcome, outcome
