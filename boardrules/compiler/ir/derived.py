"""What the optimizations keep beside the rules' own state: indexes of entities by a
field's value (built at compile time) or by a counter's (kept by every write), the words
and counts they also keep, and where memoized aggregates and guards keep their values.

Apart from the nodes the front end writes: only the optimization passes make these, and
code generation lays them out as the game's extra arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .nodes import Expr

@dataclass(frozen=True)
class Index:
    """The entities of [low, high) grouped by the value of a read-only field, built at compile
    time: the members with value v are items[starts[v - offset]:starts[v - offset + 1]]."""

    name: str
    table: str
    offset: int
    starts: tuple[int, ...]  # one more than the number of values, and an empty slot after it
    items: tuple[int, ...]


@dataclass(frozen=True)
class CounterIndex:
    """The entities of one kind grouped by the current value of a counter (`s.owner`), kept up
    to date by every write of it: the members with value v, in entity order, are
    members[(v - offset) * entities : ... + count[v - offset]]."""

    name: str
    counter: str
    offset: int  # -1 when the counter may be none
    values: int  # how many values it can take
    entities: int
    # table indexes (of read-only fields) by whose keys it also counts its members: for
    # each key and counter value, how many entities have both (optimize/counts.py)
    counted_by: tuple[str, ...] = ()
    # table indexes (among counted_by) whose whole keys it also keeps as words per value
    # (optimize/wholes.py)
    whole_by: tuple[str, ...] = ()
    bits: bool = False  # also the members of each value as a word's bits (optimize/bits.py)
    # whether none's members are kept as a list too, or only as bits and counts, when no
    # walk lists them (optimize/none_slots.py)
    none_listed: bool = True
    # whether any value's members are kept as a list: not when only words are read (a
    # flag's, optimize/flags.py)
    listed: bool = True


@dataclass(frozen=True)
class Word:
    """A word a counter index keeps per counter value: with a table index, the entities
    whose key has every member at the value (`owns_group(p, s.group)` for every s); without
    one (""), the entities at the value (`s.mortgaged`)."""

    counter_index: str
    table_index: str
    value: Expr


@dataclass(frozen=True)
class CountQuery:
    """An aggregate answered from a counter index's counts (optimize/counts.py): how many
    entities have `key` in the table index's field and `value` in the counter, less the
    excluded entity when it is one of them."""

    counter_index: str
    table_index: str
    key: Expr
    value: Expr
    excluded: Expr | None = None


@dataclass(frozen=True)
class Memo:
    """Where a memoized aggregate keeps its values: slots base + the row-major position of
    its arguments, each stamped with the versions of the state arrays it reads."""

    reads: tuple[str, ...]  # counters (and card_holder) its value depends on
    base: int  # its first slot in the game's memo table
    dims: tuple[tuple[int, int], ...]  # per parameter: (offset added to the value, size)
    cash_of: str = ""  # the player parameter whose cash each slot also keeps, if one
    cash_range: bool = False  # kept as the range of that cash with the same answer
    # per parameter: the declared field its slot is keyed by, when the aggregate reads the
    # parameter only through it (`s.group`: one slot a group), with the parameter's own
    # number of values; ("", 0) for a parameter keyed by itself
    keys: tuple[tuple[str, int], ...] = ()
    # (counter, parameter): counters versioned per entity, the one this parameter names
    # (`mvk_` arrays), instead of as a whole; `reads` holds the rest
    per_entity: tuple[tuple[str, str], ...] = ()
    # (counter, player parameter): counters of an owned entity type that it reads only on
    # what its player (or its players, one entry each) owns (optimize/regions.py),
    # versioned per owner of the entity written (`mvo_` arrays, by the owner counter `owner`)
    per_owner: tuple[tuple[str, str], ...] = ()
    owner: str = ""
    # table indexes by whose groups it reads what the mates of its player's entities hold:
    # a write bumps the per-owner versions of every owner in the entity's group (`mates`)
    mates: tuple[str, ...] = ()
    # the counters it reads of a mate: a write of one (a change of owner, for the owner
    # counter) bumps the versions of every owner in the entity's group
    mate_counters: tuple[str, ...] = ()
    # (game counter, comparison with a constant): counters whose side of these comparisons
    # versions it instead of their values (`reads` names them with memo.SIDES)
    thresholds: tuple[tuple[str, Expr], ...] = ()
    # table indexes by whose groups it is versioned for its player owning all but one of a
    # group where an owner changed (the `near` versions of regions.py)
    near: tuple[str, ...] = ()
    # (counter, parameter, field, direct): counters it reads only on the entities that
    # share the parameter's value of a declared field (or, direct, whose field is the
    # parameter), versioned per value of that field (optimize/field_versions.py: `mvf_`)
    per_field: tuple[tuple[str, str, str, bool], ...] = ()
    guard_first: bool = False  # its guard is asked before its lookup (optimize/guards.py)
    # (player parameter, key parameter): the cards it reads the holders of are those of one
    # player with the program's card key (Program.card_key) equal to the key parameter, so
    # it is stamped by that player's version of that key (`held_key_version`) instead of
    # the player's whole hand's
    held_key: tuple[str, str] = ()
    # (player parameter, decks): the cards it reads the holders of are that player's among
    # a range of cards of these decks, so it is stamped by that player's versions of the
    # decks (`held_deck_version`) instead of the whole hand's
    held_decks: tuple[str, tuple[tuple[int, str], ...]] | tuple[()] = ()  # (decks: number, name)
    # a procedure's result clamped by this value of game counters that the stamp leaves out
    # (optimize/clamps.py): a kept value r holds where the value is r, or above r when r was
    # below the value it was worked out with
    clamp: Expr | None = None
    # kept over a range of every player's cash with the same answer (optimize/cash_spans.py):
    # its first row in the game's table of such ranges (one row a slot), -1 for none
    spans: int = -1

    @property
    def slots(self) -> int:
        count = 1
        for _, size in self.dims:
            count *= size
        return count


@dataclass(frozen=True)
class Kept:
    """Where a memoized guard keeps the members that pass it, per memo slot (and one more
    slot, for arguments outside the memo): their count at counts + slot, the members from
    items + slot * width."""

    counts: int
    items: int
    width: int


@dataclass(frozen=True)
class KeptSum:
    """A sum over the entities of one kind, per value of a counter with an index (`t.owner`)
    and, with a table index, per key of its field too (`t.group`), of each member's
    contribution `value` (of `var`: it reads only that entity's counters and declared data),
    kept up to date by the writes (optimize/sums.py): a write of a counter it reads takes
    the member's old contribution off and adds the new one; a change of owner moves it."""

    name: str
    counter_index: str
    var: str
    value: Expr
    reads: tuple[str, ...]  # the member's counters the contribution reads
    table_index: str = ""  # also per key of this index's field, when a query asks one


@dataclass(frozen=True)
class SumQuery:
    """An aggregate answered from a kept sum (optimize/sums.py): the members at `value` of
    the counter, all of them (`key` None), those whose field is `key` (`keyed` "=="), or
    those whose field is not (`keyed` "!=": the whole less that key's part)."""

    kept_sum: str
    value: Expr
    key: Expr | None = None
    keyed: str = ""
