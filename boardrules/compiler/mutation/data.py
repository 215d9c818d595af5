"""Declared numbers as mutants: a wrong price, rent or card amount should fail a scenario.

Each number written as a literal in a space's, group's or card's field values (`price =
N`, each element of a `rent = [...]` row, a card's `value = N`) is one
declared number, named by its entity and field (`SPACE.price`, `SPACE.rent[3]`, an
enum-indexed list by its member, `SPACE.cost[MEMBER]`). Its one mutant is the number + 1
(- 1 at the top of the integer range): the smallest change, which every scenario that
reads the number exactly notices, and never the number itself. A card declared with
`copies` is one declaration: its mutant changes every copy.

Only fields some rules code reads are mutated (the units whose code reads a field are
what its numbers count for): a field only the default strategy reads is tuning, as a
param only it reads is, and one nothing reads cannot make a game differ. A field's
default, a value given by a param or an expression, a die's faces and a counter's start
are not declared numbers here (a param's own mutants change its value everywhere).

The checker never folds a field's value into code (a field is read from its table), so a
mutant is applied to the program's table, with no check again.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..common.diagnostics import Span
from ..common.lang_types import INT_MAX
from ..front import ast
from ..ir import nodes as ir
from ..pipeline import Compilation
from .callgraph import CallGraph, nodes_of

OPERATOR = "data"  # a declared number's mutants


@dataclass(frozen=True)
class Number:
    """One declared number: where it is written and which table slots hold it."""

    name: str  # `SPACE.rent[3]`
    kind: str  # space | group | card
    entity: str
    field: str  # `rent[3]`: the field, and the element of a list
    table: str  # the IR table (`space_rent`)
    slots: tuple[int, ...]  # its places in the table (a card's copies: one each)
    value: int
    new: int
    written: str  # the literal as the rules write it (`60`, `-2`)
    span: Span  # of the literal
    stands_on: str  # the field value's text: `price = 60`
    units: tuple[str, ...]  # the entity and the units whose code reads the field


def _literal(e: ast.Expr) -> int | None:
    """A number written as such (`60`, `-2`); None for a name, a param or an expression."""
    if isinstance(e, ast.IntLit) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.IntLit):
        return -e.operand.value
    return None


def readers(program: ir.Program, graph: CallGraph) -> dict[str, set[str]]:
    """For each table, the units whose rules code reads it (never the default strategy)."""
    found: dict[str, set[str]] = {}
    skipped = frozenset({"type", "span"})

    def read(node, owner: str) -> None:
        if not graph.mutable(owner):
            return
        for t in nodes_of(node, ir.Table, skipped):
            found.setdefault(t.table, set()).update(graph.units(owner))

    for f in program.functions:
        read((f.guard, f.body), f.name)
    for a in program.aggregates:
        read((a.where, a.value, a.domain), a.name)
    for d in program.decisions:
        read((d.by, d.low, d.high, d.where, d.domain), f"decide_{d.name}")
    for attr in ("over_when", "score", "first_player", "round_limit", "bankruptcy_ends"):
        value = getattr(program, attr)
        read((value, program.tie_breaks) if attr == "score" else value,
             graph.game_function(attr))
    return found


def _entities(compilation: Compilation) -> list[tuple[str, str, ast.Node, tuple[int, ...]]]:
    """(kind, name, declaration, entity indexes) of every space, group and card."""
    symbols, program = compilation.symbols, compilation.program
    found: list[tuple[str, str, ast.Node, tuple[int, ...]]] = []
    found += [("space", n, d, (i,)) for i, (n, d) in enumerate(symbols.spaces.items())]
    found += [("group", n, d, (i,)) for i, (n, d) in enumerate(symbols.groups.items())]
    for name, (_, card) in symbols.cards.items():
        first = program.card_ids.index(name)
        found.append(("card", name, card, tuple(i for i, k in enumerate(program.card_kinds)
                                                if k == first)))
    return found


def declared_numbers(compilation: Compilation, graph: CallGraph) -> list[Number]:
    """Every declared number of the checked program that rules code reads, in the order
    the rules declare them (spaces, then groups, then cards)."""
    symbols, program = compilation.symbols, compilation.program
    texts = compilation.sources.texts
    tables = {t.name: t for t in program.tables}
    read = readers(program, graph)
    numbers = []
    for kind, name, decl, indexes in _entities(compilation):
        for fv in decl.values:
            table = tables.get(f"{kind}_{fv.name}")
            field = symbols.fields.get((kind, fv.name))
            if table is None or field is None or not read.get(table.name):
                continue
            items = fv.value.items if isinstance(fv.value, ast.ListLit) else (fv.value,)
            members = program.enums.get(field.type.index_enum, ())
            lines = texts.get(fv.span.path, "").splitlines()
            for k, item in enumerate(items):
                value = _literal(item)
                if value is None or k >= table.stride:
                    continue
                element = "" if table.stride == 1 and not isinstance(fv.value, ast.ListLit) \
                    else f"[{members[k] if k < len(members) else k}]"
                numbers.append(Number(
                    f"{name}.{fv.name}{element}", kind, name, f"{fv.name}{element}",
                    table.name, tuple(i * table.stride + k for i in indexes), value,
                    value + 1 if value < INT_MAX else value - 1,
                    _text(lines, item.span) or str(value), item.span,
                    _text(lines, fv.span),
                    tuple(sorted({name, *read[table.name]}))))
    return numbers


def _text(lines: list[str], span: Span) -> str:
    """What a span writes on its first line (white space folded)."""
    if not 0 < span.line <= len(lines):
        return ""
    line = lines[span.line - 1]
    end = span.end_column - 1 if span.end_line == span.line else len(line)
    return " ".join(line[span.column - 1:end].split())


def with_number(program: ir.Program, number: Number) -> ir.Program:
    """The program with this one declared number changed to its mutant's value."""
    def changed(t: ir.TableData) -> ir.TableData:
        if t.name != number.table:
            return t
        values = list(t.values)
        for slot in number.slots:
            values[slot] = number.new
        return dataclasses.replace(t, values=tuple(values))
    return dataclasses.replace(program, tables=tuple(changed(t) for t in program.tables))
