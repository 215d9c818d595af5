"""Pass 4: resolve names, check types and lower the checked program to IR.

Errors are collected (with spans and did-you-mean hints) and reported together
at the end of the pass; unused procedures, decisions and params are warnings.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..common.diagnostics import Reporter, Span, did_you_mean
from ..common.error_codes import ErrorCode
from ..ir import nodes as ir
from ..ir.nodes import BOOL, INT, VOID, Type
from . import ast
from .expressions import ExpressionLowering, rename_local
from .handler_order import Placed, order_handlers, state_access
from .layout import LayoutLowering, _first_quote, _where
from .names import NameResolution
from .primitives import BUILTIN_ATTRS, ERROR
from .scenario_lowering import lower_scenarios
from .scope import Scope, declared_locals
from .statements import StatementLowering, always_returns
from .symbols import Symbols, article, resolve_type


class Checker(LayoutLowering, StatementLowering, ExpressionLowering, NameResolution):
    """Lowers a checked edition to IR: the declarations here, the data (layout.py),
    statements (statements.py) and expressions (expressions.py) in their mixins."""

    def __init__(self, symbols: Symbols, reporter: Reporter, edition: str = ""):
        self.s = symbols
        self.edition = edition  # the edition's name (its file's stem), for the program
        self.report = reporter
        self.aggregates: list[ir.Aggregate] = []
        self.functions: list[ir.Function] = []
        # where _aggregate puts what it lifts: the program's aggregates, or a scenario's
        self._lifted, self._lift_prefix = self.aggregates, "agg_"
        self.used: set[str] = set()
        self.window_sites = 0  # window statements lowered so far: each has its number
        self.break_flags = []  # the loops being lowered (statements.py), innermost last
        self.space_index = {name: i for i, name in enumerate(symbols.spaces)}
        self.group_index = {name: i for i, name in enumerate(symbols.groups)}
        # every physical card: (id, declaration); copies get ids name_2, name_3...
        self.card_slots: list[tuple[str, ast.CardDecl]] = [
            (name if k == 0 else f"{name}_{k + 1}", card)
            for name, (_, card) in symbols.cards.items() for k in range(max(1, card.copies))
        ]
        self.card_index: dict[str, int] = {}
        for i, (_, card) in enumerate(self.card_slots):
            self.card_index.setdefault(card.name, i)
        self.n_cards = len(self.card_slots)
        self.rule_index = {name: i for i, name in enumerate(symbols.rules)}
        self.param_values: dict[str, tuple[int, Type]] = {}
        # params whose value reads options (`set x = if short_game then 3 else 4`): their
        # expression, read wherever the param is (they are not constants)
        self.variant_params: dict[str, ir.Expr] = {}
        self.global_names = symbols.global_names()  # fixed once the declarations are collected
        self._evaluating: set[str] = set()
        self.max_players = 4  # the edition's most seats, from its header (run)
        self.min_players = 2  # and its fewest
        self.legal: ast.DecisionDecl | None = None  # the decision whose default is being lowered
        grid = next(iter(symbols.grids.values()), None)
        self.cell_count = grid.width * grid.height if grid else 0
        self.grid_width = grid.width if grid else 0

    # ---- entry point -------------------------------------------------------------
    def run(self) -> ir.Program:
        s = self.s
        edition = s.edition
        props = self._edition_props()
        self.min_players, self.max_players = props.get("players", (2, 4))
        for name in s.params:
            self.param_value(name)
        tables = self._tables()
        counters = self._counters()
        dice = tuple(self._die(i, name, d) for i, (name, d) in enumerate(s.dice.items()))
        self._check_builtin_clashes()
        decks = self._decks()
        decisions = tuple(self._decision(i, d) for i, d in enumerate(s.decisions.values()))
        for proc in s.procs.values():
            self._proc(proc)
        events = self._events()
        game = s.game
        first = self._game_expr(game.get("first"), Type("player"))
        over = self._game_expr(game.get("over"), BOOL)
        score = self._score(game.get("score"))
        valuation = game.get("valuation")
        if valuation is not None:
            score = self._valuation(valuation, score)
        round_limit = self._game_expr(game.get("rounds"), INT)
        bankruptcy_ends = self._game_expr(game.get("bankruptcy"), BOOL)
        turn_limit = self.constant(game["turn_limit"].value)[0] if "turn_limit" in game else 1000
        self.option_exclusions = self._option_exclusions()
        scenarios = lower_scenarios(self, props, dice)
        spaces = list(s.spaces.values())
        track_of, on_track = self._track()
        return ir.Program(
            edition=self.edition,
            title=edition.title if edition else "",
            currency=props.get("currency", ""),
            min_players=self.min_players,
            max_players=self.max_players,
            turn_limit=turn_limit,
            space_ids=tuple(s.spaces),
            space_names=tuple(sp.title for sp in spaces),
            track=tuple(track_of[sp.name] for sp in spaces),
            track_length=len(on_track),
            space_of_track=tuple(self.space_index[sp.name] for sp in on_track),
            group_ids=tuple(s.groups),
            group_titles=tuple(g.title for g in s.groups.values()),
            card_ids=tuple(cid for cid, _ in self.card_slots),
            card_texts=tuple(card.text for _, card in self.card_slots),
            card_kinds=tuple(self.card_index[card.name] for _, card in self.card_slots),
            cell_count=self.cell_count,
            grid_width=self.grid_width,
            enums={name: e.members for name, e in s.enums.items()},
            tables=tables,
            counters=counters,
            dice=dice,
            decks=decks,
            decisions=decisions,
            functions=tuple(self.functions),
            aggregates=tuple(self.aggregates),
            events=events,
            rules=tuple(s.rules),
            handled_rules=frozenset(name for name, rule in s.rules.items() if rule.handlers),
            first_player=first,
            over_when=over,
            score=score[0] if score else None,
            tie_breaks=score[1:] if score else (),
            round_limit=round_limit,
            bankruptcy_ends=bankruptcy_ends,
            constants={name: value for name, (value, _) in self.param_values.items()
                       if name not in self.variant_params},
            scenarios=scenarios.scenarios,
            scenario_functions=scenarios.functions,
            scenario_aggregates=scenarios.aggregates,
            option_exclusions=self.option_exclusions,
        )

    def _check_builtin_clashes(self) -> None:
        s = self.s
        for owner, name in (*s.fields, *s.counters):
            if (owner, name) in BUILTIN_ATTRS:
                decl = s.fields.get((owner, name)) or s.counters[(owner, name)]
                self.report.error(decl.span, f"'{owner}.{name}' is a built-in attribute",
                                  "choose another name", code=ErrorCode.BUILTIN_REDEFINED)

    def _track(self) -> tuple[dict[str, int], list[ast.SpaceDecl]]:
        """Each space's position on the track (an offboard space shares its host's), and
        the spaces on the track, in order."""
        spaces = list(self.s.spaces.values())
        on_track = [sp for sp in spaces if not sp.offboard_at]
        track_of = {sp.name: position for position, sp in enumerate(on_track)}
        for sp in spaces:
            if not sp.offboard_at:
                continue
            if sp.offboard_at in track_of:
                track_of[sp.name] = track_of[sp.offboard_at]
                continue
            self.report.error(
                sp.span, f"offboard space '{sp.name}' is placed at unknown space "
                f"'{sp.offboard_at}'", did_you_mean(sp.offboard_at, set(track_of)),
                code=ErrorCode.UNKNOWN_SPACE,
            )
            track_of[sp.name] = 0
        if not on_track:
            edition = self.s.edition
            self.report.error(
                edition.span if edition else Span("<edition>", 0, 0, 0, 0),
                "the edition has no board", "add: board { space start \"Start\" corner ... }",
                code=ErrorCode.NO_BOARD,
            )
        return track_of, on_track

    # ---- decisions, procedures, handlers ----------------------------------------------------
    def _decision(self, index: int, d: ast.DecisionDecl) -> ir.Decision:
        params = self._params(d.params)
        scope = Scope(f"decide_{d.name}", VOID, dict(params))
        by = self.expr(d.by, scope)
        self._expect(by.type, Type("player"), d.by.span)
        low = high = where = domain = None
        if d.kind == "bool":
            result = BOOL
        elif d.kind == "int":
            low, high = self.expr(d.low, scope), self.expr(d.high, scope)
            self._expect(low.type, INT, d.low.span)
            self._expect(high.type, INT, d.high.span)
            result = Type("int", d.optional)
        else:
            domain, var_type = self._entity_domain(d.entity_type, d.span)
            inner = scope.child()
            inner.variables[d.var] = var_type
            inner.declared[d.var] = var_type
            where = self.expr(d.where, inner)
            self._expect(where.type, BOOL, d.where.span)
            result = Type(var_type.name, d.optional)
        default = None
        if d.default is not None:
            self.legal = d if d.kind == "entity" else None
            default = self.expr(d.default, scope)
            self.legal = None
            self._expect(default.type, result, d.default.span)
        return ir.Decision(d.name, index, params, by, d.kind, d.optional, low, high, domain,
                           d.var, where, default, d.prompt, d.span, answer=str(result),
                           default_legal=d.kind == "entity" and _from_legal(d.default))

    def _entity_domain(self, type_name: str, span: Span) -> tuple[ir.Domain, Type]:
        kinds = {"player": "players", "space": "spaces", "group": "groups", "cell": "cells",
                 "card": "cards"}
        if type_name in kinds:
            return self.domain(ast.Domain(span, kinds[type_name]), Scope("", VOID))
        if type_name in self.s.enums:
            return self.domain(ast.Domain(span, "enum", type_name), Scope("", VOID))
        self.report.error(span, f"cannot choose among '{type_name}'",
                          "choose a player, space, group, card, cell or enum member",
                          code=ErrorCode.TYPE_NOT_ALLOWED)
        return ir.Domain("range", ir.Const(INT, 0), ir.Const(INT, 0)), ERROR

    def _proc(self, proc: ast.ProcDecl) -> None:
        params = self._params(proc.params)
        returns = resolve_type(proc.returns, self.s, self.report) if proc.returns else VOID
        scope = Scope(f"proc_{proc.name}", returns, dict(params))
        body = self.block(proc.body, scope)
        if returns != VOID and not always_returns(body):
            self.report.error(proc.span, f"procedure '{proc.name}' can end without returning "
                              f"{article(str(returns))}", "add a return at the end",
                              code=ErrorCode.RETURN_MISMATCH)
        self.functions.append(ir.Function(
            f"proc_{proc.name}", params, returns, body, declared_locals(scope, params),
            f"proc {proc.name} at {_where(proc.span)}", span=proc.span,
            quote=_first_quote(proc),
        ))

    def _events(self) -> dict[str, ir.Event]:
        handlers: dict[str, list[Placed]] = {name: [] for name in self.s.events}
        for rule_name, rule in self.s.rules.items():
            for k, handler in enumerate(rule.handlers):
                expected = self.s.events.get(handler.event)
                if expected is None:
                    self.report.error(handler.span, f"unknown event '{handler.event}'",
                                      did_you_mean(handler.event, set(self.s.events)),
                                      code=ErrorCode.UNKNOWN_EVENT)
                    continue
                params = self._params(handler.params)
                if tuple(t for _, t in params) != tuple(t for _, t in expected):
                    sig = ", ".join(f"{n}: {t}" for n, t in expected)
                    self.report.error(handler.span,
                                      f"a handler of '{handler.event}' takes ({sig})",
                                      code=ErrorCode.WRONG_ARGUMENTS)
                    continue
                fname = f"rule_{rule_name}_{k}"
                scope = Scope(fname, VOID, dict(params))
                guard = None
                if handler.guard is not None:
                    guard = self.expr(handler.guard, scope)
                    self._expect(guard.type, BOOL, handler.guard.span)
                body = self.block(handler.body, scope)
                self.functions.append(ir.Function(
                    fname, params, VOID, body, declared_locals(scope, params),
                    f"rule {rule_name} at {_where(handler.span)}", self.rule_index[rule_name],
                    guard, span=handler.span, quote=_first_quote(rule),
                ))
                handlers[handler.event].append(
                    Placed(rule_name, handler, ir.HandlerRef(fname, guard, rule_name)))
        if not handlers.get("turn"):
            self.report.error(
                self.s.edition.span if self.s.edition else Span("<edition>", 0, 0, 0, 0),
                "no rule handles the 'turn' event, so nobody can play",
                "import a library that defines the turn, or write: rule turn { on turn(p: player)"
                " { ... } }",
                code=ErrorCode.NO_TURN,
            )
        access = state_access(self.functions, self.aggregates)
        own_file = self.s.edition.span.path if self.s.edition else None
        named = None
        if own_file is not None:  # what the edition's own code names
            own = state_access(self.functions, self.aggregates, own_file).values()
            named = frozenset().union(*(reads | writes for reads, writes in own))
        return {
            name: ir.Event(name, params, order_handlers(name, handlers[name], self.s.rules,
                                                        access, self.report, own_file,
                                                        named))
            for name, params in self.s.events.items()
        }

    def _game_expr(self, prop: ast.GameProp | None, expected: Type) -> ir.Expr | None:
        if prop is None:
            return None
        lowered = self.expr(prop.value, Scope(f"game_{prop.kind}", VOID))
        self._expect(lowered.type, expected, prop.value.span)
        return lowered

    def _score(self, prop: ast.GameProp | None) -> tuple[ir.Expr, ...] | None:
        """The score and its tie-breakers (`score(p) = A then B`), each an int of `p`."""
        if prop is None:
            return None
        params = self._params(prop.params)
        if len(params) != 1 or params[0][1] != Type("player"):
            self.report.error(prop.span, "score takes one player: score(p: player) = ...",
                              code=ErrorCode.WRONG_ARGUMENTS)
            return None
        parts = []
        for value in (prop.value, *prop.tie_breaks):
            scope = Scope("score", VOID, {"p": Type("player")})
            scope.variables = {params[0][0]: Type("player")}
            lowered = self.expr(value, scope)
            self._expect(lowered.type, INT, value.span)
            if params[0][0] != "p":
                lowered = rename_local(lowered, params[0][0], "p")
            parts.append(lowered)
        return tuple(parts)

    def _valuation(self, prop: ast.GameProp,
                   score: tuple[ir.Expr, ...] | None) -> tuple[ir.Expr, ...] | None:
        """`score(p) = V when C`: the score is V while C holds, else the other score (the
        player's cash without one); part by part, a part one of them lacks counting 0 (a
        tie for all)."""
        value = self._score(prop)
        if value is None or prop.condition is None:
            return score
        condition = self.expr(prop.condition, Scope("score", VOID))
        self._expect(condition.type, BOOL, prop.condition.span)
        otherwise = score if score is not None else (ir.State(
            INT, "player_cash", ir.Local(Type("player"), "p"), False),)
        length = max(len(value), len(otherwise))
        zero = ir.Const(INT, 0)
        return tuple(ir.Conditional(INT, condition, (value + (zero,) * length)[i],
                                    (otherwise + (zero,) * length)[i]) for i in range(length))

    @contextmanager
    def lifting_into(self, aggregates: list[ir.Aggregate], prefix: str) -> Iterator[None]:
        """Lift aggregates into another list meanwhile: a scenario's stay out of the program."""
        saved = self._lifted, self._lift_prefix
        self._lifted, self._lift_prefix = aggregates, prefix
        try:
            yield
        finally:
            self._lifted, self._lift_prefix = saved

# ---- helpers ---------------------------------------------------------------------------------


def _from_legal(default: ast.Expr | None) -> bool:
    """Whether a decision's default is the best of its own options (`best(... for s in
    legal ...)`, perhaps in `some(...)`): one of them, or none."""
    if isinstance(default, ast.Call) and default.name == "some" and len(default.args) == 1:
        default = default.args[0]
    return (isinstance(default, ast.Aggregate) and default.kind in ("best", "first_of")
            and default.domain.kind == "legal")
