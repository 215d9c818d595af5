"""The docs match the code: every code block of docs/language.md and docs/tutorial.md.

Each block's info string says what it is (docs/language.md, at the top): `rules`,
`rules fragment` and `rules fragment EDITION` blocks of the reference are checked
as written there, and their quotes must occur in a bundled rulebook; a `rules mistake
FILE` block is a file the `console` block after it checks (tests/test_docs_run.py),
showing its diagnostic; `python` blocks must compile; `sh` and `text` are commands and
what they print.

The tutorial is followed step by step in a temporary folder: its rulebook is
saved, its `boardrules` commands run (in-process; `test` and `coverage` on the
interpreted backend only, to spare a C build: backend identity is tested
elsewhere; `compile` and `simulate` for real), the placeholders are deleted
before the first `rules` block, each `rules` block is added at the end (the
one that starts with `edition` replaces the header; a `rules scenarios/FILE` block
is that scenario file, written whole), every output it shows is
compared with what the command printed (elisions allowed: tests/doc_blocks.py),
down to 100% coverage, and its Python runs and prints what the page shows.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from functools import lru_cache
from pathlib import Path

import pytest
from doc_blocks import ROOT, Block, is_mistake, output_matches, printed_by
from doc_blocks import blocks as doc_blocks

from boardrules.cli import main
from boardrules.compiler.common.cache_folder import cache_root
from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.front import modules
from boardrules.compiler.front.rulebook import fold
from boardrules.compiler.library_check import check_library
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.coverage import coverage, format_table
from boardrules.harness.scaffold import PLACEHOLDERS, SENTENCES
from boardrules.harness.scenarios import run_edition
from boardrules.runtime.loader import rulesets_dir

DOCS = ROOT / "docs"
HEADER = re.compile(r'\A\s*edition\s+"[^"\n]*"\s*\{.*?\n\}[ \t]*\n', re.S)
ANY_HEADER = re.compile(r'^edition\s+"[^"\n]*"\s*\{.*?\n\}[ \t]*\n', re.S | re.M)
SCENARIO_FILE = re.compile(r"scenarios/\w+\.rules\Z")  # a tutorial block that is one
QUOTED = re.compile(r'\b(?:quote|waive)\s+("(?:[^"\\\n]|\\.)*")')
TUTORIAL_RULEBOOK = "tiny_town_rulebook.txt"


def blocks(doc: str) -> tuple[Block, ...]:
    return doc_blocks(f"docs/{doc}")


@lru_cache(maxsize=1)
def rulebooks() -> tuple[str, ...]:
    """Every bundled rulebook and the tutorial's, white space folded."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(rulesets_dir().glob("*/rulebook.txt"))]
    texts.append((DOCS / TUTORIAL_RULEBOOK).read_text(encoding="utf-8"))
    return tuple(fold(text) for text in texts)


