"""Exhaustive enumeration: category counts and numbers of distinct scores."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.poker import CATEGORY_NAMES, category_of, score_histogram

# Published counts (standard poker probabilities), by category from high card to royal flush.
FIVE_CARD_COUNTS = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
SEVEN_CARD_COUNTS = [
    23_294_460,
    58_627_800,
    31_433_400,
    6_461_620,
    6_180_020,
    4_047_644,
    3_473_184,
    224_848,
    37_260,
    4_324,
]


def category_counts(histogram: np.ndarray) -> list[int]:
    """Hands per category from a per-score histogram."""
    categories = category_of(np.arange(len(histogram)))
    return np.bincount(categories, weights=histogram, minlength=len(CATEGORY_NAMES)).astype(np.int64).tolist()


def test_all_five_card_hands() -> None:
    histogram = score_histogram(5)
    assert histogram.sum() == 2_598_960
    assert category_counts(histogram) == FIVE_CARD_COUNTS
    assert np.count_nonzero(histogram) == 7_462


def test_every_score_is_one_category_block_in_order() -> None:
    categories = category_of(np.arange(len(score_histogram(5))))
    assert np.all(np.diff(categories) >= 0)
    assert categories[0] == 0 and categories[-1] == 9


@pytest.mark.slow
def test_all_seven_card_hands() -> None:
    histogram = score_histogram(7)
    assert histogram.sum() == 133_784_560
    assert category_counts(histogram) == SEVEN_CARD_COUNTS
    assert np.count_nonzero(histogram) == 4_824
