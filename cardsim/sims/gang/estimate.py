"""The group's decision to play a specialist (``--specialist-use helpful``): does the group, on
public information at the moment of use, expect the card to raise success?

Seed 000 ("THẺ CHUYÊN GIA"): the group decides who among them uses the Informant, Getaway
Driver, Mastermind, Hacker, Jack or Muscle; we read that it may also decide that nobody does
(digest "Specialist use"). The estimate reads only what is public at the start of the use round:
the chips of the earlier rounds, the community cards shown, who redrew, and the public
posteriors over every player's holding that the engine computes from them (``weights``). The
community cards still to come and every pocket are drawn by the estimate's own generator, so a
declined card leaves the heist exactly as without it and no hidden card is read
(``tests/gang/test_hidden_swap.py`` replays the decision with the hidden cards changed).
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.beliefs import _posteriors, fill_team_ranks, tie_bounds
from cardsim.sims.gang.cards import (
    best_drop_slot,
    card_rank,
    getaway_driver_category,
    locked_chips,
    mastermind_count,
    round_has_chips,
    swap_in_card,
)
from cardsim.sims.gang.holdings import (
    BOARD_SIZES,
    MAX_POCKET,
    N_PAIRS,
    card_positions,
    category_floor,
    count_sorted,
    hand_score,
    holder_of,
    holding_percentiles,
    muscle_score,
    order_by,
    own_out_counts,
    own_pair_counts,
    rank_holdings,
    score_holdings,
    sort_valid,
)
from cardsim.sims.gang.models import BAYES, HISTORY, PERCENTILE
from cardsim.sims.poker.cards import SUITLESS_JACK

ALWAYS, HELPFUL = 0, 1  # --specialist-use always / helpful
LEAKY_HELPFUL = 2  # not a reading: helpful with an estimate that reads every pocket (the
#                    hidden-card swap test uses it, to show that the test catches a leak)
LEAKY_BOARD_HELPFUL = 3  # not a reading either: an estimate that reads the undealt board
LEAKY_TILT_HELPFUL = 4  # not a reading either: an estimate whose team draws lean towards the
#                         true pockets (a soft leak: the swap test's bayes fixture catches it)
LEAK_TILT = 8.0  # LEAKY_TILT_HELPFUL: weight factor of holdings sharing a card with the pocket

ESTIMATE_SAMPLES = 512  # teams drawn per batch
ESTIMATE_BATCHES = 4  # batches at most: a gain that looks clear, or rests on too few effective
#                       teams, is checked on more teams before the card is played
ESTIMATE_BOARDS = 16  # completions of the board when community cards are still to come
ESTIMATE_MARGIN = 2.0  # the estimated gain must exceed this many standard errors
ESTIMATE_FIRST_LOOK = 128  # teams after which a card that changed no outcome is declined
ESTIMATE_MIN_TEAMS = 30  # effective teams (importance weights) below which nothing is played
ESTIMATE_TEAM_TRIES = 400  # draws of a whole team before giving up on it
KEY_NOISE = 1e-9  # bayes contest beliefs closer than this are equal up to rounding
TEAM_RANK_ROWS = 64  # bayes play-out: team rank tables kept per round and board completion


@kernel(inline="always")
def _lcg(state: int) -> int:
    """Next state of the estimate's own generator (keeps the heist's stream intact)."""
    return state * 6364136223846793005 + 1442695040888963407


@kernel(inline="always")
def _lcg_uniform(state: int) -> float:
    return ((state >> 11) & ((np.int64(1) << 53) - 1)) * (1.0 / 9007199254740992.0)


@kernel(inline="always")
def _unseen_card(state: int, seen: int) -> tuple[int, int]:
    """A uniformly random card not in the bit set ``seen``, and the generator's next state."""
    while True:
        state = _lcg(state)
        card = int(_lcg_uniform(state) * 52)
        if not (seen >> card) & 1:
            return card, state


@kernel(inline="always")
def pocket_mask(pockets: np.ndarray, player: int, size: int) -> np.int64:
    """The bit mask of a player's true pocket cards (the suitless Jack has no bit): the leaky
    estimates' view of the hidden cards, swap test only."""
    mask = np.int64(0)
    for s in range(size):
        if pockets[player, s] != SUITLESS_JACK:
            mask |= np.int64(1) << pockets[player, s]
    return mask


@kernel
def reveal_pockets(pockets: np.ndarray, players: int, size: int, hold_masks: np.ndarray,
                   count: int, weights: np.ndarray) -> None:
    """The deliberately leaky estimate (``LEAKY_HELPFUL``, swap test only): every player's
    posterior becomes their true holding (none, if it is not among the hypotheses)."""
    for j in range(players):
        mask = pocket_mask(pockets, j, size)
        for h in range(count):
            weights[j, h] = 1.0 if hold_masks[h] == mask else 0.0


@kernel
def tilt_to_pockets(pockets: np.ndarray, players: int, size: int, hold_masks: np.ndarray,
                    count: int, weights: np.ndarray) -> None:
    """The softly leaky estimate (``LEAKY_TILT_HELPFUL``, swap test only): every player's
    posterior weight of the holdings sharing a card with their true pocket times
    ``LEAK_TILT``."""
    for j in range(players):
        mask = pocket_mask(pockets, j, size)
        for h in range(count):
            if hold_masks[h] & mask:
                weights[j, h] *= LEAK_TILT


