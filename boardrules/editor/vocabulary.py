"""The words of the rules language, grouped as an editor colours them.

Taken from the grammar and the compiler's tables rather than written out again, so a
keyword added to the grammar or a primitive added to the kernel reaches the lexer and
the language server's completion without a second edit (tests/editor check the TextMate
grammar, a static file, against the same lists).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from ..compiler.common.lang_types import ENTITY_TYPES
from ..compiler.front.primitives import DECK_FUNCTIONS, KERNEL_FUNCTIONS
from ..compiler.front.symbols import BUILTIN_VALUES, SCALAR_TYPES

# words that start a top-level declaration (and the `card`/`space` inside one)
DECLARATIONS = frozenset({
    "edition", "import", "param", "set", "enum", "field", "counter", "option", "group",
    "board", "space", "die", "deck", "card", "grid", "event", "decision", "proc", "rule",
    "use", "waive", "equivalent", "assumption", "game", "scenario", "fixture",
})
CONSTANTS = frozenset({"true", "false", "none"})
# quoted words of the grammar that are ordinary names wherever they are not expected
# (`grid map 8 x 8`, but `cell_at(x, y)`)
CONTEXTUAL = frozenset({"x"})
TYPES = frozenset({*SCALAR_TYPES, *ENTITY_TYPES})
FUNCTIONS = frozenset({*KERNEL_FUNCTIONS, *DECK_FUNCTIONS})
BUILTINS = frozenset(BUILTIN_VALUES)


@cache
def grammar_words() -> frozenset[str]:
    """Every word the grammar quotes as a literal terminal (`"rule"`, `"where"`), or
    matches as a keyword only before what may follow it (`_TO: /to\\b(?=...)/`)."""
    text = resources.files("boardrules.grammar").joinpath("boardrules.lark").read_text()
    text = re.sub(r"//[^\n]*", "", text)
    return frozenset(re.findall(r'"([A-Za-z_]+)"', text)) | frozenset(
        re.findall(r"^_[A-Z_]+(?:\.\d+)?: /([a-z_]+)", text, re.MULTILINE))


@cache
def keywords() -> frozenset[str]:
    """The grammar's words that are neither declarations, constants, types nor names."""
    return grammar_words() - DECLARATIONS - CONSTANTS - TYPES - CONTEXTUAL
