"""Ctrl-C (SIGINT) on a long command: it ends within 2 s with exit status 130, no process
left behind, and what was done written as partial where the command writes files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TINY = str(ROOT / "tests" / "fixtures" / "tiny" / "tiny.rules")


def _children(pid: int) -> set[int]:
    """The process's children and theirs (from /proc)."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
        except OSError:
            continue
        for child in map(int, text.split()):
            found |= {child, *_children(child)}
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _default_sigint() -> None:
    """A process started in the background inherits SIGINT ignored: the command's own
    handling is what is tested."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def load_factor() -> float:
    """How many times over the machine's cores are busy (at least 1): the tests' waits and
    the 2 s promise stretch by it, so that a machine shared with other work does not fail
    them (a quiet machine keeps the promise as written)."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


PROMISE = 2.0  # seconds from Ctrl-C to the command's end, on a quiet machine


def interrupt(args: list[str], ready, settle: float = 1.0, env: dict[str, str] | None = None
              ) -> tuple[int, float, str, set[int]]:
    """Start the command, wait until `ready(children)` says its work is under way, send
    SIGINT: its exit status, the seconds it took to end (divided by the load factor), its
    stderr and the processes it had started that are still alive."""
    process = subprocess.Popen([sys.executable, "-m", "boardrules.cli", *args], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_default_sigint, env={**os.environ, **(env or {})})
    deadline = time.monotonic() + 240
    started: set[int] = set()
    while time.monotonic() < deadline and process.poll() is None:
        started |= _children(process.pid)
        if ready(started):
            break
        time.sleep(0.1)
    time.sleep(settle * load_factor())
    started |= _children(process.pid)
    assert process.poll() is None, process.communicate()
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # not stopped: end it and what it started
        for pid in (process.pid, *started):
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        process.communicate()
        raise
    took = (time.monotonic() - sent) / load_factor()
    time.sleep(0.3)
    return process.returncode, took, err, {pid for pid in started if _alive(pid)}


def test_simulate_stops_at_once_and_writes_the_games_played(tmp_path):
    figures, games = tmp_path / "figures.json", tmp_path / "games.jsonl"
    status, took, err, left = interrupt(
        ["simulate", TINY, "--backend", "interpreted", "--games", "100000000", "--workers",
         "2", "--json", str(figures), "--games-out", str(games)],
        ready=lambda children: len(children) >= 2, settle=2.0)
    assert status == 130, err
    assert took < PROMISE, took
    assert not left
    assert "Traceback" not in err and "interrupted" in err
    data = json.loads(figures.read_text())
    assert data["partial"] is True and 0 < data["games"] < 100000000
    assert len(games.read_text().splitlines()) == data["games"]


def _two_workers(children: set[int]) -> bool:
    return len(children) >= 2


def test_report_stops_and_writes_the_runs_json_as_partial(tmp_path):
    out = tmp_path / "report"
    status, took, err, left = interrupt(
        ["report", TINY, "--backend", "interpreted", "--games", "100000000", "--workers", "2",
         "--out", str(out)], ready=_two_workers, settle=2.0)
    assert status == 130 and took < PROMISE and not left, (status, took, left, err)
    data = json.loads((out / "summary.json").read_text())
    assert data["partial"] is True and data["games"] > 0
    assert not (out / "index.html").exists()


def test_compare_stops_and_writes_the_side_simulated_as_partial(tmp_path):
    figures = tmp_path / "compare.json"
    status, took, err, left = interrupt(
        ["compare", TINY, "--backend", "interpreted", "--games", "100000000", "--workers",
         "2", "--option", "", "--option", "", "--json", str(figures)],
        ready=_two_workers, settle=2.0)
    assert status == 130 and took < PROMISE and not left, (status, took, left, err)
    data = json.loads(figures.read_text())
    assert data["partial"] is True and data["sides"][0]["games"] > 0


def test_mutate_stops_and_writes_the_mutants_run_as_partial(tmp_path):
    results = tmp_path / "mutants.json"
    status, took, err, left = interrupt(
        ["mutate", "disney_theme_park", "--workers", "2", "--json", str(results)],
        ready=_two_workers, settle=3.0)
    assert status == 130 and took < PROMISE and not left, (status, took, left, err)
    data = json.loads(results.read_text())
    assert data["partial"] is True and data["totals"]["not_run"] > 0


def test_simulate_stops_while_checking_invariants():
    """The second pool (`--check-invariants` plays the games again): ended at once too."""
    status, took, err, left = interrupt(
        ["simulate", TINY, "--backend", "interpreted", "--games", "4000", "--workers", "2",
         "--check-invariants"], ready=lambda children: len(children) >= 4)
    assert status == 130 and took < PROMISE and not left, (status, took, left, err)


def test_a_build_stops_with_its_cython_process(tmp_path):
    """Ctrl-C while Cython compiles an edition (a fresh cache): no Cython left running."""
    status, took, err, left = interrupt(
        ["compile", str(ROOT / "tests" / "fixtures" / "tiny" / "tiny.rules")],
        ready=lambda _: any((tmp_path / "cache").glob(".br_*/*.py")), settle=0.2,
        env={"BOARDRULES_CACHE": str(tmp_path / "cache")})
    assert status == 130 and took < PROMISE and not left, (status, took, left, err)
