"""The heist kernel: deal, four chip rounds under a player model, cards' hooks, showdown.

One heist (seed 000, "Quy trình vụ cướp"): every player gets pocket cards; rounds 1-4
(pre-flop, flop, turn, river) show 0, 3, 4, 5 community cards and hand out the white, yellow,
orange and red chips 1..n; at the showdown the hands are revealed in ascending red-chip order
and the heist succeeds when no revealed hand is weaker than the one before
(:func:`showdown_in_order`, true ties allowed in either order).

All randomness of a heist comes from its shuffled deck and its seed (numba's generator seeded
per heist), both drawn from the run's numpy Generator by :func:`play_batch`, so results are
reproducible and independent of chunking. Card hooks (:mod:`cardsim.sims.gang.cards`) run at
fixed points of the round loop: after the deal (Investor, Math Whiz, Coordinator, Con Artist),
at the start of a round (Motion Detector / Laser Tripwires redraws at the flop; the group's
specialists at their use round), while allocating chips (locks, Blackout; the Informant, played
in the use round's chip dance once the claims are on the table) and at the showdown (Muscle,
Retina Scan, Fingerprint Scan: :mod:`cardsim.sims.gang.scans`). Beliefs, claims and the private
settle are in :mod:`cardsim.sims.gang.beliefs`; hands and the shared holdings in
:mod:`cardsim.sims.gang.holdings`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.gang.beliefs import (
    bayes_claims,
    claim_beliefs,
    claimed_posteriors,
    con_artist_prior,
    hand_posteriors,
    informant_card,
    informant_pair,
    jack_pushforward,
    settle_equal_claims,
    tie_bounds,
)
from cardsim.sims.gang.cards import (
    CON_ARTIST,
    COORDINATOR,
    GETAWAY_DRIVER,
    GROUP_SPECIALISTS,
    HACKER,
    INFORMANT,
    INVESTOR,
    JACK,
    MASTERMIND,
    MATH_WHIZ,
    MUSCLE,
    blackout_hides_history,
    card_rank,
    con_artist_redeal,
    coordinator_pass,
    fingerprint_scan_passes,
    has_challenge,
    investor_face_count,
    key_card_slot,
    math_whiz_total,
    muscle_score,
    pocket_size,
    retina_scan_passes,
    round_has_chips,
    use_group_specialist,
)
from cardsim.sims.gang.estimate import (
    ALWAYS,
    HELPFUL,
    LEAKY_BOARD_HELPFUL,
    LEAKY_HELPFUL,
    LEAKY_TILT_HELPFUL,
    CardUse,
    Evidence,
    Holdings,
    PublicTable,
    announcement_is_open,
    hand_card_gain,
    reveal_pockets,
    tilt_to_pockets,
)
from cardsim.sims.gang.holdings import (
    BOARD_SIZES,
    MAX_PLAYERS,
    MAX_POCKET,
    N_JACK_PAIRS,
    N_PAIRS,
    N_TRIPLES,
    PAIR_MASKS_WITH_JACK,
    PAIRS_WITH_JACK,
    SCORE_WORK,
    holder_of,
    pocket_mask,
    rank_holdings,
    score_holdings,
)
from cardsim.sims.gang.models import BAYES, HISTORY, LEAKY, PERCENTILE, RANDOM
from cardsim.sims.gang.rounds import (
    contest_key,
    current_hands,
    deal,
    final_scores,
    flop_redraw,
    hand_out_chips,
    opponent_holdings,
    random_order_success,
    rate_own_hands,
    showdown_in_order,
)
from cardsim.sims.gang.scans import fingerprint_guess, retina_guess, scan_weights

PLAIN_HOLDINGS = max(N_PAIRS, N_TRIPLES)  # the most holdings a plain heist rates against

# What :func:`chip_round` reads, bundled by concern (numba passes a namedtuple of arrays and
# numbers as one argument, and cannot inline a call of more than 30 arguments): the heist's
# fixed settings ...
HeistRules = namedtuple(
    "HeistRules",
    "challenges specialist model players size levels bands use_round helpful estimate scans jack_space replay",
)
# ... every holding's validity, score, percentile, band per round and band raised by the Muscle ...
HoldingRatings = namedtuple("HoldingRatings", "valid hscores hpct hband muscle_band")
# ... the public beliefs: chip likelihood table, where each player's evidence starts, which
# holdings the announcements allow, the Jack user's prior, the posteriors ...
PublicBeliefs = namedtuple("PublicBeliefs", "likelihood evidence_from public_ok public_prior weights")
# ... what players know privately: cards shown or passed to them, the Con Artist's redeal ...
PrivateKnowledge = namedtuple("PrivateKnowledge", "known_card no_card old_masks prior informed")
# ... the decisions recorded and the public record replayed (the hidden-card swap test) ...
HeistRecord = namedtuple("HeistRecord", "record info_out replay_chips replay_bands replay_info")
# ... and the round's scratch: own hands and card masks, ratings, claim keys, beliefs, claimed
# bands, settle votes and the chips handed out.
ClaimScratch = namedtuple("ClaimScratch", "own own_masks keys ratings beliefs bands_claimed votes row score_work")


@kernel(inline="always")
def plain_scratch(
    players: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The per-heist arrays of :func:`play_plain_heist`, allocated once per batch: holdings'
    validity and scores, own hands and card masks, ratings, claim keys, claimed bands, a
    round's chips and the scratch of :func:`score_holdings_into`."""
    return (
        np.zeros(PLAIN_HOLDINGS, dtype=np.bool_),
        np.zeros(PLAIN_HOLDINGS, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players),
        np.zeros(players),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(SCORE_WORK, dtype=np.int64),
    )


