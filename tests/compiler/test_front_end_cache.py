"""The front end's results kept on disk (compiler/build/front_end_cache.py): read back only while
nothing they were made from has changed."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from boardrules.compiler.build import front_end_cache
from boardrules.compiler.build.obtain import compile_edition
from boardrules.compiler.pipeline import compile_rules


def entries(cache: Path) -> list[Path]:
    folder = cache / front_end_cache.FOLDER
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_a_compilation_is_read_back_as_it_was_made(cache, tiny_copy):
    assert front_end_cache.load(tiny_copy) is None
    made = compile_edition(tiny_copy)
    kept = front_end_cache.load(tiny_copy)
    assert kept is not None and kept is not made
    assert kept.code == made.code and kept.path == made.path
    assert [w.render(kept.sources.texts) for w in kept.warnings] == \
        [w.render(made.sources.texts) for w in made.warnings]
    assert kept.program == made.program
    assert compile_edition(tiny_copy).code == made.code
    assert len(entries(cache)) == 1


def test_an_edit_of_the_edition_replaces_its_entry(cache, tiny_copy):
    compile_edition(tiny_copy)
    text = tiny_copy.read_text()
    tiny_copy.write_text(text.replace("set start_cash = 100", "set start_cash = 101"))
    assert front_end_cache.load(tiny_copy) is None
    assert "101" in compile_edition(tiny_copy).code
    assert front_end_cache.load(tiny_copy) is not None
    assert len(entries(cache)) == 1  # one entry per edition path, however often it changes


@pytest.mark.parametrize("changed", ["library", "rulebook"])
def test_a_change_of_another_input_is_a_miss(cache, tiny_copy, changed):
    compile_edition(tiny_copy)
    other = (tiny_copy.parents[1] / "lib" / "tinylib.rules" if changed == "library"
             else tiny_copy.parent / "rulebook.txt")
    other.write_text(other.read_text() + "\n")
    assert front_end_cache.load(tiny_copy) is None


def test_a_damaged_entry_is_a_miss_and_is_written_again(cache, tiny_copy):
    compile_edition(tiny_copy)
    [entry] = entries(cache)
    data = pickle.loads(entry.read_bytes())
    kept = bytearray(data["compilation"])
    kept[len(kept) // 2] ^= 1  # one bit changed: its hash differs
    data["compilation"] = bytes(kept)
    entry.write_bytes(pickle.dumps(data))
    assert front_end_cache.load(tiny_copy) is None
    entry.write_bytes(entry.read_bytes()[:100])  # truncated
    assert front_end_cache.load(tiny_copy) is None
    compile_edition(tiny_copy)
    assert front_end_cache.load(tiny_copy) is not None


def test_each_naming_of_an_edition_keeps_its_own_paths(cache, tiny_copy, monkeypatch):
    """Diagnostics name the files as the user did: a relative naming is not served the
    compilation made under an absolute one."""
    absolute = compile_edition(tiny_copy)
    monkeypatch.chdir(tiny_copy.parent)
    relative = compile_edition(Path("tiny.rules"))
    assert relative.path == Path("tiny.rules") and absolute.path == tiny_copy
    assert len(entries(cache)) == 2


def test_only_a_finished_compilation_is_kept(cache, tiny_copy):
    front_end_cache.keep(compile_rules(tiny_copy, until="check"))
    assert entries(cache) == []


def test_check_reads_a_kept_compilation_and_says_the_same(cache, tiny_copy, capsys,
                                                           monkeypatch):
    from boardrules import cli
    from boardrules.compiler import pipeline

    assert cli.main(["check", str(tiny_copy)]) == 0
    checked = capsys.readouterr()
    assert "warning:" in checked.err and entries(cache) == []  # check keeps nothing itself
    assert cli.main(["compile", str(tiny_copy), "--backend", "interpreted"]) == 0
    capsys.readouterr()

    def no_front_end(*args, **kwargs):
        raise AssertionError("the front end ran")
    monkeypatch.setattr(pipeline, "compile_rules", no_front_end)
    assert cli.main(["check", str(tiny_copy)]) == 0
    assert capsys.readouterr() == checked
