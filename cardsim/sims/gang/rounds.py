"""The rules of one chip round and the showdown, shared by every heist kernel: the deal, the
flop redraws, what each player rates (:func:`current_hands`, :func:`rate_own_hands`), where a
claim sorts (:func:`contest_key`), the settled chips (:func:`hand_out_chips`,
:func:`chips_from_keys`, locks) and the showdown (:func:`showdown_in_order`). Seed 000,
"Quy trình vụ cướp" and "Màn so bài"; digest ``seeds/the_gang.md`` H2-H8.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.cards import (
    locked_chips,
    muscle_score,
    redraw_star,
    round_has_chips,
)
from cardsim.sims.gang.holdings import (
    N_PAIRS,
    N_TRIPLES,
    hand_score,
    holder_of,
    pair_percentiles,
    pocket_mask,
    preflop_pair_percentiles,
    sample_triples,
    score_holdings_into,
    strength,
)
from cardsim.sims.gang.models import HISTORY, RANDOM


@kernel(refcounts=False)
def showdown_in_order(final_scores: np.ndarray, red_chips: np.ndarray, players: int) -> bool:
    """Showdown (seed 000, "Màn so bài"): reveal in ascending red-chip order; success iff every
    revealed hand is at least as strong as the previous one (so true ties pass either way, but
    tied players must still sit correctly against everyone else)."""
    for p in range(players):  # pairwise, no sort to compile: a lower red chip, a weaker hand
        for q in range(players):
            if red_chips[p] < red_chips[q] and final_scores[p] > final_scores[q]:
                return False
    return True


@kernel(refcounts=False)
def random_order_success(final_scores: np.ndarray, players: int) -> float:
    """Exact chance that a uniformly random red-chip order passes the showdown for this deal:
    the number of orders consistent with the true ranking (product of tie-group sizes
    factorial) over players factorial."""
    ways = 1.0  # each player tied with m earlier players multiplies by m + 1: the group's m!
    for k in range(1, players):
        tied_before = 0
        for j in range(k):
            if final_scores[j] == final_scores[k]:
                tied_before += 1
        ways *= tied_before + 1
    total = 1.0
    for f in range(2, players + 1):
        total *= f
    return ways / total


@kernel(refcounts=False)
def chips_from_keys(keys: np.ndarray, players: int, out: np.ndarray) -> None:
    """Settled allocation: the player with the k-th smallest claim key holds the (k+1)-star chip.

    This is where the chip dance ends when players may take chips from the middle or from each
    other (seed 000, round rules): every higher claim ends above every lower one, and the key's
    tie-breaking part is the model's contest rule.
    """
    for p in range(players):  # rank by counting (keys are distinct: ties are broken in them)
        below = 0
        for q in range(players):
            if keys[q] < keys[p] or (keys[q] == keys[p] and q < p):
                below += 1
        out[p] = below + 1


@kernel(refcounts=False)
def _lock(
    keys: np.ndarray, bands_claimed: np.ndarray, players: int, levels: int, chip_index: int, winner_key: float
) -> None:
    """A locked chip stays with whoever took it first: among the players whose claim maps to
    that chip, a uniformly random one keeps it regardless of the contest rule."""
    claimants = 0
    for p in range(players):
        if bands_claimed[p] // levels == chip_index:
            claimants += 1
    if claimants < 2:
        return
    pick = np.random.randint(0, claimants)
    for p in range(players):
        if bands_claimed[p] // levels == chip_index:
            if pick == 0:
                keys[p] = winner_key
                return
            pick -= 1


@kernel(refcounts=False)
def deal(deck: np.ndarray, players: int, size: int, pockets: np.ndarray, board: np.ndarray, chips: np.ndarray) -> int:
    """The deal (seed 000, "Quy trình vụ cướp"): ``size`` pocket cards each from the shuffled
    deck, then the five community cards the rounds show; no chip taken yet. Returns the next
    card to draw."""
    pockets[:, :] = -1
    chips[:, :] = 0
    for p in range(players):
        for s in range(size):
            pockets[p, s] = deck[p * size + s]
    for k in range(5):
        board[k] = deck[players * size + k]
    return players * size + 5


@kernel(inline="always")  # returns its argument arrays: inlined, never counted apart
def opponent_holdings(
    size: int,
    pair_cards: np.ndarray,
    pair_masks: np.ndarray,
    work_cards: np.ndarray,
    work_masks: np.ndarray,
) -> tuple[int, np.ndarray, np.ndarray]:
    """The holdings a player rates their hand against: the 1,326 pairs, or under Security
    Cameras ``N_TRIPLES`` triples drawn for this heist (into ``work_cards``/``work_masks``)."""
    if size == 2:
        return N_PAIRS, pair_cards, pair_masks
    sample_triples(work_cards, work_masks, N_TRIPLES)
    return N_TRIPLES, work_cards, work_masks


@kernel(refcounts=False)
def flop_redraw(
    challenges: int,
    board: np.ndarray,
    chips: np.ndarray,
    players: int,
    pockets: np.ndarray,
    size: int,
    deck: np.ndarray,
    draw: int,
) -> tuple[int, int]:
    """Motion Detector / Laser Tripwires at the start of the flop round (only after a white
    round): the white chip's holder named by the flop (:func:`redraw_star`) takes a new pocket
    from the deck. Returns (that seat or -1, the next card to draw)."""
    if not round_has_chips(challenges, 0):
        return -1, draw
    star = redraw_star(challenges, board, players)
    if star == 0:
        return -1, draw
    p = holder_of(chips, 1, star, players, 0)
    for s in range(size):
        pockets[p, s] = deck[draw]
        draw += 1
    return p, draw


@kernel(refcounts=False)
def current_hands(
    pockets: np.ndarray,
    players: int,
    size: int,
    board: np.ndarray,
    shown: int,
    muscle_seat: int,
    own: np.ndarray,
    own_masks: np.ndarray,
) -> None:
    """What every player rates this round (:func:`strength`; the Muscle holder's raised once
    a community card is shown) and their pocket's card set."""
    for p in range(players):
        own[p] = strength(pockets[p], size, board, shown)
        if p == muscle_seat and shown > 0:
            own[p] = muscle_score(own[p])
        own_masks[p] = pocket_mask(pockets[p], size)


