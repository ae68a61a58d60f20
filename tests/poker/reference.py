"""Conversion between our scores and the independent reference evaluator phevaluator."""

from __future__ import annotations

import numpy as np

from cardsim.sims.poker.evaluator import PATTERN_KEYS
from cardsim.sims.poker.rules import FOUR_OF_A_KIND, pattern_key

FIVE_JACKS_SCORE = int(np.searchsorted(PATTERN_KEYS, pattern_key(FOUR_OF_A_KIND, 9, 9, 0, 0, 0)))
N_STANDARD = 7462


def expected_phevaluator_rank(scores: np.ndarray) -> np.ndarray:
    """phevaluator's rank (1 = royal flush .. 7462 = 7-5-4-3-2) for our scores of real-card hands.

    Our scores number the 7,463 patterns from the weakest; dropping the suitless-Jack-only pattern
    (four jacks with a jack kicker) leaves the 7,462 standard ones, which phevaluator numbers from
    the strongest.
    """
    scores = np.asarray(scores, dtype=np.int64)
    standard_index = scores - (scores > FIVE_JACKS_SCORE)
    return N_STANDARD - standard_index


def phevaluator_ranks(hands: np.ndarray) -> np.ndarray:
    """phevaluator rank of each row (5..7 cards) via its Python API."""
    from phevaluator import evaluate_cards

    return np.array([evaluate_cards(*row) for row in hands.astype(int).tolist()], dtype=np.int64)
