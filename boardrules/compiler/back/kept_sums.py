"""What the templates need of the kept sums (optimize/sums.py): which sums a write of a
counter adjusts, with the counter index whose value says which of a member's sums."""

from __future__ import annotations

from collections.abc import Callable

from ..ir import derived, ir_text
from ..ir import nodes as ir

Adjusted = list[derived.KeptSum]


def sums_read(program: ir.Program) -> Callable[[ir.Expr], Adjusted]:
    """For a write's target, the kept sums whose contributions read it (none for a local)."""
    by_array: dict[str, Adjusted] = {}
    for ks in program.kept_sums:
        for array in ks.reads:
            by_array.setdefault(array, []).append(ks)

    def of(target: ir.Expr) -> Adjusted:
        return by_array.get(target.array, []) if isinstance(target, ir.State) else []

    return of


def kept_context(program: ir.Program) -> dict[str, object]:
    """What the production module's templates read of the kept sums."""
    return {"kept_sums": {ks.name: ks for ks in program.kept_sums},
            "sums_read": sums_read(program), "describe_expr": ir_text.expr}


def kept_arrays(program: ir.Program) -> list[tuple[str, str]]:
    """The kept sums' arrays as a new game starts them (worked out when it is set up)."""
    indexes = {cx.name: cx for cx in program.counter_indexes}
    keys = {ix.name: len(ix.starts) - 2 for ix in program.indexes}
    arrays = []
    for ks in program.kept_sums:
        cx = indexes[ks.counter_index]
        arrays += [(f"ks_{ks.name}", f"[0] * {cx.values}"),
                   (f"ksc_{ks.name}", f"[0] * {cx.entities}")]
        if ks.table_index:
            arrays.append((f"ksk_{ks.name}",
                           f"[0] * {keys[ks.table_index] * cx.values}"))
    return arrays


def no_sums(target: ir.Expr) -> Adjusted:
    """The test layer's: its steps write through the reflection API, which works them out."""
    return []
