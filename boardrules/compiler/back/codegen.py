"""Pass 5: render the IR into one self-contained Cython pure-Python-mode module.

The Jinja2 templates in `templates/` write the code; this module only prepares
their context and provides the escaping helpers through which every name and
string that came from a rules file passes: `ident` (a checked identifier with
a prefix, so a rules name can never be a Python keyword or clash with the
kernel) and `pystr` (an ASCII Python literal), plus `comment` for comments.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PurePath

import jinja2

from ... import __version__
from ..common.kernel_facts import kernel_constants, kernel_source
from ..front.primitives import DECK_FUNCTIONS, KERNEL_FUNCTIONS
from ..front.statements import always_returns
from ..front.symbols import KERNEL_EVENTS
from ..ir import derived, ir_text
from ..ir import nodes as ir
from ..ir.depth_counts import depth_counted
from ..ir.limits import else_ifs
from ..ir.optimize.effects import Effects, analyse, node_unwinds
from ..ir.optimize.hand_keys import card_keys
from ..ir.optimize.index import HELD, is_none_const
from ..ir.optimize.integers import Ranges
from ..ir.optimize.memo import KERNEL_PER_ENTITY, KERNEL_VERSIONS, SIDES
from ..ir.optimize.memo_versions import MemoVersions
from ..ir.optimize.prechecks import reads_hoisted
from ..ir.optimize.unwinding import raises_unwind
from ..ir.optimize.walk import (
    aggregate_nodes,
    body_exprs,
    walk_expr,
    walk_stmts,
)
from .entry_tests import called_once, entry_tests, inlined_functions
from .kept_sums import kept_arrays, kept_context, no_sums
from .order import order_context
from .sorted_walks import ordered_locals, site
from .space_guards import land_rest, pass_mask
from .state_fields import fill_state_code
from .template_cache import TemplateCache
from .words_first import words_first

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Kernel arrays the rules reach through built-in attributes, and their capacities.
KERNEL_ARRAYS = {"player_cash": "cash", "player_position": "position", "player_alive": "alive",
                 "card_holder": "card_holder"}
CAPACITY = {name.removeprefix("CAP_").lower(): value
            for name, value in kernel_constants("CAP_").items()}  # the kernel's, one source
# Kernel arrays the generated code only reads (track position, deck of a card, the players'
# hands), and their sizes.
KERNEL_READ_ONLY = {"track_of": CAPACITY["spaces"], "card_deck": CAPACITY["cards"],
                    "held_first": CAPACITY["players"], "held_next": CAPACITY["cards"]}
KERNEL_ARRAY_SIZE = {"cash": CAPACITY["players"], "position": CAPACITY["players"],
                     "alive": CAPACITY["players"], "card_holder": CAPACITY["cards"]}
# The kernel methods rules code calls (macros.j2 `ex`), with their arity: the reflection API
# dispatches them, so the test layer can call them on either backend.
KERNEL_CALLS = {
    **{f"k_{name}": len(params) for name, (params, _) in KERNEL_FUNCTIONS.items()
       if name not in ("min", "max", "abs")},
    **{f"k_{name}": 1 for name in DECK_FUNCTIONS},
    "k_roll": 1, "k_some": 1, "k_unwound": 1, "k_divisor": 1, "chk": 2, "tick": 0,
    "k_charge": 1,
    "winner": 0, "ends_at_bankruptcy": 0,
}
# Kernel values the rules code writes as well as reads (`end turn` sets `unwinding`).
KERNEL_VALUES = ("unwinding",)


class CodegenError(Exception):
    pass


def ident(name: str, prefix: str) -> str:
    """A rules-file name as a Python identifier: checked, then prefixed."""
    if not _IDENTIFIER.fullmatch(name):
        raise CodegenError(f"not an identifier: {name!r}")
    return prefix + name


def pystr(value: str) -> str:
    """Any string as a Python literal that cannot escape its quotes."""
    return ascii(str(value))


def comment(value: str) -> str:
    """Text for a `#` comment: one line, printable ASCII."""
    return ascii(str(value))[1:-1].replace("\\\\", "\\")


def const(value: int | bool | str) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    return pystr(value)


def _unknown_attribute(what: str) -> str:
    raise CodegenError(f"no code for the built-in attribute {what!r}")


def padded(values, size: int, fill: int = 0) -> list[int]:
    values = list(values)
    if len(values) > size:
        raise CodegenError(f"{len(values)} values exceed the kernel's capacity of {size}")
    return values + [fill] * (size - len(values))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("boardrules.compiler.back", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        bytecode_cache=TemplateCache(),
    )
    env.filters.update(ident=ident, pystr=pystr, comment=comment, const=const,
                       ctype=cython_type, minus=minus)
    # none has no slot in a counter index that keeps no members of none (none_slots.py)
    env.tests["none_const"] = is_none_const
    env.tests["reading_hoisted"] = reads_hoisted
    env.globals.update(KERNEL_ARRAYS=KERNEL_ARRAYS, KERNEL_VERSIONS=KERNEL_VERSIONS,
                       KERNEL_PER_ENTITY=KERNEL_PER_ENTITY, SIDES=SIDES,
                       HELD_INDEX=HELD, CAPACITY=CAPACITY, raise_unknown=_unknown_attribute,
                       always_returns=always_returns, memo_follows=ir_text.memo_follows,
                       else_ifs=else_ifs, ordered_locals=ordered_locals, ordered_site=site)
    return env


def compile_templates() -> None:
    """Compile every template into the template cache (or read it back from there): run
    by the Cython process started ahead of a build (cython_process.py), on the other
    core while the front end parses, so that code generation finds them compiled."""
    env = environment()
    for name in env.list_templates():
        env.get_template(name)


def check_capacity(program: ir.Program) -> list[str]:
    """What exceeds the kernel's fixed capacities (reported by the pipeline as errors)."""
    problems = []
    sizes = {
        "players": program.max_players, "spaces": len(program.space_ids),
        "cards": len(program.card_ids), "decks": len(program.decks), "dice": len(program.dice),
        "faces": max((len(d.faces) for d in program.dice), default=0),
        "rules": len(program.rules), "cells": program.cell_count,
        "windows": len(window_sites(program)),
    }
    for what, size in sizes.items():
        if size > CAPACITY[what]:
            problems.append(f"{size} {what} exceed the kernel's capacity of {CAPACITY[what]}")
    return problems


