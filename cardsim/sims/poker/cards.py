"""Cards as small integers: parsing, printing and vectorised dealing.

Encoding (shared with every kernel of the engine): ``card = rank * 4 + suit`` with rank 0..12
for 2..A and suit 0..3 for clubs, diamonds, hearts, spades. The Jack specialist's suitless Jack
(seed 000, "THẺ CHUYÊN GIA" 7) is the extra value :data:`SUITLESS_JACK` = 52, written ``"J*"``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.core.jit import kernel

N_RANKS = 13
N_SUITS = 4
DECK_SIZE = 52
SUITLESS_JACK = 52
JACK_RANK = 9
ACE_RANK = 12

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUITLESS_JACK_TEXT = "J*"
RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANK_PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)


def card_rank(card: int) -> int:
    """Rank 0..12 of a card code (the suitless Jack has the Jack's rank)."""
    return JACK_RANK if card == SUITLESS_JACK else card // N_SUITS


def card_suit(card: int) -> int:
    """Suit 0..3 of a card code, or -1 for the suitless Jack (it has no suit)."""
    return -1 if card == SUITLESS_JACK else card % N_SUITS


def parse_card(text: str) -> int:
    """One card from text such as ``"As"``, ``"td"``, ``"10h"`` or ``"J*"`` (suitless Jack)."""
    token = text.strip()
    if token.upper() == SUITLESS_JACK_TEXT:
        return SUITLESS_JACK
    if len(token) == 3 and token.startswith("10"):
        token = "T" + token[2]
    if len(token) != 2:
        raise UserError(f"bad card {text!r}: expected rank then suit, e.g. 'As', 'Td', '2c'")
    rank = RANK_CHARS.find(token[0].upper())
    suit = SUIT_CHARS.find(token[1].lower())
    if rank < 0 or suit < 0:
        raise UserError(f"bad card {text!r}: rank must be one of {RANK_CHARS}, suit one of {SUIT_CHARS}")
    return rank * N_SUITS + suit


def parse_cards(text: str | Iterable[str]) -> np.ndarray:
    """Cards from ``"As Td 2c"`` (spaces or commas, or a list of tokens) as an int8 array.

    Raises :class:`UserError` for an unknown card or a card given twice.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = np.array([parse_card(token) for token in tokens], dtype=np.int8)
    if len(np.unique(cards)) != len(cards):
        raise UserError(f"duplicate card in {' '.join(tokens)!r}")
    return cards


def format_card(card: int) -> str:
    """Text of one card code: ``"As"``, or ``"J*"`` for the suitless Jack."""
    card = int(card)
    if card == SUITLESS_JACK:
        return SUITLESS_JACK_TEXT
    if not 0 <= card < DECK_SIZE:
        raise UserError(f"bad card code {card}: expected 0..52")
    return RANK_CHARS[card // N_SUITS] + SUIT_CHARS[card % N_SUITS]


def format_cards(cards: Iterable[int] | np.ndarray) -> str:
    """Space-separated text of card codes, e.g. ``"As Td 2c"``."""
    return " ".join(format_card(card) for card in np.asarray(cards).ravel())


@kernel
def uniform_below(rng: np.random.Generator, bound: int) -> int:
    """A uniform integer in 0..bound-1 from one double of ``rng``.

    ``floor(u * bound)`` with u on the 2**-53 grid: the bias is below bound / 2**53 (< 1e-14
    here), and one double is an order of magnitude faster than ``Generator.integers`` in numba.
    """
    return int(rng.random() * bound)


@kernel
def _deal_kernel(rng: np.random.Generator, n_deals: int, n_cards: int) -> np.ndarray:
    """Partial Fisher-Yates shuffle per row on one persistent deck array."""
    out = np.empty((n_deals, n_cards), dtype=np.int8)
    deck = np.arange(DECK_SIZE).astype(np.int8)
    for row in range(n_deals):
        for i in range(n_cards):
            j = i + uniform_below(rng, DECK_SIZE - i)
            card = deck[j]
            deck[j] = deck[i]
            deck[i] = card
            out[row, i] = card
    return out


def deal(rng: np.random.Generator, n_deals: int, n_cards: int) -> np.ndarray:
    """``n_deals`` independent deals of ``n_cards`` distinct cards from a shuffled 52-card deck.

    Each row is the start of a partial Fisher-Yates shuffle: position i takes a uniformly chosen
    card among those not yet dealt in the row. The deck array is not reset between rows; whatever
    its order, uniform positions give a uniform ordered sample, so rows are independent and
    uniform. All randomness comes from ``rng``. Returns int8 ``(n_deals, n_cards)``.
    """
    if not 0 <= n_cards <= DECK_SIZE:
        raise UserError(f"cannot deal {n_cards} cards from a {DECK_SIZE}-card deck")
    if n_deals < 0:
        raise UserError(f"number of deals must be >= 0, got {n_deals}")
    return _deal_kernel(rng, n_deals, n_cards)
