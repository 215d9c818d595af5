"""Evaluation order: the compiled backend evaluates every expression as Python does.

Python evaluates operands and arguments left to right. The C that Cython writes does
not always: it evaluates a call that may raise into a temporary before the plain reads
of the same expression (`p.cash + f(p)` reads the cash after f ran), C leaves the order
of a noexcept call's arguments open, and a `range` takes its stop before its start.
Where the order of two parts of one expression matters (a call with effects, such as a
payment, a move, a roll, `random`, a decision or a procedure that changes the game, and
another such call, a read of the game's state or something that may raise; or two
parts that may raise, which decide the error), code generation makes the order explicit:

- each such part of the expression is passed through the kernel's `seq()`, an inline
  identity that Cython must check, so it evaluates them into temporaries, in order
  (`min` and `max` become the kernel's `ordered_min` and `ordered_max`: Cython's own
  evaluate their last argument first);
- `x += f()` on a counter reads the counter first (`x = seq(x) + seq(f())`);
- a range whose bounds' order matters gets its bounds in locals, start first, and so
  does a guarded range whose bounds are not pure and safe (the loop guard used to
  evaluate them a second time).

`and`, `or`, `not` and `if ... then ... else` keep their order in C as well. The
interpreted backend needs none of this; the production module gets it only where it
matters, which the shipped editions' code rarely is.
"""

from __future__ import annotations

from ..ir import nodes as ir
from ..ir.optimize.effects import Effects
from ..ir.optimize.walk import walk_expr, walk_stmts

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


def _traits(e: ir.Expr, fx: Effects) -> tuple[bool, bool, bool]:
    """Whether evaluating `e` may change the game, may raise, and reads the game."""
    return not fx.expr_is_pure(e), not fx.expr_is_safe(e), reads_state(e)


def clash(parts: list[ir.Expr], fx: Effects) -> bool:
    """Whether the order of the parts matters: one has effects and another has effects,
    may raise or reads the game; or two may raise (which error is raised first)."""
    traits = [_traits(p, fx) for p in parts]
    for i, (changes, raises, reads) in enumerate(traits):
        for other_changes, other_raises, other_reads in traits[i + 1:]:
            if (changes and (other_changes or other_raises or other_reads)
                    or other_changes and (raises or reads) or raises and other_raises):
                return True
    return False


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
    return part.type.name != "str" and any(_traits(part, fx))


def counter_first(s: ir.Assign, fx: Effects) -> bool:
    """`x += e` on game state where the order of reading x and evaluating e matters: x is
    read first, as in Python."""
    return s.op != "=" and isinstance(s.target, ir.State) and clash([s.target, s.value], fx)


def bounds_first(domain: ir.Domain, fx: Effects) -> bool:
    """A range whose bounds' order matters, or that the loop guard would evaluate twice:
    its bounds go into locals, start first, evaluated once."""
    return (domain.kind == "range" and not domain.index
            and (clash([domain.low, domain.high], fx)
                 or domain.guarded and not (fx.expr_is_clean(domain.low)
                                            and fx.expr_is_clean(domain.high))))


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
