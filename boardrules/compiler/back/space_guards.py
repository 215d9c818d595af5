"""Handler guards that read only a space's declared data, worked out for every space once.

A pass or land handler's guard such as `s.kind == KIND` or `s.FIELD > 0` folds to a
constant on each space: the kernel's moves skip the spaces where no pass handler may run
(`pass_mask`), and the land event skips its last handlers together, with one test, on the
spaces where none of them may run (`land_rest`): a landing on a space that none of them is
for does not test them one by one.
"""

from __future__ import annotations

from ..common.diagnostics import Reporter
from ..common.error_codes import ErrorCode
from ..ir import nodes as ir
from ..ir.optimize.effects import Effects
from ..ir.optimize.fold import Folder
from ..ir.optimize.walk import map_expr

# the land event's last handlers are skipped together when at least this many can be
LAND_REST_HANDLERS = 2


def guards_by_space(program: ir.Program, fx: Effects, f: ir.Function) -> list[ir.Expr]:
    """A handler's guard (its second parameter the space) on each space, folded: a constant
    where it reads only the space's declared data."""
    if f.guard is None:
        return [ir.Const(ir.BOOL, True)] * len(program.space_ids)
    tables = {t.name: t for t in program.tables if t.stride == 1}
    folder = Folder(fx, Reporter().reporting(ErrorCode.CONSTANT_OUT_OF_RANGE))
    folded = []
    for space in range(len(program.space_ids)):
        def known(e: ir.Expr, space: int = space, var: str = f.params[1][0]) -> ir.Expr:
            if isinstance(e, ir.Local) and e.name == var:
                return ir.Const(e.type, space)
            if (isinstance(e, ir.Table) and e.table in tables and e.element is None
                    and isinstance(e.entity, ir.Const)):
                value = tables[e.table].values[e.entity.value]
                return ir.Const(e.type, bool(value) if e.type.name == "bool" else value)
            return folder.node(e)
        folded.append(map_expr(f.guard, known))
    return folded


def pass_mask(program: ir.Program, fx: Effects) -> list[int]:
    """For each space, whether a pass handler may run there (1), or surely not (0)."""
    event = program.events.get("pass")
    functions = {f.name: f for f in program.functions}
    mask = [0] * len(program.space_ids)
    for handler in event.handlers if event else ():
        for space, held in enumerate(guards_by_space(program, fx, functions[handler.function])):
            mask[space] |= 0 if held == ir.Const(ir.BOOL, False) else 1
    return mask


def land_rest(program: ir.Program, fx: Effects) -> tuple[int, list[int]]:
    """The land event's last handlers whose guards are constant on every space, when there
    are at least LAND_REST_HANDLERS of them and at most half the spaces run one (else the
    test would skip little): the position of the first, and for each space whether one of
    them runs there; else (-1, [])."""
    event = program.events.get("land")
    functions = {f.name: f for f in program.functions}
    handlers = list(event.handlers) if event else []
    first, mask = len(handlers), [0] * len(program.space_ids)
    while first > 0:
        folded = guards_by_space(program, fx, functions[handlers[first - 1].function])
        if not all(isinstance(held, ir.Const) for held in folded):
            break
        first -= 1
        mask = [m | int(bool(held.value)) for m, held in zip(mask, folded, strict=True)]
    if len(handlers) - first < LAND_REST_HANDLERS or 2 * sum(mask) > len(mask):
        return -1, []
    return first, mask
