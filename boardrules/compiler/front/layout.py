"""Pass check, the data: the edition's header, params and constants, tables of fields,
counters, dice and decks, as the IR lays them out."""

from __future__ import annotations

from collections.abc import Callable

from ..common.diagnostics import Reporter, did_you_mean, short_where
from ..common.error_codes import ErrorCode
from ..common.lang_types import INT_MAX, INT_MIN
from ..ir import nodes as ir
from ..ir.nodes import VOID, Type
from . import ast
from .expressions import fold
from .primitives import ERROR, assignable
from .scope import Scope, declared_locals
from .symbols import resolve_type


class LayoutLowering:
    """Part of the Checker (checker.py); `self` is the Checker."""

    # ---- edition header and constants -----------------------------------------------
    def _edition_props(self) -> dict:
        props: dict = {}
        edition = self.s.edition
        if edition is None:
            return props
        for name, values, span in edition.props:
            if name in ("rulebook", "currency"):
                if len(values) != 1 or not isinstance(values[0], ast.StrLit):
                    self.report.error(span, f"'{name}' takes one string",
                                      code=ErrorCode.BAD_EDITION_PROPERTY)
                    continue
                props[name] = values[0].value
            elif name == "players":
                ints = [v.value for v in values if isinstance(v, ast.IntLit)]
                if len(ints) != 2 or not 1 <= ints[0] <= ints[1] <= 16:
                    self.report.error(span, "'players' takes a range such as 2 to 6 (at most 16)",
                                      code=ErrorCode.BAD_EDITION_PROPERTY)
                    continue
                props[name] = (ints[0], ints[1])
            else:
                self.report.error(
                    span, f"unknown edition property '{name}'",
                    did_you_mean(name, {"rulebook", "currency", "players"}),
                    code=ErrorCode.BAD_EDITION_PROPERTY,
                )
        if "rulebook" not in props:
            self.report.error(edition.span, "the edition names no rulebook",
                              'add: rulebook "rulebook.txt"', code=ErrorCode.RULEBOOK_FILE)
        return props

    def param_value(self, name: str) -> tuple[int, Type]:
        if name in self.param_values:
            return self.param_values[name]
        decl = self.s.params[name]
        if name in self._evaluating:
            self.report.error(decl.span, f"param '{name}' is defined in terms of itself",
                              code=ErrorCode.CYCLIC_PARAM)
            return 0, ERROR
        self._evaluating.add(name)
        declared = resolve_type(decl.type, self.s, self.report)
        setting = self.s.sets.get(name)
        expr = setting.value if setting else decl.value
        if expr is None:
            self.report.error(
                decl.span, f"param '{name}' has no value",
                f"the edition must give it: set {name} = ...",
                code=ErrorCode.PARAM_WITHOUT_VALUE,
            )
            value: tuple[int, Type] = (0, declared)
        else:
            value = self.constant(expr, declared, variant=name)
            if not INT_MIN <= value[0] <= INT_MAX:  # where the param is given, found by check
                self.report.error(expr.span, f"the constant {value[0]} is outside the integer "
                                  f"range ({INT_MIN} to {INT_MAX})",
                                  code=ErrorCode.CONSTANT_OUT_OF_RANGE)
        self._evaluating.discard(name)
        self.param_values[name] = (value[0], declared)
        return self.param_values[name]

    def constant(self, expr: ast.Expr, expected: Type | None = None,
                 variant: str = "") -> tuple[int, Type]:
        """Evaluate a compile-time constant expression (data tables, params, faces). The
        value of the param named `variant` may instead read options: it is then a variant
        param (`self.variant_params`), read as its expression wherever it is used."""
        lowered = self.expr(expr, Scope("<constant>", VOID))
        if expected is not None and not assignable(lowered.type, expected):
            self._expect(lowered.type, expected, expr.span)
            return 0, expected
        value = fold(lowered)
        if value is None and variant and _reads_only_options(lowered):
            self.variant_params[variant] = lowered
            return 0, lowered.type
        if value is None:
            if lowered.type != ERROR:
                self.report.error(
                    expr.span, "this must be a constant known when compiling",
                    "it reads an option, known only when a game is created"
                    if _reads_only_options(lowered) else
                    "use numbers, params, spaces, groups or enum members"
                    + (", or options (a param's value may read them)" if variant else ""),
                    code=ErrorCode.NOT_CONSTANT)
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
                                  "use a counter for values that change",
                                  code=ErrorCode.MISPLACED_FIELD)
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
                            fv.span, f"'{name}' takes at most {stride} values, got {len(items)}",
                            code=ErrorCode.LIST_MISUSE,
                        )
                        continue
                    if stride == 1 and isinstance(fv.value, ast.ListLit):
                        self.report.error(fv.span, f"'{name}' takes one value, not a list",
                                          code=ErrorCode.LIST_MISUSE)
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
                            code=ErrorCode.UNKNOWN_ATTRIBUTE,
                        )
        kinds = s.enums.get("kind")
        kind_values = []
        for sp in s.spaces.values():
            if kinds is None or sp.kind not in kinds.members:
                self.report.error(
                    sp.span, f"unknown space kind '{sp.kind}'",
                    did_you_mean(sp.kind, set(kinds.members)) if kinds
                    else "declare the kinds of space: enum kind { ... }",
                    code=ErrorCode.UNKNOWN_MEMBER,
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
        self.option_ranges: dict[str, tuple[int, int] | None] = {}  # the scenarios' check too
        for name, option in s.options.items():
            otype = resolve_type(option.type, s, self.report)
            if otype.name not in ("int", "bool") and otype.name not in s.enums:
                self.report.error(option.type.span, "an option is an int, a bool or an enum",
                                  code=ErrorCode.TYPE_NOT_ALLOWED)
            default = int(self.constant(option.default, otype)[0])
            bounds = self.option_ranges[name] = _option_range(option, otype, self.constant,
                                                              self.report)
            if bounds and not bounds[0] <= default <= bounds[1]:
                self.report.error(option.default.span, f"option '{name}' defaults to {default}, "
                                  f"outside its values {bounds[0]} to {bounds[1]}",
                                  code=ErrorCode.OPTION_RANGE)
            counters.append(ir.Counter(f"option_{name}", "", 1, (default,), name, otype,
                                       option.title or name, option_range=bounds))
        return tuple(counters)

    def _option_exclusions(self) -> tuple[tuple[str, str], ...]:
        """The pairs of options that `excludes` keeps from being chosen together: each
        named option must exist and be another option; a pair declared on both sides
        counts once."""
        pairs: list[tuple[str, str]] = []
        for name, option in self.s.options.items():
            for other, span in option.excludes:
                if other not in self.s.options:
                    self.report.error(span, f"'{other}' is not an option",
                                      did_you_mean(other, set(self.s.options) - {name}),
                                      code=ErrorCode.UNKNOWN_NAME)
                elif other == name:
                    self.report.error(span, f"option '{name}' cannot exclude itself",
                                      code=ErrorCode.BAD_EXCLUSION)
                elif (name, other) not in pairs and (other, name) not in pairs:
                    pairs.append((name, other))
        return tuple(pairs)

    def _single(self, ref: ast.TypeRef) -> None:
        """Lists are for fields and counters; a parameter or local holds one value."""
        if ref.length or ref.index_enum:
            self.report.error(ref.span, "a parameter or local holds one value, not a list",
                              "declare a list field or counter instead", code=ErrorCode.LIST_MISUSE)

    def _die(self, index: int, name: str, die: ast.DieDecl) -> ir.Die:
        faces = [self.constant(f) for f in die.faces]
        if len({t for _, t in faces}) > 1:
            self.report.error(die.span, f"die '{name}' mixes faces of different types",
                              "use numbers, or members of one enum",
                              code=ErrorCode.TYPE_NOT_ALLOWED)
        return ir.Die(name, index, tuple(v for v, _ in faces),
                      faces[0][1].name if faces else "int")

    def _stride(self, ref: ast.TypeRef) -> int:
        """How many values a declared list holds per entity (1 for a plain value): one per
        seat the edition allows for a list indexed by `player`."""
        if ref.index_enum == "player":
            return self.max_players
        if ref.index_enum:
            enum = self.s.enums.get(ref.index_enum)
            if enum is None:
                self.report.error(ref.span, f"unknown enum '{ref.index_enum}' as a list index",
                                  did_you_mean(ref.index_enum, set(self.s.enums)),
                                  code=ErrorCode.UNKNOWN_ENUM)
                return 1
            return len(enum.members)
        return max(1, ref.length)

    def _decks(self) -> tuple[ir.Deck, ...]:
        decks = []
        for name, deck in self.s.decks.items():
            params = self._params(deck.params)
            if not params or params[0][1] != Type("player"):
                self.report.error(deck.span, f"deck '{name}' must take the drawing player first",
                                  f"write: deck {name}(p: player) ...",
                                  code=ErrorCode.WRONG_ARGUMENTS)
            effects = []
            for card in deck.cards:
                if deck.hidden and not card.keep:
                    self.report.error(card.span, f"card '{card.name}' of hidden deck '{name}' "
                                      "is not kept", "write: card ... keep",
                                      code=ErrorCode.HIDDEN_NOT_KEPT)
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
                deck.hidden,
            ))
        return tuple(decks)

    def _params(self, params: tuple[ast.Param, ...]) -> tuple[tuple[str, Type], ...]:
        seen: set[str] = set()
        out = []
        for p in params:
            self._single(p.type)
            if p.name in seen:
                self.report.error(p.span, f"parameter '{p.name}' is listed twice",
                                  code=ErrorCode.DEFINED_TWICE)
            seen.add(p.name)
            out.append((p.name, resolve_type(p.type, self.s, self.report)))
        return tuple(out)


