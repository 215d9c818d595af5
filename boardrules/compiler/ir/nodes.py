"""The lowered, edition-agnostic program that code generation walks.

Every name is resolved, every expression typed, every entity an integer index
(players, spaces, groups, cards, cells, enum members; -1 is "none"/the Bank),
and every aggregate lifted into its own function. Each node has a `tag` that
the Jinja templates dispatch on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from ..common.diagnostics import Span

# the language's types are the IR's too (re-exported: ir.INT, ir.Type, ...)
from ..common.lang_types import BOOL as BOOL
from ..common.lang_types import ENTITY_TYPES as ENTITY_TYPES
from ..common.lang_types import INT as INT
from ..common.lang_types import NONE as NONE
from ..common.lang_types import STR as STR
from ..common.lang_types import VOID as VOID
from ..common.lang_types import Type

if TYPE_CHECKING:  # what the optimizations attach to the nodes
    from .derived import CounterIndex, CountQuery, Index, Kept, KeptSum, Memo, SumQuery, Word

# ---- expressions -------------------------------------------------------------------


@dataclass(frozen=True)
class Expr:
    tag: ClassVar[str] = ""
    type: Type


@dataclass(frozen=True)
class Const(Expr):
    tag: ClassVar[str] = "const"
    value: int | bool | str


@dataclass(frozen=True)
class Local(Expr):
    tag: ClassVar[str] = "local"
    name: str


@dataclass(frozen=True)
class Hoisted(Expr):
    """A value an optimization computed once before a loop (named `h_<name>` in code)."""

    tag: ClassVar[str] = "hoisted"
    name: str
    # worked out where it is first needed, not before the loop: its value may fail, and it
    # must fail where the loop would first have worked it out (optimize/hoist.py)
    lazy: bool = False


@dataclass(frozen=True)
class Builtin(Expr):
    """A value the kernel keeps: the current player, the turn number."""

    tag: ClassVar[str] = "builtin"
    name: str


@dataclass(frozen=True)
class Table(Expr):
    """A read-only per-entity field: `s.price`, `s.levels[k]` (stride > 1)."""

    tag: ClassVar[str] = "table"
    table: str
    entity: Expr
    element: Expr | None
    stride: int
    length: int  # number of entities, for the bounds check of optional entities
    index_enum: str = ""  # the enum indexing a list field ("" for positions 0, 1, ...)
    element_known: bool = False  # the element is within [0, stride): no bounds check


@dataclass(frozen=True)
class State(Expr):
    """A mutable counter: per entity (`p.cash`, `s.owner`) or global (entity None)."""

    tag: ClassVar[str] = "state"
    array: str
    entity: Expr | None
    checked: bool  # the entity may be none: emit a bounds check
    element: Expr | None = None  # for a list counter, which of its values
    stride: int = 1
    index_enum: str = ""
    element_known: bool = False  # the element is within [0, stride): no bounds check


@dataclass(frozen=True)
class Derived(Expr):
    """A read-only value the kernel derives from an entity: seat, track, name, text."""

    tag: ClassVar[str] = "derived"
    what: str  # player_seat | space_track | space_name | card_text | group_name | card_holder
    entity: Expr


@dataclass(frozen=True)
class Check(Expr):
    """A scenario expectation's result: whether it holds, and the two compared values."""

    tag: ClassVar[str] = "check"
    holds: Expr
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Unary(Expr):
    tag: ClassVar[str] = "unary"
    op: str  # not | -
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    tag: ClassVar[str] = "binary"
    op: str  # python operator spelled as in the generated code
    left: Expr
    right: Expr


# the comparison operators, and each one with its sides swapped (`a < b` is `b > a`)
COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
MIRRORED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


@dataclass(frozen=True)
class Conditional(Expr):
    tag: ClassVar[str] = "cond"
    test: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True)
class CallProc(Expr):
    tag: ClassVar[str] = "call"
    function: str  # generated method name
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class KernelCall(Expr):
    """A primitive of the runtime kernel: pay, move, roll, draw, shuffle..."""

    tag: ClassVar[str] = "kernel"
    function: str
    args: tuple[Expr, ...]


# ---- statements ---------------------------------------------------------------------


@dataclass(frozen=True)
class Stmt:
    tag: ClassVar[str] = ""
    span: Span


