"""Memoize aggregates whose value changes only when a few counters change.

`owns_group(p, g)`, `completes_group(p, s)` or `jail_card_of(p)` are asked many
times a turn, by the default strategy's decisions, and read counters that change
rarely (who owns a space, who holds a card). Such an aggregate keeps its value
per argument tuple, stamped with the *versions* of the counters it reads: every
write of such a counter bumps its version, so a kept value is used only while
nothing it depends on has changed, and the game plays exactly as without it.

An aggregate qualifies when it is pure (one that raises raises again: nothing
is kept then), not answered from counts (counts.py), reads (directly or through
what it calls) only counters, declared data, the card holders and who is still in
(not cash, positions, the turn or the dice), reads at least one counter, and
its parameters are entities, enums or truth values (a bounded table of slots).

The default strategy's questions also read the asking player's cash (`p.cash -
s.price >= reserve`), and windows ask them of every player again and again while
that cash stays the same. Such an aggregate, one that reads the cash of one of its
parameters (a player, never none) in its own expressions and nothing else volatile,
keeps that cash in its slot too: a kept value is used only while both the versions
and the cash are the ones it was computed with (or, when that cash is only compared
with amounts, while it stays on the same side of each: cash_ranges.py). Those are
kept when procedures, rules or other aggregates ask them, and also when only a
decision does, if a window may ask it.

A counter of an entity type that an aggregate reads only through its own
parameters (`p.res[r]` in `held(p)`, or through what it calls with p) is stamped
per entity: each write of one player's resources bumps that player's version
(`mvk_player_res[p]`), so a trade between two players keeps the others' slots.

A question about one player's cards of one kind (`count(c in cards where holds(p, c)
and c.res == t)`) is stamped by that player's version of that kind: hand_keys.py.

A player's question that reads a space's counters only on spaces that player owns is
stamped per owner instead (`mvo_space_buildings[p]`), and by the outcomes of its
comparisons of game counters with constants (`houses_left > 0`): regions.py. One that
also reads the group mates of the spaces that player owns (whoever owns them) is stamped
per owner too, and a write of what it reads of a mate bumps every owner in the group
(the `mates` versions).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from ...common.diagnostics import Reporter
from .. import derived
from .. import nodes as ir
from .cash_ranges import cash_ranged
from .effects import Effects, asked_in_windows
from .field_versions import FieldWalk, Within, field_walk, passed, per_field
from .hand_keys import hand_versions
from .index import HELD
from .integers import Ranges
from .regions import Regions
from .slots import dimension
from .walk import aggregate_nodes, assigned_locals, body_exprs, domain_exprs, walk_expr, walk_stmts

CASH = "player_cash"  # the kernel array of each player's cash
HOLDERS = "card_holder"  # the kernel array of who holds each card, versioned by the kernel
ALIVE = "player_alive"  # who is still in: versioned by the kernel too (a retirement)
# the arrays the kernel versions itself, and each one's version attribute; the rules'
# counters get an `mv_` version of their own, bumped by the generated writes
KERNEL_VERSIONS = {HOLDERS: "holder_version", ALIVE: "alive_version"}
# the kernel's versions per entity (of a player's hand: `holds(p, c)` for a parameter p),
# and the type of that entity
KERNEL_PER_ENTITY = {HOLDERS: "held_version"}
KERNEL_KEYABLE = {HOLDERS: "player"}
# a game counter's pseudo-counter in a memo's reads: which side of the memos' comparisons
# with constants it is on (regions.py)
SIDES = "@sides"
MAX_SLOTS = 4096  # per aggregate: a bigger argument space is not worth its memory
# state the rules read that the kernel writes itself (every turn): never memoized on
VOLATILE_KERNEL_ARRAYS = frozenset({CASH, "player_position"})
CONSTANT_KERNEL_CALLS = frozenset({"min", "max", "abs", "k_distance", "k_space_at",
                                   "k_adjacent", "k_cell_at", "narrow", "bit_count"})
CONSTANT_DERIVED = frozenset({"player_seat", "space_track", "space_name", "card_text",
                              "card_deck", "group_name"})
VOLATILE_BUILTINS = frozenset({"current", "turn", "game_over", "winner", "rounds",
                               "bankruptcies", "bankruptcy_ends_game"})


def _cash_of_param(n: ir.Expr, params: set[str]) -> str:
    """The parameter whose cash `n` reads (`p.cash`, p a parameter), else ''."""
    if isinstance(n, ir.State) and n.array == CASH and isinstance(n.entity, ir.Local) \
            and n.entity.name in params:
        return n.entity.name
    return ""


class _Volatile(Exception):
    """The code reads something that changes without a versioned write."""


def _node_reads(n: ir.Expr) -> set[str]:
    match n:
        case ir.State():
            if n.array in VOLATILE_KERNEL_ARRAYS:
                raise _Volatile
            return {n.array}
        case ir.Derived():
            if n.what in (HOLDERS, ALIVE):
                return {n.what}
            if n.what not in CONSTANT_DERIVED:
                raise _Volatile
        case ir.KernelCall():
            if n.function == "k_holds":
                return {HOLDERS}
            if n.function not in CONSTANT_KERNEL_CALLS:
                raise _Volatile
        case ir.Builtin() if n.name in VOLATILE_BUILTINS:
            raise _Volatile
    return set()


ANY = -1  # a read through no parameter: of whichever entity


def _through(e: ir.Expr, params: tuple[str, ...], shadowed: set[str]) -> int:
    """The position of the parameter `e` is (an unchanged one), else ANY."""
    if isinstance(e, ir.Local) and e.name in params and e.name not in shadowed:
        return params.index(e.name)
    return ANY


def _shadowed(body: tuple[ir.Stmt, ...]) -> set[str]:
    """The names a block assigns, declares or loops over: not a parameter's value there."""
    names = assigned_locals(body)
    for s in walk_stmts(body):
        if isinstance(s, ir.Declare):
            names.add(s.name)
        elif isinstance(s, ir.Loop):
            names.add(s.var)
    return names


