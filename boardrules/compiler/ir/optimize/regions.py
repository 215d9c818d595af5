"""Memos stamped by what one player owns, and by which side of a constant a game counter is.

A player's question such as `wants_building(p)`, `worth_to(p, lot)` or the default
answer of `build_on(p)` walks the spaces p owns (the counter index of `space.owner`, keyed
by p), and reads their buildings and mortgages, and their groups' once `owns_group(p,
s.group)` holds (every space of the group is p's then). Stamped with the versions of the
whole counters, its memo loses every player's answer whenever anyone builds; stamped
with a version *per owner* (`mvo_space_buildings[p]`, bumped by each write of the
buildings of a space then owned by p, and `mvo_space_owner[p]`, by each change of owner
to or from p), it keeps the other players' answers across another player's build.

The analysis proves that every read of a counter of the owned entity type, directly or
through what the aggregate calls, is one of:
- a counter of an entity known to be p's: the walked members of the owner's counter index
  keyed by p; an entity tested `e.owner == p` in an earlier conjunct; an entity of a
  group (any read-only field) that an earlier conjunct found wholly p's, through an
  `all(t.owner == p for t in ... where t.f == k)` aggregate (or a procedure returning one);
- the owner of any entity compared with p (its outcome changes only when p gains or loses
  the entity), or counted from the owner's counter index for p.
A walk of any other member set of those counters, or another read of one, and the memo
keeps its whole versions. The facts follow `and` chains, filters and calls' arguments:
nothing else (a conservative analysis: a question it cannot prove is stamped as before).

A question about two players (could q spare what p lacks for p's next building, each
player's next building worked out from what that player owns) reads what each of them
owns, which neither parameter alone confines: when every single parameter fails, the
parameters together are tried, each read on what one of them owns, and the memo is stamped
by every one's versions.

One question reads the other players' entities: the trade partner search walks the spaces
of every owner but none and p, each only if p owns all the rest of its group (a count
query). Its answer changes only with what p owns and with a change of owner in a group p
owns all but one of, which bumps p's `near` version (memo.py); the analysis accepts that
shape and reads nothing else of those entities.

A question may read the group mates of what p owns before it knows the group whole (what
room a lot has for a hotel: whether every lot of its group has four houses, asked before
whether p may build there): a walk of a read-only field's index keyed by the value of an
entity p owns. Their counters are read whoever owns them: the memo is versioned per owner
still, and a write of a counter it reads on a mate (a change of owner, for the owner
counter) bumps the versions of every owner in the written entity's group (`mates`,
`mate_counters`; memo_versions.py's `mvom_` arrays). So may a count, from the owner's
index, of what any player owns among the mates of an entity p owns (whether q would
complete a group with p's deed s: the trade partner search): it changes only with an
owner in that group, the owner counter then read on a mate.

The same questions compare game counters with constants only (`houses_left > 0`, `if
short_game then 3 else 4`): such a counter stamps the memo by the outcomes of those
comparisons (bits below the versions' sum) instead of its version, which every building
bought moves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field

from .. import derived
from .. import nodes as ir
from .conjuncts import chain_of
from .walk import assigned_locals, child_exprs, domain_exprs


class _NotConfined(Exception):
    """A read the analysis cannot keep among what the player owns."""


@dataclass(frozen=True)
class Facts:
    """What holds where an expression is evaluated: the locals naming an entity p owns,
    and the (read-only field, value) pairs whose every entity p owns."""

    owned: frozenset[str] = frozenset()
    whole: frozenset[tuple[str, ir.Expr]] = frozenset()
    # the locals naming an entity that shares a read-only field's value with one p owns
    # (its group mate: the `mates` versions)
    mates: frozenset[str] = frozenset()

    def owning(self, name: str) -> Facts:
        return Facts(self.owned | {name}, self.whole, self.mates)

    def wholly(self, table: str, key: ir.Expr) -> Facts:
        return Facts(self.owned, self.whole | {(table, key)}, self.mates)

    def mate(self, name: str) -> Facts:
        return Facts(self.owned, self.whole, self.mates | {name})


@dataclass(frozen=True)
class OwnedReads:
    """What a memo of a player's question depends on, when the analysis proves it."""

    owner: str  # the owner counter (`space_owner`)
    params: tuple[str, ...]  # the player parameters whose holdings it reads
    counters: tuple[str, ...]  # the owned entity type's counters it reads, the owner's too
    # game counters compared with constants only, each with a comparison (once each)
    thresholds: tuple[tuple[str, ir.Expr], ...]
    # table indexes whose groups the owners of all but one of a group are versioned by
    near: tuple[str, ...] = ()
    # table indexes by whose groups it reads the counters of the mates of what p owns: a
    # write bumps the versions of every owner in the written entity's group
    mates: tuple[str, ...] = ()
    mate_counters: tuple[str, ...] = ()  # the counters it reads of a mate

    @property
    def compared(self) -> frozenset[str]:
        """The game counters its comparisons read."""
        return frozenset(counter for counter, _ in self.thresholds)


