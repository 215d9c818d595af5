"""The version fields memos are stamped by, and what each write bumps (memo.py gives each
memo what it reads; this collects, per program, the fields those reads need: one per set of
counters that memos read together, per owner, per owner and group, per value of a field).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import derived
from .. import nodes as ir
from .field_versions import FieldVersions
from .memo import KERNEL_PER_ENTITY, KERNEL_VERSIONS, SIDES


@dataclass(frozen=True)
class OwnerField:
    """A version per owner (regions.py) of a set of counters that memos read together on what
    one player owns: a write of one of them bumps the written entity's owner's, a change of
    owner the old and the new owner's."""

    name: str
    owner: str  # the owner counter
    offset: int  # its counter index's offset (none is -1: its versions are shifted by one)
    values: int  # and how many values it takes
    counters: tuple[str, ...]
    # the table indexes by whose groups a write bumps every owner in the written entity's
    # group too (the memos read what the mates of their player's entities hold)
    mates: tuple[str, ...] = ()
    mate_counters: tuple[str, ...] = ()  # the counters whose writes do (a change of owner)


@dataclass(frozen=True)
class MatesBump:
    """One walk of the written entity's group that bumps, for every owner in it, each of
    the per-owner versions with mates that a write bumps (the sets of counters memos read
    together that hold the written counter: a build bumps several), so that they share
    the walk."""

    name: str
    fields: tuple[OwnerField, ...]  # of one owner counter, with the same mates

    @property
    def first(self) -> OwnerField:
        return self.fields[0]


@dataclass(frozen=True)
class NearField:
    """A version per owner that a change of owner bumps for every other owner of all but one
    of the changed entity's group (regions.py: the trade partner search)."""

    name: str
    owner: str  # the owner counter
    offset: int
    values: int
    table_index: str  # the index of the field whose values are the groups


