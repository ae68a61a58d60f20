"""Scenario tests with fixed cards for every hand-ranking rule (seeds/poker.md names them)."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.poker import (
    CATEGORY_NAMES,
    category_of,
    describe,
    evaluate,
    parse_cards,
)


def score(text: str) -> int:
    """Score of the best five-card hand in a card string."""
    return int(evaluate(parse_cards(text)))


def category(text: str) -> str:
    """Category name of the best five-card hand in a card string."""
    return CATEGORY_NAMES[int(category_of(score(text)))]


EXAMPLES_BY_CATEGORY = [
    ("high card", "As Kd 9c 7h 4s"),
    ("pair", "Ks Kd 9c 7h 4s"),
    ("two pair", "Ks Kd 4c 4h As"),
    ("three of a kind", "7s 7d 7c Ah 4s"),
    ("straight", "9s 8d 7c 6h 5s"),
    ("flush", "As Js 9s 7s 4s"),
    ("full house", "7s 7d 7c 4h 4s"),
    ("four of a kind", "2s 2d 2c 2h 3s"),
    ("straight flush", "9h 8h 7h 6h 5h"),
    ("royal flush", "Ah Kh Qh Jh Th"),
]


@pytest.mark.parametrize(("name", "text"), EXAMPLES_BY_CATEGORY)
def test_each_category_is_recognised(name: str, text: str) -> None:
    assert category(text) == name


def test_category_order_is_standard_holdem() -> None:
    """Each category beats the one before it, whatever the ranks (weakest top vs strongest low)."""
    strongest_of = [
        "Ad Kc Qh Js 9s",  # best high card
        "As Ad Kc Qh Js",  # best pair
        "As Ad Kc Kh Qs",  # best two pair
        "As Ad Ac Kh Qs",  # best three of a kind
        "As Kd Qc Jh Ts",  # best straight
        "As Ks Qs Js 9s",  # best flush
        "As Ad Ac Kh Ks",  # best full house
        "As Ad Ac Ah Ks",  # best four of a kind
        "Ks Qs Js Ts 9s",  # best straight flush
    ]
    weakest_of = [
        "2s 3d 4c 5h 7s",  # pair-less hand (not a straight)
        "2s 2d 3c 4h 5s",
        "3s 3d 2c 2h 4s",
        "2s 2d 2c 3h 4s",
        "5s 4d 3c 2h Ad",  # the wheel
        "2s 3s 4s 5s 7s",
        "2s 2d 2c 3h 3s",
        "2s 2d 2c 2h 3s",
        "5s 4s 3s 2s As",  # the steel wheel
        "Ah Kh Qh Jh Th",  # royal flush: the only one
    ]
    for lower, higher in zip(strongest_of, weakest_of[1:], strict=True):
        assert score(higher) > score(lower), (lower, higher)
    assert [category(t) for t in weakest_of] == list(CATEGORY_NAMES)


def test_flush_loses_to_full_house_and_four_of_a_kind() -> None:
    """The Vietnamese list prints flush after four of a kind; the standard order is kept."""
    flush = score("As Ks Qs Js 9s")
    assert score("2s 2d 2c 3h 3s") > flush
    assert score("2s 2d 2c 2h 3s") > flush


def test_suits_do_not_rank() -> None:
    assert score("As Kd 9c 7h 4s") == score("Ah Kc 9d 7s 4h")
    assert score("Ks Kd 4c 4h As 9c 2d") == score("Kh Kc 4s 4d Ad 9h 2c")


def test_card_values_ace_high_down_to_two() -> None:
    values = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    pair_scores = [score(f"{v}s {v}d " + ("Kc Qh Js" if v not in "KQJ" else "9c 8h 6s")) for v in values]
    assert pair_scores == sorted(pair_scores) and len(set(pair_scores)) == 13


def test_high_card_compares_all_five_cards_in_order() -> None:
    assert score("Ad Kc 9h 7s 5d") > score("Ad Kc 9h 7s 4d")  # fifth card decides
    assert score("Ad Kc 9h 8s 2d") > score("Ad Kc 9h 7s 6d")  # fourth beats fifth
    assert score("Ad Qc Jh 9s 8d") < score("Ad Kc 4h 3s 2d")  # second card decides


def test_pair_compares_pair_then_three_kickers() -> None:
    assert score("9s 9d 2c 3h 4s") > score("8s 8d Ac Kh Qs")
    assert score("9s 9d Ac 3h 2s") > score("9h 9c Kc Qh Js")
    assert score("9s 9d Ac Kh 3s") > score("9h 9c Ad Kd 2s")


def test_two_pair_compares_high_pair_low_pair_then_kicker() -> None:
    assert score("Ks Kd 2c 2h 3s") > score("Qs Qd Jc Jh As")
    assert score("Ks Kd 5c 5h 2s") > score("Kh Kc 4c 4h As")
    assert score("Ks Kd 4c 4h As") > score("Kh Kc 4d 4s Qs")
    assert describe(score("Ks Kd 4c 4h As")) == "two pair, kings and fours, ace kicker"


def test_third_pair_can_be_the_two_pair_kicker() -> None:
    """Seven cards with three pairs: the best two pairs play, the third pair's rank is a kicker."""
    assert score("Ks Kd Qc Qh 5s 5d 2c") == score("Kh Kc Qd Qs 5h 3d 2h")
    assert describe(score("Ks Kd Qc Qh 5s 5d 2c")) == "two pair, kings and queens, five kicker"


