"""How likely the public chips are for a team the group's estimate drew
(:func:`cardsim.sims.gang.estimate.hand_card_gain`): the exact chance of every earlier round's
chips under the model's own claim and contest rules, for percentile and history from the claim
keys (:func:`chips_likelihood_ratio`), for bayes by replaying each round's claims, contest
beliefs and private settle from that round's public posteriors (:func:`bayes_round_tables`,
:func:`bayes_round_likelihood`). Digest ``seeds/the_gang.md``, "Specialist use"; the rules of
the chip rounds are seed 000, "Vòng 1 b)".
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.beliefs import fill_team_ranks, hand_posteriors
from cardsim.sims.gang.cards import locked_chips, round_has_chips
from cardsim.sims.gang.holdings import (
    BOARD_SIZES,
    N_PAIRS,
    own_pair_counts,
    rank_holdings,
)
from cardsim.sims.gang.models import HISTORY

KEY_NOISE = 1e-9  # bayes contest beliefs closer than this are equal up to rounding


@kernel(refcounts=False)
def holding_rating(
    h: int,
    scores: np.ndarray,
    valid: np.ndarray,
    values: np.ndarray,
    hold_cards: np.ndarray,
    hold_masks: np.ndarray,
    count: int,
    size: int,
) -> float:
    """The percentile a player holding ``h`` claimed in an earlier round (percentile and history
    models): among the holdings valid then without ``h``'s cards, ties one half (as
    :func:`holdings.pair_percentiles`); ``scores``/``valid``/``values`` are that round's."""
    target = scores[h]
    less = np.searchsorted(values, target, side="left")
    equal = np.searchsorted(values, target, side="right") - less
    total = values.shape[0]
    if size == 2 and h < N_PAIRS:
        out_total, out_less, out_equal = own_pair_counts(
            hold_cards[h, 0], hold_cards[h, 1], scores, valid, target, hold_cards
        )
    else:
        out_total = 0
        out_less = 0
        out_equal = 0
        for g in range(count):
            if valid[g] and hold_masks[g] & hold_masks[h]:
                out_total += 1
                out_less += scores[g] < target
                out_equal += scores[g] == target
    return (less - out_less + 0.5 * (equal - out_equal)) / max(total - out_total, 1)


@kernel(refcounts=False)
def chips_likelihood_ratio(
    held: np.ndarray,
    chips: np.ndarray,
    r: int,
    players: int,
    bands: int,
    model: int,
    hidden_history: bool,
    challenges: int,
    evidence_from: np.ndarray,
    likelihood: np.ndarray,
    hband: np.ndarray,
    round_scores: np.ndarray,
    round_valid: np.ndarray,
    round_values: np.ndarray,
    round_count: np.ndarray,
    hold_cards: np.ndarray,
    hold_masks: np.ndarray,
    count: int,
    size: int,
    rated: np.ndarray,
    keys: np.ndarray,
    known: np.ndarray,
) -> float:
    """Importance weight of a team drawn from the public posteriors (percentile, history).

    The posteriors treat each player's chips as independent evidence
    (``likelihood[chip - 1, band]``, a model of the others as uniform claims). The chips of a
    round are in fact one sorting of the whole team's claims: under the percentile and history
    models a team's claims place the chips exactly, up to random order within equal claim keys.
    The weight is that exact probability of the public chips divided by the posteriors'
    product, round by round (rounds with a lock, where a random claimant keeps the chip, keep
    the posteriors' approximation); 0 for a team the public chips rule out. ``rated[t, h]``
    keeps each holding's claim key part (its band) once computed (-1: not yet). ``keys`` and
    ``known`` (``players`` floats and bools) are scratch: each player's claim key and whether
    their chip of the round is evidence, overwritten.
    """
    weight = 1.0
    for j in range(players):
        keys[j] = 0.0
        known[j] = False
    for t in range(r):
        if not round_has_chips(challenges, t) or round_count[t] == 0:
            continue
        bottom, top = locked_chips(challenges, t, players)
        if bottom > 0 or top > 0:
            continue
        n_values = round_count[t]
        for j in range(players):
            known[j] = evidence_from[j] <= t and chips[t, j] > 0
            if not known[j]:
                continue
            h = held[j]
            if rated[t, h] < 0:
                rating = holding_rating(
                    h, round_scores[t], round_valid[t], round_values[t, :n_values], hold_cards, hold_masks, count, size
                )
                rated[t, h] = min(int(rating * bands), bands - 1)
            key = float(rated[t, h])
            if model == HISTORY:
                for u in range(t - 1, -1, -1):
                    key = key * 8.0 + (0.0 if hidden_history else chips[u, j])
            keys[j] = key
            weight /= likelihood[chips[t, j] - 1, hband[t, h]]
        # the chips must follow the keys; equal keys come in each order with equal chance
        for i in range(players):
            if not known[i]:
                continue
            ties = 0
            for j in range(players):
                if not known[j] or j == i:
                    continue
                if chips[t, j] < chips[t, i] and keys[j] > keys[i]:
                    return 0.0
                if keys[j] == keys[i] and chips[t, j] < chips[t, i]:
                    ties += 1
            weight /= ties + 1  # i above ``ties`` equal keys: the product is 1 / group size!
    return weight


