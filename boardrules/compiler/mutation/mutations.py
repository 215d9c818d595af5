"""Mutation operators on the checked program: small semantic changes, one at a time.

A mutant changes the IR that the `check` pass produced (never the text): a numeric
constant written in the rules (+1, -1, x2, 0), a comparison (`<` and `<=`, `==` and
`!=`), a condition negated, a statement dropped (a payment, a move, an assignment, a
card return), payer and payee of a payment swapped, `and` for `or`, the player a
decision asks, an `end turn` removed, an ordered walk's order reversed (`desc` added
or removed); or a param's value (+1, -1, x2, 0; a bool flipped),
applied by checking the program again with that value; or a declared number (a space's,
group's or card's field value, data.py), + 1.

`mutants(compilation)` lists them in a fixed order, each with its rules-file line, its
origin (the rule, procedure, card, decision, param or game property whose code it
changes), the quoting units it counts for (`callgraph.py`) and the rules text it stands
on, which its line-free names quote (harness/mutant_notes.py); `apply(compilation,
mutant)` gives the mutated program. Decision defaults are the default strategy, not
rules, and are never mutated; nor is code only they reach.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from ..common.diagnostics import CompileError, Reporter, Span
from ..front import ast
from ..front.checker import Checker
from ..ir import nodes as ir
from ..pipeline import Compilation
from .callgraph import CallGraph, param_units, strategy_params
from .data import OPERATOR as DATA
from .data import Number, declared_numbers, with_number
from .mutation_text import aggregate_texts, number_pattern, statement, text, written

COMPARISONS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
OPERATORS = ("const", "compare", "negate", "drop", "swap", "and-or", "chooser", "end-turn",
             "param", "order", DATA)


@dataclass(frozen=True)
class Mutant:
    """One small change of the checked program, traceable to its rules line and origin."""

    id: int
    operator: str  # one of OPERATORS
    origin: str  # "rule rent", "proc charge", "card well_tax", "decision buy", "param x"
    path: str  # the rules file, as the span names it
    line: int
    before: str  # what the mutated part reads in the rules' terms...
    after: str  # ...and what it reads in the mutant
    change: tuple[str, str] = ("", "")  # the token replaced on the line (for its diff)
    keyword: str = ""  # a negated condition's keyword (if, while, when, where)
    region: tuple[int, int] = (0, 0)  # the columns of its statement on the line (0: the end)
    units: tuple[str, ...] = ()  # the quoting units (rules, cards, params...) it counts for
    # a changed number's or comparison's enclosing expression, before and after
    context: tuple[str, str] = ("", "")
    stands_on: str = ""  # the rules text of its statement's first line (see `line_name`)
    # the block it stands in: "`if rent > 0 {`", "the else of `if ...`", at the top its
    # function's header (an aggregate's mutant: the block of the aggregate's first use)
    under: str = ""
    number: str = ""  # a declared number's name (`SPACE.rent[3]`): a note names it so

    @property
    def where(self) -> str:
        return f"{Path(self.path).name}:{self.line}"

    @property
    def description(self) -> str:
        return f"`{self.before}` -> `{self.after}`"

    @property
    def key(self) -> str:
        """What an `equivalent "..." because "..."` note names it by (see `note_key`)."""
        return note_key(f"{self.origin}: {self.before} -> {self.after}")

    @property
    def located_key(self) -> str:
        """The same with its rules line first (`rent.rules:26: proc rent_of: ...`, as the
        report prints survivors): a note that names only this one of same-named mutants."""
        return note_key(f"{self.where}: {self.key}")

    @property
    def context_key(self) -> str:
        """A changed number or comparison named by its enclosing expression on its line
        (`trades.rules:23: proc can_trade: s.price > 0 -> s.price > 1`), when two of one
        line read alike; empty for other mutants."""
        return note_key(f"{self.where}: {self.context_name}") if self.context[0] else ""

    @property
    def line_name(self) -> str:
        """Its name with the rules text it stands on (`proc owe_rent: 0 -> 1 on line `if
        rent > 0 {``), when two of one origin read alike: it changes only when that code
        does, never when lines are added above."""
        return f"{self.key} on line `{self.stands_on}`"

    @property
    def context_line_name(self) -> str:
        """The enclosing-expression name on the rules text it stands on, when that
        expression is written on several lines of its origin."""
        return f"{self.context_name} on line `{self.stands_on}`" if self.context[0] else ""

    @property
    def under_name(self) -> str:
        """That with the block it stands in (`... on line `release(p)` under `if p.jail_turns
        >= 3 {``), when its statement is written twice in its origin; empty at the top."""
        return f"{self.line_name} under {self.under}" if self.under else ""

    @property
    def context_name(self) -> str:
        """The same without the line (`proc can_trade: s.price > 0 -> s.price > 1`): a note
        that names a mutant this way stays on it when lines are added above."""
        if not self.context[0]:
            return ""
        return note_key(f"{self.origin}: {self.context[0]} -> {self.context[1]}")


def note_key(text: str) -> str:
    """A mutant's name in an equivalent note, white space folded and backquotes dropped:
    `proc auction: `price + 1` -> `price + 2``."""
    return " ".join(text.replace("`", " ").split())


class InvalidMutant(Exception):
    """The mutated program does not check (a param value the data cannot take, say)."""


# ---- one traversal lists mutants (target None) or applies one (target = its id) ----------------

class _Mutator:
    def __init__(self, program: ir.Program, texts: dict[str, str], graph: CallGraph,
                 target: int | None) -> None:
        self.program, self.texts, self.graph, self.target = program, texts, graph, target
        self.aggregates = aggregate_texts(program, texts)  # named by their rules text
        self.count = 0
        self.found: list[Mutant] = []
        self.origin, self.units = "", ()
        self.span: Span | None = None
        self.lines = ""  # the rules text where the current expression is written
        self._split: dict[str, list[str]] = {}
        self._parents: list[tuple[ir.Expr, str]] = []  # the expressions around the current one
        self._under: list[str] = []  # the blocks around the current statement (see Mutant)
        self._used: dict[str, str] = {}  # an aggregate's block: that of its first use

    # where the code being walked comes from
    def _enter(self, name: str, span: Span | None, first_line_only: bool = False) -> None:
        self.origin, self.units = self.graph.origin(name), self.graph.units(name)
        self._at(span, first_line_only)

    def _at(self, span: Span | None, first_line_only: bool) -> None:
        self.span = span
        if span is None:
            self.lines = ""
            return
        lines = self._lines(span.path)
        last = span.line if first_line_only else span.end_line
        self.lines = "\n".join(lines[span.line - 1:last])

    def _lines(self, path: str) -> list[str]:
        lines = self._split.get(path)
        if lines is None:
            lines = self._split[path] = self.texts.get(path, "").splitlines()
        return lines

    def text(self, e: ir.Expr | None) -> str:
        """An expression as the rules write it (aggregates by their text)."""
        return text(e, self.program, aggregates=self.aggregates)

    def _offer(self, operator: str, node, make, keyword: str = ""):
        """Count one mutant here; its replacement of `node` when it is the target."""
        index, self.count = self.count, self.count + 1
        if self.target is None:
            _, before, after, change, *context = make()
            span = self.span or Span("<unknown>", 0, 0, 0, 0)
            region = (span.column, span.end_column if span.end_line == span.line else 0)
            context = context[0] if context else ("", "")
            self.found.append(Mutant(index, operator, self.origin, span.path, span.line,
                                     before, after, change, keyword, region, self.units,
                                     context, written(self._lines(span.path), span, True),
                                     self._under[-1] if self._under else ""))
            return node
        return make()[0] if index == self.target else node

    # ---- expressions ----------------------------------------------------------------------
    def expr(self, e: ir.Expr | None) -> ir.Expr | None:
        if e is None:
            return None
        if isinstance(e, ir.CallProc) and e.function in self.aggregates and self._under:
            self._used.setdefault(e.function, self._under[-1])
        changes = {}
        for name in ("entity", "element", "holds", "left", "right", "operand", "test", "then",
                     "otherwise"):
            child = getattr(e, name, None)
            if isinstance(child, ir.Expr):
                self._parents.append((e, name))
                new = self.expr(child)
                self._parents.pop()
                if name == "test" and isinstance(e, ir.Conditional):
                    new = self.negate(new)
                if new is not child:
                    changes[name] = new
        if isinstance(e, ir.CallProc | ir.KernelCall):
            # the die of roll(six) is an index, not a number of the rules
            keep = e.function == "k_roll"
            args = tuple(self.expr(a) if not keep else a for a in e.args)
            if any(a is not b for a, b in zip(args, e.args, strict=True)):
                changes["args"] = args
        if changes:
            e = dataclasses.replace(e, **changes)
        return self._expression_mutants(e)

    def _expression_mutants(self, e: ir.Expr) -> ir.Expr:
        if isinstance(e, ir.Const) and e.type == ir.INT and not isinstance(e.value, bool):
            if _written(e.value, self.lines):
                old = str(e.value)
                for value in _variants(e.value):
                    e = self._offer("const", e, lambda v=value: (
                        ir.Const(ir.INT, v), old, str(v), (old, str(v)),
                        self._context(ir.Const(ir.INT, v))))
        elif isinstance(e, ir.Binary) and e.op in COMPARISONS:
            e = self._offer("compare", e, lambda old=e: (
                dataclasses.replace(old, op=COMPARISONS[old.op]), self.text(old),
                self.text(dataclasses.replace(old, op=COMPARISONS[old.op])),
                (old.op, COMPARISONS[old.op]),
                self._context(dataclasses.replace(old, op=COMPARISONS[old.op]))))
        elif isinstance(e, ir.Binary) and e.op in ("and", "or"):
            e = self._offer("and-or", e, lambda old=e: (
                dataclasses.replace(old, op=_other(old.op)), self.text(old),
                self.text(dataclasses.replace(old, op=_other(old.op))), (old.op, _other(old.op))))
        elif isinstance(e, ir.KernelCall) and e.function == "k_pay":  # both take a player?
            e = self._offer("swap", e, lambda old=e: (
                dataclasses.replace(old, args=(old.args[1], old.args[0], *old.args[2:])),
                self.text(old), self.text(dataclasses.replace(
                    old, args=(old.args[1], old.args[0], *old.args[2:]))), ("", "")))
        return e

    def _context(self, replacement: ir.Expr) -> tuple[str, str]:
        """The expression around the one being changed, before and after the change."""
        if not self._parents:
            return ("", "")
        parent, field = self._parents[-1]
        changed = dataclasses.replace(parent, **{field: replacement})
        return self.text(parent), self.text(changed)

    def negate(self, test: ir.Expr | None, keyword: str = "") -> ir.Expr | None:
        if test is None:
            return None

        def make(old=test):
            new = old.operand if isinstance(old, ir.Unary) and old.op == "not" else ir.Unary(
                ir.BOOL, "not", old)
            return new, self.text(old), self.text(new), ("", "")
        return self._offer("negate", test, make, keyword)

    # ---- statements -----------------------------------------------------------------------
    def block(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        out: list[ir.Stmt] = []
        for s in body:
            new = self.stmt(s)
            self._at(s.span, False)
            if isinstance(s, ir.Evaluate | ir.Assign):
                new = self._offer("drop", new, lambda old=s: (
                    None, self._written_as(old), "(removed)", ("", "")))
            elif isinstance(s, ir.Raise):
                new = self._offer("end-turn", new, lambda old=s: (
                    None, self._written_as(old), "(removed)", ("", "")))
            if new is not None:
                out.append(new)
        return body if len(out) == len(body) and all(
            a is b for a, b in zip(out, body, strict=True)) else tuple(out)

    def _written_as(self, s: ir.Stmt) -> str:
        """A one-line statement as the rules file writes it (params by name), else as the
        IR reads it."""
        span = s.span
        lines = self._lines(span.path)
        if span.line == span.end_line and 0 < span.line <= len(lines):
            written = lines[span.line - 1][span.column - 1:span.end_column - 1].strip()
            if written:
                return " ".join(written.split())
        return statement(s, self.program, self.aggregates)

    def stmt(self, s: ir.Stmt) -> ir.Stmt:
        compound = isinstance(s, ir.If | ir.While | ir.Loop)
        self._at(s.span, compound)
        changes = {}
        for name in ("value", "target", "expr", "test", "order_where", "order", "where"):
            child = getattr(s, name, None)
            if isinstance(child, ir.Expr):
                new = self.expr(child)
                if name in ("test", "where", "order_where"):
                    self._at(s.span, compound)
                    new = self.negate(new, "if" if isinstance(s, ir.If) else
                                      "while" if isinstance(s, ir.While) else "where")
                if new is not child:
                    changes[name] = new
        if isinstance(s, ir.Loop) and s.order is not None:
            self._at(s.span, compound)
            desc = self._offer("order", s.desc, lambda old=s: (
                not old.desc, *_reversed(self.text(old.order), old.desc)))
            if desc is not s.desc:
                changes["desc"] = desc
        header = f"`{written(self._lines(s.span.path), s.span, True)}`" if compound else ""
        for name in ("then", "otherwise", "body"):
            inner = getattr(s, name, None)
            if isinstance(inner, tuple):
                self._under.append(f"the else of {header}" if name == "otherwise" else header)
                new_block = self.block(inner)
                self._under.pop()
                if new_block is not inner:
                    changes[name] = new_block
        return dataclasses.replace(s, **changes) if changes else s

    # ---- the program ----------------------------------------------------------------------
    def program_mutants(self) -> ir.Program:
        p, graph = self.program, self.graph
        functions = []
        for f in p.functions:
            if not graph.mutable(f.name):
                functions.append(f)
                continue
            self._enter(f.name, f.span, first_line_only=True)
            guard = self.negate(self.expr(f.guard), "when") if f.guard is not None else None
            # its header: a rule's handlers are one origin
            self._under = [f"`{written(self._lines(f.span.path), f.span, True)}`"] if f.span \
                else []
            body = self.block(f.body)
            self._under = []
            functions.append(f if guard is f.guard and body is f.body else
                             dataclasses.replace(f, guard=guard, body=body))
        aggregates = []
        tops: dict[str, ir.Aggregate] = {}  # best by a key's max_of, as its best mutated it
        for a in p.aggregates:
            if not graph.mutable(a.name) or a.rank == "top":
                aggregates.append(a)
                continue
            self._enter(a.name, a.span)
            self._under = [self._used[a.name]] if a.name in self._used else []
            top = _top_of(a, {b.name: b for b in p.aggregates})
            if top is None:
                where = self.negate(self.expr(a.where)) if a.where is not None else None
            else:  # the filter C and V == top(): mutate C and V, in both aggregates
                where, tops[top.name] = self._topped(a.where, top)
            value = self._ranked(a) if a.rank else self.expr(a.value)
            self._under = []
            aggregates.append(a if where is a.where and value is a.value else
                              dataclasses.replace(a, where=where, value=value))
        aggregates = [tops.get(a.name, a) for a in aggregates]
        decisions = tuple(self._decision(d) for d in p.decisions)
        changes: dict = {}
        for prop, value in (("over_when", p.over_when), ("score", p.score),
                            ("first_player", p.first_player)):
            if value is not None:
                self._enter(graph.game_function(prop), graph.game_span(prop))
                new = self.expr(value)
                if new is not value:
                    changes[prop] = new
        if p.tie_breaks:  # the score's, after the game's other properties
            self._enter(graph.game_function("score"), graph.game_span("score"))
            breaks = tuple(self.expr(e) for e in p.tie_breaks)
            if any(a is not b for a, b in zip(breaks, p.tie_breaks, strict=True)):
                changes["tie_breaks"] = breaks
        if any(a is not b for a, b in zip(functions, p.functions, strict=True)):
            changes["functions"] = tuple(functions)
            changes["events"] = _with_guards(p.events, functions)
        if any(a is not b for a, b in zip(aggregates, p.aggregates, strict=True)):
            changes["aggregates"] = tuple(aggregates)
        if any(a is not b for a, b in zip(decisions, p.decisions, strict=True)):
            changes["decisions"] = decisions
        return dataclasses.replace(p, **changes) if changes else p

    def _topped(self, where: ir.Expr, top: ir.Aggregate) -> tuple[ir.Expr, ir.Aggregate]:
        """The filter of a best by a key (`C and V == top()`, lowered from `best(V for x
        in D where C by KEY)`) with C's and V's mutants, and its max_of with the same C and
        V: a mutant changes what the rules write, never the comparison the lowering wrote
        nor one copy of two."""
        largest = where.right if where.op == "and" else where
        chosen = where.left if where.op == "and" else None
        mutated = self.negate(self.expr(chosen)) if chosen is not None else None
        value = self.expr(largest.left)
        if mutated is chosen and value is largest.left:
            return where, top
        largest = dataclasses.replace(largest, left=value)
        return (largest if chosen is None else dataclasses.replace(
            where, left=mutated, right=largest)), dataclasses.replace(
            top, where=mutated, value=value)

    def _ranked(self, a: ir.Aggregate) -> ir.Expr:
        """The value of a best lowered from an order (ir.Aggregate.rank): the key's own
        mutants, and the order reversed; never the constants the lowering wrote."""
        if a.rank == "first":
            return a.value
        written = a.value.right if a.rank == "asc" else a.value
        key = self.expr(written)
        value = a.value if key is written else (
            dataclasses.replace(a.value, right=key) if a.rank == "asc" else key)
        flipped = key if a.rank == "asc" else ir.Binary(ir.INT, "-", ir.Const(ir.INT, -1), key)
        return self._offer("order", value, lambda: (
            flipped, *_reversed(self.text(key), a.rank == "desc")))

    def _decision(self, d: ir.Decision) -> ir.Decision:
        name = f"decide_{d.name}"
        if not self.graph.mutable(name):
            return d
        self._enter(name, d.span, first_line_only=True)
        by = d.by
        for alternative in _other_players(d):
            by = self._offer("chooser", by, lambda new=alternative: (
                new, f"ask {d.name} asks {self.text(d.by)}",
                f"ask {d.name} asks {self.text(new)}", ("", "")))
        self._enter(name, d.span)
        low, high = self.expr(d.low), self.expr(d.high)
        where = self.negate(self.expr(d.where)) if d.where is not None else None
        if (by, low, high, where) == (d.by, d.low, d.high, d.where):
            return d
        return dataclasses.replace(d, by=by, low=low, high=high, where=where)


def _top_of(a: ir.Aggregate, aggregates: dict[str, ir.Aggregate]) -> ir.Aggregate | None:
    """The max_of a best by a key compares its values with (front/expressions.py), if any."""
    if a.rank not in ("asc", "desc") or a.where is None:
        return None
    largest = a.where.right if isinstance(a.where, ir.Binary) and a.where.op == "and" \
        else a.where
    if isinstance(largest, ir.Binary) and largest.op == "==" and isinstance(
            largest.right, ir.CallProc) and largest.right.function in aggregates:
        top = aggregates[largest.right.function]
        return top if top.rank == "top" else None
    return None


def _reversed(key: str, desc: bool) -> tuple[str, str, tuple[str, str]]:
    """An order by a key (as written), before and after `desc` is added or removed, and
    that change."""
    before, after = (f"by {key} desc", f"by {key}") if desc else (f"by {key}", f"by {key} desc")
    return before, after, ("desc", "") if desc else ("", "desc")


def _other(op: str) -> str:
    return "or" if op == "and" else "and"


def _variants(value: int) -> list[int]:
    """A number's mutants: +1, -1, x2 and 0, each once and none equal to it."""
    return [v for v in dict.fromkeys((value + 1, value - 1, value * 2, 0)) if v != value]


def _written(value: int, lines: str) -> bool:
    """Whether the number is written on the rules lines (not a param's value folded in)."""
    return re.search(number_pattern(value), lines) is not None


def _other_players(d: ir.Decision) -> list[ir.Expr]:
    """Whom else the decision could ask: its other player parameters, else the next player."""
    others: list[ir.Expr] = [ir.Local(t, n) for n, t in d.params
                             if t == ir.Type("player") and ir.Local(t, n) != d.by]
    if not others and d.by.type == ir.Type("player"):
        others.append(ir.KernelCall(ir.Type("player"), "k_next_player", (d.by,)))
    return others


def _with_guards(events: dict[str, ir.Event], functions: list[ir.Function]
                 ) -> dict[str, ir.Event]:
    """The events with each handler's guard taken from its (possibly mutated) function."""
    guards = {f.name: f.guard for f in functions}
    return {name: dataclasses.replace(event, handlers=tuple(
        dataclasses.replace(h, guard=guards.get(h.function, h.guard)) for h in event.handlers))
        for name, event in events.items()}


# ---- params: checked again with another value -------------------------------------------------

def _param_values(compilation: Compilation) -> list[tuple[str, ast.Node, object, object]]:
    """(param, the declaration giving its value, value, mutated value) for int and bool params,
    but those only the default strategy names (unless they quote the rulebook)."""
    symbols, program = compilation.symbols, compilation.program
    tuning = strategy_params(symbols, call_graph(compilation))
    found = []
    for name, decl in symbols.params.items():
        quoted = any(isinstance(p, ast.Quote) for p in decl.provenance)
        if name not in program.constants or (name in tuning and not quoted):
            continue
        given = symbols.sets.get(name) or decl
        kind = decl.type.name if isinstance(decl.type, ast.TypeRef) else ""
        value = program.constants[name]
        if kind == "bool":
            found.append((name, given, bool(value), not value))
        elif kind in ("int", "money"):
            found += [(name, given, value, new) for new in _variants(value)]
    return found


def _checked_with(compilation: Compilation, param: str, value: object) -> ir.Program:
    symbols = compilation.symbols
    literal = (ast.BoolLit(Span("<mutant>", 0, 0, 0, 0), value) if isinstance(value, bool)
               else ast.IntLit(Span("<mutant>", 0, 0, 0, 0), value))
    if param in symbols.sets:
        changed = dataclasses.replace(symbols, sets={
            **symbols.sets, param: dataclasses.replace(symbols.sets[param], value=literal)})
    else:
        changed = dataclasses.replace(symbols, params={
            **symbols.params, param: dataclasses.replace(symbols.params[param], value=literal)})
    reporter = Reporter()
    program = Checker(changed, reporter, compilation.edition).run()
    try:
        reporter.raise_if_errors()
    except CompileError as exc:
        raise InvalidMutant(str(exc).splitlines()[0]) from None
    return program


# ---- the public interface ----------------------------------------------------------------------

_graphs: dict[int, tuple[ir.Program, CallGraph]] = {}


def call_graph(compilation: Compilation) -> CallGraph:
    """The program's call graph, built once per checked program."""
    program = compilation.program
    if id(program) not in _graphs:
        _graphs[id(program)] = (program, CallGraph(program, compilation.symbols))
    return _graphs[id(program)][1]


def mutants(compilation: Compilation) -> list[Mutant]:
    """Every mutant of the checked program, in a fixed order, numbered from 0."""
    program, texts = compilation.program, compilation.sources.texts
    graph = call_graph(compilation)
    walker = _Mutator(program, texts, graph, None)
    walker.program_mutants()
    found = walker.found
    units = param_units(compilation.symbols, graph)
    for name, given, value, new in _param_values(compilation):
        shown = (lambda v: str(v).lower()) if isinstance(value, bool) else str
        found.append(Mutant(len(found), "param", f"param {name}", given.span.path,
                            given.span.line, f"{name} = {shown(value)}",
                            f"{name} = {shown(new)}", (shown(value), shown(new)),
                            units=units.get(name, (name,)), stands_on=written(
                                texts.get(given.span.path, "").splitlines(), given.span, True)))
    for n in numbers(compilation):
        found.append(Mutant(len(found), DATA, f"{n.kind} {n.entity}", n.span.path, n.span.line,
                            f"{n.field} = {n.value}", f"{n.field} = {n.new}",
                            (n.written, str(n.new)), region=(n.span.column, n.span.end_column),
                            units=n.units, stands_on=n.stands_on, number=n.name))
    return found


_numbers: dict[int, tuple[ir.Program, list[Number]]] = {}


def numbers(compilation: Compilation) -> list[Number]:
    """The program's declared numbers that rules code reads (data.py), listed once."""
    program = compilation.program
    if id(program) not in _numbers:
        _numbers[id(program)] = (program, declared_numbers(compilation, call_graph(compilation)))
    return _numbers[id(program)][1]


def apply(compilation: Compilation, mutant: Mutant) -> ir.Program:
    """The checked program with this one mutant applied (raises InvalidMutant)."""
    if mutant.operator == "param":
        name = mutant.origin.split(" ", 1)[1]
        value = mutant.change[1]
        new: object = value == "true" if value in ("true", "false") else int(value)
        return _checked_with(compilation, name, new)
    if mutant.operator == DATA:
        number = next((n for n in numbers(compilation) if n.name == mutant.number), None)
        if number is None:
            raise InvalidMutant(f"no declared number {mutant.number}")
        return with_number(compilation.program, number)
    walker = _Mutator(compilation.program, compilation.sources.texts, call_graph(compilation),
                      mutant.id)
    mutated = walker.program_mutants()
    if mutated is compilation.program:
        raise InvalidMutant(f"mutant {mutant.id} does not exist")
    return mutated
