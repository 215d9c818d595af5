# ruff: noqa: F405
# The edition-agnostic runtime kernel, in Cython pure-Python mode.
#
# Code generation pastes kernel_support.py, this file, kernel_play.py,
# kernel_primitives.py, kernel_decks.py, kernel_decisions.py and kernel_api.py, in that
# order, at the top of every edition's module (compiler/common/kernel_facts.py), where
# `class Game(KernelApi)` adds the edition's rules; each file's class derives from the
# one before. This file holds the game's state, its setup and the hooks the edition
# overrides; kernel_play.py the game loop, resting spaces, movement and the turn order;
# kernel_primitives.py what the rules call (dice, money, players, windows);
# kernel_decks.py the decks; kernel_decisions.py how decisions are answered;
# kernel_api.py what Python calls between turns. It knows no edition's names or
# numbers. Capacities are generic upper bounds that the checker enforces. Every 64-bit
# operation is masked so that CPython's unbounded ints and C's wrapping ones give the
# same random stream.
#
# Exception specifications: a method that returns a status (0) returns -1 on an exception
# (`exceptval(-1)`: no error check on success); one that returns a value signals an
# exception with the rare value -2147483647 (ERROR_VALUE below, written out in the
# decorators as Cython needs), checked only when it comes back; one that cannot raise is
# `noexcept` (`check=False`). `end turn` and `end game` are not exceptions: they set
# `unwinding`, and every caller that may see it returns at once, up to the game loop.
#
# Every C method is `final` but the hooks below that the edition's Game overrides:
# Cython then calls it directly rather than through the class's table of methods, and
# the C compiler may inline the small ones (`inline`: the loop guard, the window's seats).
import cython

from .kernel_support import *  # noqa: F403  (one text when pasted)


