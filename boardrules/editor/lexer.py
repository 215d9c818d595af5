"""A Pygments lexer for `.rules` files, so that Sphinx, MkDocs or `pygmentize` colour
the language (registered as the `pygments.lexers` entry point `boardrules`, alias
`rules`, as the docs' code blocks are tagged).

Anything the language cannot hold (a stray `@`, an unterminated string) is an `Error`
token, so the tests can tell that every shipped file is covered.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Whitespace,
)

from .vocabulary import BUILTINS, CONSTANTS, DECLARATIONS, FUNCTIONS, TYPES, keywords

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
# declarations whose next word is the name they define, and how that name is coloured
_DEFINING = {
    "rule": Name.Function, "proc": Name.Function, "decision": Name.Function,
    "event": Name.Function, "deck": Name.Class, "enum": Name.Class, "group": Name.Class,
    "space": Name.Constant, "card": Name.Constant, "die": Name.Constant,
    "grid": Name.Constant, "param": Name.Variable, "option": Name.Variable,
    "counter": Name.Variable, "set": Name.Variable, "use": Name.Function,
    "assumption": Name.Label,
}


def _defining_rules() -> list:
    return [(rf"\b({word})(\s+)({_NAME})\b", bygroups(Keyword.Declaration, Whitespace, token))
            for word, token in _DEFINING.items()]


class BoardrulesLexer(RegexLexer):
    """The boardrules rules language (`.rules`): editions, libraries and scenarios."""

    name = "boardrules"
    aliases = ["boardrules", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-boardrules"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "string"),
            (r"\b(quote|assume)\b", Keyword.Pseudo),
            *_defining_rules(),
            (words(sorted(DECLARATIONS), prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(sorted(CONSTANTS), prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (words(sorted(keywords() - BUILTINS), prefix=r"\b", suffix=r"\b"), Keyword),
            (words(sorted(TYPES), prefix=r"\b", suffix=r"\b"), Keyword.Type),
            (words(sorted(FUNCTIONS), prefix=r"\b", suffix=r"\b(?=\s*\()"), Name.Builtin),
            (words(sorted(BUILTINS), prefix=r"\b", suffix=r"\b"), Name.Builtin.Pseudo),
            (r"[0-9]+", Number.Integer),
            (_NAME, Name),
            (r"->|==|!=|<=|>=|\+=|-=|\*=|[-+*/%<>=?]", Operator),
            (r"[{}()\[\],.:]", Punctuation),
        ],
        "string": [
            (r'[^"\\\n]+', String.Double),
            (r"\\.", String.Escape),
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop"),  # a string ends on its line: an unterminated one
        ],
    }
