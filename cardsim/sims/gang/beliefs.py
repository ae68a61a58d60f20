"""The bayes model's beliefs and claims: public posteriors over every teammate's holding,
the team-rank claims, and the private settle of equal claims (digest "Player models").

Information a card reveals reaches the model as filters over the holdings (announcements), as
a public prior (a Jack user's posterior carried over) or as a player's private view that
settles equal claims (Informant, Coordinator, Con Artist).
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.cards import best_drop_slot
from cardsim.sims.gang.holdings import category_floor, pocket_mask
from cardsim.sims.poker.cards import SUITLESS_JACK


@kernel
def hand_posteriors(
    chips: np.ndarray,
    r: int,
    players: int,
    count: int,
    valid: np.ndarray,
    hband: np.ndarray,
    likelihood: np.ndarray,
    evidence_from: np.ndarray,
    public_ok: np.ndarray,
    public_prior: np.ndarray,
    with_prior: bool,
    weights: np.ndarray,
    muscle_seat: int,
    muscle_from: int,
    muscle_band: np.ndarray,
) -> None:
    """Public posterior weight of every holding for every player: each earlier chip since the
    player's last redraw (or Jack) is evidence (likelihood of that chip given the holding's
    percentile band then; for the Muscle holder from the round they took it,
    ``muscle_band``: the band of the holding raised by the Muscle, the hand they claimed
    with), times the public announcements' filters and, ``with_prior``, the public prior (a
    Jack user's posterior carried over, :func:`jack_pushforward`)."""
    for j in range(players):
        for h in range(count):
            weights[j, h] = 1.0 if valid[h] and public_ok[j, h] else 0.0
            if with_prior:
                weights[j, h] *= public_prior[j, h]
        for t in range(evidence_from[j], r):
            chip = chips[t, j]
            if chip > 0:
                row = likelihood[chip - 1]
                band_row = muscle_band[t] if j == muscle_seat and t >= muscle_from else hband[t]
                for h in range(count):
                    weights[j, h] *= row[band_row[h]]


@kernel
def fill_team_ranks(cum: np.ndarray, values: np.ndarray, players: int, team_rank: np.ndarray) -> None:
    """Team rank F(s) / n of every sorted valid holding (``values`` nondecreasing): the
    expected share of the players publicly believed weaker (ties one half), from the players'
    running posterior sums ``cum`` (row j: cum[j, k] = weight of the k weakest holdings); a
    player with no posterior mass counts one half. Equal scores get one rank."""
    n_valid = values.shape[0]
    k = 0
    while k < n_valid:
        end = k
        while end + 1 < n_valid and values[end + 1] == values[k]:
            end += 1
        f = 0.0
        for j in range(players):
            mass = cum[j, n_valid]
            if mass > 0.0:
                f += (cum[j, k] + 0.5 * (cum[j, end + 1] - cum[j, k])) / mass
            else:
                f += 0.5
        for m in range(k, end + 1):
            team_rank[m] = f / players
        k = end + 1


