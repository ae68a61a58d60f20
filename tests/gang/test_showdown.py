"""The showdown (seed 000, "Màn so bài", "HÒA ĐÚNG"): reveal in ascending red-chip order."""

from __future__ import annotations

import numpy as np

from cardsim.sims.gang.engine import random_order_success, showdown_in_order
from cardsim.sims.gang.holdings import hand_score, muscle_score

from .conftest import cards


def _scores(hands: list[str]) -> np.ndarray:
    return np.array([hand_score(cards(h), 5, cards(h), 0) for h in hands], dtype=np.int64)


# The rulebook's four-player example: the community is 2-2-A-7 plus one card each player uses.
TRUDY, DORIS, ARSENE, DANNY = 0, 1, 2, 3
EXAMPLE = _scores(["2c 2d Ah Js 7c", "2c 2d Ah Ts 7c", "2c 2d Ah Td 7c", "2c 2d Ah Ac As"])


def test_rulebook_example_true_tie_either_order() -> None:
    """Danny 4 stars, Trudy 3, Doris 2, Arsene 1 succeeds; swapping the tied Doris and Arsene
    also succeeds."""
    red = np.array([3, 2, 1, 4], dtype=np.int64)
    assert showdown_in_order(EXAMPLE, red, 4)
    swapped = np.array([3, 1, 2, 4], dtype=np.int64)
    assert showdown_in_order(EXAMPLE, swapped, 4)


def test_tied_players_must_still_sit_right_against_the_others() -> None:
    """Putting Trudy (J kicker) below either tied player fails."""
    red = np.array([2, 3, 1, 4], dtype=np.int64)
    assert not showdown_in_order(EXAMPLE, red, 4)
    red = np.array([1, 2, 3, 4], dtype=np.int64)
    assert not showdown_in_order(EXAMPLE, red, 4)


def test_random_order_exact_value_counts_tied_orders() -> None:
    """Exact success of a random order: (2! tied orders) / 4! for the rulebook example."""
    assert random_order_success(EXAMPLE, 4) == 2 / 24
    distinct = np.array([1, 2, 3], dtype=np.int64)
    assert random_order_success(distinct, 3) == 1 / 6


def test_muscle_rulebook_example() -> None:
    """Specialist 10 (Muscle): Arsene's weakest pair with the Muscle beats the other pairs but
    not Danny's three of a kind: Doris 1, Trudy 2, Arsene 3, Danny 4."""
    arsene, doris, trudy, danny = _scores(["2c 2d Jh 8s 7c", "2h 2s Ad 8c 7d", "8h 8d Ks 7h 3c", "7s 7c 7d 8d 2c"])
    finals = np.array([muscle_score(arsene), doris, trudy, danny], dtype=np.int64)
    assert showdown_in_order(finals, np.array([3, 1, 2, 4], dtype=np.int64), 4)
    assert not showdown_in_order(finals, np.array([1, 2, 3, 4], dtype=np.int64), 4)
    plain = np.array([arsene, doris, trudy, danny], dtype=np.int64)
    assert not showdown_in_order(plain, np.array([3, 1, 2, 4], dtype=np.int64), 4)
