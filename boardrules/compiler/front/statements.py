"""Pass check, statements: blocks, locals, assignments and loop domains, checked and
lowered to IR."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..common.diagnostics import Span, did_you_mean
from ..common.error_codes import ErrorCode
from ..common.lang_types import INT_MAX
from ..ir import nodes as ir
from ..ir.nodes import BOOL, INT, VOID, Type
from . import ast
from .breaks import broken_out, flag_set
from .expressions import _narrow, fold
from .primitives import ERROR
from .scope import Scope
from .symbols import article, resolve_type

PLAYER = Type("player")
WINDOW_ROUNDS = 3  # rounds of a window that names no bound
# the most members a walk by a key takes: its arrays are on the C stack (back/sorted_walks.py)
ORDER_LIMIT = 1024


@dataclass
class BreakFlag:
    """The flag local of a loop being lowered, and whether a `break` sets it."""

    name: str
    used: bool = False


class StatementLowering:
    """Part of the Checker (checker.py); `self` is the Checker, which keeps the flags of
    the loops being lowered, innermost last (None: a window's body, which break cannot
    leave)."""

    break_flags: list[BreakFlag | None]

    # ---- statements ----------------------------------------------------------------------
    def block(self, stmts: tuple[ast.Stmt, ...], scope: Scope) -> tuple[ir.Stmt, ...]:
        lowered = []
        for stmt in stmts:
            result = self.stmt(stmt, scope)
            if result is None:
                continue
            if isinstance(result, tuple):  # a statement that lowers to several
                lowered.extend(result)
                continue
            lowered.append(result)
            if isinstance(result, ir.If) and not result.otherwise and always_returns(
                result.then
            ):  # `if x == none { return }`: after it, x is not none
                _narrow(stmt.test, scope, negate=True)
        return tuple(lowered)

    def stmt(self, st: ast.Stmt, scope: Scope) -> ir.Stmt | tuple[ir.Stmt, ...] | None:
        match st:
            case ast.Let():
                return self._let(st, scope)
            case ast.Assign():
                return self._assign(st, scope)
            case ast.CallStmt():
                return ir.Evaluate(st.span, self.expr(st.call, scope, statement=True))
            case ast.If():
                test = self.expr(st.test, scope)
                self._expect(test.type, BOOL, st.test.span)
                then_scope = scope.child()
                _narrow(st.test, then_scope, negate=False)
                else_scope = scope.child()
                _narrow(st.test, else_scope, negate=True)
                return ir.If(st.span, test, self.block(st.then, then_scope),
                             self.block(st.otherwise, else_scope))
            case ast.While():
                test = self.expr(st.test, scope)
                self._expect(test.type, BOOL, st.test.span)
                body_scope = scope.child()
                _narrow(st.test, body_scope, negate=False)
                with self.breakable(scope, st.span) as flag:
                    loop = ir.While(st.span, test, self.block(st.body, body_scope))
                return broken_out(loop, flag.name) if flag.used else loop
            case ast.Break():
                return self._break(st)
            case ast.For():
                return self._loop(st, scope)
            case ast.Window():
                return self._window(st, scope)
            case ast.Return():
                return self._return(st, scope)
            case ast.Trigger():
                return self._trigger(st, scope)
            case ast.Draw():
                return self._draw(st, scope)
            case ast.EndTurn():
                return ir.Raise(st.span, "TurnOver")
            case ast.EndGame() if st.winner is not None:
                # the kernel records the winner, then the game ends as `end game` ends it
                winner = self.expr(st.winner, scope)
                self._expect(winner.type, Type("player"), st.winner.span)
                return (ir.Evaluate(st.span, ir.KernelCall(VOID, "k_name_winner", (winner,))),
                        ir.Raise(st.span, "GameOver"))
            case ast.EndGame():
                return ir.Raise(st.span, "GameOver")
        raise AssertionError(f"unhandled statement {st!r}")

    def _let(self, st: ast.Let, scope: Scope) -> ir.Stmt:
        if st.type is not None:
            self._single(st.type)
        value = self.expr(st.value, scope)
        vtype = resolve_type(st.type, self.s, self.report) if st.type else value.type
        if vtype.name == "none":
            self.report.error(st.span, f"cannot tell the type of '{st.name}'",
                              f"write: let {st.name}: space? = none",
                              code=ErrorCode.UNKNOWN_LOCAL_TYPE)
        if vtype == VOID:
            self.report.error(st.value.span, "this gives no value", code=ErrorCode.NO_VALUE)
        self._expect(value.type, vtype, st.value.span)
        self._declare(scope, st.name, vtype, st.span)
        return ir.Declare(st.span, st.name, vtype, value)

    @contextmanager
    def breakable(self, scope: Scope, span: Span) -> Iterator[BreakFlag]:
        """Lower a loop's body: a `break` in it (not in an inner loop) sets this flag."""
        flag = BreakFlag(f"break_{len(self.break_flags)}_")
        self.break_flags.append(flag)
        try:
            yield flag
        finally:
            self.break_flags.pop()
            if flag.used:
                scope.declared[flag.name] = BOOL

    def _break(self, st: ast.Break) -> ir.Stmt | None:
        flag = self.break_flags[-1] if self.break_flags else None
        if flag is None:
            self.report.error(st.span, "break outside a loop",
                              "break leaves the innermost for or while loop (a window's body "
                              "is not one)", code=ErrorCode.BREAK_OUTSIDE_LOOP)
            return None
        flag.used = True
        return flag_set(st.span, flag.name)

    def _loop(self, st: ast.For, scope: Scope) -> ir.Stmt | tuple[ir.Stmt, ...]:
        domain, var_type = self.domain(st.domain, scope)
        inner = scope.child()
        self._declare(inner, st.var, var_type, st.span, "the outer loop's member")
        where = None
        if st.where is not None:
            where = self.expr(st.where, inner)
            self._expect(where.type, BOOL, st.where.span)
        with self.breakable(scope, st.span) as flag:
            body = self.block(st.body, inner)
            if st.order is None:
                loop = ir.Loop(st.span, st.var, domain, where, body)
            else:  # the filter picks the members before the walk (ir.Loop)
                self._sortable(domain, st.domain.span)
                loop = ir.Loop(st.span, st.var, domain, None, body,
                               self.order_key(st.order, inner), where, st.order.desc)
        return broken_out(loop, flag.name) if flag.used else loop

    def _sortable(self, domain: ir.Domain, span: Span) -> None:
        """An ordered walk sorts its members in C arrays of a size known when compiling
        (back/sorted_walks.py): a range's bounds must be constants, and not too far apart."""
        if domain.kind == "players":
            return
        low, high = fold(domain.low), fold(domain.high)
        if low is None or high is None:
            self.report.error(span, "by orders a range only when its bounds are constants",
                              "the members are sorted in a list of fixed size: write constant "
                              "bounds, or walk a range that holds every value",
                              code=ErrorCode.ORDERED_WALK_SIZE)
        elif high - low > ORDER_LIMIT:
            self.report.error(span, f"by orders at most {ORDER_LIMIT} values, not {high - low}",
                              code=ErrorCode.ORDERED_WALK_SIZE)

    def _window(self, st: ast.Window, scope: Scope) -> tuple[ir.Stmt, ...]:
        """`window q from p [rounds n] { body }`: every player still in, in seat order from
        p, runs the body (as q) in turn; another round follows while a round changed the
        game (a payment, a counter, a move, a card), at most n rounds (3 unless given).
        A window that opens when nothing changed since it last closed with every player
        passing is closed at once. Lowered to a loop over the seats; its locals are named
        after the window's place, and the kernel keeps its state under its number."""
        start = self.expr(st.start, scope)
        self._expect(start.type, PLAYER, st.start.span)
        rounds: ir.Expr = ir.Const(INT, WINDOW_ROUNDS)
        if st.rounds is not None:
            rounds = self.expr(st.rounds, scope)
            self._expect(rounds.type, INT, st.rounds.span)
        inner = scope.child()
        self._declare(inner, st.var, PLAYER, st.span, "the window's player")
        self.break_flags.append(None)  # break cannot leave a window
        try:
            body = self.block(st.body, inner)
        finally:
            self.break_flags.pop()
        site = ir.Const(INT, self.window_sites)
        self.window_sites += 1
        place = f"window_{st.span.line}_{st.span.column}"
        first, limit, done, acted, before, k = (
            ir.Local(t, f"{place}_{name}") for t, name in (
                (PLAYER, "from"), (INT, "rounds"), (INT, "done"), (BOOL, "acted"),
                (INT, "before"), (INT, "seat")))
        for local in (first, limit, done, acted, before, k):  # typed C locals, not objects
            scope.declared[local.name] = local.type
        changes = ir.KernelCall(INT, "k_changes", ())
        seat = ir.Local(PLAYER, st.var)
        each_seat = ir.Loop(st.span, k.name, ir.Domain(
            "range", ir.Const(INT, 0), ir.Builtin(INT, "players_count")), None, (
            ir.Declare(st.span, seat.name, PLAYER, ir.KernelCall(PLAYER, "k_seat_from",
                                                                 (first, k))),
            ir.If(st.span, ir.Derived(BOOL, "player_alive", seat), body, ())))
        return (
            ir.Declare(st.span, first.name, PLAYER, start),
            ir.Declare(st.span, limit.name, INT, rounds),
            ir.Declare(st.span, done.name, INT, ir.Const(INT, 0)),
            ir.Declare(st.span, acted.name, BOOL, ir.KernelCall(BOOL, "k_window_open", (site,))),
            ir.While(st.span, ir.Binary(BOOL, "and", acted, ir.Binary(BOOL, "<", done, limit)), (
                ir.Declare(st.span, before.name, INT, changes),
                each_seat,
                ir.Assign(st.span, acted, "=", ir.Binary(BOOL, "!=", changes, before)),
                ir.Assign(st.span, done, "+=", ir.Const(INT, 1)))),
            ir.If(st.span, ir.Unary(BOOL, "not", acted),
                  (ir.Evaluate(st.span, ir.KernelCall(ir.VOID, "k_close_window", (site,))),),
                  ()))

    def _return(self, st: ast.Return, scope: Scope) -> ir.Stmt:
        if st.value is None:
            if scope.returns != VOID:
                self.report.error(st.span,
                                  f"return needs {article(str(scope.returns))} value",
                                  code=ErrorCode.RETURN_MISMATCH)
            return ir.Return(st.span, None)
        value = self.expr(st.value, scope)
        if scope.returns == VOID:
            self.report.error(st.span, "this returns nothing; drop the value",
                              code=ErrorCode.RETURN_MISMATCH)
        else:
            self._expect(value.type, scope.returns, st.value.span)
        return ir.Return(st.span, value)

    def _trigger(self, st: ast.Trigger, scope: Scope) -> ir.Stmt | None:
        params = self.s.events.get(st.event)
        if params is None:
            self.report.error(st.span, f"unknown event '{st.event}'",
                              did_you_mean(st.event, set(self.s.events)),
                              code=ErrorCode.UNKNOWN_EVENT)
            return None
        args = self._args(st.args, params, st.span, st.event, scope)
        return ir.Evaluate(st.span, ir.CallProc(VOID, f"event_{st.event}", args))

    def _draw(self, st: ast.Draw, scope: Scope) -> ir.Stmt | None:
        deck = self.s.decks.get(st.deck)
        if deck is None:
            self.report.error(st.span, f"unknown deck '{st.deck}'",
                              did_you_mean(st.deck, set(self.s.decks)),
                              code=ErrorCode.UNKNOWN_DECK)
            return None
        args = self._args(st.args, self._params(deck.params), st.span, st.deck, scope)
        return ir.Evaluate(st.span, ir.CallProc(VOID, f"draw_{st.deck}", args))

    def _declare(self, scope: Scope, name: str, vtype: Type, span: Span,
                 kind: str = "a local of an enclosing block") -> None:
        """Declare a local of this block. The generated function has one variable per
        name, so a name an enclosing block still uses cannot be declared again inside
        (its value would be the inner one's after the block)."""
        enclosing = scope.enclosing(name)
        if enclosing is not None:
            self.report.error(span, f"'{name}' already names {enclosing}",
                              "give the inner one another name",
                              code=ErrorCode.LOCAL_REDECLARED)
        previous = scope.declared.get(name)
        if previous is not None and previous != vtype and ERROR not in (previous, vtype):
            self.report.error(span, f"'{name}' was {article(str(previous))} earlier in this "
                              "function",
                              "use another name", code=ErrorCode.LOCAL_RETYPED)
        if name in self.global_names and name not in scope.variables:
            self.report.warning(span, f"local '{name}' hides {self.s.definition_of(name)}",
                                "rename the local to reach the definition here",
                                code="hidden-definition")
        scope.variables[name] = vtype
        scope.declared[name] = vtype
        scope.kinds[name] = kind
        scope.own.add(name)

    def _assign(self, st: ast.Assign, scope: Scope) -> ir.Stmt:
        value = self.expr(st.value, scope)
        target = st.target
        if isinstance(target, ast.Name) and target.name in scope.variables:
            declared = scope.declared.get(target.name) or scope.variables[target.name]
            scope.variables[target.name] = declared  # an assignment ends any narrowing
            lowered: ir.Expr = ir.Local(declared, target.name)
        else:
            lowered = self.expr(target, scope)
            if isinstance(lowered, ir.Table):
                self.report.error(target.span, "fields are fixed data and cannot change",
                                  "declare a counter for a value that changes",
                                  code=ErrorCode.READ_ONLY)
                return ir.Evaluate(st.span, value)
            if not isinstance(lowered, ir.State):
                if isinstance(lowered, ir.Derived) and isinstance(target, ast.Attr):
                    self.report.error(target.span, f"'{target.name}' is read-only",
                                      "the kernel keeps it" + (
                                          "; use retire(p)" if target.name == "alive" else ""),
                                      code=ErrorCode.READ_ONLY)
                elif lowered.type != ERROR:
                    self.report.error(target.span, "cannot assign to this",
                                      "assign to a local, a counter or p.cash / p.position",
                                      code=ErrorCode.READ_ONLY)
                return ir.Evaluate(st.span, value)
            if lowered.stride > 1 and lowered.element is None:
                self.report.error(target.span, "assign one value of the list: x[k] = ...",
                                  code=ErrorCode.LIST_MISUSE)
                return ir.Evaluate(st.span, value)
            if lowered.array.startswith("option_"):
                self.report.error(target.span, "an option is chosen when the game is created "
                                  "and cannot change", "use a counter for a value that changes",
                                  code=ErrorCode.READ_ONLY)
                return ir.Evaluate(st.span, value)
        if st.op != "=":
            self._expect(lowered.type, INT, target.span)
            self._expect(value.type, INT, st.value.span)
        else:
            self._expect(value.type, lowered.type, st.value.span)
        return ir.Assign(st.span, lowered, st.op, value)

    def domain(self, d: ast.Domain, scope: Scope) -> tuple[ir.Domain, Type]:
        zero = ir.Const(INT, 0)
        match d.kind:
            case "players":
                return ir.Domain("players", zero, ir.Builtin(INT, "players_count")), Type("player")
            case "spaces":
                return ir.Domain("range", zero, ir.Const(INT, len(self.s.spaces))), Type("space")
            case "groups":
                return ir.Domain("range", zero, ir.Const(INT, len(self.s.groups))), Type("group")
            case "cells":
                return ir.Domain("range", zero, ir.Const(INT, self.cell_count)), Type("cell")
            case "cards":
                if not d.name:
                    return ir.Domain("range", zero, ir.Const(INT, self.n_cards)), Type("card")
                deck = self.s.decks.get(d.name)
                if deck is None:
                    self.report.error(d.span, f"unknown deck '{d.name}'",
                                      did_you_mean(d.name, set(self.s.decks)),
                                      code=ErrorCode.UNKNOWN_DECK)
                    return ir.Domain("range", zero, zero), Type("card")
                first = self.card_index.get(deck.cards[0].name, 0) if deck.cards else 0
                size = sum(max(1, c.copies) for c in deck.cards)
                return ir.Domain("range", ir.Const(INT, first),
                                 ir.Const(INT, first + size)), Type("card")
            case "enum":
                enum = self.s.enums.get(d.name)
                if enum is None:
                    self.report.error(d.span, f"unknown enum '{d.name}'",
                                      did_you_mean(d.name, set(self.s.enums)),
                                      code=ErrorCode.UNKNOWN_ENUM)
                    return ir.Domain("range", zero, zero), ERROR
                return ir.Domain("range", zero, ir.Const(INT, len(enum.members))), Type(d.name)
            case "legal":
                self.report.error(d.span, "'legal' names the options of a decision",
                                  "use it in the default of a decision among entities: "
                                  "best(... for s in legal where ...)",
                                  code=ErrorCode.WRONG_KIND_OF_NAME)
                return ir.Domain("range", zero, zero), ERROR
            case "range":
                low, high = self.expr(d.low, scope), self.expr(d.high, scope)
                self._expect(low.type, INT, d.low.span)
                self._expect(high.type, INT, d.high.span)
                last = fold(high)
                if last is not None and last >= INT_MAX:  # its end, one past the last value
                    self.report.error(d.high.span, f"a range up to {last} counts past the "
                                      f"largest integer ({INT_MAX})",
                                      code=ErrorCode.CONSTANT_OUT_OF_RANGE)
                    return ir.Domain("range", low, low), INT
                return ir.Domain("range", low, ir.Binary(INT, "+", high, ir.Const(INT, 1))), INT
        raise AssertionError(d.kind)


def always_returns(body: tuple[ir.Stmt, ...]) -> bool:
    """Whether every path through the statements ends in a return or an end of the turn or
    game (nothing after them runs)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ir.Return | ir.Raise):
        return True
    if isinstance(last, ir.If):
        return always_returns(last.then) and always_returns(last.otherwise)
    return False
