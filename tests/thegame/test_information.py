"""Digest reading 18: strategies without `omniscient` use only legal information.

From random mid-game positions, everything the player to move cannot see (teammates' hands and
the draw order) is dealt again at random; a strategy that reads only its own hand, the pile tops
and the public record of played cards must then take exactly the same turn.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.thegame import kernel
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import DECK_SIZE, HIGHEST_CARD, MAX_HAND, MAX_PLAYERS, rules_hand_size

POSITIONS = 60


def random_position(rng: np.random.Generator, players: int):
    """A legal-looking mid-game position: some cards played, hands dealt, the rest to draw."""
    cards = rng.permutation(np.arange(2, 100))
    played_count = int(rng.integers(0, 60))
    played, unplayed = sorted(cards[:played_count].tolist()), cards[played_count:]
    piles = np.array([1, 1, 100, 100], np.int64)
    for pile in range(4):
        if played and rng.random() < 0.8:
            piles[pile] = rng.choice(played)
    hands = np.zeros((MAX_PLAYERS, MAX_HAND), np.int64)
    counts = np.zeros(MAX_PLAYERS, np.int64)
    position = 0
    for seat in range(players):
        size = min(rules_hand_size(players), len(unplayed) - position)
        hands[seat, :size] = unplayed[position:position + size]
        counts[seat] = size
        position += size
    deck = np.zeros(DECK_SIZE, np.int64)
    draw_pos = DECK_SIZE - (len(unplayed) - position)
    deck[draw_pos:] = unplayed[position:]
    unplayed_set = set(unplayed.tolist())
    below = np.cumsum([card in unplayed_set for card in range(HIGHEST_CARD + 2)]).astype(np.int64)
    return hands, counts, piles, deck, draw_pos, below


def redeal_hidden(rng, hands, counts, deck, draw_pos, players):
    """Teammates' hands and the draw pile dealt again from the same hidden cards."""
    hands, deck = hands.copy(), deck.copy()
    hidden = [int(hands[q, s]) for q in range(1, players) for s in range(counts[q])]
    hidden = rng.permutation(hidden + deck[draw_pos:].tolist())
    index = 0
    for seat in range(1, players):
        for slot in range(counts[seat]):
            hands[seat, slot] = hidden[index]
            index += 1
    deck[draw_pos:] = hidden[index:]
    return hands, deck


def turn_log(strategy, name, players, hands, counts, piles, below, draw_left):
    """Seat 0's turn: how many cards it played and the (card, pile) log."""
    params = strategy_params(players, name, 0)
    hands, counts, piles, below = hands.copy(), counts.copy(), piles.copy(), below.copy()
    work = kernel.new_work()
    stats = np.zeros(kernel.STATS_LEN + 300, np.int64)
    rng = np.ones(1, np.uint64) * 12345
    required = kernel.required_plays(draw_left, 2)
    played = kernel.take_heuristic_turn(strategy, hands, counts, 0, players, piles, below, required,
                                        draw_left, True, rng, params, *work, stats)
    return played, stats[kernel.STATS_LEN:kernel.STATS_LEN + 3 * stats[kernel.S_LOG_LEN]].tolist()


def reservations(players, hands, counts, piles, below, name):
    out = np.zeros(4)
    kernel.reservations(hands, counts, 0, players, piles, below, True, strategy_params(players, name),
                        out)
    return out.tolist()


@pytest.mark.parametrize(
    "strategy, name",
    [(kernel.GREEDY, "greedy"), (kernel.PLANNER, "planner"), (kernel.SIGNALS, "signals"),
     (kernel.SEARCH, "search")],
)
def test_turn_does_not_depend_on_hidden_cards(strategy, name):
    rng = np.random.default_rng(18)
    compared = 0
    for _ in range(POSITIONS):
        players = int(rng.integers(2, 6))
        hands, counts, piles, deck, draw_pos, below = random_position(rng, players)
        other_hands, _ = redeal_hidden(rng, hands, counts, deck, draw_pos, players)
        if name in ("signals", "search") and reservations(
            players, hands, counts, piles, below, name
        ) != reservations(players, other_hands, counts, piles, below, name):
            continue  # the allowed signals differ, so the turn may legitimately differ
        draw_left = DECK_SIZE - draw_pos
        assert turn_log(strategy, name, players, hands, counts, piles, below, draw_left) == turn_log(
            strategy, name, players, other_hands, counts, piles, below, draw_left
        )
        compared += 1
    assert compared >= 5