# A value-returning function signals an exception with this rare value, and the caller
# asks Python whether an exception is set only when the value comes back (the kernel's).
ERROR_VALUE = kernel_constants("ERROR_VALUE")["ERROR_VALUE"]


def exception_spec(fx: Effects, name: str, returns: ir.Type | str, raises: bool = False) -> str:
    """The Cython exception specification of a generated function: `noexcept` when it cannot
    raise (and `raises` does not say it does: a mask's walk, whose errors its caller keeps),
    otherwise one that costs a check only on failure (or on the rare ERROR_VALUE)."""
    kind = returns if isinstance(returns, str) else returns.name
    if kind in ("str", "check"):
        return ""  # a Python object: NULL signals the exception
    if name not in fx.unsafe and not raises:
        return "@cython.exceptval(check=False)"
    if kind in ("void", "error"):
        return "@cython.exceptval(-1)"
    if kind == "bool":
        return "@cython.exceptval(-1, check=True)"
    return f"@cython.exceptval({ERROR_VALUE}, check=True)"


def nonnegative(e: ir.Expr, tables: dict[str, ir.TableData]) -> bool:
    """Whether an integer expression is never negative (for C division)."""
    match e:
        case ir.Const(value=int(value)) if not isinstance(e.value, bool):
            return value >= 0
        case ir.Table() if e.table in tables:
            return min(tables[e.table].values, default=0) >= 0
        case ir.Binary(op="+" | "*" | "//" | "%"):
            return nonnegative(e.left, tables) and nonnegative(e.right, tables)
    return False


