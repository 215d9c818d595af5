"""The cache seen from the loader: one entry per content, the source index, one build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boardrules.compiler import pipeline
from boardrules.compiler.back import template_cache
from boardrules.compiler.build import front_end_cache, obtain, source_index
from boardrules.compiler.common.diagnostics import CompileError
from boardrules.runtime import loader

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
HEAVY = ("lark", "jinja2", "Cython", "cython")
HAS_CC = shutil.which(os.environ.get("CC", "gcc").split()[0]) is not None


def clone(where: Path) -> Path:
    """A copy of the tiny edition and its library laid out as rulesets/ is; its .rules."""
    shutil.copytree(FIXTURES / "tiny", where / "rulesets" / "tiny")
    shutil.copytree(FIXTURES / "lib", where / "rulesets" / "lib")
    return where / "rulesets" / "tiny" / "tiny.rules"


@pytest.fixture
def front_end_runs(monkeypatch) -> list[Path]:
    """The editions the front end compiled (the loader imports it lazily, by name)."""
    runs: list[Path] = []
    real = pipeline.compile_rules

    def counting(path, *args, **kwargs):
        runs.append(Path(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(pipeline, "compile_rules", counting)
    return runs


def artifacts(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir() if p.is_dir() and p.name.startswith("br_"))


def test_one_cache_entry_however_the_edition_is_named(cache, tmp_path, monkeypatch,
                                                      front_end_runs):
    """Relative, absolute, from elsewhere, a second clone, by name: one artifact, whether
    the front end runs (empty index, no kept front-end result) or the index answers."""
    first = clone(tmp_path / "clone1")
    second = clone(tmp_path / "elsewhere" / "clone2")
    monkeypatch.setenv("BOARDRULES_RULESETS", str(first.parent.parent))
    namings = [  # (working directory, name)
        (tmp_path / "clone1", "rulesets/tiny/tiny.rules"),
        (tmp_path, str(first)),
        (tmp_path / "clone1" / "rulesets" / "lib", "../tiny/tiny.rules"),
        (tmp_path, str(second)),
        (tmp_path, "tiny"),
    ]
    files = set()
    for use_index in (False, True):
        for cwd, name in namings:
            if not use_index:
                shutil.rmtree(cache / source_index.FOLDER, ignore_errors=True)
                shutil.rmtree(cache / front_end_cache.FOLDER, ignore_errors=True)
            monkeypatch.chdir(cwd)
            files.add(loader.load_module(name, "interpreted").__file__)
    assert len(front_end_runs) == len(namings)  # the second round came from the index
    assert len(files) == 1
    assert artifacts(cache) == [Path(files.pop()).parent.name]


def test_a_cached_edition_loads_without_the_front_end(cache, tmp_path, front_end_runs):
    edition = clone(tmp_path)
    first = loader.load_module(str(edition), "interpreted")
    assert len(front_end_runs) == 1
    assert loader.load_module(str(edition), "interpreted") is first
    assert len(front_end_runs) == 1

    library = edition.parent.parent / "lib" / "tinylib.rules"
    library.write_text(library.read_text() + "\n# a comment: same code, same module\n")
    assert loader.load_module(str(edition), "interpreted") is first
    assert len(front_end_runs) == 2  # a changed input: checked again
    assert loader.load_module(str(edition), "interpreted") is first
    assert len(front_end_runs) == 2  # ... and indexed again

    rulebook = edition.parent / "rulebook.txt"
    rulebook.write_text(rulebook.read_text().replace("toll", "fee"))
    with pytest.raises(CompileError):  # the rulebook no longer has the quote
        loader.load_module(str(edition), "interpreted")

    rulebook.write_text((FIXTURES / "tiny" / "rulebook.txt").read_text())
    edition.write_text(edition.read_text().replace("start_cash = 100", "start_cash = 90"))
    changed = loader.load_module(str(edition), "interpreted")
    assert changed is not first and changed.__file__ != first.__file__
    assert len(artifacts(cache)) == 2


def test_an_edition_compiled_on_the_command_line_loads_without_the_front_end(
        cache, tmp_path, front_end_runs):
    from boardrules.cli import main

    edition = clone(tmp_path)
    assert main(["compile", str(edition), "--backend", "interpreted"]) == 0
    runs = len(front_end_runs)
    loader.load_module(str(edition), "interpreted")
    assert len(front_end_runs) == runs


def test_a_damaged_index_is_only_a_miss(cache, tmp_path, front_end_runs):
    edition = clone(tmp_path)
    first = loader.load_module(str(edition), "interpreted")
    (entry,) = (cache / source_index.FOLDER).iterdir()
    entry.write_text("{not json")
    assert loader.load_module(str(edition), "interpreted") is first
    assert len(front_end_runs) == 1  # the kept front-end result named the artifact again
    assert json.loads(entry.read_text())  # and the index entry was written again
    entry.write_text("{not json")
    shutil.rmtree(cache / front_end_cache.FOLDER)
    assert loader.load_module(str(edition), "interpreted") is first
    assert len(front_end_runs) == 2
    assert loader.load_module(str(edition), "interpreted") is first
    assert len(front_end_runs) == 2


def run_python(code: str, env: dict[str, str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], env=env, cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.long
@pytest.mark.skipif(not HAS_CC, reason="no C compiler")
def test_concurrent_builds_compile_once(tmp_path):
    """Two processes load the same edition into an empty cache: the C compiler runs once,
    and a later process loads it without importing the front end or Cython."""
    edition = clone(tmp_path)
    log = tmp_path / "cc.log"
    wrapper = tmp_path / "cc"
    # a C compiler that records each run, and is slow enough that the builds overlap
    wrapper.write_text(f'#!/bin/sh\necho run >> "{log}"\nsleep 1\n'
                       f'exec {os.environ.get("CC", "gcc")} "$@"\n')
    wrapper.chmod(0o755)
    env = dict(os.environ, BOARDRULES_CACHE=str(tmp_path / "cache"), CC=str(wrapper))
    load = (f"from boardrules.runtime.loader import load_module\n"
            f"print(load_module({str(edition)!r}).__file__)\n")
    builders = [run_python(load, env, tmp_path) for _ in range(2)]
    results = [(p.communicate(timeout=600), p.returncode) for p in builders]
    for (_, err), code in results:
        assert code == 0, err
    assert len({out for (out, _), _ in results}) == 1
    assert log.read_text().splitlines() == ["run"]
    cache = tmp_path / "cache"
    assert sorted(p.name for p in cache.iterdir() if p.name.startswith(".")) == []
    assert len(artifacts(cache)) == 1

    check = (load + "import sys\n"
             f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n")
    out, err = run_python(check, env, tmp_path).communicate(timeout=600)
    assert out.splitlines()[-1] == "[]", err
    assert log.read_text().splitlines() == ["run"]


def test_a_file_is_verified_against_its_sum(tmp_path):
    from boardrules.compiler.build import artifacts as build

    module = tmp_path / "m.so"
    build.seal(module, b"\x7fELF" + bytes(4000))
    assert build.verified(module)
    for damaged in (b"", b"\x7fELF" + bytes(3999), b"\x7fELG" + bytes(4000)):
        module.write_bytes(damaged)
        assert not build.verified(module)
    build.seal(module)
    module.with_name("m.so.sum").unlink()
    assert not build.verified(module)


@pytest.fixture(scope="module")
def built_tiny(tmp_path_factory) -> tuple[Path, str]:
    """The tiny edition's cache entry, copied into a cache of its own (each test that damages
    it copies that), and what its first game prints. The entry is the suite's: built once
    in the shared cache, whichever test or worker needs it first (its lock sees to that)."""
    root = tmp_path_factory.mktemp("built")
    clone(root)
    module = loader.load_module(str(FIXTURES / "tiny" / "tiny.rules"), "compiled")
    entry = Path(module.__file__).parent
    shutil.copytree(entry, root / "cache" / entry.name)
    game = module.Game(2, seed=3)
    game.play(20)
    return root, f"{game.turn} {game.players_cash()}\n"


def _play_code(edition: Path) -> str:
    return (f"from boardrules.runtime.loader import load_module\n"
            f"game = load_module({str(edition)!r}).Game(2, seed=3)\n"
            f"game.play(20)\nprint(game.turn, game.players_cash())\n")



@pytest.mark.skipif(not HAS_CC, reason="needs a C compiler")
def test_a_published_entry_is_readable_by_all():
    """mkdtemp's mode 0700 once stayed on the published folder."""
    module = loader.load_module(str(FIXTURES / "tiny" / "tiny.rules"), "compiled")
    entry = Path(module.__file__).parent
    assert entry.stat().st_mode & 0o777 == 0o755
    assert not list(entry.parent.glob(f".{entry.name}.*"))  # no build folder left behind

