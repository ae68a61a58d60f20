"""Hand-ranking rules as small pure functions over plain data (rank counts and rank bitmasks).

Every function here is the direct statement of a rule from the seed rulebook
``/work/shared/seeds/000_12b40c22b0c0a771.txt`` (section "XẾP HẠNG BÀI", hand rankings), digested
in ``seeds/poker.md``. They are slow-but-obvious: the lookup tables of the fast evaluator
(:mod:`cardsim.sims.poker.tables`) are built by calling them on every possible rank multiset and
suit bitmask, so the fast path inherits exactly these rules.

A *pattern* is the best five-card hand reduced to what decides ties: its category and the ranks
that are compared, most significant first (unused slots are 0). :func:`pattern_key` packs it into
one integer whose order is the ranking order.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.poker.cards import ACE_RANK, N_RANKS

HIGH_CARD = 0
PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8
ROYAL_FLUSH = 9

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

FIVE_HIGH = 3  # rank of the five: the top card of the ace-low straight A-2-3-4-5
WHEEL_MASK = (1 << ACE_RANK) | 0b1111  # A, 2, 3, 4, 5


@kernel
def pattern_key(category: int, r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """Pack a pattern into one integer: category first, then the compared ranks in order."""
    return (((((category * 13 + r0) * 13 + r1) * 13 + r2) * 13 + r3) * 13) + r4


@kernel
def straight_high(rank_mask: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask, or -1 if there is none.

    Seed 000, "Sảnh": five consecutive ranks; the ace plays high (T-J-Q-K-A) or low (A-2-3-4-5,
    whose top card is the five) but never in the middle (K-A-2-3-4 is not a straight).
    """
    for top in range(ACE_RANK, 3, -1):
        run = 0b11111 << (top - 4)
        if rank_mask & run == run:
            return top
    if rank_mask & WHEEL_MASK == WHEEL_MASK:
        return FIVE_HIGH
    return -1


@kernel
def top_ranks_of_mask(rank_mask: int, how_many: int, out: np.ndarray) -> None:
    """Write the ``how_many`` highest ranks present in ``rank_mask`` into ``out`` (descending)."""
    filled = 0
    for rank in range(ACE_RANK, -1, -1):
        if filled == how_many:
            break
        if rank_mask >> rank & 1:
            out[filled] = rank
            filled += 1


@kernel
def best_flush_pattern(suit_mask: int) -> int:
    """Pattern key of the best hand among cards of one suit (a mask with at least five ranks).

    Seed 000: "Thùng" (five cards of one suit, compared card by card from the top),
    "Thùng phá sảnh" (a straight in one suit, compared by its top card) and "Sảnh chúa" (the
    ace-high straight flush, the tenth and highest ranking).
    """
    high = straight_high(suit_mask)
    if high == ACE_RANK:
        return pattern_key(ROYAL_FLUSH, high, 0, 0, 0, 0)
    if high >= 0:
        return pattern_key(STRAIGHT_FLUSH, high, 0, 0, 0, 0)
    top = np.zeros(5, dtype=np.int64)
    top_ranks_of_mask(suit_mask, 5, top)
    return pattern_key(FLUSH, top[0], top[1], top[2], top[3], top[4])


