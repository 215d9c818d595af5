"""Invariants of play, checked after every turn of seeded games (`simulate
--check-invariants`, tests/harness/test_invariants.py).

The checker knows no edition: it reads a game through the reflection API (cash, who is
still in, `counter_values()`, the payment ledger, tables by name) and what the module
declares (`COUNTERS`, `PARAMS`, `SPACE_IDS`). An invariant applies to an edition when the
edition declares what it is about, the way the classic library does:

- **ledger** (every edition): each player's cash changes only by the payments recorded in
  the ledger (`pay`), turn by turn, from the first deal on;
- **retired-owner**: no counter `ENTITY.owner: player?` (`space.owner`, say) names a
  player who has left the game;
- **paid-retired**: no money is paid to or by a player who had left the game before the
  turn (a player going bankrupt pays what is left in the turn they leave);
- **self-payment** (every edition): no player pays money to themselves (it moves nothing, so
  only a rule that picked the wrong creditor does it);
- **negative-cash** (every edition): a player still in ends no turn with negative cash;
- **supply**: with `counter space.buildings: int` (a hotel is `max_houses + 1` buildings)
  and the global counters `houses_left` and `hotels_left`, the supply never goes negative
  and what is left plus what stands on the board stays what the deal left (the whole
  supply);
- **even-building**: with `space.buildings` and a field `space.group`, the buildings of a
  group's spaces differ by at most one;
- **ranking** (every edition, at the end): the places follow the scores, tie-breakers
  and all (`score_parts`), players still in above those out, the last out highest; the
  winners are the players sharing first place, when one of them is still in, several on
  a tie (a shared win is a win), or the one the rules named (`end game winner p`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

INVARIANTS = ("ledger", "retired-owner", "paid-retired", "self-payment", "negative-cash",
              "supply", "even-building", "ranking")
SUPPLIES = ("houses_left", "hotels_left")  # the building library's supply counters
LEVELS = tuple(range(1, 17))  # houses per hotel to try when max_houses reads an option


@dataclass(frozen=True)
class Violation:
    """An invariant that did not hold after a turn of a game (turn 0: the deal)."""

    game: int
    seed: int
    turn: int
    invariant: str
    detail: str

    def __str__(self) -> str:
        return f"game {self.game} (seed {self.seed}) turn {self.turn}: {self.invariant}: " \
               f"{self.detail}"


@dataclass(frozen=True)
class Facts:
    """What an edition declares that the invariants need (see the module's docstring)."""

    owners: tuple[tuple[int, str], ...]  # COUNTERS index and label of each ENTITY.owner
    buildings: int | None  # COUNTERS index of space.buildings
    levels: tuple[int, ...]  # max_houses (the values to try when it reads an option)
    supplies: tuple[int, int] | None  # COUNTERS indexes of houses_left and hotels_left
    groups: tuple[tuple[int, ...], ...]  # the spaces of each group (field space.group)

    @property
    def watched(self) -> tuple[int, ...]:
        """The COUNTERS the state invariants read."""
        return (*(i for i, _ in self.owners), *(self.supplies or ()),
                *(() if self.buildings is None else (self.buildings,)))

    @property
    def applicable(self) -> tuple[str, ...]:
        """The invariants that apply to the edition."""
        names = ["ledger", "paid-retired", "self-payment", "negative-cash", "ranking"]
        names += ["retired-owner"] if self.owners else []
        names += ["supply"] if self.supplies is not None else []
        names += ["even-building"] if self.buildings is not None and self.groups else []
        return tuple(n for n in INVARIANTS if n in names)


def facts(module: ModuleType) -> Facts:
    """Read the facts from a loaded edition module's declarations."""
    index = {label: i for i, (label, _, _) in enumerate(module.COUNTERS)}
    kinds = {label: (owner, kind) for label, owner, kind in module.COUNTERS}
    params: dict[str, int] = getattr(module, "PARAMS", {})
    owners = tuple((i, label) for label, i in index.items()
                   if label.endswith(".owner") and kinds[label][0] in ("space", "card", "group",
                                                                       "cell")
                   and kinds[label][1] == "player")
    buildings = index.get("space.buildings") if kinds.get("space.buildings") == (
        "space", "int") else None
    supplies = None
    if buildings is not None and all(kinds.get(c) == ("", "int") for c in SUPPLIES):
        supplies = (index[SUPPLIES[0]], index[SUPPLIES[1]])
    levels = (int(params["max_houses"]),) if "max_houses" in params else LEVELS
    game = module.Game(module.MIN_PLAYERS)
    try:
        group_of = [game.state_get("t_space_group", s) for s in range(len(module.SPACE_IDS))]
    except IndexError:  # no field space.group
        group_of = []
    groups = tuple(tuple(s for s, g in enumerate(group_of) if g == group)
                   for group in range(len(module.GROUP_NAMES)))
    return Facts(owners, buildings, levels, supplies,
                 tuple(g for g in groups if g) if group_of else ())


@dataclass
class GameCheck:
    """One game played turn by turn with the ledger on, and what did not hold."""

    module: ModuleType
    facts: Facts
    game_index: int
    seed: int
    violations: list[Violation] = field(default_factory=list)
    turn: int = 0  # the turn being checked

    def play(self, players: int, policies: list[Any] | None, options: dict[str, int] | None,
             turn_cap: int | None) -> Any:
        kwargs = {} if turn_cap is None else {"turn_cap": turn_cap}
        game = self.module.Game(players, seed=self.seed, policies=policies, options=options,
                                **kwargs)
        if hasattr(game, "keep_ledger"):
            game.keep_ledger(True)
        else:  # a module built before the kernel could keep a ledger without a trace
            game = self.module.Game(players, seed=self.seed, policies=policies,
                                    options=options, trace=True, **kwargs)
        n = game.n_players
        cash, alive = [0] * n, [True] * n
        turns = []  # (turn, cash and who was in before it)
        self._seen: tuple = (None, None)  # what the last turn's checks read
        self._supply: dict[int, tuple[int, int]] = {}  # the whole supply, per max_houses
        game.start()
        turn = 0
        while True:
            turns.append((turn, cash, alive))
            cash, alive = game.players_cash(), [game.alive_of(p) for p in range(n)]
            self.state(game, turn, cash, alive)
            if game.over:
                break
            self.turn = turn + 1
            game.play(1)
            if game.turn == turn:  # capped before the turn
                break
            turn = game.turn
        self.ledger(game, turns)
        self.ranking(game)
        return game

    def fail(self, turn: int, invariant: str, detail: str) -> None:
        self.violations.append(Violation(self.game_index, self.seed, turn, invariant, detail))

    def state(self, game: Any, turn: int, cash: list[int], alive: list[bool]) -> None:
        """The invariants of the state after a turn (when nothing they read changed since
        the last turn, they hold still)."""
        f = self.facts
        if min(cash) < 0:
            for p, (money, playing) in enumerate(zip(cash, alive, strict=True)):
                if playing and money < 0:
                    self.fail(turn, "negative-cash", f"p{p + 1} is still in with {money}")
        if not f.watched:
            return
        values = game.counter_values()
        owners = ([values[i] for i, _ in f.owners], alive)
        building = [values[i] for i in f.watched[len(f.owners):]]
        if owners != self._seen[0]:
            for i, label in f.owners:
                for entity, owner in enumerate(values[i]):
                    if owner >= 0 and not alive[owner]:
                        self.fail(turn, "retired-owner", f"{label} of "
                                  f"{self._name(label, entity)} is p{owner + 1}, who has left "
                                  "the game")
        if f.buildings is not None and building != self._seen[1]:
            self.buildings(turn, values)
        self._seen = (owners, building)

    def buildings(self, turn: int, values: list) -> None:
        """Supply and even building, after a turn that changed a building or the supply."""
        f = self.facts
        buildings = values[f.buildings]
        if f.supplies is not None:
            self.supply(turn, values[f.supplies[0]], values[f.supplies[1]], buildings)
        for spaces in f.groups:
            built = [buildings[s] for s in spaces]
            if max(built) - min(built) > 1:
                named = ", ".join(f"{self.module.SPACE_IDS[s]}={buildings[s]}" for s in spaces)
                self.fail(turn, "even-building", f"a group built unevenly: {named}")

    def supply(self, turn: int, houses: int, hotels: int, buildings: list[int]) -> None:
        """What is left plus what stands is the whole supply, as the deal left it. A space
        with more than `max_houses` buildings has a hotel; when max_houses reads an option,
        the values it may have are kept while they fit (one is the game's)."""
        levels = Counter(buildings)

        def on_board(m: int) -> tuple[int, int]:
            return (houses + sum(b * n for b, n in levels.items() if b <= m),
                    hotels + sum(n for b, n in levels.items() if b > m))

        if not self._supply:  # the deal
            self._supply = {m: on_board(m) for m in self.facts.levels}
        fitting = {m: whole for m, whole in self._supply.items() if on_board(m) == whole}
        if houses < 0 or hotels < 0 or not fitting:
            m = min(self._supply)
            whole = self._supply[m]
            self.fail(turn, "supply", f"{houses} houses and {hotels} hotels left, "
                      f"{on_board(m)[0] - houses} and {on_board(m)[1] - hotels} on the board "
                      f"(max_houses {m}), of {whole[0]} and {whole[1]}")
        self._supply = fitting or self._supply

    def _name(self, label: str, entity: int) -> str:
        names = {"space": self.module.SPACE_IDS, "card": self.module.CARD_IDS,
                 "group": self.module.GROUP_NAMES}.get(label.split(".")[0], ())
        return names[entity] if entity < len(names) else f"#{entity}"

    def ranking(self, game: Any) -> None:
        """The places and the winners, worked out again from the scores (and from who is
        in, or was named) and compared with the game's."""
        n, named = game.n_players, game.declared_winner
        alive = [game.alive_of(p) for p in range(n)]
        order = [0 if p == named else 1 if alive[p] else 2 for p in range(n)]
        parts = [game.score_parts(p) if alive[p] else [] for p in range(n)]
        ranks, winners = game.ranks(), game.winners()
        for p in range(n):
            above = sum(1 for q in range(n) if order[q] < order[p] or order[q] == order[p] == 1
                        and parts[q] > parts[p] or order[q] == order[p] == 2
                        and game.out_order_of(q) > game.out_order_of(p))
            if ranks[p] != above + 1:
                self.fail(game.turn, "ranking", f"p{p + 1} is placed {ranks[p]}, but "
                          f"{above} players rank above them (scores {parts})")
        first = [p for p in range(n) if ranks[p] == 1]
        expected = first if any(alive[p] or p == named for p in first) else []
        if winners != expected or game.winner() != (winners[0] if len(winners) == 1 else -1):
            self.fail(game.turn, "ranking", f"the winners are {_seats(winners)} (the one "
                      f"winner {_seats([game.winner()])}), but first place is "
                      f"{_seats(first)}" + ("" if expected else ", nobody of it still in"))

    def ledger(self, game: Any, turns: list[tuple[int, list[int], list[bool]]]) -> None:
        """Cash moves only through payments; none to or from a player already out, none from
        a player to themselves."""
        n = game.n_players
        flows: dict[int, list[int]] = {}
        alive_before = {turn: alive for turn, _, alive in turns}
        for turn, payer, payee, amount in game.payments():
            moved = flows.setdefault(turn, [0] * n)
            if payer >= 0:
                moved[payer] -= amount
            if payee >= 0:
                moved[payee] += amount
            if amount and payer == payee >= 0:
                self.fail(turn, "self-payment", f"p{payer + 1} paid {amount} to themselves")
            alive = alive_before.get(turn)
            for who, role in ((payer, "by"), (payee, "to")):
                if amount and alive is not None and 0 <= who < n and not alive[who]:
                    self.fail(turn, "paid-retired", f"{amount} paid {role} p{who + 1}, "
                              "who had left the game")
        after = [cash for _, cash, _ in turns[1:]] + [game.players_cash()]
        for (turn, before, _), cash in zip(turns, after, strict=True):
            moved = flows.get(turn, [0] * n)
            for p in range(n):
                if cash[p] - before[p] != moved[p]:
                    self.fail(turn, "ledger", f"p{p + 1}'s cash went from {before[p]} to "
                              f"{cash[p]}, but the ledger moved {moved[p]}")


def _seats(seats: list[int]) -> str:
    return " ".join(f"p{p + 1}" for p in seats if p >= 0) or "nobody"


def check_games(module: ModuleType, games: int, players: int, seed: int, first: int = 0,
                policies: list[Any] | None = None, options: dict[str, int] | None = None,
                turn_cap: int | None = None) -> list[Violation]:
    """Play games `first` .. `first + games - 1` of a run (simulate's seeds) and check them."""
    from .simulate import game_seed

    known = facts(module)
    found: list[Violation] = []
    for index in range(first, first + games):
        check = GameCheck(module, known, index, game_seed(seed, index))
        try:
            check.play(players, policies, options, turn_cap)
        except Exception as exc:  # the rules failed: that game stops there, the run goes on
            check.fail(check.turn, "rules-error", f"{type(exc).__name__}: {exc}")
        found += check.violations
    return found


def first_per_game(violations: list[Violation]) -> Iterator[Violation]:
    """The first violation of each invariant in each game."""
    seen: set[tuple[int, str]] = set()
    for v in violations:
        if (v.game, v.invariant) not in seen:
            seen.add((v.game, v.invariant))
            yield v
