"""No player model reads a hidden card (BRIEF: "a strategy reads only public info"): for every
model and every card, change the cards a player cannot see while the public record (every
round's claims and chips, announcements, the shown card) stays fixed, and that player's
decisions (the band they claim from their own hand, their vote in the private settle, their
own card choices) and the group's decisions (who uses a specialist and whether, the Informant
pair, the scan guess) do not change. The same test catches a deliberately leaky model.

Replay is the kernel's own (``play_heist`` with ``replay_chips``): the first run records the
public record, the second forces it while other players' pockets are swapped after the
after-deal cards.

The group's decision to play a specialist (``--specialist-use helpful``,
:mod:`cardsim.sims.gang.estimate`) is checked at 3-6 players, at the flop and the river, with
the Hacker and Jack going to the top or the bottom chip, and a deliberately leaky estimate
(``LEAKY_HELPFUL``: it reads every pocket) is caught. Every check also reorders the cards not yet
shown (the board to come, later draws) with the public record fixed, which catches an estimate
that reads the undealt board (``LEAKY_BOARD_HELPFUL``). The swap itself is
:mod:`cardsim.sims.gang.checks`, the game contract's check.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardsim.sims.gang.cards import SPECIALISTS
from cardsim.sims.gang.checks import CARDS, MODELS, leaks, play_recorded, public_bands
from cardsim.sims.gang.estimate import LEAKY_BOARD_HELPFUL, LEAKY_HELPFUL, LEAKY_TILT_HELPFUL
from cardsim.sims.gang.models import BAYES, HISTORY, LEAKY


@pytest.mark.parametrize("model", list(MODELS))
def test_no_decision_reads_a_hidden_card(model: str) -> None:
    for name, challenges, specialist in CARDS:
        assert leaks(MODELS[model], name, challenges, specialist) == [], (model, name)


def test_replay_without_a_swap_reproduces_the_heist() -> None:
    """The forced public record is the heist's own: replaying it changes nothing."""
    deck = np.random.default_rng(3).permutation(52).astype(np.int64)
    for _, challenges, specialist in CARDS:
        flags, chips, record, info, pockets = play_recorded(deck, 9, challenges, specialist, BAYES)
        again = play_recorded(deck, 9, challenges, specialist, BAYES, (chips, public_bands(record), info))
        assert again[0] == flags and (again[1] == chips).all() and (again[2] == record).all()


def test_the_swap_test_catches_a_leaky_model() -> None:
    """A model that claims its true rank in the team (it reads the others' hands) is caught."""
    assert leaks(LEAKY, "leaky", 0, 0)


GROUP_DECIDED = [
    (name, SPECIALISTS[name]) for name in ("informant", "getaway-driver", "mastermind", "hacker", "jack", "muscle")
]
BOOSTED = ("hacker", "jack")  # the cards whose holder --boost chooses (top or bottom chip)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("use_round", [1, 3], ids=["flop", "river"])
@pytest.mark.parametrize("boost_top", [True, False], ids=["top", "bottom"])
def test_helpful_group_decision_reads_no_hidden_card(players: int, use_round: int, boost_top: bool) -> None:
    """--specialist-use helpful: whether and by whom a group-decided specialist is played does
    not change when the pockets a player cannot see change (every reading of the use round and
    the boost, 3-6 players, history and bayes). The boost is read only for Hacker and Jack
    (the Muscle goes to the top chip either way), so the bottom runs check those two: for the
    other cards they would replay the top runs' heists."""
    for model in (HISTORY, BAYES):
        for name, number in GROUP_DECIDED:
            if not boost_top and name not in BOOSTED:
                continue
            found = leaks(model, name, 0, number, players, use_round, boost_top, heists=4)
            assert found == [], (model, name)


def test_the_swap_test_catches_a_leaky_group_decision() -> None:
    """A group estimate that reads every pocket (``LEAKY_HELPFUL``) changes its decision when
    hidden cards change; the honest estimate, on the same deals, plays the card in some heists
    and declines it in others, and is not caught. (History: given the true pockets the bayes
    play-out almost never sees a clear gain, so a leaky bayes estimate has no decision to
    change; the honest bayes estimate, chip likelihood replayed on every drawn team, is
    checked by :func:`test_helpful_group_decision_reads_no_hidden_card` and the undealt-board
    test below.)"""
    caught = []
    uses: list = []
    for name in ("hacker", "jack", "muscle"):
        for use_round in (1, 3):
            setup = {"use_round": use_round, "heists": 12}
            caught += leaks(HISTORY, name, 0, SPECIALISTS[name], use_rule=LEAKY_HELPFUL, **setup)
            assert leaks(HISTORY, name, 0, SPECIALISTS[name], uses=uses, **setup) == []
    assert any("who uses the specialist" in line for line in caught), caught
    assert 0 < sum(uses) < len(uses)


