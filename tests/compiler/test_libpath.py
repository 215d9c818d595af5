"""Editions outside the repository: the library search path, ruleset folders named as
editions, the source index under a changed search path, and a library module checked
on its own."""

from __future__ import annotations

import os
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.build import source_index
from boardrules.compiler.build.artifacts import watching
from boardrules.compiler.build.obtain import compile_edition
from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.front import modules
from boardrules.compiler.front.libpath import (
    ENV,
    bundled_library,
    find_library,
    library_dirs,
    search_path,
    source_size,
)
from boardrules.compiler.front.modules import load_sources
from boardrules.compiler.library_check import check_library, library_module
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.scaffold import new_edition
from boardrules.runtime.loader import EditionNotFound, load_module, resolve_edition

HEAD = 'edition "T" { rulebook "rulebook.txt" }\n'
SMALL_EDITION = HEAD + """import walk
enum kind { plain }
board { space s0 "S0" plain space s1 "S1" plain }
"""
WALK = "rule {rule} {{ on turn(p: player) {{ move(p, 1) }} }}\n"  # the library `walk`


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def small_edition(folder: Path) -> Path:
    """An edition importing `walk` (written by each test where it wants it)."""
    write(folder / "rulebook.txt", "Small.\n")
    return write(folder / f"{folder.name}.rules", SMALL_EDITION)


@pytest.fixture
def no_search_path(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)


