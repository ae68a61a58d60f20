"""Turn search of The Game: the cheapest legal sequences of exactly ``required`` plays.

Costs of single plays (greedy's raw gap, the planner's effective gap over still-unplayed cards)
and the depth-first search over (pile, slot) moves that every strategy falls back on when its
own order gets stuck (rule 11 of ``seeds/the_game.md``: a minimum reachable in any order counts
as playable).
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.thegame.rules import (
    BACKWARDS_STEP,
    MAX_HAND,
    N_PILES,
    can_play,
    is_backwards_trick,
)
from cardsim.sims.thegame.state import (
    F_ACC,
    F_CAND_COST,
    F_NO_PENALTY,
    F_PILE_MIN,
    F_SINGLE,
    F_SINGLE_PAIR,
    INF,
    P_PAIR_PENALTY,
    P_TRICK_BONUS,
    R_LOOK_HAND,
    R_LOOK_TOPS,
    R_POS,
    R_SAVED_TOP,
    R_SEQ_KIND,
    R_SEQ_PILE,
    R_SEQ_SLOT,
    R_SINGLE_PARTNER,
    R_SLOT_OF,
    R_USED,
    R_WORK,
    SLOT_TABLE,
    apply_play,
    find_slot,
)

# ---------------------------------------------------------------------------------------------
# Costs of single plays.


@kernel(refcounts=False)
def raw_gap(card: int, pile: int, top: int) -> float:
    """Greedy's cost: distance moved on the pile; a backwards trick counts -10."""
    if is_backwards_trick(card, pile, top):
        return -float(BACKWARDS_STEP)
    if pile < 2:
        return float(card - top)
    return float(top - card)


@kernel(refcounts=False)
def effective_gap(card: int, pile: int, top: int, below: np.ndarray, trick_bonus: float) -> float:
    """Planner's cost: unplayed cards the play makes unreachable on this pile; a backwards
    trick scores minus the unplayed cards it reopens, minus ``trick_bonus``."""
    if pile < 2:
        if card > top:
            return float(below[card - 1] - below[top])
        return -float(below[top - 1] - below[card]) - trick_bonus
    if card < top:
        return float(below[top - 1] - below[card])
    return -float(below[card - 1] - below[top]) - trick_bonus


@kernel(refcounts=False)
def far_partner(card: int, pile: int) -> int:
    """The card that would later make ``card`` a backwards trick on this pile's direction
    (card + 10 on ascending piles, card - 10 on descending ones)."""
    if pile < 2:
        return card + BACKWARDS_STEP
    return card - BACKWARDS_STEP


# ---------------------------------------------------------------------------------------------
# Turn search: the cheapest legal sequences of exactly `required` plays.


@kernel(literals=("required",), refcounts=False)
def keep_candidate(W, F, C, keep, n_cand, total, hand, required) -> int:
    """Insert the sequence in the W[R_SEQ_*] rows (cost ``total``) into the sorted
    top-``keep`` candidate list."""
    if n_cand == keep and total >= F[F_CAND_COST, keep - 1]:
        return n_cand
    k = n_cand if n_cand < keep else keep - 1
    while k > 0 and F[F_CAND_COST, k - 1] > total:
        F[F_CAND_COST, k] = F[F_CAND_COST, k - 1]
        for d in range(required):
            C[0, k, d] = C[0, k - 1, d]
            C[1, k, d] = C[1, k - 1, d]
        k -= 1
    F[F_CAND_COST, k] = total
    for d in range(required):
        C[0, k, d] = hand[W[R_SEQ_SLOT, d]]
        C[1, k, d] = W[R_SEQ_PILE, d]
    return n_cand + 1 if n_cand < keep else keep


@kernel(refcounts=False)
def record_pair(W, F, C, keep, n_cand, total, hand, s1, p1, s2, p2) -> int:
    """Offer the two-play sequence (s1 on p1, then s2 on p2) to the candidate list."""
    W[R_SEQ_SLOT, 0] = s1
    W[R_SEQ_PILE, 0] = p1
    W[R_SEQ_SLOT, 1] = s2
    W[R_SEQ_PILE, 1] = p2
    return keep_candidate(W, F, C, keep, n_cand, total, hand, 2)