class ReadSets:
    """The state arrays each function and aggregate reads, through what it calls; each
    with the parameter it reads the array through (`p.res[r]`, p a parameter), when it
    reads that array of no other entity."""

    def __init__(self, program: ir.Program) -> None:
        self.functions = {f.name: f for f in program.functions}
        self.aggregates = {a.name: a for a in program.aggregates}
        self.counter_of_index = {cx.name: cx.counter for cx in program.counter_indexes}
        self.index_tables = {ix.name: ix.table for ix in program.indexes}
        self.known: dict[str, frozenset[tuple[str, int | Within]] | None] = {}

    def of(self, name: str) -> frozenset[str] | None:
        """What `name` reads, or None when it reads something volatile (or recurses)."""
        keyed = self.keyed_of(name)
        return None if keyed is None else frozenset(array for array, _ in keyed)

    def keyed_of(self, name: str) -> frozenset[tuple[str, int | Within]] | None:
        """What `name` reads, each array with the position of the parameter it is read
        through, or ANY, or Within (field_versions.py); None when it reads something
        volatile (or recurses)."""
        if name not in self.known:
            self.known[name] = None  # a call back into itself while computing: give up
            try:
                self.known[name] = frozenset(self._compute(name))
            except _Volatile:
                pass
        return self.known[name]

    def expr(self, e: ir.Expr) -> frozenset[str] | None:
        """What an expression reads, or None when it reads something volatile."""
        try:
            return frozenset(array for array, _ in self._nodes(walk_expr(e), (), set()))
        except _Volatile:
            return None

    def domain(self, d: ir.Domain) -> frozenset[str] | None:
        """What walking a domain reads, or None when it reads something volatile."""
        try:
            return frozenset(self._domain(d))
        except _Volatile:
            return None

    def _compute(self, name: str) -> set[tuple[str, int | Within]]:
        walk = None
        if name in self.aggregates:
            a = self.aggregates[name]
            exprs = [*domain_exprs(a.domain), a.where, a.value, *a.prechecks,
                     *(e for _, e in a.hoisted)]
            nodes = [n for e in exprs for n in walk_expr(e)]
            params, shadowed = tuple(p for p, _ in a.params), {a.var}
            walk = field_walk(a, params, self.index_tables)
            reads = self._domain_reads(a.domain, params, shadowed)
        elif name in self.functions:
            f = self.functions[name]
            nodes = list(body_exprs(f.body))
            params, shadowed = tuple(p for p, _ in f.params), _shadowed(f.body)
            reads = set()
            for s in walk_stmts(f.body):
                if isinstance(s, ir.Loop):
                    reads |= self._domain_reads(s.domain, params, shadowed)
        else:
            raise _Volatile  # a decision, a deck, an event: not a query
        return reads | self._nodes(nodes, params, shadowed, walk)

    def keyed_on_cash(self, a: ir.Aggregate
                      ) -> tuple[frozenset[tuple[str, int | Within]], str] | None:
        """What a memo of `a` that keeps one player parameter's cash too depends on: the
        counters it reads, and that parameter; None when its own expressions read no such
        cash, or the cash of two, or (there or through what it calls) other volatile state."""
        players = {name for name, t in a.params if t.name == "player" and not t.optional}
        nodes = aggregate_nodes(a)
        keyed = {_cash_of_param(n, players) for n in nodes} - {""}
        if len(keyed) != 1:
            return None
        try:
            params = tuple(p for p, _ in a.params)
            reads = self._domain_reads(a.domain, params, {a.var}) | self._nodes(
                (n for n in nodes if not _cash_of_param(n, players)), params, {a.var},
                field_walk(a, params, self.index_tables))
        except _Volatile:
            return None
        return frozenset(reads), keyed.pop()

    def _nodes(self, nodes: Iterable[ir.Expr], params: tuple[str, ...], shadowed: set[str],
               walk: FieldWalk | None = None) -> set[tuple[str, int | Within]]:
        reads: set[tuple[str, int | Within]] = set()
        for n in nodes:
            arrays = _node_reads(n)
            if isinstance(n, ir.State) and n.entity is not None:
                at: int | Within = _through(n.entity, params, shadowed)
                if at == ANY and walk is not None and isinstance(n.entity, ir.Local) \
                        and n.entity.name == walk.var:
                    at = walk.within  # a member of a parameter's group (field_versions.py)
                reads |= {(array, at) for array in arrays}
            elif isinstance(n, ir.KernelCall) and n.function == "k_holds":  # p's hand
                reads.add((HOLDERS, _through(n.args[0], params, shadowed)))
            else:
                reads |= {(array, ANY) for array in arrays}
            if isinstance(n, ir.CallProc):
                callee = self.keyed_of(n.function)
                if callee is None:
                    raise _Volatile
                for array, at in callee:
                    mapped = ANY if at == ANY else passed(
                        at, n.args, lambda e: _through(e, params, shadowed), walk)
                    reads.add((array, ANY if mapped is None else mapped))
        return reads

    def _domain_reads(self, d: ir.Domain, params: tuple[str, ...], shadowed: set[str]
                      ) -> set[tuple[str, int]]:
        """What walking a domain reads: a player's hand through the parameter it is of."""
        if d.index == HELD:
            return {(HOLDERS, _through(d.key, params, shadowed))}
        return {(array, ANY) for array in self._domain(d)}

    def _domain(self, d: ir.Domain) -> set[str]:
        if d.kind == "players":  # the loop skips retired players
            return {ALIVE}
        if d.index == HELD:  # a player's hand
            return {HOLDERS}
        return {self.counter_of_index[d.index]} if d.index in self.counter_of_index else set()


