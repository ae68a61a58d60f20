"""The fast path itself: numba callability, cache freshness, input handling."""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.sims.poker import (
    SUITLESS_JACK,
    category_of_score,
    deal,
    evaluate,
    hand_key,
    score_extended,
    score_hand,
    suit_masks_into,
)
from cardsim.sims.poker.evaluator import PATTERN_KEYS
from cardsim.sims.poker.rules import best_pattern_of_cards
from cardsim.sims.poker.tables import build_tables, load_tables


def test_cached_tables_match_freshly_built_tables() -> None:
    """The on-disk table cache holds exactly what the rule functions build now."""
    fresh = build_tables()
    loaded = load_tables()
    assert fresh.keys() == loaded.keys()
    assert all(np.array_equal(fresh[name], loaded[name]) for name in fresh)


@njit
def _best_player(board: np.ndarray, pockets: np.ndarray) -> int:
    """A user kernel calling score_hand: index of the best of several pockets on one board."""
    hand = np.empty(7, dtype=np.int8)
    hand[2:] = board
    best, best_at = -1, -1
    for p in range(pockets.shape[0]):
        hand[0] = pockets[p, 0]
        hand[1] = pockets[p, 1]
        s = score_hand(hand)
        if s > best and category_of_score(s) >= 0:
            best, best_at = s, p
    return best_at


def test_score_hand_is_callable_from_other_numba_kernels() -> None:
    cards = deal(np.random.default_rng(4), 200, 11)
    for row in cards:
        board, pockets = row[:5], row[5:].reshape(3, 2)
        scores = evaluate(np.hstack([pockets, np.tile(board, (3, 1))]))
        assert scores[_best_player(board, pockets)] == scores.max()


def test_fast_path_matches_rule_functions_on_random_hands() -> None:
    """Table lookups against the direct (table-free) rule evaluation, for k = 5..8.

    Also the guard against a stale numba cache holding tables from an older rules.py.
    """
    rng = np.random.default_rng(9)
    for n_cards in (5, 6, 7, 8):
        rows = deal(rng, 3000, n_cards)
        expected = np.searchsorted(PATTERN_KEYS, [best_pattern_of_cards(row.astype(np.int64)) for row in rows])
        assert np.array_equal(evaluate(rows), expected)


def test_unchecked_path_and_other_integer_types_give_the_same_scores() -> None:
    rows = deal(np.random.default_rng(1), 1000, 7)
    checked = evaluate(rows)
    assert np.array_equal(evaluate(rows, check=False), checked)
    assert np.array_equal(evaluate(rows.astype(np.int64)), checked)
    assert np.array_equal(evaluate(rows.reshape(10, 100, 7)).ravel(), checked)
    assert all(int(score_hand(r.astype(np.int64))) == c for r, c in zip(rows[:20], checked[:20]))


@njit
def _extended_scores(boards: np.ndarray, extras: np.ndarray) -> np.ndarray:
    """score_extended of each (board, extra cards) row, via the board's key and suit masks."""
    out = np.empty(boards.shape[0], dtype=np.int32)
    masks = np.zeros(4, dtype=np.int64)
    for row in range(boards.shape[0]):
        suit_masks_into(boards[row], masks)
        out[row] = score_extended(hand_key(boards[row]), masks, boards.shape[1], extras[row])
    return out


def test_score_extended_equals_scoring_the_whole_hand() -> None:
    rng = np.random.default_rng(6)
    for board_size, extra_size in [(5, 2), (5, 3), (3, 2), (4, 3), (3, 5)]:
        cards = deal(rng, 3000, board_size + extra_size)
        cards[::5, -1] = SUITLESS_JACK  # some hands hold the suitless Jack
        boards, extras = cards[:, :board_size], cards[:, board_size:]
        assert np.array_equal(_extended_scores(boards, extras), evaluate(cards))
