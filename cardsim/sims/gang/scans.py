"""Retina and Fingerprint Scans: the team's guess about the top red holder (seed 000,
challenges 4 and 9; digest C4, C9)."""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.cards import card_rank, fingerprint_ranking
from cardsim.sims.gang.holdings import hand_score, muscle_score, pocket_mask
from cardsim.sims.poker.cards import SUITLESS_JACK


@kernel
def scan_weights(
    weights: np.ndarray,
    hold_cards: np.ndarray,
    hold_masks: np.ndarray,
    count: int,
    size: int,
    final_scores: np.ndarray,
    pockets: np.ndarray,
    finals: np.ndarray,
    red: np.ndarray,
    players: int,
    top_seat: int,
    top_has_muscle: bool,
) -> None:
    """The scan guessers' belief about the top red holder (row 0 of ``weights``, in place):
    the hands are revealed upwards from the 1-star chip, so when the scan comes every other
    hand is known (seed 000, challenges 4 and 9: "before the player with the highest red chip
    reveals"). Holdings with a revealed card are impossible; and as the heist fails anyway
    when the top hand is weaker than the hand revealed before it, the guessers condition on
    it being at least as strong (unless no holding is). ``final_scores`` are the holdings'
    scores on the final board. Row 1 is scratch."""
    revealed = np.int64(0)
    jack_revealed = False
    previous = np.int64(-1)
    for p in range(players):
        if p == top_seat:
            continue
        revealed |= pocket_mask(pockets[p], size)
        for s in range(size):
            jack_revealed = jack_revealed or pockets[p, s] == SUITLESS_JACK
        if red[p] == players - 1:
            previous = finals[p]
    possible = 0.0
    for h in range(count):
        weights[1, h] = weights[0, h]
        if hold_masks[h] & revealed:
            weights[1, h] = 0.0
        if jack_revealed:
            for s in range(size):
                if hold_cards[h, s] == SUITLESS_JACK:
                    weights[1, h] = 0.0
        score = muscle_score(final_scores[h]) if top_has_muscle else final_scores[h]
        weights[0, h] = weights[1, h] if score >= previous else 0.0
        possible += weights[0, h]
    if possible <= 0.0:
        for h in range(count):
            weights[0, h] = weights[1, h]


@kernel
def retina_guess(cards: np.ndarray, count: int, size: int, weights: np.ndarray) -> int:
    """The value most likely held (at least once) under the posterior ``weights``."""
    mass = np.zeros(13)
    for h in range(count):
        w = weights[h]
        if w == 0.0:
            continue
        seen = 0
        for k in range(size):
            rank = card_rank(cards[h, k])
            if not (seen >> rank) & 1:
                mass[rank] += w
                seen |= 1 << rank
    return int(np.argmax(mass))


@kernel
def fingerprint_guess(cards: np.ndarray, count: int, size: int, board: np.ndarray, weights: np.ndarray) -> int:
    """The Fingerprint answer (0..8, high card .. straight flush) with the most posterior mass
    on the final board."""
    mass = np.zeros(9)
    for h in range(count):
        w = weights[h]
        if w == 0.0:
            continue
        mass[fingerprint_ranking(hand_score(cards[h], size, board, 5))] += w
    return int(np.argmax(mass))
