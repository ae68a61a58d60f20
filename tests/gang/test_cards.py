"""One fixed-card scenario per challenge and specialist card (seed 000, "THẺ THỬ THÁCH",
"THẺ CHUYÊN GIA"); each fails if the card's rule is removed (digest: "Cards")."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.gang import cards as C
from cardsim.sims.gang.cards import key_card_slot
from cardsim.sims.gang.holdings import category_of_score, hand_score, is_muscle
from cardsim.sims.gang.holdings import describe_category as describe
from cardsim.sims.gang.models import BAYES, HISTORY, RANDOM

from .conftest import card, cards, fixed_deck, play_fixed

WEAK_PAIR_OF_PLAYERS = ["2c 3d", "4c 6d", "Ac Ad", "Kc Kd"]  # players 0 and 1 both claim chip 1
FACE_FLOP = "Qs 9h 8c Tc 7s"
BLANK_FLOP = "9s 8h 5c Tc 7s"


def bit(name: str) -> int:
    return 1 << C.CHALLENGES[name]


def chips_of(out: dict, round_index: int) -> np.ndarray:
    return out["chips"][:, round_index, :4]


def holder(chips_row: np.ndarray, star: int) -> int:
    return int(np.flatnonzero(chips_row == star)[0])


def _weak_contest(challenges: int) -> tuple[np.ndarray, np.ndarray]:
    """History model, 200 repeats: who holds white 1 and who holds yellow 1."""
    out = play_fixed(fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP), 4, HISTORY, challenges=challenges, repeats=200)
    white = np.array([holder(r, 1) for r in chips_of(out, 0)])
    yellow = np.array([holder(r, 1) for r in chips_of(out, 1)])
    return white, yellow


def test_history_contest_baseline() -> None:
    """Without cards the two weak players' flop contest goes to the white 1-star holder, and
    the white contest itself was random (both holders occur)."""
    white, yellow = _weak_contest(0)
    assert set(white) == {0, 1}
    assert (white == yellow).all()


def test_quick_access_has_no_white_round() -> None:
    """Challenge 1: no white chips; the other rounds hand out every chip."""
    out = play_fixed(fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP), 4, HISTORY, challenges=bit("quick-access"), repeats=5)
    assert (chips_of(out, 0) == 0).all()
    for r in (1, 2, 3):
        assert (np.sort(chips_of(out, r), axis=1) == [1, 2, 3, 4]).all()


def test_noise_sensors_lock_the_one_star_chip() -> None:
    """Challenge 2: the yellow 1-star chip stays with whoever took it first, so the history
    contest no longer decides it."""
    white, yellow = _weak_contest(bit("noise-sensors"))
    assert (white != yellow).any()
    assert C.locked_chips(bit("noise-sensors"), 1, 4) == (1, 0)
    assert C.locked_chips(bit("noise-sensors"), 3, 4) == (0, 0)


def test_ventilation_shaft_locks_the_top_chip() -> None:
    """Challenge 6: the same for the top chip (two tied pocket aces contest it)."""
    pockets = ["2c 3d", "4c 6d", "Ac Ad", "Ah As"]
    outs = {}
    for name, mask in (("plain", 0), ("vent", bit("ventilation-shaft"))):
        out = play_fixed(fixed_deck(pockets, FACE_FLOP), 4, HISTORY, challenges=mask, repeats=200)
        white = np.array([holder(r, 4) for r in chips_of(out, 0)])
        yellow = np.array([holder(r, 4) for r in chips_of(out, 1)])
        outs[name] = (white, yellow)
    assert (outs["plain"][0] == outs["plain"][1]).all()
    assert (outs["vent"][0] != outs["vent"][1]).any()
    assert C.locked_chips(bit("ventilation-shaft"), 2, 4) == (0, 4)


def test_blackout_hides_the_chip_history() -> None:
    """Challenge 8: with the white chips discarded, the history contest is random again."""
    white, yellow = _weak_contest(bit("blackout"))
    assert (white != yellow).any()


def test_motion_detector_redraws_the_white_one_star_holder() -> None:
    """Challenge 3: a Q on the flop sends the white 1-star holder's pocket away; they take the
    next two cards of the deck."""
    deck = fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP, "5h 5s")
    out = play_fixed(deck, 4, HISTORY, challenges=bit("motion-detector"), repeats=20)
    for i in range(20):
        loser = holder(out["chips"][i, 0, :4], 1)
        assert out["flags"][i, 2] == 1 << loser
        assert sorted(out["pockets"][i, loser, :2]) == sorted(cards("5h 5s"))
    blank = play_fixed(
        fixed_deck(WEAK_PAIR_OF_PLAYERS, BLANK_FLOP), 4, HISTORY, challenges=bit("motion-detector"), repeats=5
    )
    assert (blank["flags"][:, 2] == 0).all()


def test_laser_tripwires_redraws_the_top_white_holder() -> None:
    """Challenge 7: no J/Q/K on the flop: the top white holder redraws."""
    deck = fixed_deck(WEAK_PAIR_OF_PLAYERS, BLANK_FLOP, "5h 5s")
    out = play_fixed(deck, 4, HISTORY, challenges=bit("laser-tripwires"), repeats=20)
    for i in range(20):
        top = holder(out["chips"][i, 0, :4], 4)
        assert out["flags"][i, 2] == 1 << top
        assert sorted(out["pockets"][i, top, :2]) == sorted(cards("5h 5s"))
    face = play_fixed(
        fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP), 4, HISTORY, challenges=bit("laser-tripwires"), repeats=5
    )
    assert (face["flags"][:, 2] == 0).all()
    assert C.redraw_star(bit("laser-tripwires") | bit("motion-detector"), cards("Qs 2c 3d"), 4) == 1


def test_hasty_getaway_has_no_orange_round() -> None:
    """Challenge 5: no orange chips."""
    out = play_fixed(
        fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP), 4, HISTORY, challenges=bit("hasty-getaway"), repeats=5
    )
    assert (chips_of(out, 2) == 0).all()
    assert (np.sort(chips_of(out, 3), axis=1) == [1, 2, 3, 4]).all()


def test_retina_scan_needs_a_held_value() -> None:
    """Challenge 4: the scan passes exactly when the top red holder holds a card of the named
    value (both outcomes occur under the random model's random red orders)."""
    out = play_fixed(
        fixed_deck(["3c 4d", "5c 6d", "Ac Ad", "Kc Kd"], FACE_FLOP),
        4,
        RANDOM,
        challenges=bit("retina-scan"),
        repeats=40,
    )
    for i in range(40):
        top = holder(out["chips"][i, 3, :4], 4)
        held = {int(c) >> 2 for c in out["pockets"][i, top, :2]}
        assert out["flags"][i, 1] == (out["flags"][i, 5] in held)
    assert set(out["flags"][:, 1]) == {0, 1}
    assert C.retina_scan_passes(cards("Kd 2s"), 0) and not C.retina_scan_passes(cards("Kd 3s"), 0)


def test_fingerprint_scan_needs_the_right_ranking() -> None:
    """Challenge 9: the scan passes exactly when the named ranking is the top red holder's
    (both outcomes occur under the random model's random red orders)."""
    out = play_fixed(
        fixed_deck(["3c 3d", "5c 6d", "Ac Kd", "Qc Jd"], "2c 2d 2h 7s 9c"),
        4,
        RANDOM,
        challenges=bit("fingerprint-scan"),
        repeats=40,
    )
    for i in range(40):
        top = holder(out["chips"][i, 3, :4], 4)
        assert out["flags"][i, 1] == (C.fingerprint_ranking(out["finals"][i, top]) == out["flags"][i, 5])
    assert set(out["flags"][:, 1]) == {0, 1}


def test_security_cameras_three_pocket_cards_best_five_of_eight() -> None:
    """Challenge 10: three pocket cards; Ac Kc Qc with Jc Tc on the board is a royal flush."""
    deck = fixed_deck(["Ac Kc Qc", "2d 3d 4h", "5d 6d 7h", "8d 9d Th"], "Jc Tc 2s 3s 4s")
    out = play_fixed(deck, 4, HISTORY, challenges=bit("security-cameras"))
    assert (out["pockets"][0, :4, 2] >= 0).all()
    assert describe(out["finals"][0, 0]) == "royal flush"
    assert C.pocket_size(0) == 2


# ------------------------------------------------------------------ specialists


INFORMANT_DEAL = ["9d As", "6c 5d", "4h Ad", "2s 2c"]  # aces, nine kicker vs aces, seven
INFORMANT_BOARD = "Jd 5s Ac 3d 7h"


def test_informant_shows_the_separating_card_and_the_viewer_uses_it() -> None:
    """Specialist 1 (bayes): in the red chip dance seats 0 (aces, J-9-7) and 2 (aces, J-7-5)
    both claim the top chip and the public order puts 2 on top, wrongly; the base private
    settle does not fix it (the two do not agree), so without the card the heist fails. That
    pair is the likeliest inversion, so the lower, seat 0, shows seat 2 the nine (the kicker
    that separates the hands) and seat 2 leaves the top chip."""
    deck = fixed_deck(INFORMANT_DEAL, INFORMANT_BOARD)
    plain = play_fixed(deck, 4, BAYES, repeats=5)
    out = play_fixed(deck, 4, BAYES, specialist=C.SPECIALISTS["informant"], repeats=5)
    assert (plain["flags"][:, 0] == 0).all() and (plain["chips"][:, 3, 2] == 4).all()
    assert (out["flags"][:, 3] == 0).all() and (out["flags"][:, 6] == 2).all()
    assert (out["flags"][:, 4] == card("9d")).all()
    assert (out["chips"][:, 3, 0] == 4).all() and (out["chips"][:, 3, 2] == 3).all()
    assert (out["flags"][:, 0] == 1).all()
    # other models ignore the card: the pair in the middle of the order, key card
    other = play_fixed(deck, 4, HISTORY, specialist=C.SPECIALISTS["informant"], repeats=3)
    for i in range(3):
        assert other["flags"][i, 4] in other["pockets"][i, other["flags"][i, 3], :2]
        assert abs(other["chips"][i, 3, other["flags"][i, 3]] - other["chips"][i, 3, other["flags"][i, 6]]) == 1
    # the key card: the seven that makes trips, not the higher ace kicker
    assert key_card_slot(cards("Ah 7c"), 2, cards("7d 7s 2c 3h 9d"), 5) == 1
    assert key_card_slot(cards("Ah 7c"), 2, cards("Kd Qs 2c 3h 9d"), 5) == 0


def test_informant_viewer_uses_only_the_card_and_the_claims() -> None:
    """Units of the Informant: the group picks the adjacent pair with equal claims, and the
    viewer (who alone decides that pair) swaps only with an equal claim, only when the shown
    card says so, never across another player. Without a card the same private step is the
    bayes base rule: both claimants decide and must agree."""
    from cardsim.sims.gang.beliefs import (
        claimed_posteriors,
        informant_pair,
        settle_equal_claims,
        tie_bounds,
    )
    from cardsim.sims.gang.holdings import PAIR_MASKS, PAIRS

    count = len(PAIRS)
    values = np.arange(count, dtype=np.int64)  # score = holding number: (2c, x) are the lowest
    index = np.arange(count, dtype=np.int64)
    start, stop = tie_bounds(values)
    team_band = np.minimum(values * 3 // count, 2)
    claimed = claimed_posteriors(index, np.ones((3, count)), team_band, np.array([0, 0, 2]), 3)
    assert claimed[2, 0] == 0.0 and claimed[2, -1] == 1.0
    lower, upper, risk = informant_pair(np.array([0.7, 0.2, 2.5]), np.array([0, 0, 2]), 3, claimed, start, stop)
    assert (lower, upper) == (1, 0) and 0.0 < risk < 1.0

    def settle(keys, claims, shown, own):
        claimed = claimed_posteriors(index, np.ones((3, count)), np.zeros(count, np.int64), np.zeros(3, np.int64), 3)
        keys = np.array(keys)
        known = np.full((3, 3), -1, dtype=np.int64)
        if shown:
            known[0, 1] = card(shown)  # seat 1 showed seat 0 a card
        swaps = settle_equal_claims(
            keys,
            np.array(claims),
            3,
            claimed,
            index,
            values,
            PAIR_MASKS.copy(),
            np.array(own, dtype=np.int64),
            np.zeros(3, np.int64),
            known,
            np.ones((3, 1)),
            np.zeros(3, np.bool_),
            0,
            -1,
            np.zeros((3, 2), np.int64),
            -1,
        )
        return swaps, keys

    # seat 2 holds the best hand: it keeps the top in every case below
    # viewer 0 below shower 1, but the shower holds the 2c: every such hand is weaker
    swaps, keys = settle([0.2, 0.4, 0.9], [0, 0, 0], "2c", [600, 1000, 1325])
    assert swaps == 1 and keys[0] > keys[1]
    # an ace: the shower may be right (and the shower's own opinion does not count)
    assert settle([0.2, 0.4, 0.9], [0, 0, 0], "As", [600, 100, 1325])[0] == 0
    assert settle([0.2, 0.4, 0.9], [0, 1, 1], "2c", [600, 1000, 1325])[0] == 0  # different claims
    assert settle([0.2, 0.9, 0.4], [0, 0, 0], "2c", [600, 1000, 1325])[0] == 0  # seat 2 between
    # no card (base rule): both must agree; 1200 vs 300 swap, 1200 vs 1000 disagree
    swaps, keys = settle([0.2, 0.4, 0.9], [0, 0, 0], "", [1200, 300, 1325])
    assert swaps == 1 and keys[0] > keys[1]
    assert settle([0.2, 0.4, 0.9], [0, 0, 0], "", [1200, 1000, 1325])[0] == 0


def test_getaway_driver_announces_the_current_ranking() -> None:
    """Specialist 2: the middle chip holder announces their hand ranking at the river."""
    deck = fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP)
    out = play_fixed(deck, 4, BAYES, specialist=C.SPECIALISTS["getaway-driver"], repeats=5)
    for i in range(5):
        user = out["flags"][i, 3]
        assert out["flags"][i, 4] == category_of_score(out["finals"][i, user])


def _information_changes_bayes(specialist: int) -> bool:
    """Does the card's announcement change any bayes chip over 150 random deals?"""
    from cardsim.sims.gang.engine import play_batch

    n = 150
    runs = [
        play_batch(np.random.default_rng(3), 4, BAYES, 1, np.zeros(n, dtype=np.int64), np.full(n, spec, dtype=np.int64))
        for spec in (0, specialist)
    ]
    assert (runs[0]["board"] == runs[1]["board"]).all()
    return bool((runs[0]["chips"] != runs[1]["chips"]).any())


def test_investor_counts_faces_and_informs_bayes() -> None:
    """Specialist 3: everyone announces their J/Q/K count after the deal."""
    assert C.investor_face_count(cards("Kc Jd")) == 2
    assert C.investor_face_count(cards("Qc 3d")) == 1
    assert C.investor_face_count(cards("Ac Td")) == 0
    assert _information_changes_bayes(C.SPECIALISTS["investor"])


def test_math_whiz_sums_and_informs_bayes() -> None:
    """Specialist 8: 2..10 at face value, J/Q/K = 10, A = 11 (rulebook: 10+7 = 17, Q+3 = 13,
    A+10 = 21)."""
    assert C.math_whiz_total(cards("Tc 7d")) == 17
    assert C.math_whiz_total(cards("Qc 3d")) == 13
    assert C.math_whiz_total(cards("Ac Td")) == 21
    assert _information_changes_bayes(C.SPECIALISTS["math-whiz"])


def test_mastermind_counts_a_value_and_informs_bayes() -> None:
    """Specialist 4: how many cards of the asked value (rulebook: 9, 3 asked about nines: 1)."""
    assert C.mastermind_count(cards("9c 3d"), 7) == 1
    assert C.mastermind_count(cards("9c 9d"), 7) == 2
    assert _information_changes_bayes(C.SPECIALISTS["mastermind"])
    assert _information_changes_bayes(C.SPECIALISTS["getaway-driver"])


def test_hacker_draws_then_keeps_the_best_pocket() -> None:
    """Specialist 5: the chosen player (rule "bottom": the 1-star holder; default "top": the
    top holder) draws the next card and discards one; here the drawn five of hearts makes the
    weakest player a straight, so it is kept."""
    deck = fixed_deck(["2c 3d", "4c 6d", "Ac Ad", "Kc Kd"], "Qs 9h 8c 7d 4s", "5h")
    out = play_fixed(deck, 4, HISTORY, specialist=C.SPECIALISTS["hacker"], repeats=10, boost_top=False)
    for i in range(10):
        user = out["flags"][i, 3]
        assert user == holder(out["chips"][i, 2, :4], 1)
        before = hand_score(deck[2 * user : 2 * user + 2].copy(), 2, deck[8:13].copy(), 5)
        assert out["finals"][i, user] >= before
        assert set(out["pockets"][i, user, :2]) <= set(deck[2 * user : 2 * user + 2]) | {card("5h")}
    assert (out["pockets"][:, :, :2] == card("5h")).any()
    top = play_fixed(deck, 4, HISTORY, specialist=C.SPECIALISTS["hacker"], repeats=5)
    for i in range(5):
        assert top["flags"][i, 3] == holder(top["chips"][i, 2, :4], 4)


def test_coordinator_passes_one_card_left() -> None:
    """Specialist 6: everyone passes their lowest card to the player on their left."""
    pockets = np.array([cards("2c Ad"), cards("Kc 3d"), cards("9h 8s")])
    passed = np.array([0, 1, 1])
    C.coordinator_pass(pockets, 3, passed)
    assert sorted(pockets[1]) == sorted(cards("Kc 2c"))
    assert sorted(pockets[2]) == sorted(cards("9h 3d"))
    assert sorted(pockets[0]) == sorted(cards("8s Ad"))
    out = play_fixed(
        fixed_deck(["2c Ad", "Kc 3d", "9d 8s", "Qc Jd"], FACE_FLOP), 4, HISTORY, specialist=C.SPECIALISTS["coordinator"]
    )
    assert card("2c") in out["pockets"][0, 1, :2] and card("8s") in out["pockets"][0, 3, :2]
    # bayes: the passer's view of the receiver keeps the holdings with the passed card, in the
    # same joint private settle as the Informant's shown card; the passer decides that pair
    assert _settle(known={(0, 1): "2c"}, own=[1000, 1100]) == 1  # the deuce: receiver below
    assert _settle(known={}, own=[1000, 1100]) == 0  # no card: both decide and disagree
    assert _settle(known={(0, 1): "As"}, own=[600, 1100]) == 0  # the ace: receiver likely above


def _settle(known: dict, own: list[int], muscle: int = -1, prior_of: int = -1, prior_card: str = "") -> int:
    """Two equal claims (seat 0 below seat 1) on a synthetic ladder (score = holding number:
    holdings with the 2c are the lowest); returns the swaps of the private settle."""
    from cardsim.sims.gang.beliefs import claimed_posteriors, settle_equal_claims
    from cardsim.sims.gang.holdings import PAIR_MASKS, PAIRS

    count = len(PAIRS)
    values = np.arange(count, dtype=np.int64)
    index = np.arange(count, dtype=np.int64)
    claimed = claimed_posteriors(index, np.ones((2, count)), np.zeros(count, np.int64), np.zeros(2, np.int64), 2)
    shown = np.full((2, 2), -1, dtype=np.int64)
    for (viewer, rival), text in known.items():
        shown[viewer, rival] = card(text)
    prior = np.ones((2, count))
    with_prior = np.zeros(2, np.bool_)
    if prior_of >= 0:  # a Con Artist prior: the rival surely holds ``prior_card``
        with_prior[prior_of] = True
        prior[prior_of] = (PAIR_MASKS >> card(prior_card)) & 1
    return settle_equal_claims(
        np.array([0.2, 0.4]),
        np.zeros(2, np.int64),
        2,
        claimed,
        index,
        values,
        PAIR_MASKS.copy(),
        np.array(own, dtype=np.int64),
        np.zeros(2, np.int64),
        shown,
        prior,
        with_prior,
        0,
        muscle,
        np.zeros((2, 2), np.int64),
        -1,
    )


def test_private_settle_accounts_for_a_rivals_muscle() -> None:
    """Specialist 10 (bayes): both think seat 0 (score 1300 of 1326) is above seat 1 (300);
    but when seat 1 holds the Muscle, every hand of seat 0's ranking loses to it (all
    synthetic scores share one ranking), so seat 0 leaves the higher chip."""
    assert _settle(known={}, own=[1300, 300]) == 1
    assert _settle(known={}, own=[1300, 300], muscle=1) == 0


def test_con_artist_vote_uses_only_the_deciders_knowledge() -> None:
    """Specialist 9 (bayes): whether a player learnt something from the redeal is private, so
    it never silences the rival. Seat 0's prior says seat 1 holds the 2c (so is below); seat 1
    (1100) thinks it is above: the two disagree and the public order stands. When seat 1 also
    thinks it is below (own 200), they agree and swap."""
    assert _settle(known={}, own=[1000, 1100], prior_of=0, prior_card="2c") == 0
    assert _settle(known={}, own=[1000, 200], prior_of=0, prior_card="2c") == 1


def test_jack_joins_the_weakest_hand() -> None:
    """Specialist 7 (rule "bottom"): the 1-star holder adds the suitless Jack and drops a card;
    with two Jacks on the board it makes three of a kind, so it is kept."""
    deck = fixed_deck(["2c 3d", "5c 6d", "Ac Ad", "Kc Kd"], "Jh Js 9c 8d 4h")
    out = play_fixed(deck, 4, HISTORY, specialist=C.SPECIALISTS["jack"], repeats=10, boost_top=False)
    for i in range(10):
        user = out["flags"][i, 3]
        assert 52 in out["pockets"][i, user, :2]
        assert describe(out["finals"][i, user]) == "three of a kind"


def test_con_artist_redeals_the_same_cards() -> None:
    """Specialist 9: the dealt pockets are gathered, shuffled and redealt (same cards)."""
    pockets = np.array([cards("2c Ad"), cards("Kc 3d")])
    C.con_artist_redeal(pockets, 2, 2, np.array([3, 2, 1, 0]))
    assert list(pockets.ravel()) == list(cards("3d Kc Ad 2c"))
    deck = fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP)
    out = play_fixed(deck, 4, HISTORY, specialist=C.SPECIALISTS["con-artist"], repeats=10)
    dealt = sorted(deck[:8])
    moved = False
    for i in range(10):
        assert sorted(out["pockets"][i, :4, :2].ravel()) == dealt
        moved |= not (out["pockets"][i, :4, :2].ravel() == deck[:8]).all()
    assert moved


