"""The heist kernel: deal, four chip rounds under a player model, cards' hooks, showdown.

One heist (seed 000, "Quy trình vụ cướp"): every player gets pocket cards; rounds 1-4
(pre-flop, flop, turn, river) show 0, 3, 4, 5 community cards and hand out the white, yellow,
orange and red chips 1..n; at the showdown the hands are revealed in ascending red-chip order
and the heist succeeds when no revealed hand is weaker than the one before
(:func:`showdown_in_order`, true ties allowed in either order).

All randomness of a heist comes from its shuffled deck and its seed (numba's generator seeded
per heist), both drawn from the run's numpy Generator by :func:`play_batch`, so results are
reproducible and independent of chunking. Card hooks (see :mod:`cardsim.sims.gang.cards`) run at
fixed points of the round loop: after the deal (Investor, Math Whiz, Coordinator, Con Artist),
at the start of a round (Motion Detector / Laser Tripwires redraws at the flop; the group's
specialists at their use round), while allocating chips (locks, Blackout; the Informant, played
in the use round's chip dance once the claims are on the table) and at the showdown (Muscle,
Retina Scan, Fingerprint Scan). Information a card reveals reaches the bayes model as filters
over the holdings it considers (announcements) or as a player's private view that settles
equal claims (Informant, Coordinator, Con Artist).

Work sharing: each round the board's masks are built once and every possible opponent holding
(all 1,326 pairs, or 1,000 sampled triples under Security Cameras) is scored once; every
player's percentile is then a count over that shared list.
"""

from __future__ import annotations

import numpy as np
from cardsim.sims.core.jit import kernel

from cardsim.sims.gang.cards import (
    blackout_hides_history,
    fingerprint_ranking,
    con_artist_redeal,
    coordinator_pass,
    getaway_driver_category,
    has_challenge,
    investor_face_count,
    locked_chips,
    mastermind_count,
    math_whiz_total,
    muscle_score,
    pocket_size,
    redraw_star,
    retina_scan_passes,
    round_has_chips,
    swap_in_card,
    fingerprint_scan_passes,
    card_rank,
)
from cardsim.sims.gang.hands import (
    JACK_RANK,
    SUITLESS_JACK,
    POPCOUNT,
    add_card,
    category_of_score,
    score_masks,
    score_ranks,
)
from cardsim.sims.gang.models import BAYES, HISTORY, LEAKY, PERCENTILE, RANDOM
from cardsim.sims.gang.preflop import EQUITY, class_index

MAX_PLAYERS = 6
MAX_POCKET = 3
N_PAIRS = 1326
N_TRIPLES = 1000
BOARD_SIZES = (0, 3, 4, 5)
EQUITY_SCALE = 10_000


def _pair_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All 1,326 two-card holdings, their card bit masks and their pre-flop table values."""
    pairs = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    masks = (np.int64(1) << pairs[:, 0]) | (np.int64(1) << pairs[:, 1])
    preflop = np.array(
        [round(EQUITY[class_index(int(a), int(b))] * EQUITY_SCALE) for a, b in pairs], dtype=np.int64
    )
    return pairs, masks, preflop


PAIRS, PAIR_MASKS, PAIR_PREFLOP = _pair_tables()
N_JACK_PAIRS = 52


def _jack_pair_tables() -> tuple[np.ndarray, np.ndarray]:
    """The 1,326 holdings followed by the 52 holdings (card, suitless Jack) a Jack user may end
    with (the Jack is no card of the deck: its bit is not in the mask)."""
    jack = np.array([(c, SUITLESS_JACK) for c in range(52)], dtype=np.int64)
    cards = np.concatenate([PAIRS, jack])
    masks = np.concatenate([PAIR_MASKS, np.int64(1) << jack[:, 0]])
    return cards, masks


PAIRS_WITH_JACK, PAIR_MASKS_WITH_JACK = _jack_pair_tables()
_PAIR_RANKS = np.where(PAIRS_WITH_JACK == SUITLESS_JACK, JACK_RANK, PAIRS_WITH_JACK >> 2)
PAIR_CLASS = 13 * _PAIR_RANKS.min(axis=1) + _PAIR_RANKS.max(axis=1)
EQUITY_Q = np.round(EQUITY * EQUITY_SCALE).astype(np.int64)


@kernel
def preflop_value(pocket: np.ndarray, size: int) -> int:
    """Pre-flop rating of a pocket: table value of its best two-card class (2 or 3 cards)."""
    best = 0
    for a in range(size):
        for b in range(a + 1, size):
            value = EQUITY_Q[class_index(pocket[a], pocket[b])]
            if value > best:
                best = value
    return best


@kernel
def hand_score(pocket: np.ndarray, size: int, board: np.ndarray, shown: int) -> int:
    """Score of the best five of the pocket plus the ``shown`` first community cards."""
    suits = np.zeros(4, dtype=np.int64)
    m1 = m2 = m3 = m4 = m5 = 0
    for k in range(shown):
        m1, m2, m3, m4, m5 = add_card(m1, m2, m3, m4, m5, suits, board[k])
    for k in range(size):
        m1, m2, m3, m4, m5 = add_card(m1, m2, m3, m4, m5, suits, pocket[k])
    return score_masks(m1, m2, m3, m4, m5, suits)


@kernel
def strength(pocket: np.ndarray, size: int, board: np.ndarray, shown: int) -> int:
    """What a player rates in a round: the pre-flop table value, later the current best hand."""
    if shown == 0:
        return preflop_value(pocket, size)
    return hand_score(pocket, size, board, shown)


@kernel
def showdown_in_order(final_scores: np.ndarray, red_chips: np.ndarray, players: int) -> bool:
    """Showdown (seed 000, "Màn so bài"): reveal in ascending red-chip order; success iff every
    revealed hand is at least as strong as the previous one (so true ties pass either way, but
    tied players must still sit correctly against everyone else)."""
    order = np.argsort(red_chips[:players])
    for k in range(1, players):
        if final_scores[order[k]] < final_scores[order[k - 1]]:
            return False
    return True


@kernel
def random_order_success(final_scores: np.ndarray, players: int) -> float:
    """Exact chance that a uniformly random red-chip order passes the showdown for this deal:
    the number of orders consistent with the true ranking (product of tie-group sizes
    factorial) over players factorial."""
    sorted_scores = np.sort(final_scores[:players])
    ways = 1.0
    run = 1
    for k in range(1, players + 1):
        if k < players and sorted_scores[k] == sorted_scores[k - 1]:
            run += 1
        else:
            for f in range(2, run + 1):
                ways *= f
            run = 1
    total = 1.0
    for f in range(2, players + 1):
        total *= f
    return ways / total


@kernel
def chips_from_keys(keys: np.ndarray, players: int, out: np.ndarray) -> None:
    """Settled allocation: the player with the k-th smallest claim key holds the (k+1)-star chip.

    This is where the chip dance ends when players may take chips from the middle or from each
    other (seed 000, round rules): every higher claim ends above every lower one, and the key's
    tie-breaking part is the model's contest rule.
    """
    order = np.argsort(keys[:players])
    for k in range(players):
        out[order[k]] = k + 1


@kernel
def pocket_mask(pocket: np.ndarray, size: int) -> int:
    """Bit set of the pocket's cards (the suitless Jack is no card of the deck: left out)."""
    mask = np.int64(0)
    for s in range(size):
        if pocket[s] != SUITLESS_JACK:
            mask |= np.int64(1) << pocket[s]
    return mask


