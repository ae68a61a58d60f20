"""Batch kernel: many independent games of The Game, each played sequentially in numba.

State of one game (plain arrays, reused across the games of a batch):
``deck`` (98 cards, drawn from ``draw_pos`` on), ``hands[player, slot]`` with ``counts[player]``
cards packed at the front, ``piles[4]`` (tops; 0 and 1 ascend, 2 and 3 descend) and
``below[x]`` = number of cards still unplayed (in hands or the draw pile) with value <= x, so a
play's *effective gap* (unplayed cards it makes unreachable on that pile) is two lookups.

All randomness of a game (the shuffle, random strategy choices, rollout samples) comes from one
splitmix64 stream seeded by the game's ``deal_seed``, which the simulator draws from the numpy
Generator; :func:`deal_deck` regenerates the deal of any stored episode.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.thegame.rules import (
    BACKWARDS_STEP,
    DECK_SIZE,
    HIGHEST_CARD,
    LOWEST_CARD,
    MAX_HAND,
    MAX_PLAYERS,
    N_PILES,
    can_play,
    is_backwards_trick,
    refill_count,
    required_plays,
    start_top,
)

# Strategy ids (names in config.STRATEGIES).
RANDOM, GREEDY, PLANNER, SIGNALS, SEARCH, OMNISCIENT = 0, 1, 2, 3, 4, 5

# Indices into the float64 parameter vector of the heuristic strategies.
P_REACH_EARLY = 0  # extra cards are played while their cost <= this (draw pile above LATE_DRAW)
P_REACH_LATE = 1  # ... and <= this once the draw pile is at or below LATE_DRAW
P_LATE_DRAW = 2  # draw-pile size at or below which the late reach applies
P_PAIR_PENALTY = 3  # cost added for playing the near card of a 10-apart pair without the far one
P_TRICK_BONUS = 4  # extra value of a backwards trick beyond the cards it reopens
P_SIGNAL_THRESHOLD = 5  # a teammate reserves a pile when holding a card of cost <= this
P_SIGNAL_PENALTY = 6  # cost added to a non-free play on a pile a teammate reserved
P_SEARCH_CANDIDATES = 7  # rollouts: candidate turns scored
P_SEARCH_ROLLOUTS = 8  # search: sampled determinisations per candidate (0 = lookahead only)
P_LOOKAHEAD = 9  # planner: weight of the cheapest next turn left by each candidate (0 = off)
P_LOOKAHEAD_CANDIDATES = 10  # planner: candidates compared with the lookahead (<= 8)
P_SEARCH_CONFIDENCE = 11  # rollouts: standard errors a variant must win by to be chosen
P_OMNI_BUDGET = 12  # omniscient: turns its rollouts may simulate per game (plan improvement)
P_OMNI_CANDIDATES = 13  # omniscient: passes; pass k tries the k-th cheapest sequence per turn
P_OMNI_LOOKAHEAD = 14  # omniscient: lookahead weight of the rollout policy (0 = signals)
N_PARAMS = 15

INF = 1.0e18
MAX_TURN = 2 * MAX_HAND  # longest sequence one turn can record (a full hand)

# Episode statistics per game, columns of the stats array the kernel returns.
S_CARDS_LEFT = 0
S_IN_HANDS = 1
S_DRAW_LEFT = 2
S_TURNS = 3
S_FIRST_PLAYER = 4
S_EXTRA_PLAYS = 5
S_TRICKS = 6
N_STATS = 7  # columns of the per-game output
S_LOG_LEN = 7  # live stats only: entries written to the optional play log
STATS_LEN = 8  # a stats vector longer than this carries a play log (see trace_game)
LOG_TURN_END = -1  # pile value of the log entry closing a turn
LOG_CAPACITY = 3 * (DECK_SIZE + 2 * DECK_SIZE)  # every card plus a turn marker per turn
MAX_SNAPSHOTS = DECK_SIZE + 1  # turn-start states of a plan (a turn plays at least one card)


# ---------------------------------------------------------------------------------------------
# Random numbers: splitmix64, one stream per game.


@kernel(inline="always")
def next_u64(state: np.ndarray) -> np.uint64:
    """Advance the splitmix64 state (a one-element uint64 array) and return 64 random bits."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@kernel(inline="always")
def random_below(state: np.ndarray, k: int) -> int:
    """A uniform integer in [0, k) (modulo bias below 1e-17 for k <= 98)."""
    return int(next_u64(state) % np.uint64(k))