def test_con_artist_players_know_where_their_old_cards_went() -> None:
    """Specialist 9 (bayes): a player's old cards that did not come back are in teammates'
    pockets. Seat 1 had Ad Ah and gets Kc Kh (kings up on 2h 9d 4s Qd 4h); seat 3 had Kc Jc
    and gets Ah Ad (aces up). Both claim the same red band; each knows one of the rival's
    likely cards (1: an ace, 3: the Kc), so both put seat 3 above seat 1, which is right.
    Without that knowledge (no card, or the uniform prior) seat 1 ends above seat 3."""
    deck = fixed_deck(["Kh 3s", "Ad Ah", "Qc 4d", "Kc Jc"], "2h 9d 4s Qd 4h")
    out = play_fixed(deck, 4, BAYES, specialist=C.SPECIALISTS["con-artist"], seed=1607)
    redealt = [sorted(out["pockets"][0, p, :2]) for p in range(4)]
    assert redealt == [sorted(cards(t)) for t in ("Jc Qc", "Kc Kh", "3s 4d", "Ah Ad")], (
        "the redeal of this seed changed: pick a new scenario"
    )
    red = out["chips"][0, 3, :4]
    assert red[3] > red[1] and out["flags"][0, 0] == 1
    # the private prior: with 4 players a teammate holds one of two gone cards with 0.6
    from cardsim.sims.gang.beliefs import con_artist_prior
    from cardsim.sims.gang.holdings import PAIR_MASKS

    masks = PAIR_MASKS.copy()

    def mask(text: str) -> int:
        return sum(1 << int(c) for c in cards(text))

    # seat 0 had As Ah and got 2c 3d; seat 1 got its own Kc Qc back
    old = np.array([mask("As Ah"), mask("Kc Qc"), mask("5c 6c"), mask("7c 8c")], dtype=np.int64)
    now = np.array([mask("2c 3d"), mask("Kc Qc"), mask("As 6c"), mask("Ah 8c")], dtype=np.int64)
    prior = np.zeros((4, len(masks)))
    con_artist_prior(old, now, 4, 2, masks, len(masks), 0, prior)
    with_gone = (masks & mask("As Ah")) != 0
    assert prior[0, with_gone].sum() / prior[0].sum() == pytest.approx(0.6)
    both = prior[0, masks == mask("As Ah")][0]
    neither = prior[0, masks == mask("Kd Qd")][0]
    assert both / neither == pytest.approx(48 * 47 / (4 * 3))  # T - k = 4 unknown slots of 48
    assert (prior[0, (masks & mask("2c 3d")) != 0] == 0).all()  # own cards
    kept = prior[1, (masks & mask("Kc Qc")) == 0]
    assert (kept == kept[0]).all() and (prior[1, (masks & mask("Kc Qc")) != 0] == 0).all()


