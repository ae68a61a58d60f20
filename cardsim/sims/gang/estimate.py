"""The group's decision to play a specialist (``--specialist-use helpful``): does the group, on
public information at the moment of use, expect the card to raise success?

Seed 000 ("THẺ CHUYÊN GIA"): the group decides who among them uses the Informant, Getaway
Driver, Mastermind, Hacker, Jack or Muscle; we read that it may also decide that nobody does
(digest "Specialist use"). The estimate reads only what is public at the start of the use round:
the chips of the earlier rounds, the community cards shown, who redrew, and the public
posteriors over every player's holding that the engine computes from them (``weights``). The
community cards still to come and every pocket are drawn by the estimate's own generator, so a
declined card leaves the heist exactly as without it and no hidden card is read
(:mod:`cardsim.sims.gang.checks` replays the decision with the hidden cards changed).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.beliefs import tie_bounds
from cardsim.sims.gang.cards import (
    GETAWAY_DRIVER,
    HACKER,
    MUSCLE,
    best_drop_slot,
    card_rank,
    getaway_driver_category,
    mastermind_count,
    round_has_chips,
    swap_in_card,
)
from cardsim.sims.gang.estimate_playout import (
    bayes_playout_round_into,
    claim_curve,
    fill_playout_posterior,
    team_rank_memo_row,
)
from cardsim.sims.gang.estimate_weights import (
    bayes_past_rounds,
    bayes_team_weight,
    chips_likelihood_ratio,
)
from cardsim.sims.gang.holdings import (
    BOARD_SIZES,
    MAX_POCKET,
    card_positions,
    count_sorted,
    hand_score,
    holder_of,
    holding_percentiles,
    muscle_score,
    order_by,
    own_out_counts,
    score_holdings,
    sort_valid,
)
from cardsim.sims.gang.models import BAYES, PERCENTILE
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
TEAM_RANK_ROWS = 64  # bayes play-out: team rank tables kept per round and board completion

# What :func:`hand_card_gain` reads, bundled by concern (numba passes a namedtuple of arrays and
# numbers as one argument): which card the group weighs and when ...
CardUse = namedtuple("CardUse", "specialist model r boost_star_top jack_stays seed")
# ... what lies on the table (chips of the earlier rounds, the community cards shown) ...
PublicTable = namedtuple("PublicTable", "chips players size bands board shown challenges hidden_history")
# ... the holdings every hypothesis is about ...
Holdings = namedtuple("Holdings", "hold_cards hold_masks count")
# ... and the public beliefs: posteriors, the chip likelihood table, every holding's band per
# round, where each player's evidence starts, and each earlier round's scored holdings.
Evidence = namedtuple(
    "Evidence", "weights likelihood hband evidence_from public_ok round_scores round_valid round_values round_count"
)


@kernel(inline="always")
def _lcg(state: np.int64) -> np.int64:
    """Next state of the estimate's own generator (keeps the heist's stream intact)."""
    return state * 6364136223846793005 + 1442695040888963407


@kernel(inline="always")
def _lcg_uniform(state: np.int64) -> float:
    return ((state >> 11) & ((np.int64(1) << 53) - 1)) * (1.0 / 9007199254740992.0)


@kernel(inline="always")
def _unseen_card(state: np.int64, seen: np.int64) -> tuple[int, np.int64]:
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
def reveal_pockets(
    pockets: np.ndarray, players: int, size: int, hold_masks: np.ndarray, count: int, weights: np.ndarray
) -> None:
    """The deliberately leaky estimate (``LEAKY_HELPFUL``, swap test only): every player's
    posterior becomes their true holding (none, if it is not among the hypotheses)."""
    for j in range(players):
        mask = pocket_mask(pockets, j, size)
        for h in range(count):
            weights[j, h] = 1.0 if hold_masks[h] == mask else 0.0


@kernel
def tilt_to_pockets(
    pockets: np.ndarray, players: int, size: int, hold_masks: np.ndarray, count: int, weights: np.ndarray
) -> None:
    """The softly leaky estimate (``LEAKY_TILT_HELPFUL``, swap test only): every player's
    posterior weight of the holdings sharing a card with their true pocket times
    ``LEAK_TILT``."""
    for j in range(players):
        mask = pocket_mask(pockets, j, size)
        for h in range(count):
            if hold_masks[h] & mask:
                weights[j, h] *= LEAK_TILT


@kernel
def announcement_is_open(
    specialist: int,
    model: int,
    r: int,
    chips: np.ndarray,
    players: int,
    size: int,
    board: np.ndarray,
    shown: int,
    hold_cards: np.ndarray,
    hold_masks: np.ndarray,
    count: int,
    weights: np.ndarray,
) -> bool:
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
        if specialist == GETAWAY_DRIVER:
            answer = getaway_driver_category(hand_score(hold_cards[h], size, board, shown))
        else:
            answer = mastermind_count(hold_cards[h], asked)
        if first < 0:
            first = answer
        elif answer != first:
            return True
    return False


@kernel
def hand_card_gain(use: CardUse, table: PublicTable, holdings: Holdings, evidence: Evidence) -> bool:
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
    specialist, model, r, boost_star_top, jack_stays, seed = use
    chips, players, size, bands, board, shown, challenges, hidden_history = table
    hold_cards, hold_masks, count = holdings
    (weights, likelihood, hband, evidence_from, public_ok, round_scores, round_valid, round_values, round_count) = (
        evidence
    )
    top = specialist == MUSCLE or boost_star_top
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

    # bayes: each earlier round's claim tables, to weight a drawn team by the chance of the
    # public chips under bayes's own claim and settle rule
    past = bayes_past_rounds(not exact, r, table, holdings, evidence)
    width = 1 if exact else count

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
    # board completion that play alike (:func:`team_rank_memo_row`)
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
    playout_ints = np.zeros((3, players), dtype=np.int64)  # bayes_playout_round_into's scratch
    playout_floats = np.zeros((2, players))
    ratio_keys = np.zeros(players)  # chips_likelihood_ratio's scratch
    ratio_known = np.zeros(players, dtype=np.bool_)
    team_ints = np.zeros((4, players), dtype=np.int64)  # bayes_team_weight's scratch
    team_floats = np.zeros((players + 1, players))
    for b in range(boards * ESTIMATE_BATCHES):
        if n_samples >= ESTIMATE_FIRST_LOOK and not sample_gain[:n_samples].any():
            return False  # the card changed no outcome so far: no clear gain can follow
        if (
            b > 0
            and b % boards == 0
            and not more_teams_needed(sample_weight[:n_samples], sample_gain[:n_samples], sample_board[:n_samples])
        ):
            return False  # a batch done: no clear gain on enough effective teams
        full_mask = seen
        for k in range(shown, 5):
            card, state = _unseen_card(state, full_mask)
            full[k] = card
            full_mask |= np.int64(1) << card
        for t in range(r, 4):  # the claim curves of the rounds still to play on this board
            if b > 0 and BOARD_SIZES[t] == shown:
                continue  # the current board: the same for every completion
            score_holdings(hold_cards, hold_masks, count, size, full, BOARD_SIZES[t], board_valid[t], board_scores[t])
            index, sorted_values = sort_valid(board_scores[t], board_valid[t], count)
            n_values[t] = sorted_values.shape[0]
            values[t, : n_values[t]] = sorted_values
            sorted_index[t, : n_values[t]] = index
            if exact:
                curves[t, : n_values[t] + 1] = claim_curve(n_values[t])
                if own_out:
                    card_positions(index, n_values[t], hold_cards, card_pos[t], card_n[t])
            else:
                n_t = n_values[t]
                holding_percentiles(index, sorted_values, play_pct)
                for k in range(n_t):
                    h = index[k]
                    play_band[t, h] = min(int(play_pct[h] * bands), bands - 1)
                    if specialist == MUSCLE:  # the band the Muscle holder claims with
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
            if (
                team % ESTIMATE_FIRST_LOOK == 0
                and n_samples >= ESTIMATE_FIRST_LOOK
                and not sample_gain[:n_samples].any()
            ):
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
                    held,
                    chips,
                    r,
                    players,
                    bands,
                    model,
                    hidden_history,
                    challenges,
                    evidence_from,
                    likelihood,
                    hband,
                    round_scores,
                    round_valid,
                    round_values,
                    round_count,
                    hold_cards,
                    hold_masks,
                    count,
                    size,
                    rated,
                    ratio_keys,
                    ratio_known,
                )
                if weight == 0.0:
                    continue
            else:
                weight = bayes_team_weight(
                    held, chips, r, players, past, likelihood, hband, hold_masks, team_ints, team_floats
                )
                if weight == 0.0:
                    continue
            for t in range(4):
                for j in range(players):
                    state = _lcg(state)
                    ties[t, j] = _lcg_uniform(state)
            for s in range(size):
                trial[s] = hold_cards[held[user], s]
            if specialist != MUSCLE:
                new_card = SUITLESS_JACK
                if specialist == HACKER:
                    new_card, state = _unseen_card(state, used)
                slot = best_drop_slot(trial, size, new_card, full, shown, specialist == HACKER or not jack_stays)
                swap_in_card(trial, size, new_card, slot)
            for t in range(r, 4):  # every hand on every round's board, without / with the card
                for j in range(players):
                    plain = hand_score(hold_cards[held[j]], size, full, BOARD_SIZES[t])
                    hands[0, t, j] = plain
                    hands[1, t, j] = plain
                if specialist == MUSCLE:
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
                            slot = players if (variant == 1 and specialist == MUSCLE and j == user) else j
                            code = 0
                            mult = 1
                            for u in range(r, t):
                                code += played[u, j] * mult
                                mult *= base
                            if not cache_ok[ti, slot, code]:
                                fill_playout_posterior(
                                    weights[user if slot == players else j],
                                    sorted_index[t, :n_t],
                                    n_t,
                                    r,
                                    t,
                                    code,
                                    base,
                                    likelihood,
                                    play_mband if slot == players else play_band,
                                    cache_w[ti, slot, code],
                                    cache_cum[ti, slot, code],
                                )
                                cache_ok[ti, slot, code] = True
                            slot_of[j] = slot
                            code_of[j] = code
                            memo_key = memo_key * ((players + 1) * codes) + slot * codes + code
                        row = team_rank_memo_row(memo_keys, memo_used, memo_stamp, stamp_counter, ti, memo_key)
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
                            n_t,
                            tie_lo[t],
                            tie_hi[t],
                            cache_w[ti],
                            cache_cum[ti],
                            slot_of,
                            code_of,
                            sorted_index[t],
                            hold_masks,
                            order,
                            rank_memo[ti, row],
                            rank_stamps[ti, row],
                            memo_stamp[ti, row],
                            playout_ints,
                            playout_floats,
                        )
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
                                    first, second, lo, hi, card_pos[t], card_n[t], scores_t, valid_t, score
                                )
                                rating = (lo - out_less + 0.5 * (hi - lo - out_equal)) / max(n_t - out_total, 1)
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
    return clear_gain(sample_weight[:n_samples], sample_gain[:n_samples], sample_board[:n_samples])


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