@kernel(inline="always")  # one caller: compiled as part of _play_plain_heists, not once more
def play_plain_heist(
    deck: np.ndarray,
    seed: int,
    challenges: int,
    players: int,
    model: int,
    levels: int,
    pockets: np.ndarray,
    board: np.ndarray,
    chips: np.ndarray,
    finals: np.ndarray,
    pair_cards: np.ndarray,
    pair_masks: np.ndarray,
    work_cards: np.ndarray,
    work_masks: np.ndarray,
    scratch: tuple,
) -> tuple[bool, int, float]:
    """:func:`play_heist` for a heist with no specialist and no scan, under the random,
    percentile or history model: the same rules, random numbers and rows, in a kernel that
    does not reach the bayes beliefs, the specialists or the group's estimate (so a first run
    of such heists compiles none of them). ``scratch``: :func:`plain_scratch`'s arrays, reset
    here (so no array is allocated). Returns (order correct, redrawn-player bit mask, exact
    random-order success)."""
    all_valid, all_scores, own, own_masks, ratings, keys, bands_claimed, row, score_work = scratch
    np.random.seed(seed)
    size = pocket_size(challenges)
    bands = levels * players
    draw = deal(deck, players, size, pockets, board, chips)
    count, hold_cards, hold_masks = opponent_holdings(size, pair_cards, pair_masks, work_cards, work_masks)
    hidden = blackout_hides_history(challenges)
    valid = all_valid[:count]
    hscores = all_scores[:count]
    for h in range(count):
        valid[h] = False
        hscores[h] = 0
    for p in range(players):
        own[p] = 0
        own_masks[p] = 0
        ratings[p] = 0.0
        keys[p] = 0.0
        bands_claimed[p] = 0
        row[p] = 0
    redrawn = 0
    for r in range(4):
        shown = BOARD_SIZES[r]
        if r == 1:
            seat, draw = flop_redraw(challenges, board, chips, players, pockets, size, deck, draw)
            if seat >= 0:
                redrawn |= 1 << seat
        if not round_has_chips(challenges, r):
            continue
        current_hands(pockets, players, size, board, shown, -1, own, own_masks)
        if model == RANDOM:
            for p in range(players):
                keys[p] = np.random.random()
        else:
            rate_own_hands(
                own,
                own_masks,
                pockets,
                players,
                size,
                board,
                shown,
                hold_cards,
                hold_masks,
                count,
                pair_cards,
                valid,
                hscores,
                ratings,
                score_work,
            )
            for p in range(players):
                bands_claimed[p] = min(int(ratings[p] * bands), bands - 1)
            for p in range(players):
                keys[p] = contest_key(model, bands_claimed[p], np.random.random(), r, chips, p, hidden)
        hand_out_chips(keys, bands_claimed, players, levels, challenges, r, model, row)
        for p in range(players):
            chips[r, p] = row[p]
    final_scores(pockets, size, board, players, -1, finals)
    return (showdown_in_order(finals, chips[3], players), redrawn, random_order_success(finals, players))


@kernel(inline="always")
def after_deal_cards(
    specialist: int,
    model: int,
    players: int,
    size: int,
    pockets: np.ndarray,
    count: int,
    hold_cards: np.ndarray,
    public_ok: np.ndarray,
    known_card: np.ndarray,
    old_masks: np.ndarray,
    informed: np.ndarray,
    replay: bool,
    hidden_swap: np.ndarray,
    replay_info: np.ndarray,
    info_out: np.ndarray,
) -> None:
    """The heist's first phase after the deal: the specialists that act right away (seed 000,
    "THẺ CHUYÊN GIA" 3, 6, 8, 9: the Con Artist's redeal, the Coordinator's pass, the Investor's
    and the Math Whiz's announcements, which only bayes reads) and, in replay, the swapped
    pockets. Fills ``old_masks`` and ``informed`` (Con Artist), ``known_card`` (Coordinator),
    ``public_ok`` and ``info_out`` (announcements)."""
    if specialist == CON_ARTIST:
        for p in range(players):
            old_masks[p] = pocket_mask(pockets[p], size)
        order = np.random.permutation(players * size)
        con_artist_redeal(pockets, players, size, order)
        for p in range(players):
            # an old card is with a teammate
            informed[p] = (old_masks[p] & ~pocket_mask(pockets[p], size)) != 0
    if specialist == COORDINATOR:
        passed = np.zeros(players, dtype=np.int64)
        for p in range(players):  # pass the lowest-ranked pocket card, keep the best
            low = 0
            for s in range(1, size):
                if card_rank(pockets[p, s]) < card_rank(pockets[p, low]):
                    low = s
            passed[p] = low
        coordinator_pass(pockets, players, passed)
        for p in range(players):
            known_card[p, (p + 1) % players] = passed[p]
    if replay:
        for p in range(players):
            for s in range(size):
                if hidden_swap[p, s] >= 0:
                    pockets[p, s] = hidden_swap[p, s]
    if (specialist == INVESTOR or specialist == MATH_WHIZ) and model == BAYES:
        for p in range(players):
            said = investor_face_count(pockets[p]) if specialist == INVESTOR else math_whiz_total(pockets[p])
            if replay:
                said = replay_info[p]
            info_out[p] = said
            for h in range(count):
                heard = investor_face_count(hold_cards[h]) if specialist == INVESTOR else math_whiz_total(hold_cards[h])
                public_ok[p, h] = heard == said