@kernel
def best_rank_pattern(counts: np.ndarray) -> int:
    """Pattern key of the best hand that ignores suits, from 13 rank counts (5..8 cards).

    Counts may exceed four only for the Jack (four real jacks plus the suitless Jack: seed 000,
    specialist 7 "Jack": four jacks with a jack kicker). Rules, strongest first (seed 000,
    "CÁC KẾT HỢP BÀI CHI TIẾT"): four of a kind (then the best kicker), full house (best set,
    then the best other pair), straight, three of a kind (two kickers), two pair (higher pair,
    lower pair, kicker), pair (three kickers), high card (five cards). A kicker is the highest
    card not already used, so it can come from a rank that holds a further pair or set.
    """
    present = 0
    for rank in range(N_RANKS):
        if counts[rank] > 0:
            present |= 1 << rank
    quads = -1
    sets = np.full(3, -1, dtype=np.int64)
    pairs = np.full(4, -1, dtype=np.int64)
    n_sets = 0
    n_pairs = 0
    for rank in range(ACE_RANK, -1, -1):
        count = counts[rank]
        if count >= 4 and quads < 0:
            quads = rank
        elif count >= 3 and n_sets < 3:
            sets[n_sets] = rank
            n_sets += 1
        elif count == 2 and n_pairs < 4:
            pairs[n_pairs] = rank
            n_pairs += 1
    kick = np.zeros(5, dtype=np.int64)
    if quads >= 0:
        others = present & ~(1 << quads)
        if counts[quads] >= 5:
            others |= 1 << quads  # the fifth jack can be the kicker
        top_ranks_of_mask(others, 1, kick)
        return pattern_key(FOUR_OF_A_KIND, quads, kick[0], 0, 0, 0)
    if n_sets >= 1:
        pair_rank = -1
        if n_sets >= 2:
            pair_rank = sets[1]
        if n_pairs >= 1 and pairs[0] > pair_rank:
            pair_rank = pairs[0]
        if pair_rank >= 0:
            return pattern_key(FULL_HOUSE, sets[0], pair_rank, 0, 0, 0)
    high = straight_high(present)
    if high >= 0:
        return pattern_key(STRAIGHT, high, 0, 0, 0, 0)
    if n_sets >= 1:
        top_ranks_of_mask(present & ~(1 << sets[0]), 2, kick)
        return pattern_key(THREE_OF_A_KIND, sets[0], kick[0], kick[1], 0, 0)
    if n_pairs >= 2:
        top_ranks_of_mask(present & ~(1 << pairs[0]) & ~(1 << pairs[1]), 1, kick)
        return pattern_key(TWO_PAIR, pairs[0], pairs[1], kick[0], 0, 0)
    if n_pairs == 1:
        top_ranks_of_mask(present & ~(1 << pairs[0]), 3, kick)
        return pattern_key(PAIR, pairs[0], kick[0], kick[1], kick[2], 0)
    top_ranks_of_mask(present, 5, kick)
    return pattern_key(HIGH_CARD, kick[0], kick[1], kick[2], kick[3], kick[4])


@kernel
def best_pattern_of_cards(cards: np.ndarray) -> int:
    """Pattern key of the best five-card hand in 5..8 card codes (reference path, no tables).

    The best hand is the better of the best suit-blind hand and, if some suit holds five or more
    cards, the best hand in that suit. The suitless Jack (code 52) adds a jack to the rank counts
    and belongs to no suit, so it never completes a flush (seed 000, specialist 7 "Jack").
    """
    counts = np.zeros(N_RANKS, dtype=np.int64)
    suit_masks = np.zeros(4, dtype=np.int64)
    suit_counts = np.zeros(4, dtype=np.int64)
    for i in range(cards.shape[0]):
        card = cards[i]
        if card == 52:
            counts[9] += 1
            continue
        rank = card >> 2
        suit = card & 3
        counts[rank] += 1
        suit_masks[suit] |= 1 << rank
        suit_counts[suit] += 1
    best = best_rank_pattern(counts)
    for suit in range(4):
        if suit_counts[suit] >= 5:
            flush = best_flush_pattern(suit_masks[suit])
            if flush > best:
                best = flush
    return best


def pattern_category(key: int | np.ndarray) -> int | np.ndarray:
    """Category (0..9) of a pattern key."""
    return key // 13**5


def pattern_ranks(key: int) -> tuple[int, int, int, int, int]:
    """The five compared ranks of a pattern key, most significant first."""
    ranks = []
    for _ in range(5):
        ranks.append(key % 13)
        key //= 13
    return tuple(reversed(ranks))  # type: ignore[return-value]