@pytest.mark.skipif(not HAS_CC, reason="needs a C compiler")
@pytest.mark.parametrize("damage", ["truncate the extension", "truncate the source"])
def test_a_damaged_cache_entry_is_rebuilt(tmp_path, built_tiny, damage):
    """A fresh process finds a damaged file in the cache: it rebuilds it instead of crashing
    (SIGBUS on a truncated extension, SyntaxError on a truncated module)."""
    root, first = built_tiny
    shutil.copytree(root / "rulesets", tmp_path / "rulesets")
    shutil.copytree(root / "cache", tmp_path / "cache")
    edition = tmp_path / "rulesets" / "tiny" / "tiny.rules"
    env = dict(os.environ, BOARDRULES_CACHE=str(tmp_path / "cache"))
    (entry,) = [p for p in (tmp_path / "cache").iterdir()
                if p.is_dir() and p.name.startswith("br_")]
    if damage == "truncate the extension":
        extension = next(entry.glob("*.so"))
        extension.write_bytes(extension.read_bytes()[:4096])
    else:
        source = next(entry.glob("*.py"))
        source.write_text(source.read_text()[:5000])
    built = {p.name: p.stat().st_mtime_ns for p in entry.glob("*.so")}
    process = run_python(_play_code(edition), env, tmp_path)
    again, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    assert again == first
    if damage == "truncate the source":  # the intact extension, built from that code, kept
        assert {p.name: p.stat().st_mtime_ns for p in entry.glob("*.so")} == built


