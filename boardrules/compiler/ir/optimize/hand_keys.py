"""Memos of a player's cards of one kind, versioned per player and kind.

`count(c in cards where holds(p, c) and c.res == t)` (how many cards of type t p
holds) depends only on p's cards of type t, but a memo stamped by p's whole hand
(`held_version[p]`) is outdated by every card p gains or loses, and all of p's
slots, one per type, are worked out again. The kernel keeps, besides, a version
per player and value of one card field (`held_key_version`, the field's value of
each card in `card_key`); a memo of such an aggregate is stamped by p's version of
t instead (Memo.held_key), so that a card of another type changing hands keeps
its value. One field per program (the kernel keeps one key): the one the most
such aggregates test.

An aggregate qualifies when it walks cards restricted to one player parameter's
hand (its domain is that hand, or its filter has `holds(p, c)`) and to one value
of the field given by an enum parameter (a filter `c.f == t`, or a domain indexed
by f at t), reads who holds a card nowhere else and calls nothing (what it calls
could read other hands).

Likewise a question that walks one player's cards among a fixed range of cards, all of one
or two decks (`sum(c.points for c in cards bonus where holds(p, c))`: a deck's cards are
one range), is stamped by that player's versions of those decks (`held_deck_version`, Memo.
held_decks): a card of another deck changing hands keeps its value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ...common.kernel_facts import kernel_constants
from .. import nodes as ir
from .conjuncts import chain_of
from .index import HELD
from .walk import aggregate_nodes

# the keys the kernel keeps versions of; the last is none's (no key parameter is none)
CARD_KEYS = kernel_constants("CAP_CARD_KEYS")["CAP_CARD_KEYS"]
HOLDERS = "card_holder"


@dataclass(frozen=True)
class HandKey:
    player: str  # the parameter whose hand it reads
    key: str  # the parameter the card field equals
    table: str  # that field


@dataclass(frozen=True)
class HandDecks:
    player: str  # the parameter whose hand it reads
    decks: tuple[tuple[int, str], ...]  # the decks of the cards it may walk: number, name


MAX_HAND_DECKS = 2  # a walk over more decks' cards is left to the whole hand's version


def hand_versions(program: ir.Program) -> tuple[dict[str, HandKey], dict[str, HandDecks]]:
    """The aggregates that read one player's hand alone, by name: those that read its cards
    of one kind (of the card field the most of them test: the kernel keeps one key), and
    those that read its cards among a range of cards of few decks."""
    tables = {t.name: t for t in program.tables}
    indexes = {ix.name: ix.table for ix in program.indexes}
    deck_of = {card: d for d, deck in enumerate(program.decks) for card in deck.cards}
    keys: dict[str, HandKey] = {}
    decks: dict[str, HandDecks] = {}
    for a in program.aggregates:
        var = ir.Local(ir.Type("card"), a.var)
        conjuncts = chain_of(a.where, "and") if a.where is not None else []
        player = _one_hand(a, var, conjuncts)
        if player is None:
            continue
        if (key := _hand_key(a, player, var, conjuncts, program.enums, tables,
                             indexes)) is not None:
            keys[a.name] = key
        if (held := _hand_decks(a.domain, player, deck_of, program.decks,
                                indexes.keys())) is not None:
            decks[a.name] = held
    counts = Counter(key.table for key in keys.values())
    chosen = min(counts, key=lambda table: (-counts[table], table)) if counts else ""
    return {name: key for name, key in keys.items() if key.table == chosen}, decks


def _one_hand(a: ir.Aggregate, var: ir.Local, conjuncts: list[ir.Expr]) -> str | None:
    """The player parameter whose hand alone `a` reads who holds a card of (its walk
    restricted to that hand), calling nothing; else None."""
    player = _hand_of(a.domain, conjuncts, var, {name: t for name, t in a.params})
    if player is None or any(
            isinstance(n, ir.CallProc) or isinstance(n, ir.Derived) and n.what == HOLDERS
            or isinstance(n, ir.KernelCall) and n.function == "k_holds"
            and not _holds(n, player, var) for n in aggregate_nodes(a)):
        return None
    return player


def _hand_key(a: ir.Aggregate, player: str, var: ir.Local, conjuncts: list[ir.Expr],
              enums: dict[str, tuple[str, ...]], tables: dict[str, ir.TableData],
              indexes: dict[str, str]) -> HandKey | None:
    """One player's cards of one key, when the walk keeps to one value of a card field
    given by an enum parameter; else None (the program's enums, tables by name, and each
    table index's table)."""
    params = {name: t for name, t in a.params}
    for table, key in _keys(a.domain, conjuncts, var, indexes):
        data = tables.get(table)
        t = params.get(key)
        if (data is not None and data.owner == "card" and data.stride == 1 and t is not None
                and not t.optional and t.name in enums
                and all(-1 <= v < CARD_KEYS - 1 for v in data.values)):
            return HandKey(player, key, table)
    return None


def _hand_decks(d: ir.Domain, player: str, deck_of: dict[int, int],
                program_decks: tuple[ir.Deck, ...], ranged: Iterable[str]) -> HandDecks | None:
    """The player's cards among a range of cards of one or two decks (not all of them),
    when the walk keeps to that range; else None."""
    if d.kind != "range" or d.index and d.index not in ranged \
            or not isinstance(d.low, ir.Const) or not isinstance(d.high, ir.Const):
        return None  # (a table index's walk, built over the range, bits or kept members
        # visit members of the range only; a counter index's could visit others)
    decks = {deck_of.get(card, -1) for card in range(d.low.value, d.high.value)}
    if not decks or -1 in decks or len(decks) > MAX_HAND_DECKS \
            or len(decks) == len(program_decks):  # (all of them: the whole hand's)
        return None
    return HandDecks(player, tuple((n, program_decks[n].name) for n in sorted(decks)))


def _hand_of(d: ir.Domain, conjuncts: list[ir.Expr], var: ir.Local,
             params: dict[str, ir.Type]) -> str | None:
    """The player parameter whose hand the walk is restricted to."""
    if d.index == HELD:
        key = d.key
    else:
        key = next((n.args[0] for n in conjuncts if isinstance(n, ir.KernelCall)
                    and n.function == "k_holds" and _same_local(n.args[1], var)), None)
    if isinstance(key, ir.Local) and key.name in params and params[key.name].name == "player" \
            and not params[key.name].optional:
        return key.name
    return None


def _holds(n: ir.KernelCall, player: str, var: ir.Local) -> bool:
    return _same_local(n.args[0], ir.Local(ir.Type("player"), player)) and _same_local(
        n.args[1], var)


def _same_local(e: ir.Expr, local: ir.Local) -> bool:
    return isinstance(e, ir.Local) and e.name == local.name


def _keys(d: ir.Domain, conjuncts: list[ir.Expr], var: ir.Local, indexes: dict[str, str]
          ) -> Iterator[tuple[str, str]]:
    """(field, parameter) of each restriction of the candidates to one value of a field."""
    if d.index in indexes and isinstance(d.key, ir.Local):
        yield indexes[d.index], d.key.name
    for c in conjuncts:
        if isinstance(c, ir.Binary) and c.op == "==":
            for side, other in ((c.left, c.right), (c.right, c.left)):
                if (isinstance(side, ir.Table) and side.element is None
                        and _same_local(side.entity, var) and isinstance(other, ir.Local)):
                    yield side.table, other.name


def card_keys(program: ir.Program) -> list[int]:
    """Each card's key, for the kernel's `card_key`: its value of the program's key field,
    none's the last key."""
    if not program.card_key:
        return []
    data = next(t for t in program.tables if t.name == program.card_key)
    return [v if v >= 0 else CARD_KEYS - 1 for v in data.values]
