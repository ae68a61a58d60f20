"""Hands and holdings the heist kernel shares: pocket and hand scores, and every possible
opponent holding scored once per board.

A player rates their pocket plus the community cards shown (seed 000, "Vòng 1 b)"): pre-flop
by the starting-hand table (:mod:`cardsim.sims.gang.preflop`), later by the best five cards,
scored by the poker engine (:mod:`cardsim.sims.poker.evaluator`; rankings: digest "Hand ranking").

Hand scores in the heist kernels are ``2 * poker score`` (dense, higher is stronger, equal iff a
true tie), so the Muscle holder (specialist 10: beats every other hand of the same ranking and
no other) fits in between as ``2 * (top score of the ranking) + 1`` (:func:`muscle_score`). The
only four-card hand rated (one pocket card plus the flop, the Informant's key card) uses the
poker engine's :func:`~cardsim.sims.poker.evaluator.score_four`, compared only with other
four-card hands.
Work sharing: each round the board's masks are built once and every possible opponent holding
(all 1,326 pairs, the 52 holdings with the suitless Jack once a Jack was used, or 1,000 sampled
triples under Security Cameras) is scored once; every player's percentile is then a count over
that shared list.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.preflop import EQUITY, class_index
from cardsim.sims.poker.cards import JACK_RANK, SUITLESS_JACK
from cardsim.sims.poker.evaluator import (
    CARD_KEY,
    hand_key,
    rank_only_score,
    score_extended,
    score_four_union,
    score_union,
    suit_masks_into,
)
from cardsim.sims.poker.hands import CATEGORY_NAMES, CATEGORY_OF_SCORE, TOP_SCORE_OF_CATEGORY

MAX_PLAYERS = 6


MAX_POCKET = 3


N_PAIRS = 1326


N_TRIPLES = 1000


BOARD_SIZES = (0, 3, 4, 5)


EQUITY_SCALE = 10_000


def _pair_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All 1,326 two-card holdings, their card bit masks and their pre-flop table values."""
    pairs = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    masks = (np.int64(1) << pairs[:, 0]) | (np.int64(1) << pairs[:, 1])
    preflop = np.array([round(EQUITY[class_index(int(a), int(b))] * EQUITY_SCALE) for a, b in pairs], dtype=np.int64)
    return pairs, masks, preflop


PAIRS, PAIR_MASKS, PAIR_PREFLOP = _pair_tables()


N_JACK_PAIRS = 52


def _jack_pair_tables() -> tuple[np.ndarray, np.ndarray]:
    """The 1,326 holdings followed by the 52 holdings (card, suitless Jack) a Jack user may end
    with (the Jack is no card of the deck: its bit is not in the mask)."""
    jack = np.array([(c, SUITLESS_JACK) for c in range(52)], dtype=np.int64)
    cards = np.concatenate([PAIRS, jack])
    masks = np.concatenate([PAIR_MASKS, np.int64(1) << jack[:, 0]])
    return cards, masks


PAIRS_WITH_JACK, PAIR_MASKS_WITH_JACK = _jack_pair_tables()


_PAIR_RANKS = np.where(PAIRS_WITH_JACK == SUITLESS_JACK, JACK_RANK, PAIRS_WITH_JACK >> 2)


PAIR_CLASS = 13 * _PAIR_RANKS.min(axis=1) + _PAIR_RANKS.max(axis=1)


def _flush_candidates() -> tuple[np.ndarray, np.ndarray]:
    """For each suit and need (1 or 2 cards), the two-card holdings (Jack holdings included)
    with at least that many cards of the suit (the suitless Jack has none), padded."""
    in_suit = [((PAIRS_WITH_JACK != SUITLESS_JACK) & (PAIRS_WITH_JACK % 4 == s)).sum(axis=1) for s in range(4)]
    table = np.zeros((4, 3, len(PAIRS_WITH_JACK)), dtype=np.int64)
    counts = np.zeros((4, 3), dtype=np.int64)
    for s in range(4):
        for need in (1, 2):
            chosen = np.flatnonzero(in_suit[s] >= need)
            table[s, need, : len(chosen)] = chosen
            counts[s, need] = len(chosen)
    return table, counts


