"""The Gang as a PettingZoo AEC environment: ``cardsim.envs.gang_v0(players=4)``.

An episode is one basic heist (no challenge or specialist cards), the unit of the user-strategy
engine :mod:`cardsim.sims.gang.strategy` and of ``cardsim gang evaluate``: four chip rounds
(white pre-flop, yellow flop, orange turn, red river) and the showdown (rules digest
``seeds/the_gang.md``, H4-H7). A whole game (three successful heists before three alarms, with
the cards that follow a result) is not modelled. ``reset(seed=s)`` plays the deal that
``numpy.random.default_rng(s)`` gives the kernel (:func:`~cardsim.sims.gang.strategy.draw_deals`),
so the built-in percentile model through the environment plays the kernel's heists exactly.

Agents ``player_0`` .. ``player_{P-1}`` each take one chip per round, in seat order. The chip
rounds are simultaneous in the engine (each seat decides on its own view and never sees a
teammate's claim of the same round), so a round's chips appear in the observations only once
every seat has chosen; the seats' claims are then settled as the engine settles them (ordered by
the star reached for, equal stars contested at random).

Actions (``Discrete(P)``): ``a`` reaches for the chip of ``a + 1`` stars (a higher star claims
a stronger hand). The observation is a dict: ``action_mask`` (all 1 for every agent still to
choose its chip this round, all 0 for the others) and ``observation``, the agent's public view as ``12 + 4 * P`` integers: its two
pocket cards and the five community cards (card code + 1, 0 for a card not shown; codes
``rank * 4 + suit``), the stars each seat took in each round (round-major, 0 for a round not yet
settled), the round (0-3, 4 once the heist is over), 1 if it is this agent's turn, its seat, the
teammates' pocket cards it cannot see and the community cards still to come. With
``encoding="features"`` the observation is instead numbers in [0, 1] a learner can read
(:meth:`raw_env.feature_fields`): its pocket cards and the community cards shown, each as a set
over the 52 card codes, the stars / P by round and seat, the round (one-hot of 5), 1 on its turn,
its seat (one-hot), the teammates' cards it cannot see / 10 and the community cards to come / 5.
:meth:`raw_env.view` gives the same view as the :class:`~cardsim.sims.gang.strategy.View` a user
strategy receives (so ``hand_percentile`` applies), and :meth:`raw_env.action_of` turns a
strategy's star into an action.

Rewards are shared: every agent receives 1 when the heist succeeds (the hands revealed from the
1-star red chip upwards never get weaker, H7), else 0. At the end ``infos`` holds ``success``
and ``chips`` (one row of stars per round, by seat).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardsim.envs.common import CardEnv, Field, wrap
from cardsim.sims.gang.config import GangConfig
from cardsim.sims.gang.holdings import BOARD_SIZES
from cardsim.sims.gang.rounds import showdown_in_order
from cardsim.sims.gang.strategy import (
    ROUND_NAMES,
    View,
    card_text,
    deal_outcomes,
    draw_deals,
)

ROUNDS = len(ROUND_NAMES)
POCKET = 2
BOARD = 5


def obs_size(players: int) -> int:
    """The length of the observation vector at ``players`` seats."""
    return POCKET + BOARD + ROUNDS * players + 5


def gang_parallel_v0(players: int = 4, render_mode: str | None = None, encoding: str = "raw") -> Any:
    """The heist as a PettingZoo parallel environment: each step is one chip round, every seat
    choosing at once (as the engine's rounds are simultaneous); PettingZoo's
    ``aec_to_parallel`` of :func:`gang_v0`."""
    from pettingzoo.utils.conversions import aec_to_parallel

    return aec_to_parallel(gang_v0(players=players, render_mode=render_mode, encoding=encoding))


def gang_v0(players: int = 4, render_mode: str | None = None, encoding: str = "raw") -> AECEnv:
    """The wrapped environment (out-of-range actions are refused, the AEC order is enforced);
    ``encoding="features"`` for observations a learner reads (see the module)."""
    return wrap(raw_env(players=players, render_mode=render_mode, encoding=encoding))


class Heist:
    """One basic heist played step by step: the deal, the claims of the round being played and
    the settled chips. ``pockets`` and ``board`` may be changed between steps (the hidden-card
    tests do); the outcome is computed from them at the showdown."""

    def __init__(self, players: int, deal_seed: int) -> None:
        decks, seeds = draw_deals(np.random.default_rng(deal_seed), 1)
        deck = decks[0].tolist()
        self.players = players
        self.tie_seed = int(seeds[0])
        self.pockets = [tuple(deck[2 * p : 2 * p + 2]) for p in range(players)]
        self.board = tuple(deck[2 * players : 2 * players + BOARD])
        self.round = 0
        self.mover = 0
        self.keys: list[tuple[float, int]] = []
        self.chips: list[tuple[int, ...]] = []
        self.ties = np.zeros((ROUNDS, players))
        self.success = False
        self._outcomes()  # the tie-breaks: they depend on the heist's seed only

    @property
    def over(self) -> bool:
        return self.round >= ROUNDS

    def shown(self) -> tuple[int, ...]:
        """The community cards shown in the current round (all five once over)."""
        return self.board[: BOARD_SIZES[min(self.round, ROUNDS - 1)]]

    def view(self, seat: int) -> View:
        """Seat ``seat``'s view of the current round, as the strategy engine builds it."""
        seen = self.shown()
        return View(
            seat,
            self.players,
            min(self.round, ROUNDS - 1),
            self.pockets[seat],
            seen,
            tuple(self.chips),
            POCKET * (self.players - 1),
            BOARD - len(seen),
        )

    def _outcomes(self) -> np.ndarray:
        """Every seat's final hand score, and the contest tie-breaks drawn as the kernel draws
        them from the heist's own seed."""
        decks = np.zeros((1, 52), dtype=np.int64)
        dealt = [c for pocket in self.pockets for c in pocket] + list(self.board)
        decks[0, : len(dealt)] = dealt
        finals = np.zeros((1, self.players), dtype=np.int64)
        ties = np.zeros((1, ROUNDS, self.players))
        deal_outcomes(decks, np.array([self.tie_seed], dtype=np.int64), self.players, finals, ties)
        self.ties = ties[0]
        outcome: np.ndarray = finals[0]
        return outcome

    def take(self, star: int) -> None:
        """The mover reaches for ``star``; the last seat of a round settles the round."""
        self.keys.append((star - 1 + float(self.ties[self.round, self.mover]), self.mover))
        self.mover += 1
        if self.mover < self.players:
            return
        row = [0] * self.players
        for rank, (_, seat) in enumerate(sorted(self.keys)):
            row[seat] = rank + 1
        self.chips.append(tuple(row))
        self.keys, self.mover = [], 0
        self.round += 1
        if self.over:
            self.success = bool(showdown_in_order(self._outcomes(), np.array(row, dtype=np.int64), self.players))


class raw_env(CardEnv):  # noqa: N801 - PettingZoo's naming
    """One heist of The Gang for 3-6 cooperating agents (see the module docstring)."""

    metadata = {"name": "gang_v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    def __init__(self, players: int = 4, render_mode: str | None = None, encoding: str = "raw") -> None:
        super().__init__()
        GangConfig(players=players)  # one-line UserError on a bad table size
        self._setup(players, render_mode, spaces.Box(0, 52, (obs_size(players),), np.int64), players, encoding)
        self._heist: Heist | None = None
        self.deal_seed = 0

    @property
    def heist(self) -> Heist:
        """The heist being played (set by :meth:`reset`)."""
        return self._started(self._heist)

    def feature_fields(self) -> list[Field]:
        """The features of ``encoding="features"`` (see the module docstring)."""
        players, at = self.players, POCKET + BOARD + ROUNDS * self.players
        return [
            Field("pocket cards", 0, POCKET, "multihot", 52, 1),
            Field("community cards shown", POCKET, BOARD, "multihot", 52, 1),
            Field("stars by round and seat / players", POCKET + BOARD, ROUNDS * players, "scale", players),
            Field("round", at, 1, "onehot", ROUNDS + 1),
            Field("its turn", at + 1, 1, "scale", 1),
            Field("its seat", at + 2, 1, "onehot", players),
            Field("teammates' cards it cannot see / 10", at + 3, 1, "scale", 10),
            Field("community cards to come / 5", at + 4, 1, "scale", BOARD),
        ]

    # -- the public view ---------------------------------------------------------------
    def view(self, agent: str) -> View:
        """The agent's view, as a user strategy receives it."""
        return self.heist.view(self.agent_seat[agent])

    def legal_choices(self) -> tuple[int, ...]:
        """The mover's legal stars, as the strategy interface gives them."""
        return tuple(range(1, self.players + 1))

    def action_of(self, star: int) -> int:
        """The action of a strategy's star."""
        return int(star) - 1

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        heist, seat = self.heist, self.agent_seat[agent]
        obs = np.zeros(obs_size(self.players), np.int64)
        obs[:POCKET] = np.array(heist.pockets[seat]) + 1
        shown = heist.shown()
        obs[POCKET : POCKET + len(shown)] = np.array(shown, dtype=np.int64) + 1
        at = POCKET + BOARD
        for row in heist.chips:
            obs[at : at + self.players] = row
            at += self.players
        at = POCKET + BOARD + ROUNDS * self.players
        mine = not heist.over and heist.mover == seat
        obs[at : at + 5] = (heist.round, int(mine), seat, POCKET * (self.players - 1), BOARD - len(shown))
        # the round's chips are simultaneous: every seat still to choose may choose any chip
        mask = np.full(self.players, int(not heist.over and seat >= heist.mover), np.int8)
        return {"observation": obs, "action_mask": mask}

    # -- playing ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.deal_seed = self._episode_seed(seed)
        self._heist = Heist(self.players, self.deal_seed)
        self._new_episode()
        self.agent_selection = self.possible_agents[0]

    def step(self, action: int | None) -> None:
        agent = self._acting_agent(action)
        if agent is None or action is None:
            return
        if not 0 <= int(action) < self.players:
            raise ValueError(f"action {action} is not legal for {agent} (see the action_mask)")
        self._cumulative_rewards[agent] = 0.0
        heist = self.heist
        heist.take(int(action) + 1)
        reward = float(heist.over and heist.success)
        self.rewards = {name: reward for name in self.agents}
        if heist.over:
            self._terminate_all({"success": heist.success, "chips": [list(row) for row in heist.chips]})
        else:
            self.agent_selection = self.possible_agents[heist.mover]
        self._end_step()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        heist = self.heist
        pockets = " | ".join(
            f"{agent}: {' '.join(card_text(c) for c in heist.pockets[seat])}"
            for seat, agent in enumerate(self.possible_agents)
        )
        board = " ".join(card_text(c) for c in heist.shown())
        text = (
            f"round {ROUND_NAMES[min(heist.round, ROUNDS - 1)]}, board [{board}], "
            f"chips {[list(row) for row in heist.chips]}; {pockets}"
        )
        if heist.over:
            text += f"; {'success' if heist.success else 'alarm'}"
        return self._show(text)
