"""The command line's contract (README, "Commands"), run as a user runs it: a bad argument
exits 2 with one line on every command, before any work; --version; help that says each
option's default; progress on a terminal and silence when piped."""

from __future__ import annotations

import argparse
import fcntl
import io
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from boardrules import __version__
from boardrules.cli import build_parser, main
from boardrules.cli_support import DefaultsHelpFormatter
from boardrules.compiler.build.artifacts import step, watching
from boardrules.progress import BuildProgress

ROOT = Path(__file__).resolve().parents[1]
TINY = str(ROOT / "tests" / "fixtures" / "tiny" / "tiny.rules")
DISNEY = "disney_theme_park"


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "boardrules.cli", *args]


def run(*args: str, env: dict[str, str] | None = None,
        timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(command(*args), cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def exit_2_cases(tmp: Path) -> dict[str, list[str]]:
    """Every kind of bad argument, on every command that takes it (tmp holds a_file)."""
    a_file = tmp / "a_file"
    missing = str(tmp / "missing" / "out")
    cases = {
        "bad number": ["simulate", DISNEY, "--games", "x"],
        "zero players": ["simulate", DISNEY, "--players", "0"],
        "unknown command": ["frobnicate"],
        "no command": [],
        "unknown flag": ["check", DISNEY, "--frobnicate"],
        "missing rules file": ["check", "missing.rules"],
        "bad --option name": ["simulate", DISNEY, "--games", "1", "--option", "nope=1"],
        "bad --option value": ["simulate", "super_mario_celebration", "--games", "1",
                               "--option", "without_sound=maybe"],
        "report bad --option": ["report", DISNEY, "--out", str(tmp / "r"), "--option", "x=1"],
        "compare bad --option": ["compare", DISNEY, "--option", "x=1", "--option", ""],
        "too many players": ["simulate", DISNEY, "--games", "1", "--players", "9"],
        "coverage too many players": ["coverage", DISNEY, "--games", "1", "--players", "9"],
        "--fail-under above 100": ["coverage", DISNEY, "--fail-under", "101"],
        "--fail-under below 0": ["coverage", DISNEY, "--fail-under", "-1"],
        "--fail-under not a number": ["coverage", DISNEY, "--fail-under", "most"],
        "simulate --json": ["simulate", DISNEY, "--json", missing],
        "simulate --games-out": ["simulate", DISNEY, "--games-out", str(tmp)],
        "coverage --json": ["coverage", DISNEY, "--json", missing],
        "coverage --html": ["coverage", DISNEY, "--html", missing],
        "report --out": ["report", DISNEY, "--out", str(a_file / "report")],
        "compare --json": ["compare", DISNEY, "--option", "", "--option", "", "--json",
                           missing],
        "--address without ray": ["simulate", DISNEY, "--address", "127.0.0.1:9"],
        "unreachable --address": ["simulate", DISNEY, "--engine", "ray", "--address",
                                  "127.0.0.1:9"],
        "--dump-ir pass": ["compile", TINY, "--dump-ir", "nonsense"],
    }
    for command in ("check", "compile", "simulate", "test", "coverage", "compare"):
        cases[f"{command}: unknown edition"] = [command, "no_such_edition"]
    cases["report: unknown edition"] = ["report", "no_such_edition", "--out", str(tmp / "r")]
    cases["compare: unknown second edition"] = ["compare", DISNEY, "no_such_edition"]
    return cases


CASES = sorted(exit_2_cases(Path("/nonexistent")))


@pytest.mark.parametrize("case", CASES)
def test_a_bad_argument_exits_2_with_one_line(case, tmp_path, capsys):
    (tmp_path / "a_file").write_text("")
    argv = exit_2_cases(tmp_path)[case]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2, (case, out, err)
    assert err.startswith("boardrules: error: "), err
    assert len(err.strip().splitlines()) == 1, err
    assert out == ""


def test_the_process_exits_2_without_a_traceback():
    result = run("simulate", "no_such_edition")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("boardrules: error: unknown edition 'no_such_edition'")
    assert result.stderr.count("\n") == 1


def test_outputs_are_checked_before_the_scenarios_or_any_game(tmp_path):
    started = time.perf_counter()
    result = run("coverage", DISNEY, "--games", "100000000", "--html",
                 str(tmp_path / "no" / "page.html"), timeout=60)
    assert result.returncode == 2 and "cannot write to" in result.stderr
    assert time.perf_counter() - started < 30


def test_a_rules_error_exits_1_with_its_diagnostics(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text('edition "Broken" {\n  rulebook "rulebook.txt"\n  players 2 to 4\n}\n'
                      "param x: int = \n")
    (tmp_path / "rulebook.txt").write_text("Rules.\n")
    result = run("simulate", str(broken), "--games", "1")
    assert result.returncode == 1
    assert result.stderr.startswith(f"{broken}:") and ": error: " in result.stderr


def test_version():
    result = run("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"boardrules {__version__}"


def _options(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                for option in _options(command):
                    yield f"{name} {option[0]}", option[1]
        elif action.option_strings and not isinstance(
                action, argparse._HelpAction | argparse._VersionAction):
            yield action.option_strings[-1], action


def test_every_option_says_its_default():
    formatter = DefaultsHelpFormatter("boardrules")
    options = list(_options(build_parser()))
    assert len(options) > 30
    for name, action in options:
        text = formatter._get_help_string(action)
        assert "default" in text.lower() or action.required, f"{name}: {text!r}"
    help_text = run("simulate", "--help").stdout
    assert "(default: 1000)" in help_text and "(default: processes)" in help_text


# ---- progress ----------------------------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_build_step_shows_what_it_does_and_its_estimate(tmp_path):
    times = tmp_path / "build-times.json"
    terminal = _Terminal()
    progress = BuildProgress(terminal, times)
    assert progress.estimate("Cython", 188_130) == pytest.approx(6.6)  # no build yet
    with watching(progress), step("Cython", 10_000):
        time.sleep(0.3)
    shown = terminal.getvalue()
    assert "compiling: Cython" in shown and "of about" in shown
    rate = json.loads(times.read_text())["Cython"]
    assert 0.3 / 10_000 <= rate < 3 / 10_000  # the last build's rate makes the next estimate
    assert progress.estimate("Cython", 20_000) == pytest.approx(2 * rate * 10_000)
    piped = io.StringIO()
    with watching(BuildProgress(piped, times)), step("C compiler", 1000):
        pass
    assert piped.getvalue() == ""


def test_progress_on_a_terminal_and_nothing_when_piped(tmp_path):
    """A cold build of the tiny edition and its games: bars on a terminal, none in a pipe."""
    args = ("simulate", TINY, "--backend", "interpreted", "--players", "2", "--games", "200",
            "--workers", "1")
    env = {"BOARDRULES_CACHE": str(tmp_path / "cache")}
    main_fd, terminal_fd = pty.openpty()
    fcntl.ioctl(terminal_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    try:
        child = subprocess.Popen(command(*args), cwd=ROOT, env={**os.environ, **env},
                                 stdout=subprocess.DEVNULL, stderr=terminal_fd)
        os.close(terminal_fd)
        shown = b""
        while True:  # read as it comes: a full terminal would block the child
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:  # the other end is closed: all read
                break
            if not chunk:
                break
            shown += chunk
        assert child.wait(timeout=300) == 0
    finally:
        os.close(main_fd)
    text = shown.decode(errors="replace")
    assert "compiling: front end" in text
    assert "games:" in text and "game/s" in text and "/200 [" in text
    piped = run(*args, env=env)
    assert piped.returncode == 0 and piped.stderr == ""


@pytest.mark.parametrize("args,hint", [
    (["simulat", "x"], "did you mean 'simulate'?"),
    (["cov"], "did you mean 'coverage'?"),
    (["simulate", "disney_theme_park", "--gmes", "1"], "did you mean '--games'?"),
    (["simulate", "disney_theme_prk"], "did you mean 'disney_theme_park'?"),
    (["options", "disney_theme_park"], "did you mean 'describe EDITION --section options'?"),
])
def test_a_mistyped_command_option_or_edition_gets_a_suggestion(args, hint, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert hint in err and err.count("\n") == 1
