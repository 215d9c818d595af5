"""Split a rulebook into sections and sentences.

The title, a table of contents and headings are structure, not rules. Every
other line is prose: list items ("•", "1.") and the sentences of a paragraph
each count as one sentence. Each sentence keeps its place in the rulebook's
white-space-folded text, which is where quotes are matched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..compiler.front.rulebook import fold

_LIST_ITEM = re.compile(r"^\s*(?:•|\d+\.)\s+")
# A sentence ends at . ! or ? (perhaps closed by a quote or bracket) before white
# space and a capital, a digit, a quote or a bracket.
_BOUNDARY = re.compile(r"[.!?][\"”)]*\s+(?=[A-Z0-9\"“(•])")
_ABBREVIATION = re.compile(r"(?:\b(?:[A-Za-z]\.){2,}|\b(?:Mr|Mrs|Dr|St|vs|etc|e\.g|i\.e)\.)$")
_HEADING_WORDS = 9


@dataclass(frozen=True)
class Sentence:
    section: str
    text: str
    start: int  # offset in the folded rulebook text
    end: int


def is_heading(line: str, before_blank: bool, after_blank: bool) -> bool:
    """A short line alone between blank lines, at the margin: an indented one belongs to
    the list item above it (a total under a list of banknotes is not a section)."""
    stripped = line.strip()
    if not stripped or _LIST_ITEM.match(line) or not (before_blank and after_blank):
        return False
    if line[:1].isspace():
        return False
    if stripped.endswith((".", ":", ";", ",")):
        return False
    return len(stripped.split()) <= _HEADING_WORDS


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of one paragraph, not splitting after abbreviations such as U.S.A."""
    parts: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(paragraph):
        candidate = paragraph[start:match.start() + 1]
        if _ABBREVIATION.search(candidate):
            continue
        end = match.end() - len(match.group(0)) + len(match.group(0).rstrip())
        parts.append(paragraph[start:end].strip())
        start = match.end()
    tail = paragraph[start:].strip()
    if tail:
        parts.append(tail)
    return [p for p in parts if p]


def rulebook_sentences(text: str) -> tuple[list[str], list[Sentence]]:
    """(headings in order, sentences with their section and folded offsets)."""
    lines = text.splitlines()
    folded = fold(text)
    headings: list[str] = []
    sentences: list[Sentence] = []
    section = ""
    in_contents = False
    cursor = 0
    paragraph: list[str] = []

    def flush() -> None:
        nonlocal cursor
        if not paragraph:
            return
        for sentence in split_sentences(fold(" ".join(paragraph))):
            start = folded.find(sentence, cursor)
            if start < 0:  # cannot happen for text taken from the rulebook itself
                raise ValueError(f"sentence not found in the rulebook: {sentence!r}")
            cursor = start + len(sentence)
            sentences.append(Sentence(section, sentence, start, cursor))
        paragraph.clear()

    for i, line in enumerate(lines):
        stripped = line.strip()
        before = i == 0 or not lines[i - 1].strip()
        after = i + 1 == len(lines) or not lines[i + 1].strip()
        if not stripped:
            flush()
            continue
        if stripped == "Table of Contents":
            flush()
            in_contents = True
            headings.append(stripped)
            cursor = max(cursor, folded.find(stripped, cursor) + len(stripped))
            continue
        if in_contents and stripped.startswith("•"):
            cursor = max(cursor, folded.find(stripped, cursor) + len(stripped))
            continue
        if is_heading(line, before, after) or not sentences and not paragraph and i < 3:
            flush()
            in_contents = False
            section = stripped
            headings.append(stripped)
            cursor = max(cursor, folded.find(stripped, cursor) + len(stripped))
            continue
        in_contents = False
        if _LIST_ITEM.match(line):
            flush()
            paragraph.append(_LIST_ITEM.sub("", line).strip())
            flush()
        else:
            paragraph.append(stripped)
    flush()
    return headings, sentences