@kernel
def holder_of(chips: np.ndarray, before_round: int, star: int, players: int, fallback: int) -> int:
    """Who holds ``star`` in the latest chip round before ``before_round`` (or seat ``fallback``)."""
    for t in range(before_round - 1, -1, -1):
        for p in range(players):
            if chips[t, p] == star:
                return p
    return fallback


@kernel
def best_drop_slot(pocket: np.ndarray, size: int, new_card: int, board: np.ndarray, shown: int,
                   may_drop_new: bool) -> int:
    """Which card to discard after adding ``new_card`` (slot ``size`` = the new card itself,
    only when ``may_drop_new``: Hacker always, Jack under the "discard" reading): the choice
    that leaves the strongest current hand (the user sees their cards and the board)."""
    trial = np.empty(MAX_POCKET + 1, dtype=np.int64)
    best_slot = size
    best_value = strength(pocket, size, board, shown) if may_drop_new else np.int64(-1)
    for slot in range(size):
        for k in range(size):
            trial[k] = pocket[k]
        trial[slot] = new_card
        value = strength(trial, size, board, shown)
        if value > best_value:
            best_value = value
            best_slot = slot
    return best_slot


@kernel
def key_card_slot(pocket: np.ndarray, size: int, board: np.ndarray, shown: int) -> int:
    """The pocket card the hand depends on most: without it the rest is weakest (ties: the
    higher card). This is the card an Informant shows."""
    rest = np.empty(MAX_POCKET, dtype=np.int64)
    best_slot = 0
    best_loss = np.int64(1) << 62
    for slot in range(size):
        k = 0
        for s in range(size):
            if s != slot:
                rest[k] = pocket[s]
                k += 1
        if shown > 0:
            remaining = hand_score(rest, size - 1, board, shown)
        else:
            remaining = card_rank(rest[0])
        if remaining < best_loss or (remaining == best_loss
                                     and card_rank(pocket[slot]) > card_rank(pocket[best_slot])):
            best_loss = remaining
            best_slot = slot
    return best_slot


GROUP_SPECIALISTS = (1, 2, 4, 5, 7, 10)  # used "at any time" by a player the group chooses


@kernel
def use_group_specialist(
    specialist: int, r: int, chips: np.ndarray, players: int, pockets: np.ndarray, size: int,
    board: np.ndarray, shown: int, deck: np.ndarray, draw: int, boost_star_top: bool,
    hold_cards: np.ndarray, count: int, public_ok: np.ndarray, jack_stays: bool,
    forced_said: int,
) -> tuple[int, int, int, int]:
    """The group plays a specialist at the start of round ``r`` (seed 000, "THẺ CHUYÊN GIA"
    2, 4, 5, 7, 10; who uses it is the model's rule, digest "Cards"; the Informant is played
    in the chip dance instead, see :func:`informant_pair`). Information goes into
    ``public_ok`` (announcement filters over the holdings; a single column when no model reads
    them); ``forced_said`` >= 0 replaces the announcement (replay, see :func:`play_heist`).

    Returns (user seat, detail: announced value / dropped slot, next draw index, Muscle seat
    or -1).
    """
    middle = (players + 1) // 2
    if specialist == 2 or specialist == 4:  # announcements by the middle chip holder
        user = holder_of(chips, r, middle, players, 0)
        asked = 0  # Mastermind asks about the highest value on the board
        for k in range(shown):
            asked = max(asked, card_rank(board[k]))
        if forced_said >= 0:  # replay (the swap test): the public record is given
            said = forced_said
        elif specialist == 2:
            said = getaway_driver_category(hand_score(pockets[user], size, board, shown))
        else:
            said = mastermind_count(pockets[user], asked)
        for h in range(count if public_ok.shape[1] == count else 0):  # only bayes listens
            if specialist == 2:
                heard = getaway_driver_category(hand_score(hold_cards[h], size, board, shown))
            else:
                heard = mastermind_count(hold_cards[h], asked)
            public_ok[user, h] = public_ok[user, h] and heard == said
        return user, said, draw, -1
    if specialist == 5 or specialist == 7:  # Hacker / Jack: one player improves
        user = holder_of(chips, r, players if boost_star_top else 1, players, 0)
        if specialist == 5:
            new_card = deck[draw]
            draw += 1
        else:
            new_card = SUITLESS_JACK
        slot = best_drop_slot(pockets[user], size, new_card, board, shown,
                              specialist == 5 or not jack_stays)
        swap_in_card(pockets[user], size, new_card, slot)
        # The user keeps the best hand, so it only got stronger: the earlier chips stay as
        # (conservative) evidence about it for the bayes model.
        return user, slot, draw, -1
    user = holder_of(chips, r, players, players, 0)  # Muscle: the latest top chip holder
    return user, -1, draw, user


