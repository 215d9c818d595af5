"""The shipped rules files the editor tests run over: every edition, library module and
scenario or conformance file under rulesets/, and the docs' `rules` code blocks."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_FILES = sorted((ROOT / "rulesets").rglob("*.rules"))
EDITIONS = sorted(p for p in RULES_FILES if p.parent.name == p.stem)


def doc_blocks() -> list[tuple[str, str]]:
    """(where, text) of every code block of docs/ and the README tagged `rules`, but the
    examples of a mistake (`rules mistake FILE`), which may not lex."""
    blocks = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(r"^( *)```rules(?! mistake )[^\n]*\n(.*?)^\1```", text,
                                 re.M | re.S):
            line = text.count("\n", 0, match.start()) + 1
            body = "".join(row.removeprefix(match.group(1))
                           for row in match.group(2).splitlines(keepends=True))
            blocks.append((f"{doc.name}:{line}", body))
    return blocks
