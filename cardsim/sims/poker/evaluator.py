"""The fast evaluator: best five-card hand of 5..8 cards as one comparable integer score.

Scores are dense (0..N_SCORES-1, see :mod:`.tables`): higher is better, and two hands have the
same score iff their best five cards have the same ranks (a true tie, seed 000 "HÒA ĐÚNG").

``score_hand`` is an ``@kernel`` function other numba kernels can call; ``evaluate`` is the batch
entry point for numpy arrays. The lookup tables are module constants that numba freezes into the
compiled code. Numba's cache only watches each function's own source file, so after editing
``rules.py`` or ``tables.py`` delete ``cardsim/sims/poker/__pycache__`` (a stale cache makes
``tests/poker/test_evaluator.py::test_fast_path_matches_rule_functions_on_random_hands`` fail).
"""

from __future__ import annotations

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.core.jit import kernel
from cardsim.sims.poker.cards import JACK_RANK, SUITLESS_JACK
from cardsim.sims.poker.rules import FOUR_OF_A_KIND, HIGH_CARD, PAIR, THREE_OF_A_KIND, TWO_PAIR
from cardsim.sims.poker.tables import (
    FLUSH_PROBE_ADD,
    FLUSH_PROBE_MASK,
    HASH_MULT_BUCKET,
    HASH_MULT_SLOT,
    MAX_CARDS,
    MIN_CARDS,
    SUIT_FIELD_BITS,
    load_tables,
)

_TABLES = load_tables()
CARD_KEY: np.ndarray = _TABLES["card_key"]
PATTERN_KEYS: np.ndarray = _TABLES["pattern_keys"]
FLUSH_SCORE: np.ndarray = _TABLES["flush_score"]
RANK_TABLE: np.ndarray = _TABLES["rank_table"]
TABLE_OFFSET: np.ndarray = _TABLES["table_offset"]
TABLE_BITS: np.ndarray = _TABLES["table_bits"]
DISPLACEMENT: np.ndarray = _TABLES["displacement"]
DISP_OFFSET: np.ndarray = _TABLES["disp_offset"]
BUCKET_BITS: np.ndarray = _TABLES["bucket_bits"]
N_SCORES = len(PATTERN_KEYS)

_SUIT_SHIFT = np.uint64(SUIT_FIELD_BITS)
_SUIT_FIELD = np.uint64((1 << SUIT_FIELD_BITS) - 1)
_PROBE_ADD = np.uint64(FLUSH_PROBE_ADD)
_PROBE_MASK = np.uint64(FLUSH_PROBE_MASK)


@kernel(inline="always")
def _rank_score(rank_key: np.uint64, n_cards: int) -> int:
    """Score of the best suit-blind hand of a rank-multiset key (perfect-hash lookup)."""
    bucket = (rank_key * HASH_MULT_BUCKET) >> np.uint64(64 - BUCKET_BITS[n_cards])
    base = (rank_key * HASH_MULT_SLOT) >> np.uint64(64 - TABLE_BITS[n_cards])
    slot = base ^ np.uint64(DISPLACEMENT[DISP_OFFSET[n_cards] + bucket])
    return np.int32(RANK_TABLE[TABLE_OFFSET[n_cards] + slot])


@kernel(inline="always")
def _flush_suit(suit_sum: np.uint64) -> int:
    """The suit holding five or more cards, or -1 (at most one can, with 8 cards or fewer)."""
    probe = (suit_sum + _PROBE_ADD) & _PROBE_MASK
    if probe == 0:
        return -1
    if probe & np.uint64(0x8):
        return 0
    if probe & np.uint64(0x80):
        return 1
    if probe & np.uint64(0x800):
        return 2
    return 3


@kernel(inline="always")
def _suit_mask(cards: np.ndarray, suit: int) -> int:
    """13-bit mask of the ranks of ``cards`` in ``suit`` (the suitless Jack is in none)."""
    mask = 0
    for i in range(cards.shape[0]):
        card = np.uint8(cards[i])
        if card < 52 and (card & 3) == suit:
            mask |= 1 << (card >> 2)
    return mask


