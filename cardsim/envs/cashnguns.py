"""Cash'n Guns as a PettingZoo AEC environment: ``cardsim.envs.cashnguns_v0(players=5)``.

An episode is one game of eight rounds (rules digest ``seeds/cash_n_guns.md``), every player an
agent. The game is the engine's own: :func:`cardsim.sims.cashnguns.strategy.play_steps` with
every seat a Python seat, on a :class:`~cardsim.sims.cashnguns.strategy.GameState`, whose
decisions this environment hands to its agents in turn (so it cannot play other rules than
:func:`~cardsim.sims.cashnguns.strategy.play_game`). ``reset(seed=s)`` plays the game of seed
``s`` (drawn from the environment's own generator when ``s`` is None), with the kernel's random
streams (the game's stream shuffles the seats and the loot deck; each player's private stream
gives it three numbers a round: aim, card, lying down), so built-in strategies driving the
agents play the kernel's games exactly. Agent ``player_k`` is player slot ``k`` of the kernel; the table seat
it drew (turn order, the index of every per-seat field and of aims) is in its observation and
view.

Each round asks, in seat order, every living player whom it aims at and which bullet card it
plays, then, in seat order again, whether it lies down (knowing every aim, no card); the round
then resolves. Aims and cards are secret until the lying-down phase (aims) and the shooting
(cards a player reveals), as in the engine's views. Actions (``Discrete(P + 5)``): ``0..P-1``
aim at that seat; ``P + k`` plays card ``k`` (0 Click, 1 Bang!, 2 Bang!Bang!Bang!); ``P + 3``
stands, ``P + 4`` lies down. The observation is a dict: ``action_mask`` (the legal actions of the
agent to move, all 0 for the others) and ``observation``, the agent's public view as
``20 + 24 * P`` numbers (money in $1,000s): the decision asked (one-hot: aim, card, lie down;
all 0 when not its turn), its seat, the round, its hand (3 counts), its aim and card this round
(-1 before it chooses), per seat alive, money, wounds and shame, the loot on the table (3
counts), its value, the round's expected loot, the notes drawn (3 counts), per seat the cards
revealed (3 counts), per round and seat the aim (-1 for the dead and the rounds not played) and
whether it lay down, this round's aims (in the lying-down phase, else -1), the shame value, and
``u``, the decision's uniform random number from the agent's private stream (0 when not its
turn). The
layout is :func:`obs_layout`. With ``encoding="features"`` the observation is instead numbers
in [-1, 1] a learner can read (:meth:`raw_env.feature_fields`): seats, rounds, aims and cards as
one-hot (a seat's "none" as its own category), money / $200k and loot / $50k (clipped), counts
over their most. :meth:`raw_env.view` gives the same view as the
:class:`~cardsim.sims.cashnguns.strategy.View` a user strategy receives, and
:meth:`raw_env.action_of` turns a strategy's choice into an action.

Rewards (``reward="score"``, the default): each agent's final score in $1,000s, paid as it
changes at the end of every round: loot taken, plus a shame marker's value when it lies down,
and minus everything when it is eliminated (the dead score 0, digest "Kết thúc"). With
``reward="win"`` an agent receives 1 at the end if it wins (ties: every tied player), else 0.
An eliminated player is terminated at the end of the round it dies in; the others at the end of
the game. The last ``infos`` of an agent hold ``winner``, ``score`` and ``money`` (dollars),
``alive``, ``wounds``, ``shame`` and ``seat``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from cardsim.envs.common import CardEnv, Field, wrap
from cardsim.errors import UserError
from cardsim.sims.cashnguns.config import CashNGunsConfig
from cardsim.sims.cashnguns.rules import (
    BULLET_NAMES,
    DECK_NOTE_COUNTS,
    DEFAULT_SHAME_DOLLARS,
    HAND_COUNTS,
    LETHAL_WOUNDS,
    NOTE_UNITS,
    NOTES_PER_ROUND,
    ROUNDS,
    UNIT_DOLLARS,
)
from cardsim.sims.cashnguns.steps import INFO_EXPECTED, OUT_WINNER
from cardsim.sims.cashnguns.strategy import DECISIONS, GameState, View, play_steps

AIM, CARD, LIE = DECISIONS
KILO = 1000.0
REWARDS = ("score", "win")
MONEY_SCALE_KILO = 200  # features: money / $200k (clipped at 1: well above a game's usual take)
LOOT_SCALE_KILO = 50  # features: a round's loot, and the shame value, / $50k


def obs_layout(players: int) -> dict[str, tuple[int, int]]:
    """Each field of the observation vector: (start, length)."""
    sizes = {
        "decision": 3,
        "seat": 1,
        "round": 1,
        "hand": 3,
        "my_target": 1,
        "my_card": 1,
        "alive": players,
        "money": players,
        "wounds": players,
        "shame": players,
        "loot": 3,
        "loot_value": 1,
        "expected_loot": 1,
        "drawn": 3,
        "revealed": 3 * players,
        "aims": ROUNDS * players,
        "lay": ROUNDS * players,
        "targets": players,
        "shame_value": 1,
        "u": 1,
    }
    layout, at = {}, 0
    for name, size in sizes.items():
        layout[name] = (at, size)
        at += size
    return layout


def cashnguns_v0(
    players: int = 5,
    shame_value: int = DEFAULT_SHAME_DOLLARS,
    reward: str = "score",
    render_mode: str | None = None,
    encoding: str = "raw",
) -> AECEnv:
    """The wrapped environment (out-of-range actions are refused, the AEC order is enforced);
    ``encoding="features"`` for observations a learner reads (see the module)."""
    return wrap(
        raw_env(players=players, shame_value=shame_value, reward=reward, render_mode=render_mode, encoding=encoding)
    )


def score(game: GameState, seat: int) -> int:
    """Seat ``seat``'s score so far in dollars: money plus shame markers times the shame value
    for a survivor, 0 for the dead (digest "Kết thúc")."""
    if not game.alive[seat]:
        return 0
    return int(game.cash[seat]) * UNIT_DOLLARS + int(game.shame[seat]) * game.shame_value


class raw_env(CardEnv):  # noqa: N801 - PettingZoo's naming
    """One game of Cash'n Guns for 4-6 agents (see the module docstring)."""

    metadata = {"name": "cashnguns_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 5,
        shame_value: int = DEFAULT_SHAME_DOLLARS,
        reward: str = "score",
        render_mode: str | None = None,
        encoding: str = "raw",
    ) -> None:
        super().__init__()
        CashNGunsConfig(players=players, shame_value=shame_value)  # one-line UserError
        if reward not in REWARDS:
            raise UserError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.layout = obs_layout(players)
        self._slices = {name: slice(at, at + length) for name, (at, length) in self.layout.items()}
        self._size = size = sum(length for _, length in self.layout.values())
        self.n_actions = players + 5
        self._setup(players, render_mode, spaces.Box(-1e6, 1e6, (size,), np.float32), self.n_actions, encoding)
        self.shame_value, self.reward = shame_value, reward
        self._table: GameState | None = None
        self._driver: Generator[tuple[int, str, float], Any, None] | None = None
        self.seat_of_slot: list[int] = []
        self.game_seed = 0

    def feature_fields(self) -> list[Field]:
        """The features of ``encoding="features"`` (see the module docstring)."""
        players = self.players
        at = obs_layout(players)

        def field(name: str, kind: str, size: int = 1, offset: int = 0, shown: str = "") -> Field:
            start, length = at[name]
            return Field(shown or name, start, length, kind, size, offset)

        return [
            field("decision", "scale"),
            field("seat", "onehot", players),
            field("round", "onehot", ROUNDS + 1),
            field("hand", "scale", max(HAND_COUNTS), shown="hand / 5"),
            field("my_target", "onehot", players + 1, -1),
            field("my_card", "onehot", len(BULLET_NAMES) + 1, -1),
            field("alive", "scale"),
            field("money", "scale", MONEY_SCALE_KILO, shown=f"money / ${MONEY_SCALE_KILO}k"),
            field("wounds", "scale", LETHAL_WOUNDS, shown="wounds / 3"),
            field("shame", "scale", ROUNDS, shown="shame / 8"),
            field("loot", "scale", NOTES_PER_ROUND, shown="loot notes / 5"),
            field("loot_value", "scale", LOOT_SCALE_KILO, shown=f"loot value / ${LOOT_SCALE_KILO}k"),
            field("expected_loot", "scale", LOOT_SCALE_KILO, shown=f"expected loot / ${LOOT_SCALE_KILO}k"),
            field("drawn", "scale", max(DECK_NOTE_COUNTS), shown="notes drawn / 15"),
            field("revealed", "scale", ROUNDS, shown="cards revealed / 8"),
            field("aims", "onehot", players + 1, -1),
            field("lay", "scale"),
            field("targets", "onehot", players + 1, -1),
            field("shame_value", "scale", LOOT_SCALE_KILO, shown=f"shame value / ${LOOT_SCALE_KILO}k"),
            field("u", "scale"),
        ]

    @property
    def table(self) -> GameState:
        """The game being played (set by :meth:`reset`)."""
        return self._started(self._table)

    def seat(self, agent: str) -> int:
        """The table seat of ``agent`` in this game."""
        return self.seat_of_slot[self.possible_agents.index(agent)]

    # -- the public view ---------------------------------------------------------------
    def view(self, agent: str) -> View:
        """The agent's view, as a user strategy receives it at its decisions."""
        return self.table.view(self.seat(agent))

    def legal_choices(self) -> tuple[Any, ...]:
        """The mover's legal choices in the strategy interface's form."""
        return self.table.legal

    def decision(self) -> str:
        """The decision asked of the agent to move: ``aim``, ``card`` or ``lie_down``."""
        return self.table.asked[1]

    def action_of(self, choice: Any) -> int:
        """The action of a strategy's choice for the decision asked now."""
        decision = self.decision()
        if decision == AIM:
            return int(choice)
        if decision == CARD:
            return self.players + int(choice)
        return self.players + 3 + int(bool(choice))

    def _choice_of(self, action: int) -> Any:
        decision, players = self.decision(), self.players
        if decision == AIM:
            return action if action < players else None
        if decision == CARD:
            return action - players if players <= action < players + 3 else None
        return bool(action - players - 3) if players + 3 <= action < players + 5 else None

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        table, seat = self.table, self.seat(agent)
        at = self._slices
        asked_seat, decision, u = table.asked
        mine = asked_seat == seat
        obs = np.zeros(self._size, np.float32)
        if mine:
            obs[at["decision"].start + DECISIONS.index(decision)] = 1
        obs[at["seat"]] = seat
        obs[at["round"]] = table.round
        obs[at["hand"]] = table.hands[seat]
        obs[at["my_target"]] = table.targets[seat] if table.chosen[seat] else -1
        obs[at["my_card"]] = table.bullets[seat] if table.chosen[seat] == 2 else -1
        obs[at["alive"]] = table.alive
        obs[at["money"]] = table.cash * (UNIT_DOLLARS / KILO)
        obs[at["wounds"]] = table.wounds
        obs[at["shame"]] = table.shame
        obs[at["loot"]] = table.table
        obs[at["loot_value"]] = int(table.table @ NOTE_UNITS) * (UNIT_DOLLARS / KILO)
        obs[at["expected_loot"]] = table.info[INFO_EXPECTED] * (UNIT_DOLLARS / KILO)
        obs[at["drawn"]] = table.drawn
        obs[at["revealed"]] = table.revealed.ravel()
        aims = np.full((ROUNDS, self.players), -1.0)
        aims[: table.round] = table.aims[: table.round]
        obs[at["aims"]] = aims.ravel()
        obs[at["lay"]] = table.lay[: table.round].ravel().tolist() + [0] * ((ROUNDS - table.round) * self.players)
        obs[at["targets"]] = table.aimed if table.lie_phase() else -1
        obs[at["shame_value"]] = self.shame_value / KILO
        obs[at["u"]] = u if mine else 0.0
        mask = np.zeros(self.n_actions, np.int8)
        if mine:
            for choice in table.legal:
                mask[self.action_of(choice)] = 1
        return {"observation": obs, "action_mask": mask}

    # -- playing ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game_seed = self._episode_seed(seed)
        self._table = table = GameState(self.players)
        users = table.begin(self.game_seed, [None] * self.players, self.shame_value)
        self.seat_of_slot = [0] * self.players
        for seat, slot in enumerate(table.slot_of_seat.tolist()):
            self.seat_of_slot[slot] = seat
        self._driver = play_steps(table, users)
        next(self._driver)
        self._new_episode()
        self._scores = [0] * self.players
        self.agent_selection = self._mover()

    def _mover(self) -> str:
        return self.possible_agents[int(self.table.slot_of_seat[self.table.asked[0]])]

    def step(self, action: int | None) -> None:
        agent = self._acting_agent(action)
        if agent is None or action is None:
            return
        choice = self._choice_of(int(action))
        if choice is None or choice not in self.legal_choices():
            raise ValueError(f"action {action} is not legal for {agent} now (see the observation's action_mask)")
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        round_before = table.round
        try:
            assert self._driver is not None
            self._driver.send(choice)
        except StopIteration:
            pass
        self.rewards = {name: 0.0 for name in self.agents}
        if table.over or table.round != round_before:
            self._round_ended()
        if not table.over:
            self.agent_selection = self._mover()
            self._deads_step_first()
        self._end_step()

    def _round_ended(self) -> None:
        """Pay the round's rewards and terminate the agents it eliminated (all at the end)."""
        table = self.table
        for name in self.agents:
            seat = self.seat(name)
            now = score(table, seat)
            if self.reward == "score":
                self.rewards[name] = (now - self._scores[seat]) / KILO
            self._scores[seat] = now
            if table.over or not table.alive[seat]:
                winner = bool(table.out[self.agent_seat[name], OUT_WINNER]) if table.over else False
                if self.reward == "win":
                    self.rewards[name] = float(winner)
                self.terminations[name] = True
                self.infos[name] = {
                    "winner": winner,
                    "score": now,
                    "money": int(table.cash[seat]) * UNIT_DOLLARS,
                    "alive": bool(table.alive[seat]),
                    "wounds": int(table.wounds[seat]),
                    "shame": int(table.shame[seat]),
                    "seat": seat,
                }

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        table = self.table
        seats = " | ".join(
            f"seat {seat}: ${int(table.cash[seat]) * UNIT_DOLLARS:,} {int(table.wounds[seat])}w "
            f"{int(table.shame[seat])}s {'alive' if table.alive[seat] else 'dead'} hand {table.hands[seat].tolist()}"
            for seat in range(self.players)
        )
        seat, decision, _ = table.asked
        now = f"seat {seat} to {decision}" if decision else "game over"
        text = f"round {table.round + 1}, loot {table.table.tolist()}, {now}; {seats}"
        if decision == LIE:
            text += f"; aims {table.targets.tolist()}, cards " + ", ".join(BULLET_NAMES[int(b)] for b in table.bullets)
        return self._show(text)


