"""The README's two commands come first, and .ci/run runs the second one exactly."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return [block.strip() for block in blocks[:2]]


def test_the_first_two_code_blocks_are_single_line_commands():
    install_and_run, test = readme_commands()
    assert "\n" not in install_and_run and "\n" not in test
    assert "boardrules simulate disney_theme_park" in install_and_run
    assert test.endswith("pytest")


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == readme_commands()[1]
