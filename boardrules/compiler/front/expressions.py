"""Pass check, expressions: names, attributes, calls, operators and aggregates, checked
and lowered to IR (constants folded, optional values narrowed)."""

from __future__ import annotations

import dataclasses

from ..common.diagnostics import Span, did_you_mean
from ..common.error_codes import ErrorCode
from ..ir import nodes as ir
from ..ir.nodes import BOOL, INT, NONE, STR, VOID, Type
from . import ast
from .primitives import (
    ARITHMETIC,
    BUILTIN_ATTRS,
    DECK_FUNCTIONS,
    ERROR,
    KERNEL_FUNCTIONS,
    KERNEL_PARAMETER_NAMES,
    PROC_MAY_TAKE,
    assignable,
)
from .scope import Scope
from .symbols import resolve_type


class ExpressionLowering:
    """Part of the Checker (checker.py); `self` is the Checker."""

    # ---- expressions ----------------------------------------------------------------------
    def _expect(self, actual: Type, expected: Type, span: Span, what: str = "") -> None:
        """A type mismatch, with the types as declared (`money`) and, for an argument,
        `what` it is (`argument 'amount' of 'charge'`)."""
        if not assignable(actual, expected):
            hint = ""
            if actual.optional and not expected.optional and actual.name == expected.name:
                hint = "it may be none: test it with `if x != none` or write some(x)"
            self.report.error(span, f"{what + ': ' if what else ''}expected {expected.declared}, "
                              f"got {actual.declared}", hint, code=ErrorCode.TYPE_MISMATCH)

    def expr(self, e: ast.Expr, scope: Scope, statement: bool = False) -> ir.Expr:
        match e:
            case ast.IntLit():
                return ir.Const(INT, e.value)
            case ast.StrLit():
                return ir.Const(STR, e.value)
            case ast.BoolLit():
                return ir.Const(BOOL, e.value)
            case ast.NoneLit():
                return ir.Const(NONE, -1)
            case ast.Name():
                return self._name(e, scope)
            case ast.Attr():
                lowered = self._attr(e, scope)
                if isinstance(lowered, ir.Table | ir.State) and lowered.stride > 1:
                    self.report.error(e.span, f"'{e.name}' is a list: take one value, "
                                      f"{e.name}[k]", code=ErrorCode.LIST_MISUSE)
                return lowered
            case ast.Index():
                target = (self._attr(e.target, scope) if isinstance(e.target, ast.Attr)
                          else self.expr(e.target, scope))
                index = self.expr(e.index, scope)
                if isinstance(target, ir.Table | ir.State) and target.stride > 1 and (
                    target.element is None
                ):
                    index_type = Type(target.index_enum) if target.index_enum else INT
                    self._expect(index.type, index_type, e.index.span)
                    return dataclasses.replace(target, element=index)
                if target.type != ERROR:
                    self.report.error(e.span, "only lists such as values[k] can be indexed",
                                      code=ErrorCode.LIST_MISUSE)
                return ir.Const(ERROR, 0)
            case ast.Call():
                return self._call(e, scope, statement)
            case ast.Ask():
                decision = self.s.decisions.get(e.decision)
                if decision is None:
                    self.report.error(e.span, f"unknown decision '{e.decision}'",
                                      did_you_mean(e.decision, set(self.s.decisions)),
                                      code=ErrorCode.UNKNOWN_DECISION)
                    return ir.Const(ERROR, 0)
                self.used.add(f"decision:{e.decision}")
                params = self._params(decision.params)
                args = self._args(e.args, params, e.span, e.decision, scope)
                result = self._decision_type(decision)
                return ir.CallProc(result, f"decide_{e.decision}", args)
            case ast.BinOp():
                return self._binop(e, scope)
            case ast.Not():
                operand = self.expr(e.operand, scope)
                self._expect(operand.type, BOOL, e.operand.span)
                return ir.Unary(BOOL, "not", operand)
            case ast.Neg():
                operand = self.expr(e.operand, scope)
                self._expect(operand.type, INT, e.operand.span)
                return ir.Unary(INT, "-", operand)
            case ast.Cond():
                test = self.expr(e.test, scope)
                self._expect(test.type, BOOL, e.test.span)
                then, other = self.expr(e.then, scope), self.expr(e.otherwise, scope)
                rtype = _join(then.type, other.type)
                if rtype is None:
                    self.report.error(e.span, f"the branches differ: {then.type} and {other.type}",
                                      code=ErrorCode.TYPE_MISMATCH)
                    rtype = ERROR
                return ir.Conditional(rtype, test, then, other)
            case ast.Aggregate():
                return self._aggregate(e, scope)
            case ast.ListLit():
                self.report.error(e.span, "a list is only allowed as a list field's value",
                                  code=ErrorCode.LIST_MISUSE)
                return ir.Const(ERROR, 0)
        raise AssertionError(f"unhandled expression {e!r}")

    def _decision_type(self, d: ast.DecisionDecl) -> Type:
        if d.kind == "bool":
            return BOOL
        if d.kind == "int":
            return Type("int", d.optional)
        return Type(d.entity_type, d.optional)

    def _attr(self, e: ast.Attr, scope: Scope) -> ir.Expr:
        s = self.s
        if isinstance(e.target, ast.Name) and e.target.name in s.enums and (
            e.target.name not in scope.variables
        ):
            members = s.enums[e.target.name].members
            if e.name not in members:
                self.report.error(e.span, f"enum '{e.target.name}' has no member '{e.name}'",
                                  did_you_mean(e.name, set(members)), code=ErrorCode.UNKNOWN_MEMBER)
                return ir.Const(ERROR, 0)
            return ir.Const(Type(e.target.name), members.index(e.name))
        target = self.expr(e.target, scope)
        ttype = target.type
        if ttype == ERROR:
            return ir.Const(ERROR, 0)
        if not ttype.is_entity:
            self.report.error(e.span, f"a {ttype} has no attributes",
                              code=ErrorCode.UNKNOWN_ATTRIBUTE)
            return ir.Const(ERROR, 0)
        owner = ttype.name
        counts = {"space": len(s.spaces), "group": len(s.groups), "card": self.n_cards,
                  "cell": self.cell_count, "player": 0}
        builtin = BUILTIN_ATTRS.get((owner, e.name))
        if builtin is not None:
            btype = builtin[0]
            if (owner, e.name) == ("space", "kind"):
                if "kind" not in s.enums:
                    self.report.error(e.span, "no space kinds are declared (enum kind)",
                                      code=ErrorCode.UNKNOWN_ATTRIBUTE)
                return ir.Table(btype, "space_kind", target, None, 1, counts[owner])
            if not builtin[1]:
                return ir.Derived(btype, f"{owner}_{e.name}", target)
            return ir.State(btype, f"{owner}_{e.name}", target, ttype.optional)
        if (owner, e.name) in s.fields:
            decl = s.fields[(owner, e.name)]
            ftype = resolve_type(decl.type, s, self.report)
            return ir.Table(ftype, f"{owner}_{e.name}", target, None, self._stride(decl.type),
                            counts[owner], decl.type.index_enum)
        if (owner, e.name) in s.counters:
            ref = s.counters[(owner, e.name)].type
            ctype = resolve_type(ref, s, self.report)
            return ir.State(ctype, f"{owner}_{e.name}", target, ttype.optional,
                            stride=self._stride(ref), index_enum=ref.index_enum)
        known = {n for (o, n) in (*s.fields, *s.counters, *BUILTIN_ATTRS) if o == owner}
        self.report.error(e.span, f"a {owner} has no attribute '{e.name}'",
                          did_you_mean(e.name, known), code=ErrorCode.UNKNOWN_ATTRIBUTE)
        return ir.Const(ERROR, 0)

    def _args(self, args, params: tuple[tuple[str, Type], ...], span, what,
              scope) -> tuple[ir.Expr, ...]:
        """The arguments of a call of `what`, whose parameters are (name, type) pairs. A
        wrong count is one error, with the signature: the arguments are then checked on
        their own, not against parameters they may not stand for."""
        lowered = tuple(self.expr(arg, scope) for arg in args)
        if len(args) != len(params):
            shown = ", ".join(f"{name}: {t.declared}" for name, t in params)
            self.report.error(span, f"'{what}' takes {len(params)} argument(s), got {len(args)}",
                              f"{what}({shown})", code=ErrorCode.WRONG_ARGUMENTS)
            return lowered[:len(params)]
        for arg, value, (name, expected) in zip(args, lowered, params, strict=True):
            self._expect(value.type, expected, arg.span, f"argument '{name}' of '{what}'")
        return lowered

    def _call(self, e: ast.Call, scope: Scope, statement: bool) -> ir.Expr:
        s = self.s
        if e.name == "roll":
            if len(e.args) != 1 or not isinstance(e.args[0], ast.Name) or (
                e.args[0].name not in s.dice
            ):
                self.report.error(e.span, "roll takes the name of a die",
                                  f"dice: {', '.join(s.dice) or 'none declared'}",
                                  code=ErrorCode.WRONG_KIND_OF_NAME)
                return ir.Const(ERROR, 0)
            die = s.dice[e.args[0].name]
            index = list(s.dice).index(e.args[0].name)
            face_type = self.expr(die.faces[0], Scope("", VOID)).type if die.faces else INT
            return ir.KernelCall(face_type, "k_roll", (ir.Const(INT, index),))
        if e.name in DECK_FUNCTIONS:
            args = self._args(e.args, (("d", Type("deck")),), e.span, e.name, scope)
            return ir.KernelCall(DECK_FUNCTIONS[e.name], f"k_{e.name}", args)
        if e.name == "some":
            if len(e.args) != 1:
                self.report.error(e.span, "some takes one value", code=ErrorCode.WRONG_ARGUMENTS)
                return ir.Const(ERROR, 0)
            value = self.expr(e.args[0], scope)
            if value.type.name == "none":
                self.report.error(e.span, "some(none) is always an error", code=ErrorCode.SOME_NONE)
                return ir.Const(ERROR, 0)
            return ir.KernelCall(Type(value.type.name), "k_some", (value,))
        if e.name == "seat" and "seat" not in s.procs:
            return self._seat(e, scope)
        if e.name in KERNEL_FUNCTIONS and not (e.name in PROC_MAY_TAKE and e.name in s.procs):
            types, result = KERNEL_FUNCTIONS[e.name]
            params = tuple(zip(KERNEL_PARAMETER_NAMES[e.name], types, strict=True))
            args = self._args(e.args, params, e.span, e.name, scope)
            name = e.name if e.name in ("min", "max", "abs") else f"k_{e.name}"
            return ir.KernelCall(result, name, args)
        proc = s.procs.get(e.name)
        if proc is None:
            if e.name in s.decisions:
                self.report.error(e.span, f"'{e.name}' is a decision, not a procedure",
                                  f"write: ask {e.name}(...)", code=ErrorCode.WRONG_KIND_OF_NAME)
                return ir.Const(ERROR, 0)
            callable_names = set(s.procs) | set(KERNEL_FUNCTIONS) | set(DECK_FUNCTIONS)
            self.report.error(e.span, f"unknown procedure '{e.name}'",
                              did_you_mean(e.name, callable_names),
                              code=ErrorCode.UNKNOWN_PROCEDURE)
            return ir.Const(ERROR, 0)
        self.used.add(f"proc:{e.name}")
        params = self._params(proc.params)
        args = self._args(e.args, params, e.span, e.name, scope)
        returns = resolve_type(proc.returns, s, self.report) if proc.returns else VOID
        if returns == VOID and not statement:
            self.report.error(e.span, f"procedure '{e.name}' gives no value",
                              code=ErrorCode.NO_VALUE)
            return ir.Const(ERROR, 0)
        return ir.CallProc(returns, f"proc_{e.name}", args)

    def _seat(self, e: ast.Call, scope: Scope) -> ir.Expr:
        """`seat(N)`: the player in the N-th seat (1 for the first, as p1 in scenarios), for a
        constant N. A seat every game has is a `player`; one beyond the edition's fewest
        players is a `player?`, none in a game with fewer."""
        if len(e.args) != 1:
            self.report.error(e.span, "seat takes one number: seat(1) is the first seat",
                              code=ErrorCode.WRONG_ARGUMENTS)
            return ir.Const(ERROR, 0)
        lowered = self.expr(e.args[0], scope)
        self._expect(lowered.type, INT, e.args[0].span)
        n = fold(lowered)
        if n is None:
            if lowered.type != ERROR:
                self.report.error(e.args[0].span, "a seat's number must be a constant",
                                  "for a seat chosen while playing, use a player's seat: "
                                  "q.seat (0 for the first)", code=ErrorCode.NOT_CONSTANT)
            return ir.Const(ERROR, 0)
        if not 1 <= n <= self.max_players:
            self.report.error(e.args[0].span, f"seat {n} is not a seat of this edition",
                              f"the seats are 1 to {self.max_players}",
                              code=ErrorCode.CONSTANT_OUT_OF_RANGE)
            return ir.Const(ERROR, 0)
        player = ir.Const(Type("player"), n - 1)
        if n <= self.min_players:
            return player
        seated = ir.Binary(BOOL, "<=", ir.Const(INT, n), ir.Builtin(INT, "players_count"))
        return ir.Conditional(Type("player", True), seated, dataclasses.replace(
            player, type=Type("player", True)), ir.Const(NONE, -1))

    def _binop(self, e: ast.BinOp, scope: Scope) -> ir.Expr:
        left = self.expr(e.left, scope)
        if e.op == "and":
            inner = scope.child()
            _narrow(e.left, inner, negate=False)
            right = self.expr(e.right, inner)
        else:
            right = self.expr(e.right, scope)
        if e.op in ("and", "or"):
            self._expect(left.type, BOOL, e.left.span)
            self._expect(right.type, BOOL, e.right.span)
            return ir.Binary(BOOL, e.op, left, right)
        if e.op in ARITHMETIC:
            self._expect(left.type, INT, e.left.span)
            self._expect(right.type, INT, e.right.span)
            return ir.Binary(INT, ARITHMETIC[e.op], left, right)
        if e.op in ("==", "!="):
            if _join(left.type, right.type) is None:
                self.report.error(e.span, f"cannot compare {left.type.declared} with "
                                  f"{right.type.declared}", self._member_hint(e, left, right),
                                  code=ErrorCode.TYPE_MISMATCH)
            return ir.Binary(BOOL, e.op, left, right)
        self._expect(left.type, INT, e.left.span)
        self._expect(right.type, INT, e.right.span)
        return ir.Binary(BOOL, e.op, left, right)

    def _member_hint(self, e: ast.BinOp, left: ir.Expr, right: ir.Expr) -> str:
        """`s.kind == go` where `go` is a space (bare names prefer spaces to members): how
        to write the member meant."""
        for side, value, other in ((e.left, left, right), (e.right, right, left)):
            enum = self.s.enums.get(other.type.name)
            if not (isinstance(side, ast.Name) and enum is not None and value.type.is_entity):
                continue
            if side.name in enum.members:
                return (f"'{side.name}' is the {value.type.name} here: write "
                        f"{other.type.name}.{side.name} for the member of enum {other.type.name}")
            return did_you_mean(side.name, set(enum.members))
        return ""

    def _legal_options(self, e: ast.Aggregate) -> ast.Expr | None:
        """`x in legal` inside a decision's default: the decision's own options, so the
        default does not restate its filter. Gives the combined filter."""
        d = self.legal
        if d is None:
            return e.where
        if e.var != d.var:
            self.report.error(e.domain.span, f"the options of '{d.name}' are called '{d.var}'",
                              f"write: ... for {d.var} in legal", code=ErrorCode.WRONG_KIND_OF_NAME)
        return d.where if e.where is None else ast.BinOp(e.span, "and", d.where, e.where)

    def _aggregate(self, e: ast.Aggregate, scope: Scope) -> ir.Expr:
        filter_ast = e.where
        if e.domain.kind == "legal" and self.legal is not None:
            domain, var_type = self._entity_domain(self.legal.entity_type, e.domain.span)
            filter_ast = self._legal_options(e)
        else:
            domain, var_type = self.domain(e.domain, scope)
        inner = Scope(scope.function, VOID, dict(scope.variables))
        inner.variables[e.var] = var_type
        where = None
        if filter_ast is not None:
            where = self.expr(filter_ast, inner)
            self._expect(where.type, BOOL, filter_ast.span)
        value = None
        if e.value is not None:
            value = self.expr(e.value, inner)
        rank = self._rank(e, inner)
        needs_value = {"sum": INT, "max_of": INT, "min_of": INT, "best": INT, "all": BOOL}
        if e.kind in needs_value:
            if value is None:
                self.report.error(e.span, f"{e.kind} needs a value: {e.kind}(x.v for x in ...)",
                                  code=ErrorCode.AGGREGATE_VALUE)
            else:
                self._expect(value.type, needs_value[e.kind], e.value.span)
        elif value is not None:
            self.report.error(e.value.span, f"{e.kind} takes no value before 'for'",
                              code=ErrorCode.AGGREGATE_VALUE)
        result = {"count": INT, "sum": INT, "max_of": INT, "min_of": INT, "any": BOOL,
                  "all": BOOL}.get(e.kind, Type(var_type.name, True))
        free = sorted(_locals_used([where, value, rank, domain.low, domain.high]) - {e.var})
        params = tuple((n, scope.variables[n]) for n in free if n in scope.variables)
        args = tuple(ir.Local(t, n) for n, t in params)
        kind, ranked = e.kind, "" if e.order is None else "desc" if e.order.desc else "asc"
        if kind == "first_of":  # the best of a value that never differs: the first member
            kind, value = "best", rank if rank is not None else ir.Const(INT, 0)
            ranked = ranked or "first"
        elif rank is not None and value is not None:
            # best by an order: of the members with the largest value, the first by rank
            top = ir.CallProc(INT, self._lift(ir.Aggregate(
                "", "max_of", params, e.var, domain, where, value, INT, e.span, rank="top"),
                scope), args)
            largest = ir.Binary(BOOL, "==", value, top)
            where = largest if where is None else ir.Binary(BOOL, "and", where, largest)
            value = rank
        name = self._lift(ir.Aggregate("", kind, params, e.var, domain, where, value, result,
                                       e.span, rank=ranked), scope)
        return ir.CallProc(result, name, args)

    def order_key(self, order: ast.Order, inner: Scope) -> ir.Expr:
        """The key of `by KEY`, checked: an int (entities and enum members have no order
        the language can compare)."""
        key = self.expr(order.key, inner)
        if key.type != ERROR and not assignable(key.type, INT):
            self.report.error(order.key.span, f"by orders by an int, not {key.type.declared}",
                              "order by a number: a field or counter such as x.price, or a "
                              "call that gives one", code=ErrorCode.TYPE_MISMATCH)
        return key

    def _lift(self, aggregate: ir.Aggregate, scope: Scope) -> str:
        """Lift an aggregate into its own function, named after where it is written (for
        profiles) and after any aggregate nested inside it; gives that name."""
        name = f"{self._lift_prefix}{len(self._lifted)}" + (
            f"_in_{scope.function}" if scope.function.isidentifier() else "")
        self._lifted.append(dataclasses.replace(aggregate, name=name))
        return name

    def _rank(self, e: ast.Aggregate, inner: Scope) -> ir.Expr | None:
        """An aggregate's `by KEY [desc]` as a value that `best` maximizes: the key itself
        for desc, else -1 - key (which cannot overflow, unlike 0 - key). Lowered to the
        aggregates every pass knows: first_of is best of the rank; best's ties go to the
        best rank among the members of the largest value. `by` on an aggregate whose value
        no order can change is an error."""
        if e.order is None:
            return None
        key = self.order_key(e.order, inner)
        if e.kind not in ("best", "first_of"):
            self.report.error(e.order.span, f"the order of the members cannot change {e.kind}",
                              "by orders a for loop, first_of and best's ties: remove it",
                              code=ErrorCode.ORDER_CHANGES_NOTHING)
        if e.order.desc:
            return key
        return ir.Binary(INT, "-", ir.Const(INT, -1), key)


