"""Where the rules file defines each unit that quotes the rulebook, with its source text.

A unit is what a scenario names: a rule, or another definition that quotes the
rulebook (a param, a space, a card, a counter, a game property...). The coverage
page shows each one with its file, line and source, and the `use` blocks that
attach quotes to a rule defined in a library.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from ..compiler.common.diagnostics import Span, source_lines
from ..compiler.front import ast
from ..compiler.front.symbols import Symbols


@dataclass(frozen=True)
class Site:
    """A place in a rules file: the path as shown, the first line and the source text there."""

    path: str
    line: int
    source: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class Unit:
    name: str
    kind: str  # rule, param, space, card, counter, game property...
    definition: Site
    uses: list[Site] = field(default_factory=list)  # `use` blocks that add quotes


def site(span: Span, texts: dict[str, str], root: Path | None) -> Site:
    """The span's place, its path relative to `root` when under it, else (a library module
    found on the search path) relative to its library folder's parent, `lib/rent.rules`:
    never a machine's absolute path, with the spanned lines."""
    path = Path(span.path).resolve()
    shown = span.path
    if root is not None and path.is_relative_to(root):
        shown = path.relative_to(root).as_posix()
    elif root is not None and path.suffix == ".rules":
        shown = f"{path.parent.name}/{path.name}"
    lines = source_lines(texts.get(span.path, ""))[max(0, span.line - 1):span.end_line]
    return Site(shown, span.line, textwrap.dedent("\n".join(lines)))


def _definitions(symbols: Symbols) -> dict[str, tuple[str, ast.Node]]:
    """Every definition that can carry quotes, by the unit name `quoted_units` gives it."""
    found: dict[str, tuple[str, ast.Node]] = {}
    for name, rule in symbols.rules.items():
        found[name] = ("rule", rule)
    tables = (("param", symbols.params), ("set", symbols.sets), ("option", symbols.options),
              ("enum", symbols.enums), ("group", symbols.groups), ("space", symbols.spaces),
              ("die", symbols.dice), ("deck", symbols.decks), ("decision", symbols.decisions),
              ("grid", symbols.grids))
    for kind, table in tables:
        for name, decl in table.items():
            found.setdefault(name, (kind, decl))
    for (owner, name), decl in symbols.counters.items():
        found.setdefault(f"{owner}_{name}" if owner else name, ("counter", decl))
    for name, (_, card) in symbols.cards.items():
        found.setdefault(name, ("card", card))
    for kind, prop in symbols.game.items():
        found.setdefault(f"game_{kind}", ("game property", prop))
    return found


def units(symbols: Symbols, texts: dict[str, str], names: list[str],
          root: Path | None = None) -> dict[str, Unit]:
    """The named units with their definition and `use` sites (paths shown relative to root)."""
    definitions = _definitions(symbols)
    found: dict[str, Unit] = {}
    for name in names:
        if name not in definitions:
            continue
        kind, decl = definitions[name]
        found[name] = Unit(name, kind, site(decl.span, texts, root),
                           [site(use.span, texts, root) for use in symbols.uses.get(name, [])])
    return found