def test_three_of_a_kind_compares_set_then_two_kickers() -> None:
    assert score("8s 8d 8c 2h 3s") > score("7s 7d 7c Ah Ks")
    assert score("8s 8d 8c Ah 3s") > score("8s 8d 8c Kh Qs")
    assert score("8s 8d 8c Ah 4s") > score("8s 8d 8c Ah 3s")


def test_straight_compares_top_card() -> None:
    assert score("Ts 9d 8c 7h 6s") > score("9s 8d 7c 6h 5s")
    assert score("Ts 9d 8c 7h 6s") == score("Td 9s 8h 7c 6d")


def test_ace_low_straight_is_the_lowest_straight() -> None:
    """A-2-3-4-5 is a straight topped by the five; 2-3-4-5-6 beats it."""
    wheel = score("As 2d 3c 4h 5s")
    assert category("As 2d 3c 4h 5s") == "straight"
    assert describe(wheel) == "straight, five high"
    assert score("6s 2d 3c 4h 5s") > wheel
    assert wheel > score("As Ad Ac Kh Qs")  # still beats any three of a kind


@pytest.mark.parametrize("text", ["Ks As 2d 3c 4h", "Qs Ks As 2d 3c", "Js Qd Kc Ah 2s"])
def test_no_wraparound_straight(text: str) -> None:
    """The ace cannot sit in the middle: K-A-2-3-4 (and similar) is only ace high."""
    assert category(text) == "high card"


def test_flush_compares_card_by_card() -> None:
    assert score("As 9s 7s 5s 3s") > score("Kh Qh Jh 9h 8h")
    assert score("As Ks 7s 5s 3s") > score("Ah Kh 7h 5h 2h")
    assert describe(score("As Ks 7s 5s 3s")) == "flush, ace, king, seven, five, three"


def test_full_house_compares_set_then_pair() -> None:
    assert score("3s 3d 3c 2h 2s") > score("2s 2d 2c Ah As")
    assert score("3s 3d 3c Kh Ks") > score("3h 3d 3c Qh Qs")
    assert describe(score("7s 7d 7c 4h 4s")) == "full house, sevens full of fours"


def test_two_sets_make_a_full_house_with_the_higher_set() -> None:
    assert score("7s 7d 7c 4h 4s 4d Kc") == score("7s 7d 7c 4h 4s 2d 3c")


