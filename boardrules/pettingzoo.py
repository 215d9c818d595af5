"""PettingZoo and Gymnasium environments for any edition (pip install boardrules[agents]).

`env(edition, players=4)` is an AEC environment: agents "p1".."pN" act in the order the
rules ask them, each observes `{"observation": vector, "action_mask": mask}` and acts in
one fixed `Discrete(N)` space (agents/encoding.py says how actions map to answers). In
an edition with hidden decks an agent sees only its own face-down cards (agents/views.py).
Rewards come once, at the end, from the edition's winner. `single_agent(edition, ...)`
is a Gymnasium environment for one seat while the others play a built-in policy.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .agents.encoding import ActionCodec, final_rewards, observation
from .agents.seats import EXTERNAL, Policy, SeatedState
from .runtime.loader import load_module

DEFAULT_SEED = 0


class BoardrulesEnv(AECEnv):
    """An edition's game as an AEC environment. A seat whose policy is "external" (all of
    them unless `seat_policies` says otherwise) is the agent "player_<seat>". `turn_cap`
    ends a game early (it is then truncated, and the rules' winner of the position so far
    is still rewarded); `max_actions` truncates after that many actions (no rewards)."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, edition: str, players: int = 4, options: dict[str, int] | None = None,
                 seed: int | None = None, turn_cap: int | None = None,
                 max_actions: int | None = None, backend: str = "compiled",
                 render_mode: str | None = None, seat_policies: list[Policy] | None = None):
        super().__init__()
        self.module = load_module(edition, backend)
        if not self.module.MIN_PLAYERS <= players <= self.module.MAX_PLAYERS:
            raise ValueError(f"{self.module.EDITION} is for {self.module.MIN_PLAYERS} to "
                             f"{self.module.MAX_PLAYERS} players, not {players}")
        self.metadata = {**self.metadata, "name": f"boardrules_{edition}"}
        self.edition = edition
        self.n = players
        self.game_options = dict(options or {})
        self.turn_cap = turn_cap
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.codec = ActionCodec(self.module, players)
        self.seat_policies = list(seat_policies or [EXTERNAL] * players)
        self.possible_agents = [f"player_{i}" for i in range(players)
                                if self.seat_policies[i] == EXTERNAL]
        self._seed = DEFAULT_SEED if seed is None else seed
        probe = self.module.Game(players, seed=0, options=self.game_options)
        length = len(observation(self.module, probe, None, 0))
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-2.0**31, 2.0**31 - 1, (length,), np.float64),
            "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
        })
        self._action_space = spaces.Discrete(self.codec.size)
        self.game: SeatedState | None = None  # the game being played (AECEnv.state is
        # the global state of parallel environments, which this one does not give)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with `seed`, or the next seed after the last game's."""
        self._seed = seed if seed is not None else self._seed + (self.game is not None)
        self.game = SeatedState(self.module, self.seat_policies, self._seed,
                                self.turn_cap, self.game_options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.n_actions = 0
        self._after_action()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game
        seat = _seat(agent)
        pending = state.pending
        vector = observation(self.module, state.game, pending, seat)
        mask = np.zeros(self.codec.size, np.int8)
        if pending is not None and pending[1] == seat:
            mask[:] = self.codec.mask(pending[0], pending[2], self._seen(seat))
        return {"observation": np.asarray(vector, np.float64), "action_mask": mask}

    def _seen(self, seat: int) -> tuple[list[int], int] | None:
        """What the codec needs to hide the face-down cards `seat` cannot see (an edition
        with hidden decks: agents/views.py), else None."""
        return (self.game.game.holders(), seat) if self.codec.view.hidden else None

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision, seat, options = self.game.pending
        answers = self.codec.answers(decision, options, self._seen(seat))
        if action not in answers:
            raise ValueError(f"{agent}: action {action} is not legal for {decision} "
                             f"(legal: {sorted(answers)})")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(answers[int(action)])
        self.n_actions += 1
        self._after_action()

    def _after_action(self) -> None:
        state = self.game
        self._clear_rewards()
        if state.is_over:
            rewards = final_rewards(state.winners(), self.n)
            self.rewards = {a: rewards[_seat(a)] for a in self.agents}
            capped = bool(state.game.capped)
            for a in self.agents:
                self.terminations[a] = not capped
                self.truncations[a] = capped
        elif self.max_actions is not None and self.n_actions >= self.max_actions:
            for a in self.agents:
                self.truncations[a] = True
        if not state.is_over:
            self.agent_selection = f"player_{state.current_player}"
        else:
            self.agent_selection = self.agents[0]
        for a in self.agents:
            self.infos[a] = {"decision": state.decision, "turn": state.game.turn}
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.game
        cash = ", ".join(f"p{p + 1} {c}" for p, c in enumerate(state.game.players_cash()))
        return f"turn {state.game.turn}: {cash}; asking {state.decision or 'nobody'}"

    def close(self) -> None:
        self.game = None


def _seat(agent: str) -> int:
    return int(agent.rpartition("_")[2])


def env(edition: str, players: int = 4, options: dict[str, int] | None = None,
        seed: int | None = None, **settings: Any) -> BoardrulesEnv:
    """An edition's AEC environment (see BoardrulesEnv for turn_cap and max_actions)."""
    return BoardrulesEnv(edition, players, options, seed, **settings)


class SingleAgentEnv(gym.Env):
    """One seat of an edition's game as a Gymnasium environment; the other seats play
    `others` ("default", "random" or a Python policy). The observation is the AEC one;
    the reward is the seat's final reward (agents/encoding.py: final_rewards)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, edition: str, players: int = 4, seat: int = 0,
                 others: Policy = "default", **settings: Any):
        policies: list[Policy] = [others] * players
        policies[seat] = EXTERNAL
        self.aec = BoardrulesEnv(edition, players, seat_policies=policies, **settings)
        self.agent = f"player_{seat}"
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = self.aec.render_mode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        return self.aec.observe(self.agent), {}

    def step(self, action: int):
        """An illegal action (one the mask rules out) plays the lowest legal one instead,
        and says so in the info: `illegal_action`."""
        aec = self.aec
        illegal = False
        if not (aec.terminations[self.agent] or aec.truncations[self.agent]):
            mask = aec.observe(self.agent)["action_mask"]
            illegal = not mask[int(action)]
            if illegal:
                action = int(np.flatnonzero(mask)[0])
        aec.step(action)
        observed = aec.observe(self.agent)
        info = {**aec.infos[self.agent], "illegal_action": illegal}
        return (observed, aec.rewards[self.agent], aec.terminations[self.agent],
                aec.truncations[self.agent], info)

    def render(self) -> str | None:
        return self.aec.render()


def single_agent(edition: str, players: int = 4, seat: int = 0, others: Policy = "default",
                 **settings: Any) -> SingleAgentEnv:
    """A Gymnasium environment for one seat; the others play `others`."""
    return SingleAgentEnv(edition, players, seat, others, **settings)
