"""Hand ranking (seed 000, "XẾP HẠNG BÀI"): the heist kernels' scores (the poker engine's, doubled
to make room for the Muscle) against an independent evaluator, fixed hands for every category
and edge case, and the four-card order (digest: "Hand ranking")."""

from __future__ import annotations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from cardsim.sims.gang.holdings import (
    category_floor,
    hand_score,
    muscle_score,
)
from cardsim.sims.gang.holdings import (
    describe_category as describe,
)
from cardsim.sims.poker.cards import SUITLESS_JACK
from cardsim.sims.poker.evaluator import score_four
from cardsim.sims.poker.hands import CATEGORY_NAMES

from .conftest import RANKS, SUITS, cards


def score_cards(hand: np.ndarray) -> int:
    """The heist kernels' score of a whole hand (5..8 cards; 4 cards: the four-card order)."""
    hand = np.asarray(hand, dtype=np.int64)
    return hand_score(hand, hand.size, hand, 0)


def score_rows(hands: np.ndarray) -> np.ndarray:
    return np.array([score_cards(h) for h in hands], dtype=np.int64)


def _text(code: int) -> str:
    return RANKS[code // 4] + SUITS[code % 4]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_order_matches_independent_evaluator(size: int) -> None:
    """Pairwise order of 3,000 random hands equals phevaluator's (lower rank = stronger there)."""
    rng = np.random.default_rng(size)
    hands = np.array([rng.permutation(52)[:size] for _ in range(3000)], dtype=np.int64)
    ours = score_rows(hands)
    theirs = np.array([evaluate_cards(*[_text(c) for c in h]) for h in hands])
    a = np.sign(ours[:, None].astype(np.int64) - ours[None, :300])
    b = np.sign(theirs[None, :300] - theirs[:, None])
    assert (a == b).all()


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("2c 5d 9h Js Kc 3d 7h", "high card"),
        ("2c 2d 9h Js Kc 3d 7h", "pair"),
        ("2c 2d 9h 9s Kc 3d 7h", "two pair"),
        ("2c 2d 2h 9s Kc 3d 7h", "three of a kind"),
        ("Ac 2d 3h 4s 5c Kd Qh", "straight"),
        ("2c 5c 9c Jc Kc 3d 7h", "flush"),
        ("2c 2d 2h 9s 9c 3d 7h", "full house"),
        ("2c 2d 2h 2s 9c 3d 7h", "four of a kind"),
        ("5h 6h 7h 8h 9h 2c 2d", "straight flush"),
        ("Th Jh Qh Kh Ah 2c 2d", "royal flush"),
    ],
)
def test_categories(hand: str, category: str) -> None:
    """Each of the ten rankings is recognised from seven cards."""
    assert describe(score_cards(cards(hand))) == category


def test_ranking_order_flush_below_full_house() -> None:
    """The listed order in seed 000 is broken by page layout; Texas Hold'em order applies:
    straight < flush < full house < four of a kind."""
    straight = score_cards(cards("9c Td Jh Qs Kc 2d 3h"))
    flush = score_cards(cards("2c 5c 9c Jc Kc 3d 7h"))
    full_house = score_cards(cards("2c 2d 2h 9s 9c 3d 7h"))
    quads = score_cards(cards("2c 2d 2h 2s 9c 3d 7h"))
    assert straight < flush < full_house < quads
    assert list(CATEGORY_NAMES).index("flush") == 5


def test_wheel_is_lowest_straight_and_no_wraparound() -> None:
    """A-2-3-4-5 is a five-high straight; K-A-2-3-4 is not a straight."""
    wheel = score_cards(cards("Ac 2d 3h 4s 5c 9d 9h"))
    six_high = score_cards(cards("2c 3d 4h 5s 6c 9d 9h"))
    assert describe(wheel) == "straight" and wheel < six_high
    assert describe(score_cards(cards("Kc Ad 2h 3s 4c 9d 8h"))) == "high card"


