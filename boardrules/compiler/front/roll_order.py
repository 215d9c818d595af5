"""Which die the rules may roll after which: the order a scenario's scripted dice are checked in.

Which die a turn rolls when is known only at run time in general, but the rules' code bounds
it. This analysis over-approximates the sequences of `roll(...)` calls one turn can make, as
an automaton whose states are the roll sites (each `roll(d)` in the code): the Glushkov
construction over the control flow, through procedure calls, triggered events, moves (their
pass and land events), draws (any card's effect), decisions and aggregates, with early
returns and `end turn`/`end game` (after which the turn rolls nothing more). Every sequence
of rolls a turn can make is a path of the automaton, so a scripted sequence that no path fits
cannot be rolled as written (`dice [storm, 1]` where the turn rolls the number first), and a
sequence whose every fitting path must go on rolling leaves the turn short of scripted dice.
A path need not be possible: the check may accept what fails at run time (the harness checks
each roll there), never the reverse.

A fragment of code is summarised by the sites it may roll first and last, whether it may
finish without rolling, and the same for its two other exits: a `return` (up to its
function's caller) and the end of the turn (up to the game loop). Sequencing two fragments
adds the edges "the last roll of the first may be followed by the first roll of the second";
loops add them from a body's last rolls to its first. Function summaries are computed to a
fixed point over the call graph (rules may recurse through moves), then the edges once more.
Tests that fold to a constant (`if dice_count == 2` with the param set) keep one branch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import nodes as ir
from ..ir.optimize.walk import domain_exprs
from .expressions import fold

EMPTY: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Frag:
    """What running a piece of code may roll: its first and last rolls, on each way out."""

    first: frozenset[int] = EMPTY  # sites that may be its first roll
    nullable: bool = True  # it may finish (fall through) without rolling
    last: frozenset[int] = EMPTY  # sites that may be its last roll when it finishes
    xnull: bool = False  # it may return (to its function's caller) without rolling
    xlast: frozenset[int] = EMPTY  # ...the last roll before such a return
    tnull: bool = False  # it may end the turn without rolling
    tlast: frozenset[int] = EMPTY  # ...the last roll before the turn ends


EPSILON = Frag()
NEVER = Frag(nullable=False)  # a function's summary before the fixed point reaches it
RETURN = Frag(nullable=False, xnull=True)
END = Frag(nullable=False, tnull=True)


def _alt(a: Frag, b: Frag) -> Frag:
    return Frag(a.first | b.first, a.nullable or b.nullable, a.last | b.last,
                a.xnull or b.xnull, a.xlast | b.xlast, a.tnull or b.tnull, a.tlast | b.tlast)


@dataclass
class RollOrder:
    """The automaton: the die of each site, and which site may follow which."""

    dice: list[int] = field(default_factory=list)  # die index per site
    where: list[str] = field(default_factory=list)  # the function rolling it, per site
    follow: dict[int, set[int]] = field(default_factory=dict)
    turn: Frag = EPSILON  # one turn, as a scenario's `play` runs it
    summaries: dict[str, Frag] = field(default_factory=dict)
    skeletons: dict[str, object] = field(default_factory=dict)

    def turn_ends_after(self, site: int) -> bool:
        """Whether the turn may roll nothing more after this site."""
        return site in self.turn.last or site in self.turn.tlast


# The code as the analysis sees it, a skeleton built once per function: None (nothing
# that rolls, returns or ends the turn), ("site", n), ("call", name), ("seq", parts),
# ("alt", parts) (None among them: optional), ("star", part), RETURN_NODE, END_NODE.
Node = object
RETURN_NODE = ("return",)
END_NODE = ("end",)


def _seq(*parts: Node) -> Node:
    kept = tuple(p for p in parts if p is not None)
    return None if not kept else kept[0] if len(kept) == 1 else ("seq", kept)


def _alt_node(*parts: Node) -> Node:
    return None if all(p is None for p in parts) else ("alt", parts)


def _star(part: Node) -> Node:
    return None if part is None else ("star", part)


class _Skeletons:
    """Pass 1: every function's skeleton, numbering the roll sites in code order."""

    def __init__(self, order: RollOrder):
        self.order = order
        self.unit = ""

    def expr(self, e: ir.Expr | None) -> Node:
        match e:
            case None | ir.Const() | ir.Local() | ir.Hoisted() | ir.Builtin():
                return None
            case ir.KernelCall():
                args = _seq(*(self.expr(a) for a in e.args))
                if e.function == "k_roll":
                    die = fold(e.args[0]) if e.args else None
                    self.order.dice.append(die if isinstance(die, int) else -1)
                    self.order.where.append(self.unit)
                    return _seq(args, ("site", len(self.order.dice) - 1))
                if e.function in ("k_move", "k_move_to"):
                    return _seq(args, ("star", ("call", "event_pass")), ("call", "event_land"))
                if e.function == "k_declare_bankrupt":  # may end the game
                    return _seq(args, ("alt", (END_NODE, None)))
                return args
            case ir.CallProc():
                return _seq(*(self.expr(a) for a in e.args), ("call", e.function))
            case ir.Binary(op="and" | "or"):
                return _seq(self.expr(e.left), _alt_node(self.expr(e.right), None))
            case ir.Conditional():
                return _seq(self.expr(e.test), _alt_node(self.expr(e.then),
                                                         self.expr(e.otherwise)))
        return _seq(*(self.expr(c) for c in (getattr(e, name, None) for name in _CHILDREN)
                      if isinstance(c, ir.Expr)))

    def block(self, body: tuple[ir.Stmt, ...]) -> Node:
        return _seq(*(self.stmt(s) for s in body))

    def stmt(self, s: ir.Stmt) -> Node:
        match s:
            case ir.Declare():
                return self.expr(s.value)
            case ir.Return():
                return _seq(self.expr(s.value), RETURN_NODE)
            case ir.Assign():
                return _seq(self.expr(s.value), self.expr(s.target))
            case ir.Evaluate():
                return self.expr(s.expr)
            case ir.If():
                known = constant(s.test)
                if known is not None:
                    return self.block(s.then if known else s.otherwise)
                return _seq(self.expr(s.test), _alt_node(self.block(s.then),
                                                         self.block(s.otherwise)))
            case ir.While():
                if constant(s.test) is False:
                    return None
                test = self.expr(s.test)
                return _seq(test, _star(_seq(self.block(s.body), test)))
            case ir.Loop():  # an ordered walk takes its members and keys first
                picked = _star(_seq(self.expr(s.order_where), _alt_node(self.expr(s.order), None)))
                each = _seq(self.expr(s.where), _alt_node(self.block(s.body), None))
                return _seq(*(self.expr(e) for e in domain_exprs(s.domain)), picked, _star(each))
            case ir.Raise():
                return END_NODE
        return None

    def unit_node(self, name: str, unit: object) -> Node:
        """The code a function (or decision, draw, event) runs, from its start."""
        self.unit = name
        match unit:
            case ir.Function():
                body = self.block(unit.body)
                return _seq(self.expr(unit.guard), _alt_node(body, None)
                            if unit.guard is not None else body)
            case ir.Aggregate():
                each = _seq(self.expr(unit.where), _alt_node(self.expr(unit.value), None))
                return _seq(*(self.expr(e) for e in domain_exprs(unit.domain)), _star(each))
            case ir.Decision():
                parts = (unit.by, unit.low, unit.high, *domain_exprs(unit.domain))
                return _seq(*(self.expr(e) for e in parts), _star(self.expr(unit.where)),
                            _alt_node(self.expr(unit.default), None))
            case ir.Deck():  # an empty deck, or a card without an effect, runs nothing
                return _alt_node(None, *(("call", effect) for effect in unit.effects if effect))
            case ir.Event():
                return _seq(*(_alt_node(_seq(self.expr(h.guard), ("call", h.function)), None)
                              for h in unit.handlers))
        return None