def test_the_swap_test_catches_an_estimate_that_reads_the_undealt_board() -> None:
    """An estimate that plays the card out on the true turn and river (``LEAKY_BOARD_HELPFUL``)
    changes its flop decision when the cards still to come are reordered, public record fixed."""
    caught = []
    for name in ("jack", "muscle"):
        caught += leaks(
            BAYES, name, 0, SPECIALISTS[name], use_round=1, heists=12, use_rule=LEAKY_BOARD_HELPFUL, pockets=False
        )
    assert any("(undealt cards)" in line for line in caught), caught


BAYES_DEALS = json.loads((Path(__file__).parent / "bayes_swap_deals.json").read_text())


def test_the_swap_test_covers_a_bayes_play_of_the_estimate() -> None:
    """The swap test at default settings exercises a bayes play of the helpful estimate: on the
    committed deals (``bayes_swap_deals.json``: 4 players, the Jack at the river) the honest
    estimate plays the card in every heist and no decision reads a hidden card, while an
    estimate whose team draws lean towards the true pockets (``LEAKY_TILT_HELPFUL``: a
    holding sharing a card with the player's pocket weighs 8 times more, a leak into the bayes
    team distribution that is no oracle) changes who uses the card when hidden cards change."""
    fixture = BAYES_DEALS
    deals = [(np.array(d["deck"], dtype=np.int64), d["seed"]) for d in fixture["deals"]]
    setup = {
        "players": fixture["players"],
        "use_round": fixture["use_round"],
        "boost_top": fixture["boost_top"],
        "deals": deals,
    }
    card = SPECIALISTS[fixture["card"]]
    uses: list = []
    assert leaks(BAYES, fixture["card"], 0, card, uses=uses, **setup) == []
    assert all(uses) and len(uses) == len(deals)
    caught = leaks(BAYES, fixture["card"], 0, card, use_rule=LEAKY_TILT_HELPFUL, **setup)
    assert any("who uses the specialist" in line for line in caught), caught


class _Recorder:
    """A user strategy that keeps every view it gets and chooses from public information only
    (so the chips stay the same when hidden cards change)."""

    def __init__(self) -> None:
        self.views: list = []

    def take_chip(self, view, legal):
        self.views.append(view)
        public = view.seat + view.round + sum(sum(row) for row in view.chips)
        return legal[public % len(legal)]


def _seat_views(seat: int, decks: np.ndarray, seeds: np.ndarray, players: int, last_round: int) -> list:
    from cardsim.sims.gang.strategy import play_heists

    recorder = _Recorder()
    play_heists(recorder, "recorder", players, decks, seeds)
    return [v for v in recorder.views if v.seat == seat and v.round <= last_round]


@pytest.mark.parametrize("players", [3, 6])
def test_user_strategy_views_do_not_change_when_hidden_cards_are_redealt(players: int) -> None:
    """The Python engine of user strategies (cardsim.sims.gang.strategy): redealing the cards a
    seat cannot see (teammates' pockets, the community cards still to come, the rest of the
    deck) leaves every view that seat receives unchanged, round by round."""
    from cardsim.sims.gang.holdings import BOARD_SIZES
    from cardsim.sims.gang.strategy import draw_deals

    decks, seeds = draw_deals(np.random.default_rng(11), 30)
    rng = np.random.default_rng(12)
    for seat in range(players):
        for r in range(4):
            kept = {2 * seat, 2 * seat + 1} | set(range(2 * players, 2 * players + BOARD_SIZES[r]))
            hidden = [k for k in range(52) if k not in kept]
            swapped = decks.copy()
            for i in range(len(decks)):
                swapped[i, hidden] = rng.permutation(decks[i, hidden])
            assert (swapped != decks).any()
            assert _seat_views(seat, decks, seeds, players, r) == _seat_views(seat, swapped, seeds, players, r)
