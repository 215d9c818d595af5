"""Filters over a few members split into one word of bits per argument.

`any(k in each good where p.stock[k] < wanted(p, k) and q.stock[k] > wanted(q, k))` asks,
for a pair of players, whether some good is one p lacks and q can spare. Memoized per pair,
it is worked out again whenever either player's stock changes: for every partner p
considers, each time. Its filter is two parts, each reading one of the parameters: the
goods p lacks and those q can spare are each a word of bits (a `mask` aggregate, memoized
per player), and the question is whether the two words meet. This pass makes each call of
such an aggregate ask its words instead: `lacking(p) & spare(q) != 0` (for a `count`, the
bits they share); in a walk of the partners, p's word is then asked once.

The words are worked out over every member, where the aggregate would have stopped at the
first that passes, and each part for every member, where the aggregate would have tested it
only on the members that passed the parts before it. That is safe only because a part is
pure (reads the game, changes nothing, cannot end the turn) and a word that fails (a rules
error, such as a 32-bit overflow, for any member) is kept as -1: the call then asks the
aggregate itself, which fails, or not, exactly where it would have.
"""

from __future__ import annotations

import dataclasses
from pathlib import PurePath

from ...common.diagnostics import Reporter
from .. import nodes as ir
from .conjuncts import chain_of, chained
from .effects import Effects, program_code
from .slots import dimension
from .walk import map_program_exprs, unused_name, walk_expr

# Members a word holds: bits 0 to 29, so that a word is a non-negative 32-bit int and -1
# (a part failed) stands apart.
MAX_MEMBERS = 30
FACTORED_KINDS = ("any", "count")


def _members(d: ir.Domain) -> int | None:
    """How many members a plain constant range has (one no other pass has rewritten)."""
    if (d.kind != "range" or d.index or d.others or d.kept or d.mask is not None
            or d.guarded or not isinstance(d.low, ir.Const) or not isinstance(d.high, ir.Const)):
        return None
    return int(d.high.value) - int(d.low.value)


def _parameters_read(e: ir.Expr, params: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n.name for n in walk_expr(e) if isinstance(n, ir.Local) and n.name in params)


def _reaching_recursion(program: ir.Program, fx: Effects) -> set[str]:
    """The functions that may call, directly or not, one that may call itself."""
    callers: dict[str, set[str]] = {}
    for name, code in program_code(program).items():
        for callee in code.calls:
            callers.setdefault(callee, set()).add(name)
    reaching, stack = set(fx.recursive), list(fx.recursive)
    while stack:
        for caller in callers.get(stack.pop(), set()) - reaching:
            reaching.add(caller)
            stack.append(caller)
    return reaching


def _splittable(e: ir.Expr, fx: Effects, recursion: set[str]) -> bool:
    """A part that may be worked out for every member, apart from the others: pure, not
    ending the turn, reaching nothing that may call itself (a word fails only as the walk
    could: by a rules error, which it keeps, not by the stack's depth)."""
    return fx.expr_is_pure(e) and not fx.expr_unwinds(e) and not any(
        isinstance(n, ir.CallProc) and n.function in recursion for n in walk_expr(e))


def _parts(a: ir.Aggregate, fx: Effects, program: ir.Program, recursion: set[str]
           ) -> list[tuple[tuple[str, ...], list[ir.Expr]]] | None:
    """The filter's conjuncts grouped by the parameters they read (in the parameters' order),
    when there are at least two groups, none reads them all, each reads the game's state, and
    each parameter is of a type with a memo slot per value: else None. (A word is worth it
    only kept in a memo: worked out again at every call, or for a part on declared data
    alone, which no memo keeps, it would cost more than the walk it replaces.)"""
    if any(dimension(t, program) is None for _, t in a.params):
        return None
    names = tuple(name for name, _ in a.params)
    groups: dict[frozenset[str], list[ir.Expr]] = {}
    for conjunct in chain_of(a.where, "and"):
        if not _splittable(conjunct, fx, recursion):
            return None
        groups.setdefault(_parameters_read(conjunct, names), []).append(conjunct)
    if len(groups) < 2 or frozenset(names) in groups or not all(
            any(isinstance(n, ir.State | ir.CallProc) for c in conjuncts for n in walk_expr(c))
            for conjuncts in groups.values()):
        return None
    return [(tuple(n for n in names if n in reads), conjuncts)
            for reads, conjuncts in groups.items()]