def walk_local_decls(var: str, domain: ir.Domain) -> list[tuple[str, str]]:
    """The C locals (name, Cython type) of a walk of `domain` by `var` (loop_head's): an
    index's position and key, a word of bits, or the position among the others. Declared C
    ints, or Cython makes them Python objects and the loop a Python loop."""
    decls = []
    if domain.index and domain.mask is None or domain.kept:
        decls += [(ident(var, "ix_"), "cython.int"), (ident(var, "ixk_"), "cython.int")]
    if domain.mask is not None:
        decls.append((ident(var, "bits_"), "cython.ulonglong"))
    elif domain.others:
        decls.append((ident(var, "ixn_"), "cython.int"))
    return decls


def loop_walk_locals(body: tuple[ir.Stmt, ...]) -> list[tuple[str, str]]:
    """The walk locals of the statement loops of a body that walk an index, once each."""
    loops = sorted((s for s in walk_stmts(body) if isinstance(s, ir.Loop) and s.domain.index),
                   key=lambda s: s.var)
    decls: dict[tuple[str, str], None] = {}
    for loop in loops:
        decls.update(dict.fromkeys(walk_local_decls(loop.var, loop.domain)))
    return list(decls)


def function_origins(program: ir.Program) -> dict[str, str]:
    """Each generated function and where the rules define it (for error messages)."""
    def at(span) -> str:
        return f" at {PurePath(span.path).name}:{span.line}" if span else ""

    origins = {f.name: f.origin for f in program.functions}
    origins |= {ident(d.name, "decide_"): f"decision {d.name}{at(d.span)}"
                for d in program.decisions}
    origins |= {a.name: f"{a.kind} aggregate in {a.name.partition('_in_')[2] or 'the rules'}"
                f"{at(a.span)}" for a in program.aggregates}
    return origins


def hoisted_guards(program: ir.Program, fx: Effects) -> dict[str, ir.Expr]:
    """Handler guards that cannot fail or change anything: tested before the call."""
    return {f.name: f.guard for f in program.functions
            if f.guard is not None and f.rule_index >= 0 and fx.expr_is_clean(f.guard)}


def idle_events(program: ir.Program, guards: dict[str, ir.Expr]) -> set[str]:
    """The rules' own events whose every handler's guard is constant false (or that no rule
    handles): inline, so that C drops their calls (the kernel's events stay overridable)."""
    never = ir.Const(ir.BOOL, False)
    return {name for name, event in program.events.items() if name not in KERNEL_EVENTS
            and all(guards.get(h.function) == never for h in event.handlers)}


def _optimized_code(program: ir.Program, effects: Effects) -> dict:
    """What the templates need to write optimized code: exception specifications, the
    unwinding checks, C division, the indexes and the hoisted guards."""
    tables = {t.name: t for t in program.tables if t.stride == 1}
    hoisted = _hoisted_context(program)
    counted = depth_counted(program)
    return {
        "fx": effects,
        **kept_context(program),
        "exception_spec": lambda name, returns, raises=False: exception_spec(effects, name,
                                                                             returns, raises),
        "unwinding_call": lambda e: node_unwinds(e, effects),
        "c_division": lambda e: (nonnegative(e.left, tables) and isinstance(e.right, ir.Const)
                                 and nonnegative(e.right, tables) and e.right.value != 0),
        "walk_local_decls": walk_local_decls,
        "loop_walk_locals": loop_walk_locals,
        "hoisted_guards": hoisted_guards(program, effects),
        "idle_events": idle_events(program, hoisted_guards(program, effects)),
        **hoisted,
        "recursive_functions": [f.name for f in program.functions if f.name in counted],
        "inlined_functions": inlined_functions(program, effects) | called_once(program, effects),
        "entry_tests": entry_tests(program, effects),
        "function_origins": function_origins(program),
        "rules_line": lambda span: f"{PurePath(span.path).name}:{span.line}",
        "indexes": {ix.name: ix for ix in program.indexes},
        "kept_guards": {a.name: a for a in program.aggregates if a.kept},
        "words_first": words_first(program, effects, hoisted["lazy_hoisted"]),
        "counter_indexes": {ix.name: ix for ix in program.counter_indexes},
        "count_array": count_array,
        "count_size": count_size,
        "whole_word": whole_word,
        "indexed_counters": {ix.counter: ix for ix in program.counter_indexes},
        "describe": ir_text.aggregate,
        "versions": MemoVersions.of(program),
        "counts_changes": bool(window_sites(program)),
        "blind_counters": program.blind_counters,
        "wide": Ranges(program).wide,
        **order_context(effects),
    }