@kernel(refcounts=False)
def weight_below(
    sorted_masks: np.ndarray, values: np.ndarray, rival_weights: np.ndarray, mine: int, target: int, lo: int, hi: int
) -> tuple[float, float]:
    """A rival's posterior weight below ``target`` (ties one half) and in all, over the sorted
    holdings ``lo:hi`` that share no card with the viewer's own cards ``mine``: the viewer's
    private chance of being above that rival is the first over the second (card masks and
    the rival's weights in the sorted order of ``values``)."""
    below = 0.0
    mass = 0.0
    for k in range(lo, hi):
        if sorted_masks[k] & mine:
            continue
        w = rival_weights[k]
        mass += w
        if values[k] < target:
            below += w
        elif values[k] == target:
            below += 0.5 * w
    return below, mass


@kernel
def bayes_round_tables(
    index: np.ndarray,
    values: np.ndarray,
    weights: np.ndarray,
    count: int,
    players: int,
    bands: int,
    pos: np.ndarray,
    team_rank: np.ndarray,
    team_band: np.ndarray,
    band_start: np.ndarray,
    band_end: np.ndarray,
    belief: np.ndarray,
) -> None:
    """The team-independent part of one earlier round's bayes claims (as
    :func:`beliefs.bayes_claims` computes them from that round's public posteriors
    ``weights``): every holding's sorted position ``pos`` (-1: not valid then), the team rank
    and team band of every sorted position (its claim; nondecreasing, so each band is the contiguous range
    ``band_start[b]:band_end[b]``), and every player's contest belief per claimed band
    (:func:`beliefs.claim_beliefs`; -1 where the player's posterior has no mass in the band)."""
    n_valid = values.shape[0]
    cum = np.zeros((players, n_valid + 1))
    for k in range(n_valid):
        for j in range(players):
            cum[j, k + 1] = cum[j, k] + weights[j, index[k]]
    for h in range(count):
        pos[h] = -1
    for b in range(bands):
        band_start[b] = n_valid
        band_end[b] = n_valid
    fill_team_ranks(cum, values, players, team_rank)
    for k in range(n_valid):
        pos[index[k]] = k
        b = min(int(team_rank[k] * bands), bands - 1)
        team_band[k] = b
        if band_start[b] == n_valid:
            band_start[b] = k
        band_end[b] = k + 1
    for j in range(players):
        for b in range(bands):
            acc = 0.0
            mass = 0.0
            for k in range(band_start[b], band_end[b]):
                w = weights[j, index[k]]
                acc += w * team_rank[k]
                mass += w
            belief[j, b] = acc / mass if mass > 0.0 else -1.0