@pytest.fixture(scope="module", autouse=True)
def parse_each_library_once():
    """The libraries are parsed once for all the examples (parsing is a pure function)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(modules, "parse", lru_cache(maxsize=None)(modules.parse))
        yield


# ---- every block says what it is ------------------------------------------------------------
@pytest.mark.parametrize("doc", ["language.md", "tutorial.md"])
def test_every_code_block_says_what_it_is(doc):
    editions = {p.name for p in rulesets_dir().iterdir() if (p / f"{p.name}.rules").is_file()}
    allowed = {"language.md": [["rules"], ["rules", "fragment"], ["text"], ["sh"], ["python"],
                               ["console"]],
               "tutorial.md": [["rules"], ["rules", "skeleton"], ["text"],
                               ["text", TUTORIAL_RULEBOOK], ["sh"], ["python"]]}[doc]
    assert blocks(doc), f"no code blocks found in {doc}"
    for block in blocks(doc):
        words = block.words
        fragment_of_edition = (doc == "language.md" and words[:2] == ["rules", "fragment"]
                               and len(words) == 3 and words[2] in editions)
        scenario_file = (doc == "tutorial.md" and words[:1] == ["rules"] and len(words) == 2
                         and SCENARIO_FILE.match(words[1]))
        mistake = doc == "language.md" and is_mistake(block)
        assert words in allowed or fragment_of_edition or scenario_file or mistake, (
            f"{block}: a code block's info string is one of {allowed} (or `rules fragment "
            f"EDITION` or `rules mistake FILE` in language.md, `rules scenarios/FILE.rules` "
            f"in the tutorial), not {block.info!r}")


# ---- the reference's examples -----------------------------------------------------------------
LANGUAGE_RULES = [b for b in blocks("language.md")
                  if b.words[:1] == ["rules"] and not is_mistake(b)]


@pytest.mark.parametrize("block", LANGUAGE_RULES, ids=str)
def test_language_example_checks(block, tmp_path):
    try:
        check_example(block, tmp_path)
    except CompileError as error:
        pytest.fail(f"{block}: the example does not check:\n{error.render()}")
    for literal in QUOTED.findall(block.body):
        quote = fold(json.loads(literal))
        assert any(quote in book for book in rulebooks()), (
            f"{block}: {quote!r} is in no bundled rulebook")


def test_each_mistake_is_checked_by_the_console_block_after_it():
    """A `rules mistake FILE` block (or a run of them) is followed by the console block that
    checks it, so that its diagnostic is what the compiler prints."""
    found = blocks("language.md")
    mistakes = [i for i, block in enumerate(found) if is_mistake(block)]
    assert mistakes, "no `rules mistake FILE` block in language.md"
    for i in mistakes:
        after = next((b for b in found[i + 1:] if not is_mistake(b)), None)
        assert after and after.words == ["console"], f"{found[i]}: no console block checks it"
        assert "$ boardrules check " in after.body, f"{after}: it does not check the file"


def check_example(block: Block, tmp_path: Path) -> None:
    words = block.words
    if len(words) == 3:  # added to a copy of a bundled edition
        folder = tmp_path / words[2]
        shutil.copytree(rulesets_dir() / words[2], folder)
        edition = folder / f"{words[2]}.rules"
        text, body = edition.read_text(encoding="utf-8"), block.body
        header = HEADER.match(body)
        if header:
            text = ANY_HEADER.sub(lambda _: header.group(0).lstrip(), text, count=1)
            body = body[header.end():]
        edition.write_text(f"{text}\n{body}", encoding="utf-8")
        compile_rules(edition, until="lint")
        return
    assert not HEADER.match(block.body), f"{block}: a whole edition needs `rules fragment ED`"
    library = tmp_path / "examples" / "example.rules"
    library.parent.mkdir()
    prefix = "import classic\n\n" if words[1:] == ["fragment"] else ""
    library.write_text(prefix + block.body, encoding="utf-8")
    check_library(library, until="lint")


@pytest.mark.parametrize("doc", ["language.md", "tutorial.md"])
def test_python_examples_compile(doc):
    for block in blocks(doc):
        if block.words == ["python"]:
            compile(block.body, str(block), "exec")


# ---- the tutorial, followed -------------------------------------------------------------------
class Tutorial:
    """The tutorial's edition as a reader builds it, and what its commands print."""

    def __init__(self, folder: Path, capsys):
        self.folder = folder
        self.capsys = capsys
        self.placeholders_deleted = False
        self.runs: dict[str, tuple] = {}  # rules text -> (compilation, outcomes)
        self.percent = 0.0

    @property
    def edition(self) -> Path:
        return self.folder / "tiny_town" / "tiny_town.rules"

    def run(self, args: list[str]) -> str | None:
        """What `boardrules ARGS` prints (None for the commands not run here)."""
        command = args[0]
        if command == "check":  # compiled once for check, test and coverage alike
            compilation = self.scenarios(args[1])[0]
            assert not compilation.warnings, [w.render() for w in compilation.warnings]
            return check_line(args[1], compilation.program)
        if command == "new":
            self.capsys.readouterr()
            assert main(args) == 0, self.capsys.readouterr().err
            return self.capsys.readouterr().out
        if command == "test":
            _, outcomes = self.scenarios(args[1])
            assert all(o.passed for o in outcomes), [o.message for o in outcomes if not o.passed]
            return (f"{2 * len(outcomes)} passed, 0 failed "
                    f"({len(outcomes)} scenarios x 2 backend(s))\n")
        if command == "coverage":
            report = coverage(*self.scenarios(args[1]))
            self.percent = report.percent_done()
            return format_table(report) + "\n"
        assert command in ("compile", "simulate"), f"the tutorial runs {command}: follow it here"
        self.capsys.readouterr()
        assert main(args) == 0, self.capsys.readouterr().err
        return self.capsys.readouterr().out.replace(str(cache_root()), "~/.cache/boardrules")

    def run_python(self, block: Block) -> str:
        """What the tutorial's Python prints, run in the reader's folder."""
        return printed_by(block)

    def scenarios(self, name: str):
        text = "\0".join(p.read_text(encoding="utf-8") for p in
                         [self.edition, *sorted(self.edition.parent.glob("*/*.rules"))])
        if text not in self.runs:
            self.runs[text] = run_edition(name, ("interpreted",))
        return self.runs[text]

    def add(self, block: Block) -> None:
        if len(block.words) == 2:  # a scenario file beside the rules, whole
            (self.edition.parent / block.words[1]).write_text(block.body, encoding="utf-8")
            return
        text = self.edition.read_text(encoding="utf-8")
        if not self.placeholders_deleted:  # "Now delete the placeholders"
            start, end = text.index(PLACEHOLDERS), text.index(SENTENCES)
            text = text[:start] + text[end:]
            self.placeholders_deleted = True
        header = HEADER.match(block.body)
        if header:
            assert header.end() == len(block.body), f"{block}: a header block is only the header"
            text = ANY_HEADER.sub(lambda _: block.body.lstrip(), text, count=1)
        else:
            text = f"{text.rstrip()}\n\n{block.body}"
        self.edition.write_text(text, encoding="utf-8")