def _hoisted_context(program: ir.Program) -> dict[str, object]:
    """The values the hoist pass computes once before a walk, by name, and the names of the
    lazy ones (worked out where first needed: the template writes their expression there)."""
    uses = [*(n for a in program.aggregates for n in aggregate_nodes(a)),
            *(n for d in program.decisions for n in walk_expr(d.walk_where))]
    return {"hoisted_values": {name: e for h in (*program.aggregates, *program.decisions)
                               for name, e in h.hoisted},
            "lazy_hoisted": frozenset(n.name for n in uses
                                      if isinstance(n, ir.Hoisted) and n.lazy)}


def window_sites(program: ir.Program) -> set[ir.Expr]:
    """The numbers of the program's windows (each closes with k_close_window). Only when
    there is one does every counter write count itself in k_changes: payments, moves and
    cards are counted by the kernel anyway."""
    return {e.args[0] for f in program.functions for e in body_exprs(f.body)
            if isinstance(e, ir.KernelCall) and e.function == "k_close_window"}


def generate(program: ir.Program, source_name: str, effects: Effects | None = None) -> str:
    """The edition's module source (`effects` as the pipeline analysed them, else afresh)."""
    effects = effects if effects is not None else analyse(program)
    die_faces: list[int] = []
    for die in program.dice:
        die_faces += padded(die.faces, CAPACITY["faces"])
    card_deck = [0] * len(program.card_ids)
    for d, deck in enumerate(program.decks):
        for card in deck.cards:
            card_deck[card] = d
    board_arrays = {
        "track_of": padded(program.track, CAPACITY["spaces"]),
        "space_at_track": padded(program.space_of_track, CAPACITY["spaces"]),
        "die_faces": padded(die_faces, CAPACITY["dice"] * CAPACITY["faces"]),
        "die_size": padded([len(d.faces) for d in program.dice], CAPACITY["dice"]),
        "deck_first": padded([d.first_card for d in program.decks], CAPACITY["decks"]),
        "deck_size": padded([len(d.cards) for d in program.decks], CAPACITY["decks"]),
        "card_deck": padded(card_deck, CAPACITY["cards"]),
        "pass_mask": padded(pass_mask(program, effects), CAPACITY["spaces"]),
    }
    rest_first, rest_mask = land_rest(program, effects)
    if rest_first >= 0:  # the Game's own array (space_guards.py)
        board_arrays["land_rest"] = rest_mask
    optimized = _optimized_code(program, effects)
    context = {
        "version": __version__,
        "source": source_name,
        "p": program,
        "kernel": kernel_source(),
        "entity_count": _entity_count(program),
        "counter_size": _counter_size(program),
        "game_arrays": _game_arrays(program, board_arrays, optimized["versions"]),
        "unwinds": raises_unwind(program, effects),
        "turn_over_handled": bool(program.events["turn_over"].handlers),
        # the kernel's events the game loop raises: their handlers inline in it too
        "loop_events": ("turn", "turn_over"),
        # the kernel's event the edition's move raises (k_land calls it directly): inline,
        # so that C may take a landing into the move with no frame of its own
        "move_events": ("land",),
        # the land event's last handlers skipped together where none runs: the first's
        # position (-1: none skipped) and the spaces' flags
        "land_rest": (rest_first, rest_mask),
        **_reflection(program),
        **optimized,
    }
    return fill_state_code(environment().get_template("module.py.j2").render(context))