@kernel
def bayes_round_likelihood(
    held: np.ndarray,
    chips_row: np.ndarray,
    players: int,
    sorted_masks: np.ndarray,
    values: np.ndarray,
    sorted_weights: np.ndarray,
    pos: np.ndarray,
    team_rank: np.ndarray,
    team_band: np.ndarray,
    band_start: np.ndarray,
    band_end: np.ndarray,
    belief: np.ndarray,
    hold_masks: np.ndarray,
    kept: np.ndarray,
    kept_below: np.ndarray,
    kept_mass: np.ndarray,
) -> float:
    """P(this round's public chips | the drawn team ``held``) under the bayes claim rule
    (:func:`bayes_round_likelihood_into`, with its scratch)."""
    return bayes_round_likelihood_into(
        held,
        chips_row,
        players,
        sorted_masks,
        values,
        sorted_weights,
        pos,
        team_rank,
        team_band,
        band_start,
        band_end,
        belief,
        hold_masks,
        kept,
        kept_below,
        kept_mass,
        np.zeros((4, players), dtype=np.int64),
        np.zeros((players + 1, players)),
    )


@kernel(refcounts=False)
def bayes_round_likelihood_into(
    held: np.ndarray,
    chips_row: np.ndarray,
    players: int,
    sorted_masks: np.ndarray,
    values: np.ndarray,
    sorted_weights: np.ndarray,
    pos: np.ndarray,
    team_rank: np.ndarray,
    team_band: np.ndarray,
    band_start: np.ndarray,
    band_end: np.ndarray,
    belief: np.ndarray,
    hold_masks: np.ndarray,
    kept: np.ndarray,
    kept_below: np.ndarray,
    kept_mass: np.ndarray,
    int_work: np.ndarray,
    float_work: np.ndarray,
) -> float:
    """P(this round's public chips | the drawn team ``held``) under the bayes claim rule: each
    player claims the team band of their holding, the keys are band then contest belief
    (equal keys in random order: every order is enumerated, at most 6! of them), then
    the private settle of equal claims next to each other, bottom up
    (:func:`beliefs.settle_equal_claims` without cards or priors: each of the two compares
    their hand with the rival's claimed posterior without their own cards; a vote to move and
    none to stay swaps them). Exact, no sampling. A rival's weight below a holding depends
    only on the two and the round's tables: it is kept in ``kept_below[rival, h]`` and
    ``kept_mass[rival, h]`` once ``kept[rival, h]``. ``int_work`` (4 x players int64) and
    ``float_work`` (players + 1 x players) are scratch: the claimed bands, the keys' order, a
    tie group's order and pool; the keys and every pair's chance to be above, overwritten."""
    band = int_work[0]
    base = int_work[1]
    order = int_work[2]
    pool = int_work[3]
    key = float_work[0]
    above = float_work[1:]
    for j in range(players):
        band[j] = 0
        base[j] = 0
        order[j] = 0
        pool[j] = 0
        key[j] = 0.0
        for q in range(players):
            above[j, q] = 0.5
    for j in range(players):
        k = pos[held[j]]
        if k < 0:
            return 0.0
        band[j] = team_band[k]
        key[j] = belief[j, band[j]]
        if key[j] < 0.0:  # no posterior mass in the claimed band: the player's own team rank
            key[j] = team_rank[k]
    for i in range(players):  # a higher claim always ends above a lower one
        for j in range(players):
            if band[i] < band[j] and chips_row[i] > chips_row[j]:
                return 0.0
    # P(me's hand above rival's | me's private view), for every pair with equal claims
    for me in range(players):
        h = held[me]
        for rival in range(players):
            if rival == me or band[rival] != band[me]:
                continue
            if not kept[rival, h]:
                b = band[me]
                kept_below[rival, h], kept_mass[rival, h] = weight_below(
                    sorted_masks,
                    values,
                    sorted_weights[rival],
                    hold_masks[h],
                    values[pos[h]],
                    band_start[b],
                    band_end[b],
                )
                kept[rival, h] = True
            below = kept_below[rival, h]
            mass = kept_mass[rival, h]
            if mass > 0.0:
                above[me, rival] = below / mass
    # the keys' order; equal keys (equal up to rounding: the engine's random tie-break, 1e-6,
    # outweighs it) next to each other, each of their orders equally likely: all enumerated
    for j in range(players):
        below = 0
        for q in range(players):
            if band[q] < band[j] or (band[q] == band[j] and (key[q] < key[j] or (key[q] == key[j] and q < j))):
                below += 1
        base[below] = j
    total = 1
    k = 0
    while k < players:
        end = k
        while (
            end + 1 < players
            and band[base[end + 1]] == band[base[end]]
            and key[base[end + 1]] - key[base[end]] <= KEY_NOISE
        ):
            end += 1
        for m in range(2, end - k + 2):
            total *= m
        k = end + 1
    hits = 0
    for combo in range(total):
        code = combo
        k = 0
        while k < players:  # decode this combination's order of every tie group
            end = k
            while (
                end + 1 < players
                and band[base[end + 1]] == band[base[end]]
                and key[base[end + 1]] - key[base[end]] <= KEY_NOISE
            ):
                end += 1
            size = end - k + 1
            for m in range(size):
                pool[m] = base[k + m]
            left = size
            for m in range(size):
                pick = code % left
                code //= left
                order[k + m] = pool[pick]
                for q in range(pick, left - 1):
                    pool[q] = pool[q + 1]
                left -= 1
            k = end + 1
        for step in range(players - 1):
            lo = order[step]
            hi = order[step + 1]
            if band[lo] != band[hi]:
                continue
            flip = 0
            keep = 0
            p_lo = above[lo, hi]
            p_hi = above[hi, lo]
            if p_lo > 0.5:
                flip += 1
            elif p_lo != 0.5:
                keep += 1
            if p_hi < 0.5:
                flip += 1
            elif p_hi != 0.5:
                keep += 1
            if flip > 0 and keep == 0:
                order[step] = hi
                order[step + 1] = lo
        match = True
        for m in range(players):
            if chips_row[order[m]] != m + 1:
                match = False
                break
        hits += match
    return hits / total


