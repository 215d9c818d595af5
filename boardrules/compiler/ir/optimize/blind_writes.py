"""Writes that no window can read do not open a window again.

A window (`window q from p { manage(q) }`) that opens with nothing changed since it last
closed with every player passing is closed at once (statements.py): the kernel compares
its count of changes (payments, counter writes, moves, cards) with the count at the close.
But most throws change only what no window's code reads: a counter that keeps the
throw's total, the token's move. Then every player is asked again, and passes again,
four calls of the holdings questions each time.

This pass finds the counters that no code a window may run reads (the functions holding a
window and everything they may call: procedures, aggregates, decisions with their
defaults, events and their handlers, the pass and land events when that code moves a
token, and `over at first bankruptcy when ...` when it declares one), and whether that
code reads positions. A write of such a *blind* counter is counted apart
(`blind_changes`, still a change for everything else), and a window whose body reads no
local from outside itself opens with `k_window_open_seen`: also closed at once when
every seat takes its default answers inline (no trace, nothing scripted or forced: the
same answers for the same state) and nothing it can read changed since all passed (nor
the turn, when it reads the turn, the current player or the rounds). They would all pass
again, with nothing written and nothing drawn, so the game is the same.

Nothing is rewritten when the window's code reads what changes without a counted change
otherwise (the dice, a deck, the random generator, the end of the game, the bankruptcies
counted): an idle call could then do something else the next time.
"""

from __future__ import annotations

import dataclasses

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .effects import Effects, program_code, reachable
from .walk import map_blocks, stmt_exprs, walk_expr, walk_stmts

POSITION = "player_position"
# kernel calls that read positions (a move starts from the token's space)
MOVING_KERNEL = frozenset({"k_move", "k_move_to", "k_place"})
# kernel calls that run the pass and land events
EVENT_KERNEL = frozenset({"k_move", "k_move_to"})
MOVE_EVENTS = frozenset({"event_pass", "event_land"})
# What the shortcut covers: kernel calls that read nothing, or only what the changes it
# compares count (payments, cards held, retirements), positions (compared when read) or the
# board; and what they write is counted. Anything else (the dice, a deck, the random
# generator, the ledger of throws) changes without a counted change, or draws: an idle call
# that reads or does it may not be idle the next time.
SEEN_KERNEL = frozenset({
    "min", "max", "abs", "narrow", "k_divisor", "k_span", "k_enter", "k_log", "k_some",
    "k_distance", "k_space_at", "k_adjacent", "k_cell_at", "k_seat_from", "k_next_player",
    "k_holds", "k_cash_at_least", "k_player_cash_at_least", "k_paid", "k_default_answers",
    "k_changes", "k_window_open", "k_close_window",
    "k_pay", "k_give_card", "k_return_card", "k_retire", "k_declare_bankrupt", *MOVING_KERNEL})
# the same for the values the kernel keeps; the turn's are compared when read
TURN_BUILTINS = frozenset({"current", "turn", "rounds"})
# the game block's `over at first bankruptcy when ...`: its expression is window code too
ENDS_BUILTIN = "bankruptcy_ends_game"
SEEN_BUILTINS = TURN_BUILTINS | {"players_count", "players_in", ENDS_BUILTIN}


def blind_writes(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    code = program_code(program)
    windows = {name for name, c in code.items()
               if any(_opens_window(n) for n in c.exprs)}
    if not windows:
        return program
    nodes = _window_code(program, code, windows)
    if any(_unseen(n) for n in nodes):
        return program
    read = {n.array for n in nodes if isinstance(n, ir.State)}
    # the counters whose kept words walks read instead of a test (wholes.py, flags.py)
    indexed = {cx.name: cx.counter for cx in program.counter_indexes}
    read |= {indexed[w.counter_index] for a in program.aggregates for w in a.domain.words}
    moves_seen = POSITION in read or any(_calls(n, MOVING_KERNEL) for n in nodes)
    turn_seen = any(isinstance(n, ir.Builtin) and n.name in TURN_BUILTINS for n in nodes)
    functions = tuple(
        dataclasses.replace(f, body=_seen_windows(f.body, moves_seen, turn_seen))
        if f.name in windows else f for f in program.functions)
    written = {s.target.array for f in program.functions for s in walk_stmts(f.body)
               if isinstance(s, ir.Assign) and isinstance(s.target, ir.State)}
    return dataclasses.replace(program, functions=functions,
                               blind_counters=frozenset(written - read))


def _window_code(program: ir.Program, code, windows: set[str]) -> list[ir.Expr]:
    """Every expression node of the code that the windows' functions may run."""
    roots, reached = set(windows), set()
    properties: list[ir.Expr] = []
    while True:
        reached = reachable(code, reached | roots)
        nodes = [n for name in reached for n in code[name].exprs]
        if any(_calls(n, EVENT_KERNEL) for n in nodes):
            roots |= MOVE_EVENTS
        if any(_calls(n, {"k_declare_bankrupt"}) or _reads_ends(n) for n in nodes):
            properties = list(walk_expr(program.bankruptcy_ends))
            roots |= {n.function for n in properties if isinstance(n, ir.CallProc)}
        if roots & code.keys() <= reached:
            return [*properties, *nodes]


def _calls(n: ir.Expr, functions) -> bool:
    return isinstance(n, ir.KernelCall) and n.function in functions


def _reads_ends(n: ir.Expr) -> bool:
    return isinstance(n, ir.Builtin) and n.name == ENDS_BUILTIN


def _opens_window(n: ir.Expr) -> bool:
    return isinstance(n, ir.KernelCall) and n.function == "k_window_open"


def _unseen(n: ir.Expr) -> bool:
    match n:
        case ir.KernelCall():
            return n.function not in SEEN_KERNEL
        case ir.CallProc():
            return n.function.startswith("draw_")
        case ir.Builtin():
            return n.name not in SEEN_BUILTINS
    return False


def _seen_windows(body: tuple[ir.Stmt, ...], moves_seen: bool, turn_seen: bool
                  ) -> tuple[ir.Stmt, ...]:
    """The block with each window whose rounds read no outer local opening with
    `k_window_open_seen` (statements.py lowers a window to a declaration of its `acted`
    flag, `k_window_open(site)`, and the `while` of its rounds right after it)."""

    def seen(block: tuple[ir.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        result = list(block)
        for i, s in enumerate(block[:-1]):
            if isinstance(s, ir.Declare) and _opens_window(s.value) and \
                    isinstance(block[i + 1], ir.While) and \
                    _closed_over(block[i + 1], s.name.removesuffix("acted")):
                opened = ir.KernelCall(ir.BOOL, "k_window_open_seen", (
                    *s.value.args, ir.Const(ir.BOOL, moves_seen), ir.Const(ir.BOOL, turn_seen)))
                result[i] = dataclasses.replace(s, value=opened)
        return tuple(result)

    return map_blocks(body, seen)


def _closed_over(rounds: ir.While, prefix: str) -> bool:
    """Whether the window's rounds read no local but the window's own (named after its
    place) and those declared inside them: the same calls, whoever's turn it is."""
    inner = {s.name for s in walk_stmts(rounds.body) if isinstance(s, ir.Declare)}
    inner |= {s.var for s in walk_stmts(rounds.body) if isinstance(s, ir.Loop)}
    used = {n.name for s in walk_stmts((rounds,)) for e in stmt_exprs(s)
            for n in walk_expr(e) if isinstance(n, ir.Local)}
    return all(name in inner or name.startswith(prefix) for name in used)

