"""What the cache runs and writes: only verified code is imported (never an unchecked
`__pycache__` file), a read-only cache serves a built edition, a damaged build-times
file is ignored and repaired."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
from importlib._bootstrap_external import _code_to_timestamp_pyc
from pathlib import Path

import pytest

from boardrules.compiler.build import obtain
from boardrules.compiler.build.artifacts import step, watching
from boardrules.progress import BuildProgress
from boardrules.runtime import loader


def _load_fresh(edition: Path, cache: Path) -> subprocess.CompletedProcess:
    """Load the interpreted module in a new process (a process's modules are kept)."""
    code = ("import sys; from boardrules.runtime.loader import load_module; "
            "print(load_module(sys.argv[1], 'interpreted').EDITION)")
    return subprocess.run([sys.executable, "-c", code, str(edition)], capture_output=True,
                          text=True, env={**os.environ,
                                          "BOARDRULES_CACHE": str(cache)}, timeout=120)


def _cached_source(edition: Path) -> Path:
    return obtain.indexed_artifact(edition).source


def test_a_pycache_file_is_never_imported(cache, tiny_copy):
    """A truncated .pyc, and one made from other code with the source's size and time, in
    the cache's __pycache__: the interpreted module still runs its verified source."""
    title = loader.load_module(str(tiny_copy), "interpreted").EDITION
    source = _cached_source(tiny_copy)
    text = source.read_text()
    other = text.replace(f"EDITION = {title!r}", f"EDITION = {'X' * len(title)!r}")
    assert other != text and len(other) == len(text)
    pyc = Path(importlib.util.cache_from_source(str(source)))
    pyc.parent.mkdir(exist_ok=True)
    stat = source.stat()
    code = compile(other, str(source), "exec", dont_inherit=True)
    pyc.write_bytes(bytes(_code_to_timestamp_pyc(code, stat.st_mtime, stat.st_size)))
    played = _load_fresh(tiny_copy, cache)
    assert played.returncode == 0, played.stderr
    assert played.stdout.strip() == title  # not the other code's "XXXX"
    pyc.write_bytes(pyc.read_bytes()[:40])  # truncated: a valid header, broken code
    played = _load_fresh(tiny_copy, cache)
    assert played.returncode == 0, played.stderr
    assert played.stdout.strip() == title


def _read_only(cache: Path, command: list[str]) -> subprocess.CompletedProcess | None:
    """Run a command with the cache folder mounted read-only (a private mount namespace);
    None where this machine does not allow one."""
    script = 'mount --bind -o ro "$0" "$0" && exec "$@"'
    probe = subprocess.run(["unshare", "-m", "sh", "-c", script, str(cache), "true"],
                           capture_output=True)
    if probe.returncode != 0:
        return None
    return subprocess.run(["unshare", "-m", "sh", "-c", script, str(cache), *command],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "BOARDRULES_CACHE": str(cache)})


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare(1)")
def test_a_read_only_cache_serves_a_built_edition(cache, tiny_copy):
    """Every entry built, then the cache read-only: writing an entry (here the front end's,
    whose file was removed) is best effort, and the edition tests and plays."""
    cli = [sys.executable, "-m", "boardrules.cli"]
    for command in (["test", str(tiny_copy)], ["simulate", str(tiny_copy), "--games", "3"]):
        built = subprocess.run([*cli, *command], capture_output=True, text=True, timeout=600,
                               env={**os.environ, "BOARDRULES_CACHE": str(cache)})
        assert built.returncode == 0, built.stderr
    for entry in (cache / "front-end").iterdir():
        entry.unlink()  # the folder stays: on a read-only mount, writing in it fails
    tested = _read_only(cache, [*cli, "test", str(tiny_copy)])
    if tested is None:
        pytest.skip("no read-only mount allowed here")
    assert tested.returncode == 0, tested.stderr
    played = _read_only(cache, [*cli, "simulate", str(tiny_copy), "--games", "3"])
    assert played.returncode == 0, played.stderr


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("damage", ['{"front end": 1e308}', '{"front end": Infinity}',
                                    '{"front end": true, "Cython": -1}', "[1e308]"])
def test_a_damaged_build_times_file_is_ignored_and_repaired(tmp_path, damage):
    times = tmp_path / "build-times.json"
    times.write_text(damage)
    progress = BuildProgress(_Terminal(), times)
    with watching(progress), step("front end", 50_000):
        pass
    rates = json.loads(times.read_text())
    assert set(rates) == {"front end"} and 0 < rates["front end"] < 1
    assert progress.estimate("front end", 50_000) < 60


@pytest.mark.parametrize("folder", [b"e" * 210, b"b\xff"], ids=["long name", "not UTF-8"])
def test_what_check_passes_compiles_whatever_the_edition_is_named(cache, tmp_path, folder):
    """An edition file name of 210 characters (its module name once went over the file
    system's 255 bytes), a folder name that is not UTF-8 (the cache's keys could not
    encode it)."""
    from boardrules.cli import main

    edition = Path(os.fsdecode(bytes(tmp_path) + b"/rules/" + folder))
    shutil.copytree(Path(__file__).parents[1] / "fixtures" / "lib", tmp_path / "rules" / "lib")
    edition.mkdir()
    shutil.copy(Path(__file__).parents[1] / "fixtures" / "tiny" / "rulebook.txt", edition)
    rules = edition / f"{edition.name}.rules"
    shutil.copy(Path(__file__).parents[1] / "fixtures" / "tiny" / "tiny.rules", rules)
    assert main(["check", str(rules)]) == 0
    assert main(["compile", str(rules)]) == 0
    assert main(["simulate", str(rules), "--games", "2", "--workers", "1"]) == 0


def test_a_killed_builds_folder_goes_with_the_next_build(cache):
    """A build's temporary folder names its machine and process: once the process is gone
    it is removed at once, not an hour later; a live build's stays."""
    import socket

    from boardrules.compiler.build import artifacts as build

    cache.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    host = socket.gethostname()
    killed = cache / f".br_y_4567.{host}-{gone}.abc"
    live = cache / f".br_y_4567.{host}-{os.getpid()}.def"
    elsewhere = cache / f".br_y_4567.another-host-{gone}.ghi"
    for folder in (killed, live, elsewhere):
        folder.mkdir()
    build._remove_stale(cache)
    assert not killed.exists() and live.exists() and elsewhere.exists()


def test_cache_clean_older_than_keeps_what_was_used_lately(cache):
    from boardrules.cli import main

    (cache / "index").mkdir(parents=True)
    old, recent = cache / "br_old_0123", cache / "br_recent_4567"
    for entry in (old, recent, cache / "index" / "old.json", cache / "index" / "new.json"):
        entry.mkdir() if entry.suffix != ".json" else entry.write_text("[]")
    (cache / "br_old_0123.lock").write_text("")
    ten_days_ago = __import__("time").time() - 10 * 86400
    for entry in (old, cache / "index" / "old.json", cache / "br_old_0123.lock"):
        os.utime(entry, (ten_days_ago, ten_days_ago))
    assert main(["cache", "clean", "--older-than", "5"]) == 0
    assert sorted(p.name for p in cache.iterdir()) == ["br_recent_4567", "index"]
    assert [p.name for p in (cache / "index").iterdir()] == ["new.json"]
    assert main(["cache", "where", "--older-than", "5"]) == 2
