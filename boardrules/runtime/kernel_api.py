# ruff: noqa: F405
# The runtime kernel's Python side, in Cython pure-Python mode: what scenarios, the
# GameState API and the harness call between turns (scripted rolls, cards and answers,
# replay scripts, copying and inspection). None of it runs inside a turn. Pasted last
# (see kernel.py).
import cython

from .kernel import *  # noqa: F403  (one text when pasted)
from .kernel_decisions import *  # noqa: F403
from .kernel_decks import *  # noqa: F403
from .kernel_play import *  # noqa: F403
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
        self.refresh_dice()

    def strict_rolls(self, on: bool) -> None:
        """While on, a roll with no scripted roll left is an error, not a random roll."""
        self.dice_strict = bool(on)
        self.refresh_dice()

    def script_random(self, values) -> None:
        """Force random(n)'s next values (scenarios), in order; each must be below its n."""
        self.random_script = list(self.random_script[self.random_pos:]) + [int(v) for v in values]
        self.random_pos = 0
        self.random_len = len(self.random_script)

    def strict_random(self, on: bool) -> None:
        """While on, random(n) with no scripted value left is an error, not a draw."""
        self.random_strict = bool(on)

    def random_left(self) -> int:
        """How many scripted values of random(n) are not drawn yet."""
        return self.random_len - self.random_pos

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

        A card stands for itself while it is in the deck, else for any of its copies still
        there (so a scenario naming a card draws that card, whatever the shuffle)."""
        remaining = self.deck_order(d)
        chosen = []
        for card in cards:
            copy = card if card in remaining else -1
            if copy < 0:
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
        self.unrevealed[d] = 0  # the order is given
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
        """Replay these actions, in order, at the next external decisions (and chance nodes,
        in chance mode)."""
        self.use_script([int(a) for a in actions])

    def use_script(self, actions: list, seats: int = ALL_SEATS) -> None:
        """set_script's, for a list of ints that is the game's from now on (GameState's
        replays: no copy, no conversion of a turn's actions at every step). `seats`: a bit
        per seat whose decisions it answers (the others' policies answer theirs, as they
        did when the actions were taken); chance nodes take it whoever plays."""
        self.script = actions
        self.script_pos = 0
        self.script_len = len(actions)
        self.script_seats = seats
        self.refresh_plain()

    def copy_objects_into(self, other: Kernel) -> None:
        """The game's Python objects into a copy whose C fields are copied (the generated
        copy_c_fields_into): generators, scripts, forced answers, policies, trace, ledger
        and the pending decision."""
        other.chance = self.chance.copy()
        other.policy_rng = self.policy_rng.copy()
        other.script_dice = list(self.script_dice)
        other.script_for = list(self.script_for)
        other.random_script = list(self.random_script)
        other.script = list(self.script)
        other.forced = {name: list(queue) for name, queue in self.forced.items()}
        other.external = list(self.external)
        other.trace_lines = list(self.trace_lines)
        other.ledger = list(self.ledger)
        other.pending = self.pending

    def objects_state(self) -> dict:
        """The Python objects of objects_into as JSON-ready data (a serialization's; a
        Python policy cannot be kept)."""
        if [policy for policy in self.external if policy is not None]:  # (no generator)
            raise ValueError("a game with a Python policy cannot be serialized")
        return {"chance": self.chance.state(), "policy_rng": self.policy_rng.state(),
                "script_dice": list(self.script_dice), "script_for": list(self.script_for),
                "random_script": list(self.random_script),
                "script": list(self.script), "forced": self.answers_left(),
                "trace_lines": list(self.trace_lines),
                "ledger": [list(entry) for entry in self.ledger],
                "pending": None if self.pending is None else [
                    self.pending[0], self.pending[1], list(self.pending[2])]}

    def load_objects_state(self, data: dict) -> None:
        """objects_state's data back into this game."""
        self.chance = Rng.from_state(data["chance"])
        self.policy_rng = Rng.from_state(data["policy_rng"])
        self.script_dice = [int(v) for v in data["script_dice"]]
        self.script_for = [int(v) for v in data["script_for"]]
        self.random_script = [int(v) for v in data["random_script"]]
        self.script = [int(v) for v in data["script"]]
        self.forced = {str(name): [int(a) for a in queue]
                       for name, queue in data["forced"].items()}
        self.external = [None] * 16
        self.trace_lines = [str(line) for line in data["trace_lines"]]
        self.ledger = [tuple(entry) for entry in data["ledger"]]
        pending = data["pending"]
        self.pending = None if pending is None else (str(pending[0]), int(pending[1]),
                                                     [int(a) for a in pending[2]])

    def set_chance_mode(self, mode: int) -> None:
        """0: dice, random() and shuffles draw from the seed's generator (the seeded game);
        1: each is a chance node, answered by the replay script, else the game suspends at
        CHANCE_SEAT, and the cards a shuffle leaves in no order are revealed one by one as
        they are drawn; 2: the same nodes, drawn from the generator once the script is used
        (a rollout's). Set before the game starts for its first shuffles to be chance."""
        self.chance_mode = checked_int("chance mode", mode, 0, 2)
        self.refresh_dice()

    def reseed(self, seed: int, dice: bool = True) -> None:
        """Seed the policy generator afresh, as a new game's, and the chance generator
        unless not `dice` (a rollout's)."""
        value = checked_int("seed", seed, 0, MASK)
        if dice:
            self.chance.reseed(value)
        self.policy_rng.reseed(value ^ POLICY_SEED_SALT)

    def chance_words(self, outcome: int) -> str:
        """An outcome of the pending chance node as the trace shows it: the die's face, the
        card revealed (the outcome-th of the deck's cards in no order), random()'s value."""
        what: cython.int = self.chance_what
        pending = self.pending
        if pending is None or pending[1] != CHANCE_SEAT or outcome not in pending[2]:
            raise ValueError(f"{outcome} is not an outcome of a pending chance node")
        if self.chance_kind == CHANCE_ROLL:
            return traced(DIE_FACE_TYPES[what], self.die_faces[what * CAP_FACES + outcome])
        if self.chance_kind == CHANCE_DRAW:
            return CARD_IDS[self.deck_order(what)[outcome]]
        return str(outcome)

    def chance_probabilities(self) -> list:
        """The pending chance node's outcomes' probabilities, in the order of its options."""
        pending = self.pending
        if pending is None or pending[1] != CHANCE_SEAT:
            return []
        options = pending[2]
        if self.chance_kind != CHANCE_ROLL:
            return [1.0 / len(options)] * len(options)
        size: cython.int = self.die_size[self.chance_what]
        faces = [self.die_faces[self.chance_what * CAP_FACES + i] for i in range(size)]
        return [faces.count(faces[i]) / size for i in options]

    def chance_cards(self, d: int) -> int:
        """How many cards from the top of deck d are in no order yet (chance mode)."""
        return self.unrevealed[d]

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

    def out_order_of(self, p: int) -> int:
        """When p went out: 1 for the first player out, 2 for the next...; 0 while in."""
        return self.out_order[p]

    def winners(self) -> list:
        """The seats that win: one, several sharing a tie, or none (nobody is still in)."""
        self.k_place_all()
        return [p for p in range(self.n_players) if self.k_won(p)]

    def ranks(self) -> list:
        """Each seat's place (1 the first; seats sharing a place share its number)."""
        self.k_place_all()
        return [self.places[p] for p in range(self.n_players)]

    def ranking(self) -> list:
        """The places in order, each the seats sharing it: [[1], [0, 2], [3]]."""
        ranks = self.ranks()
        return [[p for p in range(self.n_players) if ranks[p] == place]
                for place in sorted(set(ranks))]

    def score_parts(self, p: int) -> list:
        """p's score and then its tie-breakers, as the ranking compares them."""
        return [self.score(p)] + [self.tie_break(p, k) for k in range(self.tie_breaks())]

    def position_of(self, p: int) -> int:
        return self.position[p]

    def holders(self) -> list:
        """Who holds each card (-1: in its deck or nobody)."""
        return [self.card_holder[c] for c in range(self.n_cards)]