FLUSH_CANDIDATES, FLUSH_CANDIDATE_COUNT = _flush_candidates()


EQUITY_Q = np.round(EQUITY * EQUITY_SCALE).astype(np.int64)


@kernel(refcounts=False)
def preflop_value(pocket: np.ndarray, size: int) -> int:
    """Pre-flop rating of a pocket: table value of its best two-card class (2 or 3 cards)."""
    best = 0
    for a in range(size):
        for b in range(a + 1, size):
            value = EQUITY_Q[class_index(pocket[a], pocket[b])]
            if value > best:
                best = value
    return best


def _category_floors() -> np.ndarray:
    """Per ranking, a gang score just below every hand of that ranking."""
    scores = np.arange(CATEGORY_OF_SCORE.shape[0])
    return np.array([2 * scores[CATEGORY_OF_SCORE == c].min() - 1 for c in range(len(CATEGORY_NAMES))], dtype=np.int64)


CATEGORY_FLOOR = _category_floors()


@kernel(inline="always")
def category_of_score(score: int) -> int:
    """Ranking 0..9 (high card .. royal flush) of a gang hand score (Muscle or not)."""
    return CATEGORY_OF_SCORE[score >> 1]


@kernel(inline="always")
def muscle_score(score: int) -> int:
    """Muscle (10): the holder beats every other hand of the same ranking (but no other)."""
    return 2 * TOP_SCORE_OF_CATEGORY[CATEGORY_OF_SCORE[score >> 1]] + 1


@kernel(inline="always")
def is_muscle(score: int) -> bool:
    """Is this gang score a Muscle holder's raised score?"""
    return (score & 1) == 1


@kernel(inline="always")
def category_floor(score: int) -> int:
    """A score below every hand of the ranking of ``score`` and above every lower ranking (what
    a hand of that ranking is worth against the Muscle holder)."""
    return CATEGORY_FLOOR[CATEGORY_OF_SCORE[score >> 1]]


def describe_category(score: int) -> str:
    """Ranking name of a gang hand score, e.g. ``"full house"``."""
    return CATEGORY_NAMES[int(CATEGORY_OF_SCORE[int(score) >> 1])]


@kernel(refcounts=False)
def hand_score(pocket: np.ndarray, size: int, board: np.ndarray, shown: int) -> int:
    """Score of the best five of the pocket plus the ``shown`` first community cards (four
    cards: the four-card order of :func:`~cardsim.sims.poker.evaluator.score_four`)."""
    if size + shown >= 5:
        return 2 * np.int64(score_union(pocket, size, board, shown))
    return score_four_union(pocket, size, board, shown)


@kernel(refcounts=False)
def strength(pocket: np.ndarray, size: int, board: np.ndarray, shown: int) -> int:
    """What a player rates in a round: the pre-flop table value, later the current best hand."""
    if shown == 0:
        return preflop_value(pocket, size)
    return hand_score(pocket, size, board, shown)


@kernel(refcounts=False)
def pocket_mask(pocket: np.ndarray, size: int) -> int:
    """Bit set of the pocket's cards (the suitless Jack is no card of the deck: left out)."""
    mask = np.int64(0)
    for s in range(size):
        if pocket[s] != SUITLESS_JACK:
            mask |= np.int64(1) << pocket[s]
    return mask


@kernel(refcounts=False)
def holder_of(chips: np.ndarray, before_round: int, star: int, players: int, fallback: int) -> int:
    """Who holds ``star`` in the latest chip round before ``before_round`` (or seat ``fallback``)."""
    for t in range(before_round - 1, -1, -1):
        for p in range(players):
            if chips[t, p] == star:
                return p
    return fallback