@kernel(inline="always")
def scan_phase(
    challenges: int,
    chips: np.ndarray,
    players: int,
    model: int,
    count: int,
    valid: np.ndarray,
    hband: np.ndarray,
    likelihood: np.ndarray,
    evidence_from: np.ndarray,
    public_ok: np.ndarray,
    public_prior: np.ndarray,
    jack_space: bool,
    weights: np.ndarray,
    muscle_seat: int,
    use_round: int,
    muscle_band: np.ndarray,
    board: np.ndarray,
    hold_cards: np.ndarray,
    hold_masks: np.ndarray,
    size: int,
    hscores: np.ndarray,
    pockets: np.ndarray,
    finals: np.ndarray,
) -> tuple[bool, int]:
    """The heist's last phase, under the Retina or Fingerprint scan: the top-chip holder's
    hand is guessed from the public record (bayes: its posterior; the others: the holdings
    their claims allow) and the scan passes or fails. Returns (scan passed, guess: the
    Retina's holding, the Fingerprint's ranking, or both as retina * 16 + ranking)."""
    scan_ok = True
    guess = -1
    top_seat = holder_of(chips, 4, players, players, 0)
    if model == BAYES:
        hand_posteriors(
            chips,
            4,
            players,
            count,
            valid,
            hband,
            likelihood,
            evidence_from,
            public_ok,
            public_prior,
            jack_space,
            weights,
            muscle_seat,
            use_round,
            muscle_band,
        )
        for h in range(count):
            weights[0, h] = weights[top_seat, h]
    else:
        board_mask = np.int64(0)
        for k in range(5):
            board_mask |= np.int64(1) << board[k]
        for h in range(count):
            if hold_masks[h] & board_mask:
                weights[0, h] = 0.0
            elif model == RANDOM:
                weights[0, h] = 1.0
            else:
                weights[0, h] = likelihood[players - 1, hband[3, h]]
    if model == RANDOM:
        score_holdings(hold_cards, hold_masks, count, size, board, 5, valid, hscores)
    scan_weights(
        weights,
        hold_cards,
        hold_masks,
        count,
        size,
        hscores,
        pockets,
        finals,
        chips[3],
        players,
        top_seat,
        top_seat == muscle_seat,
    )
    if has_challenge(challenges, 4):
        guess = retina_guess(hold_cards, count, size, weights[0])
        scan_ok = retina_scan_passes(pockets[top_seat], guess)
    if has_challenge(challenges, 9):
        named = fingerprint_guess(hold_cards, count, size, board, weights[0])
        scan_ok = scan_ok and fingerprint_scan_passes(finals[top_seat], named)
        guess = named if guess < 0 else guess * 16 + named
    return scan_ok, guess


@kernel(inline="always")
def group_specialist(
    specialist: int,
    model: int,
    r: int,
    use_rule: int,
    seed: int,
    chips: np.ndarray,
    players: int,
    pockets: np.ndarray,
    size: int,
    bands: int,
    board: np.ndarray,
    deck: np.ndarray,
    draw: int,
    challenges: int,
    boost_star_top: bool,
    jack_stays: bool,
    jack_space: bool,
    space: int,
    holdings: Holdings,
    valid: np.ndarray,
    hband: np.ndarray,
    likelihood: np.ndarray,
    evidence_from: np.ndarray,
    public_ok: np.ndarray,
    chip_ok: np.ndarray,
    public_prior: np.ndarray,
    weights: np.ndarray,
    past: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    forced_detail: int,
) -> tuple[bool, int, int, int, int, int]:
    """The heist's phase at the start of the use round ``r``: the group decides whether to play
    a specialist usable "at any time" (seed 000, "THẺ CHUYÊN GIA" 2, 4, 5, 7, 10; under
    ``HELPFUL`` only on a gain expected from public information,
    :mod:`cardsim.sims.gang.estimate`) and plays it. ``past``: the earlier rounds' holding
    scores, validity, values and counts; ``forced_detail``: the replayed detail, or -1.
    Returns (played, holdings counted, user, detail, draw position, seat the card acted on);
    when it is not played, the holdings and draw position are unchanged and the rest is -1."""
    hold_cards, hold_masks, count = holdings
    round_scores, round_valid, round_values, round_count = past
    helpful = use_rule != ALWAYS
    shown = BOARD_SIZES[r]
    user = -1
    detail = -1
    seat = -1
    use = True
    if helpful and (specialist == GETAWAY_DRIVER or specialist == MASTERMIND) and model != BAYES:
        use = False  # only bayes reads announcements
    elif helpful:
        chooser = public_ok if model == BAYES else chip_ok
        hand_posteriors(
            chips,
            r,
            players,
            count,
            valid,
            hband,
            likelihood,
            evidence_from,
            chooser,
            public_prior,
            jack_space,
            weights,
            -1,
            4,
            hband,
        )
        if use_rule == LEAKY_HELPFUL:
            reveal_pockets(pockets, players, size, hold_masks, count, weights)
        elif use_rule == LEAKY_TILT_HELPFUL:
            tilt_to_pockets(pockets, players, size, hold_masks, count, weights)
        if specialist == GETAWAY_DRIVER or specialist == MASTERMIND:
            use = announcement_is_open(
                specialist, model, r, chips, players, size, board, shown, hold_cards, hold_masks, count, weights
            )
        else:
            use = hand_card_gain(
                CardUse(specialist, model, r, boost_star_top, jack_stays, seed),
                PublicTable(
                    chips,
                    players,
                    size,
                    bands,
                    board,
                    5 if use_rule == LEAKY_BOARD_HELPFUL else shown,
                    challenges,
                    blackout_hides_history(challenges),
                ),
                Holdings(hold_cards, hold_masks, count),
                Evidence(
                    weights,
                    likelihood,
                    hband,
                    evidence_from,
                    chooser,
                    round_scores,
                    round_valid,
                    round_values,
                    round_count,
                ),
            )
    if use:
        if jack_space:  # the Jack user's public posterior, carried over to the later rounds
            jack_user = holder_of(chips, r, players if boost_star_top else 1, players, 0)
            hand_posteriors(
                chips,
                r,
                players,
                count,
                valid,
                hband,
                likelihood,
                evidence_from,
                public_ok,
                public_prior,
                jack_space,
                weights,
                -1,
                4,
                hband,
            )
            jack_pushforward(
                weights[jack_user], hold_cards, count, board, shown, not jack_stays, public_prior[jack_user]
            )
            evidence_from[jack_user] = r
            count = space
        user, detail, draw, seat = use_group_specialist(
            specialist,
            r,
            chips,
            players,
            pockets,
            size,
            board,
            shown,
            deck,
            draw,
            boost_star_top,
            hold_cards,
            count,
            public_ok,
            jack_stays,
            forced_detail,
        )
    return use, count, user, detail, draw, seat


