"""Hand ranking (seed 000, "XẾP HẠNG BÀI"): the kernel scorer against an independent evaluator
and fixed hands for every category and edge case (digest: "Hand ranking")."""

from __future__ import annotations

import numpy as np
import pytest
from phevaluator import evaluate_cards

from cardsim.sims.gang.hands import CATEGORY_NAMES, describe, score_cards, score_rows

from .conftest import RANKS, SUITS, cards


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
    assert score_cards(np.concatenate([board, cards("2c 3d")])) == score_cards(
        np.concatenate([board, cards("4c 5d")])
    )


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