@kernel(refcounts=False)
def sample_triples(out_cards: np.ndarray, out_masks: np.ndarray, count: int) -> None:
    """``count`` uniformly random three-card holdings (Security Cameras hypotheses)."""
    for h in range(count):
        a = np.random.randint(0, 52)
        b = a
        while b == a:
            b = np.random.randint(0, 52)
        c = a
        while c == a or c == b:
            c = np.random.randint(0, 52)
        out_cards[h, 0] = a
        out_cards[h, 1] = b
        out_cards[h, 2] = c
        out_masks[h] = (np.int64(1) << a) | (np.int64(1) << b) | (np.int64(1) << c)


SCORE_WORK = 4 + 13 + 169  # scratch of score_holdings_into: suit masks, rank counts, classes


@kernel
def score_holdings(
    cards: np.ndarray,
    masks: np.ndarray,
    count: int,
    size: int,
    board: np.ndarray,
    shown: int,
    valid: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Score every holding not colliding with the shown board (shared per board); returns how
    many are valid. Pre-flop the score is the starting-hand table value.

    Two-card holdings that cannot make a flush share their score with every holding of the same
    two ranks, so only the 91 rank classes are evaluated; holdings with enough cards of the
    board's majority suit are evaluated in full (:func:`score_holdings_into`, with its scratch).
    """
    work = np.zeros(SCORE_WORK, dtype=np.int64)
    return score_holdings_into(cards, masks, count, size, board, shown, valid, scores, work)


@kernel(refcounts=False)
def score_holdings_into(
    cards: np.ndarray,
    masks: np.ndarray,
    count: int,
    size: int,
    board: np.ndarray,
    shown: int,
    valid: np.ndarray,
    scores: np.ndarray,
    work: np.ndarray,
) -> int:
    """:func:`score_holdings` with its scratch in the caller's ``work`` (``SCORE_WORK`` int64,
    overwritten: the board's suit masks, rank counts and the rank classes' scores); writes
    ``valid[:count]`` and the scores of ``scores[:count]`` as it does, returns how many are
    valid."""
    for k in range(SCORE_WORK):
        work[k] = 0
    board_suits = work[:4]
    rank_count = work[4:17]
    class_scores = work[17:SCORE_WORK]
    board_mask = np.int64(0)
    for k in range(shown):
        board_mask |= np.int64(1) << board[k]
    board_key = hand_key(board[:shown])
    suit_masks_into(board[:shown], board_suits)
    flush_suit = -1
    need = 99
    for k in range(shown):
        rank_count[board[k] >> 2] += 1
    for s in range(4):
        on_board = 0
        for k in range(shown):
            on_board += (board[k] & 3) == s
        if on_board + size >= 5:
            flush_suit = s
            need = 5 - on_board
    if size == 2 and shown > 0:
        for ra in range(13):
            for rb in range(ra, 13):
                if rank_count[ra] + 1 + (ra == rb) > 4 or rank_count[rb] + 1 > 4:
                    continue  # no holding has these ranks
                key = board_key + CARD_KEY[4 * ra] + CARD_KEY[4 * rb + 1]
                class_scores[ra * 13 + rb] = 2 * np.int64(rank_only_score(key, shown + 2))
    n_valid = 0
    for h in range(count):
        ok = (masks[h] & board_mask) == 0
        valid[h] = ok
        n_valid += ok
    if shown == 0 and size == 2:
        for h in range(count):
            scores[h] = PAIR_PREFLOP[h]  # no board yet: every holding is valid
    elif shown == 0:
        for h in range(count):
            scores[h] = preflop_value(cards[h], size)
    elif size == 2 and need > 0:
        for h in range(count):  # every holding at its rank class (also the invalid ones: unread)
            scores[h] = class_scores[PAIR_CLASS[h]]
        if flush_suit >= 0:  # only holdings with ``need`` cards of the flush suit can flush
            for k in range(FLUSH_CANDIDATE_COUNT[flush_suit, need]):
                h = FLUSH_CANDIDATES[flush_suit, need, k]
                if h < count and valid[h]:
                    scores[h] = 2 * np.int64(score_extended(board_key, board_suits, shown, cards[h, :2]))
    else:
        for h in range(count):
            if valid[h]:
                scores[h] = 2 * np.int64(score_extended(board_key, board_suits, shown, cards[h, :size]))
    return n_valid


def _card_pairs() -> np.ndarray:
    """For each card, the indices of the 51 two-card holdings that contain it."""
    table = np.zeros((52, 51), dtype=np.int64)
    filled = np.zeros(52, dtype=np.int64)
    for index, (a, b) in enumerate(PAIRS):
        table[a, filled[a]] = index
        filled[a] += 1
        table[b, filled[b]] = index
        filled[b] += 1
    return table


CARD_PAIRS = _card_pairs()


def _pair_index() -> np.ndarray:
    """The index of the two-card holding of cards ``a`` and ``b`` at ``[a, b]`` and ``[b, a]``
    (-1 on the diagonal)."""
    table = np.full((52, 52), -1, dtype=np.int64)
    for index, (a, b) in enumerate(PAIRS):
        table[a, b] = index
        table[b, a] = index
    return table


PAIR_INDEX = _pair_index()


NO_HOLDING = np.int64(1) << 40  # score of a holding that collides with the board: never counted


@kernel(refcounts=False)
def own_pair_counts(
    first: int, second: int, scores: np.ndarray, valid: np.ndarray, target: int, pair_cards: np.ndarray
) -> tuple[int, int, int]:
    """The valid two-card holdings that use card ``first`` or ``second`` (a player's own cards,
    which no teammate can hold; the holding of both counted once, the suitless Jack in none):
    how many, and how many of them score below / equal to ``target``."""
    total = 0
    less = 0
    equal = 0
    for c in (first, second):
        if c < 0 or c >= 52:
            continue
        for k in range(51):
            h = CARD_PAIRS[c, k]
            if not valid[h]:
                continue
            if c == second and first < 52 and _pair_has(pair_cards, h, first):
                continue  # the holding of both own cards was already counted
            total += 1
            less += scores[h] < target
            equal += scores[h] == target
    return total, less, equal


@kernel(refcounts=False)
def card_positions(
    index: np.ndarray, n_valid: int, pair_cards: np.ndarray, positions: np.ndarray, counts: np.ndarray
) -> None:
    """For each card, the sorted positions of the valid two-card holdings that contain it:
    ``positions[c, :counts[c]]``, ascending, from the holdings ``index[:n_valid]`` sorted by
    score (:func:`sort_valid`; holdings with the suitless Jack are left out, as in
    :func:`own_pair_counts`)."""
    counts[:] = 0
    for k in range(n_valid):
        h = index[k]
        if h >= N_PAIRS:
            continue
        for s in range(2):
            c = pair_cards[h, s]
            positions[c, counts[c]] = k
            counts[c] += 1


@kernel(inline="always")
def count_sorted(values: np.ndarray, row: int, n: int, x: float, up_to: bool) -> int:
    """``np.searchsorted(values[row, :n], x, side="right" if up_to else "left")`` for ascending
    values and ``x`` not NaN: how many of them are at most (``up_to``) or below ``x``.
    Branch-free halving (the next half is chosen by arithmetic on the comparison, so random
    ``x`` cost no mispredicted jumps), on a row of a 2-D table so that no view is made."""
    if n == 0:
        return 0
    base = 0
    while n > 1:
        half = n >> 1
        value = values[row, base + half - 1]
        base += half * ((value < x) | (up_to & (value == x)))
        n -= half
    value = values[row, base]
    return base + ((value < x) | (up_to & (value == x)))


@kernel(refcounts=False)
def own_out_counts(
    first: int,
    second: int,
    lo: int,
    hi: int,
    positions: np.ndarray,
    counts: np.ndarray,
    scores: np.ndarray,
    valid: np.ndarray,
    target: int,
) -> tuple[int, int, int]:
    """:func:`own_pair_counts` from the card positions of :func:`card_positions`, where ``lo``
    and ``hi`` are the sorted positions where scores equal to ``target`` start and end: per own
    card, the holdings below ``lo`` score less and those from ``lo`` to ``hi`` the same; the
    holding of both own cards, counted under each, is taken out once."""
    total = 0
    less = 0
    equal = 0
    for c in (first, second):
        if c < 0 or c >= 52:
            continue
        below_lo = count_sorted(positions, c, counts[c], lo, False)
        total += counts[c]
        less += below_lo
        equal += count_sorted(positions, c, counts[c], hi, False) - below_lo
    if 0 <= first < 52 and 0 <= second < 52:
        both = PAIR_INDEX[first, second]
        if valid[both]:
            total -= 1
            less -= scores[both] < target
            equal -= scores[both] == target
    return total, less, equal


@kernel(refcounts=False)
def order_by(keys: np.ndarray, n: int, order: np.ndarray) -> None:
    """``order[:n]``: the indices ``0 .. n-1`` sorted by ``keys``, equal keys in index order
    (an insertion sort: the order ``np.argsort`` gives below 16 items, without its array)."""
    for i in range(n):
        j = i
        while j > 0 and keys[i] < keys[order[j - 1]]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i


@kernel(refcounts=False)
def pair_percentiles(
    scores: np.ndarray,
    valid: np.ndarray,
    own: np.ndarray,
    pockets: np.ndarray,
    players: int,
    pair_cards: np.ndarray,
    ratings: np.ndarray,
) -> None:
    """Every player's percentile among the two-card holdings they could face (valid holdings
    without their own cards; ties one half), shared per board: one branch-free pass counts
    against all holdings, then the at most 101 holdings that use a player's own cards are
    taken back out (:func:`own_pair_counts`)."""
    count = scores.shape[0]
    n_valid = 0
    for h in range(count):
        n_valid += valid[h]
    for p in range(players):
        target = own[p]
        less = 0
        equal = 0
        for h in range(count):
            value = scores[h] if valid[h] else NO_HOLDING
            less += value < target
            equal += value == target
        out_total, out_less, out_equal = own_pair_counts(
            pockets[p, 0], pockets[p, 1], scores, valid, target, pair_cards
        )
        ratings[p] = (less - out_less + 0.5 * (equal - out_equal)) / max(n_valid - out_total, 1)


@kernel(inline="always")
def _pair_has(pair_cards: np.ndarray, h: int, card: int) -> bool:
    return pair_cards[h, 0] == card or pair_cards[h, 1] == card


RADIX_BITS = 8
RADIX_LIMIT = 1 << (2 * RADIX_BITS)  # scores below this are sorted by two counting passes


@kernel
def sort_valid(scores: np.ndarray, valid: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the valid holdings sorted by score (equal scores by index), and their sorted
    scores.

    Hand scores (twice the poker engine's dense score) and pre-flop table values are below
    2**16, so two stable counting passes of 8 bits replace a comparison sort; other values fall
    back to sorting ``score << 12 | index`` (the same order).
    """
    n_valid = 0
    low = np.int64(0)
    high = np.int64(0)
    for h in range(count):
        if valid[h]:
            n_valid += 1
            low = min(low, scores[h])
            high = max(high, scores[h])
    index = np.empty(n_valid, dtype=np.int64)
    k = 0
    for h in range(count):
        if valid[h]:
            index[k] = h
            k += 1
    values = np.empty(n_valid, dtype=np.int64)
    if low >= 0 and high < RADIX_LIMIT:
        buffer = np.empty(n_valid, dtype=np.int64)
        starts = np.empty((1 << RADIX_BITS) + 1, dtype=np.int64)
        for shift in (0, RADIX_BITS):
            source = index if shift == 0 else buffer
            target = buffer if shift == 0 else index
            starts[:] = 0
            for k in range(n_valid):
                starts[((scores[source[k]] >> shift) & 255) + 1] += 1
            for b in range(1 << RADIX_BITS):
                starts[b + 1] += starts[b]
            for k in range(n_valid):
                digit = (scores[source[k]] >> shift) & 255
                target[starts[digit]] = source[k]
                starts[digit] += 1
        for k in range(n_valid):
            values[k] = scores[index[k]]
        return index, values
    packed = np.empty(n_valid, dtype=np.int64)
    for k in range(n_valid):
        packed[k] = (scores[index[k]] << 12) | index[k]
    packed.sort()
    for k in range(n_valid):
        index[k] = packed[k] & 4095
        values[k] = packed[k] >> 12
    return index, values


