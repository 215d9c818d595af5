"""Golden error tests, in the style of Cython's tests/errors.

Each folder `cases/NAME/` is a small edition `NAME.rules` (with its `rulebook.txt`) that
makes exactly one mistake, described on its first line. `expected.txt` holds what the
compiler prints for it: `file:line:col: error: message`, the source line, a caret under
the span and a hint. Paths are written relative to `cases/`, so the goldens do not depend
on where the repository is. Libraries are imported from `cases/lib/`, a small library of
the tests' own (plus broken ones for the library cases).

`fix.json` says how to repair the mistake (`old` text replaced by `new`, in `file` or the
case's own rules file); the repaired edition must compile, which shows that the case
tests that one mistake and nothing else.

To regenerate the goldens after a deliberate change of a message, run

    BOARDRULES_REGEN=1 pytest tests/errors

and review the diff of every `expected.txt` before committing it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.front.parser import parse
from boardrules.compiler.pipeline import compile_rules

CASES = Path(__file__).resolve().parent / "cases"
NAMES = sorted(d.name for d in CASES.iterdir() if (d / f"{d.name}.rules").is_file())
REGEN = os.environ.get("BOARDRULES_REGEN") == "1"
# The first line of each diagnostic: relative path, 1-based line and column, severity.
HEADER = re.compile(r"^(?P<path>[\w./-]+\.rules)(?::(?P<line>\d+):(?P<column>\d+))?: error: \S")


def relative(text: str, root: Path) -> str:
    """Paths as written in the goldens: relative to the cases folder."""
    return text.replace(f"{root}{os.sep}", "")


def compile_error(path: Path) -> CompileError:
    try:
        compile_rules(path, until="check")
    except CompileError as error:
        return error
    pytest.fail(f"{path.name} compiled without an error")


def test_there_are_enough_cases():
    assert len(NAMES) >= 16


@pytest.mark.parametrize("name", NAMES)
def test_error_matches_golden(name):
    error = compile_error(CASES / name / f"{name}.rules")
    rendered = relative(error.render(), CASES) + "\n"
    golden = CASES / name / "expected.txt"
    if REGEN:
        golden.write_text(rendered, encoding="utf-8")
    assert golden.is_file(), f"no golden: run BOARDRULES_REGEN=1 pytest {__file__}"
    assert rendered == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_the_fix_makes_a_valid_edition(name, tmp_path):
    """Apart from its one mistake, every case is a valid edition."""
    root = tmp_path / "cases"
    shutil.copytree(CASES / name, root / name)
    shutil.copytree(CASES / "lib", root / "lib")
    fix = json.loads((CASES / name / "fix.json").read_text(encoding="utf-8"))
    target = root / fix.get("file", f"{name}/{name}.rules")
    text = target.read_text(encoding="utf-8")
    assert text.count(fix["old"]) == 1, f"fix.json: {fix['old']!r} is not unique"
    target.write_text(text.replace(fix["old"], fix["new"]), encoding="utf-8")
    try:
        compile_rules(root / name / f"{name}.rules", until="check")
    except CompileError as error:
        pytest.fail("the fixed case still fails:\n" + relative(error.render(), root))


@pytest.mark.parametrize("name", NAMES)
def test_diagnostics_are_well_formed(name):
    """Position, source line, caret and hint: never a traceback or a parser's internals."""
    error = compile_error(CASES / name / f"{name}.rules")
    text = relative(error.render(), CASES)
    assert "Traceback" not in text
    assert not re.search(r"lark|Unexpected(Token|Characters|EOF)|\$END|__ANON", text)
    assert text.startswith(name + "/") or text.startswith("lib/")
    for diagnostic in error.diagnostics:
        block = relative(diagnostic.render(), CASES).split("\n")
        header = HEADER.match(block[0])
        assert header, block[0]
        assert diagnostic.message and not diagnostic.message[0].isupper(), diagnostic.message
        span = diagnostic.span
        if span.line == 0:  # about the whole file: no source line to show
            continue
        assert span.column >= 1, f"caret at column {span.column}"
        source = Path(span.path).read_text(encoding="utf-8").splitlines()[span.line - 1]
        assert block[1] == f"    {source}"
        caret = block[2][4:]
        assert caret.strip("^").strip() == "" and caret.index("^") == span.column - 1
        if diagnostic.hint:
            assert block[3] == relative(f"  hint: {diagnostic.hint}", CASES)


# ---- odd inputs: a CompileError with a position, never a Python exception ------------------

EDITION = """edition "Odd" {
  rulebook "rulebook.txt"
}
enum kind { start }
board {
  space go "GO" start
}
rule turn {
  on turn(p: player) {
    move(p, 1)
  }
}
"""

