"""Pass 4: resolve names, check types and lower the checked program to IR.

Errors are collected (with spans and did-you-mean hints) and reported together
at the end of the pass; unused procedures, decisions and params are warnings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from . import ast, ir
from .diagnostics import Reporter, Span, did_you_mean
from .ir import BOOL, INT, NONE, STR, VOID, Type
from .scenario_lowering import lower_scenarios
from .scope import Scope, declared_locals
from .symbols import Symbols, article, resolve_type

ERROR = Type("error")

# Kernel primitives callable from rules: parameter types and result type.
KERNEL_FUNCTIONS: dict[str, tuple[tuple[Type, ...], Type]] = {
    "pay": ((Type("player", True), Type("player", True), INT), VOID),
    "move": ((Type("player"), INT), VOID),
    "move_to": ((Type("player"), Type("space")), VOID),
    "place": ((Type("player"), Type("space")), VOID),
    "retire": ((Type("player"),), VOID),
    "holds": ((Type("player"), Type("card")), BOOL),
    "return_card": ((Type("card"),), VOID),
    "give_card": ((Type("card"), Type("player")), VOID),
    "next_player": ((Type("player"),), Type("player")),
    "random": ((INT,), INT),
    "log": ((STR,), VOID),
    "distance": ((Type("space"), Type("space")), INT),
    "space_at": ((INT,), Type("space")),
    "adjacent": ((Type("cell"), Type("cell")), BOOL),
    "cell_at": ((INT, INT), Type("cell", True)),
    "paid": ((Type("player", True), Type("player", True)), INT),
    "min": ((INT, INT), INT),
    "max": ((INT, INT), INT),
    "abs": ((INT,), INT),
}
# Kernel primitives that take a deck's name: shuffle it, take its top card to the
# table (none when empty), count the cards left in it.
DECK_FUNCTIONS: dict[str, Type] = {
    "shuffle": VOID, "take_top": Type("card", True), "cards_left": INT,
}
# Built-in attributes of entities: (type, assignable).
BUILTIN_ATTRS: dict[tuple[str, str], tuple[Type, bool]] = {
    ("player", "cash"): (INT, True),
    ("player", "position"): (Type("space"), True),
    ("player", "alive"): (BOOL, False),
    ("player", "seat"): (INT, False),
    ("space", "track"): (INT, False),
    ("space", "name"): (STR, False),
    ("space", "kind"): (Type("kind"), False),
    ("card", "holder"): (Type("player", True), False),
    ("card", "text"): (STR, False),
    ("card", "deck"): (Type("deck"), False),
    ("group", "name"): (STR, False),
}
ARITHMETIC = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%"}


def assignable(source: Type, target: Type) -> bool:
    if source == ERROR or target == ERROR:
        return True
    if source.name == "none":
        return target.optional
    return source.name == target.name and (target.optional or not source.optional)


class Checker:
    def __init__(self, symbols: Symbols, reporter: Reporter):
        self.s = symbols
        self.report = reporter
        self.aggregates: list[ir.Aggregate] = []
        self.functions: list[ir.Function] = []
        # where _aggregate puts what it lifts: the program's aggregates, or a scenario's
        self._lifted, self._lift_prefix = self.aggregates, "agg_"
        self.used: set[str] = set()
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
        self.global_names = symbols.global_names()  # fixed once the declarations are collected
        self._evaluating: set[str] = set()
        self.legal: ast.DecisionDecl | None = None  # the decision whose default is being lowered
        grid = next(iter(symbols.grids.values()), None)
        self.cell_count = grid.width * grid.height if grid else 0
        self.grid_width = grid.width if grid else 0

    # ---- entry point -------------------------------------------------------------
    def run(self) -> ir.Program:
        s = self.s
        edition = s.edition
        props = self._edition_props()
        for name in s.params:
            self.param_value(name)
        tables = self._tables()
        counters = self._counters()
        dice = tuple(self._die(i, name, d) for i, (name, d) in enumerate(s.dice.items()))
        for owner, name in (*s.fields, *s.counters):
            if (owner, name) in BUILTIN_ATTRS:
                decl = s.fields.get((owner, name)) or s.counters[(owner, name)]
                self.report.error(decl.span, f"'{owner}.{name}' is a built-in attribute",
                                  "choose another name")
        decks = self._decks()
        decisions = tuple(self._decision(i, d) for i, d in enumerate(s.decisions.values()))
        for proc in s.procs.values():
            self._proc(proc)
        events = self._events()
        game = s.game
        first = self._game_expr(game.get("first"), Type("player"))
        over = self._game_expr(game.get("over"), BOOL)
        score = self._score(game.get("score"))
        turn_limit = self.constant(game["turn_limit"].value)[0] if "turn_limit" in game else 1000
        scenarios = lower_scenarios(self, props)
        self._warn_unused()
        spaces = list(s.spaces.values())
        track_of: dict[str, int] = {}
        on_track = [sp for sp in spaces if not sp.offboard_at]
        for position, sp in enumerate(on_track):
            track_of[sp.name] = position
        for sp in spaces:
            if sp.offboard_at:
                if sp.offboard_at not in track_of:
                    self.report.error(
                        sp.span, f"offboard space '{sp.name}' is placed at unknown space "
                        f"'{sp.offboard_at}'", did_you_mean(sp.offboard_at, set(track_of)),
                    )
                    track_of[sp.name] = 0
                else:
                    track_of[sp.name] = track_of[sp.offboard_at]
        if not on_track:
            self.report.error(
                edition.span if edition else Span("<edition>", 0, 0, 0, 0),
                "the edition has no board", "add: board { space start \"Start\" corner ... }",
            )
        return ir.Program(
            edition="",
            title=edition.title if edition else "",
            currency=props.get("currency", ""),
            min_players=props.get("players", (2, 4))[0],
            max_players=props.get("players", (2, 4))[1],
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
            score=score,
            constants={name: value for name, (value, _) in self.param_values.items()},
            scenarios=scenarios.scenarios,
            scenario_functions=scenarios.functions,
            scenario_aggregates=scenarios.aggregates,
        )

    # ---- edition header and constants -----------------------------------------------
    def _edition_props(self) -> dict:
        props: dict = {}
        edition = self.s.edition
        if edition is None:
            return props
        for name, values, span in edition.props:
            if name in ("rulebook", "currency"):
                if len(values) != 1 or not isinstance(values[0], ast.StrLit):
                    self.report.error(span, f"'{name}' takes one string")
                    continue
                props[name] = values[0].value
            elif name == "players":
                ints = [v.value for v in values if isinstance(v, ast.IntLit)]
                if len(ints) != 2 or not 1 <= ints[0] <= ints[1] <= 16:
                    self.report.error(span, "'players' takes a range such as 2 to 6 (at most 16)")
                    continue
                props[name] = (ints[0], ints[1])
            else:
                self.report.error(
                    span, f"unknown edition property '{name}'",
                    did_you_mean(name, {"rulebook", "currency", "players"}),
                )
        if "rulebook" not in props:
            self.report.error(edition.span, "the edition names no rulebook",
                              'add: rulebook "rulebook.txt"')
        return props

    def param_value(self, name: str) -> tuple[int, Type]:
        if name in self.param_values:
            return self.param_values[name]
        decl = self.s.params[name]
        if name in self._evaluating:
            self.report.error(decl.span, f"param '{name}' is defined in terms of itself")
            return 0, ERROR
        self._evaluating.add(name)
        declared = resolve_type(decl.type, self.s, self.report)
        setting = self.s.sets.get(name)
        expr = setting.value if setting else decl.value
        if expr is None:
            self.report.error(
                decl.span, f"param '{name}' has no value",
                f"the edition must give it: set {name} = ...",
            )
            value: tuple[int, Type] = (0, declared)
        else:
            value = self.constant(expr, declared)
        self._evaluating.discard(name)
        self.param_values[name] = (value[0], declared)
        return self.param_values[name]

    def constant(self, expr: ast.Expr, expected: Type | None = None) -> tuple[int, Type]:
        """Evaluate a compile-time constant expression (data tables, params, faces)."""
        lowered = self.expr(expr, Scope("<constant>", VOID))
        if expected is not None and not assignable(lowered.type, expected):
            self._expect(lowered.type, expected, expr.span)
            return 0, expected
        value = fold(lowered)
        if value is None:
            if lowered.type != ERROR:
                self.report.error(expr.span, "this must be a constant known when compiling",
                                  "use numbers, params, spaces, groups or enum members")
            return 0, lowered.type
        return value, lowered.type

    # ---- data tables ---------------------------------------------------------------------
    def _tables(self) -> tuple[ir.TableData, ...]:
        s = self.s
        owners = {"space": s.spaces, "group": s.groups, "card": dict(self.card_slots)}
        tables: list[ir.TableData] = []
        for (owner, name), decl in s.fields.items():
            entities = owners.get(owner)
            if entities is None:
                self.report.error(decl.span, f"fields belong to space, group or card, not {owner}",
                                  "use a counter for values that change")
                continue
            ftype = resolve_type(decl.type, s, self.report)
            stride = self._stride(decl.type)
            default = self.constant(decl.default, ftype)[0] if decl.default else (
                -1 if ftype.is_entity or ftype.name in s.enums or ftype.name == "deck" else 0)
            values = [default] * (len(entities) * stride)
            for i, entity in enumerate(entities.values()):
                for fv in entity.values:
                    if fv.name != name:
                        continue
                    items = fv.value.items if isinstance(fv.value, ast.ListLit) else (fv.value,)
                    if stride > 1 and len(items) > stride:
                        self.report.error(
                            fv.span, f"'{name}' takes at most {stride} values, got {len(items)}"
                        )
                        continue
                    if stride == 1 and isinstance(fv.value, ast.ListLit):
                        self.report.error(fv.span, f"'{name}' takes one value, not a list")
                        continue
                    for k, item in enumerate(items):
                        values[i * stride + k] = self.constant(item, ftype)[0]
            tables.append(ir.TableData(f"{owner}_{name}", owner, tuple(values), stride))
        for owner, entities in owners.items():
            known = {n for (o, n) in s.fields if o == owner}
            for entity in set(entities.values()):
                for fv in entity.values:
                    if fv.name not in known:
                        self.report.error(
                            fv.span, f"no {owner} field named '{fv.name}'",
                            did_you_mean(fv.name, known)
                            or f"declare it: field {owner}.{fv.name}: int",
                        )
        kinds = s.enums.get("kind")
        kind_values = []
        for sp in s.spaces.values():
            if kinds is None or sp.kind not in kinds.members:
                self.report.error(
                    sp.span, f"unknown space kind '{sp.kind}'",
                    did_you_mean(sp.kind, set(kinds.members)) if kinds
                    else "declare the kinds of space: enum kind { ... }",
                )
                kind_values.append(0)
            else:
                kind_values.append(kinds.members.index(sp.kind))
        tables.append(ir.TableData("space_kind", "space", tuple(kind_values), 1))
        return tuple(tables)

    def _counters(self) -> tuple[ir.Counter, ...]:
        s = self.s
        sizes = {"space": len(s.spaces), "group": len(s.groups), "card": self.n_cards,
                 "cell": self.cell_count, "player": 0, "": 1}
        counters = []
        for (owner, name), decl in s.counters.items():
            ctype = resolve_type(decl.type, s, self.report)
            default = -1 if ctype.is_entity or ctype.name in s.enums or ctype.name == "deck" else 0
            initial = self.constant(decl.initial, ctype)[0] if decl.initial else default
            size = sizes[owner]
            label = f"{owner}.{name}" if owner else name
            counters.append(ir.Counter(f"{owner or 'game'}_{name}", owner, size, (initial,),
                                       label, ctype, stride=self._stride(decl.type)))
        for name, option in s.options.items():
            otype = resolve_type(option.type, s, self.report)
            if otype.name not in ("int", "bool") and otype.name not in s.enums:
                self.report.error(option.type.span, "an option is an int, a bool or an enum")
            default = self.constant(option.default, otype)[0]
            counters.append(ir.Counter(f"option_{name}", "", 1, (int(default),), name, otype,
                                       option.title or name))
        return tuple(counters)

    def _single(self, ref: ast.TypeRef) -> None:
        """Lists are for fields and counters; a parameter or local holds one value."""
        if ref.length or ref.index_enum:
            self.report.error(ref.span, "a parameter or local holds one value, not a list",
                              "declare a list field or counter instead")

    def _die(self, index: int, name: str, die: ast.DieDecl) -> ir.Die:
        faces = [self.constant(f) for f in die.faces]
        if len({t for _, t in faces}) > 1:
            self.report.error(die.span, f"die '{name}' mixes faces of different types",
                              "use numbers, or members of one enum")
        return ir.Die(name, index, tuple(v for v, _ in faces))

    def _stride(self, ref: ast.TypeRef) -> int:
        """How many values a declared list holds per entity (1 for a plain value)."""
        if ref.index_enum:
            enum = self.s.enums.get(ref.index_enum)
            if enum is None:
                self.report.error(ref.span, f"unknown enum '{ref.index_enum}' as a list index",
                                  did_you_mean(ref.index_enum, set(self.s.enums)))
                return 1
            return len(enum.members)
        return max(1, ref.length)

    def _decks(self) -> tuple[ir.Deck, ...]:
        decks = []
        for name, deck in self.s.decks.items():
            params = self._params(deck.params)
            if not params or params[0][1] != Type("player"):
                self.report.error(deck.span, f"deck '{name}' must take the drawing player first",
                                  f"write: deck {name}(p: player) ...")
            effects = []
            for card in deck.cards:
                fname = f"effect_{card.name}" if card.effect else ""
                if card.effect:
                    scope = Scope(fname, VOID, dict(params))
                    body = self.block(card.effect, scope)
                    self.functions.append(ir.Function(
                        fname, params, VOID, body, declared_locals(scope, params),
                        f"card {card.name} at {_where(card.span)}", span=card.span,
                        quote=_first_quote(card),
                    ))
                effects += [fname] * max(1, card.copies)
            indices = tuple(i for i, (_, card) in enumerate(self.card_slots) if card in deck.cards)
            decks.append(ir.Deck(
                name, deck.title, params, indices[0] if indices else 0, indices, tuple(effects),
                tuple(c.keep for c in deck.cards for _ in range(max(1, c.copies))),
            ))
        return tuple(decks)

    def _params(self, params: tuple[ast.Param, ...]) -> tuple[tuple[str, Type], ...]:
        seen: set[str] = set()
        out = []
        for p in params:
            self._single(p.type)
            if p.name in seen:
                self.report.error(p.span, f"parameter '{p.name}' is listed twice")
            seen.add(p.name)
            out.append((p.name, resolve_type(p.type, self.s, self.report)))
        return tuple(out)

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
                           d.var, where, default, d.prompt, d.span)

    def _entity_domain(self, type_name: str, span: Span) -> tuple[ir.Domain, Type]:
        kinds = {"player": "players", "space": "spaces", "group": "groups", "cell": "cells",
                 "card": "cards"}
        if type_name in kinds:
            return self.domain(ast.Domain(span, kinds[type_name]), Scope("", VOID))
        if type_name in self.s.enums:
            return self.domain(ast.Domain(span, "enum", type_name), Scope("", VOID))
        self.report.error(span, f"cannot choose among '{type_name}'",
                          "choose a player, space, group, card, cell or enum member")
        return ir.Domain("range", ir.Const(INT, 0), ir.Const(INT, 0)), ERROR

    def _proc(self, proc: ast.ProcDecl) -> None:
        params = self._params(proc.params)
        returns = resolve_type(proc.returns, self.s, self.report) if proc.returns else VOID
        scope = Scope(f"proc_{proc.name}", returns, dict(params))
        body = self.block(proc.body, scope)
        if returns != VOID and not _always_returns(body):
            self.report.error(proc.span, f"procedure '{proc.name}' can end without returning "
                              f"{article(str(returns))}", "add a return at the end")
        self.functions.append(ir.Function(
            f"proc_{proc.name}", params, returns, body, declared_locals(scope, params),
            f"proc {proc.name} at {_where(proc.span)}", span=proc.span,
            quote=_first_quote(proc),
        ))

    def _events(self) -> dict[str, ir.Event]:
        handlers: dict[str, list[ir.HandlerRef]] = {name: [] for name in self.s.events}
        for rule_name, rule in self.s.rules.items():
            for k, handler in enumerate(rule.handlers):
                expected = self.s.events.get(handler.event)
                if expected is None:
                    self.report.error(handler.span, f"unknown event '{handler.event}'",
                                      did_you_mean(handler.event, set(self.s.events)))
                    continue
                params = self._params(handler.params)
                if tuple(t for _, t in params) != tuple(t for _, t in expected):
                    sig = ", ".join(f"{n}: {t}" for n, t in expected)
                    self.report.error(handler.span,
                                      f"a handler of '{handler.event}' takes ({sig})")
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
                handlers[handler.event].append(ir.HandlerRef(fname, guard, rule_name))
        if not handlers.get("turn"):
            self.report.error(
                self.s.edition.span if self.s.edition else Span("<edition>", 0, 0, 0, 0),
                "no rule handles the 'turn' event, so nobody can play",
                "import a library that defines the turn, or write: rule turn { on turn(p: player)"
                " { ... } }",
            )
        return {
            name: ir.Event(name, params, tuple(handlers[name]))
            for name, params in self.s.events.items()
        }

    def _game_expr(self, prop: ast.GameProp | None, expected: Type) -> ir.Expr | None:
        if prop is None:
            return None
        lowered = self.expr(prop.value, Scope(f"game_{prop.kind}", VOID))
        self._expect(lowered.type, expected, prop.value.span)
        return lowered

    def _score(self, prop: ast.GameProp | None) -> ir.Expr | None:
        if prop is None:
            return None
        params = self._params(prop.params)
        if len(params) != 1 or params[0][1] != Type("player"):
            self.report.error(prop.span, "score takes one player: score(p: player) = ...")
            return None
        scope = Scope("score", VOID, {"p": Type("player")})
        scope.variables = {params[0][0]: Type("player")}
        lowered = self.expr(prop.value, scope)
        self._expect(lowered.type, INT, prop.value.span)
        if params[0][0] != "p":
            lowered = rename_local(lowered, params[0][0], "p")
        return lowered

    @contextmanager
    def lifting_into(self, aggregates: list[ir.Aggregate], prefix: str) -> Iterator[None]:
        """Lift aggregates into another list meanwhile: a scenario's stay out of the program."""
        saved = self._lifted, self._lift_prefix
        self._lifted, self._lift_prefix = aggregates, prefix
        try:
            yield
        finally:
            self._lifted, self._lift_prefix = saved

    def _warn_unused(self) -> None:
        """Warn of the edition's own unused definitions (a library's may serve other editions)."""
        edition_path = self.s.edition.span.path if self.s.edition else ""
        for kind, table in (("proc", self.s.procs), ("decision", self.s.decisions),
                            ("param", self.s.params)):
            for name, decl in table.items():
                if f"{kind}:{name}" not in self.used and decl.span.path == edition_path:
                    what = {"proc": "procedure", "decision": "decision", "param": "param"}[kind]
                    verb = {"proc": "called", "decision": "asked", "param": "used"}[kind]
                    self.report.warning(decl.span, f"{what} '{name}' is never {verb}")

    # ---- statements ----------------------------------------------------------------------
    def block(self, stmts: tuple[ast.Stmt, ...], scope: Scope) -> tuple[ir.Stmt, ...]:
        lowered = []
        for stmt in stmts:
            result = self.stmt(stmt, scope)
            if result is None:
                continue
            lowered.append(result)
            if isinstance(result, ir.If) and not result.otherwise and _always_returns(
                result.then
            ):  # `if x == none { return }`: after it, x is not none
                _narrow(stmt.test, scope, negate=True)
        return tuple(lowered)

    def stmt(self, st: ast.Stmt, scope: Scope) -> ir.Stmt | None:
        match st:
            case ast.Let():
                if st.type is not None:
                    self._single(st.type)
                value = self.expr(st.value, scope)
                vtype = resolve_type(st.type, self.s, self.report) if st.type else value.type
                if vtype.name == "none":
                    self.report.error(st.span, f"cannot tell the type of '{st.name}'",
                                      f"write: let {st.name}: space? = none")
                if vtype == VOID:
                    self.report.error(st.value.span, "this gives no value")
                self._expect(value.type, vtype, st.value.span)
                self._declare(scope, st.name, vtype, st.span)
                return ir.Declare(st.span, st.name, vtype, value)
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
                return ir.While(st.span, test, self.block(st.body, body_scope))
            case ast.For():
                domain, var_type = self.domain(st.domain, scope)
                inner = scope.child()
                self._declare(inner, st.var, var_type, st.span)
                where = None
                if st.where is not None:
                    where = self.expr(st.where, inner)
                    self._expect(where.type, BOOL, st.where.span)
                return ir.Loop(st.span, st.var, domain, where, self.block(st.body, inner))
            case ast.Return():
                if st.value is None:
                    if scope.returns != VOID:
                        self.report.error(st.span,
                                          f"return needs {article(str(scope.returns))} value")
                    return ir.Return(st.span, None)
                value = self.expr(st.value, scope)
                if scope.returns == VOID:
                    self.report.error(st.span, "this returns nothing; drop the value")
                else:
                    self._expect(value.type, scope.returns, st.value.span)
                return ir.Return(st.span, value)
            case ast.Trigger():
                params = self.s.events.get(st.event)
                if params is None:
                    self.report.error(st.span, f"unknown event '{st.event}'",
                                      did_you_mean(st.event, set(self.s.events)))
                    return None
                args = self._args(st.args, tuple(t for _, t in params), st.span, st.event, scope)
                return ir.Evaluate(st.span, ir.CallProc(VOID, f"event_{st.event}", args))
            case ast.Draw():
                deck = self.s.decks.get(st.deck)
                if deck is None:
                    self.report.error(st.span, f"unknown deck '{st.deck}'",
                                      did_you_mean(st.deck, set(self.s.decks)))
                    return None
                types = tuple(t for _, t in self._params(deck.params))
                args = self._args(st.args, types, st.span, st.deck, scope)
                return ir.Evaluate(st.span, ir.CallProc(VOID, f"draw_{st.deck}", args))
            case ast.EndTurn():
                return ir.Raise(st.span, "TurnOver")
            case ast.EndGame():
                return ir.Raise(st.span, "GameOver")
        raise AssertionError(f"unhandled statement {st!r}")

    def _declare(self, scope: Scope, name: str, vtype: Type, span: Span) -> None:
        previous = scope.declared.get(name)
        if previous is not None and previous != vtype and ERROR not in (previous, vtype):
            self.report.error(span, f"'{name}' was {article(str(previous))} earlier in this "
                              "function",
                              "use another name")
        if name in self.global_names and name not in scope.variables:
            self.report.warning(span, f"local '{name}' hides a definition of the same name")
        scope.variables[name] = vtype
        scope.declared[name] = vtype

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
                                  "declare a counter for a value that changes")
                return ir.Evaluate(st.span, value)
            if not isinstance(lowered, ir.State):
                if isinstance(lowered, ir.Derived) and isinstance(target, ast.Attr):
                    self.report.error(target.span, f"'{target.name}' is read-only",
                                      "the kernel keeps it" + (
                                          "; use retire(p)" if target.name == "alive" else ""))
                elif lowered.type != ERROR:
                    self.report.error(target.span, "cannot assign to this",
                                      "assign to a local, a counter or p.cash / p.position")
                return ir.Evaluate(st.span, value)
            if lowered.stride > 1 and lowered.element is None:
                self.report.error(target.span, "assign one value of the list: x[k] = ...")
                return ir.Evaluate(st.span, value)
            if lowered.array.startswith("option_"):
                self.report.error(target.span, "an option is chosen when the game is created "
                                  "and cannot change", "use a counter for a value that changes")
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
                                      did_you_mean(d.name, set(self.s.decks)))
                    return ir.Domain("range", zero, zero), Type("card")
                first = self.card_index.get(deck.cards[0].name, 0) if deck.cards else 0
                size = sum(max(1, c.copies) for c in deck.cards)
                return ir.Domain("range", ir.Const(INT, first),
                                 ir.Const(INT, first + size)), Type("card")
            case "enum":
                enum = self.s.enums.get(d.name)
                if enum is None:
                    self.report.error(d.span, f"unknown enum '{d.name}'",
                                      did_you_mean(d.name, set(self.s.enums)))
                    return ir.Domain("range", zero, zero), ERROR
                return ir.Domain("range", zero, ir.Const(INT, len(enum.members))), Type(d.name)
            case "legal":
                self.report.error(d.span, "'legal' names the options of a decision",
                                  "use it in the default of a decision among entities: "
                                  "best(... for s in legal where ...)")
                return ir.Domain("range", zero, zero), ERROR
            case "range":
                low, high = self.expr(d.low, scope), self.expr(d.high, scope)
                self._expect(low.type, INT, d.low.span)
                self._expect(high.type, INT, d.high.span)
                return ir.Domain("range", low, ir.Binary(INT, "+", high, ir.Const(INT, 1))), INT
        raise AssertionError(d.kind)

    # ---- expressions ----------------------------------------------------------------------
    def _expect(self, actual: Type, expected: Type, span: Span) -> None:
        if not assignable(actual, expected):
            hint = ""
            if actual.optional and not expected.optional and actual.name == expected.name:
                hint = "it may be none: test it with `if x != none` or write some(x)"
            self.report.error(span, f"expected {expected}, got {actual}", hint)

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
                                      f"{e.name}[k]")
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
                    self.report.error(e.span, "only lists such as values[k] can be indexed")
                return ir.Const(ERROR, 0)
            case ast.Call():
                return self._call(e, scope, statement)
            case ast.Ask():
                decision = self.s.decisions.get(e.decision)
                if decision is None:
                    self.report.error(e.span, f"unknown decision '{e.decision}'",
                                      did_you_mean(e.decision, set(self.s.decisions)))
                    return ir.Const(ERROR, 0)
                self.used.add(f"decision:{e.decision}")
                params = self._params(decision.params)
                args = self._args(e.args, tuple(t for _, t in params), e.span, e.decision, scope)
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
                    self.report.error(e.span, f"the branches differ: {then.type} and {other.type}")
                    rtype = ERROR
                return ir.Conditional(rtype, test, then, other)
            case ast.Aggregate():
                return self._aggregate(e, scope)
            case ast.ListLit():
                self.report.error(e.span, "a list is only allowed as a list field's value")
                return ir.Const(ERROR, 0)
        raise AssertionError(f"unhandled expression {e!r}")

    def _decision_type(self, d: ast.DecisionDecl) -> Type:
        if d.kind == "bool":
            return BOOL
        if d.kind == "int":
            return Type("int", d.optional)
        return Type(d.entity_type, d.optional)

    def _name(self, e: ast.Name, scope: Scope) -> ir.Expr:
        s, name = self.s, e.name
        if name in scope.variables:
            return ir.Local(scope.variables[name], name)
        if name == "current":
            return ir.Builtin(Type("player"), "current")
        if name == "turn":
            return ir.Builtin(INT, "turn")
        if name == "players_count":
            return ir.Builtin(INT, "players_count")
        if name == "game_over":
            return ir.Builtin(BOOL, "game_over")
        if name == "winner":
            return ir.Builtin(Type("player", True), "winner")
        if name == "bank":
            return ir.Const(Type("player", True), -1)
        if name in s.params:
            self.used.add(f"param:{name}")
            value, ptype = self.param_value(name)
            return ir.Const(ptype, value)
        if name in self.space_index:
            return ir.Const(Type("space"), self.space_index[name])
        if name in self.group_index:
            return ir.Const(Type("group"), self.group_index[name])
        if name in self.card_index:
            return ir.Const(Type("card"), self.card_index[name])
        if name in s.options:
            otype = resolve_type(s.options[name].type, s, self.report)
            return ir.State(otype, f"option_{name}", None, False)
        if ("", name) in s.counters:
            ref = s.counters[("", name)].type
            ctype = resolve_type(ref, s, self.report)
            return ir.State(ctype, f"game_{name}", None, False, stride=self._stride(ref),
                            index_enum=ref.index_enum)
        enums = s.enum_members.get(name)
        if enums and len(enums) > 1:  # prefer the enum declared in the same file
            local = [n for n in enums if s.enums[n].span.path == e.span.path]
            enums = local if len(local) == 1 else enums
        if enums:
            if len(enums) > 1:
                self.report.error(e.span, f"'{name}' is a member of several enums",
                                  f"write {enums[0]}.{name}")
            enum = enums[0]
            return ir.Const(Type(enum), s.enums[enum].members.index(name))
        if name in s.decks:
            return ir.Const(Type("deck"), list(s.decks).index(name))
        if name in s.dice:
            self.report.error(e.span, f"'{name}' is a die, not a value", f"write roll({name})")
            return ir.Const(ERROR, 0)
        visible = self.global_names | set(scope.variables)
        self.report.error(e.span, f"unknown name '{name}'", did_you_mean(name, visible))
        return ir.Const(ERROR, 0)

    def _attr(self, e: ast.Attr, scope: Scope) -> ir.Expr:
        s = self.s
        if isinstance(e.target, ast.Name) and e.target.name in s.enums and (
            e.target.name not in scope.variables
        ):
            members = s.enums[e.target.name].members
            if e.name not in members:
                self.report.error(e.span, f"enum '{e.target.name}' has no member '{e.name}'",
                                  did_you_mean(e.name, set(members)))
                return ir.Const(ERROR, 0)
            return ir.Const(Type(e.target.name), members.index(e.name))
        target = self.expr(e.target, scope)
        ttype = target.type
        if ttype == ERROR:
            return ir.Const(ERROR, 0)
        if not ttype.is_entity:
            self.report.error(e.span, f"a {ttype} has no attributes")
            return ir.Const(ERROR, 0)
        owner = ttype.name
        counts = {"space": len(s.spaces), "group": len(s.groups), "card": self.n_cards,
                  "cell": self.cell_count, "player": 0}
        builtin = BUILTIN_ATTRS.get((owner, e.name))
        if builtin is not None:
            btype = builtin[0]
            if (owner, e.name) == ("space", "kind"):
                if "kind" not in s.enums:
                    self.report.error(e.span, "no space kinds are declared (enum kind)")
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
                          did_you_mean(e.name, known))
        return ir.Const(ERROR, 0)

    def _args(self, args, types, span, what, scope) -> tuple[ir.Expr, ...]:
        if len(args) != len(types):
            self.report.error(span, f"'{what}' takes {len(types)} argument(s), got {len(args)}")
        lowered = []
        for arg, expected in zip(args, types, strict=False):
            value = self.expr(arg, scope)
            self._expect(value.type, expected, arg.span)
            lowered.append(value)
        return tuple(lowered)

    def _call(self, e: ast.Call, scope: Scope, statement: bool) -> ir.Expr:
        s = self.s
        if e.name == "roll":
            if len(e.args) != 1 or not isinstance(e.args[0], ast.Name) or (
                e.args[0].name not in s.dice
            ):
                self.report.error(e.span, "roll takes the name of a die",
                                  f"dice: {', '.join(s.dice) or 'none declared'}")
                return ir.Const(ERROR, 0)
            die = s.dice[e.args[0].name]
            index = list(s.dice).index(e.args[0].name)
            face_type = self.expr(die.faces[0], Scope("", VOID)).type if die.faces else INT
            return ir.KernelCall(face_type, "k_roll", (ir.Const(INT, index),))
        if e.name in DECK_FUNCTIONS:
            args = self._args(e.args, (Type("deck"),), e.span, e.name, scope)
            return ir.KernelCall(DECK_FUNCTIONS[e.name], f"k_{e.name}", args)
        if e.name == "some":
            if len(e.args) != 1:
                self.report.error(e.span, "some takes one value")
                return ir.Const(ERROR, 0)
            value = self.expr(e.args[0], scope)
            if value.type.name == "none":
                self.report.error(e.span, "some(none) is always an error")
                return ir.Const(ERROR, 0)
            return ir.KernelCall(Type(value.type.name), "k_some", (value,))
        if e.name in KERNEL_FUNCTIONS:
            types, result = KERNEL_FUNCTIONS[e.name]
            args = self._args(e.args, types, e.span, e.name, scope)
            name = e.name if e.name in ("min", "max", "abs") else f"k_{e.name}"
            return ir.KernelCall(result, name, args)
        proc = s.procs.get(e.name)
        if proc is None:
            if e.name in s.decisions:
                self.report.error(e.span, f"'{e.name}' is a decision, not a procedure",
                                  f"write: ask {e.name}(...)")
                return ir.Const(ERROR, 0)
            self.report.error(e.span, f"unknown procedure '{e.name}'", did_you_mean(
                e.name, set(s.procs) | set(KERNEL_FUNCTIONS) | set(DECK_FUNCTIONS)))
            return ir.Const(ERROR, 0)
        self.used.add(f"proc:{e.name}")
        params = self._params(proc.params)
        args = self._args(e.args, tuple(t for _, t in params), e.span, e.name, scope)
        returns = resolve_type(proc.returns, s, self.report) if proc.returns else VOID
        if returns == VOID and not statement:
            self.report.error(e.span, f"procedure '{e.name}' gives no value")
            return ir.Const(ERROR, 0)
        return ir.CallProc(returns, f"proc_{e.name}", args)

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
                self.report.error(e.span, f"cannot compare {left.type} with {right.type}")
            return ir.Binary(BOOL, e.op, left, right)
        self._expect(left.type, INT, e.left.span)
        self._expect(right.type, INT, e.right.span)
        return ir.Binary(BOOL, e.op, left, right)

    def _legal_options(self, e: ast.Aggregate) -> ast.Expr | None:
        """`x in legal` inside a decision's default: the decision's own options, so the
        default does not restate its filter. Gives the combined filter."""
        d = self.legal
        if d is None:
            return e.where
        if e.var != d.var:
            self.report.error(e.domain.span, f"the options of '{d.name}' are called '{d.var}'",
                              f"write: ... for {d.var} in legal")
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
        needs_value = {"sum": INT, "max_of": INT, "min_of": INT, "best": INT, "all": BOOL}
        if e.kind in needs_value:
            if value is None:
                self.report.error(e.span, f"{e.kind} needs a value: {e.kind}(x.v for x in ...)")
            else:
                self._expect(value.type, needs_value[e.kind], e.value.span)
        elif value is not None:
            self.report.error(e.value.span, f"{e.kind} takes no value before 'for'")
        result = {"count": INT, "sum": INT, "max_of": INT, "min_of": INT, "any": BOOL,
                  "all": BOOL}.get(e.kind, Type(var_type.name, True))
        free = sorted(_locals_used([where, value, domain.low, domain.high]) - {e.var})
        params = tuple((n, scope.variables[n]) for n in free if n in scope.variables)
        # after any aggregate nested inside; named after where it is written, for profiles
        name = f"{self._lift_prefix}{len(self._lifted)}" + (
            f"_in_{scope.function}" if scope.function.isidentifier() else "")
        self._lifted.append(
            ir.Aggregate(name, e.kind, params, e.var, domain, where, value, result, e.span)
        )
        args = tuple(ir.Local(t, n) for n, t in params)
        return ir.CallProc(result, name, args)


# ---- helpers ---------------------------------------------------------------------------------


def _first_quote(decl) -> str:
    """The first rulebook sentence a declaration quotes (none for most procedures)."""
    return next((p.text for p in getattr(decl, "provenance", ()) if isinstance(p, ast.Quote)), "")


def _where(span: Span) -> str:
    """file:line without the folder, so generated code (and its cache key) do not depend on
    where the rules files are."""
    return f"{Path(span.path).name}:{span.line}"


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


def _always_returns(body: tuple[ir.Stmt, ...]) -> bool:
    if not body:
        return False
    last = body[-1]
    if isinstance(last, ir.Return | ir.Raise):
        return True
    if isinstance(last, ir.If):
        return _always_returns(last.then) and _always_returns(last.otherwise)
    return False


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