@kernel(refcounts=False)
def holding_percentiles(index: np.ndarray, values: np.ndarray, out: np.ndarray) -> None:
    """Percentile of each valid holding among all valid holdings (ties count one half)."""
    n_valid = values.shape[0]
    k = 0
    while k < n_valid:
        end = k
        while end + 1 < n_valid and values[end + 1] == values[k]:
            end += 1
        pct = (k + 0.5 * (end + 1 - k)) / n_valid
        for m in range(k, end + 1):
            out[index[m]] = pct
        k = end + 1


def _preflop_order() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`sort_valid` and :func:`holding_percentiles` of the 1,326 two-card holdings before
    the flop (all valid, scored by the starting-hand table): the same every heist."""
    index = np.argsort(PAIR_PREFLOP, kind="stable")
    values = PAIR_PREFLOP[index]
    pct = np.zeros(N_PAIRS)
    k = 0
    while k < N_PAIRS:
        end = k
        while end + 1 < N_PAIRS and values[end + 1] == values[k]:
            end += 1
        pct[index[k : end + 1]] = (k + 0.5 * (end + 1 - k)) / N_PAIRS
        k = end + 1
    return index, values, pct


PREFLOP_INDEX, PREFLOP_VALUES, PREFLOP_PCT = _preflop_order()


@kernel
def rank_holdings(
    scores: np.ndarray, valid: np.ndarray, count: int, shown: int, size: int, pct: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sort_valid` then :func:`holding_percentiles` into ``pct``; before the flop with
    two-card pockets the fixed pre-flop order is copied instead of sorted again."""
    if shown == 0 and size == 2 and count == N_PAIRS:
        for h in range(N_PAIRS):
            pct[h] = PREFLOP_PCT[h]
        return PREFLOP_INDEX.copy(), PREFLOP_VALUES.copy()
    index, values = sort_valid(scores, valid, count)
    holding_percentiles(index, values, pct)
    return index, values


ALL_VALID = np.ones(N_PAIRS, dtype=np.bool_)


@kernel(refcounts=False)
def preflop_pair_percentiles(
    own: np.ndarray, pockets: np.ndarray, players: int, pair_cards: np.ndarray, ratings: np.ndarray
) -> None:
    """:func:`pair_percentiles` before the flop, where every holding is valid and scored by the
    starting-hand table: the counts against all holdings come from the fixed sorted order, then
    the holdings that use a player's own cards are taken back out (the same integer counts)."""
    for p in range(players):
        target = own[p]
        less = np.searchsorted(PREFLOP_VALUES, target, side="left")
        equal = np.searchsorted(PREFLOP_VALUES, target, side="right") - less
        out_total, out_less, out_equal = own_pair_counts(
            pockets[p, 0], pockets[p, 1], PAIR_PREFLOP, ALL_VALID, target, pair_cards
        )
        ratings[p] = (less - out_less + 0.5 * (equal - out_equal)) / max(N_PAIRS - out_total, 1)
