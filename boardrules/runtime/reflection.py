"""A game seen from plain Python code as if from inside it, on either backend.

The test layer's scenario steps are rendered by the same macros as the
production module's methods, so they read `self.c_x[i]`, `self.g_x`,
`self.cash[p]`, `self.proc_f(a)`, `self.k_pay(...)`. A compiled game's C
attributes and C methods are invisible from Python; `GameProxy` stands for
`self` and maps those names onto the production module's reflection API
(`state_get`, `state_set`, `invoke`), which both backends provide. It knows no
edition: what a name is follows from the code generator's prefixes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# The kernel's arrays and values that rules code reads by their own names (codegen's
# KERNEL_ARRAYS and KERNEL_READ_ONLY; a test keeps the two lists together).
KERNEL_ARRAYS = frozenset({"cash", "position", "alive", "card_holder", "track_of", "card_deck",
                           "held_first", "held_next"})
KERNEL_VALUES = frozenset({"current", "turn", "over", "n_players", "round_count",
                           "bankruptcies"})  # read-only attributes
KERNEL_STATE = frozenset({"unwinding"})  # read and written through state_get/state_set
# Counters per entity (or global lists) and tables: c_<name>, t_<name>; global counters g_<name>.
ARRAY_PREFIXES = ("c_", "t_")
VALUE_PREFIX = "g_"


class ArrayView:
    """One array of the game: `view[i]` reads it and `view[i] = v` writes it."""

    __slots__ = ("_game", "_name")

    def __init__(self, game: Any, name: str):
        self._game = game
        self._name = name

    def __getitem__(self, index: int) -> int:
        return self._game.state_get(self._name, index)

    def __setitem__(self, index: int, value: int) -> None:
        self._game.state_set(self._name, index, value)


class TraceLines:
    """The game's trace, to which the test layer's code appends as the production code
    does (`self.trace_lines.append(line)`); a compiled game's list is not visible from
    Python, so a line goes through the game's `k_log`, which adds the two spaces that
    indent a line of a turn."""

    __slots__ = ("_game",)

    def __init__(self, game: Any):
        self._game = game

    def append(self, line: str) -> None:
        if not line.startswith("  "):
            raise ValueError(f"a trace line written by rules code is indented: {line!r}")
        self._game.k_log(line[2:])


class GameProxy:
    """`self` of the test layer's functions: a game's state and functions by name.

    The test layer subclasses it with the scenarios' steps (and their aggregates) as
    methods; any other method name is a function of the production module."""

    __slots__ = ("_game",)

    def __init__(self, game: Any):
        object.__setattr__(self, "_game", game)

    def __getattr__(self, name: str) -> Any:
        game = self._game
        if name.startswith(ARRAY_PREFIXES) or name in KERNEL_ARRAYS:
            return ArrayView(game, name)
        if name.startswith(VALUE_PREFIX) or name in KERNEL_STATE:
            return game.state_get(name, 0)
        if name in KERNEL_VALUES:
            return getattr(game, name)
        return _caller(game, name)

    @property
    def tracing(self) -> bool:
        """Whether the game traces: read by an `end turn` or `end game` written in a given
        block (one in a procedure it calls runs in the game itself)."""
        return bool(self._game.tracing)

    @property
    def trace_lines(self) -> TraceLines:
        return TraceLines(self._game)

    def __setattr__(self, name: str, value: Any) -> None:
        if not (name.startswith(VALUE_PREFIX) or name in KERNEL_STATE):
            raise AttributeError(f"cannot set {name!r} of a game")
        self._game.state_set(name, 0, value)

    def k_legal(self, decision: str, answer: int, *args: int) -> bool:
        """Whether the rules accept `answer` to the decision asked now with these arguments
        (a scenario's `expect legal(...)`): the decision is asked with that answer forced and
        every answer the scenario queued set aside. Asked, it takes the answer or refuses it
        (a rules error, caught); not asked (one legal answer, or none for an optional
        decision), the answer must be that one."""
        game = self._game
        queued = game.exchange_answers({decision: [answer]})
        try:
            taken = game.invoke(f"decide_{decision}", args)
        except Exception as exc:
            forced = game.exchange_answers(queued)
            if not _is_rule_error(exc) or (forced and "no legal option" not in str(exc)):
                raise  # it failed before asking: not a refusal
            return False
        game.exchange_answers(queued)
        return taken == answer


def _is_rule_error(exc: BaseException) -> bool:
    """Every edition's module has its own RuleError class (the kernel is pasted into it)."""
    return any(cls.__name__ == "RuleError" for cls in type(exc).__mro__)


def _caller(game: Any, name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        return game.invoke(name, args)

    call.__name__ = name
    return call
