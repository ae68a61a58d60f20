"""One test per rule of seeds/the_game.md (source: 001_60c4279a89d01a35.txt)."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.thegame import kernel, rules


@pytest.mark.parametrize("players, size", [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_hand_size_by_player_count(players: int, size: int) -> None:
    assert rules.rules_hand_size(players) == size


def test_deck_holds_2_to_99_once_each() -> None:
    deck = kernel.deal_deck(12345)
    assert sorted(deck.tolist()) == list(range(2, 100))
    assert kernel.deal_deck(12345).tolist() == deck.tolist()
    assert kernel.deal_deck(12346).tolist() != deck.tolist()


def test_piles_start_on_1_ascending_and_100_descending() -> None:
    assert [rules.start_top(p) for p in range(4)] == [1, 1, 100, 100]
    assert [bool(rules.is_ascending(p)) for p in range(4)] == [True, True, False, False]


@pytest.mark.parametrize("pile", [0, 1])
def test_ascending_pile_takes_strictly_higher(pile: int) -> None:
    assert rules.can_play(17, pile, 16, True)
    assert rules.can_play(99, pile, 1, False)
    assert not rules.can_play(16, pile, 16, True)
    assert not rules.can_play(15, pile, 16, True)


@pytest.mark.parametrize("pile", [2, 3])
def test_descending_pile_takes_strictly_lower(pile: int) -> None:
    assert rules.can_play(86, pile, 87, True)
    assert rules.can_play(2, pile, 100, False)
    assert not rules.can_play(87, pile, 87, True)
    assert not rules.can_play(88, pile, 87, True)


def test_backwards_trick_ascending_exactly_10_lower() -> None:
    # Seed example: top 16 -> the 6 may be played.
    assert rules.can_play(6, 0, 16, True)
    assert rules.is_backwards_trick(6, 0, 16)
    assert not rules.can_play(5, 0, 16, True)
    assert not rules.can_play(7, 0, 16, True)
    assert not rules.can_play(6, 0, 16, False)  # variant knob off


def test_backwards_trick_descending_exactly_10_higher() -> None:
    # Seed example: top 87 -> the 97 may be played.
    assert rules.can_play(97, 2, 87, True)
    assert rules.is_backwards_trick(97, 3, 87)
    assert not rules.can_play(96, 2, 87, True)
    assert not rules.can_play(98, 2, 87, True)
    assert not rules.can_play(97, 2, 87, False)


def test_trick_is_direction_specific() -> None:
    assert not rules.is_backwards_trick(26, 0, 16)  # +10 on an ascending pile is a normal play
    assert not rules.is_backwards_trick(77, 2, 87)  # -10 on a descending pile is a normal play


def test_minimum_two_while_draw_pile_has_cards_then_one() -> None:
    assert rules.required_plays(1, 2) == 2
    assert rules.required_plays(60, 2) == 2
    assert rules.required_plays(0, 2) == 1
    assert rules.required_plays(5, 3) == 3  # the tuner's min_cards knob
    assert rules.required_plays(0, 3) == 1


def test_refill_back_to_hand_size_or_what_is_left() -> None:
    assert rules.refill_count(5, 7, 50) == 2
    assert rules.refill_count(5, 7, 1) == 1
    assert rules.refill_count(5, 7, 0) == 0
    assert rules.refill_count(7, 7, 10) == 0


def test_win_only_with_all_98_played() -> None:
    assert rules.is_win(0)
    assert not rules.is_win(1)


@pytest.mark.parametrize("left, excellent", [(0, True), (1, True), (10, True), (11, False)])
def test_excellent_grade_is_10_or_fewer_left(left: int, excellent: bool) -> None:
    assert rules.is_excellent(left) == excellent


def test_deal_is_uniform_over_first_position() -> None:
    """Chi-square check of the shuffle: the top card is uniform over 2..99."""
    from scipy import stats

    n = 20_000
    counts = np.zeros(98)
    for seed in range(n):
        counts[kernel.deal_deck(seed * 2654435761 + 11)[0] - 2] += 1
    statistic, p_value = stats.chisquare(counts)
    assert p_value > 1e-4, statistic