@kernel(refcounts=False)
def best_pairs(hand, hcount, piles, below, trick_ok, params, pile_penalty, W, F, C, keep) -> int:
    """:func:`best_sequences` for the common case of two effective-gap plays, enumerating the
    same canonical sequences with single-play costs computed once: plays on two different piles
    add up, only a second play on the same pile needs a new cost. With ``keep`` = 1 a first
    play is skipped when even the cheapest possible second play cannot beat the best found."""
    pair_penalty = params[P_PAIR_PENALTY]
    slot_of = W[R_SLOT_OF]
    for s in range(hcount):
        slot_of[hand[s]] = s
    for pile in range(N_PILES):
        F[F_PILE_MIN, pile] = INF
        top = piles[pile]
        for s in range(hcount):
            code = s * N_PILES + pile
            F[F_SINGLE, code] = INF
            W[R_SINGLE_PARTNER, code] = -1
            F[F_SINGLE_PAIR, code] = 0.0
            card = hand[s]
            if not can_play(card, pile, top, trick_ok):
                continue
            cost = effective_gap(card, pile, top, below, params[P_TRICK_BONUS])
            if cost > 0.0:
                cost += pile_penalty[pile]
            F[F_SINGLE, code] = cost
            if cost < F[F_PILE_MIN, pile]:
                F[F_PILE_MIN, pile] = cost
            if pair_penalty != 0.0 and not is_backwards_trick(card, pile, top):
                partner = far_partner(card, pile)
                if 0 <= partner < SLOT_TABLE and slot_of[partner] >= 0:
                    W[R_SINGLE_PARTNER, code] = slot_of[partner]
                    F[F_SINGLE_PAIR, code] = pair_penalty
    n_cand = 0
    for p1 in range(N_PILES):
        if p1 == 1 and piles[0] == piles[1]:
            continue
        if p1 == 3 and piles[2] == piles[3]:
            continue
        other_min = INF
        for p2 in range(p1 + 1, N_PILES):
            if F[F_PILE_MIN, p2] < other_min:
                other_min = F[F_PILE_MIN, p2]
        for s1 in range(hcount):
            code1 = s1 * N_PILES + p1
            c1 = F[F_SINGLE, code1]
            if c1 >= INF:
                continue
            card1 = hand[s1]
            partner1 = W[R_SINGLE_PARTNER, code1]
            back = 2 * card1 - far_partner(card1, p1)  # trick onto card1 right after it
            if keep == 1 and n_cand == 1:
                same_min = 0.0
                if trick_ok and 0 <= back < SLOT_TABLE and slot_of[back] >= 0:
                    same_min = -INF
                if c1 + min(same_min, other_min) >= F[F_CAND_COST, 0]:
                    continue
            for s2 in range(hcount):
                if s2 == s1:
                    continue
                card2 = hand[s2]
                if not can_play(card2, p1, card1, trick_ok):
                    continue
                c2 = effective_gap(card2, p1, card1, below, params[P_TRICK_BONUS])
                if c2 > 0.0:
                    c2 += pile_penalty[p1]
                total = c1 + c2
                if partner1 >= 0 and partner1 != s2:
                    total += F[F_SINGLE_PAIR, code1]
                if pair_penalty != 0.0 and not is_backwards_trick(card2, p1, card1):
                    partner2 = far_partner(card2, p1)
                    if 0 <= partner2 < SLOT_TABLE and slot_of[partner2] >= 0 and slot_of[partner2] != s1:
                        total += pair_penalty
                n_cand = record_pair(W, F, C, keep, n_cand, total, hand, s1, p1, s2, p1)
            for p2 in range(p1 + 1, N_PILES):
                if p2 == 3 and p1 < 2 and piles[2] == piles[3]:
                    continue
                for s2 in range(hcount):
                    if s2 == s1:
                        continue
                    code2 = s2 * N_PILES + p2
                    c2 = F[F_SINGLE, code2]
                    if c2 >= INF:
                        continue
                    total = c1 + c2
                    if partner1 >= 0 and partner1 != s2:
                        total += F[F_SINGLE_PAIR, code1]
                    partner2 = W[R_SINGLE_PARTNER, code2]
                    if partner2 >= 0 and partner2 != s1:
                        total += F[F_SINGLE_PAIR, code2]
                    n_cand = record_pair(W, F, C, keep, n_cand, total, hand, s1, p1, s2, p2)
    for s in range(hcount):
        slot_of[hand[s]] = -1
    return n_cand


