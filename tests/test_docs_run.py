"""The README and docs run as shown: their commands, their Python, and what they print.

What each kind of block promises (the tutorial and the language reference have their
own, stricter tests in test_docs.py, for every kind but `console`):

- a `console` block is a terminal: each `$ boardrules ...` line is run (in a temporary
  folder, holding the files of the `rules mistake FILE` blocks right before it, a file
  under `rulesets/EDITION/` in a copy of that bundled edition) and what it prints must
  be the lines that follow it, elisions allowed (tests/doc_blocks.py: `...` for lines
  left out, `<word>` for a hash or a path); a command that fails (exit status 1) shows
  its error, what it prints on stderr. A `$ python benchmarks/SCRIPT.py ...` line runs
  that script of the checkout from the checkout (skipped when the script says it needs
  what the machine lacks: the C reference, gcc);
- a `python` block runs as written (in a temporary folder); a `text` block right after
  it is what it prints;
- every `boardrules ...` line of an `sh` block is accepted by the command line's
  parser, so a renamed command or option fails here (a synopsis line, with `[`, `|`
  or a capitalized placeholder, is not a command).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import ROOT, Block, blocks, documents, files_for, output_matches, printed_by

from boardrules.cli import build_parser, main
from boardrules.runtime.loader import rulesets_dir

OWN_TESTS = {"docs/language.md", "docs/tutorial.md"}
SYNOPSIS = re.compile(r"[\[|]|\b[A-Z]{2,}\b")


def _all(kind: str) -> list[Block]:
    """The blocks of a kind; a `console` block of every page (the tutorial's and the
    language reference's own tests run none)."""
    return [b for doc in documents() if kind == "console" or doc not in OWN_TESTS
            for b in blocks(doc) if b.words[:1] == [kind]]


def terminal_steps(block: Block) -> list[tuple[list[str], str]]:
    """A console block's commands and the output shown after each."""
    steps: list[tuple[list[str], list[str]]] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            steps.append((shlex.split(line[2:]), []))
        else:
            assert steps, f"{block}: a console block starts with a `$ ` command"
            steps[-1][1].append(line)
    return [(argv, "\n".join(shown)) for argv, shown in steps]


def save_files(block: Block, folder: Path) -> None:
    """The files of the `rules mistake FILE` blocks before a console block, in `folder`;
    one under `rulesets/EDITION/` is written into a copy of that bundled edition."""
    for file in files_for(block):
        path = Path(file.words[2])
        assert not path.is_absolute() and ".." not in path.parts, f"{file}: a relative path"
        if path.parts[0] == "rulesets" and len(path.parts) > 2:
            edition = folder / "rulesets" / path.parts[1]
            if not edition.exists():
                shutil.copytree(rulesets_dir() / path.parts[1], edition)
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(file.body, encoding="utf-8")


def run_command(block: Block, argv: list[str], capsys) -> tuple[int, str, str]:
    """A console line's exit status, and what it prints on stdout and on stderr."""
    if argv[0] == "boardrules":
        capsys.readouterr()
        status = main(argv[1:])
        printed = capsys.readouterr()
        return status, printed.out, printed.err
    assert argv[0] == "python" and argv[1].startswith("benchmarks/"), (
        f"{block}: only boardrules commands and the benchmarks' scripts are run")
    run = subprocess.run([sys.executable, *argv[1:]], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    if run.returncode == 2 and run.stderr.startswith("boardrules: error: needs "):
        pytest.skip(f"{block}: {run.stderr.strip()}")
    return run.returncode, run.stdout, run.stderr


@pytest.mark.parametrize("block", _all("console"), ids=str)
def test_console_blocks_print_what_they_show(block, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    save_files(block, tmp_path)
    for argv, shown in terminal_steps(block):
        status, out, err = run_command(block, argv, capsys)
        failed = status == 1 and ": error: " in shown  # a mistake's diagnostic, shown
        assert status == 0 or failed, f"{block}: `{shlex.join(argv)}` exited {status}\n{err}"
        printed = err if failed else out
        assert output_matches(shown, printed), (
            f"{block}: `{shlex.join(argv)}` prints something else.\n"
            f"shown:\n{shown}\nprinted:\n{printed}")


GO_SCENARIO = 'scenario "passing GO pays the salary" for go_salary {\n'


@pytest.mark.parametrize("doc", ["README.md", "docs/verifying.md"])
def test_the_scenario_shown_is_disneys_as_in_its_file(doc):
    """The scenario the README and verifying.md show, whose failure verifying.md shows."""
    shown = next(b for b in blocks(doc) if b.body.startswith(GO_SCENARIO))
    go = rulesets_dir() / "disney_theme_park" / "scenarios" / "go.rules"
    assert output_matches(f"...\n{shown.body}...\n", go.read_text(encoding="utf-8")), (
        f"{shown}: not a scenario of {go}")


def test_a_failing_scenario_prints_what_verifying_shows(tmp_path, monkeypatch, capsys):
    """docs/verifying.md's failure: Disney's passing-GO scenario, GO set to pay 100."""
    shown = next(b for b in blocks("docs/verifying.md") if b.body.startswith("FAILED "))
    edition = tmp_path / "disney_theme_park"
    shutil.copytree(rulesets_dir() / "disney_theme_park", edition)
    rules = edition / "disney_theme_park.rules"
    text = rules.read_text(encoding="utf-8")
    assert text.count("\nset salary = 200\n") == 1
    rules.write_text(text.replace("\nset salary = 200\n", "\nset salary = 100\n"),
                     encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, printed, _ = run_command(shown, ["boardrules", "test", "disney_theme_park", "-k",
                                             "passing GO pays the salary", "--backend",
                                             "interpreted"], capsys)
    assert status == 1 and output_matches(shown.body + "...\n", printed), (
        f"{shown} shows something else.\nprinted:\n{printed}")


def _python_with_output() -> list[tuple[Block, str | None]]:
    pairs = []
    for doc in documents():
        if doc in OWN_TESTS:
            continue
        found = blocks(doc)
        for i, block in enumerate(found):
            if block.words == ["python"]:
                after = found[i + 1] if i + 1 < len(found) else None
                shown = after.body if after is not None and after.words == ["text"] else None
                pairs.append((block, shown))
    return pairs


@pytest.mark.parametrize("block,shown", _python_with_output(), ids=lambda v: str(v) if v else "")
def test_python_blocks_run(block, shown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    printed = printed_by(block)
    if shown is not None:
        assert output_matches(shown, printed), (
            f"{block} prints something else.\nshown:\n{shown}\nprinted:\n{printed}")


def _commands() -> list[tuple[Block, str]]:
    found = []
    for block in _all("sh"):
        for line in block.body.splitlines():
            command = line.split("#", 1)[0].strip()
            if command.startswith("boardrules ") and not SYNOPSIS.search(command):
                found.append((block, command))
    return found


@pytest.mark.parametrize("block,command", _commands(), ids=lambda v: str(v))
def test_shown_commands_parse(block, command):
    try:
        build_parser().parse_args(shlex.split(command)[1:])
    except SystemExit as exit:
        pytest.fail(f"{block}: `{command}` is not accepted (exit {exit.code})")


def test_examples_are_found():
    """Each kind is found, so that a change of the fence's syntax cannot empty the tests."""
    assert _all("console") and _python_with_output() and _commands()


def test_shown_output_elisions():
    shown = "total <n> games\n...\nend"
    assert output_matches(shown, "total 12 games\nend\n")
    assert output_matches(shown, "total 12 games\na\nb\nend")
    assert not output_matches(shown, "total 12 games\nend\nmore")
    assert not output_matches(shown, "total twelve games here\nend")
    assert not output_matches("a\nb", "a\nc")
