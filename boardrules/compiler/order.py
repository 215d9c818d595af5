"""Evaluation order: the compiled backend evaluates every expression as Python does.

Python evaluates operands and arguments left to right. The C that Cython writes does
not always: it evaluates a call that may raise into a temporary before the plain reads
of the same expression (`p.cash + f(p)` reads the cash after f ran), C leaves the order
of a noexcept call's arguments open, and a `range` takes its stop before its start.
Where two parts of one expression are a call with effects (a payment, a move, a roll,
`random`, a decision, a procedure that changes the game) and another such call or a
read of the game's state, code generation makes the order explicit:

- each such part of the expression is passed through the kernel's `seq()`, an inline
  identity that Cython must check, so it evaluates them into temporaries, in order
  (`min` and `max` become the kernel's `ordered_min` and `ordered_max`: Cython's own
  evaluate their last argument first);
- `x += f()` on a counter reads the counter first (`x = seq(x) + seq(f())`);
- a range whose bounds have effects gets its bounds in locals, start first, evaluated
  once (the loop guard used to evaluate them a second time).

`and`, `or`, `not` and `if ... then ... else` keep their order in C as well. The
interpreted backend needs none of this; the production module gets it only where it
matters, which the shipped editions' code rarely is.
"""

from __future__ import annotations

from . import ir
from .optimize.effects import Effects
from .optimize.walk import walk_expr, walk_stmts

# kernel calls that read nothing the rules change (the others read the game, as calls of
# procedures do)
_CONSTANT_KERNEL = frozenset({"min", "max", "abs", "k_distance", "k_space_at", "k_adjacent",
                              "k_cell_at", "narrow"})
_CONSTANT_BUILTINS = frozenset({"players_count"})
_CONSTANT_DERIVED = frozenset({"player_seat", "space_track", "space_name", "card_text",
                               "card_deck", "group_name"})


def reads_state(e: ir.Expr) -> bool:
    """Whether the value of `e` may depend on what the rules change."""
    for n in walk_expr(e):
        match n:
            case ir.State() | ir.CallProc():
                return True
            case ir.Builtin() if n.name not in _CONSTANT_BUILTINS:
                return True
            case ir.Derived() if n.what not in _CONSTANT_DERIVED:
                return True
            case ir.KernelCall() if n.function not in _CONSTANT_KERNEL:
                return True
    return False


def clash(parts: list[ir.Expr], fx: Effects) -> bool:
    """Whether the order of the parts matters: one has effects, and another has effects
    too or reads the game."""
    impure = [not fx.expr_is_pure(p) for p in parts]
    return any(impure) and (sum(impure) >= 2 or sum(
        1 for p, i in zip(parts, impure, strict=True) if i or reads_state(p)) >= 2)


def unordered(e: ir.Expr, fx: Effects) -> bool:
    """An operator or a call whose parts clash (`and`, `or` and the conditional are
    ordered in C too)."""
    if isinstance(e, ir.Binary):
        return e.op not in ("and", "or") and clash([e.left, e.right], fx)
    if isinstance(e, ir.CallProc | ir.KernelCall):
        return len(e.args) > 1 and clash(list(e.args), fx)
    return False


def in_place(part: ir.Expr, fx: Effects) -> bool:
    """A part of an unordered expression that must be evaluated in its place."""
    return part.type.name != "str" and (not fx.expr_is_pure(part) or reads_state(part))


def counter_first(s: ir.Assign, fx: Effects) -> bool:
    """`x += e` on game state where e has effects: x is read before e, as in Python."""
    return s.op != "=" and isinstance(s.target, ir.State) and not fx.expr_is_pure(s.value)


def bounds_first(domain: ir.Domain, fx: Effects) -> bool:
    """A range whose bounds have effects: evaluated once, into locals, start first."""
    return (domain.kind == "range" and not domain.index
            and not (fx.expr_is_pure(domain.low) and fx.expr_is_pure(domain.high)))


def bound_locals(body: tuple[ir.Stmt, ...], fx: Effects) -> list[str]:
    """The variables of a body's loops whose bounds go into locals (to declare them)."""
    return sorted({s.var for s in walk_stmts(body)
                   if isinstance(s, ir.Loop) and bounds_first(s.domain, fx)})


def order_context(fx: Effects, production: bool = True) -> dict:
    """The template functions of evaluation order (none needed in plain Python)."""
    return {
        "unordered": (lambda e: unordered(e, fx)) if production else (lambda e: False),
        "in_place": lambda e: in_place(e, fx),
        "counter_first": (lambda s: counter_first(s, fx)) if production else (lambda s: False),
        "bounds_first": lambda d: bounds_first(d, fx),
        "bound_locals": lambda body: bound_locals(body, fx),
    }
