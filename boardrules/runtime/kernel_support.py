# The runtime kernel's module level, in Cython pure-Python mode: capacities and
# limits, the errors the rules can raise, the checks of integers kept in 32 bits,
# and the random number generator. Pasted first (see kernel.py).
import cython

CAP_PLAYERS = cython.declare(cython.const[cython.int], 16)
CAP_SPACES = cython.declare(cython.const[cython.int], 256)
CAP_CARDS = cython.declare(cython.const[cython.int], 512)
CAP_DECKS = cython.declare(cython.const[cython.int], 32)
CAP_DICE = cython.declare(cython.const[cython.int], 8)
CAP_FACES = cython.declare(cython.const[cython.int], 32)
CAP_OPTIONS = cython.declare(cython.const[cython.int], 512)
CAP_RULES = cython.declare(cython.const[cython.int], 512)
CAP_CELLS = cython.declare(cython.const[cython.int], 512)
CAP_WINDOWS = cython.declare(cython.const[cython.int], 64)
# the values of the card field whose holders' versions the kernel keeps per player and
# value (held_key_version): a card's key is its value, or the last one for none
CAP_CARD_KEYS = cython.declare(cython.const[cython.int], 16)
# a hoisted value not worked out yet (optimize/hoist.py): no value of the rules is this
# (they are kept in 32 bits, the hoisted local in 64)
LAZY_UNSET = cython.declare(cython.const[cython.longlong], -1099511627776)
# (The C array sizes below are these numbers written out, as Cython needs literals there;
# a test checks that they agree. Code generation reads the CAP_ constants from this file.)
MASK = cython.declare(cython.const[cython.ulonglong], 0xFFFFFFFFFFFFFFFF)
LOW_32 = cython.declare(cython.const[cython.ulonglong], 0xFFFFFFFF)
LOOP_LIMIT = cython.declare(cython.const[cython.int], 1000000)
# The integers the rules keep (locals, counters, cash, arguments) are 32-bit on both backends.
INT_MIN = cython.declare(cython.const[cython.longlong], -2147483648)
INT_MAX = cython.declare(cython.const[cython.longlong], 2147483647)
# How deep procedures that can call themselves may nest: the same bound on both backends,
# well within CPython's recursion limit and the C stack.
CALL_DEPTH_LIMIT = cython.declare(cython.const[cython.int], 200)
# A Python policy or the GameState API get a decision's answers as a list: at most this many.
MAX_LISTED_ANSWERS = cython.declare(cython.const[cython.int], 100000)
ERROR_VALUE = cython.declare(cython.const[cython.int], -2147483647)
UNWIND_TURN = cython.declare(cython.const[cython.int], 1)
UNWIND_GAME = cython.declare(cython.const[cython.int], 2)
# What ended a game, when the kernel saw it (Kernel.ended_by); otherwise END_NONE: the turn
# cap (`capped`), `over when` (the last player standing by default) or `end game`.
END_NONE = cython.declare(cython.const[cython.int], 0)
END_ROUNDS = cython.declare(cython.const[cython.int], 1)  # over after N rounds
END_BANKRUPTCY = cython.declare(cython.const[cython.int], 2)  # over at first bankruptcy
END_WINNER = cython.declare(cython.const[cython.int], 3)  # end game winner p

POLICY_RANDOM = cython.declare(cython.const[cython.int], 1)
POLICY_DEFAULT = cython.declare(cython.const[cython.int], 2)
POLICY_EXTERNAL = cython.declare(cython.const[cython.int], 3)
POLICY_PASSIVE = cython.declare(cython.const[cython.int], 4)  # none, false, else the default
POLICY_NAMES = {"random": 1, "default": 2, "external": 3, "passive": 4}
ALL_SEATS = 0xFFFFFFFF  # a bit per seat: every seat (a replay script answers them all)
# Chance nodes (chance mode): the seat a pending chance node names, and what is drawn
CHANCE_SEAT = -2
CHANCE_ROLL = cython.declare(cython.const[cython.int], 0)  # a die's face, by its index
CHANCE_RANDOM = cython.declare(cython.const[cython.int], 1)  # random(n)'s value
CHANCE_DRAW = cython.declare(cython.const[cython.int], 2)  # the card revealed on a deck
CHANCE_NODES = cython.declare(cython.const[cython.int], 1)  # chance_mode: suspend at each
CHANCE_SAMPLED = cython.declare(cython.const[cython.int], 2)  # chance_mode: draw each
# The edition's module redefines these names below the kernel.
DECISION_NAMES: tuple = ()
SPACE_IDS: tuple = ()
CARD_IDS: tuple = ()
CARD_KINDS: tuple = ()
DIE_NAMES: tuple = ()
DIE_FACE_TYPES: tuple = ()
DECISION_TYPES: tuple = ()
GROUP_NAMES: tuple = ()
ENUMS: dict = {}
DECK_NAMES: tuple = ()
CALL_ORIGINS: tuple = ()


