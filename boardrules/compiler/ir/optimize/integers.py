"""Integers: exact arithmetic, 32-bit storage, the same on both backends.

The language's integers are exact, as in Python: `p.cash - cost >= 250` compares
the true difference. What is *kept* (a local, a counter, an argument, a return
value, a decision's bounds, a payment) must fit in 32 bits, from -2147483648 to
2147483647; a value outside is a rules error where it is kept, on both backends.

The interpreted backend gets this for free (Python integers) but for the check;
the compiled one computes in 64 bits where an interval analysis cannot prove
that 32 suffice, and checks where a value is kept (`narrow`). Where even 64
bits might not be enough (a product of products), the factors are narrowed to
32 bits first, so that C never overflows silently. Loops over ranges too wide to
finish are stopped by the loop guard, before they start.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from ...common.diagnostics import Reporter
from ...common.kernel_facts import kernel_constants
from ...common.lang_types import INT_MAX, INT_MIN
from .. import nodes as ir
from .effects import Effects
from .walk import (
    assigned_locals,
    map_expr,
    map_program_exprs,
    map_stmt_exprs,
    walk_expr,
    walk_stmts,
)

Interval = tuple[int, int]
INT32: Interval = (INT_MIN, INT_MAX)
INT64: Interval = (-(2**63), 2**63 - 1)
SMALL: Interval = (-1, 2**16)  # entities and enum members (-1 is none)
BOOL: Interval = (0, 1)
LOOP_LIMIT = kernel_constants("LOOP_LIMIT")["LOOP_LIMIT"]  # more rounds: a rules error
# steps forward round the track: fewer than the spaces a board may have
DISTANCE: Interval = (0, kernel_constants("CAP_SPACES")["CAP_SPACES"] - 1)
# how many players there are, or are still in: at most the seats a game may have
SEATS: Interval = (0, kernel_constants("CAP_PLAYERS")["CAP_PLAYERS"])
# A range that may have more values than this is counted in the turn's loop rounds (each
# loop of a nest may stay under LOOP_LIMIT while the nest runs for ever); one of entities
# (at most a kernel capacity) is not.
UNCOUNTED_SPAN = 1024
NARROW = "narrow"
# kernel primitives that compute on their arguments rather than keep them
COMPUTING = frozenset({"min", "max", "abs", NARROW})
COMPOUND = {"+=": "+", "-=": "-", "*=": "*"}


def within(inner: Interval, outer: Interval) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


class Ranges:
    """The interval of values each integer expression may take."""

    def __init__(self, program: ir.Program) -> None:
        self.tables = {t.name: (min(t.values, default=0), max(t.values, default=0))
                       for t in program.tables}
        self.hoisted = {name: e for a in program.aggregates for name, e in a.hoisted}
        faces = [face for die in program.dice for face in die.faces]
        self.roll = (min(faces, default=0), max(faces, default=0))  # any die's face
        self._known: dict[int, tuple[ir.Expr, Interval]] = {}
        self.locals: dict[str, Interval] = {}  # of the function being looked at, when known
        # where a walk in statement order is (the narrowing's): each integer local's range
        # as the statements before this point left it, when known (a value just assigned)
        self.here: dict[str, Interval] = {}
        # a count is at most its domain's length (its bounds' ranges, with no local known)
        self.counts: dict[str, Interval] = {}
        self.counts = {a.name: (0, max(self.of(a.domain.high)[1] - self.of(a.domain.low)[0], 0))
                       for a in program.aggregates if a.kind == "count"}

    def enter(self, f: ir.Function | None) -> None:
        """Look at a function's code: its locals that are only ever set to values that do
        not depend on other integer locals (`let a = roll(six)`) get those values' range."""
        self._known.clear()
        self.locals = {}
        self.here = {}
        if f is None:
            return
        values: dict[str, list[ir.Expr]] = {}
        unknown = {name for name, _ in f.params}
        for s in walk_stmts(f.body):
            match s:
                case ir.Declare():
                    values.setdefault(s.name, []).append(s.value)
                case ir.Assign(target=ir.Local()) if s.op == "=":
                    values.setdefault(s.target.name, []).append(s.value)
                case ir.Assign(target=ir.Local()) | ir.Loop():
                    unknown.add(s.target.name if isinstance(s, ir.Assign) else s.var)
        for name, assigned in values.items():
            if name in unknown or any(isinstance(n, ir.Local | ir.Hoisted) and n.type.name == "int"
                                      for e in assigned for n in walk_expr(e)):
                continue
            intervals = [self.of(e) for e in assigned]
            self.locals[name] = (min(i[0] for i in intervals), max(i[1] for i in intervals))
        self._known.clear()

    def at(self, here: dict[str, Interval]) -> None:
        """Move the walk to a point where the locals' ranges are `here`."""
        if here != self.here:
            self.here = here
            self._known.clear()  # a local's range, and so an expression's, may differ

    def after(self, s: ir.Stmt) -> None:
        """Move the walk past a statement that sets no block of its own (a local's
        declaration or assignment: its new value's range, as computed where it is set)."""
        match s:
            case ir.Declare() | ir.Assign(target=ir.Local()):
                name = s.name if isinstance(s, ir.Declare) else s.target.name
                here = {k: v for k, v in self.here.items() if k != name}
                if s.type.name == "int" if isinstance(s, ir.Declare) else (
                        s.target.type.name == "int" and s.op == "="):
                    here[name] = self.of(s.value)
                self.at(here)

    def of(self, e: ir.Expr) -> Interval:
        known = self._known.get(id(e))
        if known is None or known[0] is not e:
            known = (e, self._compute(e))
            self._known[id(e)] = known
        return known[1]

    def wide(self, e: ir.Expr) -> bool:
        """Whether an integer expression may leave 32 bits (computed in 64 in C)."""
        return e.type.name == "int" and not within(self.of(e), INT32)

    def _compute(self, e: ir.Expr) -> Interval:
        match e:
            case ir.Const(value=bool()):
                return BOOL
            case ir.Const(value=int(value)):
                return (value, value)
            case ir.Local() if e.name in self.here and e.type.name == "int":
                return self.here[e.name]
            case ir.Local() if e.name in self.locals and e.type.name == "int":
                return self.locals[e.name]
            case ir.Table() if e.table in self.tables:
                return self.tables[e.table]
            case ir.Builtin() if e.name in ("players_count", "players_in"):
                return SEATS  # a walk of the seats is not counted in the turn's rounds
            case ir.Builtin() if e.name not in ("turn", "rounds", "bankruptcies"):
                return SMALL  # a player
            case ir.Hoisted() if e.name in self.hoisted:
                return self.of(self.hoisted[e.name])
            case ir.Unary(op="-"):
                low, high = self.of(e.operand)
                return (-high, -low)
            case ir.Binary(op="+" | "-" | "*" | "//" | "%"):
                return _arithmetic(e.op, self.of(e.left), self.of(e.right))
            case ir.Conditional():
                (a, b), (c, d) = self.of(e.then), self.of(e.otherwise)
                return (min(a, c), max(b, d))
            case ir.KernelCall(function="min" | "max"):
                pick = min if e.function == "min" else max
                intervals = [self.of(a) for a in e.args]
                return (pick(i[0] for i in intervals), pick(i[1] for i in intervals))
            case ir.KernelCall(function="k_roll"):
                return self.roll
            case ir.CallProc() if e.function in self.counts:
                return self.counts[e.function]
            case ir.KernelCall(function="k_distance"):
                return DISTANCE
            case ir.KernelCall(function="abs"):
                low, high = self.of(e.args[0])
                if low >= 0:
                    return (low, high)
                return (-high, -low) if high <= 0 else (0, max(-low, high))
        return _of_type(e.type)