def _join(a: Type, b: Type) -> Type | None:
    if ERROR in (a, b):
        return ERROR
    if a.name == "none":
        return Type(b.name, True) if b.is_entity or b.name in ("none", "int") or b.optional else (
            Type(b.name, True))
    if b.name == "none":
        return Type(a.name, True)
    if a.name != b.name:
        return None
    return Type(a.name, a.optional or b.optional)


def _narrow(test: ast.Expr, scope: Scope, negate: bool) -> None:
    """`x != none` makes x non-optional where the test holds (and `==` in the else branch)."""
    if isinstance(test, ast.BinOp) and test.op == "and" and not negate:
        _narrow(test.left, scope, False)
        _narrow(test.right, scope, False)
        return
    if not isinstance(test, ast.BinOp) or test.op not in ("==", "!="):
        return
    if not (isinstance(test.left, ast.Name) and isinstance(test.right, ast.NoneLit)):
        return
    holds_when_not_none = (test.op == "!=") != negate
    current = scope.variables.get(test.left.name)
    if holds_when_not_none and current is not None and current.optional:
        scope.variables[test.left.name] = Type(current.name)


def _locals_used(nodes) -> set[str]:
    found: set[str] = set()

    def visit(node) -> None:
        if node is None:
            return
        if isinstance(node, ir.Local):
            found.add(node.name)
        if isinstance(node, tuple):
            for item in node:
                visit(item)
            return
        if hasattr(node, "__dataclass_fields__"):
            for name in node.__dataclass_fields__:
                if name != "type":
                    visit(getattr(node, name))

    for n in nodes:
        visit(n)
    return found


def rename_local(expr: ir.Expr, old: str, new: str) -> ir.Expr:
    if isinstance(expr, ir.Local):
        return ir.Local(expr.type, new) if expr.name == old else expr
    changes = {}
    for name in expr.__dataclass_fields__:
        value = getattr(expr, name)
        if isinstance(value, ir.Expr):
            changes[name] = rename_local(value, old, new)
        elif isinstance(value, tuple) and value and isinstance(value[0], ir.Expr):
            changes[name] = tuple(rename_local(v, old, new) for v in value)
    return dataclasses.replace(expr, **changes) if changes else expr


def fold(expr: ir.Expr) -> int | None:
    """The value of a constant expression, or None when it depends on the game."""
    match expr:
        case ir.Const():
            return expr.value if isinstance(expr.value, int) else None
        case ir.Unary(op="-"):
            inner = fold(expr.operand)
            return None if inner is None else -inner
        case ir.Binary(op=op) if op in ("+", "-", "*", "//", "%"):
            left, right = fold(expr.left), fold(expr.right)
            if left is None or right is None or (op in ("//", "%") and right == 0):
                return None
            return {"+": left + right, "-": left - right, "*": left * right,
                    "//": left // right if right else 0, "%": left % right if right else 0}[op]
    return None
