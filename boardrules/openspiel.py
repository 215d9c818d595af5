"""Every bundled edition as an OpenSpiel game (pip install boardrules[agents]).

`import boardrules.openspiel` registers "boardrules_<edition>" for each bundled edition;
`pyspiel.load_game("boardrules_disney_theme_park", {"players": 4})` loads one. Games are
sequential, rewarded once at the end from the edition's winner (zero-sum:
agents/encoding.py final_rewards), with the action encoding the PettingZoo environment
uses and action strings in the edition's words.

Chance is explicit: every die throw, every `random(n)` and every card a shuffle left in
no order is a chance node (GameState's chance mode), whose outcomes are equally likely;
the seed decides nothing. `turn_cap` ends a game after that many turns (the rules' winner
of the position is rewarded).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from .agents.encoding import ActionCodec, final_rewards, observation
from .agents.views import visibility
from .runtime.loader import load_module, rulesets_dir
from .runtime.state import GameState

PREFIX = "boardrules_"
# the longest game OpenSpiel is told about (max_game_length): actions, not turns
MAX_GAME_LENGTH = 1_000_000


class _Replayable:
    """A GameState that OpenSpiel can copy (deepcopy: GameState.clone) and pickle (as its
    edition and GameState.serialize's bytes)."""

    def __init__(self, state: GameState, edition: str, seen: tuple | None = None):
        self.state = state
        self.edition = edition
        self.codec = _codec(state.module, edition, state.n_players)
        self._answers: tuple[int, dict[int, int]] | None = None
        # in an edition with hidden decks, each action as every seat saw it, newest first:
        # (words per seat, the older ones); never changed, so copies share it
        self.seen = seen

    def answers(self) -> dict[int, int]:
        """The legal answers by action, worked out once per decision; a face-down card the
        seat asked cannot see is a slot of its deck (views.Visibility.slots)."""
        state = self.state
        if self._answers is None or self._answers[0] != len(state.actions):
            self._answers = (len(state.actions), self.codec.answers(
                state.decision, state.legal_actions(), self.seen_by(state.current_player)))
        return self._answers[1]

    def seen_by(self, seat: int) -> tuple[list[int], int] | None:
        """Who holds each card and the seat, for the codec to hide what the seat cannot
        see; None in an edition without hidden decks."""
        return (self.state.game.holders(), seat) if self.codec.view.hidden else None

    def seen_words(self, action: int) -> tuple[str, ...]:
        """The action about to be applied as each seat sees it: a face-down card drawn
        is seen by nobody, one answered is named only to the seat that holds it."""
        state = self.state
        n = state.n_players
        if state.is_chance_node:
            deck = state.decision.removeprefix("draw ")
            hidden = deck != state.decision and \
                state.module.DECK_NAMES.index(deck) in self.codec.view.decks
            words = f"{state.decision}: a card" if hidden else \
                f"{state.decision}: {state.game.chance_words(action)}"
            return (words,) * n
        actor = state.current_player
        return tuple(f"p{actor + 1} " + self.answer_words(action, p) for p in range(n))

    def answer_words(self, action: int, player: int) -> str:
        """A legal answer to the pending decision as `player` sees it: a face-down card
        named only to its holder, and to the seat choosing it by its slot."""
        state = self.state
        answer = self.answers()[action]
        seen = self.seen_by(player)
        words = self.codec.words(state.decision, answer, seen)
        if player == state.current_player and seen is not None \
                and self.codec.types[state.decision] == "card" \
                and answer in self.codec.view.unseen(*seen):
            words += f" (face down, action {action})"
        return words

    def __deepcopy__(self, memo: dict) -> _Replayable:
        return _Replayable(self.state.clone(), self.edition, self.seen)

    def seen_list(self) -> list[tuple[str, ...]]:
        """Every action as the seats saw it, oldest first."""
        seen, found = self.seen, []
        while seen is not None:
            found.append(seen[0])
            seen = seen[1]
        return found[::-1]

    def __reduce__(self):
        # the history as a flat list: pickling the chain would recurse once per action
        return (_deserialized, (self.edition, self.state.serialize(), self.seen_list()))


_CODECS: dict[tuple[str, int], ActionCodec] = {}


def _codec(module, edition: str, players: int) -> ActionCodec:
    key = (edition, players)
    if key not in _CODECS:
        _CODECS[key] = ActionCodec(module, players)
    return _CODECS[key]


def _deserialized(edition: str, data: bytes, seen: list | None = None) -> _Replayable:
    chain = None
    for words in seen or ():
        chain = (words, chain)
    return _Replayable(GameState.deserialize(load_module(edition), data), edition, chain)


class BoardrulesState(pyspiel.State):
    """A state of an edition's game, as OpenSpiel sees it."""

    def __init__(self, game: BoardrulesGame):
        super().__init__(game)
        params = game.get_parameters()
        turn_cap = params["turn_cap"] or None
        self._game_state = _Replayable(
            GameState(game.module, game.n, turn_cap=turn_cap, chance=True,
                      policies=game.policies), game.edition)

    @property
    def _state(self) -> GameState:
        return self._game_state.state

    @property
    def _codec(self) -> ActionCodec:
        return self._game_state.codec

    def current_player(self) -> int:
        state = self._state
        if state.is_over:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if state.is_chance_node else state.current_player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending chance node's outcomes (a die's face, the card revealed, random()'s
        value, by index) and their probabilities."""
        return self._state.chance_outcomes()

    def _legal_actions(self, player: int) -> list[int]:
        state = self._state
        if state.is_over or player != state.current_player:
            return []
        return sorted(self._game_state.answers())

    def _apply_action(self, action: int) -> None:
        state = self._state
        replayable = self._game_state
        if replayable.codec.view.hidden:
            # each action with the cash it was taken at: the next one's, or the state's,
            # shows what it paid (a sold chip's value, which the rulebook shows to all)
            cash = " ".join(str(c) for c in state.game.players_cash())
            replayable.seen = (tuple(f"cash {cash} | {words}" for words in
                                     replayable.seen_words(action)), replayable.seen)
        if state.is_chance_node:
            state.apply(action)
        else:
            state.apply(self._game_state.answers()[action])

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._state
        if state.is_chance_node and player == pyspiel.PlayerId.CHANCE:
            if action not in state.legal_actions():
                return f"{state.decision}: outcome {action} (not possible now)"
            return f"{state.decision}: {state.game.chance_words(action)}"
        if state.is_chance_node and 0 <= player < state.n_players \
                and action in state.legal_actions():
            return self._game_state.seen_words(action)[player]  # a face-down card unnamed
        if state.is_over or player != state.current_player:
            return f"action {action}"
        if action not in self._game_state.answers():
            return f"{state.decision}: action {action} (not legal now)"
        return self._game_state.answer_words(action, player)

    def is_terminal(self) -> bool:
        return self._state.is_over

    def returns(self) -> list[float]:
        state = self._state
        if not state.is_over:
            return [0.0] * state.n_players
        return final_rewards(state.winners(), state.n_players)

    def rollout_returns(self, seed: int) -> list[float]:
        """The returns of the game played on from here to its end in C, the seats OpenSpiel
        plays answering at random and chance drawn from `seed`: a leaf's value for a search
        (agents/search.py), thousands of times faster than random actions applied one by
        one."""
        state = self._state
        return final_rewards(state.rollout(seed).winners(), state.n_players)

    def observation_tensor_of(self, player: int) -> np.ndarray:
        state = self._state
        return observation(state.module, state.game, state._pending, player)

    def observation_string_of(self, player: int) -> str:
        """What `player` sees now: the state's summary, and in an edition with hidden
        decks its own face-down cards and how many the others hold."""
        view = self._codec.view
        if not view.hidden:
            return str(self)
        state = self._state
        return f"p{player + 1} sees: {self} " + \
            view.describe(state.game.holders(), state.n_players, player)

    def information_state_string_of(self, player: int) -> str:
        """What `player` sees now and every action so far as it saw it."""
        history = [words[player] for words in self._game_state.seen_list()]
        return "\n".join([self.observation_string_of(player), *history])

    def __str__(self) -> str:
        state = self._state
        cash = " ".join(str(c) for c in state.game.players_cash())
        asked = f"{state.decision} p{state.current_player + 1}" if not state.is_over else "over"
        return f"turn {state.game.turn} cash {cash} {asked} actions {len(state.actions)}"


class BoardrulesGame(pyspiel.Game):
    """An edition as an OpenSpiel game; parameters: players, turn_cap (0: the
    edition's own cap), others ("default" or "random": every seat but the first plays that
    built-in policy inside the game; "": every seat is OpenSpiel's)."""

    def __init__(self, edition: str, game_type: pyspiel.GameType, params: dict | None = None):
        params = {**_DEFAULTS, **(params or {})}
        self.edition = edition
        self.module = load_module(edition)
        self.n = int(params["players"])
        others = str(params["others"])
        if others not in ("", "default", "random"):
            raise ValueError(f"others: '', 'default' or 'random', not {others!r}")
        # `others`: seats 2..n play that built-in policy inside the game, so that only the
        # first seat (and chance) acts in OpenSpiel: a bot against the default strategy
        self.policies = ["external"] * self.n if not others else \
            ["external"] + [others] * (self.n - 1)
        if not self.module.MIN_PLAYERS <= self.n <= self.module.MAX_PLAYERS:
            raise ValueError(f"{self.module.EDITION} is for {self.module.MIN_PLAYERS} to "
                             f"{self.module.MAX_PLAYERS} players, not {self.n}")
        self.codec = _codec(self.module, edition, self.n)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size, max_chance_outcomes=_chance_outcomes(self.module),
            num_players=self.n,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> BoardrulesState:
        return BoardrulesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self, recall)


