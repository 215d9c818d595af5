"""The abstract syntax tree: frozen dataclasses, each node with its source span.

The tree mirrors the surface language one to one; names are not resolved yet
(that is the checker's job), so every reference is a plain string here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.diagnostics import Span


@dataclass(frozen=True)
class Node:
    span: Span


# ---- provenance -------------------------------------------------------------


@dataclass(frozen=True)
class Quote(Node):
    text: str


@dataclass(frozen=True)
class Assume(Node):
    reason: str


Provenance = Quote | Assume


# ---- types ------------------------------------------------------------------


@dataclass(frozen=True)
class TypeRef(Node):
    name: str
    optional: bool = False
    length: int = 0  # > 0 for a fixed-length list field such as `levels: int[6]`
    index_enum: str = ""  # a list indexed by an enum's members: `resources: int[resource]`


# ---- expressions ------------------------------------------------------------


@dataclass(frozen=True)
class Expr(Node):
    pass


@dataclass(frozen=True)
class IntLit(Expr):
    value: int


@dataclass(frozen=True)
class StrLit(Expr):
    value: str


@dataclass(frozen=True)
class BoolLit(Expr):
    value: bool


@dataclass(frozen=True)
class NoneLit(Expr):
    pass


@dataclass(frozen=True)
class Name(Expr):
    name: str


@dataclass(frozen=True)
class Attr(Expr):
    target: Expr
    name: str


@dataclass(frozen=True)
class Index(Expr):
    target: Expr
    index: Expr


@dataclass(frozen=True)
class Call(Expr):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Ask(Expr):
    decision: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class BinOp(Expr):
    op: str  # + - * / % == != < <= > >= and or
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True)
class Cond(Expr):
    test: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Domain(Node):
    kind: str  # players | spaces | groups | cells | cards | enum | range | legal
    name: str = ""  # deck or enum name
    low: Expr | None = None
    high: Expr | None = None


@dataclass(frozen=True)
class Order(Node):
    """`by KEY [desc]`: members in the order of their keys (ties in the domain's order)."""

    key: Expr
    desc: bool = False


@dataclass(frozen=True)
class Aggregate(Expr):
    kind: str  # count | sum | any | all | max_of | min_of | best | first_of
    value: Expr | None
    var: str
    domain: Domain
    where: Expr | None
    order: Order | None = None


# ---- statements ---------------------------------------------------------------


@dataclass(frozen=True)
class Stmt(Node):
    pass


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    type: TypeRef | None
    value: Expr


@dataclass(frozen=True)
class Assign(Stmt):
    target: Expr  # Name, Attr or Index
    op: str  # = += -= *=
    value: Expr


@dataclass(frozen=True)
class CallStmt(Stmt):
    call: Call


@dataclass(frozen=True)
class If(Stmt):
    test: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...]


@dataclass(frozen=True)
class While(Stmt):
    test: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class For(Stmt):
    var: str
    domain: Domain
    where: Expr | None
    body: tuple[Stmt, ...]
    order: Order | None = None


@dataclass(frozen=True)
class Window(Stmt):
    """`window q from p [rounds n] { body }`: an out-of-turn window (statements.py)."""

    var: str
    start: Expr
    rounds: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Return(Stmt):
    value: Expr | None


@dataclass(frozen=True)
class Trigger(Stmt):
    event: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Draw(Stmt):
    deck: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class EndTurn(Stmt):
    pass


@dataclass(frozen=True)
class Break(Stmt):
    """Leave the innermost for or while loop."""


@dataclass(frozen=True)
class EndGame(Stmt):
    winner: Expr | None = None  # `end game winner p`: the game ends and p wins


# ---- declarations ---------------------------------------------------------------


@dataclass(frozen=True)
class Param(Node):
    name: str
    type: TypeRef


@dataclass(frozen=True)
class Decl(Node):
    pass


@dataclass(frozen=True)
class Edition(Decl):
    title: str
    props: tuple[tuple[str, tuple[Expr, ...], Span], ...]


@dataclass(frozen=True)
class Import(Decl):
    name: str


@dataclass(frozen=True)
class ParamDecl(Decl):
    name: str
    type: TypeRef
    value: Expr | None
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class DecisionDefault(Decl):
    """`decision NAME default EXPR`: a new default for a decision declared elsewhere (an
    edition's own choice for a library's decision), over the decision's parameters."""

    name: str
    value: Expr
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class SetParam(Decl):
    name: str
    value: Expr
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class EnumDecl(Decl):
    name: str
    members: tuple[str, ...]
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class FieldDecl(Decl):
    owner: str  # space | group | card | player
    name: str
    type: TypeRef
    default: Expr | None