def traced(type_name: str, value) -> str:
    """A die's face or a decision's answer as the trace shows it: yes or no, none, a seat
    (p2), the id of a space, card or group, an enum member's name, or the number."""
    name = type_name.rstrip("?")
    if value == -1 and (type_name.endswith("?") or name in ("player", "space", "card", "group")):
        return "none"
    if name == "bool":
        return "yes" if value else "no"
    if name == "player":
        return f"p{value + 1}"
    table = {"space": SPACE_IDS, "card": CARD_IDS, "group": GROUP_NAMES}.get(name)
    if table is None:
        table = ENUMS.get(name)
    return str(value) if table is None else table[value]


def chance_label(kind: int, what: int) -> str:
    """A chance node as GameState.decision names it: `roll DIE`, `random` or `draw DECK`."""
    if kind == CHANCE_ROLL:
        return f"roll {DIE_NAMES[what]}"
    if kind == CHANCE_DRAW:
        return f"draw {DECK_NAMES[what]}"
    return "random"


def party(p) -> str:
    """A payer or payee in the trace: a seat, or the Bank."""
    return "bank" if p < 0 else f"p{p + 1}"


class Unwind(Exception):
    """`end turn`/`end game` reached inside an expression: the rest of it must not run.
    `unwinding` already says which; the game loop catches this and reads it."""


class Suspend(Exception):
    """A decision nobody inside the module can take: the caller must choose."""


class RuleError(Exception):
    """The rules did something impossible (an illegal choice, none used as a value)."""


class ScriptedRollError(RuleError):
    """A scripted roll (scenarios) that the die rolled cannot give, or, while every roll must
    be scripted (`strict_rolls`), a roll with none left (`value` is None). `die` is the index
    of the die the rules rolled."""

    def __init__(self, die: int, value=None):
        self.die = die
        self.value = value
        super().__init__(f"scripted roll {value} is not a face of die {die}" if value is not None
                         else f"die {die} was rolled with no scripted roll left")


class ScriptedRandomError(RuleError):
    """A scripted value of random(n) (scenarios) not below n, or, while every draw must be
    scripted (`strict_random`), a draw with none left (`value` is None)."""

    def __init__(self, bound: int, value=None):
        self.bound = bound
        self.value = value
        super().__init__(f"random({bound}) took the scripted value {value}, which is not from 0 "
                         f"to {bound - 1}" if value is not None else
                         f"random({bound}) was drawn with no scripted value left")


# What Python calls on a game that may run the rules' code (kernel.py, kernel_api.py and
# the edition's Game): the entries make_room wraps when the module runs interpreted.
RULES_ENTRIES = ("start", "play", "play_turn", "winner", "winners", "ranks", "ranking",
                 "score", "score_parts", "invoke")