@dataclass(frozen=True)
class MemoVersions:
    """The version fields the memos compare: one per set of counters that memos read
    together, bumped by a write of any counter in its set, so that a memo's stamp is one
    field (plus the kernel's own versions of the card holders and who is still in) instead
    of a sum of one version per counter, added up at every lookup. Likewise one array per
    set of counters read on what a player owns (`mvo_`), one field of which stamps a memo;
    and a game counter whose memos only compare it with constants is in the sets as its
    side of those comparisons (`houses_left@sides`), which a write bumps only when one of
    their outcomes differs from the last write's (`sides_` fields; -1 when state was set
    from outside, so that the next write bumps)."""

    fields: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (field, the counters it versions)
    per_entity: tuple[str, ...] = ()  # the counters with a version per entity too (`mvk_`)
    per_owner: tuple[OwnerField, ...] = ()
    # (game counter, every comparison with a constant that its memos' sides stand for)
    sides: tuple[tuple[str, tuple[ir.Expr, ...]], ...] = ()
    near: tuple[NearField, ...] = ()  # (`mvn_`)
    per_field: tuple[FieldVersions, ...] = ()  # (`mvf_`: field_versions.py)
    held_decks: bool = False  # whether a memo follows the kernel's versions per hand and deck

    @classmethod
    def of(cls, program: ir.Program) -> MemoVersions:
        memos = [a.memo for a in (*program.aggregates, *program.functions) if a.memo]
        sets = sorted({tuple(sorted(set(memo.reads) - KERNEL_VERSIONS.keys()))
                       for memo in memos} - {()}, key=lambda counters: (len(counters), counters))
        per_entity = sorted({array for memo in memos for array, _ in memo.per_entity}
                            - KERNEL_PER_ENTITY.keys())
        owner_index = {cx.counter: cx for cx in program.counter_indexes}
        owned = sorted({(memo.owner, _owned_counters(memo), memo.mates, memo.mate_counters)
                        for memo in memos if memo.owner})
        sides: dict[str, dict[ir.Expr, None]] = {}
        for memo in memos:
            for counter, comparison in memo.thresholds:
                sides.setdefault(counter, {})[comparison] = None
        near = sorted({(memo.owner, table_index) for memo in memos for table_index in memo.near})
        return cls(
            tuple((_field_name(counters, i), counters) for i, counters in enumerate(sets)),
            tuple(per_entity),
            tuple(OwnerField(f"mvom_{i}" if mates else f"mvo_{counters[0]}"
                             if len(counters) == 1 else f"mvos_{i}", owner,
                             owner_index[owner].offset, owner_index[owner].values, counters, mates,
                             mate_counters)
                  for i, (owner, counters, mates, mate_counters) in enumerate(owned)),
            tuple((counter, tuple(comparisons)) for counter, comparisons in sorted(sides.items())),
            tuple(NearField(f"mvn_{owner}_{table_index}", owner, owner_index[owner].offset,
                            owner_index[owner].values, table_index)
                  for owner, table_index in near),
            FieldVersions.of(program),
            any(memo.held_decks for memo in memos))

    def bumped_by(self, array: str) -> list[str]:
        """The fields a write of `array` bumps."""
        return [field for field, counters in self.fields if array in counters]

    def owner_field(self, memo: derived.Memo) -> OwnerField:
        """The per-owner versions that stamp a memo of what a player owns."""
        counters = _owned_counters(memo)
        return next(f for f in self.per_owner if f.owner == memo.owner and f.counters == counters
                    and f.mates == memo.mates and f.mate_counters == memo.mate_counters)

    def owners_bumped_by(self, array: str) -> list[OwnerField]:
        """The per-owner versions a write of `array` (not an owner) bumps."""
        return [f for f in self.per_owner if array in f.counters and array != f.owner]

    def mates_bumps(self, fields: list[OwnerField]) -> list[MatesBump]:
        """The walks of the written entity's group that bump, of these versions, those a
        write bumps for every owner in the group (whose mate counters hold `array`): one
        walk per owner counter and mates."""
        by_walk: dict[tuple, list[OwnerField]] = {}
        for f in fields:
            if f.mates:
                by_walk.setdefault((f.owner, f.offset, f.values, f.mates), []).append(f)
        return [MatesBump("bump_" + "_".join(f.name for f in group), tuple(group))
                for group in by_walk.values()]

    def write_mates_bumps(self, array: str) -> list[MatesBump]:
        """The walks a write of `array` (not an owner) bumps every owner in its group by."""
        return self.mates_bumps([f for f in self.owners_bumped_by(array)
                                 if array in f.mate_counters])

    def owner_mates_bumps(self, owner: str) -> list[MatesBump]:
        """The walks a change of the owner counter bumps every owner in the group by."""
        return self.mates_bumps([f for f in self.owner_changes(owner) if owner in f.mate_counters])

    @property
    def all_mates_bumps(self) -> tuple[MatesBump, ...]:
        """Every walk some write bumps by, once each."""
        walks = {b.name: b for f in self.per_owner for array in f.counters
                 for b in (self.owner_mates_bumps(array) if array == f.owner
                           else self.write_mates_bumps(array))}
        return tuple(walks[name] for name in sorted(walks))

    def owner_changes(self, owner: str) -> list[OwnerField]:
        """The per-owner versions a change of the owner counter bumps."""
        return [f for f in self.per_owner if f.owner == owner and owner in f.counters]

    def fields_bumped_by(self, array: str) -> list[FieldVersions]:
        """The versions per value of a field that a write of `array` bumps."""
        return [f for f in self.per_field if f.counter == array]

    def field_of(self, array: str, table: str) -> FieldVersions:
        """The versions of a counter per value of a declared field."""
        return next(f for f in self.per_field if f.counter == array and f.table == table)

    def near_of(self, owner: str) -> list[NearField]:
        """The near versions a change of the owner counter bumps."""
        return [f for f in self.near if f.owner == owner]

    def near_field(self, owner: str, table_index: str) -> NearField:
        """The near versions of an owner counter by a table index."""
        return next(f for f in self.near if f.owner == owner and f.table_index == table_index)

    @property
    def owner_arrays(self) -> tuple[OwnerField | NearField, ...]:
        """Every array of versions per owner: each starts at 1, and setting state from
        outside bumps them all."""
        return (*self.per_owner, *self.near)

    def sides_of(self, counter: str) -> tuple[ir.Expr, ...]:
        """The comparisons whose outcomes a write of a game counter may turn."""
        return next((comparisons for name, comparisons in self.sides if name == counter), ())

    def stamp(self, reads: tuple[str, ...]) -> list[str]:
        """The attributes whose sum stamps a memo that reads `reads`."""
        counters = tuple(sorted(set(reads) - KERNEL_VERSIONS.keys()))
        return ([field for field, versioned in self.fields if versioned == counters]
                + [KERNEL_VERSIONS[array] for array in sorted(reads) if array in KERNEL_VERSIONS])


def _owned_counters(memo: derived.Memo) -> tuple[str, ...]:
    return tuple(sorted({array for array, _ in memo.per_owner}))


def _field_name(counters: tuple[str, ...], i: int) -> str:
    if len(counters) > 1:
        return f"mvs_{i}"
    counter = counters[0]
    return f"mvt_{counter.removesuffix(SIDES)}" if counter.endswith(SIDES) else f"mv_{counter}"
