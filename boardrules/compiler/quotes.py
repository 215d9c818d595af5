"""Pass: every `quote` and `waive` must occur verbatim (white space folded) in the rulebook."""

from __future__ import annotations

from pathlib import Path

from . import ast
from .diagnostics import Reporter, Span
from .rulebook import Rulebook, load_rulebook
from .symbols import Symbols


def rulebook_path(symbols: Symbols, edition_path: Path) -> Path | None:
    if symbols.edition is None:
        return None
    for name, values, _ in symbols.edition.props:
        if name == "rulebook" and values and isinstance(values[0], ast.StrLit):
            return edition_path.resolve().parent / values[0].value
    return None


def all_quotes(symbols: Symbols) -> list[ast.Quote]:
    """Every quote of the program, wherever it is attached."""
    found: list[ast.Quote] = []

    def add(provenance) -> None:
        found.extend(p for p in provenance if isinstance(p, ast.Quote))

    for rule in symbols.rules.values():
        add(rule.provenance)
    for uses in symbols.uses.values():
        for use in uses:
            add(use.provenance)
    for table in (symbols.params, symbols.sets, symbols.options, symbols.enums, symbols.groups,
                  symbols.spaces,
                  symbols.dice, symbols.decks, symbols.decisions, symbols.grids):
        for decl in table.values():
            add(getattr(decl, "provenance", ()))
    for decl in symbols.counters.values():
        add(decl.provenance)
    for _, card in symbols.cards.values():
        add(card.provenance)
    for prop in symbols.game.values():
        add(prop.provenance)
    return found


def check_quotes(symbols: Symbols, edition_path: Path, report: Reporter) -> Rulebook | None:
    path = rulebook_path(symbols, edition_path)
    if path is None:
        return None
    edition_span = symbols.edition.span if symbols.edition else Span(str(edition_path), 1, 1, 1, 1)
    if not path.is_file():
        report.error(edition_span, f"rulebook not found: {path}",
                     "copy the rulebook text next to the rules file")
        return None
    try:
        rulebook = load_rulebook(path)
    except (OSError, UnicodeDecodeError) as exc:
        report.error(edition_span, f"cannot read the rulebook {path.name}: {exc}",
                     "the rulebook copy is UTF-8 text")
        return None
    for quote in all_quotes(symbols):
        if not rulebook.contains(quote.text):
            agreed = rulebook.closest(quote.text)
            hint = (f"the rulebook agrees up to: ...{agreed[-40:]!r}" if agreed
                    else "no part of it occurs in the rulebook")
            report.error(quote.span, "quote does not occur in the rulebook", hint)
    for waiver in symbols.waivers:
        if not rulebook.contains(waiver.text):
            report.error(waiver.span, "waived text does not occur in the rulebook")
        if not waiver.reason.strip():
            report.error(waiver.span, "a waiver needs a reason")
    return rulebook