MAX_INT_VALUES = 64  # an integer parameter with more values in its calls: not a memo's slots


def _int_dimensions(program: ir.Program) -> dict[tuple[str, int], tuple[int, int]]:
    """(offset, size) of the integer parameters whose every call passes a value of a small
    known range (`top`, one of 3 to 5, in `buildings_wanted`): a memo keeps a slot per
    value. (The lookup tests the range, so a value outside it is worked out as before.)"""
    ranges = Ranges(program)
    seen: dict[tuple[str, int], tuple[int, int] | None] = {}
    ints = {a.name: [i for i, (_, t) in enumerate(a.params) if t.name == "int"]
            for a in program.aggregates}
    sites = [(f, body_exprs(f.body)) for f in program.functions]
    sites += [(None, (n for e in (*domain_exprs(a.domain), a.where, a.value, a.guard)
                      for n in walk_expr(e))) for a in program.aggregates]
    for function, nodes in sites:
        ranges.enter(function)
        for n in nodes:
            if isinstance(n, ir.CallProc):
                for i in ints.get(n.function, ()):
                    low, high = ranges.of(n.args[i])
                    key = (n.function, i)
                    if key in seen and seen[key] is None or high - low >= MAX_INT_VALUES:
                        seen[key] = None
                        continue
                    before = seen.get(key, (low, high))
                    seen[key] = (min(low, before[0]), max(high, before[1]))
    return {key: (-interval[0], interval[1] - interval[0] + 1)
            for key, interval in seen.items() if interval is not None}


