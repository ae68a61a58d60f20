"""Playing a team the group's estimate drew from the use round to the showdown
(:func:`cardsim.sims.gang.estimate.hand_card_gain`): the claim curve percentile and history
play with (:func:`claim_curve`), and the bayes play-out, every round as the game plays it from
posteriors updated after every play-out chip round (:func:`fill_playout_posterior`,
:func:`bayes_playout_round`) with the team rank tables its teams share
(:func:`team_rank_memo_row`). Digest ``seeds/the_gang.md``, "Specialist use".
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.cards import MUSCLE
from cardsim.sims.gang.holdings import (
    category_floor,
    count_sorted,
    order_by,
)
from cardsim.sims.poker.cards import SUITLESS_JACK


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


@kernel(refcounts=False)
def fill_playout_posterior(
    base_row: np.ndarray,
    index: np.ndarray,
    n_valid: int,
    r: int,
    t: int,
    code: int,
    base: int,
    likelihood: np.ndarray,
    band_rows: np.ndarray,
    out_w: np.ndarray,
    out_cum: np.ndarray,
) -> None:
    """One player's bayes posterior in round ``t`` of the play-out, over the sorted valid
    holdings of that round's board (``index``): the use round's public posterior ``base_row``
    times the likelihood of each chip the player took in the play-out's rounds ``r .. t-1``
    (``code``: chip of round ``r + m`` is digit ``m`` in base ``base``, 0 = no chip round),
    read with that round's band of the holding (``band_rows[u, h]``: its percentile band, or
    for the Muscle holder the band of the raised holding), exactly as :func:`beliefs.hand_posteriors`
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
def _playout_team_rank(
    k: int,
    cum: np.ndarray,
    slot_of: np.ndarray,
    code_of: np.ndarray,
    players: int,
    n_valid: int,
    tie_lo: np.ndarray,
    tie_hi: np.ndarray,
) -> float:
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
def _kept_team_rank(
    k: int,
    cum: np.ndarray,
    slot_of: np.ndarray,
    code_of: np.ndarray,
    players: int,
    n_valid: int,
    tie_lo: np.ndarray,
    tie_hi: np.ndarray,
    memo: np.ndarray,
    stamps: np.ndarray,
    stamp: int,
) -> float:
    """:func:`_playout_team_rank`, kept in ``memo[k]`` (valid where ``stamps[k] == stamp``,
    :func:`team_rank_memo_row`): the rank depends only on the posteriors every player is
    read with (``slot_of``, ``code_of``), which many teams of one board share."""
    if stamps[k] != stamp:
        memo[k] = _playout_team_rank(k, cum, slot_of, code_of, players, n_valid, tie_lo, tie_hi)
        stamps[k] = stamp
    return memo[k]


@kernel(refcounts=False)
def _playout_band_start(
    b: int,
    cum: np.ndarray,
    slot_of: np.ndarray,
    code_of: np.ndarray,
    players: int,
    n_valid: int,
    bands: int,
    tie_lo: np.ndarray,
    tie_hi: np.ndarray,
    memo: np.ndarray,
    stamps: np.ndarray,
    stamp: int,
) -> int:
    """First sorted position whose team band is at least ``b`` (team ranks never fall)."""
    lo = 0
    hi = n_valid
    while lo < hi:
        mid = (lo + hi) // 2
        f = _kept_team_rank(mid, cum, slot_of, code_of, players, n_valid, tie_lo, tie_hi, memo, stamps, stamp)
        if min(int(f * bands), bands - 1) >= b:
            hi = mid
        else:
            lo = mid + 1
    return lo


@kernel
def bayes_playout_round(
    t: int,
    variant: int,
    user: int,
    specialist: int,
    players: int,
    bands: int,
    hands: np.ndarray,
    held: np.ndarray,
    trial: np.ndarray,
    size: int,
    ties: np.ndarray,
    values: np.ndarray,
    n_valid: int,
    tie_lo: np.ndarray,
    tie_hi: np.ndarray,
    w_sorted: np.ndarray,
    cum: np.ndarray,
    slot_of: np.ndarray,
    code_of: np.ndarray,
    index: np.ndarray,
    hold_masks: np.ndarray,
    order: np.ndarray,
    memo: np.ndarray,
    stamps: np.ndarray,
    stamp: int,
) -> None:
    """One round of the bayes play-out (:func:`bayes_playout_round_into`, with its scratch)."""
    bayes_playout_round_into(
        t,
        variant,
        user,
        specialist,
        players,
        bands,
        hands,
        held,
        trial,
        size,
        ties,
        values,
        n_valid,
        tie_lo,
        tie_hi,
        w_sorted,
        cum,
        slot_of,
        code_of,
        index,
        hold_masks,
        order,
        memo,
        stamps,
        stamp,
        np.zeros((3, players), dtype=np.int64),
        np.zeros((2, players)),
    )


@kernel(refcounts=False)
def bayes_playout_round_into(
    t: int,
    variant: int,
    user: int,
    specialist: int,
    players: int,
    bands: int,
    hands: np.ndarray,
    held: np.ndarray,
    trial: np.ndarray,
    size: int,
    ties: np.ndarray,
    values: np.ndarray,
    n_valid: int,
    tie_lo: np.ndarray,
    tie_hi: np.ndarray,
    w_sorted: np.ndarray,
    cum: np.ndarray,
    slot_of: np.ndarray,
    code_of: np.ndarray,
    index: np.ndarray,
    hold_masks: np.ndarray,
    order: np.ndarray,
    memo: np.ndarray,
    stamps: np.ndarray,
    stamp: int,
    int_work: np.ndarray,
    float_work: np.ndarray,
) -> None:
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
    (:func:`_kept_team_rank`). ``int_work`` (3 x players int64) and ``float_work`` (2 x
    players) are scratch: the claims, their sorted bounds, ratings and keys, overwritten."""
    muscle = variant == 1 and specialist == MUSCLE
    claimed = int_work[0]
    lo_of = int_work[1]
    hi_of = int_work[2]
    ratings = float_work[0]
    keys = float_work[1]
    for i in range(players):
        claimed[i] = 0
        lo_of[i] = 0
        hi_of[i] = 0
        ratings[i] = 0.0
        keys[i] = 0.0
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
            lo_of[i] = _playout_band_start(
                b, cum, slot_of, code_of, players, n_valid, bands, tie_lo, tie_hi, memo, stamps, stamp
            )
            hi_of[i] = (
                _playout_band_start(
                    b + 1, cum, slot_of, code_of, players, n_valid, bands, tie_lo, tie_hi, memo, stamps, stamp
                )
                if b + 1 < bands
                else n_valid
            )
        w = w_sorted[slot_of[i], code_of[i]]
        acc = 0.0
        mass = 0.0
        for k in range(lo_of[i], hi_of[i]):
            if w[k] > 0.0:
                if stamps[k] != stamp:  # :func:`_kept_team_rank`, written out in this loop
                    memo[k] = _playout_team_rank(k, cum, slot_of, code_of, players, n_valid, tie_lo, tie_hi)
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


@kernel(refcounts=False)
def team_rank_memo_row(
    memo_keys: np.ndarray, memo_used: np.ndarray, memo_stamp: np.ndarray, stamp_counter: np.ndarray, ti: int, key: int
) -> int:
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
