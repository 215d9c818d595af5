"""Pass: every `quote` and `waive` must occur verbatim (white space folded) in the rulebook."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ..common.diagnostics import Reporter, Span
from ..common.error_codes import ErrorCode
from . import ast
from .rulebook import Rulebook, fold, load_rulebook
from .symbols import Symbols


def rulebook_path(symbols: Symbols, edition_path: Path) -> tuple[Path, Span] | None:
    """The rulebook copy named by the edition, and where the edition names it."""
    if symbols.edition is None:
        return None
    for name, values, span in symbols.edition.props:
        if name == "rulebook" and values and isinstance(values[0], ast.StrLit):
            return edition_path.resolve().parent / values[0].value, span
    return None


def _places(lines: list[int]) -> str:
    """The rulebook lines of a text's occurrences, each line once with how often it holds
    the text (`lines 4, 8`; `line 19 (2 times)`), so that a line is not read as two."""
    counts = Counter(lines)
    shown = [f"{line} ({n} times)" if n > 1 else str(line) for line, n in counts.items()]
    return f"line{'s' if len(counts) > 1 else ''} {', '.join(shown)}"


def _divergence(rulebook: Rulebook, text: str) -> str:
    """Where a quote parts from the rulebook, when at least a word of it agrees."""
    agreed = rulebook.closest(text)
    if " " not in agreed.strip():
        return "no part of it occurs in the rulebook (white space is folded, nothing else)"
    return f"the rulebook agrees up to: ...{agreed[-40:]!r}"


def quoted_units(symbols: Symbols) -> dict[str, list[ast.Quote]]:
    """Every quote of the program, by the unit that carries it: a rule (with the quotes
    `use` attaches), or another definition (a param, a set, a space, a card, a counter
    as owner_name, a game property as game_over...). Scenarios name these units."""
    units: dict[str, list[ast.Quote]] = {}

    def add(unit: str, provenance) -> None:
        quotes = [p for p in provenance if isinstance(p, ast.Quote)]
        if quotes:
            units.setdefault(unit, []).extend(quotes)

    for name, rule in symbols.rules.items():
        add(name, rule.provenance)
        for use in symbols.uses.get(name, []):
            add(name, use.provenance)
    for table in (symbols.params, symbols.sets, symbols.options, symbols.enums, symbols.groups,
                  symbols.spaces, symbols.dice, symbols.decks, symbols.decisions, symbols.grids):
        for name, decl in table.items():
            add(name, decl.provenance)
    for (owner, name), decl in symbols.counters.items():
        add(f"{owner}_{name}" if owner else name, decl.provenance)
    for name, (_, card) in symbols.cards.items():
        add(name, card.provenance)
    for kind, prop in symbols.game.items():
        add(f"game_{kind}", prop.provenance)
    return units


def check_quotes(symbols: Symbols, edition_path: Path, report: Reporter) -> Rulebook | None:
    found = rulebook_path(symbols, edition_path)
    if found is None:
        return None
    path, span = found
    folder = edition_path.resolve().parent
    try:
        inside = path.resolve().is_relative_to(folder)
        found_file = inside and path.is_file()
    except (OSError, ValueError) as exc:  # a NUL, a name too long: no file is named so
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        report.error(span, f"the rulebook's name cannot name a file: {why}",
                     f"name the copy next to {edition_path.name} plainly, e.g. rulebook.txt",
                     code=ErrorCode.RULEBOOK_FILE)
        return None
    if not inside:  # hints quote the rulebook: never another file
        report.error(span, "the rulebook must be in the edition's folder",
                     f"copy it next to {edition_path.name} and name it without a folder part",
                     code=ErrorCode.RULEBOOK_FILE)
        return None
    if not found_file:
        report.error(span, f"rulebook not found: {path.name} next to {edition_path.name}",
                     "copy the rulebook text next to the rules file", code=ErrorCode.RULEBOOK_FILE)
        return None
    try:
        rulebook = load_rulebook(path)
    except (OSError, UnicodeDecodeError) as exc:
        report.error(span, f"cannot read the rulebook {path.name}: {exc}",
                     "the rulebook copy is UTF-8 text", code=ErrorCode.RULEBOOK_FILE)
        return None
    quotes = in_source_order(quoted_units(symbols))
    times = Counter(fold(quote.text) for _, quote in quotes)
    warned: set[str] = set()
    for _, quote in quotes:
        if not rulebook.contains(quote.text):
            report.error(quote.span, "quote does not occur in the rulebook",
                         _divergence(rulebook, quote.text), code=ErrorCode.NOT_IN_RULEBOOK)
            continue
        lines = rulebook.lines_of(quote.text)
        quoted = times[fold(quote.text)]
        if len(lines) > quoted and fold(quote.text) not in warned:
            warned.add(fold(quote.text))
            report.warning(quote.span, f"quote occurs {len(lines)} times in the rulebook, at "
                           f"{path.name} {_places(lines)}, and is quoted "
                           f"{quoted} time{'s' if quoted > 1 else ''}: coverage credits the "
                           f"first {quoted}", "quote more of the sentence meant, so that it "
                           "occurs once, or quote it once for each place it stands",
                           code="repeated-quote")
    for waiver in symbols.waivers:
        if not rulebook.contains(waiver.text):
            report.error(waiver.span, "waived text does not occur in the rulebook",
                         _divergence(rulebook, waiver.text), code=ErrorCode.NOT_IN_RULEBOOK)
        if not waiver.reason.strip():
            report.error(waiver.span, "a waiver needs a reason", code=ErrorCode.MISSING_REASON)
    for note in symbols.equivalents:
        if not note.reason.strip():
            report.error(note.span, "an equivalent mutant needs a reason",
                         "say why no scenario can tell it from the rules",
                         code=ErrorCode.MISSING_REASON)
    return rulebook


def in_source_order(quoted: dict[str, list[ast.Quote]]) -> list[tuple[str, ast.Quote]]:
    """Every (unit, quote), in the order the files and their lines list them: the n-th
    quote of a text that the rulebook holds several times stands for its n-th occurrence."""
    found = [(unit, quote) for unit, quotes in quoted.items() for quote in quotes]
    return sorted(found, key=lambda pair: (pair[1].span.path, pair[1].span.line,
                                           pair[1].span.column))
