"""The grammar's LALR parser, built once: what the parser and its syntax errors share."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark


@lru_cache(maxsize=1)
def lalr_parser() -> Lark:
    """The grammar's LALR parser, built once (its tables cached by Lark)."""
    grammar = resources.files("boardrules.grammar").joinpath("boardrules.lark").read_text()
    # cache=True: Lark keeps the LALR tables in a temporary file keyed by the grammar's hash
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                cache=True)