def _keyed(a: ir.Aggregate, program: ir.Program, dims: list) -> tuple[list, list]:
    """The slots' dimensions and keys of a memo, a parameter that the aggregate reads only
    through one declared field (`s.group` in `any(t in spaces where t.group == s.group
    and t.mortgaged)`) keyed by that field: the spaces of a group share one slot."""
    tables = {t.name: t for t in program.tables if t.stride == 1}
    nodes = aggregate_nodes(a)
    keys = []
    for i, (name, t) in enumerate(a.params):
        local = ir.Local(t, name)
        read = {n.table for n in nodes if isinstance(n, ir.Table) and n.entity == local
                and n.element is None and n.table in tables}
        uses = sum(n == local for n in nodes)
        through = sum(isinstance(n, ir.Table) and n.entity == local and n.element is None
                      for n in nodes)
        if t.optional or len(read) != 1 or uses != through or dims[i] is None:
            keys.append(("", 0))
            continue
        values = tables[next(iter(read))].values or (0,)
        keys.append((next(iter(read)), dims[i][1]))
        dims[i] = (-min(values), max(values) - min(values) + 1)
    return dims, keys


def _cash_ranged(a: ir.Aggregate, param: str, fx: Effects) -> ir.Aggregate | None:
    """The aggregate whose memo may keep a range of `param`'s cash (cash_ranges.py)."""
    cash = next(n for n in aggregate_nodes(a) if _cash_of_param(n, {param}))
    return cash_ranged(a, cash, fx)


def _queries(program: ir.Program) -> set[str]:
    """The aggregates that procedures, rules or other aggregates call, and the words of bits
    (asked where a walk's hoisted values are). One only a decision calls is left alone: the
    answer is acted on at once, so the same question rarely comes again before what it
    read has changed."""
    exprs = [n for f in program.functions for n in body_exprs(f.body)]
    exprs += [n for a in program.aggregates
              for e in (*domain_exprs(a.domain), a.where, a.value, a.guard)
              for n in walk_expr(e)]
    return {n.function for n in exprs if isinstance(n, ir.CallProc)} | {
        a.name for a in program.aggregates if a.kind == "mask"}  # (there to be kept: masks.py)