def generate_scenarios(program: ir.Program, source_name: str,
                       effects: Effects | None = None) -> str:
    """The edition's test layer: its scenarios' steps, as plain Python run by the harness.

    Rendered with the production module's macros, apart from it: editing a scenario leaves
    the production module, and so its compiled extension, unchanged."""
    effects = effects if effects is not None else analyse(program)
    context = {
        "version": __version__,
        "source": source_name,
        "p": program,
        "entity_count": _entity_count(program),
        "kernel_constants": kernel_constants("UNWIND_"),
        **_optimized_code(program, effects),
        # a step writes counters through the reflection API, which keeps the indexes and
        # the memo versions
        "indexed_counters": {},
        "sums_read": no_sums,
        "versions": MemoVersions(),
        "counts_changes": False,
        "blind_counters": frozenset(),
        **order_context(effects, production=False),  # Python keeps the order by itself
    }
    return environment().get_template("scenarios.py.j2").render(context)


def _game_arrays(program: ir.Program, kernel: dict[str, list[int]],
                 versions: MemoVersions) -> list[tuple[str, str]]:
    """Every array a new game sets, and its starting value as code: the kernel's board, dice
    and deck arrays, the tables, the indexes, the counters and the memos' versions per
    entity."""
    sizes = _counter_size(program)
    arrays = [(name, repr(values)) for name, values in kernel.items()]
    arrays += [(name, f"[0] * {CAPACITY['decks']}") for name in ("deck_head", "deck_count")]
    arrays += [(ident(t.name, "t_"), repr(list(t.values) or [0])) for t in program.tables]
    for ix in program.indexes:
        arrays += [(ident(ix.name, "s_"), repr(list(ix.starts))),
                   (ident(ix.name, "m_"), repr(list(ix.items) or [0]))]
    arrays += [(ident(c.name, "c_"), f"[{c.initial[0]}] * {max(sizes[c.owner] * c.stride, 1)}")
               for c in program.counters if c.owner or c.stride > 1]
    indexes = {ix.name: ix for ix in program.indexes}
    for cx in program.counter_indexes:
        arrays += [(ident(cx.counter, "vxn_"), f"[0] * {cx.values}"),
                   (ident(cx.counter, "vxm_"), f"[0] * {cx.values * cx.entities}")]
        if cx.bits:
            arrays.append((ident(cx.counter, "vxb_"), f"[0] * {cx.values}"))
        arrays += [(count_array(cx, table), f"[0] * {count_size(cx, indexes[table])}")
                   for table in cx.counted_by]
        arrays += [(whole_word(cx, table), f"[0] * {cx.values}") for table in cx.whole_by]
    arrays += kept_arrays(program)
    # a version per entity starts at 1, as the whole counters' do: above a slot's empty stamp
    arrays += [(ident(array, "mvk_"), f"[1] * {sizes[array.split('_')[0]]}")
               for array in versions.per_entity]
    arrays += [(ident(f.name, ""), f"[1] * {f.values}")
               for f in (*versions.owner_arrays, *versions.per_field)]
    if program.card_key:  # each card's key for its holders' versions (hand_keys.py)
        arrays.append(("card_key", repr(padded(card_keys(program), CAPACITY["cards"]))))
    return arrays


def count_array(cx: derived.CounterIndex, table_index: str) -> str:
    """The array of a counter index's counts by the keys of a table index (counts.py)."""
    return ident(f"{cx.counter}_by_{table_index}", "vxc_")


def whole_word(cx: derived.CounterIndex, table_index: str, prefix: str = "vxw_") -> str:
    """The array (or, with prefix vxwhole_, the method) of a counter index's words of whole
    keys of a table index (optimize/wholes.py)."""
    return ident(f"{cx.counter}_by_{table_index}", prefix)


