"""Incremental bitmask hand scorer for the heist kernels (best five of 5..8 cards).

Why a private scorer: the heist models rate every possible opponent holding on the same board
(about 1,100 holdings per round), so the board's rank and suit masks are built once and each
holding only adds its two or three cards (:func:`add_card`) before :func:`score_masks` packs the
best five. The card code is the poker engine's (``card = rank * 4 + suit``, rank 0..12 = 2..A,
``SUITLESS_JACK = 52``); tests cross-check the order against independent evaluators.

Rules (seed 000, "XẾP HẠNG BÀI"; digest ``seeds/the_gang.md`` section "Hand ranking"):
best five of the available cards; categories high card < pair < two pair < three of a kind <
straight < flush < full house < four of a kind < straight flush < royal flush; ace high or
low in a straight (A-2-3-4-5) but never in the middle; kickers compared from the highest;
the suitless Jack (specialist 7) counts as a Jack but never for a flush.

Score layout (int32, larger is stronger, equal iff the best five cards tie exactly):
``category << 27 | primary << 13 | kicker`` where ``primary`` and ``kicker`` are 13-bit rank
masks (comparing masks with the same number of bits compares their ranks from the top).
Bit 26 is left free for the Muscle specialist (:data:`MUSCLE_BIT`).
"""

from __future__ import annotations

import numpy as np
from cardsim.sims.core.jit import kernel

SUITLESS_JACK = 52
JACK_RANK = 9
ACE_RANK = 12

CATEGORY_NAMES: tuple[str, ...] = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "royal flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL = range(10)
CATEGORY_SHIFT = 27
MUSCLE_BIT = 1 << 26


def _build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Popcount, highest set bit and best straight top rank (-1 if none) of every 13-bit mask."""
    masks = range(1 << 13)
    popcount = np.array([bin(m).count("1") for m in masks], dtype=np.int8)
    highest = np.array([m.bit_length() - 1 for m in masks], dtype=np.int8)
    straight_top = np.full(1 << 13, -1, dtype=np.int8)
    for m in masks:
        extended = (int(m) << 1) | ((int(m) >> ACE_RANK) & 1)  # bit 0 = ace played low
        runs = extended & (extended >> 1) & (extended >> 2) & (extended >> 3) & (extended >> 4)
        if runs:
            straight_top[m] = runs.bit_length() - 1 + 4 - 1  # back to rank index of the top card
    return popcount, highest, straight_top


POPCOUNT, HIGHEST_BIT, STRAIGHT_TOP = _build_tables()


@kernel(inline="always")
def top_bits(mask: int, k: int) -> int:
    """The ``k`` highest set bits of a 13-bit rank mask (the best ``k`` kickers)."""
    out = 0
    for _ in range(k):
        if mask == 0:
            break
        bit = 1 << HIGHEST_BIT[mask]
        out |= bit
        mask &= ~bit
    return out


@kernel(inline="always")
def add_card(m1: int, m2: int, m3: int, m4: int, m5: int, suits: np.ndarray, card: int):
    """Add one card to the rank-multiplicity masks (m_k = ranks held at least k times).

    ``suits`` (int64[4], per-suit rank masks) is updated in place; the suitless Jack adds to the
    rank masks only.
    """
    if card == SUITLESS_JACK:
        bit = 1 << JACK_RANK
    else:
        bit = 1 << (card >> 2)
        suits[card & 3] |= bit
    if m4 & bit:
        m5 |= bit
    elif m3 & bit:
        m4 |= bit
    elif m2 & bit:
        m3 |= bit
    elif m1 & bit:
        m2 |= bit
    else:
        m1 |= bit
    return m1, m2, m3, m4, m5


@kernel
def score_masks(m1: int, m2: int, m3: int, m4: int, m5: int, suits: np.ndarray) -> int:
    """Pack the best five-card hand described by the masks into an int32 score."""
    flush_mask = 0
    for s in range(4):
        if POPCOUNT[suits[s]] >= 5:
            flush_mask = suits[s]
    if flush_mask:
        top = STRAIGHT_TOP[flush_mask]
        if top >= 0:
            category = ROYAL if top == ACE_RANK else STRAIGHT_FLUSH
            return (category << CATEGORY_SHIFT) | ((1 << top) << 13)
        if not m3:  # without three of a kind there is no full house or quads to beat it
            return (FLUSH << CATEGORY_SHIFT) | (top_bits(flush_mask, 5) << 13)
        if not m4 and not (m2 & ~(1 << HIGHEST_BIT[m3])):
            return (FLUSH << CATEGORY_SHIFT) | (top_bits(flush_mask, 5) << 13)
    return score_ranks(m1, m2, m3, m4, m5)


@kernel
def score_ranks(m1: int, m2: int, m3: int, m4: int, m5: int) -> int:
    """Score of the best five when no flush is possible (the ranks alone decide)."""
    if m4:
        quad = 1 << HIGHEST_BIT[m4]
        kicker = top_bits((m1 & ~quad) | (m5 & quad), 1)
        return (QUADS << CATEGORY_SHIFT) | (quad << 13) | kicker
    if m3:
        trip = 1 << HIGHEST_BIT[m3]
        rest = m2 & ~trip
        if rest:
            return (FULL_HOUSE << CATEGORY_SHIFT) | (trip << 13) | top_bits(rest, 1)
    top = STRAIGHT_TOP[m1]
    if top >= 0:
        return (STRAIGHT << CATEGORY_SHIFT) | ((1 << top) << 13)
    if m3:
        trip = 1 << HIGHEST_BIT[m3]
        return (TRIPS << CATEGORY_SHIFT) | (trip << 13) | top_bits(m1 & ~trip, 2)
    if m2:
        if POPCOUNT[m2] >= 2:
            pairs = top_bits(m2, 2)
            return (TWO_PAIR << CATEGORY_SHIFT) | (pairs << 13) | top_bits(m1 & ~pairs, 1)
        return (PAIR << CATEGORY_SHIFT) | (m2 << 13) | top_bits(m1 & ~m2, 3)
    return (HIGH_CARD << CATEGORY_SHIFT) | (top_bits(m1, 5) << 13)


@kernel
def score_cards(cards: np.ndarray) -> int:
    """Score of the best five of 5..8 card codes (negative codes are ignored)."""
    suits = np.zeros(4, dtype=np.int64)
    m1 = m2 = m3 = m4 = m5 = 0
    for c in cards:
        if c >= 0:
            m1, m2, m3, m4, m5 = add_card(m1, m2, m3, m4, m5, suits, c)
    return score_masks(m1, m2, m3, m4, m5, suits)


@kernel
def score_rows(hands: np.ndarray) -> np.ndarray:
    """Scores of each row of an (N, k) array of card codes."""
    out = np.empty(hands.shape[0], dtype=np.int32)
    for i in range(hands.shape[0]):
        out[i] = score_cards(hands[i])
    return out


@kernel(inline="always")
def category_of_score(score: int) -> int:
    """Category 0..9 (high card .. royal flush) of a packed score (Muscle bit ignored)."""
    return score >> CATEGORY_SHIFT


def describe(score: int) -> str:
    """Category name of a score, e.g. ``"full house"``."""
    return CATEGORY_NAMES[int(score) >> CATEGORY_SHIFT]