@dataclass(frozen=True)
class CounterDecl(Decl):
    owner: str  # space | player | group | card | cell | "" for the game
    name: str
    type: TypeRef
    initial: Expr | None
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class OptionDecl(Decl):
    """A variant chosen when a game is created (`--option name=value`), fixed for the game."""

    name: str
    type: TypeRef
    default: Expr
    title: str
    provenance: tuple[Provenance, ...]
    # the options that may not be chosen with this one (`excludes short_game`), each with
    # the span of its name
    excludes: tuple[tuple[str, Span], ...] = ()
    # an int option's values, `from LOW to HIGH` (None: any 32-bit int)
    bounds: tuple[Expr, Expr] | None = None


@dataclass(frozen=True)
class FieldValue(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class GroupDecl(Decl):
    name: str
    title: str
    values: tuple[FieldValue, ...]
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class SpaceDecl(Decl):
    name: str
    title: str
    kind: str
    offboard_at: str  # "" when the space is on the track
    values: tuple[FieldValue, ...]
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class Board(Decl):
    spaces: tuple[SpaceDecl, ...]


@dataclass(frozen=True)
class DieDecl(Decl):
    name: str
    faces: tuple[Expr, ...]
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class CardDecl(Decl):
    name: str
    text: str
    keep: bool
    values: tuple[FieldValue, ...]
    effect: tuple[Stmt, ...]
    provenance: tuple[Provenance, ...]
    copies: int = 1  # identical cards; the name stands for the first, ids get _2, _3...


@dataclass(frozen=True)
class DeckDecl(Decl):
    name: str
    params: tuple[Param, ...]
    title: str
    cards: tuple[CardDecl, ...]
    provenance: tuple[Provenance, ...]
    hidden: bool = False  # `hidden`: a card's face is seen only by its holder


@dataclass(frozen=True)
class GridDecl(Decl):
    name: str
    width: int
    height: int
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class EventDecl(Decl):
    name: str
    params: tuple[Param, ...]


@dataclass(frozen=True)
class DecisionDecl(Decl):
    name: str
    params: tuple[Param, ...]
    by: Expr
    kind: str  # bool | int | entity
    optional: bool
    low: Expr | None
    high: Expr | None
    entity_type: str
    var: str
    where: Expr | None
    default: Expr | None
    prompt: str
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class ProcDecl(Decl):
    name: str
    params: tuple[Param, ...]
    returns: TypeRef | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class HandlerOrder(Node):
    """`before r` / `after r`: this handler runs before (after) rule r's handlers of the
    same event, wherever the two stand in the files."""

    relation: str  # "before" or "after"
    rule: str


@dataclass(frozen=True)
class Handler(Node):
    event: str
    params: tuple[Param, ...]
    guard: Expr | None
    body: tuple[Stmt, ...]
    order: tuple[HandlerOrder, ...] = ()


@dataclass(frozen=True)
class RuleDecl(Decl):
    name: str
    provenance: tuple[Provenance, ...]
    handlers: tuple[Handler, ...]


@dataclass(frozen=True)
class UseRule(Decl):
    name: str
    provenance: tuple[Provenance, ...]


@dataclass(frozen=True)
class Waive(Decl):
    text: str
    reason: str


@dataclass(frozen=True)
class Equivalent(Decl):
    """A mutant the scenarios cannot kill because it behaves like the rules (boardrules
    mutate): `equivalent "proc auction: `a` -> `b`" because "reason"`."""

    mutant: str
    reason: str


@dataclass(frozen=True)
class Assumption(Decl):
    name: str
    reason: str


@dataclass(frozen=True)
class GameProp(Node):
    # over | rounds (over after N rounds) | bankruptcy (over at first bankruptcy, value: its
    # condition) | score | valuation (a score with a condition) | turn_limit | first
    kind: str
    value: Expr
    params: tuple[Param, ...]
    provenance: tuple[Provenance, ...]
    condition: Expr | None = None  # a valuation's `when`
    # a score's tie-breakers (`score(p) = A then B then C`: B, C), compared in order
    tie_breaks: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class GameDecl(Decl):
    props: tuple[GameProp, ...]


@dataclass(frozen=True)
class ScenarioStep(Node):
    kind: str  # players | given | dice | random | cards | answer | option | policy | play
    # | expect | legal | not_asked | use (a fixture's name, gone once the collector expands it)
    name: str = ""
    exprs: tuple[Expr, ...] = ()
    names: tuple[str, ...] = ()
    body: tuple[Stmt, ...] = ()
    count: int = 0
    text: str = ""  # the step's source text, quoted when an expectation fails
    negated: bool = False  # expect not legal(...)
    seat_span: Span | None = None  # answer D by p2: where the seat (in names) is written


@dataclass(frozen=True)
class Scenario(Decl):
    title: str
    rule: str
    steps: tuple[ScenarioStep, ...]
    suite: str = ""  # "conformance" for a conformance suite's (conformance/*.rules)


@dataclass(frozen=True)
class Fixture(Decl):
    """`fixture NAME { STEPS }`: a setup that scenarios share by `use NAME`."""

    name: str
    steps: tuple[ScenarioStep, ...]


@dataclass(frozen=True)
class Module(Node):
    """One parsed .rules file: an edition or a shared library."""

    path: str
    decls: tuple[Decl, ...]