def test_kickers_decide_then_true_tie() -> None:
    """Pairs compare the pair, then kickers from the highest; identical best fives tie."""
    a = score_cards(cards("2c 2d Ah Js 7c 4d 3h"))
    b = score_cards(cards("2h 2s Ac Ts 7d 4c 3s"))
    assert a > b
    board = cards("Ah Kd Qc Js 9h")  # both play the board: a true tie
    assert score_cards(np.concatenate([board, cards("2c 3d")])) == score_cards(np.concatenate([board, cards("4c 5d")]))


def test_suitless_jack_counts_as_jack_but_never_for_a_flush() -> None:
    """Specialist 7 (Jack): a Jack of no suit."""
    straight = score_cards(cards("J* Tc 9c 8c Qd 2h 3s"))
    assert describe(straight) == "straight"
    no_flush = score_cards(cards("J* Ac 9c 8c 2c 3h 4s"))
    assert describe(no_flush) == "high card"
    five_jacks = score_cards(cards("J* Jc Jd Jh Js 2c 3d"))
    four_jacks_ace = score_cards(cards("Ac Jc Jd Jh Js 2c 3d"))
    assert describe(five_jacks) == "four of a kind"
    assert five_jacks < four_jacks_ace  # quads of Jacks with a Jack kicker


def test_eight_cards_best_five() -> None:
    """Security Cameras: the best five of three pocket and five community cards."""
    assert describe(score_cards(cards("Ac Kc Qc Jc Tc 2d 3d 4d"))) == "royal flush"
    assert describe(score_cards(cards("2c 2d 2h 3s 3c 3d 4h 4s"))) == "full house"
    three_pairs = score_cards(cards("2c 2d 3h 3s 4c 4d 9h Ks"))
    assert describe(three_pairs) == "two pair"


@pytest.mark.parametrize("size", [5, 7, 8])
def test_order_matches_the_project_poker_engine_with_the_suitless_jack(size: int) -> None:
    """The kernel scorer orders hands exactly like cardsim.sims.poker (cards drawn from the 52
    plus the suitless Jack, 5 to 8 cards)."""
    from cardsim.sims.poker.evaluator import evaluate

    rng = np.random.default_rng(100 + size)
    hands = np.array([rng.permutation(53)[:size] for _ in range(2000)])
    ours = score_rows(hands.astype(np.int64)).astype(np.int64)
    theirs = evaluate(hands.astype(np.int8)).astype(np.int64)
    assert (np.sign(ours[:, None] - ours[None, :300]) == np.sign(theirs[:, None] - theirs[None, :300])).all()


