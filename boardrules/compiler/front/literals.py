"""The literals of a rules file, decoded while parsing: strings (JSON escapes) and
integers (within the language's range), with the located error for a bad one."""

from __future__ import annotations

import json
import re

from lark import Token

from ..common.diagnostics import Diagnostic, Span, error_at
from ..common.error_codes import ErrorCode
from ..common.lang_types import INT_MAX


class SourceError(Exception):
    """A mistake found while building the AST (a bad escape, a number out of range)."""

    def __init__(self, span: Span, message: str, hint: str = "", *, code: ErrorCode):
        super().__init__(message)
        self.span, self.message, self.hint, self.code = span, message, hint, code

    def diagnostic(self) -> Diagnostic:
        return error_at(self.span, self.message, self.hint, code=self.code)


def token_span(path: str, token: Token) -> Span:
    return Span(path, token.line, token.column, token.end_line, token.end_column)


# The digits a number may be written with, leading zeros included (INT_MAX has 10).
MAX_DIGITS = 20

_ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|["\\/bfnrt])')


def unquote(token: Token, path: str) -> str:
    """A string literal's text (JSON escapes), or a located error for a bad escape."""
    try:
        # strict=False: a raw tab (which the STRING terminal allows) is kept as it is.
        value = json.loads(str(token), strict=False)
    except json.JSONDecodeError:
        pass
    else:
        surrogate = next((c for c in value if "\ud800" <= c <= "\udfff"), None)
        if surrogate is not None:  # \ud83d alone: no character, and no text can print it
            raise SourceError(token_span(path, token),
                               f"\\u{ord(surrogate):04x} is half of a character (a lone surrogate)",
                               "write the whole character, or both halves of the pair",
                               code=ErrorCode.BAD_ESCAPE)
        return value
    body = str(token)[1:-1]
    bad = next((m for m in re.finditer(r"\\.?", body) if not _ESCAPE.match(body, m.start())),
               None)
    shown = bad.group(0) if bad else "\\"
    hint = ("a ' needs no backslash inside a string" if shown == "\\'" else
            'write \\" for a double quote, \\\\ for a backslash, \\n for a new line')
    raise SourceError(token_span(path, token), f"bad escape {shown} in string", hint,
                       code=ErrorCode.BAD_ESCAPE)


def int_literal(token: Token, path: str) -> int:
    """An integer literal's value, or a located error when it does not fit in 32 bits.
    Its digits are counted before it is converted: Python refuses to convert more than
    4300 of them, even zeros."""
    if len(token) > MAX_DIGITS:
        raise SourceError(
            token_span(path, token), f"a number written with {len(token)} digits: "
            f"{token[:12]}...", f"a number has at most {MAX_DIGITS} digits; the largest "
            f"is {INT_MAX}", code=ErrorCode.NUMBER_TOO_LONG)
    value = int(token)
    if value > INT_MAX:
        raise SourceError(
            token_span(path, token), f"number too large: {token}",
            f"the largest number is {INT_MAX}",
            code=ErrorCode.NUMBER_TOO_LARGE,
        )
    return value