@kernel
def announcement_is_open(specialist: int, model: int, r: int, chips: np.ndarray, players: int,
                         size: int, board: np.ndarray, shown: int, hold_cards: np.ndarray,
                         hold_masks: np.ndarray, count: int, weights: np.ndarray) -> bool:
    """Getaway Driver (2) / Mastermind (4): only the bayes model reads announcements; it expects
    a gain when the answer is not already certain under the user's public posterior."""
    if model != BAYES:
        return False
    user = holder_of(chips, r, (players + 1) // 2, players, 0)
    asked = 0
    for k in range(shown):
        asked = max(asked, card_rank(board[k]))
    board_mask = np.int64(0)
    for k in range(shown):
        board_mask |= np.int64(1) << board[k]
    first = -1
    for h in range(count):
        if weights[user, h] == 0.0 or hold_masks[h] & board_mask:
            continue
        if specialist == 2:
            answer = getaway_driver_category(hand_score(hold_cards[h], size, board, shown))
        else:
            answer = mastermind_count(hold_cards[h], asked)
        if first < 0:
            first = answer
        elif answer != first:
            return True
    return False


@kernel
def claim_curve(n_valid: int) -> np.ndarray:
    """The claim a hand makes on one board under the percentile and history models, as the
    estimate plays it: ``curve[k]`` is the share of valid holdings below the ``k`` weakest (a
    score's rating is the curve at its tie group's middle). Bayes plays its rounds with
    :func:`bayes_playout_round`."""
    curve = np.zeros(n_valid + 1)
    for k in range(n_valid + 1):
        curve[k] = k / max(n_valid, 1)
    return curve


@kernel
def holding_rating(h: int, scores: np.ndarray, valid: np.ndarray, values: np.ndarray,
                   hold_cards: np.ndarray, hold_masks: np.ndarray, count: int,
                   size: int) -> float:
    """The percentile a player holding ``h`` claimed in an earlier round (percentile and history
    models): among the holdings valid then without ``h``'s cards, ties one half (as
    :func:`holdings.pair_percentiles`); ``scores``/``valid``/``values`` are that round's."""
    target = scores[h]
    less = np.searchsorted(values, target, side="left")
    equal = np.searchsorted(values, target, side="right") - less
    total = values.shape[0]
    if size == 2 and h < N_PAIRS:
        out_total, out_less, out_equal = own_pair_counts(hold_cards[h, 0], hold_cards[h, 1],
                                                         scores, valid, target, hold_cards)
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


@kernel
def chips_likelihood_ratio(held: np.ndarray, chips: np.ndarray, r: int, players: int,
                           bands: int, model: int, hidden_history: bool, challenges: int,
                           evidence_from: np.ndarray, likelihood: np.ndarray, hband: np.ndarray,
                           round_scores: np.ndarray, round_valid: np.ndarray,
                           round_values: np.ndarray, round_count: np.ndarray,
                           hold_cards: np.ndarray, hold_masks: np.ndarray, count: int,
                           size: int, rated: np.ndarray) -> float:
    """Importance weight of a team drawn from the public posteriors (percentile, history).

    The posteriors treat each player's chips as independent evidence
    (``likelihood[chip - 1, band]``, a model of the others as uniform claims). The chips of a
    round are in fact one sorting of the whole team's claims: under the percentile and history
    models a team's claims place the chips exactly, up to random order within equal claim keys.
    The weight is that exact probability of the public chips divided by the posteriors'
    product, round by round (rounds with a lock, where a random claimant keeps the chip, keep
    the posteriors' approximation); 0 for a team the public chips rule out. ``rated[t, h]``
    keeps each holding's claim key part (its band) once computed (-1: not yet).
    """
    weight = 1.0
    keys = np.zeros(players)
    known = np.zeros(players, dtype=np.bool_)
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
                rating = holding_rating(h, round_scores[t], round_valid[t],
                                        round_values[t, :n_values], hold_cards, hold_masks,
                                        count, size)
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


@kernel
def weight_below(sorted_masks: np.ndarray, values: np.ndarray, rival_weights: np.ndarray,
                 mine: int, target: int, lo: int, hi: int) -> tuple[float, float]:
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
def bayes_round_tables(index: np.ndarray, values: np.ndarray, weights: np.ndarray, count: int,
                       players: int, bands: int, pos: np.ndarray, team_rank: np.ndarray,
                       team_band: np.ndarray, band_start: np.ndarray, band_end: np.ndarray,
                       belief: np.ndarray) -> None:
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
def bayes_round_likelihood(held: np.ndarray, chips_row: np.ndarray, players: int,
                           sorted_masks: np.ndarray, values: np.ndarray,
                           sorted_weights: np.ndarray, pos: np.ndarray, team_rank: np.ndarray,
                           team_band: np.ndarray, band_start: np.ndarray, band_end: np.ndarray,
                           belief: np.ndarray, hold_masks: np.ndarray, kept: np.ndarray,
                           kept_below: np.ndarray, kept_mass: np.ndarray) -> float:
    """P(this round's public chips | the drawn team ``held``) under the bayes claim rule: each
    player claims the team band of their holding, the keys are band then contest belief
    (equal keys in random order: every order is enumerated, at most 6! of them), then
    the private settle of equal claims next to each other, bottom up
    (:func:`beliefs.settle_equal_claims` without cards or priors: each of the two compares
    their hand with the rival's claimed posterior without their own cards; a vote to move and
    none to stay swaps them). Exact, no sampling. A rival's weight below a holding depends
    only on the two and the round's tables: it is kept in ``kept_below[rival, h]`` and
    ``kept_mass[rival, h]`` once ``kept[rival, h]``."""
    band = np.zeros(players, dtype=np.int64)
    key = np.zeros(players)
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
    above = np.full((players, players), 0.5)
    for me in range(players):
        h = held[me]
        for rival in range(players):
            if rival == me or band[rival] != band[me]:
                continue
            if not kept[rival, h]:
                b = band[me]
                kept_below[rival, h], kept_mass[rival, h] = weight_below(
                    sorted_masks, values, sorted_weights[rival], hold_masks[h], values[pos[h]],
                    band_start[b], band_end[b])
                kept[rival, h] = True
            below = kept_below[rival, h]
            mass = kept_mass[rival, h]
            if mass > 0.0:
                above[me, rival] = below / mass
    # the keys' order; equal keys (equal up to rounding: the engine's random tie-break, 1e-6,
    # outweighs it) next to each other, each of their orders equally likely: all enumerated
    base = np.zeros(players, dtype=np.int64)
    for j in range(players):
        below = 0
        for q in range(players):
            if band[q] < band[j] or (band[q] == band[j] and (key[q] < key[j] or (
                    key[q] == key[j] and q < j))):
                below += 1
        base[below] = j
    total = 1
    k = 0
    while k < players:
        end = k
        while end + 1 < players and band[base[end + 1]] == band[base[end]] \
                and key[base[end + 1]] - key[base[end]] <= KEY_NOISE:
            end += 1
        for m in range(2, end - k + 2):
            total *= m
        k = end + 1
    order = np.zeros(players, dtype=np.int64)
    pool = np.zeros(players, dtype=np.int64)
    hits = 0
    for combo in range(total):
        code = combo
        k = 0
        while k < players:  # decode this combination's order of every tie group
            end = k
            while end + 1 < players and band[base[end + 1]] == band[base[end]] \
                    and key[base[end + 1]] - key[base[end]] <= KEY_NOISE:
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


@kernel
def fill_playout_posterior(base_row: np.ndarray, index: np.ndarray, n_valid: int, r: int, t: int,
                           code: int, base: int, likelihood: np.ndarray, band_rows: np.ndarray,
                           out_w: np.ndarray, out_cum: np.ndarray) -> None:
    """One player's bayes posterior in round ``t`` of the play-out, over the sorted valid
    holdings of that round's board (``index``): the use round's public posterior ``base_row``
    times the likelihood of each chip the player took in the play-out's rounds ``r .. t-1``
    (``code``: chip of round ``r + m`` is digit ``m`` in base ``base``, 0 = no chip round),
    read with that round's band of the holding (``band_rows[u, h]``: its percentile band, or
    for the Muscle holder the band of the raised holding), exactly as :func:`beliefs._posteriors`
    updates the game's posteriors after every chip round. ``out_cum`` is the running sum."""
    out_cum[0] = 0.0
    for k in range(n_valid):
        h = index[k]
        w = base_row[h]
        if w > 0.0:
            c = code
            for u in range(r, t):
                chip = c % base
                c //= base
                if chip > 0:
                    w *= likelihood[chip - 1, band_rows[u, h]]
        out_w[k] = w
        out_cum[k + 1] = out_cum[k] + w


@kernel(inline="always")
def _playout_team_rank(k: int, cum: np.ndarray, slot_of: np.ndarray, code_of: np.ndarray,
                       players: int, n_valid: int, tie_lo: np.ndarray,
                       tie_hi: np.ndarray) -> float:
    """Team rank F/n of sorted position ``k`` under the play-out's current posteriors (as
    :func:`beliefs.fill_team_ranks`)."""
    f = 0.0
    a = tie_lo[k]
    z = tie_hi[k]
    for j in range(players):
        c = cum[slot_of[j], code_of[j]]
        mass = c[n_valid]
        if mass > 0.0:
            f += (c[a] + 0.5 * (c[z] - c[a])) / mass
        else:
            f += 0.5
    return f / players


@kernel(inline="always")
def _kept_team_rank(k: int, cum: np.ndarray, slot_of: np.ndarray, code_of: np.ndarray,
                    players: int, n_valid: int, tie_lo: np.ndarray, tie_hi: np.ndarray,
                    memo: np.ndarray, stamps: np.ndarray, stamp: int) -> float:
    """:func:`_playout_team_rank`, kept in ``memo[k]`` (valid where ``stamps[k] == stamp``,
    :func:`_team_rank_memo_row`): the rank depends only on the posteriors every player is
    read with (``slot_of``, ``code_of``), which many teams of one board share."""
    if stamps[k] != stamp:
        memo[k] = _playout_team_rank(k, cum, slot_of, code_of, players, n_valid, tie_lo,
                                     tie_hi)
        stamps[k] = stamp
    return memo[k]


@kernel
def _playout_band_start(b: int, cum: np.ndarray, slot_of: np.ndarray, code_of: np.ndarray,
                        players: int, n_valid: int, bands: int, tie_lo: np.ndarray,
                        tie_hi: np.ndarray, memo: np.ndarray, stamps: np.ndarray,
                        stamp: int) -> int:
    """First sorted position whose team band is at least ``b`` (team ranks never fall)."""
    lo = 0
    hi = n_valid
    while lo < hi:
        mid = (lo + hi) // 2
        f = _kept_team_rank(mid, cum, slot_of, code_of, players, n_valid, tie_lo, tie_hi,
                            memo, stamps, stamp)
        if min(int(f * bands), bands - 1) >= b:
            hi = mid
        else:
            lo = mid + 1
    return lo


@kernel
def bayes_playout_round(t: int, variant: int, user: int, specialist: int, players: int,
                        bands: int, hands: np.ndarray, held: np.ndarray, trial: np.ndarray,
                        size: int, ties: np.ndarray, values: np.ndarray, n_valid: int,
                        tie_lo: np.ndarray, tie_hi: np.ndarray, w_sorted: np.ndarray,
                        cum: np.ndarray, slot_of: np.ndarray, code_of: np.ndarray,
                        index: np.ndarray, hold_masks: np.ndarray, order: np.ndarray,
                        memo: np.ndarray, stamps: np.ndarray, stamp: int) -> None:
    """One round of the bayes play-out, as the game plays it (:func:`beliefs.bayes_claims`,
    :func:`beliefs.claim_beliefs`, :func:`beliefs.settle_equal_claims` without cards or priors)
    from the play-out's own posteriors of that round (``w_sorted``/``cum`` per player slot and
    chip code: the use round's posteriors updated with the play-out's earlier chips):

    - claim: team rank F(own)/n, where against the Muscle holder a hand counts as the floor of
      its ranking (the holder beats every hand of it);
    - contest belief: the posterior mean team rank over the holdings making the same claim;
    - private settle of equal claims next to each other, bottom up: each of the two compares
      their hand with the rival's posterior kept to the claim, without their own cards.

    ``values[t, :n_valid]`` are the round's sorted holding scores. Writes the chip order
    (lowest chip first) to ``order``. Team ranks are kept in ``memo``
    (:func:`_kept_team_rank`)."""
    muscle = variant == 1 and specialist == 10
    claimed = np.zeros(players, dtype=np.int64)
    ratings = np.zeros(players)
    keys = np.zeros(players)
    lo_of = np.zeros(players, dtype=np.int64)
    hi_of = np.zeros(players, dtype=np.int64)
    for i in range(players):
        total = 0.0
        for j in range(players):
            target = hands[variant, t, i]
            if muscle and j == user and i != user:
                target = category_floor(target)
            lo = count_sorted(values, t, n_valid, target, False)
            hi = count_sorted(values, t, n_valid, target, True)
            c = cum[slot_of[j], code_of[j]]
            mass = c[n_valid]
            total += (c[lo] + 0.5 * (c[hi] - c[lo])) / mass if mass > 0.0 else 0.5
        ratings[i] = total / players
        claimed[i] = min(int(ratings[i] * bands), bands - 1)
    for i in range(players):
        b = claimed[i]
        found = -1
        for q in range(i):
            if claimed[q] == b:
                found = q
                break
        if found >= 0:
            lo_of[i] = lo_of[found]
            hi_of[i] = hi_of[found]
        else:
            lo_of[i] = _playout_band_start(b, cum, slot_of, code_of, players, n_valid, bands,
                                           tie_lo, tie_hi, memo, stamps, stamp)
            hi_of[i] = _playout_band_start(b + 1, cum, slot_of, code_of, players, n_valid,
                                           bands, tie_lo, tie_hi, memo, stamps,
                                           stamp) if b + 1 < bands else n_valid
        w = w_sorted[slot_of[i], code_of[i]]
        acc = 0.0
        mass = 0.0
        for k in range(lo_of[i], hi_of[i]):
            if w[k] > 0.0:
                if stamps[k] != stamp:  # :func:`_kept_team_rank`, written out in this loop
                    memo[k] = _playout_team_rank(k, cum, slot_of, code_of, players, n_valid,
                                                 tie_lo, tie_hi)
                    stamps[k] = stamp
                acc += w[k] * memo[k]
                mass += w[k]
        belief = acc / mass if mass > 0.0 else ratings[i]
        keys[i] = b + 0.999 * (belief + 1e-6 * ties[t, i])
    order_by(keys, players, order)
    for step in range(players - 1):
        lo_seat = order[step]
        hi_seat = order[step + 1]
        if claimed[lo_seat] != claimed[hi_seat]:
            continue
        flip = 0
        keep = 0
        for side in range(2):
            me = lo_seat if side == 0 else hi_seat
            rival = hi_seat if side == 0 else lo_seat
            target = hands[variant, t, me]
            if muscle and rival == user:
                target = category_floor(target)
            mine = np.int64(0)
            if variant == 1 and me == user:
                for s in range(size):
                    if trial[s] != SUITLESS_JACK:
                        mine |= np.int64(1) << trial[s]
            else:
                mine = hold_masks[held[me]]
            w = w_sorted[slot_of[rival], code_of[rival]]
            below = 0.0
            mass = 0.0
            for k in range(lo_of[rival], hi_of[rival]):
                if w[k] == 0.0 or hold_masks[index[k]] & mine:
                    continue
                mass += w[k]
                if values[t, k] < target:
                    below += w[k]
                elif values[t, k] == target:
                    below += 0.5 * w[k]
            above = below / mass if mass > 0.0 else 0.5
            if (side == 0 and above > 0.5) or (side == 1 and above < 0.5):
                flip += 1
            elif above != 0.5:
                keep += 1
        if flip > 0 and keep == 0:
            order[step] = hi_seat
            order[step + 1] = lo_seat


@kernel
def _team_rank_memo_row(memo_keys: np.ndarray, memo_used: np.ndarray, memo_stamp: np.ndarray,
                        stamp_counter: np.ndarray, ti: int, key: int) -> int:
    """The row of the team rank table (:func:`_playout_team_rank`) of posterior choice ``key``
    in play-out round ``ti``: found by open addressing in ``memo_keys[ti]`` (-1: free), or
    taken for it with a new stamp, which voids what the row held before; a full table is
    emptied first."""
    rows = memo_keys.shape[1]
    row = key % rows
    while memo_keys[ti, row] != key and memo_keys[ti, row] != -1:
        row = (row + 1) % rows
    if memo_keys[ti, row] == key:
        return row
    if memo_used[ti] >= rows // 2:
        memo_keys[ti, :] = -1
        memo_used[ti] = 0
        row = key % rows
    memo_keys[ti, row] = key
    memo_used[ti] += 1
    stamp_counter[0] += 1
    memo_stamp[ti, row] = stamp_counter[0]
    return row


@kernel
def hand_card_gain(
    specialist: int, model: int, r: int, chips: np.ndarray, players: int, size: int,
    bands: int, board: np.ndarray, shown: int, boost_star_top: bool, hold_cards: np.ndarray,
    hold_masks: np.ndarray, count: int, weights: np.ndarray, hidden_history: bool,
    jack_stays: bool, seed: int, challenges: int, likelihood: np.ndarray, hband: np.ndarray,
    evidence_from: np.ndarray, round_scores: np.ndarray, round_valid: np.ndarray,
    round_values: np.ndarray, round_count: np.ndarray, public_ok: np.ndarray,
) -> bool:
    """Hacker (5), Jack (7), Muscle (10): a public Monte Carlo estimate of the card's gain.

    Teams are drawn from the public posteriors (``weights``: every earlier chip as evidence,
    holdings sharing no card); each team is then weighted by the exact chance of the public
    chips given the team over the posteriors' approximation of it: for percentile and history
    from the claim keys (:func:`chips_likelihood_ratio`), for bayes by replaying each earlier
    round's claims, contest beliefs and private settle from that round's public posteriors
    (:func:`bayes_round_tables`, :func:`bayes_round_likelihood`). When community cards are still to come,
    the board is completed at random (``ESTIMATE_BOARDS`` completions from the unseen cards,
    the teams drawn without those cards). Each team is then played from the use round to the
    showdown, with and without the card on the same draws: every round the model's own claims
    (a hand's rating on that round's board, without the holdings that use its own cards)
    and contest rule give the chips; bayes plays every round as the game does
    (:func:`bayes_playout_round`: claims, contest beliefs and private settle, a hand counted
    as the floor of its ranking against the Muscle holder) from posteriors updated after
    every play-out chip round (:func:`fill_playout_posterior`), as the game updates its own.
    The red chips are then checked against the final hands. Left out: locks and redraws after
    the use round, the scans, and (Jack) the Jack holdings in the user's later posterior. The
    card is played iff its weighted gain is clearly above 0 (:func:`clear_gain`) on
    ``ESTIMATE_BATCHES`` batches of ``ESTIMATE_SAMPLES`` teams: after each batch the card is
    declined unless the gain so far looks clear or rests on too few effective teams
    (:func:`more_teams_needed`); after
    ``ESTIMATE_FIRST_LOOK`` teams in which the card changed no outcome it is declined.
    """
    top = specialist == 10 or boost_star_top
    user = holder_of(chips, r, players if top else 1, players, 0)
    exact = model != BAYES
    boards = 1 if shown == 5 else ESTIMATE_BOARDS
    per_board = ESTIMATE_SAMPLES // boards
    rated = np.full((4, count if exact else 1), -1, dtype=np.int64)
    cum = np.zeros((players, count + 1))
    for j in range(players):
        for h in range(count):
            cum[j, h + 1] = cum[j, h] + weights[j, h]
        if cum[j, count] <= 0.0:
            return False

    # bayes: each earlier round's claim tables, from that round's public posteriors, to weight
    # a drawn team by the chance of the public chips under bayes's own claim and settle rule
    # (rounds with a lock, or a player whose claim came from a pocket since redrawn, keep the
    # posteriors' approximation)
    replayed = np.zeros(4, dtype=np.bool_)
    width = 1 if exact else count
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
    if not exact:
        no_prior = np.ones((players, 1))
        pct = np.zeros(count)
        for t in range(r):
            if not round_has_chips(challenges, t) or round_count[t] == 0:
                continue
            bottom, top_lock = locked_chips(challenges, t, players)
            if bottom > 0 or top_lock > 0 or evidence_from.max() > t:
                continue
            replayed[t] = True
            _posteriors(chips, t, players, count, round_valid[t], hband, likelihood,
                        evidence_from, public_ok, no_prior, False, past_weights[t], -1, 4,
                        hband)
            index, sorted_values = rank_holdings(round_scores[t], round_valid[t], count,
                                                 BOARD_SIZES[t], size, pct)
            n_t = sorted_values.shape[0]
            past_valid[t] = n_t
            for k in range(n_t):
                past_masks[t, k] = hold_masks[index[k]]
                for j in range(players):
                    past_sorted_weights[t, j, k] = past_weights[t, j, index[k]]
            past_values[t, :n_t] = sorted_values
            bayes_round_tables(index, sorted_values, past_weights[t], count, players, bands,
                               past_pos[t], past_rank[t], past_band[t], band_start[t],
                               band_end[t], past_belief[t])

    full = np.zeros(5, dtype=np.int64)
    seen = np.int64(0)
    for k in range(shown):
        full[k] = board[k]
        seen |= np.int64(1) << board[k]
    state = np.int64(seed) * 2654435761 + 12345
    board_valid = np.zeros((4, count), dtype=np.bool_)
    board_scores = np.zeros((4, count), dtype=np.int64)
    # percentile and history rate a two-card hand without the holdings that use its own cards
    # (:func:`holdings.pair_percentiles`), exactly as in the game
    own_out = exact and size == 2
    card_pos = np.empty((4 if own_out else 1, 52, 51), dtype=np.int64)
    card_n = np.zeros((4 if own_out else 1, 52), dtype=np.int64)
    values = np.zeros((4, count), dtype=np.int64)
    n_values = np.zeros(4, dtype=np.int64)
    curves = np.zeros((4, count + 1))
    sorted_index = np.zeros((4, count), dtype=np.int64)
    held = np.zeros(players, dtype=np.int64)
    hands = np.zeros((2, 4, players), dtype=np.int64)
    ties = np.zeros((4, players))
    keys = np.zeros(players)
    played = np.zeros((4, players), dtype=np.int64)
    # percentile/history: each player's claim band per round in the play-out without the card
    bands_without = np.zeros((4, players), dtype=np.int64)
    trial = np.empty(MAX_POCKET, dtype=np.int64)
    wins = np.zeros(2)
    sample_weight = np.zeros(ESTIMATE_SAMPLES * ESTIMATE_BATCHES)
    sample_gain = np.zeros(ESTIMATE_SAMPLES * ESTIMATE_BATCHES)
    sample_board = np.zeros(ESTIMATE_SAMPLES * ESTIMATE_BATCHES, dtype=np.int64)
    n_samples = 0
    # bayes: the play-out's posteriors of every later round are the use round's updated with
    # the play-out's own chips (as the game updates them after every chip round), cached per
    # board completion, round, player slot (slot ``players``: the Muscle holder with the card,
    # whose chips read as claims of the raised holding) and chip code of the rounds since
    # the use round
    base = players + 1
    codes = 1 if exact else base ** (3 - r)
    later = 1 if exact else 4 - r
    cache_w = np.empty((later, players + 1, codes, count if not exact else 1))
    cache_cum = np.empty((later, players + 1, codes, count + 1 if not exact else 1))
    cache_ok = np.zeros((later, players + 1, codes), dtype=np.bool_)
    # bayes: the team ranks of the play-out's sorted holdings, per round and the posterior
    # every player is read with (slot and chip code: ``memo_key``, one digit of base
    # (players + 1) * codes per player: below 343**6 < 2**63 for the use rounds there are, the
    # flop and the river; a pre-flop use would need another key), shared by the teams of one
    # board completion that play alike (:func:`_team_rank_memo_row`)
    memo_rows = 1 if exact else TEAM_RANK_ROWS
    memo_keys = np.full((later, memo_rows), -1, dtype=np.int64)
    memo_used = np.zeros(later, dtype=np.int64)
    memo_stamp = np.zeros((later, memo_rows), dtype=np.int64)
    stamp_counter = np.zeros(1, dtype=np.int64)
    rank_memo = np.empty((later, memo_rows, 1 if exact else count))
    rank_stamps = np.zeros((later, memo_rows, 1 if exact else count), dtype=np.int64)
    play_band = np.zeros((4, width), dtype=np.int64)
    play_mband = np.zeros((4, width), dtype=np.int64)
    tie_lo = np.zeros((4, width), dtype=np.int64)
    tie_hi = np.zeros((4, width), dtype=np.int64)
    play_pct = np.zeros(width)
    slot_of = np.zeros(players, dtype=np.int64)
    code_of = np.zeros(players, dtype=np.int64)
    order = np.zeros(players, dtype=np.int64)  # a round's chip order, lowest chip first
    for b in range(boards * ESTIMATE_BATCHES):
        if n_samples >= ESTIMATE_FIRST_LOOK and not sample_gain[:n_samples].any():
            return False  # the card changed no outcome so far: no clear gain can follow
        if b > 0 and b % boards == 0 and not more_teams_needed(
                sample_weight[:n_samples], sample_gain[:n_samples], sample_board[:n_samples]):
            return False  # a batch done: no clear gain on enough effective teams
        full_mask = seen
        for k in range(shown, 5):
            card, state = _unseen_card(state, full_mask)
            full[k] = card
            full_mask |= np.int64(1) << card
        for t in range(r, 4):  # the claim curves of the rounds still to play on this board
            if b > 0 and BOARD_SIZES[t] == shown:
                continue  # the current board: the same for every completion
            score_holdings(hold_cards, hold_masks, count, size, full, BOARD_SIZES[t],
                           board_valid[t], board_scores[t])
            index, sorted_values = sort_valid(board_scores[t], board_valid[t], count)
            n_values[t] = sorted_values.shape[0]
            values[t, :n_values[t]] = sorted_values
            sorted_index[t, :n_values[t]] = index
            if exact:
                curves[t, :n_values[t] + 1] = claim_curve(n_values[t])
                if own_out:
                    card_positions(index, n_values[t], hold_cards, card_pos[t], card_n[t])
            else:
                n_t = n_values[t]
                holding_percentiles(index, sorted_values, play_pct)
                for k in range(n_t):
                    h = index[k]
                    play_band[t, h] = min(int(play_pct[h] * bands), bands - 1)
                    if specialist == 10:  # the band the Muscle holder claims with
                        raised = muscle_score(sorted_values[k])
                        below = np.searchsorted(sorted_values, raised, side="left")
                        play_mband[t, h] = min(int(below / n_t * bands), bands - 1)
                start_t, stop_t = tie_bounds(sorted_values)
                tie_lo[t, :n_t] = start_t
                tie_hi[t, :n_t] = stop_t
                cache_ok[t - r] = False
                memo_keys[t - r] = -1
                memo_used[t - r] = 0
        for team in range(per_board):
            if team % ESTIMATE_FIRST_LOOK == 0 and n_samples >= ESTIMATE_FIRST_LOOK \
                    and not sample_gain[:n_samples].any():
                return False
            # every player's holding from their posterior, independently; a team sharing a
            # card (with each other or the board) is drawn again whole, so teams come in
            # proportion to the product of the posteriors over the teams that can exist (a
            # player redrawn alone would favour teams whose earlier members leave them little)
            ok = False
            used = full_mask
            for _try in range(ESTIMATE_TEAM_TRIES):
                used = full_mask
                ok = True
                for j in range(players):
                    state = _lcg(state)
                    drawn = _lcg_uniform(state) * cum[j, count]
                    h = count_sorted(cum, j, count + 1, drawn, True) - 1
                    h = min(max(h, 0), count - 1)
                    if weights[j, h] <= 0.0 or hold_masks[h] & used:
                        ok = False
                        break
                    held[j] = h
                    used |= hold_masks[h]
                if ok:
                    break
            if not ok:
                continue
            weight = 1.0
            if exact:
                weight = chips_likelihood_ratio(
                    held, chips, r, players, bands, model, hidden_history, challenges,
                    evidence_from, likelihood, hband, round_scores, round_valid, round_values,
                    round_count, hold_cards, hold_masks, count, size, rated)
                if weight == 0.0:
                    continue
            else:
                for t in range(r):
                    if not replayed[t]:
                        continue
                    n_t = past_valid[t]
                    chance = bayes_round_likelihood(
                        held, chips[t], players, past_masks[t, :n_t], past_values[t, :n_t],
                        past_sorted_weights[t], past_pos[t], past_rank[t], past_band[t],
                        band_start[t], band_end[t], past_belief[t], hold_masks, past_kept[t],
                        past_below[t], past_mass[t])
                    if chance == 0.0:
                        weight = 0.0
                        break
                    weight *= chance
                    for j in range(players):
                        weight /= likelihood[chips[t, j] - 1, hband[t, held[j]]]
                if weight == 0.0:
                    continue
            for t in range(4):
                for j in range(players):
                    state = _lcg(state)
                    ties[t, j] = _lcg_uniform(state)
            for s in range(size):
                trial[s] = hold_cards[held[user], s]
            if specialist != 10:
                new_card = SUITLESS_JACK
                if specialist == 5:
                    new_card, state = _unseen_card(state, used)
                slot = best_drop_slot(trial, size, new_card, full, shown,
                                      specialist == 5 or not jack_stays)
                swap_in_card(trial, size, new_card, slot)
            for t in range(r, 4):  # every hand on every round's board, without / with the card
                for j in range(players):
                    plain = hand_score(hold_cards[held[j]], size, full, BOARD_SIZES[t])
                    hands[0, t, j] = plain
                    hands[1, t, j] = plain
                if specialist == 10:
                    hands[1, t, user] = muscle_score(hands[0, t, user])
                else:
                    hands[1, t, user] = hand_score(trial, size, full, BOARD_SIZES[t])
            wins[:] = 0.0
            for variant in range(2):
                for t in range(r):
                    for j in range(players):
                        played[t, j] = chips[t, j]
                for t in range(r, 4):
                    for j in range(players):
                        played[t, j] = 0
                    if not round_has_chips(challenges, t):
                        continue
                    n_t = n_values[t]
                    if not exact:
                        ti = t - r
                        memo_key = 0
                        for j in range(players):
                            slot = players if (variant == 1 and specialist == 10
                                               and j == user) else j
                            code = 0
                            mult = 1
                            for u in range(r, t):
                                code += played[u, j] * mult
                                mult *= base
                            if not cache_ok[ti, slot, code]:
                                fill_playout_posterior(
                                    weights[user if slot == players else j],
                                    sorted_index[t, :n_t], n_t, r, t, code, base, likelihood,
                                    play_mband if slot == players else play_band,
                                    cache_w[ti, slot, code], cache_cum[ti, slot, code])
                                cache_ok[ti, slot, code] = True
                            slot_of[j] = slot
                            code_of[j] = code
                            memo_key = memo_key * ((players + 1) * codes) + slot * codes + code
                        row = _team_rank_memo_row(memo_keys, memo_used, memo_stamp,
                                                  stamp_counter, ti, memo_key)
                        bayes_playout_round(t, variant, user, specialist, players, bands, hands,
                                            held, trial, size, ties, values, n_t,
                                            tie_lo[t], tie_hi[t], cache_w[ti], cache_cum[ti],
                                            slot_of, code_of, sorted_index[t], hold_masks,
                                            order, rank_memo[ti, row], rank_stamps[ti, row],
                                            memo_stamp[ti, row])
                        for k in range(players):
                            played[t, order[k]] = k + 1
                        continue
                    scores_t = board_scores[t]
                    valid_t = board_valid[t]
                    for j in range(players):
                        if variant == 1 and j != user:
                            band = bands_without[t, j]  # the same hand as without the card
                        else:
                            score = hands[variant, t, j]
                            lo = count_sorted(values, t, n_t, score, False)
                            hi = count_sorted(values, t, n_t, score, True)
                            rating = 0.5 * (curves[t, lo] + curves[t, hi])
                            if own_out:
                                if variant == 1:
                                    first, second = trial[0], trial[1]
                                else:
                                    first, second = hold_cards[held[j], 0], hold_cards[held[j], 1]
                                out_total, out_less, out_equal = own_out_counts(
                                    first, second, lo, hi, card_pos[t], card_n[t], scores_t,
                                    valid_t, score)
                                rating = (lo - out_less + 0.5 * (hi - lo - out_equal)) / max(
                                    n_t - out_total, 1)
                            band = min(int(rating * bands), bands - 1)
                            if variant == 0:
                                bands_without[t, j] = band
                        if model == PERCENTILE:
                            keys[j] = band + ties[t, j]
                        else:
                            key = float(band)
                            for u in range(t - 1, -1, -1):
                                key = key * 8.0 + (0.0 if hidden_history else played[u, j])
                            keys[j] = key * 8.0 + ties[t, j]
                    order_by(keys, players, order)
                    for k in range(players):
                        played[t, order[k]] = k + 1
                order_by(played[3], players, order)
                in_order = True
                for k in range(1, players):
                    if hands[variant, 3, order[k]] < hands[variant, 3, order[k - 1]]:
                        in_order = False
                        break
                if in_order:
                    wins[variant] = 1.0
            sample_weight[n_samples] = weight
            sample_gain[n_samples] = wins[1] - wins[0]
            sample_board[n_samples] = b if shown < 5 else 0  # river: every team its own draw
            n_samples += 1
    return clear_gain(sample_weight[:n_samples], sample_gain[:n_samples],
                      sample_board[:n_samples])


@kernel
def more_teams_needed(weight: np.ndarray, gain: np.ndarray, cluster: np.ndarray) -> bool:
    """After a batch of teams: draw another one when the gain looks clear (so that a card is
    played only if the gain is still clear on ``ESTIMATE_BATCHES`` batches: one batch's noise
    alone does not play it) or when the weights rest on fewer than ``ESTIMATE_MIN_TEAMS``
    effective teams (then the standard error is not reliable yet); otherwise the card is
    declined."""
    total = weight.sum()
    if total <= 0.0:
        return True
    if total * total < ESTIMATE_MIN_TEAMS * (weight * weight).sum():
        return True
    return clear_gain(weight, gain, cluster)


@kernel
def clear_gain(weight: np.ndarray, gain: np.ndarray, cluster: np.ndarray) -> bool:
    """Is the weighted mean gain above ``ESTIMATE_MARGIN`` of its standard error? A group that
    plays a card on a gain within its estimate's noise would also play it where it expects
    none.

    The standard error is the self-normalised importance-sampling one, summed by cluster: the
    teams drawn on one completion of the board (``cluster``, nondecreasing) share its turn and
    river, so their gains are not independent, and a board's weighted deviation counts as one
    draw (with one board, every team is its own cluster). An estimate resting on fewer than
    ``ESTIMATE_MIN_TEAMS`` effective teams (Kong's (sum w)^2 / sum w^2) has no reliable
    standard error and plays nothing."""
    total = weight.sum()
    if total <= 0.0:
        return False
    if total * total < ESTIMATE_MIN_TEAMS * (weight * weight).sum():
        return False
    mean = (weight * gain).sum() / total
    variance = 0.0
    single = cluster[0] == cluster[-1]
    k = 0
    while k < weight.shape[0]:
        end = k + 1
        while not single and end < weight.shape[0] and cluster[end] == cluster[k]:
            end += 1
        deviation = 0.0
        for i in range(k, end):
            deviation += weight[i] * (gain[i] - mean)
        variance += deviation * deviation
        k = end
    variance /= total * total
    return mean > 0.0 and mean > ESTIMATE_MARGIN * np.sqrt(variance)
