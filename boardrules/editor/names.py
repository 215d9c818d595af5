"""What a name in a document stands for: the word under the cursor and its definition,
looked up in the compiler's symbol table (and the locals of the enclosing declaration).

Kept apart from the protocol (lsp.py): hover, go to definition and completion all ask
the same question, "what is this name here?", and the tests ask it directly.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..compiler.common.diagnostics import Span
from ..compiler.front import ast
from ..compiler.front.primitives import (
    BUILTIN_ATTRS,
    DECK_FUNCTIONS,
    KERNEL_FUNCTIONS,
    KERNEL_PARAMETER_NAMES,
)
from ..compiler.front.symbols import BUILTIN_VALUES, Symbols
from .analysis import Analysis

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Word:
    """An identifier in the text and whether it follows a `.` (a field or counter)."""

    name: str
    line: int  # 0-based, as the protocol counts
    start: int
    end: int
    after_dot: bool
    before: str = ""  # the line's text before the word


@dataclass(frozen=True)
class Definition:
    """What a name stands for: its kind, how it is declared and where (no span for what
    the kernel provides), and the sentences it quotes."""

    name: str
    kind: str
    signature: str
    span: Span | None = None
    quotes: tuple[str, ...] = ()
    assumes: tuple[str, ...] = ()


def word_at(text: str, line: int, character: int) -> Word | None:
    """The identifier at (or just before) a 0-based position, outside comments."""
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    source = lines[line]
    for match in _WORD.finditer(source):
        if match.start() <= character <= match.end():
            before = source[:match.start()]
            if "#" in _outside_strings(before):
                return None
            return Word(match.group(), line, match.start(), match.end(),
                        before.rstrip().endswith("."), before)
    return None


def _outside_strings(text: str) -> str:
    """`text` with its string literals blanked out (a `#` in a string is no comment)."""
    return re.sub(r'"([^"\\]|\\.)*"?', '""', text)


def declaration_text(analysis: Analysis, span: Span) -> str:
    """The first line of a declaration as written (its signature, type and value)."""
    text = analysis.texts.get(span.path)
    if text is None or span.line <= 0:
        return ""
    lines = text.split("\n")
    if span.line > len(lines):
        return ""
    return lines[span.line - 1][max(span.column - 1, 0):].rstrip().removesuffix("{").rstrip()


def _provenance(decl) -> tuple[tuple[str, ...], tuple[str, ...]]:
    provenance = getattr(decl, "provenance", ())
    return (tuple(p.text for p in provenance if isinstance(p, ast.Quote)),
            tuple(p.reason for p in provenance if isinstance(p, ast.Assume)))


def _declared(analysis: Analysis, name: str, kind: str, decl) -> Definition:
    quotes, assumes = _provenance(decl)
    return Definition(name, kind, declaration_text(analysis, decl.span), decl.span,
                      quotes, assumes)


# the tables of Symbols that map a name to its declaration, and the kind each holds
NAME_TABLES = (("procs", "procedure"), ("decisions", "decision"), ("params", "param"),
               ("options", "option"), ("enums", "enum"), ("groups", "group"),
               ("spaces", "space"), ("dice", "die"), ("decks", "deck"), ("grids", "grid"))


def define(analysis: Analysis, word: Word) -> list[Definition]:
    """Every definition the word may stand for where it is written (several for a field
    name that two entities declare)."""
    symbols = analysis.symbols
    if word.after_dot:
        return _attributes(analysis, word.name)
    if _IMPORTING.search(word.before):
        return _library(analysis, word.name)
    local = _local(analysis, word)
    if local is not None:
        return [local]
    if symbols is not None and word.name in symbols.rules and _RULE_NAMED.search(word.before):
        return [_rule(analysis, symbols, word.name)]  # a rule's name is its own namespace
    found = _global(analysis, symbols, word.name, word.before) if symbols is not None else []
    return found or _kernel(word.name)


# where a rule is named: `rule NAME`, `use NAME`, `scenario "..." for NAME`
_RULE_NAMED = re.compile(r'(\brule|\buse|"\s*for)\s*$')
_IMPORTING = re.compile(r"^\s*import\s+(\w+\s*,\s*)*$")
_EVENT_NAMED = re.compile(r"\b(on|trigger|event)\s*$")


def _global(analysis: Analysis, symbols: Symbols, name: str,
            before: str | None = None) -> list[Definition]:
    """The top-level definition of `name`; an event only where one is named (`before`, the
    text before the name, ends in `on`, `trigger` or `event`), or anywhere when `before`
    is None."""
    for table, kind in NAME_TABLES:
        decl = getattr(symbols, table).get(name)
        if decl is not None and name in symbols.sets and kind == "param":
            return [_set_param(analysis, name, decl, symbols.sets[name])]
        if decl is not None:
            return [_declared(analysis, name, kind, decl)]
    if name in symbols.cards:
        deck, card = symbols.cards[name]
        found = _declared(analysis, name, "card", card)
        return [dataclasses.replace(found, signature=f"{found.signature}  (deck {deck})")]
    if ("", name) in symbols.counters:
        return [_declared(analysis, name, "counter", symbols.counters[("", name)])]
    if name in symbols.enum_members:
        return [dataclasses.replace(_declared(analysis, name, "enum member", symbols.enums[e]),
                                    quotes=(), assumes=())
                for e in symbols.enum_members[name] if e in symbols.enums]
    if name in symbols.rules:
        return [_rule(analysis, symbols, name)]
    if name in symbols.events and (before is None or _EVENT_NAMED.search(before)):
        params = ", ".join(f"{p}: {t.declared}" for p, t in symbols.events[name])
        return [Definition(name, "event", f"event {name}({params})")]
    return []


def _library(analysis: Analysis, name: str) -> list[Definition]:
    """An imported library module, as the check loaded it."""
    return [Definition(name, "library module", f"import {name}", Span(path, 1, 1, 1, 1))
            for path in analysis.libraries if Path(path).stem == name]


def _set_param(analysis: Analysis, name: str, decl: ast.ParamDecl,
               setting: ast.SetParam) -> Definition:
    """A param an edition sets: its declaration, the value set and where, and the quotes
    and assumptions of both."""
    found = _declared(analysis, name, "param", decl)
    quotes, assumes = _provenance(setting)
    where = f"{Path(setting.span.path).name}:{setting.span.line}"
    return dataclasses.replace(
        found, signature=f"{found.signature}  ({declaration_text(analysis, setting.span)} "
        f"at {where})", quotes=found.quotes + quotes, assumes=found.assumes + assumes)


def _rule(analysis: Analysis, symbols: Symbols, name: str) -> Definition:
    """A rule, with its own quotes and those of every `use` of it."""
    found = _declared(analysis, name, "rule", symbols.rules[name])
    quotes, assumes = list(found.quotes), list(found.assumes)
    for use in symbols.uses.get(name, ()):
        more_quotes, more_assumes = _provenance(use)
        quotes += more_quotes
        assumes += more_assumes
    return dataclasses.replace(found, quotes=tuple(quotes), assumes=tuple(assumes))


def _attributes(analysis: Analysis, name: str) -> list[Definition]:
    """A field or counter of an entity (`p.cash`, `s.price`), declared or built in."""
    symbols = analysis.symbols
    found = []
    if symbols is not None:
        for table, kind in ((symbols.fields, "field"), (symbols.counters, "counter")):
            found += [_declared(analysis, name, kind, decl)
                      for (owner, attr), decl in table.items() if attr == name and owner]
    found += [Definition(name, "built-in attribute", f"{owner}.{attr}: {atype.declared}")
              for (owner, attr), (atype, _) in BUILTIN_ATTRS.items() if attr == name]
    return found


def _kernel(name: str) -> list[Definition]:
    """What the kernel gives every edition: primitives and built-in values."""
    if name in KERNEL_FUNCTIONS:
        params, result = KERNEL_FUNCTIONS[name]
        named = ", ".join(f"{p}: {t.declared}" for p, t in
                          zip(KERNEL_PARAMETER_NAMES[name], params, strict=True))
        returns = "" if result.name == "void" else f" -> {result.declared}"
        return [Definition(name, "kernel function", f"{name}({named}){returns}")]
    if name in DECK_FUNCTIONS:
        result = DECK_FUNCTIONS[name]
        returns = "" if result.name == "void" else f" -> {result.declared}"
        return [Definition(name, "kernel function", f"{name}(deck){returns}")]
    if name in BUILTIN_VALUES:
        return [Definition(name, "built-in value", name)]
    return []


# ---- locals ------------------------------------------------------------------------------
def enclosing(module: ast.Module | None, line: int) -> ast.Decl | None:
    """The top-level declaration around a 1-based line."""
    for decl in module.decls if module is not None else ():
        if decl.span.line <= line <= decl.span.end_line:
            return decl
    return None


def walk(node) -> Iterator:
    """Every node under `node` (itself included), in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, tuple):
            stack.extend(reversed(current))
        elif dataclasses.is_dataclass(current) and not isinstance(current, Span):
            yield current
            stack.extend(reversed([getattr(current, f.name) for f in dataclasses.fields(current)
                                   if f.name != "span"]))