# Each earlier round's bayes claim tables (:func:`bayes_past_rounds`), per round: whether it is
# replayed, its valid holdings' count, card masks, posteriors and scores in its sorted order, and
# the tables :func:`bayes_round_tables` fills; ``kept``, ``below`` and ``mass`` are scratch
# space for :func:`bayes_round_likelihood`.
PastRounds = namedtuple(
    "PastRounds", "replayed valid masks sorted_weights values pos rank band band_start band_end belief kept below mass"
)


@kernel
def bayes_past_rounds(bayes: bool, r: int, table: tuple, holdings: tuple, evidence: tuple) -> PastRounds:
    """The claim tables of every round before the use round ``r``, each from that round's
    public posteriors, to weight a drawn team by the chance of the public chips under bayes's
    own claim and settle rule (:func:`bayes_team_weight`). Rounds with a lock, or with a player
    whose claim came from a pocket since redrawn, are not replayed (they keep the posteriors'
    approximation); nothing is replayed for the other models (``bayes`` False)."""
    chips, players, size, bands, board, shown, challenges, hidden_history = table
    hold_cards, hold_masks, count = holdings
    (weights, likelihood, hband, evidence_from, public_ok, round_scores, round_valid, round_values, round_count) = (
        evidence
    )
    replayed = np.zeros(4, dtype=np.bool_)
    width = count if bayes else 1
    past_weights = np.zeros((4, players, width))
    past_masks = np.zeros((4, width), dtype=np.int64)  # card masks in each round's sorted order
    past_sorted_weights = np.zeros((4, players, width))  # and the posteriors
    past_values = np.zeros((4, width), dtype=np.int64)
    past_valid = np.zeros(4, dtype=np.int64)
    past_pos = np.zeros((4, width), dtype=np.int64)
    past_rank = np.zeros((4, width))
    past_band = np.zeros((4, width), dtype=np.int64)
    band_start = np.zeros((4, bands), dtype=np.int64)
    band_end = np.zeros((4, bands), dtype=np.int64)
    past_belief = np.zeros((4, players, bands))
    past_kept = np.zeros((4, players, width), dtype=np.bool_)
    past_below = np.empty((4, players, width))
    past_mass = np.empty((4, players, width))
    if bayes:
        no_prior = np.ones((players, 1))
        pct = np.zeros(count)
        for t in range(r):
            if not round_has_chips(challenges, t) or round_count[t] == 0:
                continue
            bottom, top_lock = locked_chips(challenges, t, players)
            if bottom > 0 or top_lock > 0 or evidence_from.max() > t:
                continue
            replayed[t] = True
            hand_posteriors(
                chips,
                t,
                players,
                count,
                round_valid[t],
                hband,
                likelihood,
                evidence_from,
                public_ok,
                no_prior,
                False,
                past_weights[t],
                -1,
                4,
                hband,
            )
            index, sorted_values = rank_holdings(round_scores[t], round_valid[t], count, BOARD_SIZES[t], size, pct)
            n_t = sorted_values.shape[0]
            past_valid[t] = n_t
            for k in range(n_t):
                past_masks[t, k] = hold_masks[index[k]]
                for j in range(players):
                    past_sorted_weights[t, j, k] = past_weights[t, j, index[k]]
            past_values[t, :n_t] = sorted_values
            bayes_round_tables(
                index,
                sorted_values,
                past_weights[t],
                count,
                players,
                bands,
                past_pos[t],
                past_rank[t],
                past_band[t],
                band_start[t],
                band_end[t],
                past_belief[t],
            )
    return PastRounds(
        replayed,
        past_valid,
        past_masks,
        past_sorted_weights,
        past_values,
        past_pos,
        past_rank,
        past_band,
        band_start,
        band_end,
        past_belief,
        past_kept,
        past_below,
        past_mass,
    )