def test_muscle_goes_to_the_top_holder() -> None:
    """Specialist 10: the latest top-chip holder takes the Muscle; their final score carries
    the Muscle bit (showdown effect tested in test_showdown)."""
    out = play_fixed(
        fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP), 4, HISTORY, specialist=C.SPECIALISTS["muscle"], repeats=5
    )
    for i in range(5):
        user = out["flags"][i, 3]
        assert user == holder(out["chips"][i, 2, :4], 4)
        assert is_muscle(out["finals"][i, user])
        others = [p for p in range(4) if p != user]
        assert not any(is_muscle(out["finals"][i, p]) for p in others)


def test_jack_must_stay_unless_the_discard_reading() -> None:
    """Specialist 7, the Jack reading (digest S7): the top holder (Ac Ad) gains nothing from
    the Jack on this board. Read "must stay" (default), they keep the Jack and one ace; read
    "may discard", they drop the Jack and keep both aces."""
    deck = fixed_deck(["2c 3d", "4c 6d", "5h 7h", "Ac Ad"], "Ks Kh Qc Qd 4s")
    stay = play_fixed(deck, 4, HISTORY, specialist=C.SPECIALISTS["jack"], repeats=5)
    drop = play_fixed(deck, 4, HISTORY, specialist=C.SPECIALISTS["jack"], repeats=5, jack_stays=False)
    assert (stay["flags"][:, 3] == 3).all() and (drop["flags"][:, 3] == 3).all()
    assert all(52 in stay["pockets"][i, 3, :2] for i in range(5))
    assert all(sorted(drop["pockets"][i, 3, :2]) == sorted(cards("Ac Ad")) for i in range(5))