@kernel(inline="always")
def rated_claims(
    r: int,
    rules: HeistRules,
    pockets: np.ndarray,
    board: np.ndarray,
    chips: np.ndarray,
    holdings: Holdings,
    pair_cards: np.ndarray,
    ratings_of: HoldingRatings,
    public: PublicBeliefs,
    past: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    private: PrivateKnowledge,
    io: HeistRecord,
    work: ClaimScratch,
    muscle_seat: int,
    redrawn: int,
    informant: tuple[int, int, int],
) -> tuple[int, int, int]:
    """The claims of chip round ``r`` under a model that rates hands (every model but random;
    seed 000, "Quy trình vụ cướp"): each player rates their current hand against the holdings
    they cannot rule out and claims a band (bayes: their expected rank in the team from the
    posterior over the teammates' holdings); the claims become contest keys in ``work.keys``
    (bayes: equal claims next to each other are settled privately, after the Informant's card
    is shown in the use round). ``past``: the earlier rounds' holding scores, validity, values
    and counts, filled here for the group's estimate; ``redrawn``: the redrawn-player bit mask;
    ``informant``: (specialist user, detail, Informant viewer) so far, each -1 when none.
    Writes the decisions to ``io.record[r]`` and the shown card to ``io.info_out``; returns the
    updated (user, detail, viewer). :func:`chip_round` then hands out the chips."""
    (
        challenges,
        specialist,
        model,
        players,
        size,
        levels,
        bands,
        use_round,
        helpful,
        estimate,
        scans,
        jack_space,
        replay,
    ) = rules
    hold_cards, hold_masks, count = holdings
    valid, hscores, hpct, hband, muscle_band = ratings_of
    likelihood, evidence_from, public_ok, public_prior, weights = public
    round_scores, round_valid, round_values, round_count = past
    known_card, no_card, old_masks, prior, informed = private
    record, info_out, replay_chips, replay_bands, replay_info = io
    own, own_masks, keys, ratings, beliefs, bands_claimed, votes, row, score_work = work
    user, detail, target = informant
    shown = BOARD_SIZES[r]

    current_hands(pockets, players, size, board, shown, muscle_seat, own, own_masks)
    rate_own_hands(
        own,
        own_masks,
        pockets,
        players,
        size,
        board,
        shown,
        hold_cards,
        hold_masks,
        count,
        pair_cards,
        valid,
        hscores,
        ratings,
        score_work,
    )
    if model == LEAKY:  # deliberately reads the teammates' hands (swap test only)
        for p in range(players):
            below = 0.5
            for q in range(players):
                if own[q] < own[p]:
                    below += 1.0
                elif own[q] == own[p] and q != p:
                    below += 0.5
            ratings[p] = below / players
    if model == BAYES or estimate or (r == 3 and scans):
        index, values = rank_holdings(hscores, valid, count, shown, size, hpct)
        for h in range(count):
            hband[r, h] = min(int(hpct[h] * bands), bands - 1)
        if model == BAYES and muscle_seat >= 0:  # the band the holder claims with
            for h in range(count):
                if valid[h]:
                    raised = muscle_score(hscores[h])
                    n_below = np.searchsorted(values, raised, side="left")
                    muscle_band[r, h] = min(int(n_below / values.shape[0] * bands), bands - 1)
        if round_scores.shape[1] > 1 and r < use_round:
            round_scores[r, :count] = hscores[:count]
            round_valid[r, :count] = valid[:count]
            round_values[r, : values.shape[0]] = values
            round_count[r] = values.shape[0]
    if model == BAYES:
        hand_posteriors(
            chips,
            r,
            players,
            count,
            valid,
            hband,
            likelihood,
            evidence_from,
            public_ok,
            public_prior,
            jack_space,
            weights,
            muscle_seat,
            use_round,
            muscle_band,
        )
        team_rank, team_band = bayes_claims(
            index,
            values,
            weights,
            own,
            players,
            bands,
            muscle_seat if shown > 0 else -1,
            ratings,
            beliefs,
        )
    for p in range(players):
        bands_claimed[p] = min(int(ratings[p] * bands), bands - 1)
        record[r, p, 0] = bands_claimed[p]
        if replay:
            bands_claimed[p] = replay_bands[r, p]
            ratings[p] = (bands_claimed[p] + 0.5) / bands
    if replay and model == BAYES:
        claim_beliefs(index, weights, team_rank, team_band, ratings, players, bands, beliefs)
    for p in range(players):
        band = bands_claimed[p]
        u = np.random.random()
        if model == BAYES:
            keys[p] = band + 0.999 * (beliefs[p] + 1e-6 * u)
        else:
            keys[p] = contest_key(model, band, u, r, chips, p, blackout_hides_history(challenges))
    if model == BAYES:
        claimed = claimed_posteriors(index, weights, team_band, bands_claimed, players)
        if specialist == INFORMANT and r >= use_round and target < 0:
            # Informant, in the chip dance once the claims are on the table (digest S1)
            start, stop = tie_bounds(values)
            lower, upper, risk = informant_pair(keys, bands_claimed, players, claimed, start, stop)
            if not helpful or risk > 0.0:  # helpful: once an order is in doubt
                user, target = lower, upper  # the lower shows the upper (measured best)
                detail = informant_card(
                    user, target, pockets, size, own[user], claimed, index, values, hold_masks, start, stop
                )
                if replay:
                    detail = replay_info[players]
                info_out[players] = detail
                known_card[target, user] = detail
        if specialist == CON_ARTIST:  # Con Artist: private priors from the redeal
            con_artist_prior(old_masks, own_masks, players, size, hold_masks, count, shown, prior)
        # Equal claims next to each other are settled privately (base rule; the
        # Informant's shown card, the Coordinator's passed card and the Con Artist's
        # prior are extra evidence).
        steps = settle_equal_claims(
            keys,
            bands_claimed,
            players,
            claimed,
            index,
            values,
            hold_masks,
            own,
            own_masks,
            known_card if specialist == INFORMANT or specialist == COORDINATOR else no_card,
            prior,
            informed,
            redrawn,
            muscle_seat if shown > 0 else -1,
            votes,
            replay_bands[r, players] if replay else -1,
        )
        for p in range(players):
            record[r, p, 1] = votes[p, 0]
            record[r, p, 2] = votes[p, 1]
            record[r, p, 3] = steps
    return user, detail, target


