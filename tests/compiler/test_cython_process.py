"""compiler/build/cython_process.py: a Cython process started ahead of a build writes what a
fresh one writes, reports its errors alike, and ends with the process that started it
when no build needs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules import cli
from boardrules.compiler.back import codegen, template_cache
from boardrules.compiler.build import artifacts as build
from boardrules.compiler.build import build_settings, cython_process

SOURCE = ("import cython\n\n\n@cython.cfunc\n"
          "def twice(x: cython.int) -> cython.int:\n    return x * 2\n")


def test_a_process_started_ahead_writes_what_a_fresh_one_writes(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(SOURCE)
    cython_process.start_ahead()
    assert len(cython_process._ahead) == 1
    ahead = cython_process.run(["-3", "-o", str(tmp_path / "ahead.c"), str(source)])
    assert ahead[0] == 0 and cython_process._ahead == []  # used, and gone
    fresh = cython_process.run(["-3", "-o", str(tmp_path / "fresh.c"), str(source)])
    assert fresh[0] == 0
    assert (tmp_path / "ahead.c").read_text() == (tmp_path / "fresh.c").read_text()


def test_a_process_started_ahead_compiles_the_templates_into_their_cache(tmp_path,
                                                                       monkeypatch):
    """Code generation then reads them compiled (template_cache.py), on the critical path
    of a cold build no more."""
    monkeypatch.setenv("BOARDRULES_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "m.py"
    source.write_text(SOURCE)
    cython_process.start_ahead()
    assert cython_process.run(["-3", "-o", str(tmp_path / "m.c"), str(source)])[0] == 0
    compiled = list((tmp_path / "cache" / template_cache.FOLDER).glob("*.jinja"))
    assert len(compiled) == len(codegen.environment().list_templates())


def test_a_failure_in_a_process_started_ahead_is_a_build_error(tmp_path):
    source = tmp_path / "broken.py"
    source.write_text("def f(:\n")
    cython_process.start_ahead()
    with pytest.raises(build_settings.BuildError, match="Cython failed") as failure:
        build._compile(source, tmp_path / "broken.so")
    assert "broken.py" in str(failure.value)


def test_a_process_no_build_needed_ends_with_its_starter():
    cython_process.start_ahead()
    (process,) = cython_process._ahead
    cython_process._stop_unused()
    assert cython_process._ahead == [] and process.poll() is not None


def test_no_process_is_started_ahead_of_a_build_without_a_c_compiler(monkeypatch):
    """The build stops before Cython then: a process started ahead would be wasted."""
    monkeypatch.setenv("CC", "no-such-compiler-boardrules")
    cython_process.start_ahead()
    assert cython_process._ahead == []


def test_no_process_is_started_ahead_to_compile_an_edition_already_built(monkeypatch, capsys):
    tiny = str(Path(__file__).resolve().parents[1] / "fixtures" / "tiny" / "tiny.rules")
    assert cli.main(["compile", tiny]) == 0  # built now, or by an earlier test
    started = []
    monkeypatch.setattr(cython_process, "start_ahead", lambda: started.append(1))
    assert cli.main(["compile", tiny]) == 0
    assert started == [] and "compiled tiny" in capsys.readouterr().out