@kernel
def shuffle_prefix(values: np.ndarray, length: int, state: np.ndarray) -> None:
    """Fisher-Yates shuffle of ``values[:length]`` in place."""
    for i in range(length - 1, 0, -1):
        j = random_below(state, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp


@kernel
def deal_deck(deal_seed: int) -> np.ndarray:
    """The shuffled 98-card deck of the game with this seed (cards 2-99, each once)."""
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(deal_seed)
    deck = np.empty(DECK_SIZE, np.int64)
    fill_and_shuffle(deck, state)
    return deck


@kernel
def fill_and_shuffle(deck: np.ndarray, state: np.ndarray) -> None:
    """Write cards 2..99 into ``deck`` and shuffle them with the game's stream."""
    for i in range(DECK_SIZE):
        deck[i] = LOWEST_CARD + i
    shuffle_prefix(deck, DECK_SIZE, state)


# ---------------------------------------------------------------------------------------------
# State updates.


@kernel(inline="always")
def reset_below(below: np.ndarray) -> None:
    """Every card 2..99 unplayed: below[x] = number of cards 2..x."""
    for x in range(below.shape[0]):
        below[x] = min(max(x - 1, 0), DECK_SIZE)


@kernel(inline="always")
def apply_play(hands: np.ndarray, counts: np.ndarray, player: int, slot: int, pile: int,
               piles: np.ndarray, below: np.ndarray) -> int:
    """Move the card in ``hands[player, slot]`` onto ``pile``; returns the card.

    The hand stays packed (the last card fills the hole) and ``below`` forgets the card.
    """
    card = hands[player, slot]
    last = counts[player] - 1
    hands[player, slot] = hands[player, last]
    hands[player, last] = 0
    counts[player] = last
    piles[pile] = card
    for x in range(card, below.shape[0]):
        below[x] -= 1
    return card


@kernel(inline="always")
def find_slot(hands: np.ndarray, counts: np.ndarray, player: int, card: int) -> int:
    """Slot of ``card`` in the player's hand, -1 if absent."""
    for s in range(counts[player]):
        if hands[player, s] == card:
            return s
    return -1


@kernel(inline="always")
def refill(hands: np.ndarray, counts: np.ndarray, player: int, hand_size: int,
           deck: np.ndarray, draw_pos: int) -> int:
    """Draw back up to ``hand_size`` (or what the draw pile holds); returns the new draw_pos."""
    k = refill_count(counts[player], hand_size, DECK_SIZE - draw_pos)
    for _ in range(k):
        hands[player, counts[player]] = deck[draw_pos]
        counts[player] += 1
        draw_pos += 1
    return draw_pos


# ---------------------------------------------------------------------------------------------
# Costs of single plays.


@kernel
def raw_gap(card: int, pile: int, top: int) -> float:
    """Greedy's cost: distance moved on the pile; a backwards trick counts -10."""
    if is_backwards_trick(card, pile, top):
        return -float(BACKWARDS_STEP)
    if pile < 2:
        return float(card - top)
    return float(top - card)


@kernel
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


@kernel
def far_partner(card: int, pile: int) -> int:
    """The card that would later make ``card`` a backwards trick on this pile's direction
    (card + 10 on ascending piles, card - 10 on descending ones)."""
    if pile < 2:
        return card + BACKWARDS_STEP
    return card - BACKWARDS_STEP


# ---------------------------------------------------------------------------------------------
# Scratch buffers, allocated once per batch so no turn allocates. Hot functions take three
# arrays (W: int64 rows, F: float64 rows, C: candidate sequences) rather than many small ones:
# every array argument costs a reference-count round trip per call.

MAX_CANDIDATES = 16
SLOT_TABLE = 128  # W[R_SLOT_OF, card]: hand slot of a card (-1 if not held), cards up to 109

R_USED = 0  # per hand slot: already chosen in the sequence being built
R_WORK = 1  # pile tops while a sequence is being built
R_SEQ_SLOT = 2  # the sequence being built: hand slot, pile, kind (1 normal play, 0 trick)
R_SEQ_PILE = 3
R_SEQ_KIND = 4
R_SAVED_TOP = 5  # pile top before each play of the sequence (to undo it)
R_POS = 6  # per depth: next (pile, slot) code to try
R_LEGAL_SLOT = 7  # random strategy: the legal plays of this step
R_LEGAL_PILE = 8
R_TURN_CARDS = 9  # sequential choice of random / greedy
R_TURN_PILES = 10
R_SLOT_OF = 11
R_SINGLE_PARTNER = 12  # per (slot * 4 + pile): slot of the far partner of a normal play, or -1
R_LOOK_CARDS = 13  # lookahead: candidate k's cards at k * MAX_TURN + d
R_LOOK_PILES = 14
R_LOOK_HAND = 15  # lookahead: the hand left by a candidate
R_LOOK_TOPS = 16  # lookahead: the pile tops left by a candidate
N_WORK_ROWS = 17

F_ACC = 0  # per depth: cost of the sequence so far
F_PENALTY = 1  # per pile: reservation penalty of the current player
F_NO_PENALTY = 2  # all zeros
F_CAND_COST = 3  # cost of each kept candidate sequence, cheapest first
F_SINGLE = 4  # per (slot * 4 + pile): cost of that single play now (INF if illegal)
F_SINGLE_PAIR = 5  # per (slot * 4 + pile): pair penalty it incurs if its partner stays in hand
F_PILE_MIN = 6  # per pile: cheapest single play on it now
F_LOOK_COST = 7  # lookahead: cost of each candidate
N_FLOAT_ROWS = 8
FLOAT_WIDTH = 32

Rollout = namedtuple(
    "Rollout",
    [
        "search_cards", "search_piles", "search_score", "search_square", "unseen",
        "r_deck", "r_hands", "r_counts", "r_piles", "r_below", "r_stats",
        "s_deck", "s_hands", "s_counts", "candidate_extras",
        "plan", "o_stats", "o_params", "snap_hands", "snap_counts", "snap_piles", "snap_below",
        "snap_meta", "after_piles", "after_below",
    ],
)


@kernel(inline="always")
def new_work():
    """Fresh (W, F, C) scratch arrays for one batch."""
    work = np.zeros((N_WORK_ROWS, SLOT_TABLE), np.int64)
    work[R_SLOT_OF, :] = -1
    floats = np.zeros((N_FLOAT_ROWS, FLOAT_WIDTH))
    candidates = np.zeros((2, MAX_CANDIDATES, MAX_TURN), np.int64)
    return work, floats, candidates


@kernel
def new_rollout() -> Rollout:
    """Fresh buffers of the search strategies (candidates, sampled and rolled-out states)."""
    return Rollout(
        np.zeros((MAX_CANDIDATES, MAX_TURN), np.int64),
        np.zeros((MAX_CANDIDATES, MAX_TURN), np.int64),
        np.zeros(2 * MAX_CANDIDATES),
        np.zeros(2 * MAX_CANDIDATES),
        np.zeros(DECK_SIZE, np.int64),
        np.zeros(DECK_SIZE, np.int64),
        np.zeros((MAX_PLAYERS, MAX_HAND), np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(N_PILES, np.int64),
        np.zeros(HIGHEST_CARD + 2, np.int64),
        np.zeros(STATS_LEN, np.int64),
        np.zeros(DECK_SIZE, np.int64),
        np.zeros((MAX_PLAYERS, MAX_HAND), np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(1, np.int64),
        np.zeros(LOG_CAPACITY, np.int64),
        np.zeros(STATS_LEN + LOG_CAPACITY, np.int64),
        np.zeros(N_PARAMS),
        np.zeros((MAX_SNAPSHOTS, MAX_PLAYERS, MAX_HAND), np.int64),
        np.zeros((MAX_SNAPSHOTS, MAX_PLAYERS), np.int64),
        np.zeros((MAX_SNAPSHOTS, N_PILES), np.int64),
        np.zeros((MAX_SNAPSHOTS, HIGHEST_CARD + 2), np.int64),
        np.zeros((MAX_SNAPSHOTS, 3), np.int64),
        np.zeros(N_PILES, np.int64),
        np.zeros(HIGHEST_CARD + 2, np.int64),
    )


# ---------------------------------------------------------------------------------------------
# Turn search: the cheapest legal sequences of exactly `required` plays.


@kernel(literals=("required",))
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


@kernel
def record_pair(W, F, C, keep, n_cand, total, hand, s1, p1, s2, p2) -> int:
    """Offer the two-play sequence (s1 on p1, then s2 on p2) to the candidate list."""
    W[R_SEQ_SLOT, 0] = s1
    W[R_SEQ_PILE, 0] = p1
    W[R_SEQ_SLOT, 1] = s2
    W[R_SEQ_PILE, 1] = p2
    return keep_candidate(W, F, C, keep, n_cand, total, hand, 2)


@kernel
def best_pairs(hand, hcount, piles, below, trick_ok, params, pile_penalty, W, F, C,
               keep) -> int:
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
                    if 0 <= partner2 < SLOT_TABLE and slot_of[partner2] >= 0 \
                            and slot_of[partner2] != s1:
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


@kernel(literals=("effective",))
def best_sequences(hand, hcount, piles, below, required, trick_ok, effective, params,
                   pile_penalty, W, F, C, keep) -> int:
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
        return best_pairs(hand, hcount, piles, below, trick_ok, params, pile_penalty, W, F, C,
                          keep)
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


# ---------------------------------------------------------------------------------------------
# Strategies. Each turn function plays on the live state and returns the number of cards played
# (fewer than `required` means the player could not play the minimum: the game ends).


@kernel(inline="always")
def record(stats, player, card, pile) -> None:
    """Append (player, card, pile) to the play log carried after the stats, if there is one."""
    at = STATS_LEN + 3 * stats[S_LOG_LEN]
    if at + 3 <= stats.shape[0]:
        stats[at] = player
        stats[at + 1] = card
        stats[at + 2] = pile
        stats[S_LOG_LEN] += 1


@kernel(inline="always")
def play_card(hands, counts, player, slot, pile, piles, below, stats) -> None:
    """Play one card of the live game: count tricks, log it, apply it."""
    card = hands[player, slot]
    if is_backwards_trick(card, pile, piles[pile]):
        stats[S_TRICKS] += 1
    record(stats, player, card, pile)
    apply_play(hands, counts, player, slot, pile, piles, below)


@kernel(inline="always")
def play_sequence(hands, counts, player, piles, below, cards, pile_of, length, stats) -> None:
    """Apply a chosen sequence of plays (cards by value) to the live state."""
    for d in range(length):
        play_card(hands, counts, player, find_slot(hands, counts, player, cards[d]), pile_of[d],
                  piles, below, stats)


@kernel(inline="always")
def sequential_choice(hands, counts, player, piles, required, trick_ok, rng, random_pick,
                      W, F, C) -> bool:
    """Choose ``required`` plays one at a time into W[R_TURN_CARDS] / W[R_TURN_PILES] without
    touching the state: the legal play of smallest raw gap (greedy; ties to the lower slot, then pile) or a uniformly
    random legal play. False when this order gets stuck."""
    hcount = counts[player]
    used = W[R_USED]
    work = W[R_WORK]
    for s in range(MAX_HAND):
        used[s] = False
    for p in range(N_PILES):
        work[p] = piles[p]
    for d in range(required):
        n_legal = 0
        best = INF
        best_slot = -1
        best_pile = -1
        for s in range(hcount):
            if used[s]:
                continue
            card = hands[player, s]
            for pile in range(N_PILES):
                if not can_play(card, pile, work[pile], trick_ok):
                    continue
                if random_pick:
                    W[R_LEGAL_SLOT, n_legal] = s
                    W[R_LEGAL_PILE, n_legal] = pile
                    n_legal += 1
                else:
                    gap = raw_gap(card, pile, work[pile])
                    if gap < best:
                        best = gap
                        best_slot = s
                        best_pile = pile
        if random_pick:
            if n_legal == 0:
                return False
            k = random_below(rng, n_legal)
            best_slot = W[R_LEGAL_SLOT, k]
            best_pile = W[R_LEGAL_PILE, k]
        elif best_slot < 0:
            return False
        used[best_slot] = True
        W[R_TURN_CARDS, d] = hands[player, best_slot]
        W[R_TURN_PILES, d] = best_pile
        work[best_pile] = hands[player, best_slot]
    return True


@kernel
def turn_simple(hands, counts, player, piles, below, required, trick_ok, rng, random_pick,
                params, W, F, C, stats) -> int:
    """random / greedy: exactly the minimum count, chosen one card at a time; when that order
    gets stuck although some order works, the cheapest feasible sequence (raw gaps) is played."""
    if sequential_choice(hands, counts, player, piles, required, trick_ok, rng, random_pick, W,
                         F, C):
        play_sequence(hands, counts, player, piles, below, W[R_TURN_CARDS], W[R_TURN_PILES],
                      required, stats)
        return required
    if best_sequences(hands[player], counts[player], piles, below, required, trick_ok, False,
                      params, F[F_NO_PENALTY], W, F, C, 1) == 0:
        return 0
    play_sequence(hands, counts, player, piles, below, C[0, 0], C[1, 0],
                  required, stats)
    return required


@kernel
def extra_play_cost(hands, counts, player, slot, pile, piles, below, trick_ok, params,
                    pile_penalty, slot_of) -> float:
    """Cost of one optional extra play: its effective gap (+ reservation penalty), plus the
    (negative) cost of a backwards trick it sets up with a card still in hand, or the pair
    penalty when it spends the near card of a 10-apart pair."""
    card = hands[player, slot]
    top = piles[pile]
    cost = effective_gap(card, pile, top, below, params[P_TRICK_BONUS])
    if cost > 0.0:
        cost += pile_penalty[pile]
    if is_backwards_trick(card, pile, top):
        return cost
    partner = far_partner(card, pile)
    back = 2 * card - partner  # the card 10 the other way: a trick right after this play
    if trick_ok and 0 <= back < SLOT_TABLE and slot_of[back] >= 0:
        cost += effective_gap(back, pile, card, below, params[P_TRICK_BONUS])
    elif 0 <= partner < SLOT_TABLE and slot_of[partner] >= 0:
        cost += params[P_PAIR_PENALTY]
    return cost


@kernel
def play_extras(hands, counts, player, piles, below, trick_ok, reach, params, pile_penalty,
                W, F, C, stats) -> int:
    """Keep playing the cheapest optional card while its cost is within ``reach``."""
    played = 0
    slot_of = W[R_SLOT_OF]
    while counts[player] > 0:
        for s in range(counts[player]):
            slot_of[hands[player, s]] = s
        best = INF
        best_slot = -1
        best_pile = -1
        for s in range(counts[player]):
            card = hands[player, s]
            for pile in range(N_PILES):
                if not can_play(card, pile, piles[pile], trick_ok):
                    continue
                cost = extra_play_cost(hands, counts, player, s, pile, piles, below, trick_ok,
                                       params, pile_penalty, slot_of)
                if cost < best:
                    best = cost
                    best_slot = s
                    best_pile = pile
        for s in range(counts[player]):
            slot_of[hands[player, s]] = -1
        if best_slot < 0 or best > reach:
            break
        play_card(hands, counts, player, best_slot, best_pile, piles, below, stats)
        played += 1
    return played


@kernel
def reservations(hands, counts, player, players, piles, below, trick_ok, params,
                 out_penalty) -> None:
    """The seed's allowed talk ("I have something good for pile N"): a pile is reserved when a
    teammate holds a card whose effective gap there is <= the signal threshold (a backwards
    trick included). Fills the penalty the current player adds to non-free plays on it (all
    zero for a single player: nobody else holds cards).

    Per pile only the teammates' closest card in the pile's direction and a possible trick card
    matter, so one pass over their cards finds both."""
    threshold = params[P_SIGNAL_THRESHOLD]
    for pile in range(N_PILES):
        top = piles[pile]
        closest = -1  # teammates' card nearest the top in the pile's direction
        trick = False
        for q in range(players):
            if q == player:
                continue
            for s in range(counts[q]):
                card = hands[q, s]
                if pile < 2:
                    if top < card and (closest < 0 or card < closest):
                        closest = card
                elif card < top and card > closest:
                    closest = card
                if trick_ok and is_backwards_trick(card, pile, top):
                    trick = True
        good = trick and -params[P_TRICK_BONUS] <= threshold
        if not good and closest > 0:
            good = effective_gap(closest, pile, top, below, params[P_TRICK_BONUS]) <= threshold
        out_penalty[pile] = params[P_SIGNAL_PENALTY] if good else 0.0


@kernel(inline="always")
def extras_reach(draw_left, params) -> float:
    """The phase-dependent reach: early while the draw pile is above P_LATE_DRAW, late after."""
    if draw_left <= params[P_LATE_DRAW]:
        return params[P_REACH_LATE]
    return params[P_REACH_EARLY]


@kernel
def lookahead_choice(hands, counts, player, piles, below, required, trick_ok, params, W, F,
                     C) -> bool:
    """Planner lookahead: among the P_LOOKAHEAD_CANDIDATES cheapest mandatory sequences, the one
    minimising its cost + P_LOOKAHEAD x the cost of the cheapest sequence the *remaining* hand
    could play next on the piles it leaves (new draws unknown, so ignored). The winner is left
    at the front of W[R_LOOK_CARDS] / W[R_LOOK_PILES]; False when no sequence is legal."""
    keep = max(1, min(int(params[P_LOOKAHEAD_CANDIDATES]), SLOT_TABLE // MAX_TURN))
    n_cand = best_sequences(hands[player], counts[player], piles, below, required, trick_ok,
                            True, params, F[F_PENALTY], W, F, C, keep)
    if n_cand == 0:
        return False
    for k in range(n_cand):
        F[F_LOOK_COST, k] = F[F_CAND_COST, k]
        for d in range(required):
            W[R_LOOK_CARDS, k * MAX_TURN + d] = C[0, k, d]
            W[R_LOOK_PILES, k * MAX_TURN + d] = C[1, k, d]
    best_k = 0
    best_total = INF
    for k in range(n_cand):
        n_left = 0
        for s in range(counts[player]):
            card = hands[player, s]
            chosen = False
            for d in range(required):
                if W[R_LOOK_CARDS, k * MAX_TURN + d] == card:
                    chosen = True
            if not chosen:
                W[R_LOOK_HAND, n_left] = card
                n_left += 1
        for p in range(N_PILES):
            W[R_LOOK_TOPS, p] = piles[p]
        for d in range(required):
            W[R_LOOK_TOPS, W[R_LOOK_PILES, k * MAX_TURN + d]] = W[R_LOOK_CARDS, k * MAX_TURN + d]
        following = INF
        if n_left >= required and best_sequences(W[R_LOOK_HAND], n_left, W[R_LOOK_TOPS][:N_PILES],
                                                 below, required, trick_ok, True, params,
                                                 F[F_PENALTY], W, F, C, 1) > 0:
            following = F[F_CAND_COST, 0]
        total = F[F_LOOK_COST, k] + params[P_LOOKAHEAD] * min(following, 50.0)
        if total < best_total:
            best_total = total
            best_k = k
    for d in range(required):
        W[R_LOOK_CARDS, d] = W[R_LOOK_CARDS, best_k * MAX_TURN + d]
        W[R_LOOK_PILES, d] = W[R_LOOK_PILES, best_k * MAX_TURN + d]
    return True


@kernel(inline="always")
def turn_planner(hands, counts, player, players, piles, below, required, draw_left, trick_ok,
                 signals, params, W, F, C, stats) -> int:
    """planner / signals: cheapest mandatory sequence by effective gap, then extras."""
    if signals:
        reservations(hands, counts, player, players, piles, below, trick_ok, params,
                     F[F_PENALTY])
    else:
        F[F_PENALTY, :] = 0.0
    if params[P_LOOKAHEAD] > 0.0:
        if not lookahead_choice(hands, counts, player, piles, below, required, trick_ok,
                                params, W, F, C):
            return 0
        play_sequence(hands, counts, player, piles, below, W[R_LOOK_CARDS], W[R_LOOK_PILES],
                      required, stats)
    else:
        if best_sequences(hands[player], counts[player], piles, below, required, trick_ok, True,
                          params, F[F_PENALTY], W, F, C, 1) == 0:
            return 0
        play_sequence(hands, counts, player, piles, below, C[0, 0], C[1, 0],
                      required, stats)
    extra = play_extras(hands, counts, player, piles, below, trick_ok,
                        extras_reach(draw_left, params), params, F[F_PENALTY], W, F, C, stats)
    stats[S_EXTRA_PLAYS] += extra
    return required + extra


@kernel
def choose_first_player(hands, counts, players, piles, below, min_cards, trick_ok, params,
                        W, F, C) -> int:
    """Allowed talk before the first turn ("I have a good start"): the player whose cheapest
    opening sequence costs least starts (ties: lowest seat)."""
    best = INF
    first = 0
    for q in range(players):
        if best_sequences(hands[q], counts[q], piles, below, min_cards, trick_ok, True, params,
                          F[F_NO_PENALTY], W, F, C, 1) > 0 and F[F_CAND_COST, 0] < best:
            best = F[F_CAND_COST, 0]
            first = q
    return first


@kernel(inline="always")
def take_heuristic_turn(strategy, hands, counts, player, players, piles, below, required,
                        draw_left, trick_ok, rng, params, W, F, C, stats) -> int:
    """One turn of random / greedy / planner / signals / search without rollouts (signals with
    the lookahead its parameters switch on); returns the number of cards played."""
    if strategy == RANDOM:
        return turn_simple(hands, counts, player, piles, below, required, trick_ok, rng, True,
                           params, W, F, C, stats)
    if strategy == GREEDY:
        return turn_simple(hands, counts, player, piles, below, required, trick_ok, rng, False,
                           params, W, F, C, stats)
    return turn_planner(hands, counts, player, players, piles, below, required, draw_left,
                        trick_ok, strategy != PLANNER, params, W, F, C, stats)


# ---------------------------------------------------------------------------------------------
# Game loop.


@kernel(inline="always")
def next_to_move(counts, player, players) -> int:
    """The seat that moves next starting from ``player``: a player with an empty hand after the
    draw pile is gone is skipped; -1 when every card has been played (win)."""
    for _ in range(players):
        if counts[player] > 0:
            return player
        player = (player + 1) % players
    return -1  # hands are refilled while the draw pile lasts, so this means all 98 are down


@kernel
def play_out(strategy, deck, draw_pos, hands, counts, first, players, hand_size, min_cards,
             trick_ok, piles, below, rng, params, W, F, C, stats) -> int:
    """Play a heuristic strategy from the given state to the end of the game; returns the draw
    position. Turns, extra plays and tricks accumulate in ``stats``."""
    player = first
    while True:
        player = next_to_move(counts, player, players)
        if player < 0:
            break
        draw_left = DECK_SIZE - draw_pos
        required = required_plays(draw_left, min_cards)
        played = take_heuristic_turn(strategy, hands, counts, player, players, piles, below,
                                     required, draw_left, trick_ok, rng, params, W, F, C, stats)
        if played < required:
            break  # the player to move cannot play the minimum: the game ends
        stats[S_TURNS] += 1
        record(stats, player, 0, LOG_TURN_END)
        draw_pos = refill(hands, counts, player, hand_size, deck, draw_pos)
        player = (player + 1) % players
    return draw_pos


@kernel
def greedy_pick(hands, player, hcount, used, t0, t1, t2, t3, trick_ok) -> int:
    """One greedy step over the unused slots (bit s of ``used``) and the tops t0..t3: the
    play of smallest raw gap, ties to the lower slot, then the lower pile (exactly
    :func:`sequential_choice`); returns slot * 4 + pile, or -1 when nothing is legal. A
    backwards trick (-10) cannot be beaten or tied by a later play, so the scan stops there."""
    best = 1 << 30
    best_code = -1
    for s in range(hcount):
        if (used >> s) & 1:
            continue
        card = hands[player, s]
        if card > t0:
            if card - t0 < best:
                best = card - t0
                best_code = s * N_PILES
        elif trick_ok and card == t0 - BACKWARDS_STEP:
            return s * N_PILES
        if card > t1:
            if card - t1 < best:
                best = card - t1
                best_code = s * N_PILES + 1
        elif trick_ok and card == t1 - BACKWARDS_STEP:
            return s * N_PILES + 1
        if card < t2:
            if t2 - card < best:
                best = t2 - card
                best_code = s * N_PILES + 2
        elif trick_ok and card == t2 + BACKWARDS_STEP:
            return s * N_PILES + 2
        if card < t3:
            if t3 - card < best:
                best = t3 - card
                best_code = s * N_PILES + 3
        elif trick_ok and card == t3 + BACKWARDS_STEP:
            return s * N_PILES + 3
    return best_code


@kernel
def play_out_greedy(deck, draw_pos, hands, counts, first, players, hand_size, min_cards,
                    trick_ok, piles, below, params, W, F, C, stats) -> int:
    """:func:`play_out` specialised to greedy (same plays, same results): each turn picks its
    ``required`` plays one at a time with :func:`greedy_pick` on local pile tops, falling back
    to the cheapest feasible sequence (:func:`best_sequences`, raw gaps) when that order gets
    stuck. The bookkeeping of :func:`play_sequence` and :func:`refill` is written out inline:
    the calls cost noticeably in this, the benchmark's fastest loop."""
    logging = stats.shape[0] > STATS_LEN
    chosen_card = W[R_TURN_CARDS]
    chosen_pile = W[R_TURN_PILES]
    tricks = 0
    turns = 0
    player = first
    while True:
        player = next_to_move(counts, player, players)
        if player < 0:
            break
        required = min_cards if draw_pos < DECK_SIZE else 1
        hcount = counts[player]
        t0 = piles[0]
        t1 = piles[1]
        t2 = piles[2]
        t3 = piles[3]
        used = 0
        found = required <= hcount
        if found:
            for d in range(required):
                code = greedy_pick(hands, player, hcount, used, t0, t1, t2, t3, trick_ok)
                if code < 0:
                    found = False
                    break
                s = code >> 2
                pile = code & 3
                used |= 1 << s
                card = hands[player, s]
                chosen_card[d] = card
                chosen_pile[d] = pile
                if pile == 0:
                    t0 = card
                elif pile == 1:
                    t1 = card
                elif pile == 2:
                    t2 = card
                else:
                    t3 = card
        if not found:
            if best_sequences(hands[player], hcount, piles, below, required, trick_ok, False,
                              params, F[F_NO_PENALTY], W, F, C, 1) == 0:
                break  # the player to move cannot play the minimum: the game ends
            for d in range(required):
                chosen_card[d] = C[0, 0, d]
                chosen_pile[d] = C[1, 0, d]
        for d in range(required):
            card = chosen_card[d]
            pile = chosen_pile[d]
            last = counts[player] - 1
            for s in range(last + 1):
                if hands[player, s] == card:
                    hands[player, s] = hands[player, last]
                    break
            hands[player, last] = 0
            counts[player] = last
            if is_backwards_trick(card, pile, piles[pile]):
                tricks += 1
            piles[pile] = card
            for x in range(card, below.shape[0]):
                below[x] -= 1
            if logging:
                record(stats, player, card, pile)
        turns += 1
        if logging:
            record(stats, player, 0, LOG_TURN_END)
        while counts[player] < hand_size and draw_pos < DECK_SIZE:
            hands[player, counts[player]] = deck[draw_pos]
            counts[player] += 1
            draw_pos += 1
        player = (player + 1) % players
    stats[S_TURNS] += turns
    stats[S_TRICKS] += tricks
    return draw_pos


@kernel(inline="always")
def cards_left(counts, players, draw_pos) -> int:
    """Every unplayed card: in hands plus in the draw pile."""
    total = DECK_SIZE - draw_pos
    for q in range(players):
        total += counts[q]
    return total


# ---------------------------------------------------------------------------------------------
# search with rollouts: candidate turns scored by rollouts over sampled unseen cards.


@kernel
def sample_hidden(hands, counts, player, players, deck, draw_pos, below, rng, sc) -> None:
    """A determinisation from the mover's legal information: the unplayed cards it does not
    hold, shuffled and dealt into teammates' hands (their known sizes) and the draw pile, into
    sc.s_hands / sc.s_counts / sc.s_deck (the draw pile occupies s_deck[draw_pos:])."""
    n_unseen = 0
    for card in range(LOWEST_CARD, HIGHEST_CARD + 1):
        if below[card] - below[card - 1] == 1 and find_slot(hands, counts, player, card) < 0:
            sc.unseen[n_unseen] = card
            n_unseen += 1
    shuffle_prefix(sc.unseen, n_unseen, rng)
    k = 0
    for q in range(players):
        sc.s_counts[q] = counts[q]
        for s in range(counts[q]):
            if q == player:
                sc.s_hands[q, s] = hands[q, s]
            else:
                sc.s_hands[q, s] = sc.unseen[k]
                k += 1
    for i in range(draw_pos, DECK_SIZE):
        sc.s_deck[i] = sc.unseen[k]
        k += 1


@kernel
def rollout(variant, n_variants_with_extras, player, players, draw_pos, hand_size, min_cards,
            required, trick_ok, piles, below, rng, params, W, F, C, sc) -> int:
    """Play candidate ``variant`` on a copy of the sampled state, then the signals strategy to
    the end; returns the cards left. Variants below ``n_variants_with_extras`` are candidate
    k = variant followed by the planner's extras; the last one is candidate 0 without extras."""
    for q in range(players):
        sc.r_counts[q] = sc.s_counts[q]
        for s in range(sc.s_counts[q]):
            sc.r_hands[q, s] = sc.s_hands[q, s]
    for i in range(draw_pos, DECK_SIZE):
        sc.r_deck[i] = sc.s_deck[i]
    for p in range(N_PILES):
        sc.r_piles[p] = piles[p]
    for x in range(below.shape[0]):
        sc.r_below[x] = below[x]
    sc.r_stats[:] = 0
    k = variant if variant < n_variants_with_extras else 0
    play_sequence(sc.r_hands, sc.r_counts, player, sc.r_piles, sc.r_below, sc.search_cards[k],
                  sc.search_piles[k], required, sc.r_stats)
    sc.candidate_extras[0] = 0
    if variant < n_variants_with_extras:
        reservations(sc.r_hands, sc.r_counts, player, players, sc.r_piles, sc.r_below, trick_ok,
                     params, F[F_PENALTY])
        sc.candidate_extras[0] = play_extras(
            sc.r_hands, sc.r_counts, player, sc.r_piles, sc.r_below, trick_ok,
            extras_reach(DECK_SIZE - draw_pos, params), params, F[F_PENALTY], W, F, C, sc.r_stats
        )
    pos = refill(sc.r_hands, sc.r_counts, player, hand_size, sc.r_deck, draw_pos)
    pos = play_out(SIGNALS, sc.r_deck, pos, sc.r_hands, sc.r_counts, (player + 1) % players,
                   players, hand_size, min_cards, trick_ok, sc.r_piles, sc.r_below, rng, params,
                   W, F, C, sc.r_stats)
    return cards_left(sc.r_counts, players, pos)


@kernel(inline="always")
def same_sequence(sc, k, cards, pile_of, required) -> bool:
    """Whether candidate k of the search list is the given sequence."""
    for d in range(required):
        if sc.search_cards[k, d] != cards[d] or sc.search_piles[k, d] != pile_of[d]:
            return False
    return True


@kernel
def search_candidates(hands, counts, player, piles, below, required, trick_ok, params, W, F, C,
                      sc) -> int:
    """The candidate turns a rollout search compares, into sc.search_cards / search_piles:
    first the planner's own choice (the lookahead's, when its weight is on), then the cheapest
    other sequences, P_SEARCH_CANDIDATES in all; returns how many (0: nothing is legal)."""
    keep = min(int(params[P_SEARCH_CANDIDATES]), MAX_CANDIDATES)
    n_cand = 0
    if params[P_LOOKAHEAD] > 0.0:
        if not lookahead_choice(hands, counts, player, piles, below, required, trick_ok, params,
                                W, F, C):
            return 0
        for d in range(required):
            sc.search_cards[0, d] = W[R_LOOK_CARDS, d]
            sc.search_piles[0, d] = W[R_LOOK_PILES, d]
        n_cand = 1
    found = best_sequences(hands[player], counts[player], piles, below, required, trick_ok,
                           True, params, F[F_PENALTY], W, F, C, keep)
    for k in range(found):
        if n_cand == keep:
            break
        if params[P_LOOKAHEAD] > 0.0 and same_sequence(sc, 0, C[0, k], C[1, k], required):
            continue
        for d in range(required):
            sc.search_cards[n_cand, d] = C[0, k, d]
            sc.search_piles[n_cand, d] = C[1, k, d]
        n_cand += 1
    return n_cand


@kernel
def turn_search(hands, counts, player, players, deck, draw_pos, hand_size,
                min_cards, piles, below, required, trick_ok, rng, params, W, F, C, sc,
                stats) -> int:
    """Rollout turn of search (with rollouts): the candidate mandatory sequences
    of :func:`search_candidates` (each followed by the planner's extras, plus the first one
    without extras) are each scored by the mean cards left of rollouts, played by
    the signals strategy with the same parameters (so with the lookahead), over
    P_SEARCH_ROLLOUTS determinisations (the unseen cards shuffled into teammates' hands
    and the draw pile). Scores are
    paired with the first candidate's on the same sample, and another variant is played only
    when it wins with confidence (see below)."""
    reservations(hands, counts, player, players, piles, below, trick_ok, params,
                 F[F_PENALTY])
    n_cand = search_candidates(hands, counts, player, piles, below, required, trick_ok, params,
                               W, F, C, sc)
    if n_cand == 0:
        return 0
    n_variants = n_cand + 1
    n_rollouts = int(params[P_SEARCH_ROLLOUTS])
    for v in range(n_variants):
        sc.search_score[v] = 0.0  # sum over samples of (cards left of v - cards left of 0)
        sc.search_square[v] = 0.0  # ... and of its square
    for _ in range(n_rollouts):
        sample_hidden(hands, counts, player, players, deck, draw_pos, below, rng, sc)
        first_score = rollout(0, n_cand, player, players, draw_pos, hand_size, min_cards,
                              required, trick_ok, piles, below, rng, params, W, F, C, sc)
        first_extras = sc.candidate_extras[0]
        for v in range(1, n_variants):
            if v == n_cand and first_extras == 0:
                continue  # candidate 0 played no extras: "without extras" is the same play
            difference = rollout(v, n_cand, player, players, draw_pos, hand_size, min_cards,
                                 required, trick_ok, piles, below, rng, params, W, F, C,
                                 sc) - first_score
            sc.search_score[v] += difference
            sc.search_square[v] += difference * difference
    # Leave the planner's choice only for a variant whose mean paired difference is below
    # zero by more than P_SEARCH_CONFIDENCE standard errors (one rollout: any improvement).
    best_v = 0
    best_mean = 0.0
    for v in range(1, n_variants):
        mean = sc.search_score[v] / n_rollouts
        if n_rollouts > 1:
            variance = max(sc.search_square[v] / n_rollouts - mean * mean, 0.0)
            bound = mean + params[P_SEARCH_CONFIDENCE] * np.sqrt(variance / (n_rollouts - 1))
        else:
            bound = mean
        if bound < 0.0 and mean < best_mean:
            best_mean = mean
            best_v = v
    k = best_v if best_v < n_cand else 0
    play_sequence(hands, counts, player, piles, below, sc.search_cards[k], sc.search_piles[k],
                  required, stats)
    if best_v == n_cand:
        return required
    reservations(hands, counts, player, players, piles, below, trick_ok, params,
                 F[F_PENALTY])
    extra = play_extras(hands, counts, player, piles, below, trick_ok,
                        extras_reach(DECK_SIZE - draw_pos, params), params, F[F_PENALTY], W, F, C,
                        stats)
    stats[S_EXTRA_PLAYS] += extra
    return required + extra


@kernel
def play_out_search(deck, draw_pos, hands, counts, first, players, hand_size,
                    min_cards, trick_ok, piles, below, rng, params, W, F, C, sc, stats) -> int:
    """The game loop of :func:`play_out` with rollout turns of search."""
    player = first
    while True:
        player = next_to_move(counts, player, players)
        if player < 0:
            break
        draw_left = DECK_SIZE - draw_pos
        required = required_plays(draw_left, min_cards)
        played = turn_search(hands, counts, player, players, deck, draw_pos,
                             hand_size, min_cards, piles, below, required, trick_ok, rng,
                             params, W, F, C, sc, stats)
        if played < required:
            break
        stats[S_TURNS] += 1
        record(stats, player, 0, LOG_TURN_END)
        draw_pos = refill(hands, counts, player, hand_size, deck, draw_pos)
        player = (player + 1) % players
    return draw_pos


# ---------------------------------------------------------------------------------------------
# omniscient: a plan of the whole game, improved by exact rollouts.
#
# Seeing every hand and the draw order, the team can play a whole game in its head before the
# first card goes down. The plan starts as the game `search` would play (the same deal, the
# same first player, the same moves) and is then improved: at turn t of the current plan the
# k-th cheapest mandatory sequence (with and without the planner's extras) is tried instead, each
# followed by the rollout policy to the end; a deviation replaces the rest of the plan when it
# leaves strictly fewer cards. Turns are visited from the last one backwards (short rollouts
# first; the states of earlier turns stay valid when a later one changes), until the plan wins
# or the rollouts have simulated P_OMNI_BUDGET turns. Every accepted change lowers the cards
# left, so omniscient never leaves more cards than search on the same deal.

SNAP_PLAYER = 0  # snap_meta columns: the player to move at the start of the turn,
SNAP_DRAW = 1  # the draw position,
SNAP_ROW = 2  # and the plan row where the turn starts


@kernel
def load_state(hands, counts, piles, below, players, sc) -> None:
    """Copy a state into the rollout state sc.r_hands / r_counts / r_piles / r_below."""
    for q in range(players):
        sc.r_counts[q] = counts[q]
        for s in range(MAX_HAND):
            sc.r_hands[q, s] = hands[q, s]
    for p in range(N_PILES):
        sc.r_piles[p] = piles[p]
    for x in range(below.shape[0]):
        sc.r_below[x] = below[x]


@kernel
def save_snapshot(t, player, draw_pos, row, players, sc) -> None:
    """Store the rollout state as turn-start state ``t`` of the plan."""
    for q in range(players):
        sc.snap_counts[t, q] = sc.r_counts[q]
        for s in range(MAX_HAND):
            sc.snap_hands[t, q, s] = sc.r_hands[q, s]
    for p in range(N_PILES):
        sc.snap_piles[t, p] = sc.r_piles[p]
    for x in range(sc.r_below.shape[0]):
        sc.snap_below[t, x] = sc.r_below[x]
    sc.snap_meta[t, SNAP_PLAYER] = player
    sc.snap_meta[t, SNAP_DRAW] = draw_pos
    sc.snap_meta[t, SNAP_ROW] = row


@kernel
def snapshot_plan(deck, draw_pos, hands, counts, players, hand_size, piles, below, rows,
                  sc) -> int:
    """Replay the plan's ``rows`` from the given state, storing the state at the start of every
    turn (and the final one); returns the number of turns."""
    load_state(hands, counts, piles, below, players, sc)
    t = 0
    row = 0
    while row < rows:
        player = sc.plan[3 * row]
        save_snapshot(t, player, draw_pos, row, players, sc)
        while sc.plan[3 * row + 2] != LOG_TURN_END:
            card = sc.plan[3 * row + 1]
            apply_play(sc.r_hands, sc.r_counts, player,
                       find_slot(sc.r_hands, sc.r_counts, player, card), sc.plan[3 * row + 2],
                       sc.r_piles, sc.r_below)
            row += 1
        row += 1
        draw_pos = refill(sc.r_hands, sc.r_counts, player, hand_size, deck, draw_pos)
        t += 1
    save_snapshot(t, -1, draw_pos, row, players, sc)
    return t


@kernel(inline="always")
def same_position(sc, t) -> bool:
    """Whether the rollout state shows the pile tops and unplayed cards of snapshot ``t``."""
    for p in range(N_PILES):
        if sc.r_piles[p] != sc.snap_piles[t, p]:
            return False
    for x in range(sc.r_below.shape[0]):
        if sc.r_below[x] != sc.snap_below[t, x]:
            return False
    return True


@kernel(inline="always")  # one caller: compiled as part of batch_omniscient, not once more
def plan_game(deck, draw_pos, hands, counts, first, players, hand_size, min_cards, trick_ok,
              piles, below, rng, params, W, F, C, sc) -> int:
    """omniscient's plan of the game from the given state (rows like the play log, in
    sc.plan): search's game, improved by exact rollouts as described above; returns the number
    of rows. The state itself is not changed.

    Pass k (k = 0 .. P_OMNI_CANDIDATES - 1) visits the turns of the current plan from the last
    one backwards and tries the k-th cheapest mandatory sequence there, with and without the
    planner's extras; later passes only run while the plan still loses and budget is left."""
    o = sc.o_stats
    o[:STATS_LEN] = 0
    load_state(hands, counts, piles, below, players, sc)
    pos = play_out(SEARCH, deck, draw_pos, sc.r_hands, sc.r_counts, first, players, hand_size,
                   min_cards, trick_ok, sc.r_piles, sc.r_below, rng, params, W, F, C, o)
    best_left = cards_left(sc.r_counts, players, pos)
    rows = o[S_LOG_LEN]
    for i in range(3 * rows):
        sc.plan[i] = o[STATS_LEN + i]
    budget = params[P_OMNI_BUDGET]
    for i in range(N_PARAMS):
        sc.o_params[i] = params[i]
    sc.o_params[P_LOOKAHEAD] = params[P_OMNI_LOOKAHEAD]
    passes = min(int(params[P_OMNI_CANDIDATES]), MAX_CANDIDATES)
    spent = 0.0
    for level in range(passes):
        if best_left == 0 or spent >= budget:
            break
        n_turns = snapshot_plan(deck, draw_pos, hands, counts, players, hand_size, piles,
                                below, rows, sc)
        t = n_turns - 1
        while t >= 0 and best_left > 0 and spent < budget:
            player = sc.snap_meta[t, SNAP_PLAYER]
            pos_t = sc.snap_meta[t, SNAP_DRAW]
            row_t = sc.snap_meta[t, SNAP_ROW]
            required = required_plays(DECK_SIZE - pos_t, min_cards)
            load_state(sc.snap_hands[t], sc.snap_counts[t], sc.snap_piles[t],
                       sc.snap_below[t], players, sc)
            reservations(sc.r_hands, sc.r_counts, player, players, sc.r_piles, sc.r_below,
                         trick_ok, params, F[F_PENALTY])
            if best_sequences(sc.r_hands[player], sc.r_counts[player], sc.r_piles, sc.r_below,
                              required, trick_ok, True, params, F[F_PENALTY], W, F, C,
                              level + 1) <= level:
                t -= 1
                continue  # fewer legal sequences than this pass needs
            for d in range(required):
                sc.search_cards[0, d] = C[0, level, d]
                sc.search_piles[0, d] = C[1, level, d]
            extras = 0
            for with_extras in (True, False):
                if not with_extras and extras == 0:
                    continue  # without extras is the same play
                load_state(sc.snap_hands[t], sc.snap_counts[t], sc.snap_piles[t],
                           sc.snap_below[t], players, sc)
                o[:STATS_LEN] = 0
                play_sequence(sc.r_hands, sc.r_counts, player, sc.r_piles, sc.r_below,
                              sc.search_cards[0], sc.search_piles[0], required, o)
                if with_extras:
                    reservations(sc.r_hands, sc.r_counts, player, players, sc.r_piles,
                                 sc.r_below, trick_ok, params, F[F_PENALTY])
                    extras = play_extras(sc.r_hands, sc.r_counts, player, sc.r_piles,
                                         sc.r_below, trick_ok,
                                         extras_reach(DECK_SIZE - pos_t, params), params,
                                         F[F_PENALTY], W, F, C, o)
                if same_position(sc, t + 1):
                    continue  # the plan's own turn: its outcome is known
                for p in range(N_PILES):
                    sc.after_piles[p] = sc.r_piles[p]
                for x in range(sc.r_below.shape[0]):
                    sc.after_below[x] = sc.r_below[x]
                record(o, player, 0, LOG_TURN_END)
                pos = refill(sc.r_hands, sc.r_counts, player, hand_size, deck, pos_t)
                pos = play_out(SIGNALS, deck, pos, sc.r_hands, sc.r_counts,
                               (player + 1) % players, players, hand_size, min_cards, trick_ok,
                               sc.r_piles, sc.r_below, rng, sc.o_params, W, F, C, o)
                spent += o[S_TURNS] + 1
                left = cards_left(sc.r_counts, players, pos)
                if left < best_left:
                    # Adopt: the plan's rows from turn t on are the deviation and its rollout.
                    best_left = left
                    n_rows = o[S_LOG_LEN]
                    for i in range(3 * n_rows):
                        sc.plan[3 * row_t + i] = o[STATS_LEN + i]
                    rows = row_t + n_rows
                    for p in range(N_PILES):
                        sc.snap_piles[t + 1, p] = sc.after_piles[p]
                    for x in range(sc.r_below.shape[0]):
                        sc.snap_below[t + 1, x] = sc.after_below[x]
                if best_left == 0 or spent >= budget:
                    break
            t -= 1
    return rows


@kernel(inline="always")  # one caller: compiled as part of batch_omniscient
def play_plan(deck, draw_pos, hands, counts, first, players, hand_size, min_cards, piles,
              below, rows, sc, stats) -> int:
    """Play the plan's ``rows`` on the live state (logged, tricks and extras counted); returns
    the draw position. The plan ends where its last player cannot play the minimum."""
    row = 0
    player = first
    while row < rows:
        player = next_to_move(counts, player, players)
        if player != sc.plan[3 * row]:
            raise AssertionError("omniscient plan out of turn order")
        required = required_plays(DECK_SIZE - draw_pos, min_cards)
        played = 0
        while sc.plan[3 * row + 2] != LOG_TURN_END:
            play_card(hands, counts, player, find_slot(hands, counts, player, sc.plan[3 * row + 1]),
                      sc.plan[3 * row + 2], piles, below, stats)
            played += 1
            row += 1
        row += 1
        stats[S_EXTRA_PLAYS] += played - required
        stats[S_TURNS] += 1
        record(stats, player, 0, LOG_TURN_END)
        draw_pos = refill(hands, counts, player, hand_size, deck, draw_pos)
        player = (player + 1) % players
    return draw_pos


@kernel
def setup_game(deal_seed, players, hand_size, deck, hands, counts, piles, below, rng) -> int:
    """Shuffle, deal ``hand_size`` cards to each player and lay the four foundations;
    returns the draw position."""
    rng[0] = np.uint64(deal_seed)
    fill_and_shuffle(deck, rng)
    for pile in range(N_PILES):
        piles[pile] = start_top(pile)
    reset_below(below)
    hands[:, :] = 0
    draw_pos = 0
    for q in range(MAX_PLAYERS):
        counts[q] = 0
    for q in range(players):
        draw_pos = refill(hands, counts, q, hand_size, deck, draw_pos)
    return draw_pos


@kernel(inline="always")
def new_table():
    """Fresh state arrays of one game (deck, hands, counts, piles, below, rng), reused by every
    game of a batch."""
    return (np.empty(DECK_SIZE, np.int64), np.zeros((MAX_PLAYERS, MAX_HAND), np.int64),
            np.zeros(MAX_PLAYERS, np.int64), np.empty(N_PILES, np.int64),
            np.empty(HIGHEST_CARD + 2, np.int64), np.empty(1, np.uint64))


@kernel(inline="always")
def finish_row(out_row, counts, players, draw_pos, first, stats) -> None:
    """Fill ``out_row`` (N_STATS episode statistics) at the end of a game."""
    in_hands = 0
    for q in range(players):
        in_hands += counts[q]
    out_row[S_CARDS_LEFT] = in_hands + DECK_SIZE - draw_pos
    out_row[S_IN_HANDS] = in_hands
    out_row[S_DRAW_LEFT] = DECK_SIZE - draw_pos
    out_row[S_TURNS] = stats[S_TURNS]
    out_row[S_FIRST_PLAYER] = first
    out_row[S_EXTRA_PLAYS] = stats[S_EXTRA_PLAYS]
    out_row[S_TRICKS] = stats[S_TRICKS]


# One batch kernel per strategy family, chosen in Python by :func:`batch_kernel`, so that a run
# compiles only the code its strategy reaches (greedy never compiles the planner, the planners
# never compile omniscient's plan search). Each plays one game per seed into ``out`` rows; a
# ``stats`` vector longer than STATS_LEN also receives the play log (one game: see trace_game).
# The strategies that talk (signals and above) let the team pick who starts.


@kernel(inline="always")
def start_talking_game(deal_seed, players, hand_size, min_cards, trick_ok, talk, params, deck,
                       hands, counts, piles, below, rng, W, F, C, stats) -> tuple[int, int]:
    """Deal one game and clear its stats; when the team ``talk``s (signals and above) and has
    more than one player, it picks who starts (:func:`choose_first_player`), else seat 0.
    Returns (draw position, first player)."""
    draw_pos = setup_game(deal_seed, players, hand_size, deck, hands, counts, piles, below, rng)
    stats[:STATS_LEN] = 0
    first = 0
    if talk and players > 1:
        first = choose_first_player(hands, counts, players, piles, below, min_cards, trick_ok,
                                    params, W, F, C)
    return draw_pos, first


@kernel
def batch_greedy(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, stats,
                 out) -> None:
    """greedy games (:func:`play_out_greedy`); the first seat starts."""
    deck, hands, counts, piles, below, rng = new_table()
    W, F, C = new_work()
    for g in range(deal_seeds.shape[0]):
        draw_pos = setup_game(deal_seeds[g], players, hand_size, deck, hands, counts, piles,
                              below, rng)
        stats[:STATS_LEN] = 0
        draw_pos = play_out_greedy(deck, draw_pos, hands, counts, 0, players, hand_size,
                                   min_cards, trick_ok, piles, below, params, W, F, C, stats)
        finish_row(out[g], counts, players, draw_pos, 0, stats)


@kernel
def batch_heuristic(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params,
                    stats, out) -> None:
    """random / planner / signals / search without rollouts games (:func:`play_out`)."""
    deck, hands, counts, piles, below, rng = new_table()
    W, F, C = new_work()
    for g in range(deal_seeds.shape[0]):
        draw_pos, first = start_talking_game(deal_seeds[g], players, hand_size, min_cards,
                                             trick_ok, strategy >= SIGNALS, params, deck, hands,
                                             counts, piles, below, rng, W, F, C, stats)
        draw_pos = play_out(strategy, deck, draw_pos, hands, counts, first, players, hand_size,
                            min_cards, trick_ok, piles, below, rng, params, W, F, C, stats)
        finish_row(out[g], counts, players, draw_pos, first, stats)


@kernel
def batch_search(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params, stats,
                 out) -> None:
    """search games with rollouts (:func:`play_out_search`)."""
    deck, hands, counts, piles, below, rng = new_table()
    W, F, C = new_work()
    sc = new_rollout()
    for g in range(deal_seeds.shape[0]):
        draw_pos, first = start_talking_game(deal_seeds[g], players, hand_size, min_cards,
                                             trick_ok, True, params, deck, hands, counts, piles,
                                             below, rng, W, F, C, stats)
        draw_pos = play_out_search(deck, draw_pos, hands, counts, first, players, hand_size,
                                   min_cards, trick_ok, piles, below, rng, params, W, F, C, sc,
                                   stats)
        finish_row(out[g], counts, players, draw_pos, first, stats)


@kernel
def batch_omniscient(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params,
                     stats, out) -> None:
    """omniscient games: the plan of :func:`plan_game`, then played (:func:`play_plan`)."""
    deck, hands, counts, piles, below, rng = new_table()
    W, F, C = new_work()
    sc = new_rollout()
    for g in range(deal_seeds.shape[0]):
        draw_pos, first = start_talking_game(deal_seeds[g], players, hand_size, min_cards,
                                             trick_ok, True, params, deck, hands, counts, piles,
                                             below, rng, W, F, C, stats)
        rows = plan_game(deck, draw_pos, hands, counts, first, players, hand_size, min_cards,
                         trick_ok, piles, below, rng, params, W, F, C, sc)
        draw_pos = play_plan(deck, draw_pos, hands, counts, first, players, hand_size, min_cards,
                             piles, below, rows, sc, stats)
        finish_row(out[g], counts, players, draw_pos, first, stats)


def batch_kernel(strategy: int, params: np.ndarray):
    """The batch kernel of the strategy family ``strategy`` (with these parameters) belongs to."""
    if strategy == OMNISCIENT:
        return batch_omniscient
    if strategy == SEARCH and params[P_SEARCH_ROLLOUTS] > 0:
        return batch_search
    if strategy == GREEDY:
        return batch_greedy
    return batch_heuristic


def play_batch(deal_seeds: np.ndarray, players: int, hand_size: int, min_cards: int,
               trick_ok: bool, strategy: int, params: np.ndarray, stats: np.ndarray,
               out: np.ndarray) -> None:
    """Play one game per seed into ``out`` with the strategy family's kernel. Scalars are passed
    as plain int / bool so that numpy and Python numbers share one compiled signature."""
    batch_kernel(int(strategy), params)(
        deal_seeds, int(players), int(hand_size), int(min_cards), bool(trick_ok), int(strategy),
        np.asarray(params, np.float64), stats, out)


def play_games(deal_seeds: np.ndarray, players: int, hand_size: int, min_cards: int,
               trick_ok: bool, strategy: int, params: np.ndarray) -> np.ndarray:
    """Play one game per seed; returns an int16 array [n, N_STATS] of episode statistics."""
    out = np.zeros((deal_seeds.shape[0], N_STATS), np.int16)
    play_batch(deal_seeds, players, hand_size, min_cards, trick_ok, strategy, params,
               np.zeros(STATS_LEN, np.int64), out)
    return out


def trace_game(deal_seed: int, players: int, hand_size: int, min_cards: int, trick_ok: bool,
               strategy: int, params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One game with its full play log: (episode statistics [N_STATS], log [k, 3]) where each
    log row is (player, card, pile) and a row (player, 0, LOG_TURN_END) closes a turn."""
    out = np.zeros((1, N_STATS), np.int16)
    stats = np.zeros(STATS_LEN + LOG_CAPACITY, np.int64)
    play_batch(np.array([deal_seed], np.int64), players, hand_size, min_cards, trick_ok,
               strategy, params, stats, out)
    n_log = stats[S_LOG_LEN]
    return out[0], stats[STATS_LEN:STATS_LEN + 3 * n_log].copy().reshape((n_log, 3))