_where = short_where


def _first_quote(decl) -> str:
    """The first rulebook sentence a declaration quotes (none for most procedures)."""
    return next((p.text for p in getattr(decl, "provenance", ()) if isinstance(p, ast.Quote)), "")


def _reads_only_options(e: ir.Expr) -> bool:
    """Whether an expression is made of constants and options only (and reads one): the
    value of a variant param, fixed when a game is created."""
    found = False
    stack = [e]
    while stack:
        node = stack.pop()
        match node:
            case ir.Const():
                pass
            case ir.State(entity=None, element=None) if node.array.startswith("option_"):
                found = True
            case ir.Unary():
                stack.append(node.operand)
            case ir.Binary():
                stack.extend((node.left, node.right))
            case ir.Conditional():
                stack.extend((node.test, node.then, node.otherwise))
            case _:
                return False
    return found


def _option_range(option: ast.OptionDecl, otype: Type,
                  constant: Callable[[ast.Expr, Type], tuple[int, Type]],
                  report: Reporter) -> tuple[int, int] | None:
    """An option's values: `from LOW to HIGH` (constants, LOW <= HIGH) for an int, 0 and 1
    for a bool; None for an int without bounds or an enum (its members)."""
    if otype.name == "bool":
        return (0, 1)
    if option.bounds is None:
        return None
    if otype.name != "int":
        report.error(option.bounds[0].span, "only an int option takes `from LOW to HIGH`",
                     code=ErrorCode.TYPE_NOT_ALLOWED)
        return None
    low, high = (int(constant(bound, Type("int"))[0]) for bound in option.bounds)
    if low > high:
        report.error(option.bounds[0].span, f"an option's values run from {low} to {high}: "
                     "none", code=ErrorCode.OPTION_RANGE)
        return None
    return (low, high)