def count_size(cx: derived.CounterIndex, ix: derived.Index) -> int:
    return (len(ix.starts) - 2) * cx.values


def _entity_count(program: ir.Program) -> dict[str, int | str]:
    """How many entities of each kind there are (the players' count is known in a game)."""
    return {
        "player": "self.n_players", "space": len(program.space_ids),
        "group": len(program.group_ids), "card": len(program.card_ids),
        "cell": program.cell_count,
    }


def _counter_size(program: ir.Program) -> dict[str, int]:
    """The slots of a per-entity counter, by owner ("" for a global one)."""
    return {
        "": 1, "player": CAPACITY["players"], "space": len(program.space_ids),
        "group": len(program.group_ids), "card": len(program.card_ids),
        "cell": program.cell_count,
    }


def _reflection(program: ir.Program) -> dict[str, list]:
    """What the production module's reflection API reaches by name: arrays (name, size,
    writable), single values (name) and callables (name, arity, how invoke returns its
    result: _result_kind)."""
    sizes = _counter_size(program)
    arrays = [(ident(t.name, "t_"), max(len(t.values), 1), False) for t in program.tables]
    values = []
    for c in program.counters:
        if c.owner or c.stride > 1:
            arrays.append((ident(c.name, "c_"), max(sizes[c.owner] * c.stride, 1), True))
        else:
            values.append(ident(c.name, "g_"))
    arrays += [(name, size, True) for name, size in KERNEL_ARRAY_SIZE.items()]
    arrays += [(name, size, False) for name, size in KERNEL_READ_ONLY.items()]
    values += KERNEL_VALUES
    calls = [(f.name, len(f.params), _result_kind(f.returns)) for f in program.functions]
    calls += [(a.name, len(a.params), _result_kind(a.type)) for a in program.aggregates]
    calls += [(ident(d.name, "decide_"), len(d.params), "bool" if d.kind == "bool" else "int")
              for d in program.decisions]
    calls += [(ident(d.name, "draw_"), len(d.params), "int") for d in program.decks]
    calls += [(ident(name, "event_"), len(e.params), "int")
              for name, e in program.events.items()]
    kernel = kernel_result_kinds()
    calls += [(name, arity, kernel.get(name, "")) for name, arity in KERNEL_CALLS.items()]
    return {"reflect_arrays": arrays, "reflect_values": values, "reflect_calls": calls}


# The Cython types of the IR's types that are not a C int (numbers, entities, enums, and
# the status int of a procedure that returns nothing)
CYTHON_TYPES = {"bool": "cython.bint", "str": "str", "check": "tuple"}
# How `invoke` hands a C result to Python: as a C int kept for one conversion at its end
# ("int"), as a truth value ("bool"); any other result at once
RESULT_KINDS = {"cython.int": "int", "cython.bint": "bool"}


def minus(offset: int) -> str:
    """Code that subtracts an index's offset from the code before it: nothing for 0, an
    addition for a negative one (`k + 1`, not `k - (-1)`)."""
    offset = int(offset)  # a table of truth values has the offset False
    if offset == 0:
        return ""
    return f" + {-offset}" if offset < 0 else f" - {offset}"


def cython_type(t: ir.Type) -> str:
    """The Cython type of a value of type t (the templates' `ctype` filter)."""
    return CYTHON_TYPES.get(t.name, "cython.int")


def _result_kind(t: ir.Type) -> str:
    """How `invoke` hands a generated function's result to Python (RESULT_KINDS)."""
    return RESULT_KINDS.get(cython_type(t), "")


@lru_cache(maxsize=1)
def kernel_result_kinds() -> dict[str, str]:
    """The kernel methods that return a C int or truth value, by name (see _result_kind)."""
    found = re.findall(r"^    def (\w+)\(self[^)]*\) -> ([\w.]+):", kernel_source(), re.MULTILINE)
    return {name: RESULT_KINDS[ctype] for name, ctype in found if ctype in RESULT_KINDS}
