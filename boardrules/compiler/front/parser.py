"""Pass 1: parse a .rules file with the Lark grammar into the frozen AST.

Syntax errors become a `CompileError` with `file:line:col`, the line, a caret,
and what the parser expected there, never a Lark traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token, Tree, v_args
from lark.exceptions import (
    UnexpectedInput,
    VisitError,
)

from ..common.diagnostics import CompileError, Span, error_at
from ..common.error_codes import ErrorCode
from . import ast
from .lalr import lalr_parser
from .literals import SourceError, int_literal, token_span
from .scenario_syntax import ScenarioSyntax
from .syntax_errors import syntax_diagnostic


@dataclass(frozen=True)
class _OptionBounds:
    """`from LOW to HIGH` of an option, until option_def takes it apart."""

    low: ast.Expr
    high: ast.Expr


# `faces A to B` is expanded here, one literal per face; the kernel's (much smaller)
# capacity is checked after type checking, this only keeps the expansion sane.
_MAX_RANGE_FACES = 1000
# Likewise `copies N` of a card is expanded into N cards by the checker.
_MAX_COPIES = 1000
# ...and a list field `int[N]` into N values for each space, group or card.
_MAX_LIST_LENGTH = 1000


def parse(text: str, path: str) -> ast.Module:
    """Parse one rules file; raise CompileError on a syntax error."""
    if text.startswith("\ufeff"):  # a byte-order mark, as some editors write
        text = text[1:]
    try:
        tree = lalr_parser().parse(text)
    except UnexpectedInput as exc:
        raise CompileError([syntax_diagnostic(exc, text, path)]) from None
    try:
        decls = _ToAst(path, text).transform(tree)
    except VisitError as exc:  # Lark wraps what a transformer callback raises
        if isinstance(exc.orig_exc, SourceError):
            raise CompileError([exc.orig_exc.diagnostic()]) from None
        raise
    except SourceError as exc:
        raise CompileError([exc.diagnostic()]) from None
    except RecursionError:
        raise CompileError([error_at(
            Span(path, 0, 0, 0, 0), "the file is nested too deeply to compile",
            "move the innermost part into a procedure",
            code=ErrorCode.TOO_DEEP,
        )]) from None
    lines = text.count("\n") + 1
    return ast.Module(Span(path, 1, 1, lines, 1), path, tuple(decls.children))


def _ordered(children: list) -> tuple[ast.Order | None, list]:
    """A loop's or aggregate's `by KEY [desc]`, the last of its children when it has one,
    and the children before it."""
    if children and isinstance(children[-1], ast.Order):
        return children[-1], children[:-1]
    return None, children


def _joined(first: Span, last: Span) -> Span:
    """From the start of `first` to the end of `last` (`a + b` of `a + b + c`)."""
    return Span(first.path, first.line, first.column, last.end_line, last.end_column)


@v_args(meta=True)
class _ToAst(ScenarioSyntax):
    """Lark tree -> frozen AST nodes, spans taken from each rule's meta (the scenarios'
    in scenario_syntax.py)."""

    # ---- provenance, types -------------------------------------------------
    def quote(self, meta, c):
        return ast.Quote(self._span(meta), self._str(c[0]))

    def assume(self, meta, c):
        return ast.Assume(self._span(meta), self._str(c[0]))

    def provenance(self, meta, c):
        return c[0]

    def type_ref(self, meta, c):
        optional = any(isinstance(t, Token) and t.type == "OPTIONAL" for t in c)
        size = next((t for t in c if isinstance(t, Token) and t.type == "INT"), None)
        length = 0 if size is None else int_literal(size, self.path)
        if size is not None and not 1 <= length <= _MAX_LIST_LENGTH:
            raise SourceError(
                token_span(self.path, size),
                "a list needs at least one value" if length < 1 else f"list too long: {length}",
                f"at most {_MAX_LIST_LENGTH} values" if length else "",
                code=ErrorCode.BAD_COUNT,
            )
        index_enum = str(c[-1]) if len(c) > 1 and isinstance(c[-1], Token) and (
            c[-1].type == "NAME") else ""
        return ast.TypeRef(self._span(meta), str(c[0]), optional, length, index_enum)

    def params(self, meta, c):
        return tuple(c)

    def param_decl(self, meta, c):
        return ast.Param(self._span(meta), str(c[0]), c[1])

    def args(self, meta, c):
        return tuple(c)

    def block(self, meta, c):
        return tuple(c)

    # ---- expressions ------------------------------------------------------
    def int_lit(self, meta, c):
        return ast.IntLit(self._span(meta), int_literal(c[0], self.path))

    def str_lit(self, meta, c):
        return ast.StrLit(self._span(meta), self._str(c[0]))

    def true_lit(self, meta, c):
        return ast.BoolLit(self._span(meta), True)

    def false_lit(self, meta, c):
        return ast.BoolLit(self._span(meta), False)

    def none_lit(self, meta, c):
        return ast.NoneLit(self._span(meta))

    def name(self, meta, c):
        return ast.Name(self._span(meta), str(c[0]))

    def attr(self, meta, c):
        return ast.Attr(self._span(meta), c[0], str(c[1]))

    def index(self, meta, c):
        return ast.Index(self._span(meta), c[0], c[1])

    def call(self, meta, c):
        return ast.Call(self._span(meta), str(c[0]), c[1] if len(c) > 1 else ())

    def ask(self, meta, c):
        return ast.Ask(self._span(meta), str(c[0]), c[1] if len(c) > 1 else ())

    def _chain(self, meta, c):
        expr = c[0]
        for op, right in zip(c[1::2], c[2::2], strict=True):
            expr = ast.BinOp(_joined(expr.span, right.span), str(op), expr, right)
        return expr

    sum = product = comparison = _chain

    def or_expr(self, meta, c):
        return self._logical(meta, c, "or")

    def and_expr(self, meta, c):
        return self._logical(meta, c, "and")

    def _logical(self, meta, c, op):
        expr = c[0]
        for right in c[1:]:
            expr = ast.BinOp(_joined(expr.span, right.span), op, expr, right)
        return expr

    def not_op(self, meta, c):
        return ast.Not(self._span(meta), c[0])

    def neg(self, meta, c):
        return ast.Neg(self._span(meta), c[0])

    def cond_expr(self, meta, c):
        return ast.Cond(self._span(meta), c[0], c[1], c[2])

    def list_lit(self, meta, c):
        return ast.ListLit(self._span(meta), tuple(c))

    def agg_kind(self, meta, c):
        return str(c[0])

    def aggregate(self, meta, c):
        kind = c[0]
        rest = c[1:]
        value = None
        if not isinstance(rest[0], Token):
            value, rest = rest[0], rest[1:]
        order, rest = _ordered(rest)
        var, domain = str(rest[0]), rest[1]
        where = rest[2] if len(rest) > 2 else None
        return ast.Aggregate(self._span(meta), kind, value, var, domain, where, order)

    def order_by(self, meta, c):
        return ast.Order(self._span(meta), c[0], len(c) > 1)

    def order_desc_only(self, meta, c):
        raise SourceError(token_span(self.path, c[0]), "'desc' without 'by'",
                          "desc reverses an order by a key: write by KEY desc",
                          code=ErrorCode.DESC_WITHOUT_ORDER)

    def dom_players(self, meta, c):
        return ast.Domain(self._span(meta), "players")

    def dom_spaces(self, meta, c):
        return ast.Domain(self._span(meta), "spaces")

    def dom_groups(self, meta, c):
        return ast.Domain(self._span(meta), "groups")

    def dom_cells(self, meta, c):
        return ast.Domain(self._span(meta), "cells")

    def dom_cards(self, meta, c):
        return ast.Domain(self._span(meta), "cards", str(c[0]) if c else "")

    def dom_enum(self, meta, c):
        return ast.Domain(self._span(meta), "enum", str(c[0]))

    def dom_legal(self, meta, c):
        return ast.Domain(self._span(meta), "legal")

    def dom_range(self, meta, c):
        return ast.Domain(self._span(meta), "range", "", c[0], c[1])

    # ---- statements ----------------------------------------------------------
    def let_stmt(self, meta, c):
        type_ref = c[1] if len(c) == 3 else None
        return ast.Let(self._span(meta), str(c[0]), type_ref, c[-1])

    def lvalue(self, meta, c):
        return ast.Name(self._span(meta), str(c[0]))

    def lv_attr(self, meta, c):
        return ast.Attr(self._span(meta), c[0], str(c[1]))

    def lv_index(self, meta, c):
        return ast.Index(self._span(meta), c[0], c[1])

    def assign_stmt(self, meta, c):
        return ast.Assign(self._span(meta), c[0], str(c[1]), c[2])

    def call_stmt(self, meta, c):
        return ast.CallStmt(self._span(meta), c[0])

    def if_stmt(self, meta, c):
        otherwise = c[2] if len(c) > 2 else ()
        return ast.If(self._span(meta), c[0], c[1], otherwise)

    if_else = if_stmt

    def else_part(self, meta, c):
        part = c[0]
        return (part,) if isinstance(part, ast.If) else part

    def while_stmt(self, meta, c):
        return ast.While(self._span(meta), c[0], c[1])

    def for_stmt(self, meta, c):
        order, head = _ordered(c[:-1])
        where = head[2] if len(head) == 3 else None
        return ast.For(self._span(meta), str(head[0]), head[1], where, c[-1], order)

    def window_stmt(self, meta, c):
        rounds = c[2] if len(c) == 4 else None
        return ast.Window(self._span(meta), str(c[0]), c[1], rounds, c[-1])

    def return_stmt(self, meta, c):
        return ast.Return(self._span(meta), c[0] if c else None)

    def trigger_stmt(self, meta, c):
        return ast.Trigger(self._span(meta), str(c[0]), c[1] if len(c) > 1 else ())

    def draw_stmt(self, meta, c):
        return ast.Draw(self._span(meta), str(c[0]), c[1] if len(c) > 1 else ())

    def break_stmt(self, meta, c):
        return ast.Break(self._span(meta))

    def end_turn_stmt(self, meta, c):
        return ast.EndTurn(self._span(meta))

    def end_game_stmt(self, meta, c):
        return ast.EndGame(self._span(meta))

    def end_game_winner_stmt(self, meta, c):
        return ast.EndGame(self._span(meta), c[0])

    # ---- declarations -------------------------------------------------------
    def start(self, meta, c):
        # `import a, b` gives one Import per name
        decls = [d for item in c for d in (item if isinstance(item, list) else [item])]
        return Tree("start", decls)

    def edition_prop(self, meta, c):
        return (str(c[0]), tuple(c[1:]), self._span(meta))

    def edition(self, meta, c):
        return ast.Edition(self._span(meta), self._str(c[0]), tuple(c[1:]))

    def import_(self, meta, c):
        if len(c) == 1:
            return ast.Import(self._span(meta), str(c[0]))
        return [ast.Import(token_span(self.path, name), str(name)) for name in c]

    def param(self, meta, c):
        value = c[2] if len(c) > 2 and isinstance(c[2], ast.Expr) else None
        return ast.ParamDecl(self._span(meta), str(c[0]), c[1], value, self._prov(c))

    def decision_default(self, meta, c):
        return ast.DecisionDefault(self._span(meta), str(c[0]), c[1], self._prov(c))

    def set_(self, meta, c):
        return ast.SetParam(self._span(meta), str(c[0]), c[1], self._prov(c))

    def _prov(self, c) -> tuple:
        return tuple(x for x in c if isinstance(x, ast.Quote | ast.Assume))

    def enum_def(self, meta, c):
        members = tuple(str(t) for t in c[1:] if isinstance(t, Token))
        return ast.EnumDecl(self._span(meta), str(c[0]), members, self._prov(c))

    def field_def(self, meta, c):
        default = c[3] if len(c) > 3 else None
        return ast.FieldDecl(self._span(meta), str(c[0]), str(c[1]), c[2], default)

    def counter_def(self, meta, c):
        names = [str(t) for t in c if isinstance(t, Token)]
        owner, name = (names[0], names[1]) if len(names) == 2 else ("", names[0])
        type_ref = next(x for x in c if isinstance(x, ast.TypeRef))
        initial = next((x for x in c if isinstance(x, ast.Expr)), None)
        return ast.CounterDecl(self._span(meta), owner, name, type_ref, initial, self._prov(c))

    def option_def(self, meta, c):
        bounds = c[2] if isinstance(c[2], _OptionBounds) else None
        rest = c[3:] if bounds else c[2:]
        excludes = next((x for x in rest[2:] if isinstance(x, list)), [])
        return ast.OptionDecl(self._span(meta), str(c[0]), c[1], rest[0], self._str(rest[1]),
                              self._prov(c), tuple(excludes),
                              (bounds.low, bounds.high) if bounds else None)

    def option_bounds(self, meta, c):
        return _OptionBounds(c[0], c[1])

    def excludes(self, meta, c):
        return [(str(t), token_span(self.path, t)) for t in c]

    def field_values(self, meta, c):
        return tuple(c)

    def field_value(self, meta, c):
        return ast.FieldValue(self._span(meta), str(c[0]), c[1])

    def group_def(self, meta, c):
        values = next((x for x in c if isinstance(x, tuple)), ())
        return ast.GroupDecl(
            self._span(meta), str(c[0]), self._str(c[1]), values, self._prov(c)
        )

    def offboard(self, meta, c):
        return ("offboard", str(c[0]))

    def board(self, meta, c):
        return ast.Board(self._span(meta), tuple(c))

    def space_def(self, meta, c):
        offboard = next((x[1] for x in c if isinstance(x, tuple) and x[:1] == ("offboard",)), "")
        values = next(
            (x for x in c if isinstance(x, tuple) and x[:1] != ("offboard",)), ()
        )
        return ast.SpaceDecl(
            self._span(meta), str(c[0]), self._str(c[1]), str(c[2]), offboard, values,
            self._prov(c),
        )

    def die_range(self, meta, c):
        low, high = int_literal(c[0], self.path), int_literal(c[1], self.path)
        if high < low:
            raise SourceError(
                self._span(meta), f"a die needs at least one face: {low} to {high} is empty",
                f"write: faces {high} to {low}",
                code=ErrorCode.BAD_COUNT,
            )
        if high - low >= _MAX_RANGE_FACES:
            raise SourceError(self._span(meta), f"too many faces for a die: {high - low + 1}",
                               code=ErrorCode.BAD_COUNT)
        return tuple(ast.IntLit(self._span(meta), v) for v in range(low, high + 1))

    def die_list(self, meta, c):
        return tuple(c)

    def die_def(self, meta, c):
        return ast.DieDecl(self._span(meta), str(c[0]), c[1], self._prov(c))

    def card_def(self, meta, c):
        keep = any(isinstance(t, Token) and t.type == "KEEP" for t in c)
        count = next((t for t in c if isinstance(t, Token) and t.type == "INT"), None)
        copies = 1 if count is None else int_literal(count, self.path)
        if count is not None and not 1 <= copies <= _MAX_COPIES:
            raise SourceError(
                token_span(self.path, count),
                "a card needs at least one copy" if copies < 1 else f"too many copies: {copies}",
                "leave 'copies' out for a single card" if copies < 1 else "",
                code=ErrorCode.BAD_COUNT,
            )
        tuples = [x for x in c if isinstance(x, tuple)]
        values = next((t for t in tuples if t and isinstance(t[0], ast.FieldValue)), ())
        effect = next((t for t in tuples if t and isinstance(t[0], ast.Stmt)), ())
        return ast.CardDecl(
            self._span(meta), str(c[0]), self._str(c[1]), keep, values, effect, self._prov(c),
            copies,
        )

    def deck_def(self, meta, c):
        cards = tuple(x for x in c if isinstance(x, ast.CardDecl))
        hidden = any(isinstance(t, Token) and t.type == "HIDDEN" for t in c)
        return ast.DeckDecl(
            self._span(meta), str(c[0]), c[1], self._str(c[2]), cards, self._prov(c), hidden
        )

    def grid_def(self, meta, c):
        width, height = int_literal(c[1], self.path), int_literal(c[2], self.path)
        return ast.GridDecl(self._span(meta), str(c[0]), width, height, self._prov(c))

    def event_def(self, meta, c):
        return ast.EventDecl(self._span(meta), str(c[0]), c[1])

    def yes_no(self, meta, c):
        return {"kind": "bool"}

    def int_range(self, meta, c):
        optional = any(isinstance(t, Token) and t.type == "OPTIONAL" for t in c)
        low, high = [x for x in c if isinstance(x, ast.Expr)]
        return {"kind": "int", "optional": optional, "low": low, "high": high}

    def entity_choice(self, meta, c):
        optional = any(isinstance(t, Token) and t.type == "OPTIONAL" for t in c)
        names = [str(t) for t in c if isinstance(t, Token) and t.type == "NAME"]
        return {
            "kind": "entity", "optional": optional, "entity_type": names[0], "var": names[1],
            "where": c[-1],
        }

    def default_prop(self, meta, c):
        return ("default", c[0])

    def prompt_prop(self, meta, c):
        return ("prompt", self._str(c[0]))

    def decision_def(self, meta, c):
        spec = next(x for x in c if isinstance(x, dict))
        props = dict(x for x in c if isinstance(x, tuple) and x and x[0] in ("default", "prompt"))
        return ast.DecisionDecl(
            self._span(meta), str(c[0]), c[1], c[2], spec["kind"], spec.get("optional", False),
            spec.get("low"), spec.get("high"), spec.get("entity_type", ""), spec.get("var", ""),
            spec.get("where"), props.get("default"), props.get("prompt", ""), self._prov(c),
        )

    def proc_def(self, meta, c):
        returns = c[2] if len(c) == 4 else None
        return ast.ProcDecl(self._span(meta), str(c[0]), c[1], returns, c[-1])

    def handler(self, meta, c):
        order = tuple(x for x in c[2:-1] if isinstance(x, ast.HandlerOrder))
        rest = [x for x in c[2:-1] if not isinstance(x, ast.HandlerOrder)]
        guard = rest[0] if rest else None
        return ast.Handler(self._span(meta), str(c[0]), c[1], guard, c[-1], order)

    def order_before(self, meta, c):
        return ast.HandlerOrder(self._span(meta), "before", str(c[0]))

    def order_after(self, meta, c):
        return ast.HandlerOrder(self._span(meta), "after", str(c[0]))

    def rule_def(self, meta, c):
        handlers = tuple(x for x in c if isinstance(x, ast.Handler))
        return ast.RuleDecl(self._span(meta), str(c[0]), self._prov(c), handlers)

    def use_rule(self, meta, c):
        return ast.UseRule(self._span(meta), str(c[0]), self._prov(c))

    def waive(self, meta, c):
        return ast.Waive(self._span(meta), self._str(c[0]), self._str(c[1]))

    def equivalent(self, meta, c):
        return ast.Equivalent(self._span(meta), self._str(c[0]), self._str(c[1]))

    def assume_item(self, meta, c):
        return ast.Assumption(self._span(meta), str(c[0]), self._str(c[1]))

    def over_when(self, meta, c):
        return ast.GameProp(self._span(meta), "over", c[0], (), self._prov(c))

    def over_after_rounds(self, meta, c):
        return ast.GameProp(self._span(meta), "rounds", c[0], (), self._prov(c))

    def over_at_bankruptcy(self, meta, c):
        span = self._span(meta)
        given = [x for x in c if not isinstance(x, ast.Quote | ast.Assume)]
        condition = given[0] if given else ast.BoolLit(span, True)
        return ast.GameProp(span, "bankruptcy", condition, (), self._prov(c))

    def score_parts(self, meta, c):
        return tuple(c)

    def score_def(self, meta, c):
        return ast.GameProp(self._span(meta), "score", c[1][0], c[0], self._prov(c),
                            tie_breaks=c[1][1:])

    def valuation_def(self, meta, c):
        return ast.GameProp(self._span(meta), "valuation", c[1][0], c[0], self._prov(c),
                            condition=c[2], tie_breaks=c[1][1:])

    def turn_limit(self, meta, c):
        return ast.GameProp(self._span(meta), "turn_limit", c[0], (), self._prov(c))

    def first_player(self, meta, c):
        return ast.GameProp(self._span(meta), "first", c[0], (), self._prov(c))

    def game_def(self, meta, c):
        return ast.GameDecl(self._span(meta), tuple(c))
