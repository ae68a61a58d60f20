"""The AEC bookkeeping every game environment shares: agents ``player_0`` .. ``player_{P-1}``,
a dict observation with an ``action_mask``, the reward, termination, truncation and info dicts
of an episode, the checks that open a step and the rendering switch. Each game's module keeps
only its game: its observation, actions, rewards and end (see ``cardsim.envs``).
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardsim.errors import UserError

RENDER_MODES = ("human", "ansi")
SEED_LIMIT = 2**63 - 1
T = TypeVar("T")


def wrap(env: AECEnv) -> AECEnv:
    """``env`` with out-of-range actions refused and the AEC order enforced."""
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


class CardEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """An AEC environment of one game for ``players`` agents acting in turn.

    A subclass checks its own arguments first, then calls :meth:`_setup`; ``reset`` calls
    :meth:`_new_episode`, ``step`` opens with :meth:`_acting_agent` and closes with
    :meth:`_end_step`, and ``render`` hands its text to :meth:`_show`.
    """

    def _setup(self, players: int, render_mode: str | None, observation: spaces.Box, n_actions: int) -> None:
        """Refuse a bad ``render_mode`` (one-line ``UserError``) and set the agents and spaces:
        ``observation`` beside an ``action_mask`` of ``n_actions`` over ``Discrete(n_actions)``."""
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UserError(f"render_mode must be one of human, ansi or None, not {render_mode!r}")
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {"observation": observation, "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)}
        )
        self._action_space = spaces.Discrete(n_actions)
        self._np_random = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    @staticmethod
    def _started(game: T | None) -> T:
        """``game``, the episode's state, once :meth:`reset` has set it."""
        if game is None:
            raise RuntimeError("call reset() before using the environment")
        return game

    def _episode_seed(self, seed: int | None) -> int:
        """The seed of the episode ``reset(seed=seed)`` starts: ``seed`` itself (which also
        reseeds the environment's generator), else a draw from that generator."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            return int(seed)
        return int(self._np_random.integers(0, SEED_LIMIT))

    def _new_episode(self) -> None:
        """Every agent in play, with no reward, end or info yet."""
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}

    def _terminate_all(self, info: dict[str, Any]) -> None:
        """End the episode for every agent, each with a copy of ``info``."""
        for agent in self.agents:
            self.terminations[agent] = True
            self.infos[agent] = dict(info)

    def _acting_agent(self, action: int | None) -> str | None:
        """The agent this step acts for, or None when it was already done (the step is then
        PettingZoo's dead step); ``ValueError`` for a live agent given no action."""
        agent: str = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for an agent already done")
        return agent

    def _end_step(self) -> None:
        """Add the step's rewards to the returns and render in ``human`` mode."""
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _show(self, text: str) -> str | None:
        """``render``'s answer: ``text`` printed in ``human`` mode, returned in ``ansi``."""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