class PythonStack:
    """Room on CPython's stack while the rules run interpreted, the same for every game.

    Compiled, the rules nest on the C stack and only CALL_DEPTH_LIMIT bounds them (a
    rules error, the same on both backends). Interpreted, each level costs several
    Python frames (a land handler that moves: the event, the counted procedure and its
    body, the move, the arrival), so CPython's recursion limit (1000 by default) came
    first, at a depth the language allows, with a RecursionError elsewhere. Counting
    every frame in the language instead would slow the compiled turn and still leave
    the limit below what CPython allows.

    So while rules code runs, the limit is raised by a bound that cannot be reached: a
    function can be on the stack again only through a cycle of calls, which passes a
    counted procedure (optimize/effects.py finds every cycle, moves and card draws
    included), so no function is on it more than CALL_DEPTH_LIMIT + 2 times, and the
    stack holds at most that many frames per function of the module. Since CPython 3.11
    a call from Python code to a Python function takes no C stack, so the room costs
    only the frames really used. Nested and concurrent games share one raise; the last
    to leave restores the limit it found.
    """

    def __init__(self, frames: int):
        import threading

        self.frames = frames
        self.lock = threading.Lock()
        self.users = 0
        self.saved = 0

    def __enter__(self):
        import sys

        with self.lock:
            if self.users == 0:
                self.saved = sys.getrecursionlimit()
                sys.setrecursionlimit(self.saved + self.frames)
            self.users += 1

    def __exit__(self, *exc) -> None:
        import sys

        with self.lock:
            self.users -= 1
            if self.users == 0:
                sys.setrecursionlimit(self.saved)


class RulesEntry:
    """A method of Game that runs rules code, run inside its module's PythonStack (a class,
    not a closure: the module holds no generator or closure, see make_room)."""

    def __init__(self, method, room: PythonStack):
        self.method = method
        self.room = room

    def __get__(self, game, owner=None):
        import types

        return self if game is None else types.MethodType(self, game)

    def __call__(self, game, *args, **kwargs):
        with self.room:
            return self.method(game, *args, **kwargs)


def make_room(cls, names=RULES_ENTRIES) -> None:
    """Run cls's rules entries (interpreted) inside a PythonStack sized for its module."""
    functions: int = 0
    for c in cls.__mro__:
        for value in vars(c).values():
            functions += callable(value)
    for value in globals().values():
        functions += callable(value)
    room = PythonStack((CALL_DEPTH_LIMIT + 2) * functions)
    for name in names:
        setattr(cls, name, RulesEntry(getattr(cls, name), room))


POLICY_SEED_SALT = cython.declare(cython.const[cython.ulonglong], 0x5DEECE66D)  # policy_rng's
GOLDEN_GAMMA = cython.declare(cython.const[cython.ulonglong], 0x9E3779B97F4A7C15)
MIX_1 = cython.declare(cython.const[cython.ulonglong], 0xBF58476D1CE4E5B9)
MIX_2 = cython.declare(cython.const[cython.ulonglong], 0x94D049BB133111EB)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def wide(value: cython.longlong) -> cython.longlong:
    """A 32-bit value taken to 64 bits, so that arithmetic on it is exact (compiled: free;
    interpreted: far cheaper than cython.cast, which the generated code would call often)."""
    return value


@cython.cfunc
@cython.inline
@cython.exceptval(-2147483647, check=True)
def narrow(value: cython.longlong) -> cython.int:
    """A value the rules keep (a local, a counter, an argument): it must fit in 32 bits.
    Inline: compiled, the check is one comparison (the value against its 32-bit cast,
    which gcc wraps) where the value is kept."""
    if cython.compiled:
        if value != cython.cast(cython.int, value):
            return overflow(value)
    elif value < INT_MIN or value > INT_MAX:
        return overflow(value)
    return cython.cast(cython.int, value)


@cython.cfunc
@cython.inline
@cython.exceptval(-2147483647, check=True)
def seq(value: cython.longlong) -> cython.longlong:
    """A part of an expression evaluated in its place, left to right as in Python: Cython
    evaluates calls it must check into temporaries, in order (compiler/back/order.py)."""
    return value


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def ordered_min(a: cython.longlong, b: cython.longlong) -> cython.longlong:
    """min(a, b) with its arguments evaluated first to last (Cython's takes the last first)."""
    return a if a <= b else b


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def ordered_max(a: cython.longlong, b: cython.longlong) -> cython.longlong:
    """max(a, b) with its arguments evaluated first to last (Cython's takes the last first)."""
    return a if a >= b else b


@cython.cfunc
@cython.inline
@cython.exceptval(-1)
def on_lap(t: cython.int, n: cython.int) -> cython.int:
    """t modulo n (n > 0; Python's, never negative): a track position. A move lands within
    a lap of where it started, so a subtraction or an addition does it, not the division
    (an integer division's latency, every move and every turn's next player)."""
    if t >= n:
        t -= n
    elif t < 0:
        t += n
    if 0 <= t < n:
        return t
    return t % n  # a long move, or no track (n == 0: the rules error Python's % raises)


