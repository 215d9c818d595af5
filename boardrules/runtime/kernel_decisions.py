# ruff: noqa: F405
# The kernel's side of asking decisions, in Cython pure-Python mode: whether a seat takes
# the default answers inline, which policy answers, the random policy's draws, scripted
# and forced answers, and external players (which suspend the game). Pasted between
# kernel_decks.py and kernel_api.py (see kernel.py); the generated decide_ and ask_
# methods call them.
import cython

from .kernel import *  # noqa: F403  (one text when pasted)
from .kernel_decks import *  # noqa: F403
from .kernel_play import *  # noqa: F403
from .kernel_primitives import *  # noqa: F403
from .kernel_support import *  # noqa: F403


@cython.cclass
class Decisions(Decks):
    """How a decision is answered, whoever answers it."""

    # ---- decisions ---------------------------------------------------------------
    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_default_answers(self, who: cython.int) -> cython.bint:
        """Whether who's decisions take their defaults inline (decide_'s test; idle.py
        skips a loop then)."""
        return ((self.inline_seats >> who) & 1) != 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_option(self, i: cython.int) -> cython.int:
        """The i-th option a decision has just listed (i below their number), for its
        default's walk of them (optimize/option_defaults.py)."""
        return self.opts[i]

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def policy_of(self, decision: cython.int, who: cython.int) -> cython.int:
        """How the next decision of `who` is taken; forced and scripted answers come first.
        Inline: the random policy asks it for every decision (the dictionaries of forced
        answers, which only scenarios and replays fill, are looked up apart)."""
        if self.script_pos < self.script_len and (self.script_seats >> who) & 1:
            return POLICY_EXTERNAL  # a replay answers for the seats it was made for
        if self.n_forced > 0 and self.is_forced(decision, who):
            return POLICY_EXTERNAL
        return self.policy[who]

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def is_forced(self, decision: cython.int, who: cython.int) -> cython.bint:
        """Whether an answer is queued for this decision, or for it asked of `who`."""
        return bool(self.forced.get(DECISION_NAMES[decision])
                    or self.forced.get(forced_key(DECISION_NAMES[decision], who)))

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def chk(self, i: cython.int, n: cython.int) -> cython.int:
        """Bounds check for a value that may be none before it indexes a table."""
        if i < 0 or i >= n:
            return self.out_of_range()
        return i

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def out_of_range(self) -> cython.int:
        raise RuleError("none (or an out-of-range value) was used where a value is needed")

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def choose_range(self, decision: cython.int, who: cython.int, low: cython.int,
                     high: cython.int, optional: cython.bint, default: cython.int) -> cython.int:
        """A choice of an integer in [low, high], or -1 (none) when optional."""
        choice: cython.longlong
        kind: cython.int
        span: cython.longlong = cython.cast(cython.longlong, high) - low + 1
        if high < low:
            if optional:
                return -1
            raise RuleError(f"decision {DECISION_NAMES[decision]}: no legal option")
        if low == high and not optional:
            return low
        kind = self.policy_of(decision, who)
        if kind == POLICY_DEFAULT:
            choice = default
        elif kind == POLICY_PASSIVE:  # none, or false for a yes/no decision (0 to 1)
            choice = -1 if optional else low if DECISION_TYPES[decision] == "bool" else default
        elif kind == POLICY_RANDOM:
            choice = low + self.policy_rng.below(span + 1 if optional else span)
            if choice > high:
                choice = -1
        elif span <= MAX_LISTED_ANSWERS and self.k_script_answers(decision, who):  # in C
            choice = self.k_scripted(decision)
            if not ((low <= choice <= high) or (optional and choice == -1)):
                options = list(range(low, high + 1))
                if optional:
                    options.insert(0, -1)
                self.k_not_legal(decision, choice, options)
        else:
            if span > MAX_LISTED_ANSWERS:
                raise RuleError(f"decision {DECISION_NAMES[decision]}: {span} answers"
                                f" are too many to list (at most {MAX_LISTED_ANSWERS})")
            options = list(range(low, high + 1))
            if optional:
                options.insert(0, -1)
            choice = self.external_choice(decision, who, options)
        if not ((low <= choice <= high) or (optional and choice == -1)):
            raise RuleError(f"decision {DECISION_NAMES[decision]}: {choice} is not between "
                            f"{low} and {high}")
        if self.tracing:
            self.trace_lines.append(f"  p{who + 1} decides {DECISION_NAMES[decision]}="
                                    f"{traced(DECISION_TYPES[decision], choice)}")
        return cython.cast(cython.int, choice)

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def choose_option(self, decision: cython.int, who: cython.int, n: cython.int,
                      optional: cython.bint, default: cython.int) -> cython.int:
        """A choice among self.opts[0:n], or -1 (none) when optional."""
        choice: cython.int
        kind: cython.int
        i: cython.int
        if n == 0:
            if optional:
                return -1
            raise RuleError(f"decision {DECISION_NAMES[decision]}: no legal option")
        if n == 1 and not optional:
            return self.opts[0]
        kind = self.policy_of(decision, who)
        if kind == POLICY_RANDOM:  # one of the options by construction: no search
            i = self.policy_rng.draw_below(n + 1 if optional else n)
            choice = -1 if i == n else self.opts[i]
        elif kind == POLICY_DEFAULT:
            choice = default
        elif kind == POLICY_PASSIVE:
            choice = -1 if optional else default
        elif self.k_script_answers(decision, who):  # a replay, in C: no list of answers
            choice = self.k_scripted(decision)
            if not (optional and choice == -1):
                for i in range(n):
                    if self.opts[i] == choice:
                        break
                else:
                    options = [self.opts[i] for i in range(n)]
                    if optional:
                        options.insert(0, -1)
                    self.k_not_legal(decision, choice, options)
        else:
            options = [self.opts[i] for i in range(n)]
            if optional:
                options.insert(0, -1)
            choice = self.external_choice(decision, who, options)
        if kind != POLICY_RANDOM and not (optional and choice == -1):
            for i in range(n):
                if self.opts[i] == choice:
                    break
            else:
                raise RuleError(f"decision {DECISION_NAMES[decision]}: {choice} is not a "
                                "legal option")
        if self.tracing:
            self.trace_lines.append(f"  p{who + 1} decides {DECISION_NAMES[decision]}="
                                    f"{traced(DECISION_TYPES[decision], choice)}")
        return choice

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1, check=True)
    def k_script_answers(self, decision: cython.int, who: cython.int) -> cython.bint:
        """Whether the replay script answers this decision: it is not empty, the seat is one
        it answers for (use_script: a seat with a built-in policy replays itself, its draws
        being the game's), and no forced answer comes first (external_choice's order)."""
        return self.script_pos < self.script_len and (self.script_seats >> who) & 1 \
            and not (self.n_forced > 0 and self.is_forced(decision, who))

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_scripted(self, decision: cython.int) -> cython.int:
        """The replay script's next answer (its legality is the caller's to check)."""
        action: cython.int = self.script[self.script_pos]
        self.script_pos += 1
        self.refresh_plain()
        return action

    def k_not_legal(self, decision: int, action: int, options: list) -> None:
        """A scripted answer that is not legal: external_choice's error."""
        raise RuleError(f"{DECISION_NAMES[decision]}: action {action} is not legal "
                        f"(legal: {options})")

    def external_choice(self, decision: int, who: int, options: list) -> int:
        """Forced answers (scenarios), then a replay script, then a Python policy, else suspend."""
        name = DECISION_NAMES[decision]
        queue = self.forced.get(forced_key(name, who)) or self.forced.get(name)
        if queue:
            self.n_forced -= 1
            self.refresh_plain()
            return kept_answer(name, queue.pop(0))
        if self.script_pos < self.script_len:
            action = self.script[self.script_pos]
            self.script_pos += 1
            self.refresh_plain()
            if action not in options:
                raise RuleError(f"{name}: action {action} is not legal (legal: {options})")
            return action
        policy = self.external[who]
        if policy is not None:
            return kept_answer(name, policy(self, name, who, options))
        self.pending = (name, who, options)
        raise Suspend(name)
