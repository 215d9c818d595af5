"""What each generated function may do: write state, raise, or end the turn.

The optimization passes may reorder, skip, repeat or hoist only what is
*pure* (reads the game, changes nothing: no payment, no move, no random draw,
no decision) and *safe* (cannot raise: no `some(none)`, no unchecked index,
no division by a value that may be zero, no loop guard, no recursion). Code
generation uses the same facts for exception specifications: a safe function
is `noexcept`, and only a function that may *unwind* (`end turn` / `end game`,
directly or through what it calls) checks the unwinding flag after its calls.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import nodes as ir
from .walk import aggregate_nodes, body_exprs, domain_exprs, walk_expr, walk_stmts

# Kernel primitives that change nothing and cannot fail.
PURE_SAFE_KERNEL = frozenset({"min", "max", "abs", "k_distance", "k_space_at", "k_adjacent",
                              "k_cell_at", "k_holds", "k_cards_left", "k_next_player",
                              "k_seat_from", "k_changes", "k_window_open",
                              # it closes a window that would close at once (blind_writes.py)
                              "k_window_open_seen",
                              # they write only a memo's scratch range
                              "k_cash_at_least", "k_player_cash_at_least",
                              "k_default_answers",
                              "k_option",  # a listed option (option_defaults.py)
                              "bit_count"})  # the members two words of bits share (masks.py)
# Kernel primitives that open a window (statements.py, blind_writes.py).
WINDOW_OPENS = frozenset({"k_window_open", "k_window_open_seen"})
# Kernel primitives that change nothing but may raise (or run Python code).
PURE_KERNEL = PURE_SAFE_KERNEL | {"k_some", "k_paid", "narrow"}
# Kernel primitives that run the pass and land events (so may call back into the rules).
MOVING_KERNEL = frozenset({"k_move", "k_move_to"})
# Kernel primitives that may end the turn (a move's events), or may end the game (a
# bankruptcy when the game ends at the first one).
UNWINDING_KERNEL = MOVING_KERNEL | {"k_declare_bankrupt"}


@dataclass(frozen=True)
class Effects:
    """Per generated function name: what it may do."""

    impure: frozenset[str]
    unsafe: frozenset[str]
    unwinding: frozenset[str]
    recursive: frozenset[str] = frozenset()  # can call itself again before returning

    def expr_is_pure(self, e: ir.Expr | None) -> bool:
        return all(not _node_impure(n, self) for n in walk_expr(e))

    def expr_is_safe(self, e: ir.Expr | None) -> bool:
        return all(not _node_unsafe(n, self) for n in walk_expr(e))

    def expr_is_clean(self, e: ir.Expr | None) -> bool:
        """Pure and safe: may be evaluated more, less, earlier or later without notice."""
        return self.expr_is_pure(e) and self.expr_is_safe(e)

    def expr_unwinds(self, e: ir.Expr | None) -> bool:
        return any(node_unwinds(n, self) for n in walk_expr(e))


def _node_impure(n: ir.Expr, fx: Effects) -> bool:
    match n:
        case ir.KernelCall():
            return n.function not in PURE_KERNEL
        case ir.CallProc():
            return n.function in fx.impure
    return False


def _node_unsafe(n: ir.Expr, fx: Effects) -> bool:
    match n:
        case ir.KernelCall():
            return n.function not in PURE_SAFE_KERNEL
        case ir.CallProc():
            return n.function in fx.unsafe
        case ir.Table():
            return n.entity.type.optional or n.element is not None and not n.element_known
        case ir.State():
            return n.checked or n.element is not None and not n.element_known
        case ir.Derived():
            return n.entity.type.optional
        case ir.Binary(op="//" | "%"):
            return not (isinstance(n.right, ir.Const) and n.right.value != 0)
        case ir.Builtin(name="winner" | "bankruptcy_ends_game"):  # a game property evaluated
            return True
        case ir.Hoisted():
            return n.lazy  # its first use works out a value that may fail
    return False


def node_unwinds(n: ir.Expr, fx: Effects) -> bool:
    match n:
        case ir.KernelCall():
            return n.function in UNWINDING_KERNEL
        case ir.CallProc():
            return n.function in fx.unwinding
    return False


NOBODY = Effects(frozenset(), frozenset(), frozenset())


@dataclass(frozen=True)
class _Code:
    """One generated function's code, as the analysis sees it: its expressions' nodes, what
    it does itself (before what it calls is known), and whom it calls."""

    exprs: tuple[ir.Expr, ...]
    writes: bool  # assigns game state, loops with a guard, ends the turn or its own nodes do
    raises: bool  # has a statement or a node that may raise by itself (the loop guard)
    ends_turn: bool  # has `end turn`, or a node that may end the turn or the game
    calls: frozenset[str]
    moves: bool  # a node that moves a token (runs the pass and land events)


def _code(exprs: tuple[ir.Expr, ...], writes: bool, raises: bool, ends_turn: bool) -> _Code:
    # with nobody known: an unwinding kernel call; a bankruptcy's may end the game but calls
    # no rules, so only a move makes its caller a caller of the pass and land events
    unwinds = any(node_unwinds(n, NOBODY) for n in exprs)
    moves = any(isinstance(n, ir.KernelCall) and n.function in MOVING_KERNEL for n in exprs)
    return _Code(exprs, writes or any(_node_impure(n, NOBODY) for n in exprs),
                 raises or any(_node_unsafe(n, NOBODY) for n in exprs),
                 ends_turn or unwinds, callees(exprs), moves)


def _kept(node: ir.Function | ir.Aggregate | ir.Decision, make) -> _Code:
    """What the analysis needs of a node, kept on the (immutable) node: the passes leave most
    of the program as it is, and each pass analyses it afresh."""
    known = node.__dict__.get("_effects_code")
    if known is None:
        known = node.__dict__["_effects_code"] = make(node)
    return known


def _walk_function(f: ir.Function) -> _Code:
    stmts = list(walk_stmts(f.body))
    writes = any(isinstance(s, ir.Assign) and not isinstance(s.target, ir.Local)
                 or isinstance(s, ir.While | ir.Raise) for s in stmts)
    exprs = tuple(body_exprs(f.body)) + tuple(walk_expr(f.guard))
    guarded = any(isinstance(s, ir.While) or isinstance(s, ir.Loop) and s.domain.guarded
                  for s in stmts)
    return _code(exprs, writes or f.rule_index >= 0, guarded,
                 any(isinstance(s, ir.Raise) for s in stmts))


def _walk_aggregate(a: ir.Aggregate) -> _Code:
    # a walk the loop guard counts adds to the turn's rounds, as a while loop's rounds do:
    # made fewer times (kept in a memo, hoisted out of a loop), the guard would stop the
    # turn later, or elsewhere
    return _code(tuple(aggregate_nodes(a)), a.domain.guarded,
                 a.checked_total or a.domain.guarded, False)


def _walk_decision(d: ir.Decision) -> _Code:
    # a decision draws from the policy generator, traces and may suspend or raise
    return _code(_exprs(d.by, d.low, d.high, *domain_exprs(d.domain), d.where, d.default,
                        d.options_default, *(e for _, e in d.hoisted)), True, True, False)


def _exprs(*roots: ir.Expr | None) -> tuple[ir.Expr, ...]:
    return tuple(n for root in roots for n in walk_expr(root))


def program_code(program: ir.Program) -> dict[str, _Code]:
    """Every generated function of the program, by name, with the code it runs."""
    code: dict[str, _Code] = {}
    for f in (*program.functions, *getattr(program, "scenario_functions", ())):
        code[f.name] = _kept(f, _walk_function)
    for a in (*program.aggregates, *getattr(program, "scenario_aggregates", ())):
        code[a.name] = _kept(a, _walk_aggregate)
    for d in program.decisions:
        code[f"decide_{d.name}"] = _kept(d, _walk_decision)
    for deck in program.decks:
        calls = tuple(ir.CallProc(ir.VOID, effect, ()) for effect in deck.effects if effect)
        code[f"draw_{deck.name}"] = _code(calls, True, True, False)
    for name, event in program.events.items():
        calls = tuple(ir.CallProc(ir.VOID, h.function, ()) for h in event.handlers)
        code[f"event_{name}"] = _code(calls, True, False, False)
    return code


def analyse(program: ir.Program) -> Effects:
    """Purity, safety and unwinding of every generated function: what a function does
    itself, then, through the call graph, to every function that calls it."""
    code = program_code(program)
    recursive = _recursive(code)
    # a word of bits keeps a rules error of its filter as -1 (optimize/masks.py): safe
    catching = {a.name for a in program.aggregates if a.kind == "mask"}
    flags = [{name for name, c in code.items() if own(c)}
             for own in (lambda c: c.writes, lambda c: c.raises, lambda c: c.ends_turn)]
    impure, unsafe, unwinding = flags
    unsafe -= catching
    unsafe |= recursive
    impure |= recursive  # each call counts in the turn's rounds (k_enter), as a loop's do
    callers: dict[str, set[str]] = {}
    for name, c in code.items():
        for callee in c.calls:
            callers.setdefault(callee, set()).add(name)
    for flagged, stops in zip(flags, (set(), catching, set()), strict=True):
        stack = list(flagged)
        while stack:
            for caller in callers.get(stack.pop(), ()):
                if caller not in flagged and caller not in stops:
                    flagged.add(caller)
                    stack.append(caller)
    # a call that ends the turn inside an expression leaves it by an exception
    return Effects(frozenset(impure), frozenset(unsafe | unwinding), frozenset(unwinding),
                   frozenset(recursive))


def callees(exprs) -> frozenset[str]:
    return frozenset(n.function for n in exprs if isinstance(n, ir.CallProc))


def _recursive(code: dict[str, _Code]) -> set[str]:
    """Functions that can reach themselves (a move runs the pass and land events): deep
    recursion raises (or crashes C)."""
    return {name for component in cycles(call_graph(code)) for name in component}


def call_graph(code: dict[str, _Code]) -> dict[str, frozenset[str]]:
    """Whom each generated function may call: its calls, and the pass and land events when
    it moves a token."""
    moves = {"event_pass", "event_land"}
    return {name: (c.calls | moves if c.moves else c.calls) & code.keys()
            for name, c in code.items()}


def cycles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of the graph with a cycle: more than one member,
    or a call to itself. Found by Tarjan's algorithm in one walk (the analysis runs after
    every pass)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)

    for root in graph:
        if root in index:
            continue
        visit(root)
        work = [(root, iter(graph[root]))]
        while work:
            name, callees_left = work[-1]
            for callee in callees_left:
                if callee not in index:
                    visit(callee)
                    work.append((callee, iter(graph[callee])))
                    break
                if callee in on_stack:
                    low[name] = min(low[name], index[callee])
            else:
                work.pop()
                if work:
                    caller = work[-1][0]
                    low[caller] = min(low[caller], low[name])
                if low[name] == index[name]:
                    component = stack[stack.index(name):]
                    del stack[len(stack) - len(component):]
                    on_stack.difference_update(component)
                    if len(component) > 1 or name in graph[name]:
                        found.append(component)
    return found


def reachable(code: dict[str, _Code], roots: set[str]) -> set[str]:
    """The roots and every generated function they may call, directly or not."""
    reached = roots & code.keys()
    stack = list(reached)
    while stack:
        for callee in code[stack.pop()].calls:
            if callee in code and callee not in reached:
                reached.add(callee)
                stack.append(callee)
    return reached


def asked_in_windows(program: ir.Program) -> set[str]:
    """The generated functions that the functions holding a window may call, directly or
    not (the whole function, not only its window: a safe overestimate)."""
    code = program_code(program)
    return reachable(code, {name for name, c in code.items() if any(
        isinstance(n, ir.KernelCall) and n.function in WINDOW_OPENS for n in c.exprs)})