@kernel(literals=("effective",), refcounts=False)
def best_sequences(
    hand, hcount, piles, below, required, trick_ok, effective, params, pile_penalty, W, F, C, keep
) -> int:
    """The ``keep`` cheapest legal sequences of exactly ``required`` plays, cheapest first, in
    C[0] / C[1] / F[F_CAND_COST]; returns how many exist (0: none is legal).

    Iterative depth-first search over (pile, slot) moves with piles in non-decreasing order:
    plays on different piles commute, so every reachable outcome is visited once. Costs are raw
    gaps (``effective`` False) or effective gaps plus reservation penalties and, at the leaf, the
    pair penalty for each normal play whose far partner stays in hand.
    """
    if required > hcount:
        return 0
    if effective and required == 2:
        return best_pairs(hand, hcount, piles, below, trick_ok, params, pile_penalty, W, F, C, keep)
    used = W[R_USED]
    work = W[R_WORK]
    for s in range(MAX_HAND):
        used[s] = False
    for p in range(N_PILES):
        work[p] = piles[p]
    slot_of = W[R_SLOT_OF]
    for s in range(hcount):
        slot_of[hand[s]] = s
    pair_penalty = params[P_PAIR_PENALTY] if effective else 0.0
    n_cand = 0
    limit = N_PILES * MAX_HAND
    depth = 0
    W[R_POS, 0] = 0
    F[F_ACC, 0] = 0.0
    while depth >= 0:
        first_pile = W[R_SEQ_PILE, depth - 1] if depth > 0 else 0
        code = max(W[R_POS, depth], first_pile * MAX_HAND)
        found = False
        pile = 0
        s = 0
        top = 0
        while code < limit:
            pile = code // MAX_HAND
            s = code - pile * MAX_HAND
            code += 1
            if s >= hcount:
                code = (pile + 1) * MAX_HAND
                continue
            top = work[pile]
            # Two same-direction piles showing the same top are interchangeable.
            if pile == 1 and first_pile == 0 and work[0] == top:
                code = 2 * MAX_HAND
                continue
            if pile == 3 and first_pile <= 2 and work[2] == top:
                code = limit
                continue
            if used[s]:
                continue
            if can_play(hand[s], pile, top, trick_ok):
                found = True
                break
        W[R_POS, depth] = code
        if not found:
            depth -= 1
            if depth >= 0:
                work[W[R_SEQ_PILE, depth]] = W[R_SAVED_TOP, depth]
                used[W[R_SEQ_SLOT, depth]] = False
            continue
        card = hand[s]
        trick = is_backwards_trick(card, pile, top)
        if effective:
            cost = effective_gap(card, pile, top, below, params[P_TRICK_BONUS])
            if cost > 0.0:
                cost += pile_penalty[pile]
        else:
            cost = raw_gap(card, pile, top)
        W[R_SEQ_KIND, depth] = 0 if trick else 1
        W[R_SAVED_TOP, depth] = top
        W[R_SEQ_SLOT, depth] = s
        W[R_SEQ_PILE, depth] = pile
        total = F[F_ACC, depth] + cost
        if depth + 1 == required:
            used[s] = True
            if pair_penalty != 0.0:
                for d in range(required):
                    if W[R_SEQ_KIND, d] == 1:
                        partner = far_partner(hand[W[R_SEQ_SLOT, d]], W[R_SEQ_PILE, d])
                        if 0 <= partner < SLOT_TABLE:
                            ps = slot_of[partner]
                            if ps >= 0 and not used[ps]:
                                total += pair_penalty
            used[s] = False
            n_cand = keep_candidate(W, F, C, keep, n_cand, total, hand, required)
        else:
            used[s] = True
            work[pile] = card
            F[F_ACC, depth + 1] = total
            depth += 1
            W[R_POS, depth] = 0
    for s in range(hcount):
        slot_of[hand[s]] = -1
    return n_cand


@kernel(refcounts=False)
def completable_plays(hand, hcount, piles, below, to_play, trick_ok, params, W, F, C, out) -> int:
    """The plays a turn may make now, as ``card * 4 + pile`` in ``out`` (in hand order, then
    pile); returns how many. A play is legal on its pile (rules 6-7 of ``seeds/the_game.md``)
    and, while ``to_play`` > 1 cards of the minimum are still due, leaves a hand that can play
    the other ``to_play - 1`` in some order (rule 11), so a turn never gets stuck halfway."""
    n = 0
    rest = W[R_LOOK_HAND]
    tops = W[R_LOOK_TOPS]
    for s in range(hcount):
        card = hand[s]
        for pile in range(N_PILES):
            if not can_play(card, pile, piles[pile], trick_ok):
                continue
            if to_play > 1:
                k = 0
                for t in range(hcount):
                    if t != s:
                        rest[k] = hand[t]
                        k += 1
                for p in range(N_PILES):
                    tops[p] = piles[p]
                tops[pile] = card
                if (
                    best_sequences(
                        rest,
                        k,
                        tops[:N_PILES],
                        below,
                        to_play - 1,
                        trick_ok,
                        False,
                        params,
                        F[F_NO_PENALTY],
                        W,
                        F,
                        C,
                        1,
                    )
                    == 0
                ):
                    continue
            out[n] = card * N_PILES + pile
            n += 1
    return n


@kernel(refcounts=False)
def play_and_list(hands, counts, player, card, pile, piles, below, to_play, trick_ok, params, W, F, C, out) -> int:
    """Play ``card`` (held by ``player``) on ``pile``, then list the player's next plays as
    :func:`completable_plays` does for ``to_play`` more cards; returns how many. One call per
    decision of the Python engine instead of two."""
    apply_play(hands, counts, player, find_slot(hands, counts, player, card), pile, piles, below)
    return completable_plays(hands[player], counts[player], piles, below, to_play, trick_ok, params, W, F, C, out)