_CHILDREN = ("entity", "element", "holds", "left", "right", "operand")


class _Summaries:
    """Passes 2 and 3: function summaries to a fixed point, then the follow edges."""

    def __init__(self, order: RollOrder):
        self.order = order
        self.recording = False

    def seq(self, a: Frag, b: Frag) -> Frag:
        if self.recording and b.first:
            for site in a.last:
                self.order.follow.setdefault(site, set()).update(b.first)
        return Frag(
            a.first | (b.first if a.nullable else EMPTY), a.nullable and b.nullable,
            b.last | (a.last if b.nullable else EMPTY),
            a.xnull or (a.nullable and b.xnull), a.xlast | b.xlast | (a.last if b.xnull else EMPTY),
            a.tnull or (a.nullable and b.tnull), a.tlast | b.tlast | (a.last if b.tnull else EMPTY),
        )

    def star(self, a: Frag) -> Frag:
        """Zero or more times."""
        if self.recording:
            for site in a.last:
                self.order.follow.setdefault(site, set()).update(a.first)
        return Frag(a.first, True, a.last, a.xnull, a.xlast | (a.last if a.xnull else EMPTY),
                    a.tnull, a.tlast | (a.last if a.tnull else EMPTY))

    def call(self, name: str) -> Frag:
        """Calling a function: its returns come back here; its end of the turn does not."""
        if name not in self.order.skeletons:
            return EPSILON  # a kernel primitive, or code that rolls nothing and ends nothing
        s = self.order.summaries.get(name, NEVER)
        return Frag(s.first, s.nullable or s.xnull, s.last | s.xlast, False, EMPTY,
                    s.tnull, s.tlast)

    def frag(self, node: Node) -> Frag:
        if node is None:
            return EPSILON
        kind = node[0]  # type: ignore[index]
        if kind == "site":
            only = frozenset({node[1]})  # type: ignore[index]
            return Frag(only, False, only)
        if kind == "call":
            return self.call(node[1])  # type: ignore[index]
        if kind == "seq":
            result = EPSILON
            for part in node[1]:  # type: ignore[index]
                result = self.seq(result, self.frag(part))
            return result
        if kind == "alt":
            frags = [self.frag(part) for part in node[1]]  # type: ignore[index]
            result = frags[0]
            for other in frags[1:]:
                result = _alt(result, other)
            return result
        if kind == "star":
            return self.star(self.frag(node[1]))  # type: ignore[index]
        return RETURN if node is RETURN_NODE else END

    def run(self) -> None:
        summaries = self.order.summaries
        changed = True
        while changed:
            changed = False
            for name, node in self.order.skeletons.items():
                frag = self.frag(node)
                if summaries.get(name) != frag:
                    summaries[name] = frag
                    changed = True
        self.recording = True
        for node in self.order.skeletons.values():
            self.frag(node)