@kernel(refcounts=False)
def rate_own_hands(
    own: np.ndarray,
    own_masks: np.ndarray,
    pockets: np.ndarray,
    players: int,
    size: int,
    board: np.ndarray,
    shown: int,
    hold_cards: np.ndarray,
    hold_masks: np.ndarray,
    count: int,
    pair_cards: np.ndarray,
    valid: np.ndarray,
    hscores: np.ndarray,
    ratings: np.ndarray,
    work: np.ndarray,
) -> None:
    """Every player's percentile among the holdings they could face (valid on the board shown,
    without their own cards, ties one half), from the holdings scored once for this board
    (``work``: the scratch of :func:`~cardsim.sims.gang.holdings.score_holdings_into`)."""
    score_holdings_into(hold_cards, hold_masks, count, size, board, shown, valid, hscores, work)
    if size == 2 and shown == 0:
        preflop_pair_percentiles(own, pockets, players, pair_cards, ratings)
    elif size == 2:
        pair_percentiles(hscores[:N_PAIRS], valid[:N_PAIRS], own, pockets, players, pair_cards, ratings)
    else:
        for p in range(players):
            less = 0
            equal = 0
            total = 0
            for h in range(count):
                if valid[h] and (hold_masks[h] & own_masks[p]) == 0:
                    total += 1
                    if hscores[h] < own[p]:
                        less += 1
                    elif hscores[h] == own[p]:
                        equal += 1
            ratings[p] = (less + 0.5 * equal) / max(total, 1)


@kernel(refcounts=False)
def contest_key(model: int, band: int, u: float, r: int, chips: np.ndarray, p: int, hidden_history: bool) -> float:
    """Where a claim sorts in the chip dance: percentile, the band then a random tie-break;
    history, the band then the player's earlier chips, most recent first (none under Blackout),
    then a random tie-break."""
    if model == HISTORY:
        key = float(band)
        for t in range(r - 1, -1, -1):
            key = key * 8.0 + (0.0 if hidden_history else chips[t, p])
        return key * 8.0 + u
    return band + u


@kernel(refcounts=False)
def hand_out_chips(
    keys: np.ndarray,
    bands_claimed: np.ndarray,
    players: int,
    levels: int,
    challenges: int,
    r: int,
    model: int,
    row: np.ndarray,
) -> None:
    """The settled chips of a round into ``row``: locks first (Noise Sensors, Ventilation
    Shaft; not for the random model, which takes chips blindly), then the claim keys' order."""
    if model != RANDOM:
        bottom, top = locked_chips(challenges, r, players)
        if bottom > 0:
            _lock(keys, bands_claimed, players, levels, 0, -1e300)
        if top > 0:
            _lock(keys, bands_claimed, players, levels, players - 1, 1e300)
    chips_from_keys(keys, players, row)


@kernel(refcounts=False)
def final_scores(
    pockets: np.ndarray, size: int, board: np.ndarray, players: int, muscle_seat: int, finals: np.ndarray
) -> None:
    """Every final hand on the full board (the Muscle holder's raised, :func:`muscle_score`)."""
    for p in range(players):
        finals[p] = hand_score(pockets[p], size, board, 5)
        if p == muscle_seat:
            finals[p] = muscle_score(finals[p])
