"""Shared helpers for The Game tests: build kernel states from plain card lists."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.thegame import kernel
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import DECK_SIZE, HIGHEST_CARD, MAX_HAND, MAX_PLAYERS


def below_for(unplayed: set[int]) -> np.ndarray:
    """The kernel's ``below`` table: below[x] = unplayed cards with value <= x."""
    below = np.zeros(HIGHEST_CARD + 2, np.int64)
    running = 0
    for x in range(HIGHEST_CARD + 2):
        if x in unplayed:
            running += 1
        below[x] = running
    return below


class Table:
    """A mid-game state: hands (lists), pile tops, and the cards still in the draw pile."""

    def __init__(
        self, hands: list[list[int]], piles: list[int], draw: list[int], played: set[int] | None = None
    ) -> None:
        self.players = len(hands)
        self.hands = np.zeros((MAX_PLAYERS, MAX_HAND), np.int64)
        self.counts = np.zeros(MAX_PLAYERS, np.int64)
        for q, hand in enumerate(hands):
            self.hands[q, : len(hand)] = hand
            self.counts[q] = len(hand)
        self.piles = np.array(piles, np.int64)
        self.deck = np.zeros(DECK_SIZE, np.int64)
        self.draw_pos = DECK_SIZE - len(draw)
        self.deck[self.draw_pos :] = draw
        in_play = {c for hand in hands for c in hand} | set(draw)
        unplayed = in_play if played is None else set(range(2, 100)) - played
        self.below = below_for(unplayed)
        self.stats = np.zeros(kernel.STATS_LEN, np.int64)
        self.rng = np.ones(1, np.uint64)
        self.W, self.F, self.C = kernel.new_work()

    def hand(self, player: int) -> list[int]:
        return sorted(int(c) for c in self.hands[player, : self.counts[player]])

    def play_out(
        self, strategy: int, first: int = 0, hand_size: int = 8, min_cards: int = 2, trick_ok: bool = True
    ) -> int:
        """Play to the end with ``strategy``; returns the cards left."""
        params = strategy_params(self.players)
        self.draw_pos = kernel.play_out(
            strategy,
            self.deck,
            self.draw_pos,
            self.hands,
            self.counts,
            first,
            self.players,
            hand_size,
            min_cards,
            trick_ok,
            self.piles,
            self.below,
            self.rng,
            params,
            self.W,
            self.F,
            self.C,
            self.stats,
        )
        return int(kernel.cards_left(self.counts, self.players, self.draw_pos))


@pytest.fixture
def params() -> np.ndarray:
    return strategy_params(1)
