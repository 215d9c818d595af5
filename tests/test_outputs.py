"""What commands write: never over an input of the run nor over another output (exit 2,
one line, before any work), and every file atomically."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.outputs import atomic_file, write_atomic

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def tiny(tmp_path) -> Path:
    """A private copy of the tiny edition and its library (rules/tiny, rules/lib)."""
    shutil.copytree(FIXTURES / "tiny", tmp_path / "rules" / "tiny")
    shutil.copytree(FIXTURES / "lib", tmp_path / "rules" / "lib")
    return tmp_path / "rules" / "tiny" / "tiny.rules"


def _cases(tiny: Path, tmp: Path, make: bool = True) -> dict[str, list[str]]:
    rules, rulebook = str(tiny), str(tiny.parent / "rulebook.txt")
    lib = str(tiny.parent.parent / "lib" / "tinylib.rules")
    shared = str(tmp / "out.json")
    mutation = tmp / "mutation.json"
    link = tmp / "link.json"
    if make:
        mutation.write_text('{"edition": "Tiny", "units": [], "totals": {}}')
        link.symlink_to(tiny)
    return {
        "simulate --json the rules file": ["simulate", rules, "--json", rules],
        "simulate --json its rulebook": ["simulate", rules, "--json", rulebook],
        "simulate --games-out a library": ["simulate", rules, "--games-out", lib],
        "simulate --json a link to the rules": ["simulate", rules, "--json", str(link)],
        "simulate two outputs": ["simulate", rules, "--json", shared, "--games-out", shared],
        "coverage two outputs": ["coverage", rules, "--json", shared, "--html", shared],
        "coverage over --mutation": ["coverage", rules, "--mutation", str(mutation),
                                     "--html", str(mutation)],
        "mutate --html the rules file": ["mutate", rules, "--html", rules],
        "mutate two outputs": ["mutate", rules, "--json", shared, "--html", shared],
        "compare --json a library": ["compare", rules, "--option", "", "--option", "",
                                     "--json", lib],
    }


@pytest.mark.parametrize("case", sorted(_cases(Path("/x/tiny.rules"), Path("/x"), False)))
def test_an_output_over_an_input_or_another_output_is_refused(case, tiny, tmp_path, capsys):
    argv = _cases(tiny, tmp_path)[case]
    before = {p: p.read_bytes() for p in tiny.parent.parent.rglob("*") if p.is_file()}
    status = main(argv)
    _, err = capsys.readouterr()
    assert status == 2, err
    assert err.startswith("boardrules: error: ") and len(err.strip().splitlines()) == 1, err
    assert "choose another output" in err or "give each output its own" in err, err
    assert {p: p.read_bytes() for p in before} == before
    assert not (tmp_path / "out.json").exists()


def test_a_report_folder_holding_an_input_it_would_write_is_refused(tiny, capsys):
    text = tiny.read_text().replace('rulebook "rulebook.txt"', 'rulebook "index.html"')
    tiny.write_text(text)
    shutil.copy(tiny.parent / "rulebook.txt", tiny.parent / "index.html")
    status = main(["report", str(tiny), "--out", str(tiny.parent), "--games", "1"])
    assert status == 2 and "index.html" in capsys.readouterr().err


def test_files_are_written_atomically(tmp_path):
    target = tmp_path / "figures.json"
    target.write_text("old")
    target.chmod(0o640)
    with pytest.raises(RuntimeError), atomic_file(target) as handle:
        handle.write("half of the new")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old"  # a failed write leaves the file as it was
    write_atomic(target, "new")
    assert target.read_text() == "new" and target.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ["figures.json"]  # no temporary file left
