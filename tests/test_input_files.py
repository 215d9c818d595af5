"""Files the commands read: only regular files of at most 16 MiB (a device or a FIFO
named as a rulebook once read for ever or blocked); library modules inside their
folders; control characters in rules text escaped on the terminal."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boardrules.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def big(tmp_path) -> Path:
    """A sparse file of 17 MiB."""
    path = tmp_path / "big.txt"
    with path.open("wb") as handle:
        handle.truncate(17 * 1024 * 1024)
    return path


def test_new_reads_a_regular_rulebook_of_a_stated_size_only(tmp_path, big):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for source, reason in ((fifo, "not a regular file"), (big, "larger than 16 MiB"),
                           (Path("/dev/zero"), "not a regular file")):
        result = run("new", "x", "--rulebook", str(source), "--dir", str(tmp_path))
        assert result.returncode == 2 and reason in result.stderr, result.stderr
        assert not (tmp_path / "x").exists()


def test_a_rules_file_over_the_size_is_a_located_error(tmp_path, big):
    rules = tmp_path / "huge.rules"
    big.rename(rules)
    result = run("check", str(rules))
    assert result.returncode == 1
    assert result.stderr.startswith(f"{rules}:") and "larger than 16 MiB" in result.stderr


def test_a_library_link_out_of_its_folder_is_not_read(tmp_path):
    """A library module that links to a file elsewhere (here a secret whose first line a
    syntax error would print) is not a library of that folder."""
    shutil.copytree(FIXTURES / "tiny", tmp_path / "rules" / "tiny")
    shutil.copytree(FIXTURES / "lib", tmp_path / "rules" / "lib")
    secret = tmp_path / "secret.txt"
    secret.write_text("root:$6$s3cr3t-hash:19000:0:99999:7:::\n")
    (tmp_path / "rules" / "lib" / "secrets.rules").symlink_to(secret)
    rules = tmp_path / "rules" / "tiny" / "tiny.rules"
    rules.write_text(rules.read_text().replace("import tinylib", "import tinylib, secrets"))
    result = run("check", str(rules))
    assert result.returncode == 1 and "no library named 'secrets'" in result.stderr
    assert "s3cr3t" not in result.stderr + result.stdout


UNSAFE = ("\x1b", "\u202e", "\x07")


def test_control_characters_reach_no_terminal_raw(tmp_path):
    """ESC (colour and cursor sequences), a bidi override and BEL in rules strings: escaped
    in simulate's table and in a diagnostic's message and source line."""
    shutil.copytree(FIXTURES / "tiny", tmp_path / "rules" / "tiny")
    shutil.copytree(FIXTURES / "lib", tmp_path / "rules" / "lib")
    rules = tmp_path / "rules" / "tiny" / "tiny.rules"
    text = rules.read_text()
    named = text.replace('space a "A" plain', 'space a "A\\u001b[2J\\u202e\\u0007" plain')
    assert named != text
    rules.write_text(named)
    played = run("simulate", str(rules), "--games", "20", "--workers", "1")
    assert played.returncode == 0, played.stderr
    assert "A\\x1b[2J\\u202e\\x07" in played.stdout
    assert not any(ch in played.stdout + played.stderr for ch in UNSAFE)
    compared = run("compare", str(rules), "--games", "20", "--workers", "1", "--option", "",
                   "--option", "")
    assert compared.returncode == 0, compared.stderr
    assert not any(ch in compared.stdout + compared.stderr for ch in UNSAFE)
    rules.write_text(text + '\nset oops = "\x1b[31m\u202e\x07" +\n')  # raw, in the file
    checked = run("check", str(rules))
    assert checked.returncode == 1 and "error" in checked.stderr
    assert not any(ch in checked.stdout + checked.stderr for ch in UNSAFE), checked.stderr