def test_cache_clean_removes_every_entry_and_stale_builds(tmp_path):
    from boardrules.compiler.build import artifacts as build

    cache = tmp_path / "cache"
    env = dict(os.environ, BOARDRULES_CACHE=str(cache))
    (cache / "br_x_0123").mkdir(parents=True)
    (cache / ".br_x_0123.tmp").mkdir()
    (cache / "br_x_0123.lock").write_text("")
    (cache / front_end_cache.FOLDER).mkdir()
    (cache / front_end_cache.FOLDER / "0123.pickle").write_bytes(b"")
    (cache / template_cache.FOLDER).mkdir()
    (cache / template_cache.FOLDER / "0123.jinja").write_bytes(b"")
    (cache / "keep.txt").write_text("not ours")
    result = subprocess.run([sys.executable, "-m", "boardrules.cli", "cache", "clean"],
                            env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "removed 2 cached edition(s)" in result.stdout
    assert sorted(p.name for p in cache.iterdir()) == ["keep.txt"]
    # a build folder left by a build that died long ago goes with the next build
    stale = cache / ".br_y_4567.abc"
    stale.mkdir()
    os.utime(stale, (0, 0))
    young = cache / ".br_y_4567.def"
    young.mkdir()
    build._remove_stale(cache)
    assert not stale.exists() and young.exists()


def test_an_unknown_backend_is_refused_before_anything_is_looked_for(cache):
    """The loader refuses it before the edition is resolved, and the build's entry point
    before anything is looked up or built (it would otherwise write the interpreted one)."""
    with pytest.raises(ValueError, match="unknown backend 'fast'"):
        loader.load_module("no_such_edition", "fast")
    with pytest.raises(ValueError, match="unknown backend 'fast'"):
        obtain.artifact(FIXTURES / "tiny" / "tiny.rules", "fast")
    assert not cache.exists()  # nothing compiled, nothing written


def test_the_suite_builds_in_a_cache_of_its_own_never_the_users(monkeypatch):
    """The suite's fifty-odd test editions go to the checkout's own cache (conftest.py),
    which the commands it runs in subprocesses inherit, not to the user's."""
    from boardrules.compiler.common.cache_folder import cache_root

    suite = cache_root().resolve()
    assert os.environ.get("BOARDRULES_CACHE") and suite == Path(
        os.environ["BOARDRULES_CACHE"]).resolve()
    monkeypatch.delenv("BOARDRULES_CACHE")
    users = cache_root().resolve()
    assert suite != users and users not in suite.parents
