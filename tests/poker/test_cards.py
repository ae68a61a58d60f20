"""Card encoding, parsing, printing and dealing."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.poker import SUITLESS_JACK, deal, format_cards, parse_cards
from cardsim.sims.poker.cards import card_rank, card_suit, parse_card


def test_encoding_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2s") == 3
    assert parse_card("As") == 12 * 4 + 3
    assert parse_card("Td") == 8 * 4 + 1
    assert parse_card("10h") == 8 * 4 + 2
    assert parse_card("J*") == SUITLESS_JACK == 52


def test_parse_and_format_round_trip_every_card() -> None:
    text = format_cards(np.arange(53))
    assert np.array_equal(parse_cards(text), np.arange(53, dtype=np.int8))
    assert parse_cards("As Td 2c").dtype == np.int8
    assert format_cards(parse_cards("as,TD, 2c")) == "As Td 2c"


def test_suitless_jack_has_jack_rank_and_no_suit() -> None:
    assert card_rank(SUITLESS_JACK) == card_rank(parse_card("Jh")) == 9
    assert card_suit(SUITLESS_JACK) == -1


@pytest.mark.parametrize("bad", ["1s", "Ax", "A", "Asd", "", "Zz"])
def test_bad_card_text_is_a_user_error(bad: str) -> None:
    with pytest.raises(UserError):
        parse_card(bad)


def test_duplicate_card_is_a_user_error() -> None:
    with pytest.raises(UserError, match="duplicate"):
        parse_cards("As Kd As")


def test_deal_rows_are_distinct_cards_and_reproducible() -> None:
    hands = deal(np.random.default_rng(7), 5000, 9)
    assert hands.shape == (5000, 9) and hands.dtype == np.int8
    assert hands.min() >= 0 and hands.max() <= 51
    ordered = np.sort(hands, axis=1)
    assert not (ordered[:, 1:] == ordered[:, :-1]).any()
    assert np.array_equal(hands, deal(np.random.default_rng(7), 5000, 9))
    assert not np.array_equal(hands, deal(np.random.default_rng(8), 5000, 9))


def test_deal_is_uniform_over_cards_and_positions() -> None:
    """Each card appears in each position with probability 1/52 (chi-square, fixed seed)."""
    from scipy.stats import chisquare

    n = 52_000
    hands = deal(np.random.default_rng(11), n, 3)
    for position in range(3):
        counts = np.bincount(hands[:, position], minlength=52)
        assert chisquare(counts).pvalue > 1e-4


def test_deal_whole_deck_and_errors() -> None:
    full = deal(np.random.default_rng(0), 3, 52)
    assert (np.sort(full, axis=1) == np.arange(52)).all()
    with pytest.raises(UserError):
        deal(np.random.default_rng(0), 1, 53)
