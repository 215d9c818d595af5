# ruff: noqa: F405
# The runtime kernel's Python side, in Cython pure-Python mode: what scenarios, the
# GameState API and the harness call between turns (scripted rolls, cards and answers,
# replay scripts, copying and inspection). None of it runs inside a turn. Pasted last
# (see kernel.py).
import cython

from .kernel import *  # noqa: F403  (one text when pasted)
from .kernel_decisions import *  # noqa: F403
from .kernel_primitives import *  # noqa: F403
from .kernel_support import *  # noqa: F403


@cython.cclass
class KernelApi(Decisions):
    """The kernel, and what Python calls on it between turns."""

    def __reduce__(self):
        """A game is copied with copy(), never pickled: the same error on both backends."""
        raise TypeError("a Game cannot be pickled: copy it with copy()")

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_recount_alive(self) -> cython.int:
        """How many players are still in, and which, again from who is (after it was set
        from outside the rules): `count(q in players)` reads the count, a round's end the
        seats."""
        p: cython.int
        self.n_alive = 0
        self.alive_seats = 0
        for p in range(self.n_players):
            if self.alive[p]:
                self.n_alive += 1
                self.alive_seats |= cython.cast(cython.uint, 1) << p
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_rebuild_held(self) -> cython.int:
        """Each player's list of cards again, from who holds each card (after the holders
        were set from outside the rules): every card handed over again, through
        k_set_holder."""
        card: cython.int
        p: cython.int
        for p in range(CAP_PLAYERS):
            self.held_first[p] = -1
        for card in range(CAP_CARDS):
            p = self.card_holder[card]
            self.card_holder[card] = -1
            self.k_set_holder(card, p)
        return 0

    def settle(self) -> None:
        """After rules code called from Python (a scenario's `given` block): an `end turn`
        it reached is done, as when the rules return to the game loop, and an `end game`
        ends the game; the steps after it run as usual."""
        self.settle_unwinding()

    def play_turn(self, p: int) -> None:
        """Play one turn of seat p now, out of the normal order (scenarios)."""
        self.start()
        self.run_turn(p)
        if not self.over and self.k_game_ends():
            self.over = True

    def script_rolls(self, values, dice=None) -> None:
        """Force the next rolls (scenarios): each value must be a face of the die rolled and,
        when `dice` gives a bit mask per value (bit d for die d), of one of those dice."""
        masks = [int(m) for m in dice] if dice is not None else [-1] * len(values)
        if len(masks) != len(values):
            raise ValueError("one mask of dice per scripted roll")
        self.script_dice = list(self.script_dice[self.dice_pos:]) + [int(v) for v in values]
        self.script_for = list(self.script_for[self.dice_pos:]) + masks
        self.dice_pos = 0
        self.dice_len = len(self.script_dice)

    def strict_rolls(self, on: bool) -> None:
        """While on, a roll with no scripted roll left is an error, not a random roll."""
        self.dice_strict = bool(on)

    def rolls_left(self) -> int:
        """How many scripted rolls are not rolled yet."""
        return self.dice_len - self.dice_pos

    def answers_left(self) -> dict:
        """The forced answers not used yet, by decision."""
        return {name: list(queue) for name, queue in self.forced.items() if queue}

    def exchange_answers(self, queues: dict) -> dict:
        """Put these forced answers (by decision, or by decision and seat as `force_answers`
        queues them) in place of the queued ones; give those."""
        for key in queues:
            if forced_decision(key) not in DECISION_NAMES:
                raise RuleError(f"no decision named {key!r}")
        old = self.answers_left()
        self.forced = {name: [int(a) for a in queue] for name, queue in queues.items()}
        self.n_forced = sum([len(queue) for queue in self.forced.values()])
        self.refresh_plain()
        return old

    def clear_ledger(self) -> None:
        """Forget the payments so far: scenarios count only those their steps cause."""
        self.ledger = []

    def keep_ledger(self, on: bool = True) -> None:
        """Record every payment (`payments()`) without the cost of a trace (the invariant
        checker's); tracing keeps the ledger anyway."""
        self.ledgering = bool(on) or self.tracing

    def stack_cards(self, d: int, cards) -> None:
        """Put cards like these (in order) on top of deck d (scenarios force card draws).

        A card stands for any of its copies still in the deck."""
        remaining = self.deck_order(d)
        chosen = []
        for card in cards:
            copy = -1
            for c in remaining:
                if CARD_KINDS[c] == CARD_KINDS[card]:
                    copy = c
                    break
            if copy < 0:
                raise RuleError(f"card {CARD_IDS[card]} is not in deck {DECK_NAMES[d]}")
            remaining.remove(copy)
            chosen.append(copy)
        order = chosen + remaining
        self.deck_head[d] = 0
        for i, card in enumerate(order):
            self.queue[self.deck_first[d] + i] = card

    def force_answers(self, decision: str, answers, who: int = -1) -> None:
        """Queue answers for a named decision, whoever takes it, or only when seat `who`
        takes it (scenarios: `answer D by p2 [...]`; those come first)."""
        if decision not in DECISION_NAMES:
            raise RuleError(f"no decision named {decision!r}")
        key = decision if who < 0 else forced_key(decision, who)
        self.forced.setdefault(key, []).extend([int(a) for a in answers])
        self.n_forced += len(answers)
        self.refresh_plain()

    def script_consumed(self) -> int:
        """How many actions of the replay script have been used."""
        return self.script_pos

    def set_script(self, actions) -> None:
        """Replay these actions, in order, at the next external decisions."""
        self.script = [int(a) for a in actions]
        self.script_pos = 0
        self.script_len = len(self.script)
        self.refresh_plain()

    def copy_kernel_into(self, other: Kernel) -> None:
        other.n_alive = self.n_alive
        other.alive_seats = self.alive_seats
        other.current = self.current
        other.turn = self.turn
        other.turn_cap = self.turn_cap
        other.over = self.over
        other.capped = self.capped
        other.started = self.started
        other.cash = list(self.cash)
        other.position = list(self.position)
        other.alive = list(self.alive)
        other.had_turn = self.had_turn
        other.round_count = self.round_count
        other.bankruptcies = self.bankruptcies
        other.ended_by = self.ended_by
        other.declared_winner = self.declared_winner
        other.policy = list(self.policy)
        other.external = list(self.external)
        other.land_count = list(self.land_count)
        other.rest_count = list(self.rest_count)
        other.in_turn = self.in_turn
        other.handling = self.handling
        other.throw_open = self.throw_open
        other.placed_since_throw = self.placed_since_throw
        other.moves = self.moves
        other.changes = self.changes
        other.blind_changes = self.blind_changes
        other.window_closed = list(self.window_closed)
        other.window_seen = list(self.window_seen)
        other.window_moves = list(self.window_moves)
        other.window_turn = list(self.window_turn)
        other.deck_head = list(self.deck_head)
        other.deck_count = list(self.deck_count)
        other.queue = list(self.queue)
        other.card_holder = list(self.card_holder)
        other.held_first = list(self.held_first)
        other.held_next = list(self.held_next)
        other.rule_fired = list(self.rule_fired)
        other.chance = self.chance.copy()
        other.policy_rng = self.policy_rng.copy()
        other.script_dice = list(self.script_dice)
        other.script_for = list(self.script_for)
        other.dice_strict = self.dice_strict
        other.dice_pos = self.dice_pos
        other.dice_len = self.dice_len
        other.script = list(self.script)
        other.script_pos = self.script_pos
        other.script_len = self.script_len
        other.forced = {name: list(queue) for name, queue in self.forced.items()}
        other.n_forced = self.n_forced
        other.plain = self.plain
        other.inline_seats = self.inline_seats
        other.trace_lines = list(self.trace_lines)
        other.ledger = list(self.ledger)

    def landings(self) -> list:
        return [self.land_count[s] for s in range(self.n_spaces)]

    def rests(self) -> list:
        """Per space, how many throws left the turn's token resting there (k_rest)."""
        return [self.rest_count[s] for s in range(self.n_spaces)]

    def fired(self, n_rules: int) -> list:
        return [self.rule_fired[r] for r in range(n_rules)]

    def add_counts(self, landings: list, rests: list, fired: list) -> None:
        """Add this game's landings, rests and rules fired, element by element, to a
        simulation's running totals (one per space, per space, per rule): in C, where three
        lists a game added up in Python took a tenth of a simulated game's time."""
        i: cython.int
        for i in range(min(len(landings), len(rests), self.n_spaces)):
            landings[i] += self.land_count[i]
            rests[i] += self.rest_count[i]
        for i in range(min(len(fired), CAP_RULES)):
            fired[i] += self.rule_fired[i]

    def trace(self) -> list:
        return list(self.trace_lines)

    def payments(self) -> list:
        return list(self.ledger)

    def players_cash(self) -> list:
        return [self.cash[p] for p in range(self.n_players)]

    def alive_of(self, p: int) -> bool:
        return self.alive[p] != 0

    def position_of(self, p: int) -> int:
        return self.position[p]

    def holders(self) -> list:
        """Who holds each card (-1: in its deck or nobody)."""
        return [self.card_holder[c] for c in range(self.n_cards)]