@dataclass
class _Walk:
    """One attempt: an owner counter and the memo's player parameter."""

    owner: str
    entity: str  # the owned entity type
    owner_index: str  # the owner's counter index
    counters: set[str] = field(default_factory=set)
    thresholds: dict[ir.Expr, str] = field(default_factory=dict)  # and the counter each reads
    bare: set[str] = field(default_factory=set)  # game counters read otherwise
    near: set[str] = field(default_factory=set)  # see `_others_near`
    mates: set[str] = field(default_factory=set)  # see `_walked`
    mate_counters: set[str] = field(default_factory=set)  # what it reads of a mate
    calls: list[str] = field(default_factory=list)  # the call stack, against recursion


class Regions:
    """The owned reads of the program's aggregates (memo.py asks, aggregate by aggregate)."""

    def __init__(self, program: ir.Program, keyable: dict[str, str], mates: bool = False
                 ) -> None:
        self.functions = {f.name: f for f in program.functions}
        self.aggregates = {a.name: a for a in program.aggregates}
        self.counter_owner = {c.name: c.owner for c in program.counters}
        self.global_counters = {c.name for c in program.counters
                                if not c.owner and c.stride == 1}
        self.indexes = {ix.name: ix for ix in program.indexes}
        indexed = {cx.counter: cx.name for cx in program.counter_indexes}
        self.counter_indexes = set(indexed.values())
        # an owner: a counter of players per entity, with a counter index; its entity type's
        # other counters must be written through a local or a constant (the write bumps the
        # version of the entity's owner, naming the entity again)
        self.owners = {c.name: indexed[c.name] for c in program.counters
                       if c.owner and c.type.name == "player" and c.stride == 1
                       and c.name in indexed}
        self.keyable = keyable
        self.mates = mates  # whether reads of the mates of what p owns are accepted

    def of(self, a: ir.Aggregate | ir.Function) -> OwnedReads | None:
        """The owned reads of a query aggregate (or a procedure: procedure_memo.py), for the
        first owner counter and player parameter the analysis proves, else all its player
        parameters together (a question about two players' holdings, stamped by both
        owners' versions); None when none is proved."""
        players = [name for name, t in a.params if t.name == "player" and not t.optional]
        attempts = [(param,) for param in players] + ([tuple(players)] if len(players) > 1
                                                      else [])
        for owner, index in sorted(self.owners.items()):
            for params in attempts:
                walk = _Walk(owner, self.counter_owner[owner], index)
                try:
                    if isinstance(a, ir.Function):
                        self._function(a, walk, frozenset(params), Facts())
                    else:
                        self._aggregate(a, walk, frozenset(params), Facts())
                except (_NotConfined, RecursionError):
                    continue
                others = walk.counters - {owner}
                if not walk.counters or any(self.keyable.get(c) != walk.entity for c in others):
                    continue
                compared = set(walk.thresholds.values()) - walk.bare
                thresholds = tuple((counter, t) for t, counter in walk.thresholds.items()
                                   if counter in compared)
                return OwnedReads(owner, params, tuple(sorted(walk.counters)), thresholds,
                                  tuple(sorted(walk.near)), tuple(sorted(walk.mates)),
                                  tuple(sorted(walk.mate_counters)))
        return None

    # ---- the walk ---------------------------------------------------------------------

    def _aggregate(self, a: ir.Aggregate, w: _Walk, p: frozenset[str], facts: Facts) -> None:
        if a.counted is not None:
            self._counted(a.counted, w, p, facts)
            return
        for e in (a.guard, *(e for _, e in a.hoisted), *domain_exprs(a.domain)):
            self._expr(e, w, p, facts)
        if self._others_near(a, w, p):
            inner = facts  # other players' entities: none of their counters may be read
        else:
            inner = self._walked(a.domain, a.var, w, p, facts)
        self._expr(a.where, w, p, inner)
        self._expr(a.value, w, p, self._learn(a.where, w, p, inner))

    def _counted(self, q: derived.CountQuery, w: _Walk, p: frozenset[str], facts: Facts) -> None:
        if q.counter_index in self.counter_indexes and (
                q.counter_index != w.owner_index or not _is_player(q.value, p)):
            if not self._mates_counted(q, w, facts):
                raise _NotConfined
        for e in (q.key, q.value, q.excluded):
            self._expr(e, w, p, facts)
        if q.counter_index == w.owner_index:
            w.counters.add(w.owner)

    def _mates_counted(self, q: derived.CountQuery, w: _Walk, facts: Facts) -> bool:
        """Whether a count of the owner's index counts what any player owns among the group
        mates of an entity p owns (`completes_group(q, s)`, s p's: whether q owns the rest
        of s's group): it changes only with an owner in that group, which the `mates`
        versions follow."""
        key = q.key
        if not (self.mates and q.counter_index == w.owner_index and q.table_index in self.indexes
                and isinstance(key, ir.Table) and key.element is None
                and key.table == self.indexes[q.table_index].table
                and isinstance(key.entity, ir.Local) and key.entity.name in facts.owned):
            return False
        w.mates.add(q.table_index)
        w.mate_counters.add(w.owner)
        return True

    def _others_near(self, a: ir.Aggregate, w: _Walk, p: frozenset[str]) -> bool:
        """Whether `a` walks the entities of every owner but none and p, each only if p owns
        all the rest of its group (`all(t.owner == p for t in ... where t.f == s.f and t !=
        s)`, a count query): the trade partner search. Its answer changes with what p owns,
        and with a change of owner in a group p owns all but one of: the `near` versions,
        which a change of owner bumps for every such owner (memo.py), of one player."""
        d = a.domain
        if not (len(p) == 1 and d.index == w.owner_index and d.key is None
                and len(d.others) == 2 and any(_is_player(e, p) for e in d.others)
                and any(isinstance(e, ir.Const) and e.value == -1 for e in d.others)):
            return False
        for conjunct in chain_of(a.where, "and") if a.where is not None else ():
            table_index = self._all_but_one(conjunct, a.var, w, p)
            if table_index:
                w.counters.add(w.owner)
                w.near.add(table_index)
                return True
        return False

    def _all_but_one(self, e: ir.Expr, var: str, w: _Walk, p: frozenset[str]) -> str:
        """The table index of `e` when it asks, from the counts the owner's writes keep,
        whether p owns every other entity of var's group; '' otherwise."""
        query = self._ownership_query(e, w)
        if query is None or not query.counted:
            return ""
        key = query.key
        if not (_is_player(query.value, p) and _is_local(query.excluded, var)
                and isinstance(key, ir.Table) and key.element is None
                and key.table == self.indexes[query.table_index].table
                and _is_local(key.entity, var)):
            return ""
        return query.table_index

    def _walked(self, d: ir.Domain, var: str, w: _Walk, p: frozenset[str], facts: Facts) -> Facts:
        """The facts inside a walk of the domain: its member is p's when the walk is the
        owner's index keyed by p, or a read-only field's index keyed by a value p owns."""
        if d.index in self.counter_indexes:
            if d.index != w.owner_index or d.others or not _is_player(d.key, p):
                raise _NotConfined  # the members by another counter, or another's
            w.counters.add(w.owner)
            return facts.owning(var)
        if d.index in self.indexes and (self.indexes[d.index].table, d.key) in facts.whole:
            return facts.owning(var)
        key = d.key
        if self.mates and d.index in self.indexes and isinstance(key, ir.Table) \
                and key.table == self.indexes[d.index].table and key.element is None \
                and isinstance(key.entity, ir.Local) and key.entity.name in facts.owned:
            w.mates.add(d.index)  # the mates of an entity p owns, by a read-only field
            return facts.mate(var)
        return facts

    def _learn(self, e: ir.Expr | None, w: _Walk, p: frozenset[str], facts: Facts) -> Facts:
        """The facts that hold once `e` is true."""
        if isinstance(e, ir.Binary) and e.op == "and":
            return self._learn(e.right, w, p, self._learn(e.left, w, p, facts))
        owned = self._owner_test(e, w, p)
        if owned is not None and e.op == "==" and isinstance(owned, ir.Local):
            return facts.owning(owned.name)
        wholly = self._owns_all(e, w, p)
        return facts.wholly(*wholly) if wholly else facts

    def _expr(self, e: ir.Expr | None, w: _Walk, p: frozenset[str], facts: Facts) -> None:
        if e is None:
            return
        if isinstance(e, ir.Binary) and e.op == "and":
            self._expr(e.left, w, p, facts)
            self._expr(e.right, w, p, self._learn(e.left, w, p, facts))
            return
        tested = self._owner_test(e, w, p)
        if tested is not None:
            w.counters.add(w.owner)
            self._expr(tested, w, p, facts)
            return
        threshold = self._threshold(e)
        if threshold:
            w.thresholds[e] = threshold
            return
        truths = [t for t in _truth_operands(e) if _compared_counter(t) in self.global_counters]
        for truth in truths:  # a game counter taken as a truth value: a comparison with 0
            w.thresholds[truth] = truth.array
        if isinstance(e, ir.State):
            self._state(e, w, facts)
        elif isinstance(e, ir.CallProc):
            self._call(e, w, p, facts)
        for child in child_exprs(e):
            if child not in truths:
                self._expr(child, w, p, facts)

    def _state(self, e: ir.State, w: _Walk, facts: Facts) -> None:
        if e.entity is None:
            if e.array in self.global_counters:
                w.bare.add(e.array)
            return
        if self.counter_owner.get(e.array) != w.entity:
            return  # another entity type's counter: versioned as a whole, as before
        if not (isinstance(e.entity, ir.Local) and e.entity.name in facts.owned | facts.mates
                or self._in_whole(e.entity, facts)):
            raise _NotConfined
        if isinstance(e.entity, ir.Local) and e.entity.name not in facts.owned \
                and e.entity.name in facts.mates:
            w.mate_counters.add(e.array)  # a write of it on a mate outdates the memo too
        w.counters |= {e.array, w.owner}  # the entity stays p's only while its owner does

    def _in_whole(self, entity: ir.Expr, facts: Facts) -> bool:
        """Whether an entity is in a group p wholly owns: its own field is that group."""
        return any(isinstance(key, ir.Table) and key.table == table and key.entity == entity
                   and key.element is None for table, key in facts.whole)

    def _call(self, e: ir.CallProc, w: _Walk, p: frozenset[str], facts: Facts) -> None:
        callee = self.aggregates.get(e.function) or self.functions.get(e.function)
        if callee is None:
            return  # a decision, a deck: not in a memo (memo.py rules them out)
        if e.function in w.calls:
            raise _NotConfined
        w.calls.append(e.function)
        names = [name for name, _ in callee.params]
        inner_p = frozenset(names[i] for i, arg in enumerate(e.args) if _is_player(arg, p))
        inner = Facts(frozenset(names[i] for i, arg in enumerate(e.args)
                                if isinstance(arg, ir.Local) and arg.name in facts.owned),
                      frozenset(self._passed(e.args, callee.params, facts)),
                      frozenset(names[i] for i, arg in enumerate(e.args)
                                if isinstance(arg, ir.Local) and arg.name in facts.mates))
        if isinstance(callee, ir.Aggregate):
            self._aggregate(callee, w, inner_p, inner)
        else:
            self._function(callee, w, inner_p, inner)
        w.calls.pop()

    @staticmethod
    def _passed(args: tuple[ir.Expr, ...], params: tuple[tuple[str, ir.Type], ...],
                facts: Facts) -> Iterator[tuple[str, ir.Expr]]:
        """The caller's wholly owned groups, as the callee's parameters name them."""
        for table, key in facts.whole:
            for arg, (name, t) in zip(args, params, strict=False):
                arg = _unchecked(arg)
                if arg == key:
                    yield table, ir.Local(t, name)
                elif isinstance(key, ir.Table) and key.entity == arg and key.element is None:
                    yield table, dataclasses.replace(key, entity=ir.Local(t, name))

    def _function(self, f: ir.Function, w: _Walk, p: frozenset[str], facts: Facts) -> None:
        if {name for name, _ in f.params} & assigned_locals(f.body):
            raise _NotConfined  # a parameter's facts would not hold after the assignment
        self._body(f.body, w, p, facts)

    def _body(self, body: tuple[ir.Stmt, ...], w: _Walk, p: frozenset[str], facts: Facts) -> None:
        for s in body:
            match s:
                case ir.If():
                    self._expr(s.test, w, p, facts)
                    self._body(s.then, w, p, self._learn(s.test, w, p, facts))
                    self._body(s.otherwise, w, p, facts)
                case ir.Loop():
                    for e in domain_exprs(s.domain):
                        self._expr(e, w, p, facts)
                    inner = self._walked(s.domain, s.var, w, p, facts)
                    if s.order is not None:  # an ordered walk's filter, then its keys
                        self._expr(s.order_where, w, p, inner)
                        self._expr(s.order, w, p, self._learn(s.order_where, w, p, inner))
                    self._expr(s.where, w, p, inner)
                    self._body(s.body, w, p, self._learn(s.where, w, p, inner))
                case ir.While():
                    self._expr(s.test, w, p, facts)
                    self._body(s.body, w, p, facts)
                case ir.Declare() | ir.Assign() | ir.Evaluate() | ir.Return():
                    for name in ("target", "value", "expr"):
                        value = getattr(s, name, None)
                        if isinstance(value, ir.Expr):
                            self._expr(value, w, p, facts)
                case _:
                    raise _NotConfined

    # ---- the shapes it recognizes -----------------------------------------------------

    def _owner_test(self, e: ir.Expr | None, w: _Walk, p: frozenset[str]) -> ir.Expr | None:
        """The entity of `e.owner == p` (or !=), else None."""
        if not (isinstance(e, ir.Binary) and e.op in ("==", "!=")):
            return None
        for owner, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(owner, ir.State) and owner.array == w.owner \
                    and owner.entity is not None and _is_player(other, p):
                return owner.entity
        return None

    def _owns_all(self, e: ir.Expr | None, w: _Walk,
                  p: frozenset[str]) -> tuple[str, ir.Expr] | None:
        """(field, value) when `e` is true only if p owns every entity whose read-only
        field has that value: `all(t.owner == p for t in ... where t.f == k)`, or a call of
        a procedure returning one."""
        query = self._ownership_query(e, w)
        if query is None or query.excluded is not None or not _is_player(query.value, p):
            return None
        return self.indexes[query.table_index].table, _unchecked(query.key)

    def _ownership_query(self, e: ir.Expr | None, w: _Walk,
                         depth: int = 0) -> _OwnershipQuery | None:
        """What `e` asks when it calls `all(t.owner == v for t in <index of a field>[k]
        [where t != x])` (directly or through procedures that return the call), with k, v
        and x as the caller names them; None for anything else."""
        if not isinstance(e, ir.CallProc) or depth > 4:
            return None
        callee = self.aggregates.get(e.function) or self.functions.get(e.function)
        if callee is None:
            return None
        names = {name: arg for (name, _), arg in zip(callee.params, e.args, strict=False)}

        def of_caller(x: ir.Expr | None) -> ir.Expr | None:
            """A callee's parameter, or a read-only field of one, as the caller names it."""
            if isinstance(x, ir.Local):
                return names.get(x.name)
            if isinstance(x, ir.Table) and x.element is None and of_caller(x.entity) is not None:
                return dataclasses.replace(x, entity=of_caller(x.entity))
            return None

        if isinstance(callee, ir.Function):
            if len(callee.body) != 1 or not isinstance(callee.body[0], ir.Return):
                return None
            inner = callee.body[0].value
            if not isinstance(inner, ir.CallProc):
                return None
            args = tuple(names.get(a.name) if isinstance(a, ir.Local) else None
                         for a in inner.args)
            if None in args:
                return None
            return self._ownership_query(ir.CallProc(inner.type, inner.function, args), w,
                                         depth + 1)
        a = callee
        value, where = a.value, a.where
        if not (a.kind == "all" and a.domain.index in self.indexes
                and isinstance(value, ir.Binary) and value.op == "=="
                and isinstance(value.left, ir.State) and value.left.array == w.owner
                and _is_local(value.left.entity, a.var)):
            return None
        other = None
        if where is not None:
            if not (isinstance(where, ir.Binary) and where.op == "!="
                    and _is_local(where.left, a.var)):
                return None
            other = where.right
        key, owner, excluded = (of_caller(x) for x in (a.domain.key, value.right, other))
        if key is None or owner is None or (other is not None and excluded is None):
            return None
        if a.counted is not None:  # the index by whose keys the owner's writes count
            return _OwnershipQuery(a.counted.table_index, key, owner, excluded, True)
        return _OwnershipQuery(a.domain.index, key, owner, excluded, False)

    def _threshold(self, e: ir.Expr) -> str:
        """The game counter a comparison with a constant reads, else ''."""
        if isinstance(e, ir.Binary) and e.op in ir.COMPARISONS:
            for counter, other in ((e.left, e.right), (e.right, e.left)):
                if _compared_counter(counter) in self.global_counters \
                        and isinstance(other, ir.Const):
                    return counter.array
        return ""


