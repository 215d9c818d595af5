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
from .runtime.loader import load_module, rulesets_dir
from .runtime.state import GameState

PREFIX = "boardrules_"
# the longest game OpenSpiel is told about (max_game_length): actions, not turns
MAX_GAME_LENGTH = 1_000_000


class _Replayable:
    """A GameState that OpenSpiel can copy (deepcopy: GameState.clone) and pickle (as its
    edition and GameState.serialize's bytes)."""

    def __init__(self, state: GameState, edition: str):
        self.state = state
        self.edition = edition
        self.codec = _codec(state.module, edition, state.n_players)
        self._answers: tuple[int, dict[int, int]] | None = None

    def answers(self) -> dict[int, int]:
        """The legal answers by action, worked out once per decision."""
        state = self.state
        if self._answers is None or self._answers[0] != len(state.actions):
            self._answers = (len(state.actions),
                             self.codec.answers(state.decision, state.legal_actions()))
        return self._answers[1]

    def __deepcopy__(self, memo: dict) -> _Replayable:
        return _Replayable(self.state.clone(), self.edition)

    def __reduce__(self):
        return (_deserialized, (self.edition, self.state.serialize()))


_CODECS: dict[tuple[str, int], ActionCodec] = {}


def _codec(module, edition: str, players: int) -> ActionCodec:
    key = (edition, players)
    if key not in _CODECS:
        _CODECS[key] = ActionCodec(module, players)
    return _CODECS[key]


def _deserialized(edition: str, data: bytes) -> _Replayable:
    return _Replayable(GameState.deserialize(load_module(edition), data), edition)


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
        if state.is_over or player != state.current_player:
            return f"action {action}"
        answer = self._game_state.answers().get(action)
        if answer is None:
            return f"{state.decision}: action {action} (not legal now)"
        return self._codec.words(state.decision, answer)

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
        return _Observer(self)


class _Observer:
    """The numeric observation of agents/encoding.py as OpenSpiel's observation tensor."""

    def __init__(self, game: BoardrulesGame):
        probe = game.module.Game(game.n, seed=0)
        self.tensor = np.zeros(len(observation(game.module, probe, None, 0)), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BoardrulesState, player: int) -> None:
        self.tensor[:] = state.observation_tensor_of(player)

    def string_from(self, state: BoardrulesState, player: int) -> str:
        return str(state)


_DEFAULTS: dict[str, Any] = {"players": 2, "turn_cap": 0, "others": ""}


def _chance_outcomes(module) -> int:
    """A bound on a chance node's outcomes: a die's faces (at most 32), a deck's cards or
    random(n)'s values, which the bundled editions draw among seats and spaces."""
    return max(32, len(module.CARD_IDS), len(module.SPACE_IDS))


def game_type(edition: str) -> pyspiel.GameType:
    module = load_module(edition)
    return pyspiel.GameType(
        short_name=PREFIX + edition, long_name=f"boardrules {module.EDITION}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=module.MAX_PLAYERS, min_num_players=module.MIN_PLAYERS,
        provides_information_state_string=False, provides_information_state_tensor=False,
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