@kernel
def score_hand(cards: np.ndarray) -> np.int32:
    """Score of the best five-card hand among 5..8 card codes (int8/int64 1-d array).

    Callable from other numba kernels. Cards must be distinct codes 0..52 (52 = suitless Jack);
    this is not checked here (use :func:`evaluate` for checked input).
    """
    n_cards = cards.shape[0]
    total = np.uint64(0)
    for i in range(n_cards):
        total += CARD_KEY[np.uint8(cards[i])]
    score = _rank_score(total >> _SUIT_SHIFT, n_cards)
    suit = _flush_suit(total & _SUIT_FIELD)
    if suit >= 0:
        flush = np.int32(FLUSH_SCORE[_suit_mask(cards, suit)])
        if flush > score:
            score = flush
    return np.int32(score)


@kernel(inline="always")
def hand_key(cards: np.ndarray) -> np.uint64:
    """Sum of the card keys of ``cards`` (a partial hand, e.g. a board), for score_extended."""
    total = np.uint64(0)
    for i in range(cards.shape[0]):
        total += CARD_KEY[np.uint8(cards[i])]
    return total


@kernel(inline="always")
def suit_masks_into(cards: np.ndarray, masks: np.ndarray) -> None:
    """Write the 13-bit rank mask of each suit of ``cards`` into ``masks`` (4 ints)."""
    for suit in range(4):
        masks[suit] = 0
    for i in range(cards.shape[0]):
        card = np.uint8(cards[i])
        if card < 52:
            masks[card & 3] |= 1 << (card >> 2)


@kernel(refcounts=False)
def score_extended(base_key: np.uint64, base_masks: np.ndarray, n_base: int, extra: np.ndarray) -> np.int32:
    """Score of a partial hand (its :func:`hand_key`, suit masks and size) plus ``extra`` cards.

    Shared-board kernels compute the board's key and masks once, then add each holding's two or
    three cards here: the same result as :func:`score_hand` on the concatenated cards.
    """
    total = base_key
    for i in range(extra.shape[0]):
        total += CARD_KEY[np.uint8(extra[i])]
    score = _rank_score(total >> _SUIT_SHIFT, n_base + extra.shape[0])
    suit = _flush_suit(total & _SUIT_FIELD)
    if suit >= 0:
        flush = np.int32(FLUSH_SCORE[base_masks[suit] | _suit_mask(extra, suit)])
        if flush > score:
            score = flush
    return np.int32(score)


@kernel(refcounts=False)
def score_union(first: np.ndarray, n_first: int, second: np.ndarray, n_second: int) -> np.int32:
    """:func:`score_hand` of the first ``n_first`` cards of ``first`` together with the first
    ``n_second`` of ``second`` (5..8 cards in all, e.g. a pocket and the cards shown), without
    building the joined hand."""
    total = np.uint64(0)
    for i in range(n_first):
        total += CARD_KEY[np.uint8(first[i])]
    for i in range(n_second):
        total += CARD_KEY[np.uint8(second[i])]
    score = _rank_score(total >> _SUIT_SHIFT, n_first + n_second)
    suit = _flush_suit(total & _SUIT_FIELD)
    if suit >= 0:
        mask = _suit_mask(first[:n_first], suit) | _suit_mask(second[:n_second], suit)
        flush = np.int32(FLUSH_SCORE[mask])
        if flush > score:
            score = flush
    return np.int32(score)


@kernel(inline="always")
def rank_only_score(total_key: np.uint64, n_cards: int) -> np.int32:
    """Score of a hand of ``n_cards`` (5..8) from its key sum when it holds no flush: the
    suit-blind lookup of :func:`score_extended` alone (shared-board kernels use it to score a
    rank class once for every holding of those ranks that cannot make a flush)."""
    return np.int32(_rank_score(total_key >> _SUIT_SHIFT, n_cards))


FOUR_CARD_BASE = 13**4


