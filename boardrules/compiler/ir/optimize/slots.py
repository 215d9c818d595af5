"""Where a memo's slots for a parameter start and how many there are: the layout that the
memos, the field versions, the guards and the masks share."""

from __future__ import annotations

from .. import nodes as ir


def dimension(t: ir.Type, program: ir.Program) -> tuple[int, int] | None:
    """(offset, size) of a parameter's slots: none is -1, so an optional one is shifted."""
    sizes = {"player": program.max_players, "space": len(program.space_ids),
             "group": len(program.group_ids), "card": len(program.card_ids),
             "cell": program.cell_count, "bool": 2,
             **{name: len(members) for name, members in program.enums.items()}}
    if t.name not in sizes:
        return None
    return (1, sizes[t.name] + 1) if t.optional else (0, sizes[t.name])