def locals_at(module: ast.Module | None, line: int) -> dict[str, Definition]:
    """The parameters and local variables of the declaration around a 1-based line: its
    handlers' and procedures' parameters, `let`s, loop and aggregate variables."""
    decl = enclosing(module, line)
    found: dict[str, Definition] = {}
    if decl is None:
        return found
    for node in walk(decl):
        if isinstance(node, ast.Param):
            found.setdefault(node.name, Definition(
                node.name, "parameter", f"{node.name}: {_type_text(node.type)}", node.span))
        elif isinstance(node, ast.Let):
            declared = f": {_type_text(node.type)}" if node.type is not None else ""
            found.setdefault(node.name, Definition(node.name, "local",
                                                   f"let {node.name}{declared}", node.span))
        elif isinstance(node, ast.For | ast.Aggregate):
            found.setdefault(node.var, Definition(
                node.var, "loop variable", f"{node.var} in {_domain_text(node.domain)}",
                node.span))
        elif isinstance(node, ast.Window):
            found.setdefault(node.var, Definition(node.var, "window player",
                                                  f"window {node.var}", node.span))
    return found


def _local(analysis: Analysis, word: Word) -> Definition | None:
    return locals_at(analysis.module, word.line + 1).get(word.name)


def _type_text(ref: ast.TypeRef) -> str:
    size = f"[{ref.length or ref.index_enum}]" if ref.length or ref.index_enum else ""
    return f"{ref.name}{'?' if ref.optional else ''}{size}"


def _domain_text(domain: ast.Domain) -> str:
    if domain.kind == "enum":
        return f"each {domain.name}"
    if domain.kind == "range":
        return "a range"
    return f"{domain.kind} {domain.name}".strip()