def _four_card_key(hand: list[int]) -> tuple:
    """Independent four-card order: (ranking, ranks by group size then rank), no straights or
    flushes with four cards."""
    ranks = [9 if int(c) == 52 else int(c) // 4 for c in hand]
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    shape = tuple(n for n, _ in groups)
    ranking = {(4,): 7, (3, 1): 3, (2, 2): 2, (2, 1, 1): 1, (1, 1, 1, 1): 0}[shape]
    return (ranking, tuple(r for _, r in groups))


def test_four_card_order_matches_an_independent_key() -> None:
    """The Informant's key card at the flop rates one pocket card plus the flop (four cards):
    the poker engine's four-card order agrees pairwise with an independent key, suitless Jack
    included."""
    rng = np.random.default_rng(4)
    hands = [list(rng.permutation(53)[:4]) for _ in range(1500)]
    hands += [[52, 36, 37, 38], [36, 37, 38, 39], [0, 1, 4, 5], [0, 1, 2, 48]]
    ours = np.array([score_four(np.array(h, dtype=np.int64)) for h in hands])
    keys = [_four_card_key(h) for h in hands]
    for i in range(len(hands)):
        for j in range(0, len(hands), 7):
            assert np.sign(ours[i] - ours[j]) == int(keys[i] > keys[j]) - int(keys[i] < keys[j])
    assert score_cards(cards("J* Jc Jd Jh")) > score_cards(cards("Ac Ad Ah 2s"))


def test_muscle_sits_above_its_ranking_and_below_the_next() -> None:
    """Muscle (specialist 10): the holder's score beats every hand of its ranking (the rulebook's
    pair of twos beats a pair of eights) and no hand of a higher ranking."""
    twos = score_cards(cards("2c 2d 9h Js Kc"))
    eights = score_cards(cards("8c 8d Ah Ks Qc"))
    two_pair = score_cards(cards("3c 3d 4h 4s 5c"))
    assert muscle_score(twos) > eights > twos
    assert muscle_score(twos) < two_pair
    assert category_floor(eights) < twos and category_floor(eights) > score_cards(cards("Ac Kd Qh Js 9c"))
    assert describe(muscle_score(twos)) == "pair"


@pytest.mark.parametrize("top", [40, 15_000, 1 << 20])
def test_sort_valid_is_a_stable_sort_of_the_valid_holdings(top: int) -> None:
    """The shared sort of the valid holdings (counting passes below 2**16, a comparison sort
    above) orders by score, equal scores by holding index."""
    from cardsim.sims.gang.holdings import sort_valid

    rng = np.random.default_rng(top)
    scores = rng.integers(0, top, size=1326).astype(np.int64)
    valid = rng.random(1326) < 0.9
    index, values = sort_valid(scores, valid, 1326)
    kept = np.flatnonzero(valid)
    expected = kept[np.argsort(scores[kept], kind="stable")]
    assert (index == expected).all() and (values == scores[expected]).all()


@pytest.mark.parametrize("seed", range(6))
def test_own_out_counts_equal_the_direct_count(seed: int) -> None:
    """The estimate's own-card counts from per-card sorted positions equal
    :func:`own_pair_counts` (which walks the 101 holdings of the two cards), also for a
    pocket with the suitless Jack and scores with many ties."""
    from cardsim.sims.gang.holdings import (
        PAIRS,
        card_positions,
        own_out_counts,
        own_pair_counts,
        sort_valid,
    )

    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 30, size=1326).astype(np.int64)
    valid = rng.random(1326) < 0.8
    index, values = sort_valid(scores, valid, 1326)
    positions = np.empty((52, 51), dtype=np.int64)
    counts = np.zeros(52, dtype=np.int64)
    card_positions(index, values.shape[0], PAIRS, positions, counts)
    for _ in range(200):
        first, second = (int(c) for c in rng.choice(52, size=2, replace=False))
        if rng.random() < 0.1:
            second = SUITLESS_JACK
        if rng.random() < 0.05:
            first, second = second, first
        target = int(rng.integers(-1, 32))
        lo = int(np.searchsorted(values, target, side="left"))
        hi = int(np.searchsorted(values, target, side="right"))
        assert own_out_counts(first, second, lo, hi, positions, counts, scores, valid, target) == own_pair_counts(
            first, second, scores, valid, target, PAIRS
        )


def test_branch_free_searches_equal_numpy_searchsorted() -> None:
    """``count_sorted`` is ``np.searchsorted`` left / right (``up_to``) on a row's first ``n``
    values, ties and empty rows included, for integers and floats."""
    from numba import njit

    from cardsim.sims.gang.holdings import count_sorted

    @njit
    def both(values, row, n, x):
        return count_sorted(values, row, n, x, False), count_sorted(values, row, n, x, True)

    rng = np.random.default_rng(3)
    for _ in range(3000):
        n = int(rng.integers(0, 40))
        rows = np.sort(rng.integers(0, 10, size=(2, n + 2)), axis=1)
        row = int(rng.integers(0, 2))
        for values, x in (
            (rows.astype(np.int64), int(rng.integers(-1, 12))),
            (rows / 2.0, float(rng.integers(-1, 24)) / 4.0),
        ):
            assert both(values, row, n, x) == (
                np.searchsorted(values[row, :n], x, "left"),
                np.searchsorted(values[row, :n], x, "right"),
            )


def test_order_by_is_argsort_with_ties_in_index_order() -> None:
    """``order_by`` gives ``np.argsort``'s order of a few keys (a stable insertion sort, as
    numpy's and numba's argsort below 16 items), equal keys in index order."""
    from cardsim.sims.gang.holdings import order_by

    rng = np.random.default_rng(4)
    for _ in range(2000):
        n = int(rng.integers(1, 9))
        keys = rng.integers(0, 4, size=n + 1).astype(np.float64)
        order = np.full(n + 1, -1, dtype=np.int64)
        order_by(keys, n, order)
        assert (order[:n] == np.argsort(keys[:n], kind="stable")).all() and order[n] == -1