@kernel
def sample_triples(out_cards: np.ndarray, out_masks: np.ndarray, count: int) -> None:
    """``count`` uniformly random three-card holdings (Security Cameras hypotheses)."""
    for h in range(count):
        a = np.random.randint(0, 52)
        b = a
        while b == a:
            b = np.random.randint(0, 52)
        c = a
        while c == a or c == b:
            c = np.random.randint(0, 52)
        out_cards[h, 0] = a
        out_cards[h, 1] = b
        out_cards[h, 2] = c
        out_masks[h] = (np.int64(1) << a) | (np.int64(1) << b) | (np.int64(1) << c)


@kernel
def score_holdings(
    cards: np.ndarray, masks: np.ndarray, count: int, size: int, board: np.ndarray, shown: int,
    valid: np.ndarray, scores: np.ndarray,
) -> int:
    """Score every holding not colliding with the shown board (shared per board); returns how
    many are valid. Pre-flop the score is the starting-hand table value.

    Two-card holdings that cannot make a flush share their score with every holding of the same
    two ranks, so only the 91 rank classes are evaluated; holdings with enough cards of the
    board's majority suit are evaluated in full.
    """
    board_mask = np.int64(0)
    for k in range(shown):
        board_mask |= np.int64(1) << board[k]
    suits0 = np.zeros(4, dtype=np.int64)
    b1 = b2 = b3 = b4 = b5 = 0
    for k in range(shown):
        b1, b2, b3, b4, b5 = add_card(b1, b2, b3, b4, b5, suits0, board[k])
    flush_suit = -1
    need = 99
    for s in range(4):
        on_board = POPCOUNT[suits0[s]]
        if on_board + size >= 5:
            flush_suit = s
            need = 5 - on_board
    class_scores = np.zeros(169, dtype=np.int64)
    if size == 2 and shown > 0:
        for ra in range(13):
            for rb in range(ra, 13):
                m1, m2, m3, m4, m5 = b1, b2, b3, b4, b5
                m1, m2, m3, m4, m5 = _add_rank(m1, m2, m3, m4, m5, ra)
                m1, m2, m3, m4, m5 = _add_rank(m1, m2, m3, m4, m5, rb)
                class_scores[ra * 13 + rb] = score_ranks(m1, m2, m3, m4, m5)
    suits = np.zeros(4, dtype=np.int64)
    n_valid = 0
    for h in range(count):
        if masks[h] & board_mask:
            valid[h] = False
            continue
        valid[h] = True
        n_valid += 1
        if shown == 0:
            if size == 2:
                scores[h] = PAIR_PREFLOP[h]
            else:
                scores[h] = preflop_value(cards[h], size)
            continue
        if size == 2:
            in_suit = 0
            if flush_suit >= 0:
                for k in range(2):
                    if cards[h, k] != SUITLESS_JACK and cards[h, k] & 3 == flush_suit:
                        in_suit += 1
            if flush_suit < 0 or in_suit < need:
                scores[h] = class_scores[PAIR_CLASS[h]]
                continue
        for s in range(4):
            suits[s] = suits0[s]
        m1, m2, m3, m4, m5 = b1, b2, b3, b4, b5
        for k in range(size):
            m1, m2, m3, m4, m5 = add_card(m1, m2, m3, m4, m5, suits, cards[h, k])
        scores[h] = score_masks(m1, m2, m3, m4, m5, suits)
    return n_valid


@kernel(inline="always")
def _add_rank(m1: int, m2: int, m3: int, m4: int, m5: int, rank: int):
    """Add one card of ``rank`` to the multiplicity masks, ignoring its suit."""
    bit = 1 << rank
    if m4 & bit:
        m5 |= bit
    elif m3 & bit:
        m4 |= bit
    elif m2 & bit:
        m3 |= bit
    elif m1 & bit:
        m2 |= bit
    else:
        m1 |= bit
    return m1, m2, m3, m4, m5


def _card_pairs() -> np.ndarray:
    """For each card, the indices of the 51 two-card holdings that contain it."""
    table = np.zeros((52, 51), dtype=np.int64)
    filled = np.zeros(52, dtype=np.int64)
    for index, (a, b) in enumerate(PAIRS):
        table[a, filled[a]] = index
        filled[a] += 1
        table[b, filled[b]] = index
        filled[b] += 1
    return table


CARD_PAIRS = _card_pairs()
NO_HOLDING = np.int64(1) << 40  # score of a holding that collides with the board: never counted


@kernel
def pair_percentiles(scores: np.ndarray, valid: np.ndarray, own: np.ndarray, pockets: np.ndarray,
                     players: int, pair_cards: np.ndarray, ratings: np.ndarray) -> None:
    """Every player's percentile among the two-card holdings they could face (valid holdings
    without their own cards; ties one half), shared per board: one branch-free pass counts
    against all holdings, then the at most 101 holdings that use a player's own cards are
    taken back out."""
    count = scores.shape[0]
    masked = np.empty(count, dtype=np.int64)
    n_valid = 0
    for h in range(count):
        masked[h] = scores[h] if valid[h] else NO_HOLDING
        n_valid += valid[h]
    for p in range(players):
        target = own[p]
        less = 0
        equal = 0
        for h in range(count):
            value = masked[h]
            less += value < target
            equal += value == target
        total = n_valid
        first = pockets[p, 0]
        second = pockets[p, 1]
        for c in (first, second):
            if c < 0 or c >= 52:  # the suitless Jack is in no holding
                continue
            for k in range(51):
                h = CARD_PAIRS[c, k]
                if not valid[h]:
                    continue
                if c == second and first < 52 and _pair_has(pair_cards, h, first):
                    continue  # the holding of both own cards was already taken out
                total -= 1
                less -= masked[h] < target
                equal -= masked[h] == target
        ratings[p] = (less + 0.5 * equal) / max(total, 1)


