"""Lazy decision legality.

A decision among entities enumerates every legal option (41 spaces, each
filtered by `can_build` and the like) so that a random or external policy can
pick one; the built-in default policy needs only its own answer. When the
filter and the domain are pure and safe, the generated code checks just the
default's answer against the filter and returns it, and enumerates the options
only when that answer is not legal (to fail, or to take the only option, exactly
as before), when tracing, or for the other policies and `legal_actions()`.
"""

from __future__ import annotations

import dataclasses

from .. import ir
from ..diagnostics import Reporter
from .effects import Effects


def lazy_decisions(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    def lazy(d: ir.Decision) -> bool:
        if d.kind != "entity":
            return True  # a range is checked by comparing the answer with its bounds
        return (d.domain is not None and fx.expr_is_clean(d.where)
                and fx.expr_is_clean(d.domain.low) and fx.expr_is_clean(d.domain.high))

    return dataclasses.replace(program, decisions=tuple(
        dataclasses.replace(d, lazy=lazy(d)) for d in program.decisions))
