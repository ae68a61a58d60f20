"""Fixed-card scenario builder for the Bang! rule tests.

A scenario is a :class:`cardsim.sims.bang.engine.StateView` of ``engine.blank_state``: everyone
at full life, nothing dealt, all 80 cards in the draw pile. Helpers move named cards into hands,
into play, or onto the top of the draw pile so every rule can be checked with known cards.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E


def table(
    chars: list[int],
    roles: list[int] | None = None,
    bots: list[int] | None = None,
) -> E.StateView:
    """A table of len(chars) players; roles default to the dealt set with the Sheriff at 0."""
    n = len(chars)
    if roles is None:
        roles = [int(r) for r in C.ROLES_BY_PLAYERS[n - 4, :n]]
    if bots is None:
        bots = [C.BOT_ROLE] * n
    return E.StateView(
        E.blank_state(
            np.array(roles, dtype=np.int64),
            np.array(chars, dtype=np.int64),
            np.array(bots, dtype=np.int64),
            1000,
        )
    )


def card(kind: int, code: str | None = None, *, skip: int = 0) -> int:
    """Id of a card of ``kind`` (optionally with rank+suit ``code`` like "10H"); ``skip``
    picks a later copy."""
    for c in range(C.N_CARDS):
        if C.CARD_KIND[c] != kind:
            continue
        if code is not None and (int(C.CARD_RANK[c]), int(C.CARD_SUIT[c])) != C.parse_card_code(code):
            continue
        if skip == 0:
            return c
        skip -= 1
    raise KeyError((kind, code, skip))


def _rebuild_deck(s: E.StateView, top: list[int]) -> None:
    """Draw pile = cards still in the DECK zone, with ``top`` drawn first in the order given."""
    rest = [int(c) for c in s.deck[: s.g[E.G_DECK_N]] if s.zone[c] == E.Z_DECK and c not in top]
    order = rest + list(reversed(top))
    for c in top:
        assert s.zone[c] == E.Z_DECK, "scenario card already used"
    s.deck[: len(order)] = order
    s.g[E.G_DECK_N] = len(order)


def give(s: E.StateView, seat: int, *ids: int) -> None:
    """Put the given cards into seat's hand (taken from the draw pile)."""
    for c in ids:
        assert s.zone[c] == E.Z_DECK, "scenario card already used"
        E.move(s.state, c, E.Z_HAND, seat)
    _rebuild_deck(s, [])


def equip(s: E.StateView, seat: int, *ids: int) -> None:
    """Put the given cards in play in front of seat."""
    for c in ids:
        assert s.zone[c] == E.Z_DECK, "scenario card already used"
        E.move(s.state, c, E.Z_TABLE, seat)
    _rebuild_deck(s, [])


def stack(s: E.StateView, *ids: int) -> None:
    """Put the given cards on top of the draw pile: ids[0] is drawn first."""
    _rebuild_deck(s, list(ids))


def discard_pile(s: E.StateView, *ids: int) -> None:
    """Put the given cards on the discard pile, ids[-1] on top."""
    for c in ids:
        assert s.zone[c] == E.Z_DECK
        E.move(s.state, c, E.Z_DISCARD, -1)
        s.discard[s.g[E.G_DISCARD_N]] = c
        s.g[E.G_DISCARD_N] += 1
    _rebuild_deck(s, [])


def hand(s: E.StateView, seat: int) -> list[int]:
    """Card ids in seat's hand."""
    return [c for c in range(C.N_CARDS) if s.zone[c] == E.Z_HAND and s.holder[c] == seat]


def hand_kinds(s: E.StateView, seat: int) -> list[int]:
    """Sorted kinds of the cards in seat's hand."""
    return sorted(int(C.CARD_KIND[c]) for c in hand(s, seat))


def top_discard(s: E.StateView) -> int:
    """The card on top of the discard pile."""
    return int(s.discard[s.g[E.G_DISCARD_N] - 1])


def rng(seed: int = 0) -> np.random.Generator:
    """A fresh generator for the few blind draws a scenario makes."""
    return np.random.default_rng(seed)


# Cards that are harmless fillers on top of the deck for draw! checks.
def heart() -> int:
    """A heart that is not otherwise used in scenarios: Saloon 5H."""
    return card(C.SALOON, "5H")


def spade_low() -> int:
    """A spade 2-9 (explodes Dynamite, fails Barrel/Jail): Missed! 2S."""
    return card(C.MISSED, "2S")


def club() -> int:
    """A club (no explosion, fails Barrel/Jail): BANG! 2C."""
    return card(C.BANG, "2C")