@kernel(inline="always")
def chip_round(
    r: int,
    rules: HeistRules,
    pockets: np.ndarray,
    board: np.ndarray,
    chips: np.ndarray,
    keys: np.ndarray,
    bands_claimed: np.ndarray,
    row: np.ndarray,
    replay_chips: np.ndarray,
    known_card: np.ndarray,
    informant: tuple[int, int, int],
) -> tuple[int, int, int]:
    """The end of chip round ``r`` (seed 000, "Quy trình vụ cướp"), after the claims
    (:func:`rated_claims`; random: a random order here): the non-bayes Informant is played in
    the use round, and the round's chips are handed out by the claims' ``keys`` into
    ``chips[r]`` (in replay, the recorded ``replay_chips``). ``informant``: (specialist user,
    detail, Informant viewer) so far; returns them updated. Takes only the arrays it uses:
    every array an inlined function binds costs a reference count each round."""
    challenges, specialist, model, players, size = (
        rules.challenges,
        rules.specialist,
        rules.model,
        rules.players,
        rules.size,
    )
    levels, use_round, helpful, replay = rules.levels, rules.use_round, rules.helpful, rules.replay
    user, detail, target = informant
    shown = BOARD_SIZES[r]
    if model == RANDOM:
        for p in range(players):
            keys[p] = np.random.random()
    if specialist == INFORMANT and r >= use_round and model != BAYES and target < 0 and not helpful:
        order = np.argsort(keys[:players])
        user = order[(players - 2) // 2]
        target = order[(players - 2) // 2 + 1]
        detail = pockets[user, key_card_slot(pockets[user], size, board, shown)]
        known_card[target, user] = detail
    hand_out_chips(keys, bands_claimed, players, levels, challenges, r, model, row)
    for p in range(players):
        chips[r, p] = replay_chips[r, p] if replay else row[p]
    return user, detail, target


@kernel(inline="always")
def play_heist_inline(
    deck: np.ndarray,
    seed: int,
    challenges: int,
    specialist: int,
    players: int,
    model: int,
    levels: int,
    use_round: int,
    boost_star_top: bool,
    likelihood: np.ndarray,
    pockets: np.ndarray,
    board: np.ndarray,
    chips: np.ndarray,
    finals: np.ndarray,
    pair_cards: np.ndarray,
    pair_masks: np.ndarray,
    work_cards: np.ndarray,
    work_masks: np.ndarray,
    use_rule: int,
    jack_stays: bool,
    replay_chips: np.ndarray,
    replay_bands: np.ndarray,
    replay_info: np.ndarray,
    hidden_swap: np.ndarray,
    record: np.ndarray,
    info_out: np.ndarray,
) -> tuple[bool, bool, int, int, int, int, float, int]:
    """Play one heist; fills ``pockets``, ``board``, ``chips``, ``finals`` in place.

    ``use_round`` (1 = flop or 3 = river) is when the group plays a specialist that is used
    "at any time"; ``boost_star_top`` says whether Hacker and Jack go to the latest top-chip
    holder (True) or the latest 1-star holder (False). ``use_rule``: ``HELPFUL``, the group
    plays a specialist it decides on only when it expects, on public information, a gain
    (:mod:`cardsim.sims.gang.estimate`), or ``ALWAYS`` (``LEAKY_HELPFUL`` and
    ``LEAKY_BOARD_HELPFUL``: the swap test's deliberately leaky estimates, which read every
    pocket or the undealt board); ``jack_stays``: the Jack user may not discard the Jack.
    ``pair_cards``/``pair_masks`` are the two-card holdings followed by the Jack holdings.

    Decisions are written to ``record[r, p]`` (the band player p claims from their own hand,
    their votes in the private settle as the lower and as the upper of a pair, the settle's
    swapped steps) and the
    announcements / shown card to ``info_out`` (per player for Investor / Math Whiz, index
    ``players`` for Getaway Driver, Mastermind, Informant). Replay (the hidden-card swap test,
    when ``replay_chips`` has 4 rows): after the after-deal cards every pocket slot with
    ``hidden_swap`` >= 0 takes that card, and the public record is forced to a given one: each
    round's claims (``replay_bands``, the settle's swapped steps in its last column) and chips
    (``replay_chips``) and the announcements and
    shown card (``replay_info``, as ``info_out``). Returns (order correct, scan passed,
    redrawn-player bit mask, specialist user or -1, specialist detail or -1 (shown card /
    announced value / discarded slot), scan guess or -1, exact random-order success, Informant
    viewer or -1).

    Inlined into its one compiled caller, :func:`play_batch_kernel` (numba links and
    optimises every compiled callee once more in each caller: a kernel of its own would
    compile the whole heist twice); :func:`play_heist` plays one heist through that kernel.
    """
    np.random.seed(seed)
    helpful = use_rule != ALWAYS
    size = pocket_size(challenges)
    bands = levels * players
    draw = deal(deck, players, size, pockets, board, chips)

    # Holdings the percentile and bayes models reason about (bayes with the Jack: also the
    # holdings with the suitless Jack, valid once it has been used).
    jack_space = model == BAYES and specialist == JACK and size == 2
    count, hold_cards, hold_masks = opponent_holdings(size, pair_cards, pair_masks, work_cards, work_masks)
    space = count + N_JACK_PAIRS if jack_space else count

    # Per-holding beliefs are only kept where a model, a scan or the group's estimate reads them.
    scans = has_challenge(challenges, 4) or has_challenge(challenges, 9)
    estimate = helpful and (specialist == HACKER or specialist == JACK or specialist == MUSCLE)
    width = space if model == BAYES or scans or estimate else 1
    valid = np.zeros(space, dtype=np.bool_)
    hscores = np.zeros(space, dtype=np.int64)
    hpct = np.zeros(width)
    hband = np.zeros((4, width), dtype=np.int64)
    # bayes with the Muscle: the band of every holding raised by the Muscle, per round
    muscle_band = np.zeros((4, width if model == BAYES and specialist == MUSCLE else 1), dtype=np.int64)
    public_ok = np.ones((players, space if model == BAYES else 1), dtype=np.bool_)
    chip_ok = np.ones((players, space if estimate and model != BAYES else 1), dtype=np.bool_)
    # Each earlier round's holding scores, for the estimate's chip likelihood (percentile and
    # history: exact, :func:`cardsim.sims.gang.estimate_weights.chips_likelihood_ratio`; bayes:
    # its claims and settle replayed,
    # :func:`cardsim.sims.gang.estimate_weights.bayes_round_likelihood`).
    past = space if estimate else 1
    round_scores = np.zeros((4, past), dtype=np.int64)
    round_valid = np.zeros((4, past), dtype=np.bool_)
    round_values = np.zeros((4, past), dtype=np.int64)
    round_count = np.zeros(4, dtype=np.int64)
    public_prior = np.ones((players, space if jack_space else 1))
    if jack_space:
        public_prior[:, count:] = 0.0
    known_card = np.full((players, players), -1, dtype=np.int64)
    no_card = np.full((players, players), -1, dtype=np.int64)
    evidence_from = np.zeros(players, dtype=np.int64)
    redrawn = 0
    user = -1
    detail = -1
    target = -1  # Informant: the viewer
    guess = -1
    muscle_seat = -1

    own = np.zeros(players, dtype=np.int64)
    own_masks = np.zeros(players, dtype=np.int64)
    keys = np.zeros(players)
    votes = np.zeros((players, 2), dtype=np.int64)
    record[:, :, :] = 0.0
    info_out[:] = -1
    bands_claimed = np.zeros(players, dtype=np.int64)
    ratings = np.zeros(players)
    beliefs = np.zeros(players)
    weights = np.zeros((players, width))
    row = np.zeros(players, dtype=np.int64)
    score_work = np.zeros(SCORE_WORK, dtype=np.int64)

    # Specialists that act right after the deal (seed 000, "THẺ CHUYÊN GIA" 3, 6, 8, 9).
    old_masks = np.zeros(players, dtype=np.int64)
    informed = np.zeros(players, dtype=np.bool_)
    prior = np.ones((players, count if model == BAYES and specialist == CON_ARTIST else 1))
    replay = replay_chips.shape[0] == 4
    after_deal_cards(
        specialist,
        model,
        players,
        size,
        pockets,
        count,
        hold_cards,
        public_ok,
        known_card,
        old_masks,
        informed,
        replay,
        hidden_swap,
        replay_info,
        info_out,
    )

    rules = HeistRules(
        challenges,
        specialist,
        model,
        players,
        size,
        levels,
        bands,
        use_round,
        helpful,
        estimate,
        scans,
        jack_space,
        replay,
    )
    ratings_of = HoldingRatings(valid, hscores, hpct, hband, muscle_band)
    public = PublicBeliefs(likelihood, evidence_from, public_ok, public_prior, weights)
    past_rounds = (round_scores, round_valid, round_values, round_count)
    private = PrivateKnowledge(known_card, no_card, old_masks, prior, informed)
    record_io = HeistRecord(record, info_out, replay_chips, replay_bands, replay_info)
    work = ClaimScratch(own, own_masks, keys, ratings, beliefs, bands_claimed, votes, row, score_work)
    for r in range(4):
        if r == 1:
            seat, draw = flop_redraw(challenges, board, chips, players, pockets, size, deck, draw)
            if seat >= 0:
                redrawn |= 1 << seat
                evidence_from[seat] = 1  # the new pocket voids what was known about the old one
                public_ok[seat, :] = True
                known_card[:, seat] = -1
        if r == use_round and specialist in GROUP_SPECIALISTS and specialist != INFORMANT:
            used, count, used_by, used_detail, draw, seat = group_specialist(
                specialist,
                model,
                r,
                use_rule,
                seed,
                chips,
                players,
                pockets,
                size,
                bands,
                board,
                deck,
                draw,
                challenges,
                boost_star_top,
                jack_stays,
                jack_space,
                space,
                Holdings(hold_cards, hold_masks, count),
                valid,
                hband,
                likelihood,
                evidence_from,
                public_ok,
                chip_ok,
                public_prior,
                weights,
                (round_scores, round_valid, round_values, round_count),
                replay_info[players] if replay else -1,
            )
            if used:
                user, detail = used_by, used_detail
                if specialist == GETAWAY_DRIVER or specialist == MASTERMIND:
                    info_out[players] = detail
                if specialist == MUSCLE:
                    muscle_seat = seat

        if not round_has_chips(challenges, r):
            continue
        if model != RANDOM:
            user, detail, target = rated_claims(
                r,
                rules,
                pockets,
                board,
                chips,
                Holdings(hold_cards, hold_masks, count),
                pair_cards,
                ratings_of,
                public,
                past_rounds,
                private,
                record_io,
                work,
                muscle_seat,
                redrawn,
                (user, detail, target),
            )
        user, detail, target = chip_round(
            r, rules, pockets, board, chips, keys, bands_claimed, row, replay_chips, known_card, (user, detail, target)
        )

    final_scores(pockets, size, board, players, muscle_seat, finals)
    order_ok = showdown_in_order(finals, chips[3], players)
    scan_ok = True
    if scans:
        scan_ok, guess = scan_phase(
            challenges,
            chips,
            players,
            model,
            count,
            valid,
            hband,
            likelihood,
            evidence_from,
            public_ok,
            public_prior,
            jack_space,
            weights,
            muscle_seat,
            use_round,
            muscle_band,
            board,
            hold_cards,
            hold_masks,
            size,
            hscores,
            pockets,
            finals,
        )
    return (order_ok, scan_ok, redrawn, user, detail, guess, random_order_success(finals, players), target)


@kernel(inline="always")
def heist_buffers(
    players: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The scratch arrays one heist is played in, reused by every heist of a batch: sampled
    triples (cards, masks), pockets, board, chips, final scores and the deck."""
    return (
        np.zeros((N_TRIPLES, MAX_POCKET), dtype=np.int64),
        np.zeros(N_TRIPLES, dtype=np.int64),
        np.zeros((players, MAX_POCKET), dtype=np.int64),
        np.zeros(5, dtype=np.int64),
        np.zeros((4, players), dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(52, dtype=np.int64),
    )


@kernel(inline="always")
def store_heist(
    i: int,
    players: int,
    pockets: np.ndarray,
    board: np.ndarray,
    chips: np.ndarray,
    finals: np.ndarray,
    out_pockets: np.ndarray,
    out_board: np.ndarray,
    out_chips: np.ndarray,
    out_finals: np.ndarray,
) -> None:
    """Copy one heist's cards, chips and final scores into row ``i`` of the batch outputs,
    element by element (an array slice assignment would compile numba's shape-mismatch error
    message, string formatting and all, into the batch kernel)."""
    for p in range(players):
        for s in range(pockets.shape[1]):
            out_pockets[i, p, s] = pockets[p, s]
        out_finals[i, p] = finals[p]
        for r in range(4):
            out_chips[i, r, p] = chips[r, p]
    for k in range(5):
        out_board[i, k] = board[k]


@kernel
def play_batch_kernel(
    decks: np.ndarray,
    seeds: np.ndarray,
    challenges: np.ndarray,
    specialists: np.ndarray,
    players: int,
    model: int,
    levels: int,
    use_round: int,
    boost_star_top: bool,
    likelihood: np.ndarray,
    out_pockets: np.ndarray,
    out_board: np.ndarray,
    out_chips: np.ndarray,
    out_finals: np.ndarray,
    out_flags: np.ndarray,
    out_random_p: np.ndarray,
    pair_cards: np.ndarray,
    pair_masks: np.ndarray,
    use_rule: int,
    jack_stays: bool,
    replay_chips: np.ndarray,
    replay_bands: np.ndarray,
    replay_info: np.ndarray,
    hidden_swap: np.ndarray,
    record: np.ndarray,
    info_out: np.ndarray,
) -> None:
    """Play ``len(seeds)`` heists; out_flags columns: order ok, scan ok, redrawn mask,
    specialist user, specialist detail, scan guess, specialist target (Informant viewer)
    or -1. ``replay_chips`` ... ``info_out`` as in :func:`play_heist_inline` (``replay_chips``
    of one row: no replay; ``record`` and ``info_out`` end with the last heist's)."""
    work_cards, work_masks, pockets, board, chips, finals, deck = heist_buffers(players)
    for i in range(seeds.shape[0]):
        for k in range(52):
            deck[k] = decks[i, k]
        order_ok, scan_ok, redrawn, user, detail, guess, p_random, target = play_heist_inline(
            deck,
            seeds[i],
            challenges[i],
            specialists[i],
            players,
            model,
            levels,
            use_round,
            boost_star_top,
            likelihood,
            pockets,
            board,
            chips,
            finals,
            pair_cards,
            pair_masks,
            work_cards,
            work_masks,
            use_rule,
            jack_stays,
            replay_chips,
            replay_bands,
            replay_info,
            hidden_swap,
            record,
            info_out,
        )
        store_heist(i, players, pockets, board, chips, finals, out_pockets, out_board, out_chips, out_finals)
        out_flags[i, 0] = order_ok
        out_flags[i, 1] = scan_ok
        out_flags[i, 2] = redrawn
        out_flags[i, 3] = user
        out_flags[i, 4] = detail
        out_flags[i, 5] = guess
        out_flags[i, 6] = target
        out_random_p[i] = p_random


@kernel
def play_plain_batch(
    decks: np.ndarray,
    seeds: np.ndarray,
    challenges: np.ndarray,
    players: int,
    model: int,
    levels: int,
    out_pockets: np.ndarray,
    out_board: np.ndarray,
    out_chips: np.ndarray,
    out_finals: np.ndarray,
    out_flags: np.ndarray,
    out_random_p: np.ndarray,
    pair_cards: np.ndarray,
    pair_masks: np.ndarray,
) -> None:
    """:func:`play_batch_kernel` for heists of :func:`play_plain_heist` (no specialist, no
    scan; random, percentile or history): the same rows. Allocates the heists' arrays and
    plays them in :func:`_play_plain_heists`."""
    _play_plain_heists(
        decks,
        seeds,
        challenges,
        players,
        model,
        levels,
        (out_pockets, out_board, out_chips, out_finals, out_flags, out_random_p),
        pair_cards,
        pair_masks,
        heist_buffers(players),
        plain_scratch(players),
    )


@kernel(refcounts=False)
def _play_plain_heists(
    decks: np.ndarray,
    seeds: np.ndarray,
    challenges: np.ndarray,
    players: int,
    model: int,
    levels: int,
    outputs: tuple,
    pair_cards: np.ndarray,
    pair_masks: np.ndarray,
    buffers: tuple,
    scratch: tuple,
) -> None:
    """The heist loop of :func:`play_plain_batch`, which allocates every array it writes (the
    batch ``outputs``, :func:`heist_buffers` and :func:`plain_scratch`), so the loop runs
    without reference counting."""
    out_pockets, out_board, out_chips, out_finals, out_flags, out_random_p = outputs
    work_cards, work_masks, pockets, board, chips, finals, deck = buffers
    for i in range(seeds.shape[0]):
        for k in range(52):
            deck[k] = decks[i, k]
        order_ok, redrawn, p_random = play_plain_heist(
            deck,
            seeds[i],
            challenges[i],
            players,
            model,
            levels,
            pockets,
            board,
            chips,
            finals,
            pair_cards,
            pair_masks,
            work_cards,
            work_masks,
            scratch,
        )
        store_heist(i, players, pockets, board, chips, finals, out_pockets, out_board, out_chips, out_finals)
        out_flags[i, 0] = order_ok
        out_flags[i, 1] = True
        out_flags[i, 2] = redrawn
        out_flags[i, 3:] = -1  # no specialist user, detail, scan guess or Informant viewer
        out_random_p[i] = p_random


SCAN_CHALLENGES = (1 << 4) | (1 << 9)  # Retina Scan, Fingerprint Scan


def play_batch(
    rng: np.random.Generator,
    players: int,
    model: int,
    levels: int,
    challenges: np.ndarray,
    specialists: np.ndarray,
    use_round: int = 3,
    decks: np.ndarray | None = None,
    boost_top: bool = True,
    helpful: bool = True,
    jack_stays: bool = True,
) -> dict[str, np.ndarray]:
    """Play one heist per entry of ``challenges``/``specialists`` (challenge bit masks and
    specialist numbers, 0 = none); decks and per-heist seeds come from ``rng`` unless fixed
    ``decks`` (rows of 52 card codes) are given. ``helpful`` / ``jack_stays``: the
    ``specialist_use`` and ``jack`` readings (config). Returns the raw per-heist arrays."""
    from cardsim.sims.gang.models import chip_likelihood

    n = len(challenges)
    if decks is None:
        decks = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (n, 1)), axis=1)
    seeds = rng.integers(0, 2**32 - 1, size=n, dtype=np.int64)
    likelihood = chip_likelihood(players, levels * players)
    out = {
        "pockets": np.full((n, MAX_PLAYERS, MAX_POCKET), -1, dtype=np.int64),
        "board": np.zeros((n, 5), dtype=np.int64),
        "chips": np.zeros((n, 4, MAX_PLAYERS), dtype=np.int64),
        "finals": np.zeros((n, MAX_PLAYERS), dtype=np.int64),
        "flags": np.zeros((n, 7), dtype=np.int64),
        "random_p": np.zeros(n),
    }
    decks = np.ascontiguousarray(decks, dtype=np.int64)
    challenges = np.asarray(challenges, dtype=np.int64)
    specialists = np.asarray(specialists, dtype=np.int64)
    if model in (RANDOM, PERCENTILE, HISTORY) and not specialists.any() and not (challenges & SCAN_CHALLENGES).any():
        play_plain_batch(
            decks,
            seeds,
            challenges,
            players,
            model,
            levels,
            out["pockets"],
            out["board"],
            out["chips"],
            out["finals"],
            out["flags"],
            out["random_p"],
            PAIRS_WITH_JACK.copy(),
            PAIR_MASKS_WITH_JACK.copy(),
        )
        return out
    no_replay = np.zeros((1, players + 1), dtype=np.int64)
    play_batch_kernel(
        decks,
        seeds,
        challenges,
        specialists,
        players,
        model,
        levels,
        use_round,
        boost_top,
        likelihood,
        out["pockets"],
        out["board"],
        out["chips"],
        out["finals"],
        out["flags"],
        out["random_p"],
        PAIRS_WITH_JACK.copy(),
        PAIR_MASKS_WITH_JACK.copy(),
        HELPFUL if helpful else ALWAYS,
        jack_stays,
        no_replay,
        no_replay,
        np.zeros(players + 1, dtype=np.int64),
        np.full((1, MAX_POCKET), -1, dtype=np.int64),
        np.zeros((4, players, 4)),
        np.zeros(players + 1, dtype=np.int64),
    )
    return out


def play_heist(
    deck: np.ndarray,
    seed: int,
    challenges: int,
    specialist: int,
    players: int,
    model: int,
    levels: int,
    use_round: int,
    boost_star_top: bool,
    likelihood: np.ndarray,
    pockets: np.ndarray,
    board: np.ndarray,
    chips: np.ndarray,
    finals: np.ndarray,
    pair_cards: np.ndarray,
    pair_masks: np.ndarray,
    use_rule: int,
    jack_stays: bool,
    replay_chips: np.ndarray,
    replay_bands: np.ndarray,
    replay_info: np.ndarray,
    hidden_swap: np.ndarray,
    record: np.ndarray,
    info_out: np.ndarray,
) -> tuple[bool, bool, int, int, int, int, float, int]:
    """One heist of :func:`play_heist_inline` (its arguments but the scratch space, which the
    batch kernel brings itself; same result; ``pockets``, ``board``, ``chips``, ``finals``,
    ``record`` and ``info_out`` filled in place), played by :func:`play_batch_kernel` as a
    batch of one so that it runs the batches' compiled code (the hidden-swap test replays
    heists with it)."""
    out_pockets = np.full((1, players, MAX_POCKET), -1, dtype=np.int64)
    out_board = np.zeros((1, 5), dtype=np.int64)
    out_chips = np.zeros((1, 4, players), dtype=np.int64)
    out_finals = np.zeros((1, players), dtype=np.int64)
    flags = np.zeros((1, 7), dtype=np.int64)
    random_p = np.zeros(1)
    play_batch_kernel(
        np.ascontiguousarray(deck, dtype=np.int64).reshape(1, 52),
        np.array([seed], np.int64),
        np.array([challenges], np.int64),
        np.array([specialist], np.int64),
        int(players),
        int(model),
        int(levels),
        int(use_round),
        bool(boost_star_top),
        likelihood,
        out_pockets,
        out_board,
        out_chips,
        out_finals,
        flags,
        random_p,
        pair_cards,
        pair_masks,
        int(use_rule),
        bool(jack_stays),
        replay_chips,
        replay_bands,
        replay_info,
        hidden_swap,
        record,
        info_out,
    )
    pockets[:players] = out_pockets[0]
    board[:] = out_board[0]
    chips[:, :players] = out_chips[0]
    finals[:players] = out_finals[0]
    row = flags[0]
    return (
        bool(row[0]),
        bool(row[1]),
        int(row[2]),
        int(row[3]),
        int(row[4]),
        int(row[5]),
        float(random_p[0]),
        int(row[6]),
    )