@kernel
def bayes_claims(
    index: np.ndarray,
    values: np.ndarray,
    weights: np.ndarray,
    own: np.ndarray,
    players: int,
    bands: int,
    muscle_seat: int,
    ratings: np.ndarray,
    beliefs: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The bayes model's claims and contest beliefs for one round; returns the team rank and
    team band of every sorted valid holding (the band is the claim a hand of that score
    makes).

    ``index``/``values`` are the valid holdings sorted by score; ``weights[j]`` is the public
    posterior over player j's holding. A hand of score s has team rank F(s) = sum over all
    players j of P(S_j < s) (ties one half), the expected number of team members publicly
    believed weaker; player i claims F(own_i) / n. F is the same increasing function for
    everyone, so claims never invert two known hands. Contest beliefs: the public posterior mean of the claimant's F / n among the holdings that would
    make the same claim (:func:`claim_beliefs`).
    """
    n_valid = values.shape[0]
    cum = np.zeros((players, n_valid + 1))
    for k in range(n_valid):  # the players' running sums side by side (independent chains)
        h = index[k]
        for j in range(players):
            cum[j, k + 1] = cum[j, k] + weights[j, h]

    for i in range(players):
        total = 0.0
        for j in range(players):
            target = own[i]
            if j == muscle_seat and j != i:
                target = category_floor(own[i])  # the Muscle holder beats every same-ranking hand
            lo = np.searchsorted(values, target, side="left")
            hi = np.searchsorted(values, target, side="right")
            mass = cum[j, n_valid]
            below = cum[j, lo] + 0.5 * (cum[j, hi] - cum[j, lo])
            total += below / mass if mass > 0.0 else 0.5
        ratings[i] = total / players

    team_rank = np.zeros(n_valid)
    fill_team_ranks(cum, values, players, team_rank)
    team_band = np.empty(n_valid, dtype=np.int64)
    for k in range(n_valid):
        team_band[k] = min(int(team_rank[k] * bands), bands - 1)
    claim_beliefs(index, weights, team_rank, team_band, ratings, players, bands, beliefs)
    return team_rank, team_band


@kernel
def claim_beliefs(
    index: np.ndarray,
    weights: np.ndarray,
    team_rank: np.ndarray,
    team_band: np.ndarray,
    ratings: np.ndarray,
    players: int,
    bands: int,
    beliefs: np.ndarray,
) -> None:
    """Contest beliefs: player j's public posterior mean of the team rank among the holdings
    whose team band is the claim j made."""
    for j in range(players):
        claimed = min(int(ratings[j] * bands), bands - 1)
        acc = 0.0
        mass = 0.0
        for k in range(index.shape[0]):
            if team_band[k] == claimed:
                w = weights[j, index[k]]
                acc += w * team_rank[k]
                mass += w
        beliefs[j] = acc / mass if mass > 0.0 else ratings[j]


@kernel
def tie_bounds(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every sorted score, the first index of its tie group and one past its last."""
    n_valid = values.shape[0]
    start = np.empty(n_valid, dtype=np.int64)
    stop = np.empty(n_valid, dtype=np.int64)
    k = 0
    while k < n_valid:
        end = k
        while end + 1 < n_valid and values[end + 1] == values[k]:
            end += 1
        for m in range(k, end + 1):
            start[m] = k
            stop[m] = end + 1
        k = end + 1
    return start, stop


@kernel
def claimed_posteriors(
    index: np.ndarray, weights: np.ndarray, team_band: np.ndarray, bands_claimed: np.ndarray, players: int
) -> np.ndarray:
    """Public posterior of every player over the sorted valid holdings, kept to the holdings
    that make the claim the player made this round (everyone sees the claims in the dance)."""
    n_valid = index.shape[0]
    out = np.zeros((players, n_valid))
    for j in range(players):
        for k in range(n_valid):
            if team_band[k] == bands_claimed[j]:
                out[j, k] = weights[j, index[k]]
    return out


@kernel
def below_probability(dist: np.ndarray, start: np.ndarray, stop: np.ndarray, other: np.ndarray) -> float:
    """P(X < Y) (ties one half) for independent X ~ ``dist`` and Y ~ ``other``, both over the
    sorted valid holdings (unnormalised weights)."""
    n_valid = dist.shape[0]
    cum = np.zeros(n_valid + 1)
    for k in range(n_valid):
        cum[k + 1] = cum[k] + dist[k]
    total = 0.0
    mass = 0.0
    for k in range(n_valid):
        w = other[k]
        if w > 0.0:
            mass += w
            total += w * (cum[start[k]] + 0.5 * (cum[stop[k]] - cum[start[k]]))
    if mass <= 0.0 or cum[n_valid] <= 0.0:
        return 0.5
    return total / (mass * cum[n_valid])


@kernel
def informant_pair(
    keys: np.ndarray, bands_claimed: np.ndarray, players: int, claimed: np.ndarray, start: np.ndarray, stop: np.ndarray
) -> tuple[int, int, float]:
    """The pair the group asks to use the Informant (bayes): of the players next to each other
    in the chip order, the pair whose order is publicly most likely wrong (claimed posteriors;
    different claims are never in the wrong order). Middle pairs first on equal risk.
    Returns (lower seat, upper seat, risk)."""
    order = np.argsort(keys[:players])
    best_k = (players - 2) // 2
    best_risk = -1.0
    for step in range(players - 1):  # middle pair first, then outwards
        half = (step + 1) // 2
        k = (players - 2) // 2 + (half if step % 2 == 1 else -half)
        if k < 0 or k > players - 2:
            continue
        lo = order[k]
        hi = order[k + 1]
        risk = 0.0
        if bands_claimed[lo] == bands_claimed[hi]:
            risk = below_probability(claimed[hi], start, stop, claimed[lo])  # P(S_hi < S_lo)
        if risk > best_risk:
            best_risk = risk
            best_k = k
    return order[best_k], order[best_k + 1], best_risk


@kernel
def private_view(
    rival_dist: np.ndarray,
    index: np.ndarray,
    masks: np.ndarray,
    card: int,
    viewer_mask: int,
    prior_row: np.ndarray,
    with_prior: bool,
    out: np.ndarray,
) -> None:
    """A player's private view of a rival: the rival's claimed posterior kept to holdings
    without the player's own cards, and, as extra evidence, with the card the rival showed
    (``card`` >= 0, Informant) and times the player's private prior (``with_prior``, Con
    Artist: ``prior_row`` over all holdings)."""
    for k in range(rival_dist.shape[0]):
        h = index[k]
        if masks[h] & viewer_mask or (card >= 0 and not (masks[h] >> card) & 1):
            out[k] = 0.0
        elif with_prior:
            out[k] = rival_dist[k] * prior_row[h]
        else:
            out[k] = rival_dist[k]


@kernel
def viewer_is_above(private: np.ndarray, values: np.ndarray, own_score: int) -> float:
    """The viewer's private P(shower's hand < own hand) (ties one half)."""
    n_valid = private.shape[0]
    lo = np.searchsorted(values, own_score, side="left")
    hi = np.searchsorted(values, own_score, side="right")
    below = 0.0
    mass = 0.0
    for k in range(n_valid):
        w = private[k]
        mass += w
        if k < lo:
            below += w
        elif k < hi:
            below += 0.5 * w
    return below / mass if mass > 0.0 else 0.5


@kernel
def informant_card(
    shower: int,
    viewer: int,
    pockets: np.ndarray,
    size: int,
    shower_score: int,
    claimed: np.ndarray,
    index: np.ndarray,
    values: np.ndarray,
    masks: np.ndarray,
    start: np.ndarray,
    stop: np.ndarray,
) -> int:
    """The card the shower shows: the one that makes the viewer's decision most likely right.

    The shower knows their own pocket and score and the viewer's claimed posterior. The viewer
    will take the higher chip iff, with the shown card, they believe the shower is weaker; that
    is wrong exactly for viewer hands between the shower's true score and the median of the
    viewer's private view. The shower minimises that posterior mass (ties: the key card)."""
    n_valid = values.shape[0]
    private = np.zeros(n_valid)
    cum = np.zeros(n_valid + 1)
    shower_mask = pocket_mask(pockets[shower], size)
    best_slot = -1
    best_error = 2.0
    no_prior = np.ones(1)
    for slot in range(size):
        card = pockets[shower, slot]
        private_view(claimed[shower], index, masks, card, 0, no_prior, False, private)
        for k in range(n_valid):
            cum[k + 1] = cum[k] + private[k]
        mass = cum[n_valid]
        error = 0.0
        total = 0.0
        for k in range(n_valid):
            w = claimed[viewer, k]
            if w == 0.0 or masks[index[k]] & shower_mask:
                continue
            total += w
            s = values[k]
            if s == shower_score or mass <= 0.0:
                continue
            p_below = (cum[start[k]] + 0.5 * (cum[stop[k]] - cum[start[k]])) / mass
            if p_below == 0.5:
                continue
            if (p_below > 0.5) != (s > shower_score):
                error += w
        if total > 0.0:
            error /= total
        if error < best_error - 1e-12:
            best_error = error
            best_slot = slot
    return pockets[shower, best_slot]


@kernel(inline="always")
def _bits(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@kernel
def con_artist_prior(
    old_masks: np.ndarray,
    own_masks: np.ndarray,
    players: int,
    size: int,
    masks: np.ndarray,
    count: int,
    shown: int,
    out: np.ndarray,
) -> None:
    """Con Artist (9): each player's private prior over a teammate's holding (relative weights).

    Player i knows the pooled cards were exactly the old pockets, so the k old cards of theirs
    not back in their own pocket (set K) lie among the T = size * (players - 1) teammate
    cards; the other T - k teammate cards are a uniform draw from the M cards i cannot place
    (not in their pocket, not in K, not on the board), and a teammate's pocket is a uniform
    ``size``-subset of the teammate cards. So a holding with x cards of K has weight
    (T - k)(T - k - 1).../(M (M - 1)...) over its size - x unknown cards; holdings with one of
    i's own cards have weight 0."""
    teammates = size * (players - 1)
    for i in range(players):
        gone = old_masks[i] & ~own_masks[i]
        k = _bits(gone)
        unknown = 52 - size - k - shown
        for h in range(count):
            if masks[h] & own_masks[i]:
                out[i, h] = 0.0
                continue
            x = _bits(masks[h] & gone)
            weight = 1.0
            for t in range(size - x):
                weight *= max(teammates - k - t, 0) / (unknown - t)
            out[i, h] = weight


@kernel
def settle_equal_claims(
    keys: np.ndarray,
    bands_claimed: np.ndarray,
    players: int,
    claimed: np.ndarray,
    index: np.ndarray,
    values: np.ndarray,
    masks: np.ndarray,
    own: np.ndarray,
    own_masks: np.ndarray,
    shown_card: np.ndarray,
    prior: np.ndarray,
    with_prior: np.ndarray,
    redrawn: int,
    muscle_seat: int,
    votes: np.ndarray,
    forced_steps: int,
) -> int:
    """The bayes chip dance's private step: two players next to each other in the chip order
    with equal claims each compare their own hand with the rival's private view
    (:func:`private_view`: the rival's claimed posterior without their own cards, plus any
    extra evidence) and take the higher chip when P(rival weaker) > 1/2, leave it when < 1/2.

    Extra evidence of ``me`` about ``rival``: a card of the rival's they know
    (``shown_card[me, rival]`` >= 0: the card the rival showed them, Informant, or the card
    they passed to the rival, Coordinator) or their private prior (``with_prior[me]`` and the
    rival has not redrawn since, Con Artist). Who knows a rival's card is public (the group
    chose the Informant's pair; every Coordinator passer knows a card of their left
    neighbour), so when a claimant knows a card of the other only the claimants who do
    decide. Whether a Con Artist player learnt anything is private, so it never silences the
    rival: without a known card both decide, each on what they know. One decider decides
    alone, two must agree (else the public order stands). A rival holding the Muscle beats
    every hand of the viewer's ranking. Pairs are taken bottom up; returns the bit set of the
    steps (pairs, from the bottom) that swapped. Each claimant's vote goes to ``votes[seat,
    side]`` (side 0: as the lower of a pair, 1: as the upper; 1: take the higher chip, -1:
    leave it, 0: no vote). ``forced_steps`` >= 0 replays given swaps (the swap test)."""
    order = np.argsort(keys[:players])
    n_valid = values.shape[0]
    view = np.zeros(n_valid)
    cards_of = np.zeros(2, dtype=np.int64)
    uses_prior = np.zeros(2, dtype=np.bool_)
    swaps = 0
    votes[:, :] = 0
    for step in range(players - 1):
        lo_seat = order[step]
        hi_seat = order[step + 1]
        if bands_claimed[lo_seat] != bands_claimed[hi_seat]:
            continue
        knows_card = False
        for side in range(2):
            me = lo_seat if side == 0 else hi_seat
            rival = hi_seat if side == 0 else lo_seat
            cards_of[side] = shown_card[me, rival]
            uses_prior[side] = with_prior[me] and not (redrawn >> rival) & 1
            knows_card = knows_card or cards_of[side] >= 0
        flip = 0
        keep = 0
        for side in range(2):
            if knows_card and cards_of[side] < 0:
                continue
            me = lo_seat if side == 0 else hi_seat
            rival = hi_seat if side == 0 else lo_seat
            private_view(
                claimed[rival],
                index,
                masks,
                cards_of[side],
                own_masks[me],
                prior[me if uses_prior[side] else 0],
                uses_prior[side],
                view,
            )
            target = own[me]
            if rival == muscle_seat:
                target = category_floor(target)  # the rival beats every hand of my ranking
            p_me_above = viewer_is_above(view, values, target)
            if p_me_above != 0.5:
                votes[me, side] = 1 if p_me_above > 0.5 else -1
            if (side == 0 and p_me_above > 0.5) or (side == 1 and p_me_above < 0.5):
                flip += 1
            elif p_me_above != 0.5:
                keep += 1
        swap = flip > 0 and keep == 0
        if forced_steps >= 0:
            swap = (forced_steps >> step) & 1 == 1
        if swap:
            keys[lo_seat], keys[hi_seat] = keys[hi_seat], keys[lo_seat]
            order[step], order[step + 1] = hi_seat, lo_seat
            swaps |= 1 << step
    return swaps


@kernel
def jack_pushforward(
    user_weights: np.ndarray,
    hold_cards: np.ndarray,
    count: int,
    board: np.ndarray,
    shown: int,
    may_drop_jack: bool,
    out: np.ndarray,
) -> None:
    """The Jack user's public posterior after the Jack (bayes): everyone knows who took the
    Jack and that they keep the best hand, so each holding the user may have had moves its
    weight to the holding they end with: (kept card, Jack), or the old holding itself when
    the Jack may be discarded and that is best. ``out`` spans the holdings and, from index
    ``count``, the 52 Jack holdings."""
    board_mask = np.int64(0)
    for k in range(shown):
        board_mask |= np.int64(1) << board[k]
    out[:] = 0.0
    trial = np.empty(2, dtype=np.int64)
    for h in range(count):
        w = user_weights[h]
        if w == 0.0:
            continue
        trial[0] = hold_cards[h, 0]
        trial[1] = hold_cards[h, 1]
        if ((np.int64(1) << trial[0]) | (np.int64(1) << trial[1])) & board_mask:
            continue
        slot = best_drop_slot(trial, 2, SUITLESS_JACK, board, shown, may_drop_jack)
        if slot == 2:
            out[h] += w
        else:
            out[count + trial[1 - slot]] += w
