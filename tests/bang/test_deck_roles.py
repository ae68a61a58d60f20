"""The 80-card deck, the 16 characters and the roles per player count."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from cardsim.sims.bang.simulator import BangConfig


def test_deck_has_80_cards_with_published_counts() -> None:
    counts = Counter(int(k) for k in C.CARD_KIND)
    assert C.N_CARDS == 80
    assert dict(counts) == C.KIND_COUNTS
    assert sum(C.KIND_COUNTS.values()) == 80
    brown = sum(n for k, n in C.KIND_COUNTS.items() if k < C.FIRST_BLUE)
    assert (brown, 80 - brown) == (63, 17)


def test_deck_suits_and_ranks_match_published_cards() -> None:
    def codes(kind: int) -> list[tuple[int, int]]:
        return sorted((int(C.CARD_RANK[c]), int(C.CARD_SUIT[c])) for c in range(C.N_CARDS) if C.CARD_KIND[c] == kind)

    assert codes(C.DYNAMITE) == [(2, C.HEARTS)]
    assert codes(C.BARREL) == [(12, C.SPADES), (13, C.SPADES)]
    assert codes(C.VOLCANIC) == [(10, C.SPADES), (10, C.CLUBS)]
    assert codes(C.BEER) == [(r, C.HEARTS) for r in range(6, 12)]
    diamonds_bang = [c for c in codes(C.BANG) if c[1] == C.DIAMONDS]
    assert len(diamonds_bang) == 13
    # the well-known draw! odds follow from the suits: 20 hearts, 10 spades 2-9
    hearts = int((C.CARD_SUIT == C.HEARTS).sum())
    boom = int(((C.CARD_SUIT == C.SPADES) & (C.CARD_RANK >= 2) & (C.CARD_RANK <= 9)).sum())
    assert (hearts, boom) == (20, 10)


# The published base deck (dV Giochi), card by card: name -> rank+suit of every copy, written
# out in full (no ranges) and parsed below without cards.py's own parser.
PUBLISHED_DECK: dict[str, str] = {
    "BANG!": "AS QH KH AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2C 3C 4C 5C 6C 7C 8C 9C",
    "Missed!": "10C JC QC KC AC 2S 3S 4S 5S 6S 7S 8S",
    "Beer": "6H 7H 8H 9H 10H JH",
    "Panic!": "JH QH AH 8D",
    "Cat Balou": "KH 9D 10D JD",
    "Duel": "QD JS 8C",
    "General Store": "9C QS",
    "Gatling": "10H",
    "Indians!": "KD AD",
    "Saloon": "5H",
    "Stagecoach": "9S 9S",
    "Wells Fargo": "3H",
    "Barrel": "QS KS",
    "Dynamite": "2H",
    "Jail": "JS 10S 4H",
    "Mustang": "8H 9H",
    "Scope": "AS",
    "Volcanic": "10S 10C",
    "Schofield": "JC QC KS",
    "Remington": "KC",
    "Rev. Carabine": "AC",
    "Winchester": "8S",
}
_SUIT = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK = {"J": 11, "Q": 12, "K": 13, "A": 14}


def test_deck_is_the_published_card_list() -> None:
    """Every one of the 80 cards has the published name, suit and rank (as a multiset)."""
    expected = Counter(
        (name, _SUIT[code[-1]], _RANK.get(code[:-1]) or int(code[:-1]))
        for name, codes in PUBLISHED_DECK.items()
        for code in codes.split()
    )
    assert sum(expected.values()) == 80
    actual = Counter(
        (C.KIND_NAMES[int(C.CARD_KIND[c])], C.SUIT_NAMES[int(C.CARD_SUIT[c])], int(C.CARD_RANK[c]))
        for c in range(C.N_CARDS)
    )
    assert actual == expected


def test_sixteen_characters_with_published_life() -> None:
    assert len(C.CHARACTER_NAMES) == C.N_CHARACTERS == 16
    three_life = {C.CHARACTER_NAMES[i] for i in range(16) if C.CHARACTER_LIFE[i] == 3}
    assert three_life == {"El Gringo", "Paul Regret"}
    assert int(C.CHARACTER_LIFE.sum()) == 62


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (4, {"sheriff": 1, "renegade": 1, "outlaw": 2}),
        (5, {"sheriff": 1, "renegade": 1, "outlaw": 2, "deputy": 1}),
        (6, {"sheriff": 1, "renegade": 1, "outlaw": 3, "deputy": 1}),
        (7, {"sheriff": 1, "renegade": 1, "outlaw": 3, "deputy": 2}),
    ],
)
def test_roles_per_player_count(players: int, expected: dict[str, int]) -> None:
    dealt = Counter(C.ROLE_NAMES[r] for r in C.roles_for(players))
    assert dict(dealt) == expected
    rng = np.random.default_rng(players)
    roles = E.deal_roles(players, rng)
    assert roles[0] == C.SHERIFF
    assert Counter(C.ROLE_NAMES[r] for r in roles) == dealt


def test_sheriff_has_one_more_life_and_is_public() -> None:
    s = E.StateView(E.blank_state(
        np.array([0, 3, 2, 2]), np.array([C.EL_GRINGO, 0, 1, C.PAUL_REGRET]),
        np.array([1, 1, 1, 1]), 1000,
    ))  # fmt: skip
    assert list(s.max_life[:4]) == [4, 4, 4, 3]
    assert list(s.revealed[:4]) == [1, 0, 0, 0]


def test_setup_deals_as_many_cards_as_life() -> None:
    rng = np.random.default_rng(1)
    s = E.StateView(E.setup_game(7, np.array([1, 1, 1, 1]), E.DEFAULT_PARAMS, 1000, rng))
    hands = [E.hand_count(s.state, p) for p in range(7)]
    assert hands == [int(s.life[p]) for p in range(7)]
    assert s.g[E.G_DECK_N] == 80 - sum(hands)
    assert len(set(int(c) for c in s.char[:7])) == 7
    assert E.invariant_error(s.state) == 0


@pytest.mark.parametrize("players", [3, 8, 0])
def test_config_rejects_player_counts_outside_4_to_7(players: int) -> None:
    with pytest.raises(UserError, match="players must be 4-7"):
        BangConfig(players=players)


def test_config_rejects_unknown_bot() -> None:
    with pytest.raises(UserError, match="unknown bot"):
        BangConfig(outlaw_bot="genius")


def test_roles_and_characters_are_dealt_uniformly() -> None:
    """Exact values: with 4 players a non-Sheriff seat is an Outlaw with probability 2/3;
    any given character is in a 7-player game with probability 7/16 (tolerance: 5 SE)."""
    rng = np.random.default_rng(12)
    n = 3000
    outlaw_at_seat_1 = 0
    slab_in_game = 0
    for _ in range(n):
        outlaw_at_seat_1 += int(E.deal_roles(4, rng)[1] == C.OUTLAW)
        s = E.StateView(E.setup_game(7, np.array([1, 1, 1, 1]), E.DEFAULT_PARAMS, 1000, rng))
        slab_in_game += int(C.SLAB_THE_KILLER in s.char[:7])
    for count, exact in ((outlaw_at_seat_1, 2 / 3), (slab_in_game, 7 / 16)):
        assert abs(count / n - exact) < 5 * np.sqrt(exact * (1 - exact) / n)
