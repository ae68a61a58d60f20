"""Agreement with the independent reference evaluator phevaluator (test-only dependency)."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.poker import deal, evaluate
from cardsim.sims.poker.evaluator import N_SCORES

from .reference import FIVE_JACKS_SCORE, expected_phevaluator_rank, phevaluator_ranks

pytest.importorskip("phevaluator")


def test_score_numbering_leaves_only_the_five_jack_pattern_out_of_a_real_deck() -> None:
    assert N_SCORES == 7463
    assert expected_phevaluator_rank(np.array([N_SCORES - 1]))[0] == 1
    assert expected_phevaluator_rank(np.array([0]))[0] == 7462
    real_scores = np.delete(np.arange(N_SCORES), FIVE_JACKS_SCORE)
    assert sorted(expected_phevaluator_rank(real_scores)) == list(range(1, 7463))


@pytest.mark.parametrize(("n_cards", "n_hands"), [(5, 20_000), (6, 20_000), (7, 150_000)])
def test_agrees_with_phevaluator_on_random_hands(n_cards: int, n_hands: int) -> None:
    hands = deal(np.random.default_rng(100 + n_cards), n_hands, n_cards)
    ours = expected_phevaluator_rank(evaluate(hands))
    assert np.array_equal(ours, phevaluator_ranks(hands))


def test_agrees_with_phevaluator_on_eight_cards() -> None:
    """8 cards (Security Cameras): phevaluator's best over the eight 7-card subsets."""
    hands = deal(np.random.default_rng(8), 4000, 8)
    best = np.min([phevaluator_ranks(np.delete(hands, drop, axis=1)) for drop in range(8)], axis=0)
    assert np.array_equal(expected_phevaluator_rank(evaluate(hands)), best)


def test_shared_board_comparisons_agree_with_phevaluator() -> None:
    """Several players on one board: the order of their hands (with ties) is the reference's."""
    rng = np.random.default_rng(21)
    n_boards, n_players = 3000, 6
    cards = deal(rng, n_boards, 5 + 2 * n_players)
    board = cards[:, :5]
    hands = np.stack([np.hstack([cards[:, 5 + 2 * p : 7 + 2 * p], board]) for p in range(n_players)], axis=1)
    ours = evaluate(hands.reshape(-1, 7)).reshape(n_boards, n_players)
    theirs = phevaluator_ranks(hands.reshape(-1, 7)).reshape(n_boards, n_players)
    for a in range(n_players):
        for b in range(a + 1, n_players):
            assert np.array_equal(np.sign(ours[:, a] - ours[:, b]), np.sign(theirs[:, b] - theirs[:, a]))


@pytest.mark.slow
def test_agrees_with_phevaluator_on_two_million_seven_card_hands() -> None:
    hands = deal(np.random.default_rng(2024), 2_000_000, 7)
    assert np.array_equal(expected_phevaluator_rank(evaluate(hands)), phevaluator_ranks(hands))