@dataclass(frozen=True)
class Declare(Stmt):
    tag: ClassVar[str] = "declare"
    name: str
    type: Type
    value: Expr


@dataclass(frozen=True)
class Assign(Stmt):
    tag: ClassVar[str] = "assign"
    target: Expr  # Local or State
    op: str
    value: Expr


@dataclass(frozen=True)
class Evaluate(Stmt):
    tag: ClassVar[str] = "eval"
    expr: Expr


@dataclass(frozen=True)
class If(Stmt):
    tag: ClassVar[str] = "if"
    test: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...]


@dataclass(frozen=True)
class While(Stmt):
    tag: ClassVar[str] = "while"
    test: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Loop(Stmt):
    """for var in domain where filter: body. Domains are integer ranges in IR.

    With an order (`by KEY [desc]`), the members that pass `order_where` and their keys
    (`order`) are taken first, in the domain's order, before the body runs for any of
    them; the body then runs for those members by key, ascending (descending with
    `desc`), ties in the domain's order, each still tested by `where` (which then holds
    at most a break's flag)."""

    tag: ClassVar[str] = "loop"
    var: str
    domain: Domain
    where: Expr | None
    body: tuple[Stmt, ...]
    order: Expr | None = None
    order_where: Expr | None = None
    desc: bool = False


@dataclass(frozen=True)
class Return(Stmt):
    tag: ClassVar[str] = "return"
    value: Expr | None


@dataclass(frozen=True)
class Raise(Stmt):
    """End the turn or the game: unwinds to the game loop."""

    tag: ClassVar[str] = "raise"
    what: str  # TurnOver | GameOver


@dataclass(frozen=True)
class Domain:
    """An integer range [low, high) with an optional membership filter."""

    kind: str  # players | range | table
    low: Expr
    high: Expr
    table: str = ""  # for decks: the card index table of that deck
    index: str = ""  # set by the index pass: iterate only the members with this key...
    key: Expr | None = None  # ...the value of the indexed field that the filter asks for
    # or, a counter index walked for every value but these (key None): `x.c != none and
    # x.c != p` in an aggregate whose result does not depend on the order of its members
    others: tuple[Expr, ...] = ()
    guarded: bool = False  # a range that may be too long to finish: the loop guard checks it
    # or, the members the guard aggregate of this name kept for the same arguments (in the
    # order the domain above walks them): the ones that pass the guard's part of the filter
    kept: str = ""
    # set by the bit-walks pass: the domain's members (of a counter's value, of every value
    # but `others`, or all) among the entities whose bits are set here, walked as the set
    # bits of a word; the conjuncts on declared data it stands for (shown in dumps)
    mask: int | None = None
    masked: tuple[Expr, ...] = ()
    # set by the whole-keys and flag-words passes: words that counter indexes keep, that
    # the bits are also masked with (optimize/wholes.py, optimize/flags.py)
    words: tuple[Word, ...] = ()


# ---- top level -----------------------------------------------------------------------


@dataclass(frozen=True)
class Function:
    """A procedure, handler, aggregate, card effect or decision default, as a method."""

    name: str
    params: tuple[tuple[str, Type], ...]
    returns: Type
    body: tuple[Stmt, ...]
    locals: tuple[tuple[str, Type], ...]
    origin: str  # for the generated comment: rule/proc name and span
    rule_index: int = -1  # >= 0 for rule handlers: counts firings for coverage
    guard: Expr | None = None  # a handler runs only when its guard holds
    span: Span | None = None  # where it is defined, for diagnostics of later passes
    quote: str = ""  # the first rulebook sentence its rule quotes, for the generated comment
    memo: Memo | None = None  # set by the memoize-procedures pass (procedure_memo.py)


