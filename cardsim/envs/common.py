"""The AEC bookkeeping every game environment shares: agents ``player_0`` .. ``player_{P-1}``,
a dict observation with an ``action_mask``, the reward, termination, truncation and info dicts
of an episode, the checks that open a step and the rendering switch. Each game's module keeps
only its game: its observation, actions, rewards and end (see ``cardsim.envs``).

Every environment can be copied (``copy.deepcopy``, :meth:`CardEnv.clone`) and pickled, for
search by cloning a state: an environment remembers how its episode began (the arguments it was
made with, the generator state and seed of its last ``reset``) and the actions stepped since,
and a copy replays them on a fresh environment. The games are deterministic given the seed, so
the copy is the same game at the same point, whatever the engine keeps inside (a running
coroutine in Cash'n Guns, a game thread in Bang!) that Python could not copy by itself.
:meth:`CardEnv.state` is the global state (every agent's observation, concatenated).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardsim.errors import UserError

RENDER_MODES = ("human", "ansi")
ENCODINGS = ("raw", "features")
SEED_LIMIT = 2**63 - 1
T = TypeVar("T")
#: how an episode began and went on: (seed, generator state, reset options, actions stepped)
History = tuple[int | None, dict[str, Any], dict[str, Any] | None, list[int | None]]


def wrap(env: AECEnv) -> AECEnv:
    """``env`` with out-of-range actions refused and the AEC order enforced."""
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


@dataclass(frozen=True)
class Field:
    """How one field of a raw observation (``length`` numbers from ``start``) becomes features
    for a learner (``encoding="features"``), each in [0, 1] (or [-1, 1] for a signed amount):

    - ``"onehot"``: each number is a category ``value - offset`` of ``size`` (out-of-range values
      are clipped), written as ``size`` 0/1 features;
    - ``"multihot"``: the numbers name members of a set of ``size`` (``value - offset``; values
      below ``offset`` are empty slots), written as ``size`` 0/1 features, one per member;
    - ``"scale"``: each number divided by ``size`` and clipped to [-1, 1];
    - ``"present"``: 1 where the number is at least 0 (a card in play, say), else 0.
    """

    name: str
    start: int
    length: int
    kind: str
    size: int = 1
    offset: int = 0

    @property
    def width(self) -> int:
        """How many features the field becomes."""
        if self.kind == "onehot":
            return self.length * self.size
        if self.kind == "multihot":
            return self.size
        return self.length


def feature_size(fields: Sequence[Field]) -> int:
    """The length of the feature vector of ``fields``."""
    return sum(field.width for field in fields)


def encode(raw: np.ndarray, fields: Sequence[Field]) -> np.ndarray:
    """The features (float32) of the raw observation ``raw`` (see :class:`Field`)."""
    out = np.zeros(feature_size(fields), np.float32)
    at = 0
    for field in fields:
        values = np.asarray(raw[field.start : field.start + field.length], np.float64)
        if field.kind == "onehot":
            index = np.clip(np.rint(values).astype(np.int64) - field.offset, 0, field.size - 1)
            out[at + np.arange(field.length) * field.size + index] = 1.0
        elif field.kind == "multihot":
            members = np.rint(values).astype(np.int64) - field.offset
            members = members[(members >= 0) & (members < field.size)]
            out[at + members] = 1.0
        elif field.kind == "scale":
            out[at : at + field.length] = np.clip(values / field.size, -1.0, 1.0)
        elif field.kind == "present":
            out[at : at + field.length] = values >= 0
        else:
            raise ValueError(f"unknown field kind {field.kind!r}")
        at += field.width
    return out


def feature_table(fields: Sequence[Field]) -> list[dict[str, Any]]:
    """The layout of the features: each field's name, first feature, width and encoding (for
    the documentation)."""
    rows, at = [], 0
    for field in fields:
        how = {
            "onehot": f"one-hot of {field.size}",
            "multihot": f"set of {field.size}",
            "scale": f"/ {field.size}",
            "present": "1 if present",
        }[field.kind]
        rows.append({"field": field.name, "first": at, "width": field.width, "encoding": how})
        at += field.width
    return rows


def _remember_arguments(init: Any) -> Any:
    """``__init__`` that keeps the arguments of the outermost call (for copies)."""

    @functools.wraps(init)
    def wrapped(self: CardEnv, *args: Any, **kwargs: Any) -> None:
        if "_made_with" not in self.__dict__:
            self.__dict__["_made_with"] = (args, kwargs)
        init(self, *args, **kwargs)

    return wrapped


def _remember_reset(reset: Any) -> Any:
    """``reset`` that keeps the seed and the generator state it started from."""

    @functools.wraps(reset)
    def wrapped(self: CardEnv, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        if self.__dict__.get("_replaying"):
            return reset(self, seed=seed, options=options)
        before = copy.deepcopy(self._np_random.bit_generator.state)
        result = reset(self, seed=seed, options=options)
        self.__dict__["_history"] = (seed, before, options, [])
        return result

    return wrapped


def _encoded_observe(observe: Any) -> Any:
    """``observe`` answering with features when the environment was made with
    ``encoding="features"``."""

    @functools.wraps(observe)
    def wrapped(self: CardEnv, agent: str) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = observe(self, agent)
        if self.__dict__.get("encoding", "raw") == "raw":
            return found
        return {"observation": encode(found["observation"], self.feature_fields()), "action_mask": found["action_mask"]}

    return wrapped


def _remember_step(step: Any) -> Any:
    """``step`` that keeps every action taken since the last reset."""

    @functools.wraps(step)
    def wrapped(self: CardEnv, action: Any) -> Any:
        result = step(self, action)
        history = self.__dict__.get("_history")
        if history is not None and not self.__dict__.get("_replaying"):
            history[3].append(None if action is None else int(action))
        return result

    return wrapped


def _rebuild(
    cls: type[CardEnv],
    made_with: tuple[tuple[Any, ...], dict[str, Any]],
    history: History | None,
    generator_state: dict[str, Any],
) -> CardEnv:
    """A fresh ``cls`` environment brought to the same point: made with the same arguments,
    reset from the same generator state and seed, the same actions stepped."""
    args, kwargs = made_with
    env = cls(*args, **kwargs)
    env.replay(history)
    env._np_random.bit_generator.state = generator_state
    return env


class CardEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """An AEC environment of one game for ``players`` agents acting in turn.

    A subclass checks its own arguments first, then calls :meth:`_setup`; ``reset`` calls
    :meth:`_new_episode`, ``step`` opens with :meth:`_acting_agent` and closes with
    :meth:`_end_step`, and ``render`` hands its text to :meth:`_show`. Its ``__init__``,
    ``reset`` and ``step`` are recorded for copies (see the module docstring).
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, remember in (
            ("__init__", _remember_arguments),
            ("reset", _remember_reset),
            ("step", _remember_step),
            ("observe", _encoded_observe),
        ):
            if name in cls.__dict__:
                setattr(cls, name, remember(cls.__dict__[name]))

    # -- copies -------------------------------------------------------------------------
    def replay(self, history: History | None) -> None:
        """Reset as recorded in ``history`` (seed, generator state, options, actions) and step
        its actions again: the same episode at the same point."""
        if history is None:
            return
        seed, generator_state, options, actions = history
        self._np_random.bit_generator.state = copy.deepcopy(generator_state)
        self.reset(seed=seed, options=options)
        self.__dict__["_replaying"] = True
        try:
            for action in actions:
                self.step(action)
        finally:
            self.__dict__["_replaying"] = False
        self.__dict__["_history"] = (seed, generator_state, options, list(actions))

    def __reduce__(self) -> tuple[Any, ...]:
        history = self.__dict__.get("_history")
        if history is not None:
            history = (history[0], history[1], history[2], list(history[3]))
        return (
            _rebuild,
            (type(self), self.__dict__["_made_with"], history, copy.deepcopy(self._np_random.bit_generator.state)),
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> CardEnv:
        rebuilt = _rebuild(*self.__reduce__()[1])
        memo[id(self)] = rebuilt
        return rebuilt

    def __copy__(self) -> CardEnv:
        return self.__deepcopy__({})

    def clone(self) -> CardEnv:
        """An independent copy at the same point of the same episode (see the module
        docstring): step it to look ahead without touching this one."""
        return self.__deepcopy__({})

    def state(self) -> np.ndarray:
        """The global state: every agent's observation vector, in agent order (what the
        agents know between them; before the first reset, zeros)."""
        return np.concatenate(
            [np.asarray(self.observe(agent)["observation"]).ravel() for agent in self.possible_agents]
        )

    @property
    def state_space(self) -> spaces.Box:
        """The space of :meth:`state`: the agents' observation boxes side by side."""
        box = self._observation_space["observation"]
        assert isinstance(box, spaces.Box)
        count = len(self.possible_agents)
        return spaces.Box(np.tile(box.low, count), np.tile(box.high, count), dtype=box.dtype.type)

    def feature_fields(self) -> list[Field]:
        """The fields of the raw observation and how each becomes features (see
        :class:`Field`); every game defines its own."""
        raise NotImplementedError

    def _setup(
        self, players: int, render_mode: str | None, observation: spaces.Box, n_actions: int, encoding: str = "raw"
    ) -> None:
        """Refuse a bad ``render_mode`` or ``encoding`` (one-line ``UserError``) and set the
        agents and spaces: ``observation`` (or, with ``encoding="features"``, its features, in
        [-1, 1]) beside an ``action_mask`` of ``n_actions`` over ``Discrete(n_actions)``."""
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UserError(f"render_mode must be one of human, ansi or None, not {render_mode!r}")
        if encoding not in ENCODINGS:
            raise UserError(f"encoding must be raw or features, not {encoding!r}")
        self.players = players
        self.encoding = encoding
        if encoding == "features":
            observation = spaces.Box(-1.0, 1.0, (feature_size(self.feature_fields()),), np.float32)
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