def cashnguns_parallel_v0(
    players: int = 5,
    shame_value: int = DEFAULT_SHAME_DOLLARS,
    reward: str = "score",
    encoding: str = "raw",
) -> ParallelGame:
    """Cash'n Guns as a PettingZoo parallel environment (see :class:`ParallelGame`)."""
    return ParallelGame(players=players, shame_value=shame_value, reward=reward, encoding=encoding)


class ParallelGame(ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """Cash'n Guns with its simultaneous decisions made at once: two steps a round, every
    living player acting in each. The first step (``phase`` "play") is each player's aim and
    bullet card together, both secret until the lying-down phase (action ``aim * 3 + card``:
    the seat aimed at and card 0 Click, 1 Bang!, 2 Bang!Bang!Bang!); the second ("lie_down") is
    whether it lies down, knowing every aim (action ``3 * P``: stands, ``3 * P + 1``: lies down).

    The game is :func:`cashnguns_v0`'s, fed the choices in its own order, so the same choices
    give the same game, rewards and ends. Each observation is the AEC environment's for an
    agent not being asked (``encoding`` as there), with this environment's ``action_mask``;
    ``infos[agent]["phase"]`` names the phase (the mask tells it too). Rewards, terminations and
    the last infos are the AEC environment's, summed over the choices of a step.
    """

    metadata = {"name": "cashnguns_parallel_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(
        self, players: int = 5, shame_value: int = DEFAULT_SHAME_DOLLARS, reward: str = "score", encoding: str = "raw"
    ) -> None:
        self.aec = raw_env(players=players, shame_value=shame_value, reward=reward, encoding=encoding)
        self.players = players
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.phase = "play"
        self.n_actions = 3 * players + 2
        self._action_space = spaces.Discrete(self.n_actions)
        inner = self.aec._observation_space["observation"]
        self._observation_space = spaces.Dict(
            {"observation": inner, "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8)}
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(self.n_actions, np.int8)
        table, seat = self.aec.table, self.aec.seat(agent)
        if self.phase == "lie_down":
            mask[3 * self.players :] = 1
            return mask
        for target in range(self.players):
            if target == seat or not table.alive[target]:
                continue
            for card in range(3):
                if table.hands[seat][card] > 0:
                    mask[3 * target + card] = 1
        return mask

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {
            agent: {"observation": self.aec.observe(agent)["observation"], "action_mask": self._mask(agent)}
            for agent in self.agents
        }

    def _settle_dead(self) -> None:
        """Step the AEC environment's dead agents out (its order asks them first)."""
        while self.aec.agents and (
            self.aec.terminations[self.aec.agent_selection] or self.aec.truncations[self.aec.agent_selection]
        ):
            self.aec.step(None)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.phase = "play"
        self.agents = list(self.aec.agents)
        return self._observations(), {agent: {"phase": self.phase} for agent in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
    ]:
        for agent in self.agents:
            action = actions.get(agent)
            if action is None or not 0 <= int(action) < self.n_actions or not self._mask(agent)[int(action)]:
                raise ValueError(f"action {action!r} is not legal for {agent} now (see its action_mask)")
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        terminations = dict.fromkeys(self.agents, False)
        wanted = (AIM, CARD) if self.phase == "play" else (LIE,)
        aec = self.aec
        while aec.agents:
            self._settle_dead()
            if not aec.agents or aec.table.over or aec.decision() not in wanted:
                break
            agent, decision = aec.agent_selection, aec.decision()
            action = int(actions[agent])
            if decision == AIM:
                aec.step(action // 3)
            elif decision == CARD:
                aec.step(self.players + action % 3)
            else:
                aec.step(self.players + 3 + action - 3 * self.players)
            for name, value in aec.rewards.items():
                if name in rewards:
                    rewards[name] += value
                if name in infos and aec.terminations.get(name):
                    infos[name] = dict(aec.infos[name])  # kept before its dead step drops it
            if aec.decision() == AIM and decision == LIE:
                break  # the round resolved: the next one is the next step's
        for agent in self.agents:
            terminations[agent] = bool(aec.terminations.get(agent, True))
            if terminations[agent] and agent in aec.infos:
                infos[agent] = dict(aec.infos[agent])
        self._settle_dead()
        self.phase = "lie_down" if self.phase == "play" else "play"
        self.agents = [agent for agent in self.agents if not terminations[agent]]
        for agent in self.agents:
            infos[agent]["phase"] = self.phase
        truncations = dict.fromkeys(terminations, False)
        observations = {
            agent: {
                "observation": aec.observe(agent)["observation"],
                "action_mask": self._mask(agent) if agent in self.agents else np.zeros(self.n_actions, np.int8),
            }
            for agent in terminations
        }
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        return self.aec.state()

    def close(self) -> None:
        self.aec.close()