def _of_type(t: ir.Type) -> Interval:
    if t.name == "bool":
        return BOOL
    if t.name == "int":
        return INT32
    return SMALL  # entities, enum members, none


def _arithmetic(op: str, left: Interval, right: Interval) -> Interval:
    (a, b), (c, d) = left, right
    if op == "+":
        return (a + c, b + d)
    if op == "-":
        return (a - d, b - c)
    if op == "*":
        products = (a * c, a * d, b * c, b * d)
        return (min(products), max(products))
    # floor division and modulo: bounded by the dividend's and the divisor's size
    big = max(abs(a), abs(b))
    if op == "//":
        return (-big, big)
    divisor = max(abs(c), abs(d))
    return (-divisor, divisor)


class _Narrowing:
    """Rewrites a program so that every kept integer is checked, and C never overflows."""

    def __init__(self, program: ir.Program) -> None:
        self.ranges = Ranges(program)

    def narrow(self, e: ir.Expr | None) -> ir.Expr | None:
        """The expression, checked to fit in 32 bits when it may not."""
        if e is None:
            return None
        e = map_expr(e, self.node)
        return ir.KernelCall(e.type, NARROW, (e,)) if self.ranges.wide(e) else e

    def node(self, e: ir.Expr) -> ir.Expr:
        """Arguments are kept (narrowed); a product of wide factors gets 32-bit factors."""
        match e:
            case ir.CallProc() | ir.KernelCall() if getattr(e, "function", "") not in COMPUTING:
                args = tuple(self._kept(a) for a in e.args)
                if any(a is not b for a, b in zip(args, e.args, strict=True)):
                    return dataclasses.replace(e, args=args)
            case ir.Binary(op="+" | "-" | "*" | "//" | "%") if not within(self.ranges.of(e),
                                                                         INT64):
                return dataclasses.replace(e, left=self._kept(e.left), right=self._kept(e.right))
            case ir.State() | ir.Table() if e.element is not None and self.ranges.wide(e.element):
                return dataclasses.replace(e, element=self._kept(e.element))
        return e

    def _kept(self, e: ir.Expr) -> ir.Expr:
        return ir.KernelCall(e.type, NARROW, (e,)) if self.ranges.wide(e) else e

    def expr(self, e: ir.Expr | None) -> ir.Expr | None:
        return None if e is None else map_expr(e, self.node)

    def body(self, body: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        """The block's statements checked, in order: a local's range where it is read is
        the one its last assignment before gave it (`let t = roll(d)`, then `t += roll(d)`:
        at most two faces, no check), where that assignment is known."""
        checked = []
        for s in body:
            if isinstance(s, ir.While | ir.Loop):  # any round may have changed them
                self.ranges.at(_forgetting(self.ranges.here, s))
            s = self.statement(map_stmt_exprs(s, self.node))
            checked.append(s)
            self.ranges.after(s)
        return tuple(checked)

    def statement(self, s: ir.Stmt) -> ir.Stmt:
        match s:
            case ir.Declare() if s.type.name == "int":
                return dataclasses.replace(s, value=self._kept(s.value))
            case ir.Assign() if s.target.type.name == "int" and s.op == "=":
                return dataclasses.replace(s, value=self._kept(s.value))
            case ir.Assign() if s.target.type.name == "int" and s.op in COMPOUND:
                # x *= e is x = x * e: a product that may not fit in 64 bits either gets
                # 32-bit factors, as written products do (node)
                total = self.node(ir.Binary(ir.INT, COMPOUND[s.op], s.target, s.value))
                if self.ranges.wide(total):
                    return dataclasses.replace(s, op="=", value=self._kept(total))
            case ir.Return() if s.value is not None and s.value.type.name == "int":
                return dataclasses.replace(s, value=self._kept(s.value))
            case ir.If():
                before = self.ranges.here
                then = self.body(s.then)
                after_then = self.ranges.here
                self.ranges.at(before)
                otherwise = self.body(s.otherwise)
                self.ranges.at(_joined(after_then, self.ranges.here))
                return dataclasses.replace(s, then=then, otherwise=otherwise)
            case ir.While():
                head = self.ranges.here
                checked = dataclasses.replace(s, body=self.body(s.body))
                self.ranges.at(head)
                return checked
            case ir.Loop():  # an ordered walk keeps its keys in a C array of ints
                head = self.ranges.here
                order = None if s.order is None else self._kept(s.order)
                checked = dataclasses.replace(s, domain=self.domain(s.domain),
                                              body=self.body(s.body), order=order)
                self.ranges.at(head)
                return checked
        return s

    def domain(self, d: ir.Domain | None) -> ir.Domain | None:
        """A range's bounds are kept; one that may be long is guarded: its length counts in
        the turn's loop rounds."""
        if d is None:
            return None
        d = dataclasses.replace(d, low=self.narrow(d.low), high=self.narrow(d.high))
        (low, _), (_, high) = self.ranges.of(d.low), self.ranges.of(d.high)
        return dataclasses.replace(d, guarded=d.kind == "range" and not d.index
                                   and high - low > UNCOUNTED_SPAN)

    def aggregate(self, a: ir.Aggregate) -> ir.Aggregate:
        value = self.narrow(a.value)
        domain = self.domain(a.domain)
        checked_total = False
        if a.kind == "sum":
            (low, high), (first, last) = self.ranges.of(value), (
                self.ranges.of(domain.low)[0], self.ranges.of(domain.high)[1])
            length = max(last - first, 0)
            checked_total = not within((min(low * length, 0), max(high * length, 0)), INT32)
        return dataclasses.replace(a, domain=domain, where=self.expr(a.where), value=value,
                                   checked_total=checked_total)


def _forgetting(here: dict[str, Interval], s: ir.While | ir.Loop) -> dict[str, Interval]:
    """The ranges known at a loop's head: none of a local its rounds set, but a count a
    `while` steps by constants (`throws += 1`): its rounds are at most LOOP_LIMIT (each
    is ticked), so the count stays within its steps' sum that many times."""
    set_inside = assigned_locals(s.body) | {
        d.name for d in walk_stmts(s.body) if isinstance(d, ir.Declare)}
    if isinstance(s, ir.Loop):
        set_inside.add(s.var)
    kept = {name: r for name, r in here.items() if name not in set_inside}
    if isinstance(s, ir.While):
        for name, (down, up) in _steps(s.body).items():
            if name in here and (down, up) != (None, None):
                low, high = here[name]
                kept[name] = (low + down * LOOP_LIMIT, high + up * LOOP_LIMIT)
    return kept


def _steps(body: tuple[ir.Stmt, ...]) -> dict[str, tuple[int, int] | tuple[None, None]]:
    """Per local a round of the block sets, how far one round may step it down and up,
    when it is only ever stepped by constants outside any inner loop ((None, None) when
    not: another assignment, or a step in a loop of its own)."""
    steps: dict[str, tuple[int, int] | tuple[None, None]] = {}
    for s, nested in _statements(body, False):
        if isinstance(s, ir.Declare):
            steps[s.name] = (None, None)
        if not (isinstance(s, ir.Assign) and isinstance(s.target, ir.Local)):
            continue
        name = s.target.name
        step = None if nested else _step(s)
        known = steps.get(name, (0, 0))
        if step is None or known == (None, None):
            steps[name] = (None, None)
        else:
            steps[name] = (known[0] + min(step, 0), known[1] + max(step, 0))
    return steps


def _statements(body: tuple[ir.Stmt, ...], nested: bool) -> Iterator[tuple[ir.Stmt, bool]]:
    """Every statement of the block, and whether an inner loop holds it."""
    for s in body:
        yield s, nested
        match s:
            case ir.If():
                yield from _statements(s.then + s.otherwise, nested)
            case ir.While() | ir.Loop():
                yield from _statements(s.body, True)


def _step(s: ir.Assign) -> int | None:
    """The constant `x = x + c`, `x += c` (or minus) adds to its local x, else None."""
    name = s.target.name
    if s.op in ("+=", "-=") and isinstance(s.value, ir.Const) and type(s.value.value) is int:
        return s.value.value if s.op == "+=" else -s.value.value
    match s.value:
        case ir.Binary(op="+" | "-", left=ir.Local(name=left), right=ir.Const(value=int(c))) \
                if s.op == "=" and left == name and type(c) is int:
            return c if s.value.op == "+" else -c
    return None


def _joined(a: dict[str, Interval], b: dict[str, Interval]) -> dict[str, Interval]:
    """The ranges known after two branches: a local's known after both, either's values."""
    return {name: (min(r[0], b[name][0]), max(r[1], b[name][1]))
            for name, r in a.items() if name in b}


def narrow_integers(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Check every kept integer and keep C arithmetic within 64 bits (see the module)."""
    n = _Narrowing(program)
    functions = []
    for f in program.functions:
        n.ranges.enter(f)
        guard = n.expr(f.guard)  # (tested before the body: no local is set yet)
        functions.append(dataclasses.replace(f, guard=guard, body=n.body(f.body)))
    n.ranges.enter(None)
    aggregates = tuple(n.aggregate(a) for a in program.aggregates)
    decisions = tuple(dataclasses.replace(
        d, by=n.expr(d.by), low=n.narrow(d.low), high=n.narrow(d.high),
        domain=n.domain(d.domain) if d.domain is not None else None, where=n.expr(d.where),
        default=n.narrow(d.default) if d.kind == "int" else n.expr(d.default))
        for d in program.decisions)
    events = {name: dataclasses.replace(event, handlers=tuple(
        dataclasses.replace(h, guard=n.expr(h.guard)) for h in event.handlers))
        for name, event in program.events.items()}
    return dataclasses.replace(
        program, functions=tuple(functions), aggregates=aggregates, decisions=decisions,
        events=events, first_player=n.expr(program.first_player),
        over_when=n.expr(program.over_when), score=n.narrow(program.score),
        tie_breaks=tuple(n.narrow(e) for e in program.tie_breaks),
        round_limit=n.narrow(program.round_limit), bankruptcy_ends=n.expr(program.bankruptcy_ends))



def drop_proven_checks(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """After inlining and folding, a check of a value now proven to fit in 32 bits goes
    (`narrow(factor * cost // 2)` with the factor inlined as 1)."""
    ranges = Ranges(program)

    def node(e: ir.Expr) -> ir.Expr:
        if isinstance(e, ir.KernelCall) and e.function == NARROW and not ranges.wide(e.args[0]):
            return e.args[0]
        return e

    return map_program_exprs(program, node)
