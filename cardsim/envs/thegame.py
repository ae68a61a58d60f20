"""The Game as a PettingZoo AEC environment: ``cardsim.envs.thegame_v0(players=3)``.

Agents ``player_0`` .. ``player_{P-1}`` take turns as the rules say (``seeds/the_game.md``);
the engine is :class:`cardsim.sims.thegame.strategy.Table`, so a deal seed gives the batch
kernel's deal. ``reset(seed=s)`` plays the deal of seed ``s`` (drawn from the environment's own
generator when ``s`` is None). Nobody talks: seat 0 starts and no pile is announced.

Actions (``Discrete(33)``): 0 ends the turn (legal once the minimum is played); ``1 + 4 *
slot + pile`` plays the card in hand slot ``slot`` (the order of ``View.hand``) on ``pile``.
The observation is a dict: ``action_mask`` (1 for the legal actions of the agent to move, all
0 for the others) and ``observation``, the agent's public view as 119 integers: its hand by
slot (0 = empty, 8), the pile tops (4), whether each card 2..99 is on a pile (98), the hand
sizes of seats 0-4 (5), the draw pile size, the cards this turn must still play, 1 if it is
this agent's turn, and its seat. With ``encoding="features"`` the observation is instead 221
numbers in [0, 1] a learner can read (:meth:`raw_env.feature_fields`, :func:`cardsim.envs.common.encode`):
the hand by slot / 100 (8), the cards in hand as a set over 2..99 (98), the pile tops / 100
(4), the cards on the piles (98), hand sizes / 8 (5), the draw pile / 98, the cards still to
play / 8, 1 on its turn and its seat (one-hot of 5). :meth:`raw_env.view` gives the same view as the
:class:`~cardsim.sims.thegame.strategy.View` a user strategy receives, and
:meth:`raw_env.action_of` turns a strategy's choice into an action.

Rewards are shared: every agent receives 1 for each card played, so a game's return is the
number of cards played (98 for a win). At the end ``infos`` holds ``cards_left`` and ``won``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardsim.envs.common import CardEnv, Field, wrap
from cardsim.sims.thegame.config import TheGameConfig
from cardsim.sims.thegame.rules import (
    DESCENDING_START,
    HIGHEST_CARD,
    LOWEST_CARD,
    MAX_HAND,
    MAX_PLAYERS,
    N_PILES,
)
from cardsim.sims.thegame.strategy import END_TURN, Table, View

N_ACTIONS = 1 + MAX_HAND * N_PILES
OBS_HAND = 0
OBS_PILES = OBS_HAND + MAX_HAND
OBS_PLAYED = OBS_PILES + N_PILES
OBS_COUNTS = OBS_PLAYED + (HIGHEST_CARD - LOWEST_CARD + 1)
OBS_DRAW = OBS_COUNTS + MAX_PLAYERS
OBS_TO_PLAY = OBS_DRAW + 1
OBS_MY_TURN = OBS_TO_PLAY + 1
OBS_SEAT = OBS_MY_TURN + 1
OBS_SIZE = OBS_SEAT + 1


def thegame_v0(
    players: int = 3,
    min_cards: int = 2,
    hand_size: int | None = None,
    backwards_trick: bool = True,
    render_mode: str | None = None,
    encoding: str = "raw",
) -> AECEnv:
    """The wrapped environment (illegal or out-of-range actions are refused, the AEC order is
    enforced); ``encoding="features"`` for observations a learner reads (see the module)."""
    return wrap(
        raw_env(
            players=players,
            min_cards=min_cards,
            hand_size=hand_size,
            backwards_trick=backwards_trick,
            render_mode=render_mode,
            encoding=encoding,
        )
    )


class raw_env(CardEnv):  # noqa: N801 - PettingZoo's naming
    """The Game for 1-5 cooperating agents (see the module docstring)."""

    metadata = {"name": "thegame_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 3,
        min_cards: int = 2,
        hand_size: int | None = None,
        backwards_trick: bool = True,
        render_mode: str | None = None,
        encoding: str = "raw",
    ) -> None:
        super().__init__()
        TheGameConfig(
            players=players, min_cards=min_cards, hand_size=hand_size, backwards_trick=backwards_trick
        )  # one-line UserError on bad rules
        self._setup(players, render_mode, spaces.Box(0, DESCENDING_START, (OBS_SIZE,), np.int64), N_ACTIONS, encoding)
        self.rules: dict[str, Any] = {
            "min_cards": min_cards,
            "hand_size": hand_size,
            "backwards_trick": backwards_trick,
        }
        self._table: Table | None = None
        self.deal_seed = 0

    @property
    def table(self) -> Table:
        """The game being played (set by :meth:`reset`)."""
        return self._started(self._table)

    def feature_fields(self) -> list[Field]:
        """The features of ``encoding="features"`` (see the module docstring)."""
        return [
            Field("hand by slot / 100", OBS_HAND, MAX_HAND, "scale", 100),
            Field("cards in hand", OBS_HAND, MAX_HAND, "multihot", HIGHEST_CARD - LOWEST_CARD + 1, LOWEST_CARD),
            Field("pile tops / 100", OBS_PILES, N_PILES, "scale", 100),
            Field("cards on the piles", OBS_PLAYED, HIGHEST_CARD - LOWEST_CARD + 1, "scale", 1),
            Field("hand sizes / 8", OBS_COUNTS, MAX_PLAYERS, "scale", MAX_HAND),
            Field("draw pile / 98", OBS_DRAW, 1, "scale", HIGHEST_CARD - LOWEST_CARD + 1),
            Field("cards still to play / 8", OBS_TO_PLAY, 1, "scale", MAX_HAND),
            Field("its turn", OBS_MY_TURN, 1, "scale", 1),
            Field("its seat", OBS_SEAT, 1, "onehot", MAX_PLAYERS),
        ]

    # -- the public view ---------------------------------------------------------------
    def view(self, agent: str) -> View:
        """The agent's view, as a user strategy receives it."""
        return self.table.view(self.agent_seat[agent])

    def legal_choices(self) -> tuple[Any, ...]:
        """The mover's legal choices in the strategy interface's form."""
        return self.table.legal

    def action_of(self, choice: tuple[int, int] | None) -> int:
        """The action of a strategy's choice for the agent to move."""
        if choice is END_TURN:
            return 0
        card, pile = choice
        slot = self.table.hand(self.table.mover).index(card)
        return 1 + N_PILES * slot + pile

    def _choice_of(self, action: int) -> tuple[int, int] | None:
        if action == 0:
            return END_TURN
        slot, pile = divmod(int(action) - 1, N_PILES)
        hand = self.table.hand(self.table.mover)
        return (hand[slot], pile) if slot < len(hand) else (-1, pile)

    def _mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(N_ACTIONS, np.int8)
        table = self.table
        if table.over or self.agent_seat[agent] != table.mover:
            return mask
        for choice in table.legal:
            mask[self.action_of(choice)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        table, seat = self.table, self.agent_seat[agent]
        obs = np.zeros(OBS_SIZE, np.int64)
        count = int(table.counts[seat])
        obs[OBS_HAND : OBS_HAND + count] = table.hands[seat, :count]
        obs[OBS_PILES : OBS_PILES + N_PILES] = table.piles
        for _, card, _ in table.played:
            obs[OBS_PLAYED + card - LOWEST_CARD] = 1
        obs[OBS_COUNTS : OBS_COUNTS + self.players] = table.counts[: self.players]
        obs[OBS_DRAW] = table.draw_left
        mine = seat == table.mover and not table.over
        obs[OBS_TO_PLAY] = max(table.required - table.played_this_turn, 0) if mine else 0
        obs[OBS_MY_TURN] = int(mine)
        obs[OBS_SEAT] = seat
        return {"observation": obs, "action_mask": self._mask(agent)}

    # -- playing ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.deal_seed = self._episode_seed(seed)
        self._table = Table(self.deal_seed, self.players, **self.rules)
        self.table.start(0)
        self._new_episode()
        self._end_if_over()
        if not self.table.over:
            self.agent_selection = self.possible_agents[self.table.mover]
        else:
            self.agent_selection = self.possible_agents[0]

    def _end_if_over(self) -> None:
        if self.table.over:
            left = self.table.cards_left()
            self._terminate_all({"cards_left": left, "won": left == 0})

    def step(self, action: int | None) -> None:
        agent = self._acting_agent(action)
        if agent is None or action is None:
            return
        choice = self._choice_of(action)
        if choice not in self.table.legal:
            raise ValueError(f"action {action} is not legal for {agent} now (see the observation's action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self.table.play(choice)
        reward = 0.0 if choice is END_TURN else 1.0
        self.rewards = {name: reward for name in self.agents}
        self._end_if_over()
        if not self.table.over:
            self.agent_selection = self.possible_agents[self.table.mover]
        self._end_step()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        table = self.table
        hands = " | ".join(f"{agent}: {list(table.hand(seat))}" for seat, agent in enumerate(self.possible_agents))
        text = (
            f"turn {table.turn}, piles {table.piles.tolist()}, draw {table.draw_left}, to move {table.mover}; {hands}"
        )
        return self._show(text)
