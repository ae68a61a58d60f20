"""Property tests (hypothesis): invariances and monotonicity of the evaluator."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardsim.sims.poker import SUITLESS_JACK, evaluate, score_hand

CARD = st.integers(min_value=0, max_value=51)


def hands(min_size: int, max_size: int, jack: bool = False) -> st.SearchStrategy[list[int]]:
    """Lists of distinct real cards, optionally with the suitless Jack added."""
    real = st.lists(CARD, min_size=min_size - int(jack), max_size=max_size - int(jack), unique=True)
    return real.map(lambda cards: cards + [SUITLESS_JACK]) if jack else real


def score_of(cards: list[int]) -> int:
    """Batch evaluator on one hand."""
    return int(evaluate(np.array(cards, dtype=np.int8)))


@settings(max_examples=150, deadline=None)
@given(hands(5, 8), st.randoms(use_true_random=False), st.booleans())
def test_order_of_cards_does_not_matter(cards: list[int], random, with_jack: bool) -> None:
    if with_jack and len(cards) < 8:
        cards = cards + [SUITLESS_JACK]
    shuffled = list(cards)
    random.shuffle(shuffled)
    assert score_of(shuffled) == score_of(cards)
    assert int(score_hand(np.array(shuffled, dtype=np.int8))) == score_of(cards)


@settings(max_examples=150, deadline=None)
@given(hands(5, 8), st.permutations([0, 1, 2, 3]), st.booleans())
def test_renaming_suits_does_not_matter(cards: list[int], suit_map: list[int], with_jack: bool) -> None:
    if with_jack and len(cards) < 8:
        cards = cards + [SUITLESS_JACK]
    renamed = [c if c == SUITLESS_JACK else (c // 4) * 4 + suit_map[c % 4] for c in cards]
    assert score_of(renamed) == score_of(cards)


@settings(max_examples=150, deadline=None)
@given(hands(6, 8), st.booleans())
def test_adding_a_card_never_lowers_the_best_hand(cards: list[int], with_jack: bool) -> None:
    if with_jack:
        cards = cards[:-1] + [SUITLESS_JACK]
    without_one = [score_of(cards[:i] + cards[i + 1 :]) for i in range(len(cards))]
    assert score_of(cards) >= max(without_one)
    # and the best five of k >= 6 cards always lie within some k - 1 of them:
    assert score_of(cards) == max(without_one)


@settings(max_examples=200, deadline=None)
@given(hands(6, 8))
def test_best_hand_is_the_best_of_its_five_card_subsets(cards: list[int]) -> None:
    from itertools import combinations

    best_five = max(score_of(list(five)) for five in combinations(cards, 5))
    assert score_of(cards) == best_five