@kernel
def score_four(cards: np.ndarray) -> int:
    """Order of a four-card hand, e.g. one pocket card plus the flop (seed 000 rankings).

    Four cards make no straight and no flush, so only the rank multiplicities rank them:
    four of a kind > three of a kind > two pair > pair > high card, then the ranks in the order
    they are compared (larger groups first, higher ranks first). The suitless Jack (52) counts as
    a Jack. Returns ``category * 13**4 + compared ranks in base 13``: higher is better, equal iff
    a true tie, comparable only with other four-card scores (not with the dense 5..8-card ones).
    """
    return score_four_union(cards, cards.shape[0], cards, 0)


@kernel(refcounts=False)
def score_four_union(first: np.ndarray, n_first: int, second: np.ndarray, n_second: int) -> int:
    """:func:`score_four` of the first ``n_first`` cards of ``first`` together with the first
    ``n_second`` of ``second`` (four cards in all), without building the joined hand; the rank
    counts are packed three bits a rank in one integer, so no array is allocated."""
    counts = 0
    for i in range(n_first + n_second):
        card = first[i] if i < n_first else second[i - n_first]
        counts += 1 << (3 * (JACK_RANK if card == SUITLESS_JACK else card >> 2))
    pairs = 0
    top = 0
    for rank in range(13):
        count = (counts >> (3 * rank)) & 7
        if count == 2:
            pairs += 1
        top = max(top, count)
    if top == 4:
        category = FOUR_OF_A_KIND
    elif top == 3:
        category = THREE_OF_A_KIND
    elif pairs == 2:
        category = TWO_PAIR
    elif pairs == 1:
        category = PAIR
    else:
        category = HIGH_CARD
    packed = 0
    for group in range(4, 0, -1):
        for rank in range(12, -1, -1):
            if (counts >> (3 * rank)) & 7 == group:
                packed = packed * 13 + rank
    return category * FOUR_CARD_BASE + packed


@kernel
def _evaluate_rows(cards: np.ndarray, out: np.ndarray) -> None:
    """score_hand of every row of a (N, k) uint8 card matrix into ``out``.

    Unsigned card codes let numba index the key table without a negative-index fix-up, which
    roughly triples the throughput compared with int8 input.
    """
    n_cards = cards.shape[1]
    bucket_shift = np.uint64(64 - BUCKET_BITS[n_cards])
    slot_shift = np.uint64(64 - TABLE_BITS[n_cards])
    disp_base = DISP_OFFSET[n_cards]
    table_base = TABLE_OFFSET[n_cards]
    for row in range(cards.shape[0]):
        total = np.uint64(0)
        for i in range(n_cards):
            total += CARD_KEY[cards[row, i]]
        rank_key = total >> _SUIT_SHIFT
        bucket = (rank_key * HASH_MULT_BUCKET) >> bucket_shift
        slot = ((rank_key * HASH_MULT_SLOT) >> slot_shift) ^ np.uint64(DISPLACEMENT[disp_base + bucket])
        score = np.int32(RANK_TABLE[table_base + slot])
        suit = _flush_suit(total & _SUIT_FIELD)
        if suit >= 0:
            flush = np.int32(FLUSH_SCORE[_suit_mask(cards[row], suit)])
            if flush > score:
                score = flush
        out[row] = score


def check_cards(cards: np.ndarray) -> np.ndarray:
    """Validate a (..., k) card array for :func:`evaluate`; return it as C-contiguous (N, k) int8.

    Raises :class:`UserError` for k outside 5..8, codes outside 0..52 or a repeated card in a row.
    """
    array = np.asarray(cards)
    if array.ndim == 0:
        raise UserError("cards must be an array of card codes, not a single number")
    k = array.shape[-1]
    if not MIN_CARDS <= k <= MAX_CARDS:
        raise UserError(f"a hand needs {MIN_CARDS} to {MAX_CARDS} cards, got {k}")
    if array.size and (array.min() < 0 or array.max() > 52):
        raise UserError("card codes must be 0..52 (52 is the suitless Jack)")
    rows = np.ascontiguousarray(array.reshape(-1, k), dtype=np.int8)
    repeated = _first_row_with_repeat(rows.view(np.uint8))
    if repeated >= 0:
        raise UserError(f"hand {repeated} contains the same card twice")
    return rows