@pytest.fixture(scope="module", autouse=True)
def parse_each_library_once():
    """The bundled library is parsed once for these tests (parsing is a pure function)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(modules, "parse", lru_cache(maxsize=None)(modules.parse))
        yield


def test_the_search_path_is_configured_folders_then_the_sibling_lib_then_the_bundled(
        tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, os.pathsep.join([str(tmp_path / "a"), "", str(tmp_path / "b")]))
    edition = tmp_path / "games" / "ed" / "ed.rules"
    assert search_path(edition) == [tmp_path / "a", tmp_path / "b",
                                    (tmp_path / "games" / "lib").resolve(), bundled_library()]
    with library_dirs([tmp_path / "c"]):
        assert search_path(edition)[0] == (tmp_path / "c").resolve()
    assert search_path(edition)[0] == tmp_path / "a"  # restored


def test_library_dirs_restores_an_unset_variable(tmp_path, no_search_path):
    with library_dirs([tmp_path]):
        assert os.environ[ENV] == str(tmp_path.resolve())
    assert ENV not in os.environ


def test_an_edition_anywhere_imports_the_bundled_library(tmp_path, no_search_path):
    rulebook = write(tmp_path / "book.txt", "Game\n\nSetup\n\nEach player starts with 5 coins.\n")
    (tmp_path / "deep" / "er").mkdir(parents=True)
    edition = new_edition("far_away", rulebook, ["classic"], tmp_path / "deep" / "er")
    assert not (edition.parent.parent / "lib").exists()
    sources = load_sources(edition)
    assert {Path(m.path).parent for m in sources.libraries} == {bundled_library()}
    assert Path(sources.libraries[-1].path).name == "classic.rules"
    compile_rules(edition, until="check")


def test_a_configured_folder_shadows_the_sibling_lib(tmp_path, monkeypatch):
    edition = small_edition(tmp_path / "ed")
    write(tmp_path / "lib" / "walk.rules", WALK.format(rule="walk"))
    mine = write(tmp_path / "mine" / "walk.rules", WALK.format(rule="stroll"))
    monkeypatch.setenv(ENV, str(tmp_path / "mine"))
    assert [m.path for m in load_sources(edition).libraries] == [str(mine)]
    assert find_library("nope", search_path(edition)) is None


def test_a_missing_library_names_what_the_search_path_offers(tmp_path, monkeypatch):
    edition = write(tmp_path / "ed" / "ed.rules", HEAD + "import zzzzzz\n")
    write(tmp_path / "mine" / "mylib.rules", "param x: int = 1\n")
    monkeypatch.setenv(ENV, str(tmp_path / "mine"))
    with pytest.raises(CompileError) as info:
        load_sources(edition)
    (diag,) = info.value.diagnostics
    assert diag.code == E.UNKNOWN_LIBRARY.code
    assert "mylib" in diag.hint and "classic" in diag.hint and "--lib" in diag.hint


def test_the_source_index_misses_when_another_folder_now_shadows_a_library(
        tmp_path, monkeypatch, no_search_path):
    monkeypatch.setenv("BOARDRULES_CACHE", str(tmp_path / "cache"))
    edition = small_edition(tmp_path / "ed")
    write(tmp_path / "lib" / "walk.rules", WALK.format(rule="walk"))
    assert load_module(str(edition), "interpreted").RULE_NAMES == ("walk",)
    assert source_index.lookup(edition) is not None
    write(tmp_path / "mine" / "walk.rules", WALK.format(rule="stroll"))
    monkeypatch.setenv(ENV, str(tmp_path / "mine"))
    assert source_index.lookup(edition) is None
    assert load_module(str(edition), "interpreted").RULE_NAMES == ("stroll",)


# ---- naming an edition ---------------------------------------------------------------------
def test_an_edition_is_named_by_its_folder(tmp_path, monkeypatch):
    edition = small_edition(tmp_path / "games" / "ed")
    assert resolve_edition(str(edition.parent)) == edition
    monkeypatch.chdir(tmp_path / "games")
    assert resolve_edition("ed") == Path("ed") / "ed.rules"
    only = write(tmp_path / "other" / "whatever.rules", SMALL_EDITION)
    assert resolve_edition(str(only.parent)) == only
    write(tmp_path / "two" / "a.rules", "")
    write(tmp_path / "two" / "b.rules", "")
    with pytest.raises(EditionNotFound, match="no edition in"):
        resolve_edition(str(tmp_path / "two"))


def test_a_bare_name_falls_back_to_the_bundled_editions(tmp_path, monkeypatch):
    (tmp_path / "disney_theme_park").mkdir()  # a folder of that name, without an edition
    monkeypatch.chdir(tmp_path)
    assert resolve_edition("disney_theme_park").name == "disney_theme_park.rules"
    with pytest.raises(EditionNotFound, match="ruleset folder"):
        resolve_edition("no_such_edition")


# ---- a library module on its own ---------------------------------------------------------
def test_every_bundled_library_module_checks_on_its_own():
    libraries = sorted(bundled_library().glob("*.rules"))
    assert libraries
    for library in libraries:  # the checking passes up to lint: the optimizer is not at issue
        assert library_module(library) is not None, library
        assert not check_library(library, until="lint").reporter.errors


def test_a_library_check_reports_what_is_wrong_but_not_what_editions_give(tmp_path):
    library = write(tmp_path / "mylibs" / "extras.rules", "import helpers\n"
                    "param needed: space\n"
                    "proc twice(n: int) -> int { return n * 2 }\n"
                    "proc broken() -> int { return twice(true) }\n")
    write(tmp_path / "mylibs" / "helpers.rules", "param also_needed: money\n")
    with pytest.raises(CompileError) as info:
        check_library(library)
    (diag,) = info.value.diagnostics
    assert diag.span.path == str(library) and diag.span.line == 4
    assert diag.code == E.TYPE_MISMATCH.code  # not a param without a value: editions give it


def test_check_on_a_library_module_and_on_an_edition_missing_its_header(tmp_path, capsys):
    library = write(tmp_path / "mylibs" / "extras.rules",
                    "import go\nproc richest() -> player? {\n"
                    "  return best(q.cash for q in players)\n}\n")
    assert main(["check", str(library)]) == 0
    assert "ok: library module" in capsys.readouterr().out
    headless = write(tmp_path / "ed" / "ed.rules", "enum kind { plain }\n")
    assert main(["check", str(headless)]) == 1
    assert "declares no edition" in capsys.readouterr().err


def test_lib_option_adds_a_folder_and_a_missing_one_is_a_usage_error(tmp_path, capsys,
                                                                     no_search_path):
    edition = small_edition(tmp_path / "ed")
    write(tmp_path / "rules_of_mine" / "walk.rules", WALK.format(rule="walk"))
    assert main(["check", str(edition)]) == 1
    assert "no library named 'walk'" in capsys.readouterr().err
    assert main(["check", str(edition), "--lib", str(tmp_path / "rules_of_mine")]) == 0
    assert ENV not in os.environ
    assert main(["check", str(edition), "--lib", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lib" in err and "Traceback" not in err


@pytest.mark.parametrize("edition", ["disney_theme_park", "builder", "animal_crossing",
                                     "super_mario_celebration"])
def test_source_size_counts_what_the_front_end_reads(edition):
    """A build's progress measures the front end by the edition, the libraries it imports
    and its scenario files: the bytes the loader reads, found without parsing."""
    path = resolve_edition(edition)
    read = load_sources(path).texts
    assert source_size(path) == sum(len(text.encode()) for text in read.values())
    assert source_size(path) > path.stat().st_size


def test_source_size_follows_imports_over_lines_and_skips_what_is_missing(tmp_path,
                                                                         no_search_path):
    edition = small_edition(tmp_path / "t")
    edition.write_text(HEAD + "import walk,\n  run\nimport missing\n")
    walk = write(tmp_path / "lib" / "walk.rules", "import run\n" + WALK.format(rule="a"))
    run = write(tmp_path / "lib" / "run.rules", WALK.format(rule="b"))
    scenario = write(tmp_path / "t" / "scenarios" / "s.rules", "# none yet\n")
    sizes = (edition, walk, run, scenario)
    assert source_size(edition) == sum(p.stat().st_size for p in sizes)


def test_a_build_shows_the_front_end_by_all_it_reads(tmp_path, no_search_path):
    """The progress display's estimate of the front end counts the imported library."""
    edition = small_edition(tmp_path / "t")
    write(tmp_path / "lib" / "walk.rules", WALK.format(rule="walking") + "# " + "x" * 5000)
    shown: list[tuple[str, int]] = []

    @contextmanager
    def watcher(step: str, size: int):
        shown.append((step, size))
        yield

    with watching(watcher):
        compile_edition(edition)
    assert shown == [("front end", source_size(edition))]
    assert source_size(edition) > 5000 > edition.stat().st_size