@cython.cclass
class Kernel:
    """The game's state, its setup, and the hooks the edition's Game overrides."""

    n_players = cython.declare(cython.int, visibility="readonly")
    n_alive = cython.declare(cython.int, visibility="readonly")
    current = cython.declare(cython.int, visibility="readonly")
    turn = cython.declare(cython.int, visibility="readonly")
    turn_cap = cython.declare(cython.int, visibility="readonly")
    over = cython.declare(cython.bint, visibility="readonly")
    capped = cython.declare(cython.bint, visibility="readonly")
    started = cython.declare(cython.bint, visibility="readonly")
    tracing = cython.declare(cython.bint, visibility="readonly")
    unwinding: cython.int  # 0, or UNWIND_TURN / UNWIND_GAME while the rules return to the loop
    # the rules may end a turn inside an expression (k_unwound raises Unwind): only then
    # does a turn run inside a try, which saves the thread's exception state every turn
    unwinds: cython.bint
    # some rule handles `turn_over` (the edition's Game says): only then does a turn end
    # with the call of its handlers, so a game without one pays a test a turn
    turn_over_handled: cython.bint
    call_depth: cython.int  # procedures that can call themselves, active now
    ledgering: cython.bint  # payments recorded: always in a traced game (k_pay tests it alone)
    cash: cython.int[16]
    position: cython.int[16]
    alive: cython.int[16]
    # per player out of the game, the order they went out in (1: the first); 0 while in
    out_order: cython.int[16]
    places: cython.int[16]  # each player's place in the ranking, as k_place_all last found
    policy: cython.int[16]
    # the board
    n_spaces: cython.int
    track_length: cython.int
    track_of: cython.int[256]
    space_at_track: cython.int[256]
    grid_width: cython.int
    n_cells: cython.int
    land_count: cython.int[256]
    # Resting spaces, as published landing tables count them: where the turn's player's
    # token rests once a dice throw and all it caused are over (k_note_throw below).
    rest_count: cython.int[256]
    # what makes a die no throw, one count each: being outside the turn's rules, and every
    # land and pass event being handled (one test where a die is drawn: 0, a throw's)
    handling: cython.int
    throw_open: cython.bint  # a throw of this turn whose resting space is not counted yet
    placed_since_throw: cython.bint  # the turn's player's token was placed since its dice
    pass_mask: cython.int[256]  # whether a pass handler may run on each space (the edition's)
    # from each track position, the steps to the next position whose space has a pass
    # handler (track_length + 1: none), worked out from pass_mask when first needed
    pass_gap: cython.int[256]
    pass_gaps_known: cython.bint
    moves = cython.declare(cython.int, visibility="readonly")
    changes: cython.int  # payments, counter writes, cards, retirements (k_changes adds moves)
    blind_changes: cython.int  # writes of counters no window reads (optimize/blind_writes.py)
    window_closed: cython.int[64]  # per window site: k_changes() when all last passed
    window_seen: cython.int[64]  # per window site: k_seen_changes() when all last passed
    window_moves: cython.int[64]  # per window site: `moves` when all last passed
    window_turn: cython.int[64]  # per window site: the turn when all last passed
    rounds: cython.int
    # Rounds of play (`rounds`): one ends when every player still in has had a turn in it.
    round_count = cython.declare(cython.int, visibility="readonly")
    had_turn: cython.uint  # a bit per seat that has had a turn in the round
    alive_seats: cython.uint  # a bit per seat still in (kept with n_alive)
    bankruptcies = cython.declare(cython.int, visibility="readonly")  # declare_bankrupt() calls
    ended_by = cython.declare(cython.int, visibility="readonly")  # END_*: an end the kernel saw
    declared_winner = cython.declare(cython.int, visibility="readonly")  # end game winner p
    # dice
    n_dice: cython.int
    die_faces: cython.int[256]
    die_size: cython.int[8]
    # decks: each deck owns the slice [first, first + size) of the card queue
    n_decks: cython.int
    n_cards: cython.int
    deck_first: cython.int[32]
    deck_size: cython.int[32]
    deck_head: cython.int[32]
    deck_count: cython.int[32]
    queue: cython.int[512]
    # Chance mode (set_chance_mode; 0: seeded): each throw, random() and the draw of a card
    # whose place a shuffle left open is a chance node (k_chance), answered from the replay
    # script, else a Suspend (CHANCE_NODES: the seed decides nothing) or a draw from the
    # generator (CHANCE_SAMPLED: a rollout's). Per deck, how many cards from its head a
    # shuffle left in no order yet: the next draw reveals one of them (k_reveal).
    chance_mode: cython.int
    chance_kind: cython.int  # the pending chance node's: CHANCE_ROLL, CHANCE_RANDOM, CHANCE_DRAW
    chance_what: cython.int  # ...and its die or deck
    unrevealed: cython.int[32]
    card_deck: cython.int[512]
    card_holder: cython.int[512]
    # each player's cards in card order, a list linked through held_next (-1 ends it):
    # questions about a player's hand walk it instead of every card (k_set_holder keeps it)
    held_first: cython.int[16]
    held_next: cython.int[512]
    holder_version: cython.int  # bumped by every change of card_holder: memoized queries read it
    held_version: cython.int[16]  # per player: bumped when the player gains or loses a card
    card_key: cython.int[512]  # each card's value of the field memos key hands by (the edition's)
    held_key_version: cython.int[256]  # per player and card key: a card of that key gained or lost
    held_deck_version: cython.int[512]  # per player and deck: a card of that deck gained or lost
    alive_version: cython.int  # bumped when a player retires: memoized queries over players read it
    cash_version: cython.int  # bumped by every payment: memos of every player's cash read it
    # the range of a player's cash with the same answer to the question being worked out
    cash_low: cython.longlong
    cash_high: cython.longlong
    # per player, the same for a question that compares several players' cash (cash_spans.py)
    cash_lows: cython.int[16]
    cash_highs: cython.int[16]
    # decisions
    opts: cython.int[512]
    n_forced: cython.int
    plain: cython.bint  # nothing scripted or forced left, no trace: decisions go to the policies
    # a bit per seat whose decisions take their defaults inline: plain, and the default policy
    inline_seats: cython.uint
    script_pos: cython.int
    script_len: cython.int
    script_seats: cython.uint  # a bit per seat whose decisions the replay script answers
    dice_pos: cython.int
    dice_len: cython.int
    dice_strict: cython.bint  # a scenario scripts every roll: none left is an error
    # a roll draws from the generator inline: no scripted roll left, none required, no
    # trace, no chance node (refresh_dice, wherever one of those changes)
    dice_plain: cython.bint
    random_pos: cython.int  # random(n)'s scripted values (scenarios): the next, and how many
    random_len: cython.int
    random_strict: cython.bint  # a scenario scripts every random(n): none left is an error
    rule_fired: cython.int[512]
    chance: Rng
    policy_rng: Rng
    seed = cython.declare(cython.ulonglong, visibility="readonly")
    script: list
    script_dice: list
    script_for: list  # per scripted roll, the dice (a bit per die) it may be a face of
    random_script: list
    forced: dict
    external: list
    trace_lines: list
    ledger: list
    pending = cython.declare(object, visibility="readonly")

    def __init__(self, n_players, seed=0, turn_cap=0, policies=None, trace=False):
        self.k_setup(checked_int("n_players", n_players, 1, CAP_PLAYERS),
                     checked_int("seed", seed, 0, MASK),
                     checked_int("turn_cap", turn_cap, INT_MIN, INT_MAX), policies, bool(trace))

    @cython.cfunc
    @cython.final
    @cython.exceptval(-1)
    def k_setup(self, n_players: cython.int, seed: cython.ulonglong, turn_cap: cython.int,
                policies, trace: cython.bint) -> cython.int:
        """A new game's kernel state (a C call for the edition's Game, which makes many)."""
        if n_players < 1 or n_players > CAP_PLAYERS:
            raise ValueError(f"between 1 and {CAP_PLAYERS} players, not {n_players}")
        self.n_players = n_players
        self.n_alive = n_players
        self.alive_seats = (cython.cast(cython.uint, 1) << n_players) - 1
        self.had_turn = 0
        self.current = 0
        self.turn = 0
        self.turn_cap = turn_cap
        self.over = False
        self.capped = False
        self.started = False
        self.tracing = trace
        self.unwinding = 0
        self.unwinds = True  # (the edition's Game says whether its rules can)
        self.turn_over_handled = True  # (and whether a rule handles turn_over)
        self.call_depth = 0
        self.ledgering = trace
        self.seed = seed & 0xFFFFFFFFFFFFFFFF
        self.chance = Rng.__new__(Rng)
        self.chance.reseed(self.seed)
        self.policy_rng = Rng.__new__(Rng)
        self.policy_rng.reseed(self.seed ^ POLICY_SEED_SALT)
        i: cython.int
        if not cython.compiled:  # a compiled game's C arrays start zeroed
            self.cash = [0] * 16
            self.cash_lows = [0] * 16
            self.cash_highs = [0] * 16
            self.position = [0] * 16
            self.alive = [0] * 16
            self.out_order = [0] * 16
            self.places = [0] * 16
            self.policy = [0] * 16
            self.window_closed = [0] * 64
            self.window_seen = [0] * 64
            self.window_moves = [0] * 64
            self.window_turn = [0] * 64
            self.land_count = [0] * 256
            self.rest_count = [0] * 256
            self.pass_gap = [0] * 256
            self.queue = [0] * 512
            self.unrevealed = [0] * 32
            self.card_holder = [0] * 512
            self.held_first = [0] * 16
            self.held_version = [0] * 16
            self.card_key = [0] * 512
            self.held_key_version = [0] * 256
            self.held_deck_version = [0] * 512
            self.held_next = [0] * 512
            self.opts = [0] * 512
            self.rule_fired = [0] * 512
        for i in range(16):
            self.alive[i] = 1 if i < n_players else 0
            self.out_order[i] = 0
            self.policy[i] = POLICY_DEFAULT
            self.held_first[i] = -1
            self.held_version[i] = 1
        for i in range(512):  # the hands' versions per player and deck, and per card key
            self.held_deck_version[i] = 1
            if i < 256:
                self.held_key_version[i] = 1
        self.round_count = 0
        self.bankruptcies = 0
        self.ended_by = END_NONE
        self.declared_winner = -1
        for i in range(512):
            self.card_holder[i] = -1
        self.holder_version = 1
        self.alive_version = 1
        self.cash_version = 1
        self.external = [None] * 16
        self.plain = not trace
        self.refresh_inline_seats()
        if policies is not None:
            self.set_policies(policies)
        self.moves = 0
        self.changes = 0
        self.blind_changes = 0
        for i in range(CAP_WINDOWS):
            self.window_closed[i] = -1
            self.window_seen[i] = -1
            self.window_moves[i] = -1
            self.window_turn[i] = -1
        self.handling = 1  # (no turn yet)
        self.throw_open = False
        self.placed_since_throw = False
        self.pass_gaps_known = False
        self.rounds = 0
        self.n_forced = 0
        self.forced = {}
        self.script = []
        self.script_pos = 0
        self.script_len = 0
        self.script_seats = ALL_SEATS
        self.script_dice = []
        self.script_for = []
        self.dice_pos = 0
        self.dice_len = 0
        self.dice_strict = False
        self.random_script = []
        self.random_pos = 0
        self.random_len = 0
        self.random_strict = False
        self.trace_lines = []
        self.ledger = []
        self.pending = None
        self.chance_mode = 0
        self.refresh_dice()
        return 0

    def set_policies(self, policies) -> None:
        """A policy per seat: 'random', 'default', 'passive' (scenarios: decline where a
        decision can be declined), or callable(game, decision, player, options)."""
        for seat, policy in enumerate(policies):
            if callable(policy):
                self.policy[seat] = POLICY_EXTERNAL
                self.external[seat] = policy
            elif policy in POLICY_NAMES:
                self.policy[seat] = POLICY_NAMES[policy]
                self.external[seat] = None
            else:
                raise ValueError(f"unknown policy {policy!r}: use random, default, passive "
                                 "or a callable")
        self.refresh_inline_seats()

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def refresh_inline_seats(self) -> cython.void:
        """The seats whose decisions take their defaults inline, as one word's bits: a
        decision tests its seat's bit (k_default_answers) instead of two fields."""
        i: cython.int
        seats: cython.uint = 0
        if self.plain:
            for i in range(CAP_PLAYERS):
                if self.policy[i] == POLICY_DEFAULT:
                    seats |= cython.cast(cython.uint, 1) << i
        self.inline_seats = seats

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def refresh_plain(self) -> cython.void:
        """Whether every decision goes to its seat's policy (nothing scripted or forced is
        left, no trace): a decision tests this one flag before taking its default inline."""
        self.plain = (self.script_pos >= self.script_len and self.n_forced == 0
                      and not self.tracing)
        self.refresh_inline_seats()

    @cython.cfunc
    @cython.final
    @cython.exceptval(check=False)
    def refresh_dice(self) -> cython.void:
        """Whether a roll draws from the generator inline: k_roll, a few times a turn,
        tests this one flag instead of the four things that send a roll out of line."""
        self.dice_plain = (self.dice_pos >= self.dice_len and not self.dice_strict
                           and not self.tracing and self.chance_mode == 0)

    # ---- hooks the edition's Game overrides --------------------------------------
    @cython.cfunc
    @cython.exceptval(-1)
    def event_start(self) -> cython.int:
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def event_turn(self, p: cython.int) -> cython.int:
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def event_turn_over(self, p: cython.int) -> cython.int:
        return 0

    @cython.cfunc
    @cython.exceptval(-1)
    def event_pass(self, p: cython.int, s: cython.int) -> cython.int:
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def game_over(self) -> cython.bint:
        return self.n_alive <= 1

    @cython.cfunc
    @cython.exceptval(-2147483647, check=True)
    def first_player(self) -> cython.int:
        return 0

    @cython.ccall
    def score(self, p: cython.int) -> cython.int:
        return self.cash[p]

    @cython.ccall
    def tie_break(self, p: cython.int, k: cython.int) -> cython.int:
        """The score's k-th tie-breaker (`score(p) = A then B`: B is the 0th)."""
        return 0

    @cython.cfunc
    @cython.exceptval(check=False)
    def tie_breaks(self) -> cython.int:
        """How many tie-breakers the score has."""
        return 0

    @cython.cfunc
    @cython.exceptval(-2147483647, check=True)
    def round_limit(self) -> cython.int:
        """The game ends after this many rounds (`over after N rounds`); 0: no limit."""
        return 0

    @cython.cfunc
    @cython.exceptval(-1, check=True)
    def ends_at_bankruptcy(self) -> cython.bint:
        """Whether a bankruptcy ends the game now (`over at first bankruptcy`)."""
        return False