def _units(program: ir.Program) -> dict[str, object]:
    units: dict[str, object] = {}
    for f in program.functions:
        units[f.name] = f
    for a in program.aggregates:
        units[a.name] = a
    for d in program.decisions:
        units[f"decide_{d.name}"] = d
    for deck in program.decks:
        units[f"draw_{deck.name}"] = deck
    for name, event in program.events.items():
        units[f"event_{name}"] = event
    return units


def _live(skeletons: dict[str, Node]) -> set[str]:
    """The functions that may roll or end the turn, themselves or through what they call."""
    calls: dict[str, set[str]] = {}
    live: set[str] = set()
    for name, node in skeletons.items():
        found: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if n is None or n is RETURN_NODE:
                continue
            kind = n[0]  # type: ignore[index]
            if kind in ("site", "end"):
                live.add(name)
            elif kind == "call":
                found.add(n[1])  # type: ignore[index]
            elif kind == "star":
                stack.append(n[1])  # type: ignore[index]
            else:
                stack.extend(n[1])  # type: ignore[index]
        calls[name] = found
    changed = True
    while changed:
        changed = False
        for name, called in calls.items():
            if name not in live and called & live:
                live.add(name)
                changed = True
    return live


def roll_order(program: ir.Program) -> RollOrder:
    """The roll sites of the program and the order a turn may roll them in."""
    order = RollOrder()
    skeletons = _Skeletons(order)
    nodes = {name: skeletons.unit_node(name, unit) for name, unit in _units(program).items()}
    live = _live(nodes)
    order.skeletons = {name: node for name, node in nodes.items() if name in live}
    summaries = _Summaries(order)
    summaries.run()
    skeletons.unit = "<turn>"
    summaries.recording = True
    turn = _settled(summaries.frag(("call", "event_turn")))
    over = _settled(summaries.frag(("call", "event_turn_over")))
    order.turn = summaries.seq(summaries.seq(turn, over),
                               summaries.frag(skeletons.expr(program.over_when)))
    return order


def _settled(frag: Frag) -> Frag:
    """Code the game loop runs: its `end turn` comes back to the loop, which goes on with
    the `turn_over` handlers (an `end game` does not, but a path need not be possible)."""
    return Frag(frag.first, frag.nullable or frag.tnull, frag.last | frag.tlast,
                frag.xnull, frag.xlast)


def may_roll(order: RollOrder, function: ir.Function) -> bool:
    """Whether a function (a scenario's given or expectation) may roll a die."""
    skeletons = _Skeletons(RollOrder())
    return bool(_Summaries(order).frag(skeletons.unit_node(function.name, function)).first)


def constant(e: ir.Expr) -> bool | None:
    """A test's value when it is known while compiling (params folded), else None."""
    value = _value(e)
    return None if value is None else bool(value)


def _value(e: ir.Expr) -> int | None:
    match e:
        case ir.Unary(op="not"):
            inner = _value(e.operand)
            return None if inner is None else int(not inner)
        case ir.Binary(op=op) if op in ("==", "!=", "<", "<=", ">", ">=", "and", "or"):
            left, right = _value(e.left), _value(e.right)
            if op == "and" and (left == 0 or right == 0):
                return 0
            if op == "or" and (left not in (None, 0) or right not in (None, 0)):
                return 1
            if left is None or right is None:
                return None
            return int({"==": left == right, "!=": left != right, "<": left < right,
                        "<=": left <= right, ">": left > right, ">=": left >= right,
                        "and": bool(left and right), "or": bool(left or right)}[op])
    value = fold(e)
    return None if value is None else int(value)


