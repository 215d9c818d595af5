"""Syntax errors in words: what the parser expected, said the way a rules author thinks
("a statement", "'}' to close the block opened at line 3"), with hints for common slips."""

from __future__ import annotations

import re

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..common.diagnostics import Diagnostic, Span, did_you_mean, error_at, source_lines
from ..common.error_codes import ErrorCode
from .lalr import lalr_parser

# Friendlier names for the terminals a parser may say it expected.
_TERMINAL_NAMES = {
    "NAME": "a name",
    "STRING": 'a "string"',
    "INT": "a number",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
    "DOT": "'.'",
    "ASSIGN_OP": "'='",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+'",
    "MUL_OP": "'*'",
    "MINUS": "'-'",
    "OPTIONAL": "'?'",
    "__ANON_0": "'->'",
    "_TO": "'to'",
    "_RANDOM_STEP": "'random'",
}


# Terminals that begin a top-level declaration, a statement, or an expression: a long
# "expected" list made of these is summarised as "a declaration", "a statement"...
_DECLARATION_STARTS = {
    "EDITION", "IMPORT", "PARAM", "SET", "ENUM", "FIELD", "COUNTER", "OPTION", "GROUP",
    "BOARD", "DIE", "DECK", "GRID", "EVENT", "DECISION", "PROC", "RULE", "USE", "WAIVE",
    "EQUIVALENT", "ASSUMPTION", "GAME", "SCENARIO",
}
_STATEMENT_STARTS = {"LET", "IF", "WHILE", "FOR", "RETURN", "TRIGGER", "DRAW", "END"}
_EXPRESSION_STARTS = {
    "INT", "STRING", "TRUE", "FALSE", "NONE", "ASK", "LPAR", "LSQB", "MINUS", "NOT",
    "COUNT", "SUM", "ANY", "ALL", "MAX_OF", "MIN_OF", "BEST",
}
_OPERATORS = {"ADD_OP", "MUL_OP", "COMP_OP", "AND", "OR", "DOT", "LSQB", "MINUS"}
_MAX_LISTED = 6


def _describe_expected(expected: set[str]) -> str:
    """What the parser would have accepted, in words: `'{', a name or a number`."""
    expected = set(expected)
    groups = []
    if len(expected & _DECLARATION_STARTS) >= 5:
        expected -= _DECLARATION_STARTS
        groups.append("a declaration ('rule', 'proc', 'param', ...)")
    if len(expected & _STATEMENT_STARTS) >= 4:
        expected -= _STATEMENT_STARTS | {"NAME"}
        groups.append("a statement")
    if len(expected & _EXPRESSION_STARTS) >= 5:
        expected -= _EXPRESSION_STARTS | {"NAME", "IF"}
        groups.append("an expression")
    if len(expected & _OPERATORS) >= 3:
        expected -= _OPERATORS
        groups.append("an operator")
    names = groups + sorted(
        {_TERMINAL_NAMES.get(t, _keyword(t)) for t in expected},
        key=lambda n: (not n[0].isalpha(), n),  # "a name", "a number" before '{' and 'rule'
    )
    if len(names) > _MAX_LISTED:
        names = names[: _MAX_LISTED - 1] + ["..."]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _keyword(terminal: str) -> str:
    if terminal == "$END":
        return "end of file"
    lark_terminal = {t.name: t for t in lalr_parser().terminals}.get(terminal)
    if lark_terminal is not None and lark_terminal.pattern.type == "str":
        return f"'{lark_terminal.pattern.value}'"
    return terminal.lower()


# Keywords that are fine in one place and a mistake at the top level of a file.
_MISPLACED = {
    "SPACE": "a space is declared inside board { ... }",
    "CARD": "a card is declared inside a deck: deck NAME(p: player) \"Title\" { ... }",
    "ON": "a handler is written inside a rule: rule NAME { on EVENT(...) { ... } }",
    "QUOTE": "a quote goes right after the declaration it supports, or inside "
             "rule NAME { ... } or use NAME { ... }",
    "ASSUME": "an assume goes right after the declaration it supports, or inside "
              "rule NAME { ... } or use NAME { ... }",
}
# Characters that are not part of the language, and what was probably meant.
_CHARACTER_HINTS = {
    "'": "strings use double quotes",
    "\u201c": 'strings use straight double quotes: "..."',
    "\u201d": 'strings use straight double quotes: "..."',
    "\u2018": 'strings use straight double quotes: "..."',
    "\u2019": 'strings use straight double quotes: "..."',
    ";": "statements need no ';': put each on its own line",
    "&": "write 'and'",
    "|": "write 'or'",
    "!": "write 'not' (or '!=' to compare)",
}


def syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    line = getattr(exc, "line", 0) or 0
    column = getattr(exc, "column", 0) or 0
    token = getattr(exc, "token", None)
    if isinstance(exc, UnexpectedEOF) or line <= 0 or (
        token is not None and token.type == "$END"
    ):
        return _end_of_file(exc, text, path)
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(exc, text, path, line, column)
    assert isinstance(exc, UnexpectedToken)
    expected = set(exc.accepts or exc.expected)
    width = max(1, len(str(token))) if token.end_line in (None, token.line) else 1
    return error_at(
        Span(path, line, column, line, column + width),
        f"unexpected '{token}'",
        _token_hint(token, expected, text) or f"expected {_describe_expected(expected)}",
        code=ErrorCode.UNEXPECTED_TOKEN,
    )


def _token_hint(token: Token, expected: set[str], text: str) -> str:
    """A targeted hint for a common mistake, or nothing."""
    if token.type == "COMP_OP" and "AND" in expected and "COMP_OP" not in expected:
        return "comparisons do not chain: write a < b and b < c"
    if str(token) == "=" and "COMP_OP" in expected:
        return "to compare, write '=='"
    before = text[: token.start_pos] if token.start_pos is not None else ""
    if re.search(r"\b(elif|elsif|elseif)\s*$", before):
        return "write 'else if'"
    previous = re.search(r"(?<![\w.])([A-Za-z_]\w*)\s*$", before)
    if previous and token.type != "LPAR":  # `retrun x`: the misspelt keyword was a name
        keywords = {_keyword(t).strip("'") for t in _STATEMENT_STARTS}
        close = did_you_mean(previous.group(1), keywords - {previous.group(1)})
        if close:
            return f"'{previous.group(1)}' is not a keyword: {close}"
    if token.type == "NAME":  # a misspelt keyword?
        keywords = {_keyword(t).strip("'") for t in expected if t not in _TERMINAL_NAMES}
        close = did_you_mean(str(token), {k for k in keywords if k.isidentifier()})
        if close:
            return close
    if token.type in _DECLARATION_STARTS and "RBRACE" in expected and before:
        opener = _unclosed_bracket(before)  # a declaration inside a block: a '}' is missing
        if opener is not None and str(opener) == "{":
            return (f"the '{{' on line {opener.line} is never closed: is a '}}' missing "
                    "before this line?")
    if expected & _DECLARATION_STARTS:
        if token.type in _MISPLACED:
            return _MISPLACED[token.type]
        if token.type in _STATEMENT_STARTS:
            return "statements belong inside a proc, a rule's handler or a card's do { ... }"
    return ""


def _end_of_file(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    """The caret just after the last thing in the file, and which bracket is still open."""
    lines = source_lines(text)
    last = max((i for i, ln in enumerate(lines) if ln.strip()), default=len(lines) - 1)
    line, column = last + 1, len(lines[last].rstrip()) + 1
    expected = set(getattr(exc, "accepts", None) or exc.expected or ())
    hint = f"expected {_describe_expected(expected)}" if expected else ""
    opener = _unclosed_bracket(text)
    if opener is not None:
        close = {"{": "}", "(": ")", "[": "]"}[str(opener)]
        hint = f"the '{opener}' on line {opener.line} is never closed: is a '{close}' missing?"
    return error_at(
        Span(path, line, column, line, column + 1), "unexpected end of file", hint,
        code=ErrorCode.UNEXPECTED_END,
    )


def _unclosed_bracket(text: str) -> Token | None:
    """The innermost bracket left open at the end of the text (strings and comments skipped)."""
    stack: list[Token] = []
    pairs = {"RBRACE": "LBRACE", "RPAR": "LPAR", "RSQB": "LSQB"}
    try:
        for token in lalr_parser().lex(text):
            if token.type in ("LBRACE", "LPAR", "LSQB"):
                stack.append(token)
            elif token.type in pairs and stack and stack[-1].type == pairs[token.type]:
                stack.pop()
    except UnexpectedInput:
        return None
    return stack[-1] if stack else None


def _bad_character(
    exc: UnexpectedCharacters, text: str, path: str, line: int, column: int
) -> Diagnostic:
    char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
    if char == '"':  # STRING did not match: no closing quote on this line
        rest = text[exc.pos_in_stream:].split("\n", 1)[0].rstrip()
        hint = 'a string ends with a " on the same line'
        if '\\"' in rest:
            hint += ' (\\" is a double quote inside the string; write \\\\ for a backslash)'
        return error_at(
            Span(path, line, column, line, column + max(1, len(rest))),
            "unterminated string", hint,
            code=ErrorCode.UNTERMINATED_STRING,
        )
    hint = _CHARACTER_HINTS.get(char, "")
    if not hint and char.isalpha():
        hint = "names use only the letters A to Z and a to z, digits and '_'"
    return error_at(
        Span(path, line, column, line, column + 1), f"unexpected character {char!r}",
        hint,
        code=ErrorCode.UNEXPECTED_CHARACTER,
    )