@dataclass(frozen=True)
class Aggregate:
    """count/sum/any/all/max_of/min_of/best over a domain, lifted to a method; `mask`: the
    members that pass as a word's bits (optimize/masks.py)."""

    name: str
    kind: str
    params: tuple[tuple[str, Type], ...]
    var: str
    domain: Domain
    where: Expr | None
    value: Expr | None
    type: Type
    span: Span | None = None
    hoisted: tuple[tuple[str, Expr], ...] = ()  # computed once before the loop
    memo: Memo | None = None  # set by the memoize pass: values kept until what they read changes
    counted: CountQuery | None = None  # set by the count pass: answered from kept counts
    summed: SumQuery | None = None  # set by the keep-sums pass: answered from kept sums
    # set by the guard pass: when false, no candidate passes the filter (optimize/guards.py)
    guard: Expr | None = None
    checked_total: bool = False  # a sum that may leave 32 bits: totalled in 64, then checked
    kept: Kept | None = None  # set by the keep pass: a guard that keeps its members
    # set by the precheck pass: the conjuncts of the filter that read no candidate, tested
    # once before the walk (when one is false, nothing passes)
    prechecks: tuple[Expr, ...] = ()
    # set by the bound-counts pass: a count every caller compares with constants stops
    # once it reaches this (0: counts every member)
    limit: int = 0
    # a best lowered from an order (front/expressions.py): its value is the rank of a key,
    # "asc" (-1 - key) or "desc" (the key), or "first" (first_of without one: a constant);
    # "top": the max_of of a best by a key, whose filter compares its values with it
    rank: str = ""


@dataclass(frozen=True)
class HandlerRef:
    function: str
    guard: Expr | None
    rule: str


@dataclass(frozen=True)
class Event:
    name: str
    params: tuple[tuple[str, Type], ...]
    handlers: tuple[HandlerRef, ...]


@dataclass(frozen=True)
class Decision:
    name: str
    index: int
    params: tuple[tuple[str, Type], ...]
    by: Expr
    kind: str  # bool | int | entity
    optional: bool
    low: Expr | None
    high: Expr | None
    domain: Domain | None
    var: str
    where: Expr | None
    default: Expr | None
    prompt: str
    span: Span | None = None
    lazy: bool = False  # the default policy checks only its own answer against the filter
    # its default is one of its options or none by construction (`best(... for s in legal
    # ...)`, perhaps in `some(...)`): the default policy's answer needs no check
    default_legal: bool = False
    answer: str = "int"  # the answer's type as the trace names it: bool, int?, space...
    # set by the index pass: how the list of options is walked (an index, in the same
    # order), and the part of the filter the walk leaves to test; the legality of one
    # given answer is still tested against the whole domain and filter above
    walk: Domain | None = None
    walk_where: Expr | None = None
    # set by the hoist pass: what the walk's filter computes once, before it (its Hoisted);
    # of a number decision, by share-decision-bounds: its upper bound, read by its default
    hoisted: tuple[tuple[str, Expr], ...] = ()
    # set by options-defaults: a default that walks the decision's own domain and filter,
    # as a call of an aggregate over the options once listed (its last argument, a local
    # `n`, their number): the index of the option it picks, or -1
    options_default: Expr | None = None


@dataclass(frozen=True)
class TableData:
    name: str
    owner: str
    values: tuple[int, ...]
    stride: int


@dataclass(frozen=True)
class Counter:
    name: str
    owner: str  # player | space | group | card | cell | "" (global)
    size: int  # number of slots (entities), 1 for a global
    initial: tuple[int, ...]
    label: str  # the name in snapshots and scenario messages
    type: Type
    option: str = ""  # for an option: its title; set when the game is created, then read-only
    stride: int = 1  # values per entity (a list counter indexed by an enum)
    # an option's values (`from LOW to HIGH`; a bool's 0 and 1), checked when it is chosen
    option_range: tuple[int, int] | None = None


@dataclass(frozen=True)
class Deck:
    name: str
    title: str
    params: tuple[tuple[str, Type], ...]
    first_card: int
    cards: tuple[int, ...]
    effects: tuple[str, ...]  # generated method per card ("" when the card does nothing)
    keep: tuple[bool, ...]
    hidden: bool = False  # its cards are seen by their holder only (agents' observations)


@dataclass(frozen=True)
class Die:
    name: str
    index: int
    faces: tuple[int, ...]
    face_type: str = "int"  # int, or the enum its faces are members of