@kernel(refcounts=False)
def bayes_team_weight(
    held: np.ndarray,
    chips: np.ndarray,
    r: int,
    players: int,
    past: PastRounds,
    likelihood: np.ndarray,
    hband: np.ndarray,
    hold_masks: np.ndarray,
    int_work: np.ndarray,
    float_work: np.ndarray,
) -> float:
    """A drawn team's importance weight under bayes: over the replayed earlier rounds, the
    exact chance of the public chips (:func:`bayes_round_likelihood`) over the posteriors'
    approximation of it (every chip as independent evidence about its holder); 0 when a
    round's chips cannot come from this team. ``int_work`` and ``float_work``:
    :func:`bayes_round_likelihood_into`'s scratch."""
    weight = 1.0
    for t in range(r):
        if not past.replayed[t]:
            continue
        n_t = past.valid[t]
        chance = bayes_round_likelihood_into(
            held,
            chips[t],
            players,
            past.masks[t, :n_t],
            past.values[t, :n_t],
            past.sorted_weights[t],
            past.pos[t],
            past.rank[t],
            past.band[t],
            past.band_start[t],
            past.band_end[t],
            past.belief[t],
            hold_masks,
            past.kept[t],
            past.below[t],
            past.mass[t],
            int_work,
            float_work,
        )
        if chance == 0.0:
            return 0.0
        weight *= chance
        for j in range(players):
            weight /= likelihood[chips[t, j] - 1, hband[t, held[j]]]
    return weight
