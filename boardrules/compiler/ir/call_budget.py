"""Pass `call-budget`: procedures whose calls, as written, may make a great many calls
count them in the turn's rounds.

The loop guard ends a turn whose loops run more than LOOP_LIMIT rounds, and k_enter
counts each call of a procedure that can call itself. A tree of calls without loops or
recursion can still grow exponentially (`f(n) = max(g(n), g(n + 1))`, g the same over
h, ...: 2**36 calls from 36 procedures). So each function gets a weight: 1, plus the
weight of each call written in it (of a procedure, an aggregate, a decision, the land
and pass handlers a move runs, the effects a draw runs), where a call of a counted
function weighs 1. A function of the rules heavier than CALL_WEIGHT counts its weight
at each call (`k_charge`, its first statement), so that between two counted rounds at
most about CALL_WEIGHT calls run, and such a tree stops with the same located error on
both backends.

It runs before the optimizations, on the program as written, so the reference pipeline
of the differential fuzzer and the optimized one count the same: the charge is a kernel
call that writes (the rounds) and may raise, so no pass inlines, skips, keeps in a memo
or moves a charged call. The heaviest function of the four editions weighs under 1,000:
none is charged, and their code is the same as without this pass.
"""

from __future__ import annotations

import dataclasses

from ..common.lang_types import INT, VOID
from . import nodes as ir
from .depth_counts import feedback_set
from .optimize.effects import analyse, program_code

CALL_WEIGHT = 5000
MOVE_EVENTS = ("event_land", "event_pass")


def weights(program: ir.Program) -> dict[str, int]:
    """Each generated function's weight (counted functions weigh 1 where they are called:
    the charged ones, and those on a cycle of calls that count their depth, each call of
    which k_enter counts (depth_counts.py); one of those is charged too when its own calls
    weigh more than CALL_WEIGHT)."""
    code = program_code(program)
    functions = {f.name for f in program.functions}
    # an event, a draw or an aggregate on a cycle weighs 1 too (no cycle is then left)
    counted = set(program.depth_counted if program.depth_counted is not None
                  else feedback_set(program)) | (analyse(program).recursive - functions)
    calls = {name: [n.function for n in c.exprs if isinstance(n, ir.CallProc)]
             + [event for n in c.exprs if isinstance(n, ir.KernelCall)
                and n.function in ("k_move", "k_move_to") for event in MOVE_EVENTS]
             for name, c in code.items()}
    weight: dict[str, int] = {}
    charged = functions

    def cost(name: str) -> int:
        return 1 if name in counted or name not in code else weight[name]

    for root in code:  # callees before callers, without recursion (a chain may be long)
        stack = [(root, False)]
        while stack:
            name, ready = stack.pop()
            if name in weight or name in counted and name != root or name not in code:
                continue
            pending = [g for g in calls[name] if g not in weight and g not in counted
                       and g in code]
            if ready or not pending:
                weight[name] = 1 + sum(cost(g) for g in calls[name])
                if weight[name] > CALL_WEIGHT and name in charged:
                    counted.add(name)
            else:
                stack.append((name, True))
                stack.extend((g, False) for g in pending)
    return weight


def charge_calls(program: ir.Program) -> ir.Program:
    """The program with the functions that count their depth chosen, and `k_charge(weight)`
    first in every function heavier than CALL_WEIGHT."""
    program = dataclasses.replace(program, depth_counted=feedback_set(program))
    weight = weights(program)

    def charged(f: ir.Function) -> ir.Function:
        w = weight.get(f.name, 0)
        if w <= CALL_WEIGHT:
            return f
        span = f.span or (f.body[0].span if f.body else None)
        charge = ir.Evaluate(span, ir.KernelCall(VOID, "k_charge", (ir.Const(INT, w),)))
        return dataclasses.replace(f, body=(charge, *f.body))

    functions = tuple(charged(f) for f in program.functions)
    if all(a is b for a, b in zip(functions, program.functions, strict=True)):
        return program
    return dataclasses.replace(program, functions=functions)