def _words_function(a: ir.Aggregate, count: int) -> ir.Function:
    """`<aggregate>_by_bits(params..., word0, word1...)`: the answer from the words, or, when
    one failed, the aggregate's own (inline in C: the caller asks the words, so that a word
    of a parameter its loop does not change is asked once, before the loop)."""
    taken = {name for name, _ in a.params}
    names = [unused_name(f"word{i}", taken) for i in range(count)]
    words = [ir.Local(ir.INT, name) for name in names]
    failed = ir.Binary(ir.BOOL, "<", chained(words, "|", ir.INT), ir.Const(ir.INT, 0))
    common = chained(words, "&", ir.INT)
    answer = (ir.Binary(ir.BOOL, "!=", common, ir.Const(ir.INT, 0)) if a.kind == "any"
              else ir.KernelCall(ir.INT, "bit_count", (common,)))
    itself = ir.CallProc(a.type, a.name, tuple(ir.Local(t, name) for name, t in a.params))
    at = f" at {PurePath(a.span.path).name}:{a.span.line}" if a.span else ""
    return ir.Function(f"{a.name}_by_bits", (*a.params, *((n, ir.INT) for n in names)),
                       a.type, (ir.Return(a.span, ir.Conditional(a.type, failed, itself, answer)),),
                       (), f"{a.kind} aggregate {a.name}{at}, from its words of bits",
                       span=a.span)


def _candidate(a: ir.Aggregate) -> bool:
    """An `any`/`count` with a filter over at most 30 members of a plain range."""
    size = _members(a.domain)
    return (a.kind in FACTORED_KINDS and a.where is not None and a.counted is None
            and size is not None and 0 < size <= MAX_MEMBERS)


def factor_masks(program: ir.Program, fx: Effects, reporter: Reporter) -> ir.Program:
    """Each call of an `any`/`count` over at most 30 members whose filter splits by
    parameter asks one `mask` aggregate per part (the same part twice: one aggregate)."""
    masks: dict[tuple, ir.Aggregate] = {}
    rewrites = {}
    recursion: set[str] | None = None  # worked out for the first candidate only
    for a in program.aggregates:
        if not _candidate(a):
            continue
        recursion = _reaching_recursion(program, fx) if recursion is None else recursion
        parts = _parts(a, fx, program, recursion)
        if parts is None:
            continue
        types = dict(a.params)
        positions = {name: i for i, (name, _) in enumerate(a.params)}
        words = []
        for number, (names, conjuncts) in enumerate(parts):
            where = chained(conjuncts, "and")
            key = (tuple((n, types[n]) for n in names), a.var, a.domain, where)
            if key not in masks:
                masks[key] = ir.Aggregate(f"{a.name}_bits{number}", "mask", key[0], a.var,
                                          a.domain, where, None, ir.INT, a.span)
            words.append((masks[key].name, tuple(positions[n] for n in names)))
        rewrites[a.name] = (_words_function(a, len(words)), words, a.kind)
    used: dict[str, ir.Function] = {}

    def ask_words(e: ir.Expr) -> ir.Expr:
        if not (isinstance(e, ir.CallProc) and e.function in rewrites
                and all(fx.expr_is_clean(arg) for arg in e.args)):  # each argument read again
            return e
        function, words, kind = rewrites[e.function]
        used[function.name] = function
        asked = tuple(ir.CallProc(ir.INT, mask, tuple(e.args[i] for i in at))
                      for mask, at in words)
        answer = ir.CallProc(e.type, function.name, (*e.args, *asked))
        if kind == "any":
            # an empty word answers at once; in a walk, the word of a parameter the walk
            # does not change is then tested before it (prechecks.py)
            return chained([*(ir.Binary(ir.BOOL, "!=", word, ir.Const(ir.INT, 0))
                              for word in asked), answer], "and")
        return answer

    program = map_program_exprs(program, ask_words)
    asked_masks = {name for function, words, _ in rewrites.values() if function.name in used
                   for name, _ in words}
    return dataclasses.replace(
        program, aggregates=(*program.aggregates,
                             *(m for m in masks.values() if m.name in asked_masks)),
        functions=(*program.functions, *used.values()))