@dataclass(frozen=True)
class ScenarioStep:
    kind: str  # given | dice | random | cards | answer | option | policy | play | expect
    # | legal | not_asked
    line: int
    function: str = ""  # given: the setup; play: gives the player; expect, legal: the test
    values: tuple[int, ...] = ()  # dice faces, random(n)'s values, card indices, answers
    target: str = ""  # the deck, decision or option; policy: the policy's name
    text: str = ""  # expect, legal: its source text
    types: tuple[str, ...] = ()  # dice, answer: each value's type, to show it by name
    masks: tuple[int, ...] = ()  # dice: per value, the dice it is a face of (bit d: die d)
    spans: tuple[Span, ...] = ()  # dice, random: where each value is written
    negated: bool = False  # legal: `expect not legal(...)`
    seat: int = -1  # answer, policy: the seat (`answer D by p2`), or -1: anyone, everyone
    left_type: str = ""  # expect A op B: the types and texts of A and B, to show values
    right_type: str = ""
    left_text: str = ""
    right_text: str = ""
    # a step from a fixture of another file: that file, from the edition's folder, which a
    # failure names with the line ("" for the scenario's own file)
    file: str = ""


@dataclass(frozen=True)
class Scenario:
    index: int
    title: str
    target: str  # the rule (or quoted definition) the scenario tests
    players: int
    steps: tuple[ScenarioStep, ...]
    path: str
    line: int
    suite: str = ""  # "conformance" for a conformance suite's (ast.Scenario.suite)


@dataclass(frozen=True)
class Program:
    edition: str
    title: str
    currency: str
    min_players: int
    max_players: int
    turn_limit: int
    space_ids: tuple[str, ...]
    space_names: tuple[str, ...]
    track: tuple[int, ...]  # track position of each space (offboard spaces share one)
    track_length: int
    space_of_track: tuple[int, ...]  # the on-track space at each track position
    group_ids: tuple[str, ...]
    group_titles: tuple[str, ...]
    card_ids: tuple[str, ...]
    card_texts: tuple[str, ...]
    card_kinds: tuple[int, ...]  # the first copy of each card's declaration
    cell_count: int
    grid_width: int
    enums: dict[str, tuple[str, ...]]
    tables: tuple[TableData, ...]
    counters: tuple[Counter, ...]
    dice: tuple[Die, ...]
    decks: tuple[Deck, ...]
    decisions: tuple[Decision, ...]
    functions: tuple[Function, ...]
    aggregates: tuple[Aggregate, ...]
    events: dict[str, Event]
    rules: tuple[str, ...]
    handled_rules: frozenset[str]
    first_player: Expr | None
    over_when: Expr | None
    score: Expr | None
    # `over after N rounds` (N, an int) and `over at first bankruptcy when C` (C, a bool)
    round_limit: Expr | None = None
    bankruptcy_ends: Expr | None = None
    # the score's tie-breakers (`score(p) = A then B`: B), compared in order when the
    # scores are equal; each an int of the player `p`
    tie_breaks: tuple[Expr, ...] = ()
    constants: dict[str, int] = field(default_factory=dict)
    scenarios: tuple[Scenario, ...] = ()
    # the test layer (scenario steps and the aggregates they lift): never in the production module
    scenario_functions: tuple[Function, ...] = ()
    scenario_aggregates: tuple[Aggregate, ...] = ()
    indexes: tuple[Index, ...] = ()
    counter_indexes: tuple[CounterIndex, ...] = ()
    kept_sums: tuple[KeptSum, ...] = ()  # sums the writes keep (optimize/sums.py)
    memo_slots: int = 0  # the size of the memo table of the memoized aggregates
    span_slots: int = 0  # the memo slots kept over every player's cash (optimize/cash_spans.py)
    kept_counts: int = 0  # the sizes of the tables where guards keep their members
    kept_items: int = 0
    # counters no code a window may run reads: their writes do not open a window again
    # (optimize/blind_writes.py)
    blind_counters: frozenset[str] = frozenset()
    # the card field (a table) whose value keys the kernel's versions of each player's cards
    # of one value (Memo.held_key; "" when no memo reads hands that way)
    card_key: str = ""
    # pairs of options (a, b) that may not both be chosen (differ from their defaults) in a
    # game: `option a ... excludes b`
    option_exclusions: tuple[tuple[str, str], ...] = ()
    # the functions on a cycle of calls that count their depth, enough to cut every cycle,
    # chosen by the call-budget pass on the program as written (None: not chosen yet)
    depth_counted: frozenset[str] | None = None