@kernel(inline="always")
def _pair_has(pair_cards: np.ndarray, h: int, card: int) -> bool:
    return pair_cards[h, 0] == card or pair_cards[h, 1] == card


@kernel
def sort_valid(scores: np.ndarray, valid: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the valid holdings sorted by score, and their sorted scores."""
    n_valid = 0
    for h in range(count):
        if valid[h]:
            n_valid += 1
    index = np.empty(n_valid, dtype=np.int64)
    k = 0
    for h in range(count):
        if valid[h]:
            index[k] = h
            k += 1
    packed = np.empty(n_valid, dtype=np.int64)
    for k in range(n_valid):
        packed[k] = (scores[index[k]] << 12) | index[k]
    packed.sort()
    values = np.empty(n_valid, dtype=np.int64)
    for k in range(n_valid):
        index[k] = packed[k] & 4095
        values[k] = packed[k] >> 12
    return index, values


@kernel
def holding_percentiles(index: np.ndarray, values: np.ndarray, out: np.ndarray) -> None:
    """Percentile of each valid holding among all valid holdings (ties count one half)."""
    n_valid = values.shape[0]
    k = 0
    while k < n_valid:
        end = k
        while end + 1 < n_valid and values[end + 1] == values[k]:
            end += 1
        pct = (k + 0.5 * (end + 1 - k)) / n_valid
        for m in range(k, end + 1):
            out[index[m]] = pct
        k = end + 1


@kernel
def jack_pushforward(user_weights: np.ndarray, hold_cards: np.ndarray, count: int,
                     board: np.ndarray, shown: int, may_drop_jack: bool,
                     out: np.ndarray) -> None:
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


@kernel(inline="always")
def _lcg(state: int) -> int:
    """Next state of the group estimate's own generator (keeps the heist's stream intact)."""
    return state * 6364136223846793005 + 1442695040888963407


@kernel(inline="always")
def _lcg_uniform(state: int) -> float:
    return ((state >> 11) & ((np.int64(1) << 53) - 1)) * (1.0 / 9007199254740992.0)


ESTIMATE_SAMPLES = 64


@kernel
def group_expects_gain(
    specialist: int, model: int, r: int, chips: np.ndarray, players: int, size: int,
    bands: int, board: np.ndarray, shown: int, boost_star_top: bool, hold_cards: np.ndarray,
    hold_masks: np.ndarray, count: int, weights: np.ndarray, hidden_history: bool,
    jack_stays: bool, seed: int,
) -> bool:
    """``--specialist-use helpful``: does the group, on public information at the moment of
    use (start of the use round), expect the specialist to raise success? (seed 000: the group
    decides who uses it; we read that it may also decline.)

    Getaway Driver / Mastermind: only the bayes model reads announcements; it expects a gain
    when the answer is not already certain under the user's public posterior. Hacker, Jack,
    Muscle: a public Monte Carlo estimate: ``ESTIMATE_SAMPLES`` teams drawn from the public
    chip posteriors (``weights``; holdings without shared cards), each played through the
    round's claims by the model's own claim and contest rules, with and without the card (same
    samples, same tie-breaks); the card is used iff it wins more often. The hands are rated on
    the current board as if it were final (exact at the river, an approximation at the flop);
    the private settle is left out of the estimate.
    """
    if specialist == 2 or specialist == 4:
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

    top = specialist == 10 or boost_star_top
    user = holder_of(chips, r, players if top else 1, players, 0)
    valid_now = np.zeros(count, dtype=np.bool_)
    scores_now = np.zeros(count, dtype=np.int64)
    score_holdings(hold_cards, hold_masks, count, size, board, shown, valid_now, scores_now)
    index, values = sort_valid(scores_now, valid_now, count)
    n_valid = values.shape[0]
    if n_valid == 0:
        return False
    # The claim curve: rating of a score = curve at its tie group's middle.
    curve = np.zeros(n_valid + 1)
    cumw = np.zeros((players, n_valid + 1))
    for j in range(players):
        for k in range(n_valid):
            cumw[j, k + 1] = cumw[j, k] + weights[j, index[k]]
    for k in range(n_valid + 1):
        if model == BAYES:
            for j in range(players):
                mass = cumw[j, n_valid]
                curve[k] += (cumw[j, k] / mass if mass > 0.0 else k / n_valid) / players
        else:
            curve[k] = k / n_valid
    belief = np.zeros((players, bands))
    if model == BAYES:
        belief_mass = np.zeros((players, bands))
        k = 0
        while k < n_valid:
            end = k
            while end + 1 < n_valid and values[end + 1] == values[k]:
                end += 1
            f = 0.5 * (curve[k] + curve[end + 1])
            band = min(int(f * bands), bands - 1)
            for m in range(k, end + 1):
                for j in range(players):
                    w = weights[j, index[m]]
                    belief[j, band] += w * f
                    belief_mass[j, band] += w
            k = end + 1
        for j in range(players):
            for b in range(bands):
                if belief_mass[j, b] > 0.0:
                    belief[j, b] /= belief_mass[j, b]
                else:
                    belief[j, b] = (b + 0.5) / bands

    board_mask = np.int64(0)
    for k in range(shown):
        board_mask |= np.int64(1) << board[k]
    state = np.int64(seed) * 2654435761 + 12345
    held = np.zeros(players, dtype=np.int64)
    scores = np.zeros((2, players), dtype=np.int64)
    ties = np.zeros(players)
    keys = np.zeros(players)
    trial = np.empty(MAX_POCKET, dtype=np.int64)
    wins = np.zeros(2, dtype=np.int64)
    for _ in range(ESTIMATE_SAMPLES):
        used = board_mask
        ok = True
        for j in range(players):
            total = cumw[j, n_valid]
            if total <= 0.0:
                ok = False
                break
            found = False
            for _try in range(50):
                state = _lcg(state)
                k = np.searchsorted(cumw[j], _lcg_uniform(state) * total, side="right") - 1
                k = min(max(k, 0), n_valid - 1)
                h = index[k]
                if not hold_masks[h] & used:
                    found = True
                    break
            if not found:
                ok = False
                break
            held[j] = h
            used |= hold_masks[h]
        if not ok:
            continue
        for j in range(players):
            scores[0, j] = hand_score(hold_cards[held[j]], size, board, shown)
            scores[1, j] = scores[0, j]
            state = _lcg(state)
            ties[j] = _lcg_uniform(state)
        if specialist == 10:
            scores[1, user] = muscle_score(scores[0, user])
        else:
            for s in range(size):
                trial[s] = hold_cards[held[user], s]
            new_card = SUITLESS_JACK
            if specialist == 5:
                new_card = -1
                while new_card < 0:
                    state = _lcg(state)
                    c = int(_lcg_uniform(state) * 52)
                    if not (used >> c) & 1:
                        new_card = c
            slot = best_drop_slot(trial, size, new_card, board, shown,
                                  specialist == 5 or not jack_stays)
            swap_in_card(trial, size, new_card, slot)
            scores[1, user] = hand_score(trial, size, board, shown)
        for variant in range(2):
            for j in range(players):
                lo = np.searchsorted(values, scores[variant, j], side="left")
                hi = np.searchsorted(values, scores[variant, j], side="right")
                rating = 0.5 * (curve[lo] + curve[hi])
                band = min(int(rating * bands), bands - 1)
                if model == PERCENTILE:
                    keys[j] = band + ties[j]
                elif model == HISTORY:
                    key = float(band)
                    for t in range(r - 1, -1, -1):
                        key = key * 8.0 + (0.0 if hidden_history else chips[t, j])
                    keys[j] = key * 8.0 + ties[j]
                else:
                    keys[j] = band + 0.999 * (belief[j, band] + 1e-6 * ties[j])
            order = np.argsort(keys[:players])
            in_order = True
            for k in range(1, players):
                if scores[variant, order[k]] < scores[variant, order[k - 1]]:
                    in_order = False
                    break
            if in_order:
                wins[variant] += 1
    return wins[1] > wins[0]


@kernel
def play_heist(
    deck: np.ndarray, seed: int, challenges: int, specialist: int, players: int, model: int,
    levels: int, use_round: int, boost_star_top: bool, likelihood: np.ndarray,
    pockets: np.ndarray, board: np.ndarray, chips: np.ndarray, finals: np.ndarray,
    pair_cards: np.ndarray, pair_masks: np.ndarray, work_cards: np.ndarray, work_masks: np.ndarray,
    helpful: bool, jack_stays: bool, replay_chips: np.ndarray, replay_bands: np.ndarray,
    replay_info: np.ndarray, hidden_swap: np.ndarray, record: np.ndarray, info_out: np.ndarray,
) -> tuple[bool, bool, int, int, int, int, float, int]:
    """Play one heist; fills ``pockets``, ``board``, ``chips``, ``finals`` in place.

    ``use_round`` (1 = flop or 3 = river) is when the group plays a specialist that is used
    "at any time"; ``boost_star_top`` says whether Hacker and Jack go to the latest top-chip
    holder (True) or the latest 1-star holder (False). ``helpful``: the group plays a
    specialist it decides on only when it expects, on public information, a gain
    (:func:`group_expects_gain`); ``jack_stays``: the Jack user may not discard the Jack.
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
    """
    np.random.seed(seed)
    size = pocket_size(challenges)
    bands = levels * players
    pockets[:, :] = -1
    chips[:, :] = 0
    for p in range(players):
        for s in range(size):
            pockets[p, s] = deck[p * size + s]
    for k in range(5):
        board[k] = deck[players * size + k]
    draw = players * size + 5

    # Holdings the percentile and bayes models reason about (bayes with the Jack: also the
    # holdings with the suitless Jack, valid once it has been used).
    jack_space = model == BAYES and specialist == 7 and size == 2
    if size == 2:
        count = N_PAIRS
        hold_cards = pair_cards
        hold_masks = pair_masks
    else:
        count = N_TRIPLES
        sample_triples(work_cards, work_masks, count)
        hold_cards = work_cards
        hold_masks = work_masks
    space = count + N_JACK_PAIRS if jack_space else count

    # Per-holding beliefs are only kept where a model, a scan or the group's estimate reads them.
    scans = has_challenge(challenges, 4) or has_challenge(challenges, 9)
    estimate = helpful and (specialist == 5 or specialist == 7 or specialist == 10)
    width = space if model == BAYES or scans or estimate else 1
    valid = np.zeros(space, dtype=np.bool_)
    hscores = np.zeros(space, dtype=np.int64)
    hpct = np.zeros(width)
    hband = np.zeros((4, width), dtype=np.int64)
    public_ok = np.ones((players, space if model == BAYES else 1), dtype=np.bool_)
    chip_ok = np.ones((players, space if estimate and model != BAYES else 1), dtype=np.bool_)
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
    index = np.zeros(0, dtype=np.int64)
    values = np.zeros(0, dtype=np.int64)
    team_rank = np.zeros(0)
    team_band = np.zeros(0, dtype=np.int64)
    start = np.zeros(0, dtype=np.int64)
    stop = np.zeros(0, dtype=np.int64)
    claimed = np.zeros((players, 0))
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

    # Specialists that act right after the deal (seed 000, "THẺ CHUYÊN GIA" 3, 6, 8, 9).
    old_masks = np.zeros(players, dtype=np.int64)
    informed = np.zeros(players, dtype=np.bool_)
    prior = np.ones((players, count if model == BAYES and specialist == 9 else 1))
    if specialist == 9:
        for p in range(players):
            old_masks[p] = pocket_mask(pockets[p], size)
        order = np.random.permutation(players * size)
        con_artist_redeal(pockets, players, size, order)
        for p in range(players):
            # an old card is with a teammate
            informed[p] = (old_masks[p] & ~pocket_mask(pockets[p], size)) != 0
    if specialist == 6:
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
    replay = replay_chips.shape[0] == 4
    if replay:
        for p in range(players):
            for s in range(size):
                if hidden_swap[p, s] >= 0:
                    pockets[p, s] = hidden_swap[p, s]
    if (specialist == 3 or specialist == 8) and model == BAYES:
        for p in range(players):
            said = investor_face_count(pockets[p]) if specialist == 3 else math_whiz_total(pockets[p])
            if replay:
                said = replay_info[p]
            info_out[p] = said
            for h in range(count):
                heard = investor_face_count(hold_cards[h]) if specialist == 3 else math_whiz_total(hold_cards[h])
                public_ok[p, h] = heard == said

    for r in range(4):
        shown = BOARD_SIZES[r]
        if r == 1 and round_has_chips(challenges, 0):
            star = redraw_star(challenges, board, players)
            if star > 0:
                p = holder_of(chips, 1, star, players, 0)
                for s in range(size):
                    pockets[p, s] = deck[draw]
                    draw += 1
                redrawn |= 1 << p
                evidence_from[p] = 1  # the new pocket voids what was known about the old one
                public_ok[p, :] = True
                known_card[:, p] = -1
        if r == use_round and specialist in GROUP_SPECIALISTS and specialist != 1:
            use = True
            if helpful and (specialist == 2 or specialist == 4) and model != BAYES:
                use = False  # only bayes reads announcements
            elif helpful:
                chooser = public_ok if model == BAYES else chip_ok
                _posteriors(chips, r, players, count, valid, hband, likelihood, evidence_from,
                            chooser, public_prior, jack_space, weights)
                use = group_expects_gain(
                    specialist, model, r, chips, players, size, bands, board, shown,
                    boost_star_top, hold_cards, hold_masks, count, weights,
                    blackout_hides_history(challenges), jack_stays, seed)
            if use:
                if jack_space:  # the Jack user's public posterior, carried over (see below)
                    jack_user = holder_of(chips, r, players if boost_star_top else 1, players, 0)
                    _posteriors(chips, r, players, count, valid, hband, likelihood,
                                evidence_from, public_ok, public_prior, jack_space, weights)
                    jack_pushforward(weights[jack_user], hold_cards, count, board, shown,
                                     not jack_stays, public_prior[jack_user])
                    evidence_from[jack_user] = r
                    count = space
                user, detail, draw, seat = use_group_specialist(
                    specialist, r, chips, players, pockets, size, board, shown, deck, draw,
                    boost_star_top, hold_cards, count, public_ok, jack_stays,
                    replay_info[players] if replay else -1,
                )
                if specialist == 2 or specialist == 4:
                    info_out[players] = detail
                if specialist == 10:
                    muscle_seat = seat

        if not round_has_chips(challenges, r):
            continue

        for p in range(players):
            own[p] = strength(pockets[p], size, board, shown)
            if p == muscle_seat and shown > 0:
                own[p] = muscle_score(own[p])
            own_masks[p] = pocket_mask(pockets[p], size)

        if model == RANDOM:
            for p in range(players):
                keys[p] = np.random.random()
        else:
            score_holdings(hold_cards, hold_masks, count, size, board, shown, valid, hscores)
            if size == 2:
                pair_percentiles(hscores[:N_PAIRS], valid[:N_PAIRS], own, pockets, players,
                                 pair_cards, ratings)
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
                index, values = sort_valid(hscores, valid, count)
                holding_percentiles(index, values, hpct)
                for h in range(count):
                    hband[r, h] = min(int(hpct[h] * bands), bands - 1)
            if model == BAYES:
                _posteriors(chips, r, players, count, valid, hband, likelihood, evidence_from,
                            public_ok, public_prior, jack_space, weights)
                team_rank, team_band = bayes_claims(
                    index, values, weights, own, players, bands,
                    muscle_seat if shown > 0 else -1, ratings, beliefs,
                )
            for p in range(players):
                bands_claimed[p] = min(int(ratings[p] * bands), bands - 1)
                record[r, p, 0] = bands_claimed[p]
                if replay:
                    bands_claimed[p] = replay_bands[r, p]
                    ratings[p] = (bands_claimed[p] + 0.5) / bands
            if replay and model == BAYES:
                claim_beliefs(index, weights, team_rank, team_band, ratings, players, bands,
                              beliefs)
            for p in range(players):
                band = bands_claimed[p]
                u = np.random.random()
                if model == PERCENTILE or model == LEAKY:
                    keys[p] = band + u
                elif model == HISTORY:
                    key = float(band)
                    hidden = blackout_hides_history(challenges)
                    for t in range(r - 1, -1, -1):
                        key = key * 8.0 + (0.0 if hidden else chips[t, p])
                    keys[p] = key * 8.0 + u
                else:
                    keys[p] = band + 0.999 * (beliefs[p] + 1e-6 * u)
            if model == BAYES:
                claimed = claimed_posteriors(index, weights, team_band, bands_claimed, players)
                if specialist == 1 and r >= use_round and target < 0:
                    # Informant, in the chip dance once the claims are on the table (digest S1)
                    start, stop = tie_bounds(values)
                    lower, upper, _ = informant_pair(keys, bands_claimed, players, claimed, start,
                                                     stop)
                    user, target = lower, upper  # the lower shows the upper (measured best)
                    detail = informant_card(user, target, pockets, size, own[user], claimed,
                                            index, values, hold_masks, start, stop)
                    if replay:
                        detail = replay_info[players]
                    info_out[players] = detail
                    known_card[target, user] = detail
                if specialist == 9:  # Con Artist: private priors from the redeal
                    con_artist_prior(old_masks, own_masks, players, size, hold_masks, count,
                                     shown, prior)
                # Equal claims next to each other are settled privately (base rule; the
                # Informant's shown card, the Coordinator's passed card and the Con Artist's
                # prior are extra evidence).
                steps = settle_equal_claims(
                    keys, bands_claimed, players, claimed, index, values, hold_masks, own,
                    own_masks, known_card if specialist == 1 or specialist == 6 else no_card,
                    prior, informed, redrawn, muscle_seat if shown > 0 else -1, votes,
                    replay_bands[r, players] if replay else -1)
                for p in range(players):
                    record[r, p, 1] = votes[p, 0]
                    record[r, p, 2] = votes[p, 1]
                    record[r, p, 3] = steps
        if specialist == 1 and r >= use_round and model != BAYES and target < 0:
            order = np.argsort(keys[:players])
            user = order[(players - 2) // 2]
            target = order[(players - 2) // 2 + 1]
            detail = pockets[user, key_card_slot(pockets[user], size, board, shown)]
            known_card[target, user] = detail
        if model != RANDOM:
            bottom, top = locked_chips(challenges, r, players)
            if bottom > 0:
                _lock(keys, bands_claimed, players, levels, 0, -1e300)
            if top > 0:
                _lock(keys, bands_claimed, players, levels, players - 1, 1e300)
        chips_from_keys(keys, players, row)
        for p in range(players):
            chips[r, p] = replay_chips[r, p] if replay else row[p]

    for p in range(players):
        finals[p] = hand_score(pockets[p], size, board, 5)
        if p == muscle_seat:
            finals[p] = muscle_score(finals[p])
    order_ok = showdown_in_order(finals, chips[3], players)
    scan_ok = True
    if scans:
        top_seat = holder_of(chips, 4, players, players, 0)
        if model == BAYES:
            _posteriors(chips, 4, players, count, valid, hband, likelihood, evidence_from,
                        public_ok, public_prior, jack_space, weights)
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
        scan_weights(weights, hold_cards, hold_masks, count, size, hscores, pockets, finals,
                     chips[3], players, top_seat, top_seat == muscle_seat)
        if has_challenge(challenges, 4):
            guess = _retina_guess(hold_cards, count, size, weights[0])
            scan_ok = retina_scan_passes(pockets[top_seat], guess)
        if has_challenge(challenges, 9):
            named = _fingerprint_guess(hold_cards, count, size, board, weights[0])
            scan_ok = scan_ok and fingerprint_scan_passes(finals[top_seat], named)
            guess = named if guess < 0 else guess * 16 + named
    return (order_ok, scan_ok, redrawn, user, detail, guess, random_order_success(finals, players),
            target)


@kernel
def bayes_claims(
    index: np.ndarray, values: np.ndarray, weights: np.ndarray, own: np.ndarray,
    players: int, bands: int, muscle_seat: int,
    ratings: np.ndarray, beliefs: np.ndarray,
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
    for j in range(players):
        for k in range(n_valid):
            cum[j, k + 1] = cum[j, k] + weights[j, index[k]]

    for i in range(players):
        total = 0.0
        for j in range(players):
            target = own[i]
            if j == muscle_seat and j != i:
                target = (own[i] >> 27) << 27  # the Muscle holder beats every same-ranking hand
            lo = np.searchsorted(values, target, side="left")
            hi = np.searchsorted(values, target, side="right")
            mass = cum[j, n_valid]
            below = cum[j, lo] + 0.5 * (cum[j, hi] - cum[j, lo])
            total += below / mass if mass > 0.0 else 0.5
        ratings[i] = total / players

    team_rank = np.zeros(n_valid)
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
    team_band = np.empty(n_valid, dtype=np.int64)
    for k in range(n_valid):
        team_band[k] = min(int(team_rank[k] * bands), bands - 1)
    claim_beliefs(index, weights, team_rank, team_band, ratings, players, bands, beliefs)
    return team_rank, team_band


@kernel
def claim_beliefs(index: np.ndarray, weights: np.ndarray, team_rank: np.ndarray,
                  team_band: np.ndarray, ratings: np.ndarray, players: int, bands: int,
                  beliefs: np.ndarray) -> None:
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
def claimed_posteriors(index: np.ndarray, weights: np.ndarray, team_band: np.ndarray,
                       bands_claimed: np.ndarray, players: int) -> np.ndarray:
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
def below_probability(dist: np.ndarray, start: np.ndarray, stop: np.ndarray,
                      other: np.ndarray) -> float:
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
def informant_pair(keys: np.ndarray, bands_claimed: np.ndarray, players: int,
                   claimed: np.ndarray, start: np.ndarray,
                   stop: np.ndarray) -> tuple[int, int, float]:
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
def private_view(rival_dist: np.ndarray, index: np.ndarray, masks: np.ndarray, card: int,
                 viewer_mask: int, prior_row: np.ndarray, with_prior: bool,
                 out: np.ndarray) -> None:
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
def informant_card(shower: int, viewer: int, pockets: np.ndarray, size: int, shower_score: int,
                   claimed: np.ndarray, index: np.ndarray, values: np.ndarray, masks: np.ndarray,
                   start: np.ndarray, stop: np.ndarray) -> int:
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
def con_artist_prior(old_masks: np.ndarray, own_masks: np.ndarray, players: int, size: int,
                     masks: np.ndarray, count: int, shown: int, out: np.ndarray) -> None:
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
def settle_equal_claims(keys: np.ndarray, bands_claimed: np.ndarray, players: int,
                        claimed: np.ndarray, index: np.ndarray, values: np.ndarray,
                        masks: np.ndarray, own: np.ndarray, own_masks: np.ndarray,
                        shown_card: np.ndarray, prior: np.ndarray, with_prior: np.ndarray,
                        redrawn: int, muscle_seat: int, votes: np.ndarray,
                        forced_steps: int) -> int:
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
            private_view(claimed[rival], index, masks, cards_of[side], own_masks[me],
                         prior[me if uses_prior[side] else 0], uses_prior[side], view)
            target = own[me]
            if rival == muscle_seat:
                target = (target >> 27) << 27  # the rival beats every hand of my ranking
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
def _lock(keys: np.ndarray, bands_claimed: np.ndarray, players: int, levels: int, chip_index: int,
          winner_key: float) -> None:
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


@kernel
def _posteriors(chips: np.ndarray, r: int, players: int, count: int, valid: np.ndarray,
                hband: np.ndarray, likelihood: np.ndarray, evidence_from: np.ndarray,
                public_ok: np.ndarray, public_prior: np.ndarray, with_prior: bool,
                weights: np.ndarray) -> None:
    """Public posterior weight of every holding for every player: each earlier chip since the
    player's last redraw (or Jack) is evidence (likelihood of that chip given the holding's
    percentile band then), times the public announcements' filters and, ``with_prior``, the
    public prior (a Jack user's posterior carried over, :func:`jack_pushforward`)."""
    for j in range(players):
        for h in range(count):
            weights[j, h] = 1.0 if valid[h] and public_ok[j, h] else 0.0
            if with_prior:
                weights[j, h] *= public_prior[j, h]
        for t in range(evidence_from[j], r):
            chip = chips[t, j]
            if chip > 0:
                row = likelihood[chip - 1]
                band_row = hband[t]
                for h in range(count):
                    weights[j, h] *= row[band_row[h]]


@kernel
def scan_weights(weights: np.ndarray, hold_cards: np.ndarray, hold_masks: np.ndarray,
                 count: int, size: int, final_scores: np.ndarray, pockets: np.ndarray,
                 finals: np.ndarray, red: np.ndarray, players: int, top_seat: int,
                 top_has_muscle: bool) -> None:
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
def _retina_guess(cards: np.ndarray, count: int, size: int, weights: np.ndarray) -> int:
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
def _fingerprint_guess(cards: np.ndarray, count: int, size: int, board: np.ndarray,
                       weights: np.ndarray) -> int:
    """The Fingerprint answer (0..8, high card .. straight flush) with the most posterior mass
    on the final board."""
    mass = np.zeros(9)
    for h in range(count):
        w = weights[h]
        if w == 0.0:
            continue
        mass[fingerprint_ranking(hand_score(cards[h], size, board, 5))] += w
    return int(np.argmax(mass))


@kernel
def play_batch_kernel(
    decks: np.ndarray, seeds: np.ndarray, challenges: np.ndarray, specialists: np.ndarray,
    players: int, model: int, levels: int, use_round: int, boost_star_top: bool,
    likelihood: np.ndarray, out_pockets: np.ndarray, out_board: np.ndarray, out_chips: np.ndarray, out_finals: np.ndarray,
    out_flags: np.ndarray, out_random_p: np.ndarray, pair_cards: np.ndarray, pair_masks: np.ndarray,
    helpful: bool, jack_stays: bool,
) -> None:
    """Play ``len(seeds)`` heists; out_flags columns: order ok, scan ok, redrawn mask,
    specialist user, specialist detail, scan guess, specialist target (Informant viewer)
    or -1."""
    work_cards = np.zeros((N_TRIPLES, MAX_POCKET), dtype=np.int64)
    work_masks = np.zeros(N_TRIPLES, dtype=np.int64)
    pockets = np.zeros((players, MAX_POCKET), dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    chips = np.zeros((4, players), dtype=np.int64)
    finals = np.zeros(players, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    no_replay = np.zeros((1, players + 1), dtype=np.int64)
    no_info = np.zeros(players + 1, dtype=np.int64)
    no_swap = np.full((1, MAX_POCKET), -1, dtype=np.int64)
    record = np.zeros((4, players, 4))
    info_out = np.zeros(players + 1, dtype=np.int64)
    for i in range(seeds.shape[0]):
        for k in range(52):
            deck[k] = decks[i, k]
        order_ok, scan_ok, redrawn, user, detail, guess, p_random, target = play_heist(
            deck, seeds[i], challenges[i], specialists[i], players, model, levels, use_round,
            boost_star_top, likelihood, pockets, board, chips, finals, pair_cards, pair_masks, work_cards,
            work_masks, helpful, jack_stays, no_replay, no_replay, no_info, no_swap, record,
            info_out,
        )
        out_pockets[i, :players, :] = pockets
        out_board[i, :] = board
        out_chips[i, :, :players] = chips
        out_finals[i, :players] = finals
        out_flags[i, 0] = order_ok
        out_flags[i, 1] = scan_ok
        out_flags[i, 2] = redrawn
        out_flags[i, 3] = user
        out_flags[i, 4] = detail
        out_flags[i, 5] = guess
        out_flags[i, 6] = target
        out_random_p[i] = p_random


def play_batch(
    rng: np.random.Generator, players: int, model: int, levels: int, challenges: np.ndarray,
    specialists: np.ndarray, use_round: int = 3, decks: np.ndarray | None = None,
    boost_top: bool = True, helpful: bool = True, jack_stays: bool = True,
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
    play_batch_kernel(
        np.ascontiguousarray(decks, dtype=np.int64), seeds,
        np.asarray(challenges, dtype=np.int64), np.asarray(specialists, dtype=np.int64),
        players, model, levels, use_round, boost_top, likelihood,
        out["pockets"], out["board"], out["chips"], out["finals"], out["flags"], out["random_p"],
        PAIRS_WITH_JACK.copy(), PAIR_MASKS_WITH_JACK.copy(), helpful, jack_stays,
    )
    return out