def test_four_of_a_kind_compares_quads_then_kicker() -> None:
    assert score("3s 3d 3c 3h 2s") > score("2s 2d 2c 2h As")
    assert score("3s 3d 3c 3h As") > score("3s 3d 3c 3h Ks")
    assert score("3s 3d 3c 3h Ks Kd Kc") == score("3s 3d 3c 3h Kh 2d 4c")


def test_straight_flush_compares_top_card_and_steel_wheel_is_lowest() -> None:
    assert score("6s 5s 4s 3s 2s") > score("5h 4h 3h 2h Ah")
    assert category("5h 4h 3h 2h Ah") == "straight flush"
    assert describe(score("5h 4h 3h 2h Ah")) == "straight flush, five high"


def test_royal_flush_is_its_own_top_category() -> None:
    royal = score("Ah Kh Qh Jh Th")
    assert category("Ah Kh Qh Jh Th") == "royal flush"
    assert royal > score("Kh Qh Jh Th 9h")
    assert royal == score("As Ks Qs Js Ts")  # suits do not rank: every royal flush ties
    assert describe(royal) == "royal flush"


def test_only_the_best_five_cards_count() -> None:
    """Seed 000: best hand of exactly five cards; sixth and seventh cards never break ties."""
    board = "As Ks Qd Jc 9h"
    assert score(f"{board} 2c 3d") == score(f"{board} 2d 4c") == score(board)
    assert score(f"{board} 2c 3d") < score(f"{board} Tc 2d")


def test_rulebook_showdown_example_and_true_tie() -> None:
    """Seed 000 worked showdown: Danny > Trudy > Arsène == Doris (a true tie)."""
    board = "2c 2d Ad 7s 5h"
    trudy = score(f"{board} Jh 4c")  # 2-2-A-J-7
    doris = score(f"{board} Th 3c")  # 2-2-A-10-7
    arsene = score(f"{board} Ts 3d")  # 2-2-A-10-7
    danny = score(f"{board} Ah As")  # A-A-A-2-2
    assert danny > trudy > doris == arsene
    assert category(f"{board} Ah As") == "full house"


def test_eight_cards_full_house_beats_the_flush_it_contains() -> None:
    """Security Cameras (8 cards): three pocket cards can add a full house beside a flush."""
    hand = "As Ks 7s 4s 2s Ac Ad Kc"
    assert category(hand) == "full house"
    assert describe(score(hand)) == "full house, aces full of kings"
    assert category("As Ks 7s 4s 2s Ac Ad Ah") == "four of a kind"
    assert category("As Ks 7s 4s 2s 3s 5s Ah") == "straight flush"


def test_evaluate_batches_rows_and_rejects_bad_hands() -> None:
    from cardsim.errors import UserError

    rows = np.stack([parse_cards("As Kd 9c 7h 4s 2c 3c"), parse_cards("Ah Kh Qh Jh Th 2c 3c")])
    scores = evaluate(rows)
    assert scores.shape == (2,) and scores.dtype == np.int32
    assert list(category_of(scores)) == [0, 9]
    with pytest.raises(UserError):
        evaluate(parse_cards("As Kd 9c 7h"))
    with pytest.raises(UserError):
        evaluate(np.array([1, 2, 3, 4, 4]))
    with pytest.raises(UserError):
        evaluate(np.array([1, 2, 3, 4, 60]))


def test_every_score_has_its_own_description() -> None:
    """Descriptions name everything that breaks ties, so 7,463 scores give 7,463 texts."""
    from cardsim.sims.poker import N_SCORES

    texts = [describe(s) for s in range(N_SCORES)]
    assert len(set(texts)) == N_SCORES
    assert texts[0] == "high card, seven, five, four, three, two kickers"
    with pytest.raises(ValueError):
        describe(N_SCORES)