# Bit walks (compiler/ir/optimize/bits.py): the members of a domain of at most 63 entities as
# the set bits of a word, found lowest first by de Bruijn multiplication.
DE_BRUIJN = cython.declare(cython.const[cython.ulonglong], 0x03F79D71B4CB0A89)
LOWEST_BIT = cython.declare(cython.int[64])  # by the top 6 bits of a lone bit times DE_BRUIJN
for _position in range(64):
    LOWEST_BIT[(((1 << _position) * DE_BRUIJN) & MASK) >> 58] = _position


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def lowest_bit(word: cython.ulonglong) -> cython.int:
    """The position of the lowest set bit of a word that is not 0: a bit walk's next member
    (interpreted, Python's own integers find it faster than the table)."""
    if cython.compiled:
        return LOWEST_BIT[(((word & (~word + 1)) * DE_BRUIJN) & MASK) >> 58]
    else:  # (an else, not a return after the if: Cython drops it without a warning)
        return (word & -word).bit_length() - 1


@cython.cfunc
@cython.exceptval(check=False)
def order_members(keys: cython.p_int, items: cython.p_int, n: cython.int) -> cython.void:
    """Sort an ordered walk's members by key, ties by member, in place (compiler/back/
    sorted_walks.py; a descending walk stores each key's complement, ~key, which reverses
    the order without overflow): an insertion sort, then a shell sort's gaps first for a
    longer walk. No two members compare equal, so the order is the one possible, on
    either backend."""
    gap: cython.int = 1
    i: cython.int
    j: cython.int
    key: cython.int
    item: cython.int
    while gap * 3 + 1 < n // 2:  # Knuth's gaps (1, 4, 13, 40, ...), for a long walk only
        gap = gap * 3 + 1
    while gap > 0:
        for i in range(gap, n):
            key, item, j = keys[i], items[i], i
            while j >= gap and (keys[j - gap] > key
                                or keys[j - gap] == key and items[j - gap] > item):
                keys[j], items[j] = keys[j - gap], items[j - gap]
                j -= gap
            keys[j], items[j] = key, item
        gap = (gap - 1) // 3


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def bit_of(x: cython.int) -> cython.ulonglong:
    """The word with only bit x set (x from 0 to 63)."""
    if cython.compiled:
        return cython.cast(cython.ulonglong, 1) << x
    else:
        return 1 << x


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def bit_count(word: cython.int) -> cython.int:
    """The set bits of a non-negative 32-bit word: the members a filter's parts have in
    common (optimize/masks.py), one step a member, not a step a candidate."""
    n: cython.int = 0
    while word:
        word &= word - 1
        n += 1
    return n


@cython.cfunc
@cython.exceptval(-2147483647, check=True)
def overflow(value: cython.longlong) -> cython.int:
    raise RuleError(f"integer overflow: {value} does not fit in 32 bits ({INT_MIN} to {INT_MAX})")


def checked_int(what: str, value, low, high) -> int:
    """An integer argument from Python, checked alike on both backends (a C conversion
    would raise its own errors, or wrap around)."""
    if not isinstance(value, int):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be from {low} to {high}, not {value}")
    return int(value)


def forced_key(decision: str, who: int) -> str:
    """Where the forced answers of a decision for one seat only are queued (`bid by p2`);
    those for anyone are queued under the decision's name."""
    return f"{decision} by p{who + 1}"


def forced_decision(key: str) -> str:
    """The decision whose answers are queued under `key` (`forced_key` undone)."""
    return key.split(" by p")[0]


def kept_answer(decision: str, answer) -> int:
    """An answer from Python (a policy, a scenario): an integer that fits in 32 bits."""
    value = int(answer)
    if not INT_MIN <= value <= INT_MAX:
        raise RuleError(f"{decision}: the answer {value} does not fit in 32 bits")
    return value