def check_line(name: str, program, warnings: int = 0) -> str:
    """What `boardrules check NAME` prints last for a program."""
    return (f"{name}: ok: {len(program.rules)} rules, {len(program.space_ids)} spaces, "
            f"{len(program.card_ids)} cards, {len(program.decisions)} decisions, "
            f"{warnings} warning(s)\n")


def test_check_line_is_what_check_prints(capsys):
    tiny = Path(__file__).resolve().parent / "fixtures" / "tiny" / "tiny.rules"
    assert main(["check", str(tiny)]) == 0
    compilation = compile_rules(tiny)
    assert capsys.readouterr().out == check_line(str(tiny), compilation.program,
                                                 len(compilation.warnings))


def test_the_tutorial_reaches_full_coverage(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    tutorial = Tutorial(tmp_path, capsys)
    shown: list[str] = []  # each command's output, until the block that shows it
    seen = set()
    for block in blocks("tutorial.md"):
        words = block.words
        if words == ["text", TUTORIAL_RULEBOOK]:
            assert block.body == (DOCS / TUTORIAL_RULEBOOK).read_text(encoding="utf-8")
            (tmp_path / TUTORIAL_RULEBOOK).write_text(block.body, encoding="utf-8")
        elif words == ["sh"]:
            shown = [out for line in block.body.splitlines() if line.startswith("boardrules ")
                     for out in [tutorial.run(shlex.split(line)[1:])]]
        elif words == ["python"]:
            shown = [tutorial.run_python(block)]
            seen.add("python")
        elif words == ["text"] and shown:
            assert output_matches(block.body, shown[0]), (
                f"{block}: the tutorial shows something else than what is printed:\n{shown[0]}")
            shown = shown[1:]
            seen.add("output")
        elif words == ["text"] and "error: quote does not occur" in block.body:
            check_misquote_example(block, tutorial)
            seen.add("misquote")
        elif words == ["text"] and block.body.startswith("FAILED "):
            check_failure_example(block, tutorial)
            seen.add("failure")
        elif words == ["rules", "skeleton"]:
            check_skeleton_excerpt(block, tutorial.edition.read_text(encoding="utf-8"))
            seen.add("skeleton")
        elif words[:1] == ["rules"]:
            tutorial.add(block)
    assert seen == {"output", "misquote", "failure", "skeleton", "python"}
    assert tutorial.percent == 100.0


def test_the_error_codes_page_shows_the_tutorials_misquote():
    """docs/errors.md's example is the tutorial's misquote, which the tutorial's test compares
    with what the compiler prints."""
    shown = next(b for b in doc_blocks("docs/errors.md") if b.words == ["text"])
    misquote = [b for b in blocks("tutorial.md")
                if b.words == ["text"] and "error: quote does not occur" in b.body]
    assert [shown.body] == [b.body for b in misquote], f"{shown}: not the tutorial's misquote"


def check_skeleton_excerpt(block: Block, skeleton: str) -> None:
    """The excerpt's lines occur in the skeleton, in order (`...` stands for lines left out)."""
    lines = skeleton.splitlines()
    at = 0
    for line in block.body.splitlines():
        if line.strip() == "...":
            continue
        assert line in lines[at:], f"{block}: {line!r} is not in the skeleton (in that order)"
        at = lines.index(line, at) + 1


def check_misquote_example(block: Block, tutorial: Tutorial) -> None:
    """The misquote shown is what check prints when the sentence's quote is mistyped."""
    location = re.match(r"(\S+?):(\d+):\d+: error", block.body)
    assert location and location.group(1) == "tiny_town/tiny_town.rules", block
    number = int(location.group(2))
    lines = tutorial.edition.read_text(encoding="utf-8").splitlines(keepends=True)
    assert "500 coins" in lines[number - 1], f"{block}: line {number} is {lines[number - 1]!r}"
    broken = tutorial.folder / "broken" / "tiny_town"
    shutil.copytree(tutorial.edition.parent, broken)
    lines[number - 1] = lines[number - 1].replace("500 coins", "50 coins")
    (broken / "tiny_town.rules").write_text("".join(lines), encoding="utf-8")
    with pytest.raises(CompileError) as info:
        compile_rules(Path("broken/tiny_town/tiny_town.rules"), until="check")
    assert info.value.render().replace("broken/", "") + "\n" == block.body


def check_failure_example(block: Block, tutorial: Tutorial) -> None:
    """The failure shown names the scenario's file (in its test id too), the scenario's
    line and the expectation's."""
    found = re.search(r'scenario "([^"]+)" \((scenarios/(\w+)\.rules):(\d+),', block.body)
    expectation = re.search(r"expectation failed \(line (\d+)\): (.+)", block.body)
    assert found and expectation, block
    title, path, name, line = found.groups()
    assert block.body.startswith(f"FAILED tiny_town::scenarios/{name}::"), block
    lines = (tutorial.edition.parent / path).read_text(encoding="utf-8").splitlines()
    assert lines[int(line) - 1].startswith(f'scenario "{title}"'), block
    wrong = expectation.group(2).replace("470", "475")
    assert lines[int(expectation.group(1)) - 1].strip() == f"expect {wrong}", block
