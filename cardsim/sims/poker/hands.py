"""What a score means: its category, a readable description, and the Muscle showdown rule."""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.poker.cards import RANK_NAMES, RANK_PLURALS
from cardsim.sims.poker.evaluator import N_SCORES, PATTERN_KEYS
from cardsim.sims.poker.rules import (
    CATEGORY_NAMES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    ROYAL_FLUSH,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    pattern_category,
    pattern_ranks,
)

__all__ = [
    "CATEGORY_NAMES",
    "CATEGORY_OF_SCORE",
    "category_of",
    "category_of_score",
    "describe",
    "muscle_beats",
    "muscle_beats_batch",
    "muscle_showdown_keys",
]

CATEGORY_OF_SCORE: np.ndarray = pattern_category(PATTERN_KEYS).astype(np.int8)
"""Category (0 high card .. 9 royal flush) of each score."""

TOP_SCORE_OF_CATEGORY: np.ndarray = np.array(
    [np.flatnonzero(CATEGORY_OF_SCORE == c).max() for c in range(len(CATEGORY_NAMES))],
    dtype=np.int32,
)


@kernel
def category_of_score(score: int) -> np.int8:
    """Category (0..9) of one score; callable from numba kernels."""
    return CATEGORY_OF_SCORE[score]


def category_of(scores: np.ndarray | int) -> np.ndarray:
    """Category (int8, 0 high card .. 9 royal flush) of each score."""
    return CATEGORY_OF_SCORE[np.asarray(scores)]


def _kickers(ranks: tuple[int, ...]) -> str:
    """'ace kicker' or 'ace, nine, four kickers'."""
    names = ", ".join(RANK_NAMES[r] for r in ranks)
    return f"{names} kicker" if len(ranks) == 1 else f"{names} kickers"


def describe(score: int) -> str:
    """A readable name for a score, e.g. ``"two pair, kings and fours, ace kicker"``."""
    score = int(score)
    if not 0 <= score < N_SCORES:
        raise ValueError(f"score must be 0..{N_SCORES - 1}, got {score}")
    key = int(PATTERN_KEYS[score])
    category = int(pattern_category(key))
    r = pattern_ranks(key)
    if category == HIGH_CARD:
        return f"high card, {RANK_NAMES[r[0]]}, {_kickers(r[1:])}"
    if category == PAIR:
        return f"pair, {RANK_PLURALS[r[0]]}, {_kickers(r[1:4])}"
    if category == TWO_PAIR:
        return f"two pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}, {_kickers(r[2:3])}"
    if category == THREE_OF_A_KIND:
        return f"three of a kind, {RANK_PLURALS[r[0]]}, {_kickers(r[1:3])}"
    if category == STRAIGHT:
        return f"straight, {RANK_NAMES[r[0]]} high"
    if category == FLUSH:
        return f"flush, {', '.join(RANK_NAMES[x] for x in r)}"
    if category == FULL_HOUSE:
        return f"full house, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[1]]}"
    if category == FOUR_OF_A_KIND:
        return f"four of a kind, {RANK_PLURALS[r[0]]}, {_kickers(r[1:2])}"
    if category == STRAIGHT_FLUSH:
        return f"straight flush, {RANK_NAMES[r[0]]} high"
    assert category == ROYAL_FLUSH
    return "royal flush"


def muscle_beats(score_muscle: int, score_other: int) -> bool:
    """Does the Muscle specialist's holder beat a hand of score ``score_other``?

    Seed 000, specialist 10 "Cơ bắp": the holder beats every other player whose hand has the same
    ranking, whatever the kickers or ranks (worked example: a pair of twos beats a pair of
    eights); a hand of a higher ranking still beats the holder, a lower one still loses. The ten
    rankings are the rulebook's ten, so a royal flush is not the same ranking as a straight flush.
    """
    return bool(CATEGORY_OF_SCORE[int(score_muscle)] >= CATEGORY_OF_SCORE[int(score_other)])


def muscle_beats_batch(score_muscle: np.ndarray, score_other: np.ndarray) -> np.ndarray:
    """:func:`muscle_beats` elementwise over broadcastable score arrays (bool array)."""
    return category_of(score_muscle) >= category_of(score_other)


def muscle_showdown_keys(scores: np.ndarray, muscle_holder: np.ndarray) -> np.ndarray:
    """Showdown order keys with the Muscle rule applied (int32, same shape as ``scores``).

    ``muscle_holder`` is a boolean mask (at most one True per showdown). A holder's key is raised
    above every score of its category and others keep their order: key = 2 * score, and the holder
    gets 2 * (top score of its category) + 1. Compare keys exactly like scores (equal = true tie).
    """
    scores = np.asarray(scores, dtype=np.int32)
    raised = 2 * TOP_SCORE_OF_CATEGORY[CATEGORY_OF_SCORE[scores]] + 1
    return np.where(np.asarray(muscle_holder, dtype=bool), raised, 2 * scores).astype(np.int32)
