"""The two specialist cards that change hand ranking: the suitless Jack and the Muscle."""

from __future__ import annotations

import numpy as np

from cardsim.sims.poker import (
    CATEGORY_NAMES,
    SUITLESS_JACK,
    category_of,
    deal,
    describe,
    evaluate,
    muscle_beats,
    muscle_beats_batch,
    muscle_showdown_keys,
    parse_cards,
    score_hand,
)
from cardsim.sims.poker.evaluator import PATTERN_KEYS
from cardsim.sims.poker.rules import best_pattern_of_cards


def score(text: str) -> int:
    """Score of the best five-card hand in a card string (``J*`` is the suitless Jack)."""
    return int(evaluate(parse_cards(text)))


def category(text: str) -> str:
    """Category name of the best five-card hand in a card string."""
    return CATEGORY_NAMES[int(category_of(score(text)))]


# --- Specialist 7: the suitless Jack -------------------------------------------------------


def test_suitless_jack_pairs_like_a_jack() -> None:
    assert score("J* Jh 2c 5d 8s") == score("Jc Jh 2c 5d 8s")
    assert describe(score("J* Jh 2c 5d 8s")) == "pair, jacks, eight, five, two kickers"


def test_suitless_jack_makes_sets_and_full_houses() -> None:
    assert score("J* Jh Jd 5d 8s") == score("Jc Jh Jd 5d 8s")
    assert score("J* Jh 5c 5d 5s") == score("Jc Jh 5c 5d 5s")
    assert category("J* Jh Jd 5c 5d") == "full house"


def test_suitless_jack_completes_straights() -> None:
    assert category("9c Tc J* Qd Kd") == "straight"
    assert score("9c Tc J* Qd Kd") == score("9c Tc Jh Qd Kd")
    assert score("Tc J* Qd Kd Ah") == score("Tc Js Qd Kd Ah")


def test_suitless_jack_never_completes_a_flush() -> None:
    """Four hearts plus the suitless Jack is no flush; nor a straight flush in hearts."""
    assert category("2h 5h 8h Kh J*") == "high card"
    assert category("9h Th Qh Kh J* 2c 3d") == "straight"
    assert category("9h Th Qh Kh J* 2h 3d") == "flush"  # five real hearts make the flush


def test_four_jacks_and_the_suitless_jack_are_quads_with_a_jack_kicker() -> None:
    five_jacks = score("Jc Jd Jh Js J*")
    assert category("Jc Jd Jh Js J*") == "four of a kind"
    assert describe(five_jacks) == "four of a kind, jacks, jack kicker"
    assert score("Jc Jd Jh Js Qc") > five_jacks > score("Jc Jd Jh Js Tc")
    assert score("Jc Jd Jh Js J* 2c 3d") == five_jacks


def test_five_jacks_take_a_better_kicker_when_the_board_has_one() -> None:
    """Best five cards: with an ace available the ace is the kicker (reading in seeds/poker.md)."""
    assert score("Jc Jd Jh Js J* Ac 3d") == score("Jc Jd Jh Js Ac")


def test_suitless_jack_fast_path_matches_rule_functions() -> None:
    """Random hands holding the suitless Jack: table lookup == direct rule evaluation."""
    rng = np.random.default_rng(3)
    for n_cards in (5, 6, 7, 8):
        real = deal(rng, 4000, n_cards - 1)
        rows = np.hstack([np.full((4000, 1), SUITLESS_JACK, dtype=np.int8), real])
        expected = np.searchsorted(PATTERN_KEYS, [best_pattern_of_cards(row.astype(np.int64)) for row in rows])
        assert np.array_equal(evaluate(rows), expected)
        assert all(score_hand(row) == e for row, e in zip(rows[:50], expected[:50], strict=True))


# --- Specialist 10: the Muscle ----------------------------------------------------------------


def test_muscle_rulebook_example_order() -> None:
    """Seed 000 worked example: Doris (1) < Trudy (2) < Arsène with Muscle (3) < Danny (4)."""
    arsene = score("2c 2d Jh 8s 7c")
    doris = score("2h 2s Ad 8d 7d")
    trudy = score("8c 8h Kh 7s 3c")
    danny = score("7h 7d 7s 8h 2s")
    assert muscle_beats(arsene, doris) and muscle_beats(arsene, trudy)
    assert not muscle_beats(arsene, danny)
    keys = muscle_showdown_keys(np.array([arsene, doris, trudy, danny]), np.array([True, False, False, False]))
    assert list(np.argsort(keys)) == [1, 2, 0, 3]


def test_muscle_wins_a_true_tie_and_against_lower_categories() -> None:
    pair = score("2c 2d Jh 8s 7c")
    same = score("2h 2s Jd 8d 7d")
    assert pair == same and muscle_beats(pair, same)
    assert muscle_beats(pair, score("Ac Kd 9h 7s 5d"))  # higher category anyway


def test_muscle_straight_flush_does_not_beat_royal_flush() -> None:
    """The ten rankings count royal flush separately, so Muscle does not lift a straight flush."""
    assert not muscle_beats(score("9h 8h 7h 6h 5h"), score("Ah Kh Qh Jh Th"))


def test_muscle_batch_and_keys_keep_other_hands_in_order() -> None:
    scores = evaluate(deal(np.random.default_rng(5), 2000, 7))
    holder = np.zeros(2000, dtype=bool)
    holder[::7] = True
    keys = muscle_showdown_keys(scores, holder)
    others = ~holder
    assert np.array_equal(np.argsort(keys[others], kind="stable"), np.argsort(scores[others], kind="stable"))
    wins = muscle_beats_batch(scores[holder][:, None], scores[others][None, :])
    key_wins = keys[holder][:, None] > keys[others][None, :]
    assert np.array_equal(wins, key_wins)