@cython.cfunc
@cython.exceptval(check=False)
def splitmix64(x: cython.ulonglong) -> cython.ulonglong:
    """The output of splitmix64 for state x (the next state is x + GOLDEN_GAMMA)."""
    z: cython.ulonglong = (x + GOLDEN_GAMMA) & MASK
    z = ((z ^ (z >> 30)) * MIX_1) & MASK
    z = ((z ^ (z >> 27)) * MIX_2) & MASK
    return z ^ (z >> 31)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def high_product(x: cython.ulonglong, n: cython.ulonglong) -> cython.ulonglong:
    """floor(x * n / 2**64) for n <= 2**32, from two 64-bit products that cannot wrap:
    C has no portable 128-bit product, and Python's ints must give the same value."""
    return ((x >> 32) * n + (((x & LOW_32) * n) >> 32)) >> 32


@cython.cfunc
@cython.exceptval(check=False)
def wide_high_product(x: cython.ulonglong, n: cython.ulonglong) -> cython.ulonglong:
    """floor(x * n / 2**64) for any 64-bit n, from four 32-bit by 32-bit products."""
    low: cython.ulonglong = (x & LOW_32) * (n & LOW_32)
    cross_1: cython.ulonglong = (x & LOW_32) * (n >> 32)
    cross_2: cython.ulonglong = (x >> 32) * (n & LOW_32)
    middle: cython.ulonglong = (low >> 32) + (cross_1 & LOW_32) + (cross_2 & LOW_32)
    return ((x >> 32) * (n >> 32) + (cross_1 >> 32) + (cross_2 >> 32)
            + (middle >> 32)) & MASK


@cython.final
@cython.cclass
class Rng:
    """xorshift128+: fast, seedable, identical in both backends (final: its methods are
    called directly, not through Cython's table of methods)."""

    s0: cython.ulonglong
    s1: cython.ulonglong

    def __init__(self, seed: cython.ulonglong = 0):
        self.reseed(seed)

    @cython.cfunc
    @cython.exceptval(check=False)
    def reseed(self, seed: cython.ulonglong) -> cython.int:
        """Seed both words from splitmix64, in C (a game seeds two generators)."""
        self.s0 = splitmix64(seed & MASK)
        self.s1 = splitmix64((seed + GOLDEN_GAMMA) & MASK) | 1
        return 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def step(self) -> cython.ulonglong:
        """The next 64 bits, inline in the kernel's draws."""
        x: cython.ulonglong = self.s0
        y: cython.ulonglong = self.s1
        self.s0 = y
        x ^= (x << 23) & MASK
        self.s1 = x ^ y ^ (x >> 17) ^ (y >> 26)
        return (self.s1 + y) & MASK

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def draw_below(self, n: cython.longlong) -> cython.longlong:
        """A uniform integer in [0, n) for 1 <= n <= 2**32, inline in the kernel's draws:
        Lemire's multiply-shift, the high half of the 64-bit draw times n (a multiply
        where `%` would divide). It reads the draw's top bits, xorshift128+'s strong ones
        (its weak low bits reach the result only through carries), so the whole 64 bits
        are used, with no shift first: the bias is below n / 2**64."""
        return cython.cast(cython.longlong,
                           high_product(self.step(), cython.cast(cython.ulonglong, n)))

    @cython.ccall
    @cython.exceptval(check=False)
    def next_u64(self) -> cython.ulonglong:
        return self.step()

    @cython.ccall
    @cython.exceptval(check=False)
    def below(self, n: cython.longlong) -> cython.longlong:
        """A uniform integer in [0, n) for n >= 1: draw_below's value for any n."""
        if n <= 0x100000000:
            return self.draw_below(n)
        return cython.cast(cython.longlong,
                           wide_high_product(self.step(), cython.cast(cython.ulonglong, n)))

    def copy(self):
        other: Rng = Rng.__new__(Rng)
        other.s0 = self.s0
        other.s1 = self.s1
        return other

    def state(self) -> list:
        """The generator's two words (a serialization's)."""
        return [self.s0, self.s1]

    @staticmethod
    def from_state(words):
        other: Rng = Rng.__new__(Rng)
        other.s0 = checked_int("a generator word", words[0], 0, MASK)
        other.s1 = checked_int("a generator word", words[1], 0, MASK)
        return other