class _Observer:
    """The numeric observation of agents/encoding.py as OpenSpiel's observation tensor and
    information state tensor (the same numbers: a history of thousands of actions has no
    fixed size); the information state string adds every action as the player saw it."""

    def __init__(self, game: BoardrulesGame, recall: bool = False):
        probe = game.module.Game(game.n, seed=0)
        self.tensor = np.zeros(len(observation(game.module, probe, None, 0)), np.float32)
        self.dict = {"observation": self.tensor}
        self.recall = recall

    def set_from(self, state: BoardrulesState, player: int) -> None:
        self.tensor[:] = state.observation_tensor_of(player)

    def string_from(self, state: BoardrulesState, player: int) -> str:
        if self.recall:
            return state.information_state_string_of(player)
        return state.observation_string_of(player)


_DEFAULTS: dict[str, Any] = {"players": 2, "turn_cap": 0, "others": ""}


def _chance_outcomes(module) -> int:
    """A bound on a chance node's outcomes: a die's faces (at most 32), a deck's cards or
    random(n)'s values, which the bundled editions draw among seats and spaces."""
    return max(32, len(module.CARD_IDS), len(module.SPACE_IDS))


def game_type(edition: str) -> pyspiel.GameType:
    """An edition's OpenSpiel type: of imperfect information when its rules declare
    hidden decks (agents/views.py), with information states; else of perfect
    information."""
    module = load_module(edition)
    hidden = visibility(module).hidden
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=PREFIX + edition, long_name=f"boardrules {module.EDITION}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.IMPERFECT_INFORMATION if hidden else
        information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=module.MAX_PLAYERS, min_num_players=module.MIN_PLAYERS,
        provides_information_state_string=hidden, provides_information_state_tensor=hidden,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS))


def register(edition: str) -> str:
    """Register an edition (a bundled name); its OpenSpiel name."""
    name = PREFIX + edition
    if name not in pyspiel.registered_names():
        kind = game_type(edition)
        pyspiel.register_game(kind, type(f"Game_{edition}", (BoardrulesGame,), {
            "__init__": lambda self, params=None: BoardrulesGame.__init__(self, edition, kind,
                                                                          params)}))
    return name


def bundled_editions() -> list[str]:
    folder = rulesets_dir()
    return sorted(p.name for p in folder.iterdir() if (p / f"{p.name}.rules").is_file())


for _edition in bundled_editions():
    register(_edition)
