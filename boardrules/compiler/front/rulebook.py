"""The edition's rulebook copy: loading it and finding quotes in it.

A quote must occur verbatim in the rulebook once runs of white space on both
sides are folded to one space. The harness's coverage report splits the same
text into sentences; both use `fold` so they agree on what matches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..common.files import read_text

_SPACE = re.compile(r"\s+")


def fold(text: str) -> str:
    """Fold every run of white space to a single space and trim the ends."""
    return _SPACE.sub(" ", text).strip()


@dataclass(frozen=True)
class Rulebook:
    path: Path
    text: str

    @cached_property
    def folded(self) -> str:  # folded once: every quote is looked up in it
        return fold(self.text)

    def contains(self, quote: str) -> bool:
        folded = fold(quote)
        return bool(folded) and folded in self.folded

    def lines_of(self, quote: str) -> list[int]:
        """The line of the rulebook copy where each occurrence of the quote starts (white
        space folded, as `contains` matches)."""
        words = fold(quote).split(" ")
        if not words or words == [""]:
            return []
        pattern = re.compile(r"\s+".join(re.escape(w) for w in words))
        return [self.text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(self.text)]

    def closest(self, quote: str) -> str:
        """The longest prefix of the quote that does occur, to show where it diverges."""
        folded = fold(quote)
        low, high = 0, len(folded)
        while low < high:
            mid = (low + high + 1) // 2
            if folded[:mid] in self.folded:
                low = mid
            else:
                high = mid - 1
        return folded[:low]


def load_rulebook(path: Path) -> Rulebook:
    return Rulebook(path, read_text(path))
