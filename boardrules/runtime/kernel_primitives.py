# ruff: noqa: F405
# The primitives the edition's rules call on the kernel, in Cython pure-Python mode:
# the guards against a turn that never ends, dice and random numbers, distances and
# cells of the board, payments, retiring and naming players, and windows of play (decks
# are kernel_decks.py's, asking decisions kernel_decisions.py's). Pasted between
# kernel_play.py and kernel_decks.py (see kernel.py); the game loop calls none of them.
import cython

from .kernel import *  # noqa: F403  (one text when pasted)
from .kernel_play import *  # noqa: F403
from .kernel_support import *  # noqa: F403


@cython.cclass
class Primitives(Play):
    """Dice, the board, money, players and windows, as the rules use them."""

    # ---- the guards against a turn that never ends ------------------------------
    # Each is inline in the generated code, and its error, which builds a message,
    # is a call of its own: the test stays a few instructions that C inlines.
    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def k_span(self, low: cython.longlong, high: cython.longlong) -> cython.int:
        """The loop guard, before a loop over [low, high) that may be long: its length
        counts in the turn's rounds, as tick's, so that nested loops cannot run for ever."""
        if high - low > LOOP_LIMIT:
            return self.too_many_rounds(high - low)
        if high > low:
            self.rounds += high - low
            if self.rounds > LOOP_LIMIT:
                return self.too_many_rounds(0)
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def tick(self) -> cython.int:
        """Count a loop round: a turn that loops without end is a rules error, not a hang."""
        self.rounds += 1
        if self.rounds > LOOP_LIMIT:
            return self.too_many_rounds(1)
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def k_charge(self, calls: cython.int) -> cython.int:
        """A procedure whose calls, as written, may make more than CALL_WEIGHT calls
        (call_budget.py): they count in the turn's rounds, so that a tree of calls that
        grows exponentially is a rules error too, not a run of hours."""
        self.rounds += calls
        if self.rounds > LOOP_LIMIT:
            return self.too_many_rounds(-1)
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def too_many_rounds(self, span: cython.longlong) -> cython.int:
        """The error of k_span (a loop over `span` values, or 0: the turn's rounds), of
        tick (span 1), or of k_enter and k_charge (-1: the turn's rounds, calls counted)."""
        if span > LOOP_LIMIT:
            raise RuleError(f"a loop over {span} values: more than {LOOP_LIMIT} rounds")
        if span == 0:
            raise RuleError(f"loops ran more than {LOOP_LIMIT} rounds in one turn")
        if span < 0:
            raise RuleError(f"loops and calls ran more than {LOOP_LIMIT} rounds in one turn")
        raise RuleError(f"a loop ran more than {LOOP_LIMIT} rounds in one turn")

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def k_enter(self, origin: cython.int) -> cython.int:
        """Count a call of a procedure that can call itself: too deep is a rules error, and
        each call is a round of the turn (a recursion that branches could otherwise make
        2**200 calls within the depth limit)."""
        self.call_depth += 1
        self.rounds += 1
        if self.call_depth > CALL_DEPTH_LIMIT:
            return self.nested_too_deep(origin)
        if self.rounds > LOOP_LIMIT:
            return self.too_many_rounds(-1)
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def nested_too_deep(self, origin: cython.int) -> cython.int:
        raise RuleError(f"{CALL_ORIGINS[origin]}: calls nested more than "
                        f"{CALL_DEPTH_LIMIT} deep (endless recursion?)")

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_unwound(self, value: cython.int) -> cython.int:
        """A call inside an expression ended the turn: leave the expression too."""
        if self.unwinding:
            raise Unwind()
        return value

    # ---- dice and random numbers ------------------------------------------------
    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def is_face(self, die: cython.int, value: cython.int) -> cython.bint:
        for i in range(self.die_size[die]):
            if self.die_faces[die * CAP_FACES + i] == value:
                return True
        return False

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-2147483647, check=True)
    def k_roll(self, die: cython.int) -> cython.int:
        """A die's face: the plain path draws it, inline; a scripted or traced game's roll,
        or a chance node's, goes out of line (k_roll_noted), so that a seeded game pays none."""
        value: cython.int
        if not self.dice_plain:
            return self.k_roll_noted(die)
        value = self.k_face(die)
        if self.handling == 0:
            self.k_note_throw()
        return value

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_face(self, die: cython.int) -> cython.int:
        """A face of the die drawn from the seeded generator."""
        return self.die_faces[die * CAP_FACES + self.chance.draw_below(self.die_size[die])]

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_roll_noted(self, die: cython.int) -> cython.int:
        """k_roll of a game with scripted dice, a trace or chance nodes."""
        value: cython.int
        if self.dice_pos < self.dice_len:
            value = self.script_dice[self.dice_pos]
            self.dice_pos += 1
            self.refresh_dice()
            if not self.is_face(die, value) or not (
                    self.script_for[self.dice_pos - 1] >> die) & 1:
                raise ScriptedRollError(die, value)
        elif self.dice_strict:
            raise ScriptedRollError(die)
        elif self.chance_mode:
            value = self.die_faces[die * CAP_FACES + self.k_chance(CHANCE_ROLL, die,
                                                                   self.die_size[die])]
        else:
            value = self.k_face(die)
        if self.handling == 0:
            self.k_note_throw()
        if self.tracing:
            self.trace_lines.append(f"  roll {DIE_NAMES[die]}={traced(DIE_FACE_TYPES[die], value)}")
        return value

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_random(self, n: cython.int) -> cython.int:
        if n <= 0:
            raise RuleError(f"random({n}): the bound must be positive")
        if self.random_pos < self.random_len or self.random_strict:
            return self.k_random_scripted(n)
        if self.chance_mode:
            return self.k_chance(CHANCE_RANDOM, 0, n)
        return self.chance.draw_below(n)

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_random_scripted(self, n: cython.int) -> cython.int:
        """random(n)'s next scripted value (a scenario's `random` step)."""
        value: cython.int
        if self.random_pos >= self.random_len:
            raise ScriptedRandomError(n)
        value = self.random_script[self.random_pos]
        self.random_pos += 1
        if value >= n:
            raise ScriptedRandomError(n, value)
        return value

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_chance(self, kind: cython.int, what: cython.int, n: cython.int) -> cython.int:
        """A chance node of n equally likely outcomes (0 to n - 1): the replay script's
        next entry, else a draw from the generator (CHANCE_SAMPLED) or the game suspends
        with the chance seat asked, the node named by chance_label. A seeded game draws
        from its generator without coming here."""
        outcome: cython.int
        if self.script_pos < self.script_len:
            outcome = self.script[self.script_pos]
            self.script_pos += 1
            self.refresh_plain()
            if outcome < 0 or outcome >= n:
                raise RuleError(f"{chance_label(kind, what)}: outcome {outcome} is not "
                                f"from 0 to {n - 1}")
            return outcome
        if self.chance_mode == CHANCE_SAMPLED:
            return cython.cast(cython.int, self.chance.below(n))
        self.chance_kind = kind
        self.chance_what = what
        self.pending = (chance_label(kind, what), CHANCE_SEAT, self.chance_options(kind, what, n))
        raise Suspend(self.pending[0])

    def chance_options(self, kind: int, what: int, n: int) -> list:
        """A chance node's outcomes: 0 to n - 1, but of a die's equal faces only the first
        (a symbol die's two faces alike are one outcome, twice as likely)."""
        if kind != CHANCE_ROLL:
            return list(range(n))
        faces = [self.die_faces[what * CAP_FACES + i] for i in range(n)]
        return [i for i in range(n) if faces.index(faces[i]) == i]

    def k_paid(self, payer: int, payee: int) -> int:
        """The total paid from payer to payee so far (-1: the Bank), when the ledger is on."""
        return sum([amount for _, a, b, amount in self.ledger if a == payer and b == payee])

    # ---- the board, as the rules ask about it ----------------------------------
    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_distance(self, a: cython.int, b: cython.int) -> cython.int:
        """Steps forward from a to b round the track (two divisions only when a track
        position is outside [0, n), which a board never has)."""
        n: cython.int = self.track_length
        d: cython.int = self.track_of[b] - self.track_of[a]
        if d < 0:
            d += n
        if d < 0 or d >= n:
            d = (d % n + n) % n
        return d

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_space_at(self, t: cython.int) -> cython.int:
        n: cython.int = self.track_length
        return self.space_at_track[(t % n + n) % n]

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_adjacent(self, a: cython.int, b: cython.int) -> cython.bint:
        w: cython.int = self.grid_width
        return (abs(a % w - b % w) + abs(a // w - b // w)) == 1

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_cell_at(self, x: cython.int, y: cython.int) -> cython.int:
        """The cell at column x, row y of the grid; -1 (none) outside it."""
        if x < 0 or y < 0 or x >= self.grid_width or y * self.grid_width + x >= self.n_cells:
            return -1
        return y * self.grid_width + x

    # ---- money ----------------------------------------------------------------
    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def k_pay(self, payer: cython.int, payee: cython.int, amount: cython.int) -> cython.int:
        """Move money; -1 is the Bank, which never runs out. Cash is kept in 32 bits."""
        self.changes += 1
        self.cash_version += 1
        if payer >= 0:
            self.cash[payer] = narrow(wide(self.cash[payer]) - amount)
        if payee >= 0:
            self.cash[payee] = narrow(wide(self.cash[payee]) + amount)
        if self.ledgering:  # (a traced game keeps the ledger: k_setup, keep_ledger)
            self.k_pay_noted(payer, payee, amount)
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_pay_noted(self, payer: cython.int, payee: cython.int, amount: cython.int) -> cython.int:
        """A payment's ledger entry and trace line, out of k_pay's plain path."""
        if self.ledgering:
            self.ledger.append((self.turn, payer, payee, amount))
        if self.tracing:
            self.trace_lines.append(f"  pay {party(payer)}->{party(payee)} {amount}")
        return 0


    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_cash_at_least(self, cash: cython.longlong, threshold: cython.longlong) -> cython.bint:
        """cash >= threshold, for a memoized question: the range of cash with the same
        answer narrows to this side of the threshold."""
        if cash >= threshold:
            if threshold > self.cash_low:
                self.cash_low = threshold
            return True
        if threshold - 1 < self.cash_high:
            self.cash_high = threshold - 1
        return False

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_player_cash_at_least(self, p: cython.int, threshold: cython.longlong) -> cython.bint:
        """p's cash >= threshold, for a question memoized over every player's cash: the
        range of p's cash with the same answer narrows to this side of the threshold (the
        bounds stay within 32 bits: a threshold met or missed lies within cash's range)."""
        if self.cash[p] >= threshold:
            if threshold > self.cash_lows[p]:
                self.cash_lows[p] = threshold
            return True
        if threshold - 1 < self.cash_highs[p]:
            self.cash_highs[p] = threshold - 1
        return False

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_cash_spans_open(self) -> cython.int:
        """Every player's range of cash widened to all of it, before a question memoized
        over them is worked out (k_player_cash_at_least narrows them)."""
        i: cython.int
        for i in range(self.n_players):
            self.cash_lows[i] = INT_MIN
            self.cash_highs[i] = INT_MAX
        return 0

    # ---- players ---------------------------------------------------------------
    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_seat_from(self, p: cython.int, k: cython.int) -> cython.int:
        """The seat k places after p, round the table (k < the number of seats): windows ask
        it for every seat, so without the division `%` costs."""
        seat: cython.int = p + k
        if seat >= self.n_players:
            return seat - self.n_players
        if seat < 0:
            return seat + self.n_players
        return seat

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_changes(self) -> cython.int:
        """How often the game has changed: payments, counter writes, retirements, token
        moves and cards changing hands. A window's round that leaves it alone closes it."""
        return self.changes + self.blind_changes + self.moves

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_window_open(self, site: cython.int) -> cython.bint:
        """Whether the window at this site has something new to offer: the game changed
        since it last closed with every player passing (else they would pass again)."""
        return self.window_closed[site] != self.k_changes()

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_seen_changes(self) -> cython.int:
        """k_changes without the writes of counters no window reads, and with the cards
        kept and the retirements (each a sum of counts that only grow: equal sums, the
        same counts)."""
        return self.changes + self.holder_version + self.alive_version

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_window_open_seen(self, site: cython.int, moves_seen: cython.bint,
                           turn_seen: cython.bint) -> cython.bint:
        """k_window_open, also closed at once when every seat takes its default answers
        inline and nothing the window's code reads changed since all passed: no counter it
        reads, no payment, card or retirement, no move when it reads positions, not the
        turn when it reads the turn (they would all pass again: optimize/blind_writes.py).
        Closed as if it had run, its one round counted as the loop guard counts rounds."""
        seats: cython.uint
        if self.window_closed[site] == self.k_changes():
            return False
        if not self.plain or self.window_seen[site] != self.k_seen_changes() or (
                moves_seen and self.window_moves[site] != self.moves) or (
                turn_seen and self.window_turn[site] != self.turn):
            return True
        seats = (cython.cast(cython.uint, 1) << self.n_players) - 1  # every seat's bit
        if (self.inline_seats & seats) != seats or self.rounds >= LOOP_LIMIT:
            return True  # (the round it runs is one too many: it fails where it would have)
        self.rounds += 1  # the round in which all would have passed, counted (tick)
        self.window_closed[site] = self.k_changes()
        return False

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_close_window(self, site: cython.int) -> cython.int:
        self.window_closed[site] = self.k_changes()
        self.window_seen[site] = self.k_seen_changes()
        self.window_moves[site] = self.moves
        self.window_turn[site] = self.turn
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_retire(self, p: cython.int) -> cython.int:
        if self.alive[p]:
            self.alive[p] = 0
            self.alive_version += 1
            self.n_alive -= 1
            self.out_order[p] = self.n_players - self.n_alive
            self.alive_seats &= ~(cython.cast(cython.uint, 1) << p)
            self.changes += 1
            if self.tracing:
                self.trace_lines.append(f"  p{p + 1} retires")
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_declare_bankrupt(self, p: cython.int) -> cython.int:
        """p's bankruptcy is settled: counted, and the game ends now when the edition ends
        it at the first bankruptcy (`over at first bankruptcy`)."""
        self.bankruptcies += 1
        if self.ends_at_bankruptcy():
            self.ended_by = END_BANKRUPTCY
            self.unwinding = UNWIND_GAME
            if self.tracing:
                self.trace_lines.append(f"  p{p + 1} bankrupt: the game ends")
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_name_winner(self, p: cython.int) -> cython.int:
        """`end game winner p`: p wins, whatever the scores (the game ends after this)."""
        self.declared_winner = p
        self.ended_by = END_WINNER
        if self.tracing:
            self.trace_lines.append(f"  p{p + 1} wins")
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def k_some(self, value: cython.int) -> cython.int:
        if value < 0:
            return self.some_of_none()
        return value

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def some_of_none(self) -> cython.int:
        raise RuleError("some(x): x is none")

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_divisor(self, value: cython.longlong) -> cython.longlong:
        """The right operand of / or % when it may be zero: then a rules error, the same
        on both backends (not Python's and Cython's differently worded ZeroDivisionError)."""
        if value == 0:
            raise RuleError("division by zero")
        return value

    def k_log(self, text: str) -> int:
        """A line of the rules' own in the trace: one line, whatever the text holds."""
        if self.tracing:
            self.trace_lines.append("  " + text.replace("\\", "\\\\").replace("\n", "\\n")
                                    .replace("\r", "\\r"))
        return 0

    # ---- a deck's order, as a list (giving out a card from inside its deck) -----------
    def deck_order(self, d: int) -> list:
        return [self.queue[self.deck_first[d] + (self.deck_head[d] + i) % self.deck_size[d]]
                for i in range(self.deck_count[d])]
