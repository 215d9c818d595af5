"""Params given other values for one build: `simulate --param NAME=VALUE`.

A designer judging balance, or a study that must hold a strategy fixed (the same jail
policy as another simulator), asks how the edition plays with a param changed: the
default strategy's reserve, the salary, the fine. A param is a constant folded into
the generated module, so the change is a build of its own: the edition's checked
symbols with the param's value replaced by the literal, through the passes from
`check` on, as if the rules file said so. The module is the edition's own otherwise;
params derived from a changed one follow it, and a value the program cannot take is
refused as the checker refuses it in a rules file.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .common.diagnostics import CompileError, Span
from .front import ast

if TYPE_CHECKING:
    from .pipeline import Compilation

SETTABLE = ("int", "money", "bool")
BOOLS = {**dict.fromkeys(("true", "yes", "on", "1"), True),  # as --option reads a bool
         **dict.fromkeys(("false", "no", "off", "0"), False)}
INTEGER = re.compile(r"-?[0-9]+")


class ParamError(ValueError):
    """A --param setting names no param, gives a value of the wrong type, or one the
    program cannot take; the message is one line."""


def parse_params(compilation: Compilation, settings: Sequence[str]) -> dict[str, int | bool]:
    """`NAME=VALUE` settings as values of the edition's declared params, by name."""
    params = compilation.symbols.params
    values: dict[str, int | bool] = {}
    for setting in settings:
        name, equals, text = (part.strip() for part in setting.partition("="))
        if name not in params:
            close = difflib.get_close_matches(name, params, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise ParamError(f"{compilation.edition} has no param '{name}' ({hint}"
                             "`boardrules describe` lists them)")
        declared = params[name].type
        kind = declared.name if isinstance(declared, ast.TypeRef) else ""
        if kind not in SETTABLE:
            raise ParamError(f"param '{name}' is a {kind or 'value'}: --param sets int, money "
                             "and bool params")
        if not equals or not text:
            raise ParamError(f"--param {name}: give a value, as in {name}=VALUE")
        if kind == "bool" and text.lower() in BOOLS:
            values[name] = BOOLS[text.lower()]
        elif kind != "bool" and INTEGER.fullmatch(text):
            values[name] = int(text)
        else:
            wanted = "true or false" if kind == "bool" else "an integer"
            raise ParamError(f"param '{name}' ({kind}) takes {wanted}, not '{text}'")
    return values


def with_params(compilation: Compilation, settings: Sequence[str]) -> Compilation:
    """The edition compiled again with these params set (raises ParamError); the
    compilation itself when none is given."""
    from .pipeline import recheck  # Lark and Jinja2: not for the command line's checks

    values = parse_params(compilation, settings)
    if not values:
        return compilation
    symbols = compilation.symbols
    params, sets = dict(symbols.params), dict(symbols.sets)
    for name, value in values.items():
        span = Span(f"--param {name}={str(value).lower()}", 0, 0, 0, 0)
        literal = ast.BoolLit(span, value) if isinstance(value, bool) else ast.IntLit(span, value)
        if name in sets:  # the edition's own `set` gives the value the library's param takes
            sets[name] = dataclasses.replace(sets[name], value=literal)
        else:
            params[name] = dataclasses.replace(params[name], value=literal)
    try:
        return recheck(compilation, dataclasses.replace(symbols, params=params, sets=sets))
    except CompileError as exc:
        first = exc.diagnostics[0]
        raise ParamError(f"{first.span}: {first.message}") from None
