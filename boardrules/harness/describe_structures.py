"""What a scenario writer must know besides the names: where each decision is asked (inside
which loops and windows, so who is asked and in what order), which decisions each window
asks, and what the library modules and definitions say of themselves in their comments.

A scenario scripts answers in the order the rules ask them, and a window or an auction
asks players in turn: the reader of `boardrules describe` needs that order, which the
program states (`window q from p rounds N`, `for q in players`) without showing the
handlers' code. A library states its conventions (a hotel counts as `max_houses + 1`
buildings) in the comment above a definition and at the top of a module: those comments
are the library's documentation, and are printed as they are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..compiler.front import ast
from ..compiler.front.symbols import Symbols
from .describe_text import expr_text

_SKIPPED = frozenset({"span", "provenance", "default", "type"})


def _frame(node: ast.Stmt) -> str:
    """How a loop or a window repeats what it holds, in words."""
    if isinstance(node, ast.Window):
        rounds = expr_text(node.rounds) if node.rounds is not None else "3"
        return (f"in a window: each player still in as {node.var}, in seat order from "
                f"{expr_text(node.start)}, round after round while someone acts (at most "
                f"{rounds} rounds)")
    if isinstance(node, ast.For):
        skipped = " (those a condition leaves out skipped)" if node.where is not None else ""
        domain = node.domain
        noun, of, order = {"players": ("player", "", "seat order from p1"),
                           "spaces": ("space", "", "board order"), "groups": ("group", "", ""),
                           "cells": ("cell", "", ""), "cards": ("card", f" of {domain.name}", ""),
                           "enum": ("member", f" of {domain.name}", ""),
                           "range": ("number", " of a range", ""),
                           "legal": ("legal answer", "", "")}.get(domain.kind,
                                                                   (domain.kind, "", ""))
        if node.order is not None:  # `by KEY [desc]`: ties keep the domain's order
            way = "descending" if node.order.desc else "ascending"
            return (f"for each {noun} {node.var}{of}, by {expr_text(node.order.key)} {way} "
                    f"(ties in {order or 'declaration order'}){skipped}")
        return f"for each {noun} {node.var}{of}{', in ' + order if order else ''}{skipped}"
    return "repeated while a condition holds"


class AskSites:
    """Every `ask` of the program with the loops and windows around it, and every window
    with the decisions its body asks (through procedures too), in the order asked."""

    def __init__(self, symbols: Symbols) -> None:
        self.symbols = symbols
        self.sites: dict[str, list[dict[str, Any]]] = {}
        self.windows: list[dict[str, Any]] = []
        units: list[tuple[str, Any]] = []
        units += [(f"rule {name}", rule.handlers) for name, rule in symbols.rules.items()]
        units += [(f"proc {name}", proc.body) for name, proc in symbols.procs.items()]
        units += [(f"card {name}", card.effect) for name, (_, card) in symbols.cards.items()]
        for unit, code in units:
            self._visit(code, unit, ())

    def _visit(self, node, unit: str, frames: tuple[str, ...]) -> None:
        if isinstance(node, tuple):
            for item in node:
                self._visit(item, unit, frames)
            return
        if isinstance(node, ast.Ask):
            self.sites.setdefault(node.decision, []).append(
                {"in": unit, "inside": list(frames)})
        if isinstance(node, ast.Window):
            self.windows.append({
                "in": unit, "var": node.var, "from": expr_text(node.start),
                "rounds": expr_text(node.rounds) if node.rounds is not None else "3",
                "asks": self.asked_in(node.body)})
        if not hasattr(node, "__dataclass_fields__"):
            return
        inner = (*frames, _frame(node)) if isinstance(node, (ast.For, ast.While, ast.Window)) \
            else frames
        for name in node.__dataclass_fields__:
            if name in _SKIPPED:
                continue
            self._visit(getattr(node, name), unit, inner if name == "body" else frames)

    def asked_in(self, code, seen: set[str] | None = None) -> list[str]:
        """The decisions some code asks, through the procedures it calls, in code order."""
        seen = set() if seen is None else seen
        found: list[str] = []
        for node in _in_order(code):
            if isinstance(node, ast.Ask):
                found.append(node.decision)
            elif isinstance(node, ast.Call) and node.name in self.symbols.procs \
                    and node.name not in seen:
                seen.add(node.name)
                found += self.asked_in(self.symbols.procs[node.name].body, seen)
        return list(dict.fromkeys(found))


def _in_order(node):
    """The asks and calls of a tree, in the order they are written."""
    if isinstance(node, tuple):
        for item in node:
            yield from _in_order(item)
        return
    if isinstance(node, (ast.Ask, ast.Call)):
        yield node
    if hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            if name not in _SKIPPED:
                yield from _in_order(getattr(node, name))


def comment_above(text: str, line: int) -> str:
    """The comment lines right above a definition's first line (1-based), joined."""
    lines = text.splitlines()
    found: list[str] = []
    i = line - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        found.insert(0, lines[i].lstrip()[1:].strip())
        i -= 1
    return " ".join(part for part in found if part)


def module_description(text: str) -> str:
    """A library module's first comment paragraph, at the top of its file."""
    found: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line.startswith("#") or (found and line == "#"):
            break
        found.append(line[1:].strip())
    return " ".join(part for part in found if part)


def library_modules(sources) -> list[dict[str, str]]:
    """Each library module the edition imports, with its description."""
    return [{"name": Path(module.path).stem,
             "description": module_description(sources.texts.get(module.path, ""))}
            for module in sources.libraries]