@kernel
def _first_row_with_repeat(cards: np.ndarray) -> int:
    """Index of the first row holding a card code twice, or -1 (a 53-bit seen-mask per row)."""
    for row in range(cards.shape[0]):
        seen = np.uint64(0)
        for i in range(cards.shape[1]):
            bit = np.uint64(1) << np.uint64(cards[row, i])
            if seen & bit:
                return row
            seen |= bit
    return -1


def evaluate(cards: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Scores (int32) of the best five-card hands of a (..., k) card array, k in 5..8.

    The result has the leading shape; a 1-d array of k cards gives a 0-d result. Accepts the suitless Jack (52). ``check=False``
    skips validation for trusted int8 C-contiguous input (the benchmark path).
    """
    if check:
        shape = np.shape(cards)[:-1]
        rows = check_cards(cards)
    else:
        shape = cards.shape[:-1]
        rows = np.ascontiguousarray(cards, dtype=np.int8).reshape(-1, cards.shape[-1])
    out = np.empty(rows.shape[0], dtype=np.int32)
    _evaluate_rows(rows.view(np.uint8), out)
    return out.reshape(shape)


@kernel
def score_histogram(n_cards: int) -> np.ndarray:
    """How many of the C(52, n_cards) hands have each score (exhaustive enumeration, k = 5..8).

    Every hand is visited. The first k - 1 cards advance like an odometer in lexicographic order,
    keeping the key sum of each prefix so only changed cards are re-added; the last card runs in
    an inner loop where the suit-blind lookup is done once per rank (the four cards of a rank
    share it) and only the suit counter and flush check are per card. Returns int64 counts
    indexed by score.
    """
    histogram = np.zeros(N_SCORES, dtype=np.int64)
    bucket_shift = np.uint64(64 - BUCKET_BITS[n_cards])
    slot_shift = np.uint64(64 - TABLE_BITS[n_cards])
    disp_base = DISP_OFFSET[n_cards]
    table_base = TABLE_OFFSET[n_cards]
    n_prefix = n_cards - 1
    prefix_cards = np.arange(n_prefix).astype(np.uint8)
    prefix_key = np.zeros(n_prefix + 1, dtype=np.uint64)
    for i in range(n_prefix):
        prefix_key[i + 1] = prefix_key[i] + CARD_KEY[prefix_cards[i]]
    prefix_masks = np.zeros(4, dtype=np.int64)
    last_prefix = n_prefix - 1
    highest_prefix_card = 51 - 1  # the prefix's last card leaves room for one more card
    while True:
        total_prefix = prefix_key[n_prefix]
        suit_masks_into(prefix_cards, prefix_masks)
        cached_rank = -1
        cached_score = np.int32(0)
        for card in range(prefix_cards[last_prefix] + 1, 52):
            total = total_prefix + CARD_KEY[card]
            rank = card >> 2
            if rank != cached_rank:
                cached_rank = rank
                rank_key = total >> _SUIT_SHIFT
                bucket = (rank_key * HASH_MULT_BUCKET) >> bucket_shift
                slot = ((rank_key * HASH_MULT_SLOT) >> slot_shift) ^ np.uint64(DISPLACEMENT[disp_base + bucket])
                cached_score = np.int32(RANK_TABLE[table_base + slot])
            score = cached_score
            suit = _flush_suit(total & _SUIT_FIELD)
            if suit >= 0:
                mask = prefix_masks[suit]
                if (card & 3) == suit:
                    mask |= 1 << rank
                flush = np.int32(FLUSH_SCORE[mask])
                if flush > score:
                    score = flush
            histogram[score] += 1
        position = last_prefix
        while position >= 0 and prefix_cards[position] == highest_prefix_card - (last_prefix - position):
            position -= 1
        if position < 0:
            break
        prefix_cards[position] += 1
        prefix_key[position + 1] = prefix_key[position] + CARD_KEY[prefix_cards[position]]
        for j in range(position + 1, n_prefix):
            prefix_cards[j] = prefix_cards[j - 1] + 1
            prefix_key[j + 1] = prefix_key[j] + CARD_KEY[prefix_cards[j]]
    return histogram
