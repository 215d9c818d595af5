# ruff: noqa: F405
# The game loop, in Cython pure-Python mode: start, turns and rounds, the end of the game
# and its ranking and winners, then resting spaces, a move's way and placement, and the
# turn order. Pasted between kernel.py (the game's state and the hooks this loop calls,
# which the edition's Game overrides) and kernel_primitives.py (see kernel.py). The
# edition's Game generates its own loop of turns for an untraced game, and the landing of
# a move (compiler/back/templates/game_loop.py.j2), calling the turn's bookkeeping here
# (k_turn_starts, k_turn_ends): a change of k_play_loop's own tests or of k_way's callers
# is made there too, and tests/compiler/test_game_loop.py compares the two loops.
import cython

from .kernel import *  # noqa: F403  (one text when pasted)
from .kernel_support import *  # noqa: F403


@cython.cclass
class Play(Kernel):
    """The game loop, movement and the turn order."""

    # ---- the game loop ----------------------------------------------------------
    @cython.ccall
    def start(self) -> cython.int:
        """Deal the decks, run the start rules and pick the first player (once)."""
        d: cython.int
        i: cython.int
        if self.started:
            return 0
        self.started = True
        for d in range(self.n_decks):
            self.deck_head[d] = 0
            self.deck_count[d] = self.deck_size[d]
            for i in range(self.deck_size[d]):
                self.queue[self.deck_first[d] + i] = self.deck_first[d] + i
            self.k_shuffle(d)
        try:
            self.event_start()
        except Unwind:
            pass
        self.settle_unwinding()
        self.current = self.first_player()
        if self.tracing:
            self.trace_lines.append(f"start first=p{self.current + 1}")
        return 0

    @cython.ccall
    def play(self, max_turns: cython.int = -1) -> cython.int:
        """Play turns until the game is over, capped, or max_turns more turns were played."""
        self.start()
        if self.tracing:
            return self.k_play_loop(max_turns)
        return self.play_turns(max_turns)

    @cython.cfunc
    @cython.exceptval(-1)
    def play_turns(self, max_turns: cython.int) -> cython.int:
        """The turns of an untraced game: the edition's Game generates its own loop, the
        same as k_play_loop's but calling its own methods directly and left without the
        tests of what the edition has none of (templates/game_loop.py.j2)."""
        return self.k_play_loop(max_turns)

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_play_loop(self, max_turns: cython.int) -> cython.int:
        """The game loop every game can take (a traced one does): the turns until the
        game is over, capped, or max_turns more turns were played."""
        played: cython.int = 0
        p: cython.int
        while not self.over and (max_turns < 0 or played < max_turns):
            if self.turn_cap > 0 and self.turn >= self.turn_cap:
                self.capped = True
                self.over = True
                break
            p = self.current
            played += 1
            self.run_turn(p)
            if self.over or self.k_game_ends():
                self.over = True
                break
            self.current = self.k_next_player(p)
        return played

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def run_turn(self, p: cython.int) -> cython.int:
        """One turn of p: the turn rules until they end (or end the game)."""
        self.current = p
        self.k_turn_starts()
        if self.tracing:
            self.k_turn_noted(p)
        if self.unwinds:
            self.k_turn_unwinding(p)
        else:
            self.event_turn(p)
        self.k_turn_ends(p)
        if self.turn_over_handled and not self.over and self.alive[p]:
            self.k_turn_over(p)
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def k_turn_starts(self) -> cython.int:
        """The bookkeeping before a turn's rules run (run_turn's, and the edition's own
        loop's: templates/game_loop.py.j2)."""
        self.rounds = 0
        self.call_depth = 0
        self.turn += 1
        self.handling = 0  # the turn's rules: their dice are throws
        self.throw_open = False
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def k_turn_ends(self, p: cython.int) -> cython.int:
        """The bookkeeping once p's turn rules are done, however they ended: an `end turn`
        settled, the last throw's rest counted, the round."""
        self.settle_unwinding()
        self.handling = 1  # dice rolled outside the turn's rules are no throws
        if self.throw_open:  # the turn's last throw is over
            self.k_rest()
        self.k_count_round(p)
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_turn_over(self, p: cython.int) -> cython.int:
        """p's turn is over, however it ended, the game is not and p is still in it: the
        `turn_over` handlers, out of run_turn's plain path. Dice they roll are no throw;
        an `end turn` among them ends them, an `end game` the game."""
        if self.tracing:
            self.trace_lines.append(f"turn over p{p + 1}")
        self.call_depth = 0  # (an `end turn` by an exception left its count behind)
        if self.unwinds:
            self.k_turn_over_unwinding(p)
        else:
            self.event_turn_over(p)
        self.settle_unwinding()
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_turn_over_unwinding(self, p: cython.int) -> cython.int:
        """The `turn_over` handlers of a program whose `end turn` may leave an expression,
        inside a try (as k_turn_unwinding runs the turn)."""
        try:
            self.event_turn_over(p)
        except Unwind:
            pass
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_turn_unwinding(self, p: cython.int) -> cython.int:
        """The turn's rules of a program whose `end turn` may leave an expression (an
        exception): caught here, out of run_turn's plain path."""
        try:
            self.event_turn(p)
        except Unwind:
            pass
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_turn_noted(self, p: cython.int) -> cython.int:
        """A turn's trace line, out of run_turn's plain path."""
        self.trace_lines.append(f"turn {self.turn} p{p + 1} cash={self.cash[p]}")
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_count_round(self, p: cython.int) -> cython.int:
        """p has had a turn: the round is complete once every player still in has had one."""
        self.had_turn |= cython.cast(cython.uint, 1) << p
        if self.alive_seats & ~self.had_turn:
            return 0
        self.round_count += 1
        self.had_turn = 0
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1, check=True)
    def k_game_ends(self) -> cython.bint:
        """After a turn: whether the game is over (`over when`, else the round limit)."""
        limit: cython.int
        if self.game_over():
            return True
        limit = self.round_limit()
        if limit > 0 and self.round_count >= limit:
            self.ended_by = END_ROUNDS
            return True
        return False

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def settle_unwinding(self) -> cython.int:
        """The rules have returned to the loop: `end game` ends it, `end turn` is done."""
        if self.unwinding == UNWIND_GAME:
            self.over = True
        self.unwinding = 0
        return 0

    # ---- the ranking ------------------------------------------------------------------
    # A winner named by `end game winner p` ranks first; then the players still in, by
    # score and its tie-breakers in order; then those out, the last out highest. Players
    # equal on all of it share a place; the winners are those sharing first place, if
    # one of them is still in (or was named).
    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_outranks(self, a: cython.int, b: cython.int, va: cython.int,
                   vb: cython.int) -> cython.int:
        """1 when a ranks above b, -1 below, 0 when they share a place (va and vb: their
        scores, which k_place_all reads once per ranking)."""
        k: cython.int = 0
        if a == b:
            return 0
        if self.declared_winner >= 0 and (a == self.declared_winner
                                          or b == self.declared_winner):
            return 1 if a == self.declared_winner else -1
        if self.alive[a] != self.alive[b]:
            return 1 if self.alive[a] else -1
        if not self.alive[a]:
            va = self.out_order[a]
            vb = self.out_order[b]
        while va == vb and k < self.tie_breaks() and self.alive[a]:
            va = self.tie_break(a, k)
            vb = self.tie_break(b, k)
            k += 1
        return 0 if va == vb else (1 if va > vb else -1)

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_place_all(self) -> cython.int:
        """Each player's place into `places`: 1 + how many players rank above them
        (players sharing a place share its number, and the next place counts them all:
        1, 1, 3). A score is read once; a tie-breaker only for players tied before it."""
        score: cython.int[16]  # CAP_PLAYERS
        p: cython.int
        q: cython.int
        above: cython.int
        if not cython.compiled:
            score = [0] * CAP_PLAYERS
        for p in range(self.n_players):
            score[p] = self.score(p) if self.alive[p] else 0
        for p in range(self.n_players):
            above = 0
            for q in range(self.n_players):
                if self.k_outranks(q, p, score[q], score[p]) > 0:
                    above += 1
            self.places[p] = above + 1
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_won(self, p: cython.int) -> cython.bint:
        """After k_place_all: p shares first place, and is still in (or was named)."""
        return self.places[p] == 1 and (self.alive[p] != 0 or p == self.declared_winner)

    @cython.ccall
    @cython.exceptval(-2147483647, check=True)
    def k_rank(self, p: cython.int) -> cython.int:
        """p's place (`rank(p)`)."""
        self.k_place_all()
        return self.places[p]

    @cython.ccall
    @cython.exceptval(-1, check=True)
    def k_is_winner(self, p: cython.int) -> cython.bint:
        """Whether p is one of the winners (`is_winner(p)`)."""
        self.k_place_all()
        return self.k_won(p)

    @cython.ccall
    def winner(self) -> cython.int:
        """The one winner, or -1: nobody, or a win shared by several (winners() names them)."""
        found: cython.int = -1
        p: cython.int
        self.k_place_all()
        for p in range(self.n_players):
            if self.k_won(p):
                if found >= 0:
                    return -1
                found = p
        return found

    # ---- resting spaces ----------------------------------------------------------
    # A throw is the dice the turn's own rules roll (not a land or pass handler's, such as
    # a utility's or a card's dice) until the turn's player's token is next placed. It is
    # over when the next throw begins or the turn ends: the space the token then rests on
    # counts once (a card's move or a trip to Jail included; a throw moving nothing rests).
    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_note_throw(self) -> cython.int:
        """A die of the turn's rules: after a placement it begins a new throw."""
        if self.throw_open and self.placed_since_throw:
            self.k_rest()
        self.throw_open = True
        self.placed_since_throw = False
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_rest(self) -> cython.int:
        """The open throw is over: count where the turn's player rests. A player who went
        bankrupt on that throw counts too, as published landing tables count every throw."""
        self.throw_open = False
        self.rest_count[self.position[self.current]] += 1
        return 0

    # ---- decks -------------------------------------------------------------------
    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_shuffle(self, d: cython.int) -> cython.int:
        first: cython.int = self.deck_first[d]
        size: cython.int = self.deck_size[d]
        n: cython.int = self.deck_count[d]
        i: cython.int
        j: cython.int
        a: cython.int
        b: cython.int
        tmp: cython.int
        if self.chance_mode:  # the cards are revealed one by one as they are drawn
            self.unrevealed[d] = n
            return 0
        for i in range(n - 1, 0, -1):
            j = self.chance.draw_below(i + 1)
            a = first + (self.deck_head[d] + i) % size
            b = first + (self.deck_head[d] + j) % size
            tmp = self.queue[a]
            self.queue[a] = self.queue[b]
            self.queue[b] = tmp
        return 0

    # ---- movement --------------------------------------------------------------
    # A move is its way, here, then its landing, which the edition's Game adds (k_move and
    # k_move_to, templates/game_loop.py.j2) with its land handlers inline.
    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-2147483647, check=True)
    def k_way(self, p: cython.int, steps: cython.int) -> cython.int:
        """The way of p's move by steps along the track: the pass events on it (forward
        only); the space the move lands on, or -1 when a pass event ended the turn."""
        start: cython.int = self.track_of[self.position[p]]
        if steps > LOOP_LIMIT or steps < -LOOP_LIMIT:
            return self.k_too_far(steps)
        if self.pass_between(p, start, steps):
            return -1
        return self.space_at_track[on_lap(start + steps, self.track_length)]

    @cython.cfunc
    @cython.final
    @cython.exceptval(-2147483647, check=True)
    def k_too_far(self, steps: cython.int) -> cython.int:
        """A move too long to make: a rules error (out of k_way, which C inlines)."""
        raise RuleError(f"a move of {steps} spaces: more than {LOOP_LIMIT}")

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1, check=True)
    def k_way_to(self, p: cython.int, s: cython.int) -> cython.bint:
        """The way of p's advance forward to space s: the pass events between; whether one
        ended the turn."""
        start: cython.int = self.track_of[self.position[p]]
        return self.pass_between(p, start, on_lap(self.track_of[s] - start, self.track_length))

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1, check=True)
    def pass_between(self, p: cython.int, start: cython.int, steps: cython.int) -> cython.bint:
        """The pass events of the spaces strictly between track positions start and
        start + steps (where a handler may run); whether one ended the turn."""
        n: cython.int = self.track_length
        i: cython.int
        at: cython.int
        passed: cython.int
        if n <= 0 or start < 0:
            return False
        if not self.pass_gaps_known:
            self.k_pass_gaps()
        # jump from one space with a handler to the next (start is a track position, as
        # track_of gives: no lap to take)
        i = self.pass_gap[start]
        while i < steps:
            at = on_lap(start + i, n)
            passed = self.space_at_track[at]
            self.handling += 1
            self.event_pass(p, passed)
            self.handling -= 1
            if self.unwinding:
                return True
            i += self.pass_gap[at]
        return False

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def k_pass_gaps(self) -> cython.int:
        """pass_gap from pass_mask: a move then visits only the spaces it may pass with
        effect, not every space it crosses."""
        n: cython.int = self.track_length
        t: cython.int
        following: cython.int = -1  # the first position after t with a handler (unrolled)
        for t in range(2 * n - 1, -1, -1):  # twice round: the next one may be past GO
            if t < n:
                self.pass_gap[t] = following - t if following >= 0 else n + 1
            if self.pass_mask[self.space_at_track[t % n]]:
                following = t
        self.pass_gaps_known = True
        return 0

    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(-1)
    def k_place(self, p: cython.int, s: cython.int) -> cython.int:
        """Put p on s directly: no pass or land events; counted as where a move ended."""
        self.position[p] = s
        self.land_count[s] += 1
        self.moves += 1
        if p == self.current:
            self.placed_since_throw = True
        if self.tracing:
            self.k_place_noted(p, s)
        return 0

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_place_noted(self, p: cython.int, s: cython.int) -> cython.int:
        """A placement's trace line, out of k_place's plain path."""
        self.trace_lines.append(f"  p{p + 1} at {SPACE_IDS[s]}")
        return 0

    # ---- players ---------------------------------------------------------------
    @cython.cfunc
    @cython.final
    @cython.inline
    @cython.exceptval(check=False)
    def k_next_player(self, p: cython.int) -> cython.int:
        """The next seat after p still in, round the table (p when nobody else is)."""
        later: cython.uint = self.alive_seats & ~((cython.cast(cython.uint, 2) << p) - 1)
        if later:
            return lowest_bit(later)
        if self.alive_seats:
            return lowest_bit(self.alive_seats)
        return p
