"""Shared helpers for The Gang tests: cards from text and fixed decks for scenario runs."""

from __future__ import annotations

import numpy as np

from cardsim.sims.gang.engine import play_batch

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def card(text: str) -> int:
    """'As' -> 51, 'Tc' -> 32, 'J*' -> 52 (the suitless Jack)."""
    if text == "J*":
        return 52
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def cards(text: str) -> np.ndarray:
    """'As Kd 2c' -> array of codes."""
    return np.array([card(t) for t in text.split()], dtype=np.int64)


def fixed_deck(pockets: list[str], board: str, extra: str = "") -> np.ndarray:
    """A 52-card deck that deals ``pockets`` (one string per player), then ``board``, then
    ``extra`` (redraw / Hacker cards), then every other card in code order."""
    head = [c for text in pockets for c in cards(text)] + list(cards(board))
    if extra:
        head += list(cards(extra))
    assert len(set(head)) == len(head), "a card is listed twice"
    rest = [c for c in range(52) if c not in set(head)]
    return np.array(head + rest, dtype=np.int64)


def play_fixed(
    deck: np.ndarray,
    players: int,
    model: int,
    *,
    challenges: int = 0,
    specialist: int = 0,
    levels: int = 1,
    use_round: int = 3,
    repeats: int = 1,
    seed: int = 0,
    boost_top: bool = True,
    helpful: bool = False,
    jack_stays: bool = True,
) -> dict[str, np.ndarray]:
    """Play the same fixed deck ``repeats`` times (different tie-break seeds); by default the
    specialist is always used (``helpful=False``), so a card's rule can be seen."""
    rng = np.random.default_rng(seed)
    decks = np.tile(deck, (repeats, 1))
    return play_batch(
        rng,
        players,
        model,
        levels,
        np.full(repeats, challenges, dtype=np.int64),
        np.full(repeats, specialist, dtype=np.int64),
        use_round,
        decks=decks,
        boost_top=boost_top,
        helpful=helpful,
        jack_stays=jack_stays,
    )