def test_jack_holdings_are_in_the_bayes_hypothesis_space() -> None:
    """Specialist 7 (bayes): after the Jack everyone knows the user holds (kept card, Jack) or,
    read "may discard", possibly the old holding: the user's public posterior moves to those
    holdings. On a board with two Jacks every holding takes the Jack (trips or better)."""
    from cardsim.sims.gang.beliefs import jack_pushforward
    from cardsim.sims.gang.holdings import N_PAIRS, PAIRS_WITH_JACK

    weights = np.ones(N_PAIRS + 52)
    out = np.zeros(N_PAIRS + 52)
    board = cards("Jh Js 9c 8d 4h")
    jack_pushforward(weights, PAIRS_WITH_JACK, N_PAIRS, board, 5, True, out)
    assert out[:N_PAIRS].sum() < 0.05 * out.sum()  # nearly every holding takes the Jack
    assert (out[N_PAIRS + board] == 0).all()  # no board card is a kept card
    aces = cards("Ac Ad Ah As")
    jack_pushforward(weights, PAIRS_WITH_JACK, N_PAIRS, cards("Qs 9h 8c 7d 4s"), 5, True, out)
    pair_of_aces = np.flatnonzero((PAIRS_WITH_JACK[:N_PAIRS, None, :] == aces[:, None]).any(1).all(1))
    assert (out[pair_of_aces] > 0).all()  # aces drop the Jack when they may
    jack_pushforward(weights, PAIRS_WITH_JACK, N_PAIRS, cards("Qs 9h 8c 7d 4s"), 5, False, out)
    assert out[:N_PAIRS].sum() == 0 and out.sum() > 0  # the Jack stays: only Jack holdings
    # the bayes model plays a whole Jack heist with it (the user's hand has the Jack)
    deck = fixed_deck(["2c 3d", "4c 6d", "Ac Ad", "Kc Kd"], "Jh Js 9c 8d 4h")
    run = play_fixed(deck, 4, BAYES, specialist=C.SPECIALISTS["jack"], repeats=3)
    assert all(52 in run["pockets"][i, run["flags"][i, 3], :2] for i in range(3))


