"""Which procedures on a cycle of calls count their depth: enough to cut every cycle.

A procedure that can call itself, directly or through others, counts each call (k_enter):
as depth, so that an endless recursion stops with the same located rules error on both
backends, and as a round of the turn, so that a recursion that branches stops too. One
counted procedure on every cycle is enough for both: a function is on the stack again only
through a cycle, so no function is on it more than the depth limit allows (the runtime's
PythonStack relies on that), and each trip round a cycle counts a round. Counting every
member of a cycle instead costs the hot ones a wrapper, a count and a call each time: the
payment of a debt, say, which a bankruptcy's settlement of mortgages may charge again.

So the counted procedures are a feedback set of the cycles, chosen among the functions of
the rules (an event, a card draw or an aggregate counts nothing), preferring those entered
least from outside their cycle (a handler of an event that only the cycle raises, rather
than the payment every rent calls): greedily, one per cycle left, then each that the others
make needless dropped again. It is chosen once, on the program as written (the call-budget
pass), so that the differential fuzzer's reference without optimizations counts the same
calls; code generation keeps that choice while it still cuts every cycle.
"""

from __future__ import annotations

from . import nodes as ir
from .optimize.effects import call_graph, cycles, program_code

Graph = dict[str, frozenset[str]]


def feedback_set(program: ir.Program) -> frozenset[str]:
    """The functions of the program that count their depth, chosen afresh."""
    return _choose(call_graph(program_code(program)), {f.name for f in program.functions})


def depth_counted(program: ir.Program) -> frozenset[str]:
    """The functions whose depth the generated code counts: the call-budget pass's choice
    while it still cuts every cycle of the program (the optimizations add none), the
    functions no longer on a cycle left out; else a choice made now."""
    graph = call_graph(program_code(program))
    candidates = {f.name for f in program.functions}
    cyclic = _cyclic_part(graph)
    chosen = program.depth_counted
    if chosen is not None and not _uncut(cyclic, chosen & cyclic.keys(), candidates):
        return frozenset(chosen & cyclic.keys())
    return _choose(graph, candidates)


def _cyclic_part(graph: Graph) -> Graph:
    """The graph restricted to the members of its cycles, each with its calls within its own
    cycle's component."""
    component_of = {name: i for i, c in enumerate(cycles(graph)) for name in c}
    return {name: frozenset(g for g in graph[name] if component_of.get(g) == i)
            for name, i in component_of.items()}


def _uncut(cyclic: Graph, cut: frozenset[str] | set[str], candidates: set[str]
           ) -> list[list[str]]:
    """The cycles left once `cut` is taken out that a function could still cut."""
    rest = {name: callees - cut for name, callees in cyclic.items() if name not in cut}
    return [c for c in cycles(rest) if any(name in candidates for name in c)]


def _choose(graph: Graph, candidates: set[str]) -> frozenset[str]:
    cyclic = _cyclic_part(graph)
    entered = _entries(graph, candidates)
    chosen: list[str] = []
    while left := _uncut(cyclic, set(chosen), candidates):
        for component in left:
            members = set(component)
            chosen.append(min((n for n in component if n in candidates), key=lambda n: (
                entered[n],
                -len(cyclic[n] & members) * sum(n in cyclic[m] for m in members),
                n)))
    for name in reversed(chosen[:]):
        if not _uncut(cyclic, set(chosen) - {name}, candidates):
            chosen.remove(name)
    return frozenset(chosen)


def _entries(graph: Graph, candidates: set[str]) -> dict[str, int]:
    """How many callers may enter each member of a cycle from outside its component: its
    own, and those of the events, draws and aggregates of its component that call it."""
    component_of = {name: i for i, c in enumerate(cycles(graph)) for name in c}
    outside = dict.fromkeys(component_of, 0)
    for caller, callees in graph.items():
        for callee in callees:
            if callee in component_of and component_of.get(caller) != component_of[callee]:
                outside[callee] += 1
    return {name: outside[name] + sum(
        outside[m] for m in graph if m not in candidates and name in graph[m]
        and component_of.get(m) == component_of[name]) for name in component_of}
