"""The language server's answers as protocol values (lsprotocol): diagnostics, hover,
definitions, completion and the outline, computed from an `Analysis` of the document.

Positions: the compiler's spans count lines and columns from 1 in code points; the
protocol counts from 0 in UTF-16 units, which are the same for every character of the
Basic Multilingual Plane (all the shipped files hold).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types as lsp

from ..compiler.common.diagnostics import Diagnostic, Span, one_line
from ..compiler.front import ast
from ..compiler.front.primitives import BUILTIN_ATTRS
from ..compiler.front.symbols import Symbols
from .analysis import Analysis
from .names import NAME_TABLES, Definition, define, locals_at, word_at
from .vocabulary import BUILTINS, DECLARATIONS, FUNCTIONS, TYPES, keywords

SOURCE = "boardrules"


def to_range(span: Span) -> lsp.Range:
    if span.line <= 0:  # the whole file
        return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))
    start = lsp.Position(span.line - 1, max(span.column - 1, 0))
    end = lsp.Position(max(span.end_line - 1, start.line), max(span.end_column - 1, 0))
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return lsp.Range(start, end)


def _where(span: Span) -> str:
    return f"{Path(span.path).name}:{span.line}"


# ---- diagnostics ---------------------------------------------------------------------------
def diagnostics(analysis: Analysis) -> list[lsp.Diagnostic]:
    """The document's own diagnostics where they are; an error in another file that the
    check loaded, naming where it is, on the document's import of that library or else
    on its first line (a scenario file's edition), so that a check that failed elsewhere
    never looks clean."""
    found = []
    for d in analysis.diagnostics:
        if analysis.is_here(d.span):
            found.append(_diagnostic(d, to_range(d.span), ""))
        elif d.severity == "error":
            found.append(_diagnostic(d, _import_of(analysis, d.span.path), f"in {d.span}: "))
    return found


def _import_of(analysis: Analysis, path: str) -> lsp.Range:
    """Where the document imports the library at `path` (its first line otherwise)."""
    name = Path(path).stem
    for decl in analysis.module.decls if analysis.module is not None else ():
        if isinstance(decl, ast.Import) and decl.name == name:
            return to_range(decl.span)
    return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))


def _diagnostic(d: Diagnostic, where: lsp.Range, prefix: str) -> lsp.Diagnostic:
    message = prefix + one_line(d.message) + (f"\nhint: {one_line(d.hint)}" if d.hint else "")
    severity = (lsp.DiagnosticSeverity.Error if d.severity == "error"
                else lsp.DiagnosticSeverity.Warning)
    return lsp.Diagnostic(where, message, severity=severity, code=d.code or None,
                          source=SOURCE)


# ---- hover and definition -----------------------------------------------------------------
def hover(analysis: Analysis, position: lsp.Position) -> lsp.Hover | None:
    """The name's kind, declaration and where it is defined; a rule's quoted sentences."""
    word = word_at(analysis.text, position.line, position.character)
    if word is None:
        return None
    definitions = define(analysis, word)
    if not definitions:
        return None
    text = "\n\n---\n\n".join(_markdown(d) for d in definitions)
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text),
                     lsp.Range(lsp.Position(word.line, word.start),
                               lsp.Position(word.line, word.end)))


def _markdown(d: Definition) -> str:
    lines = [f"({d.kind}) `{d.signature or d.name}`"]
    if d.span is not None:
        lines.append(f"defined at {_where(d.span)}")
    lines += [f"> {quote}" for quote in d.quotes]
    lines += [f"assume: {reason}" for reason in d.assumes]
    return "\n\n".join(lines)


def definition(analysis: Analysis, position: lsp.Position) -> list[lsp.Location]:
    """Where the name at the position is declared, in whichever file."""
    word = word_at(analysis.text, position.line, position.character)
    if word is None:
        return []
    return [lsp.Location(Path(d.span.path).resolve().as_uri(), to_range(d.span))
            for d in define(analysis, word) if d.span is not None and d.span.line > 0]


# ---- completion --------------------------------------------------------------------------
_KINDS = {"procedure": lsp.CompletionItemKind.Function,
          "decision": lsp.CompletionItemKind.Interface,
          "rule": lsp.CompletionItemKind.Class, "event": lsp.CompletionItemKind.Event,
          "enum": lsp.CompletionItemKind.Enum, "enum member": lsp.CompletionItemKind.EnumMember,
          "field": lsp.CompletionItemKind.Field, "counter": lsp.CompletionItemKind.Field,
          "kernel function": lsp.CompletionItemKind.Function,
          "keyword": lsp.CompletionItemKind.Keyword}


def completion(analysis: Analysis, position: lsp.Position) -> lsp.CompletionList:
    """The names in scope at the position: after a `.` the fields and counters of the
    entities; elsewhere locals, the program's top-level names, the kernel's and keywords."""
    lines = analysis.text.split("\n")
    line = lines[position.line] if 0 <= position.line < len(lines) else ""
    before = line[:position.character].rstrip("abcdefghijklmnopqrstuvwxyz"
                                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
    items: dict[str, lsp.CompletionItem] = {}
    if before.endswith("."):
        for name, kind, detail in _attribute_names(analysis.symbols):
            items.setdefault(name, _item(name, kind, detail))
    else:
        for name, local in locals_at(analysis.module, position.line + 1).items():
            items.setdefault(name, _item(name, local.kind, local.signature))
        for name, kind in _top_level_names(analysis.symbols):
            items.setdefault(name, _item(name, kind, kind))
        for name in FUNCTIONS:
            items.setdefault(name, _item(name, "kernel function", "kernel function"))
        for name in BUILTINS:
            items.setdefault(name, _item(name, "built-in value", "built-in value"))
        for name in DECLARATIONS | keywords() | TYPES:
            items.setdefault(name, _item(name, "keyword", "keyword"))
    return lsp.CompletionList(is_incomplete=False, items=list(items.values()))


def _item(name: str, kind: str, detail: str) -> lsp.CompletionItem:
    return lsp.CompletionItem(name, kind=_KINDS.get(kind, lsp.CompletionItemKind.Variable),
                              detail=detail)


def _attribute_names(symbols: Symbols | None) -> list[tuple[str, str, str]]:
    found = [(attr, "field", f"{owner}.{attr}: {atype.declared} (built in)")
             for (owner, attr), (atype, _) in BUILTIN_ATTRS.items()]
    if symbols is not None:
        found += [(name, "field", f"field {owner}.{name}")
                  for owner, name in symbols.fields]
        found += [(name, "counter", f"counter {owner}.{name}")
                  for owner, name in symbols.counters if owner]
    return found


_NAME_TABLES = (*NAME_TABLES, ("cards", "card"), ("rules", "rule"), ("events", "event"),
                ("enum_members", "enum member"))


def _top_level_names(symbols: Symbols | None) -> list[tuple[str, str]]:
    if symbols is None:
        return []
    found = [(name, kind) for table, kind in _NAME_TABLES for name in getattr(symbols, table)]
    return found + [(name, "counter") for owner, name in symbols.counters if not owner]


# ---- the outline -------------------------------------------------------------------------
def document_symbols(analysis: Analysis) -> list[lsp.DocumentSymbol]:
    """The document's declarations, with a rule's handlers, a deck's cards, the board's
    spaces and the game's properties under them."""
    module = analysis.module
    return [s for decl in (module.decls if module is not None else ())
            if (s := _symbol(decl)) is not None]


_SYMBOL_KINDS: dict[type, tuple[str, lsp.SymbolKind]] = {
    ast.RuleDecl: ("rule", lsp.SymbolKind.Class),
    ast.ProcDecl: ("proc", lsp.SymbolKind.Function),
    ast.DecisionDecl: ("decision", lsp.SymbolKind.Interface),
    ast.ParamDecl: ("param", lsp.SymbolKind.Constant),
    ast.SetParam: ("set", lsp.SymbolKind.Constant),
    ast.EnumDecl: ("enum", lsp.SymbolKind.Enum),
    ast.FieldDecl: ("field", lsp.SymbolKind.Field),
    ast.CounterDecl: ("counter", lsp.SymbolKind.Field),
    ast.OptionDecl: ("option", lsp.SymbolKind.Property),
    ast.GroupDecl: ("group", lsp.SymbolKind.Struct),
    ast.DieDecl: ("die", lsp.SymbolKind.Constant),
    ast.DeckDecl: ("deck", lsp.SymbolKind.Class),
    ast.GridDecl: ("grid", lsp.SymbolKind.Constant),
    ast.EventDecl: ("event", lsp.SymbolKind.Event),
    ast.Fixture: ("fixture", lsp.SymbolKind.Method),
    ast.UseRule: ("use", lsp.SymbolKind.Class),
    ast.Assumption: ("assumption", lsp.SymbolKind.String),
    ast.Import: ("import", lsp.SymbolKind.Module),
}


def _symbol(decl: ast.Decl) -> lsp.DocumentSymbol | None:
    where = to_range(decl.span)
    children: list[lsp.DocumentSymbol] = []
    match decl:
        case ast.Edition():
            name, detail, kind = decl.title, "edition", lsp.SymbolKind.Namespace
        case ast.Scenario():
            name, detail, kind = decl.title, f"scenario for {decl.rule}", lsp.SymbolKind.Method
        case ast.Board():
            name, detail, kind = "board", f"{len(decl.spaces)} spaces", lsp.SymbolKind.Namespace
            children = [_leaf(s.name, "space", lsp.SymbolKind.Constant, s.span)
                        for s in decl.spaces]
        case ast.GameDecl():
            name, detail, kind = "game", "", lsp.SymbolKind.Object
            children = [_leaf(p.kind, "game", lsp.SymbolKind.Property, p.span)
                        for p in decl.props]
        case ast.Waive() | ast.Equivalent():
            label = "waive" if isinstance(decl, ast.Waive) else "equivalent"
            text = decl.text if isinstance(decl, ast.Waive) else decl.mutant
            name, detail, kind = _short(text), label, lsp.SymbolKind.String
        case _:
            named = _SYMBOL_KINDS.get(type(decl))
            if named is None:
                return None
            detail, kind = named
            name = getattr(decl, "name", detail)
            if isinstance(decl, ast.FieldDecl | ast.CounterDecl) and decl.owner:
                name = f"{decl.owner}.{name}"
            if isinstance(decl, ast.RuleDecl):
                children = [_leaf(f"on {h.event}", "handler", lsp.SymbolKind.Event, h.span)
                            for h in decl.handlers]
            elif isinstance(decl, ast.DeckDecl):
                children = [_leaf(c.name, "card", lsp.SymbolKind.EnumMember, c.span)
                            for c in decl.cards]
    return lsp.DocumentSymbol(name=name or detail, kind=kind, range=where,
                              selection_range=where, detail=detail, children=children or None)


def _leaf(name: str, detail: str, kind: lsp.SymbolKind, span: Span) -> lsp.DocumentSymbol:
    where = to_range(span)
    return lsp.DocumentSymbol(name=name, kind=kind, range=where, selection_range=where,
                              detail=detail)


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"
