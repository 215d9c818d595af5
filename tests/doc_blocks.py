"""The fenced code blocks of the README and docs/, and how a shown output is compared.

A shown output may leave things out: a line `...` stands for any number of lines
(none included), and a `<word>` in angle brackets for any text without spaces (a
hash, a path, a figure of the machine's speed). Trailing spaces are ignored.
"""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                   re.M | re.S)
PLACEHOLDER = re.compile(r"<[a-z][a-z0-9_ -]*>")
ELISION = "..."


@dataclass(frozen=True)
class Block:
    doc: str  # the document's path from the checkout's root
    line: int
    info: str
    body: str

    @property
    def words(self) -> list[str]:
        return self.info.split()

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}"


@cache
def blocks(doc: str) -> tuple[Block, ...]:
    """The fenced code blocks of a document, in order, un-indented (blocks inside list items)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        indent = len(match.group("indent"))
        body = "".join(_unindented(line, indent)
                       for line in match.group("body").splitlines(keepends=True))
        found.append(Block(doc, text.count("\n", 0, match.start()) + 1,
                           match.group("info").strip(), body))
    return tuple(found)


def _unindented(line: str, indent: int) -> str:
    """A line of a block indented in a list item, without the item's indent (a blank line
    stays a line: it counts in a file's line numbers)."""
    if line[:indent].isspace() and len(line) > indent:
        return line[indent:]
    return line.lstrip(" \t") if not line.strip() else line


def is_mistake(block: Block) -> bool:
    """A `rules mistake FILE` block: a file with a mistake, which the console block after
    it checks to show the diagnostic (docs/language.md, at the top)."""
    return block.words[:2] == ["rules", "mistake"] and len(block.words) == 3


def files_for(block: Block) -> list[Block]:
    """The `rules mistake FILE` blocks right before a block: the files its commands read."""
    found = blocks(block.doc)
    at = found.index(block)
    start = at
    while start > 0 and is_mistake(found[start - 1]):
        start -= 1
    return list(found[start:at])


def documents() -> list[str]:
    """The README and every page of docs/."""
    return ["README.md"] + [f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md"))]


def _line_pattern(line: str) -> re.Pattern:
    parts = PLACEHOLDER.split(line.rstrip())
    return re.compile(r"\S+".join(re.escape(part) for part in parts) + r"\Z")


def output_matches(shown: str, printed: str) -> bool:
    """Whether what a command printed is what the document shows, elisions allowed."""
    expected = shown.rstrip("\n").splitlines()
    actual = [line.rstrip() for line in printed.rstrip("\n").splitlines()]

    @cache
    def match(i: int, j: int) -> bool:
        if i == len(expected):
            return j == len(actual)
        if expected[i].strip() == ELISION:
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return (j < len(actual) and bool(_line_pattern(expected[i]).match(actual[j]))
                and match(i + 1, j + 1))

    return match(0, 0)


def printed_by(block: Block) -> str:
    """What a `python` block prints when run as written (in the current folder)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.body, str(block), "exec"), {"__name__": "__doc_example__"})
    return printed.getvalue()