def test_scans_use_the_revealed_hands() -> None:
    """Challenges 4 and 9: hands are revealed upwards from the 1-star chip, so the guessers
    know every other hand. Retina: the other three hold all the deuces left, so nobody names
    a deuce (a uniform guesser would: the deuce is the first of the tied values). Fingerprint:
    the hand before the top is a full house, so the top (if the order holds) has at least a
    full house: the guess is a full house, not the board's likelier two pair."""
    retina = play_fixed(
        fixed_deck(["2c 2d", "2h 3d", "2s 4d", "Kc Kd"], FACE_FLOP),
        4,
        RANDOM,
        challenges=bit("retina-scan"),
        repeats=30,
    )
    top = [holder(r, 4) for r in chips_of(retina, 3)]
    for i in range(30):
        if top[i] != 3:  # the Kc Kd holder's deuces are hidden when they are on top
            continue
        assert retina["flags"][i, 5] != 0
    assert (retina["flags"][:, 5] != 0).any()
    # 2-2-7-7-9: two pair is the likeliest ranking; seats 0 and 1 hold full houses
    deck = fixed_deck(["2h 5d", "7c 4d", "Kc Qd", "3c 4h"], "2c 2d 7h 7s 9c")
    out = play_fixed(deck, 4, HISTORY, challenges=bit("fingerprint-scan"), repeats=10)
    right = (np.sort(out["chips"][:, 3, :2], axis=1) == [3, 4]).all(axis=1)
    assert right.sum() >= 5
    assert (out["flags"][right, 5] == 6).all() and (out["flags"][right, 1] == 1).all()