@dataclass(frozen=True)
class _OwnershipQuery:
    """`all(t.owner == value for t in <table_index>[key] [where t != excluded])`, in the
    caller's terms, and whether the owner's writes keep its counts (count-queries)."""

    table_index: str
    key: ir.Expr
    value: ir.Expr
    excluded: ir.Expr | None
    counted: bool


def _compared_counter(e: ir.Expr | None) -> str:
    """The game counter `e` reads, when it is one (a global, not an entity's)."""
    return e.array if isinstance(e, ir.State) and e.entity is None and e.element is None \
        else ""


def _truth_operands(e: ir.Expr) -> tuple[ir.Expr, ...]:
    """The operands `e` takes as truth values: a condition's test, `not`'s, `and`/`or`'s."""
    if isinstance(e, ir.Conditional):
        return (e.test,)
    if isinstance(e, ir.Unary) and e.op == "not":
        return (e.operand,)
    if isinstance(e, ir.Binary) and e.op in ("and", "or"):
        return (e.left, e.right)
    return ()


def _unchecked(e: ir.Expr) -> ir.Expr:
    """`some(x)` is x where it holds (it raises otherwise): the same key."""
    while isinstance(e, ir.KernelCall) and e.function == "k_some":
        e = e.args[0]
    return e


def _is_local(e: ir.Expr | None, name: str) -> bool:
    return isinstance(e, ir.Local) and e.name == name


def _is_player(e: ir.Expr | None, players: frozenset[str]) -> bool:
    """Whether `e` is one of the player parameters whose holdings the walk follows."""
    return isinstance(e, ir.Local) and e.name in players