def _by_parameter(a: ir.Aggregate, reads: frozenset[tuple[str, int]], keys: list,
                  keyable: dict[str, str]) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The counters a memo's stamp versions as a whole, and those it versions per entity:
    a counter of one entity type that the aggregate reads only through parameters of that
    type, each keying the slot by itself (`p.res[r]` in `held(p)`: a write of another
    player's resources leaves p's slot as it was)."""
    anywhere = {array for array, at in reads if at == ANY}
    through: dict[str, set[int]] = {}
    for array, at in reads:
        if at != ANY and array not in anywhere:
            through.setdefault(array, set()).add(at)
    keyed = []
    for array, positions in through.items():
        if all(keyable.get(array) == a.params[at][1].name and not a.params[at][1].optional
               and not keys[at][0] for at in positions):
            keyed += [(array, a.params[at][0]) for at in positions]
        else:
            anywhere.add(array)
    return tuple(sorted(anywhere)), tuple(sorted(keyed))


def _hand_apart(per_entity: tuple[tuple[str, str], ...], whole: tuple[str, ...], player: str
                ) -> tuple[tuple[str, str], ...] | None:
    """The per-entity versions without `player`'s whole hand, when the memo reads that hand
    and no other (then stamped by a finer version of it: hand_keys.py)."""
    if (HOLDERS, player) not in per_entity or HOLDERS in whole:
        return None
    return tuple(e for e in per_entity if e != (HOLDERS, player))


def _keyable(program: ir.Program) -> dict[str, str]:
    """Each counter of an entity type whose writes all name their entity by a local or a
    constant (the generated write bumps that entity's version without evaluating it
    again), with that type."""
    owners = {c.name: c.owner for c in program.counters if c.owner}
    for f in program.functions:
        for s in walk_stmts(f.body):
            if isinstance(s, ir.Assign) and isinstance(s.target, ir.State) \
                    and not isinstance(s.target.entity, (ir.Local, ir.Const)):
                owners.pop(s.target.array, None)
    return owners


def memoize_aggregates(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Give each qualifying aggregate a memo: its slots and the counters it reads (and the
    parameter whose cash it reads, if one)."""
    reads = ReadSets(program)
    queries = _queries(program)
    asked = asked_in_windows(program)
    keyable = _keyable(program)
    regions = Regions(program, keyable, mates=True)
    owner_of: dict[str, str] = {}  # each counter versioned per owner: by which owner counter
    int_dims = _int_dimensions(program)
    field_owner = {t.name: t.owner for t in program.tables}
    hands, decks = hand_versions(program)  # per card kind, or per deck (hand_keys.py)
    base = 0
    aggregates = []
    for a in program.aggregates:
        depends = reads.keyed_of(a.name) if a.name in queries else None
        cash_of = ""
        if depends is None and (a.name in queries or a.name in asked):
            keyed = reads.keyed_on_cash(a)
            if keyed is not None:
                depends, cash_of = keyed
        dims = [dimension(t, program) or int_dims.get((a.name, i))
                for i, (_, t) in enumerate(a.params)]
        if depends and a.name not in fx.impure and None not in dims and a.counted is None \
                and a.summed is None:
            ranged = _cash_ranged(a, cash_of, fx) if cash_of else None
            dims, keys = _keyed(a, program, dims)
            owned = regions.of(a)
            if owned is not None and any(owner_of.get(array, owned.owner) != owned.owner
                                         for array in owned.counters):
                owned = None  # a counter is versioned by one owner counter only
            # a player's question about one group: versioned per group, finer than per owner
            by_group = owned is not None and not owned.near and set(owned.counters) <= {
                array for array, *_ in per_field(a, depends, keyable, field_owner)[1]}
            if owned is not None:  # versioned by comparisons' sides, and per owner or group
                dropped = {*owned.compared, *(() if by_group else owned.counters)}
                depends = frozenset({(array, at) for array, at in depends if array not in dropped}
                                    | {(counter + SIDES, ANY) for counter in owned.compared})
                if not by_group:
                    owner_of.update(dict.fromkeys(owned.counters, owned.owner))
            depends, fields = per_field(a, depends, keyable, field_owner)
            whole, per_entity = _by_parameter(a, depends, keys, keyable | KERNEL_KEYABLE)
            by_key, by_decks = hands.get(a.name), decks.get(a.name)
            held_key: tuple[str, str] = ()
            held_decks: tuple[str, tuple[tuple[int, str], ...]] | tuple[()] = ()
            if by_key is not None and (
                    apart := _hand_apart(per_entity, whole, by_key.player)) is not None:
                per_entity, held_key = apart, (by_key.player, by_key.key)
            elif by_decks is not None and (
                    apart := _hand_apart(per_entity, whole, by_decks.player)) is not None:
                per_entity, held_decks = apart, (by_decks.player, by_decks.decks)
            memo = derived.Memo(whole, base, tuple(dims), cash_of, bool(ranged),
                           tuple(keys) if any(table for table, _ in keys) else (), per_entity,
                           per_field=fields, held_key=held_key, held_decks=held_decks)
            if owned is not None:
                memo = dataclasses.replace(memo, thresholds=owned.thresholds)
            if owned is not None and not by_group:
                memo = dataclasses.replace(
                    memo, per_owner=tuple((array, param) for array in owned.counters
                                          for param in owned.params),
                    owner=owned.owner, near=owned.near, mates=owned.mates,
                    mate_counters=owned.mate_counters)
            if memo.slots <= MAX_SLOTS:
                a = dataclasses.replace(ranged or a, memo=memo)
                base += memo.slots
        aggregates.append(a)
    keyed = any(a.memo is not None and a.memo.held_key for a in aggregates)
    return dataclasses.replace(program, aggregates=tuple(aggregates), memo_slots=base,
                               card_key=next(iter(hands.values())).table if keyed else "")