ODD_INPUTS = {
    "empty file": b"",
    "only a comment": b"# nothing here\n",
    "byte-order mark and a mistake": ("\ufeff" + EDITION + "param x int\n").encode(),
    "windows line ends": (EDITION + "param x int\n").replace("\n", "\r\n").encode(),
    "tab before the mistake": (EDITION + 'proc f() {\n\tlet x = 1 + "a"\n}\n').encode(),
    "non-ascii name": (EDITION + "param d\u00e9part: int = 1\n").encode(),
    "curly quotes": (EDITION + "proc f() { log(\u201chi\u201d) }\n").encode(),
    "nul byte": (EDITION + "param x: int = 1\x00\n").encode(),
    "bad escape": (EDITION + 'proc f() { log("a\\qb") }\n').encode(),
    "broken unicode escape": (EDITION + 'proc f() { log("\\u12") }\n').encode(),
    "string at end of file": (EDITION + 'param x: str = "abc').encode(),
    "keyword at end of file": (EDITION + "param").encode(),
    "stray closing brace": (EDITION + "}\n").encode(),
    "huge number": (EDITION + "param x: int = 99999999999999999999999\n").encode(),
    "huge die": (EDITION + "die d faces 1 to 2000000000\n").encode(),
    "huge grid": (EDITION + "grid g 99999999999 x 2\n").encode(),
    "huge list field": (EDITION + "field space.rent: int[2000000000]\n").encode(),
    "huge number of copies": (EDITION + 'deck d(p: player) "D" { card c "C" copies 2000000000 }\n'
                              ).encode(),
    "no copies": (EDITION + 'deck d(p: player) "D" { card c "C" copies 0 }\n').encode(),
    "deeply nested parentheses": (EDITION + "param x: int = " + "(" * 2000 + "1"
                                  + ")" * 1999 + "\n").encode(),
    "not utf-8": EDITION.encode() + b"# caf\xe9\n",
}
DEEP_BLOCKS = EDITION + "proc f() {" + " if true {" * 1500 + "}" * 1501 + "\n"
FORMER_CRASHES = {
    "deep expression": (
        (EDITION + "param x: int = " + "1 + " * 3000 + "1\n").encode(), None, None,
        "checker.py: Checker.expr recurses once per operation (RecursionError)",
    ),
    "deeply nested blocks": (
        DEEP_BLOCKS.encode(), None, None,
        "checker.py: Checker.block/stmt recurse once per nested block (RecursionError)",
    ),
    "library not utf-8": (
        (EDITION + "import latin\n").encode(), b"param caf\xe9: int = 1\n", None,
        "modules.py: _load_imports reads a library without catching UnicodeDecodeError",
    ),
    "rulebook not utf-8": (
        EDITION.encode(), None, b"caf\xe9\n",
        "rulebook.py/quotes.py: load_rulebook's UnicodeDecodeError is not caught",
    ),
}


def write_edition(root: Path, edition: bytes, library: bytes | None = None,
                  rulebook: bytes | None = None) -> Path:
    (root / "odd").mkdir(parents=True)
    (root / "lib").mkdir()
    path = root / "odd" / "odd.rules"
    path.write_bytes(edition)
    (root / "odd" / "rulebook.txt").write_bytes(rulebook or b"The rules.\n")
    if library is not None:
        (root / "lib" / "latin.rules").write_bytes(library)
    return path


def assert_clean_error(path: Path, root: Path) -> None:
    try:
        compile_rules(path, until="check")
    except CompileError as error:
        text = relative(error.render(), root)
        assert "Traceback" not in text and "lark" not in text
        for diagnostic in error.diagnostics:
            assert HEADER.match(relative(diagnostic.render(), root).split("\n")[0])
        assert text.startswith("odd/odd.rules") or text.startswith("lib/")


@pytest.mark.parametrize("name", ODD_INPUTS)
def test_odd_input_gives_a_compile_error(name, tmp_path):
    path = write_edition(tmp_path, ODD_INPUTS[name])
    assert_clean_error(path, tmp_path)


@pytest.mark.parametrize("name", FORMER_CRASHES)
def test_former_crash_is_a_compile_error(name, tmp_path):
    edition, library, rulebook, _what_crashed = FORMER_CRASHES[name]
    path = write_edition(tmp_path, edition, library, rulebook)
    assert_clean_error(path, tmp_path)


def test_columns_count_characters_and_tabs_are_kept(tmp_path):
    """The caret lines up under the mistake after a tab and after non-ASCII letters."""
    source = EDITION + 'proc f() {\n\tlog("\u00e9t\u00e9") let x = 1 + "a"\n}\n'
    path = write_edition(tmp_path, source.encode())
    error = compile_error(path)
    block = error.diagnostics[0].render().split("\n")
    assert block[1] == '    \tlog("\u00e9t\u00e9") let x = 1 + "a"'
    assert block[2] == "    \t" + " " * 23 + "^^^"


def test_parser_takes_deep_nesting():
    module = parse(DEEP_BLOCKS, "deep.rules")
    assert [type(d).__name__ for d in module.decls][-1] == "ProcDecl"


def test_byte_order_mark_is_ignored(tmp_path):
    path = write_edition(tmp_path, ("\ufeff" + EDITION + "param x int\n").encode())
    text = relative(compile_error(path).render(), tmp_path)
    assert text.startswith("odd/odd.rules:13:9: error: unexpected 'int'")