def test_fingerprint_names_high_card_to_straight_flush() -> None:
    """Challenge 9 lists the rankings "from high card to straight flush": a royal flush is
    answered as a straight flush."""
    royal = hand_score(cards("Ac Kc"), 2, cards("Qc Jc Tc 2d 3h"), 5)
    assert describe(royal) == "royal flush"
    assert C.fingerprint_ranking(royal) == 8 and C.fingerprint_scan_passes(royal, 8)
    assert not C.fingerprint_scan_passes(royal, 9)


def test_helpful_use_declines_cards_the_model_cannot_read() -> None:
    """--specialist-use helpful: the history model reads no announcement and no shown card, so
    the group never plays the Getaway Driver, Mastermind or Informant; a declined card leaves the heist exactly as without
    it (the group's estimate has its own random numbers). Bayes plays them."""
    deck = fixed_deck(WEAK_PAIR_OF_PLAYERS, FACE_FLOP)
    plain = play_fixed(deck, 4, HISTORY, repeats=20)
    for name in ("getaway-driver", "mastermind", "informant"):
        out = play_fixed(deck, 4, HISTORY, specialist=C.SPECIALISTS[name], repeats=20, helpful=True)
        assert (out["flags"][:, 3] == -1).all()
        assert (out["chips"] == plain["chips"]).all()
        used = play_fixed(deck, 4, BAYES, specialist=C.SPECIALISTS[name], repeats=3, helpful=True)
        assert (used["flags"][:, 3] >= 0).all()


def test_helpful_use_plays_a_hand_card_only_when_expected_to_help() -> None:
    """--specialist-use helpful (Muscle, Hacker, Jack): the group's public estimate. A declined
    card gives exactly the no-card heist; the decision is the same whatever the hidden cards
    (the estimate reads only chips, board and public posteriors)."""
    from cardsim.sims.gang.engine import play_batch

    rng = np.random.default_rng(5)
    n = 300
    decks = rng.permuted(np.tile(np.arange(52), (n, 1)), axis=1)
    for model in (HISTORY, BAYES):
        base = play_batch(
            np.random.default_rng(1), 4, model, 1, np.zeros(n, np.int64), np.zeros(n, np.int64), decks=decks
        )
        for name in ("muscle", "hacker", "jack"):
            out = play_batch(
                np.random.default_rng(1),
                4,
                model,
                1,
                np.zeros(n, np.int64),
                np.full(n, C.SPECIALISTS[name], np.int64),
                decks=decks,
            )
            declined = out["flags"][:, 3] == -1
            assert 0 < declined.sum() < n, (model, name, declined.sum())
            assert (out["chips"][declined] == base["chips"][declined]).all()
            assert (out["flags"][declined, 0] == base["flags"][declined, 0]).all()
