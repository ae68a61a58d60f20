"""The Game's strategies that roll games out: search with rollouts over sampled unseen cards,
and omniscient's plan of the whole game improved by exact rollouts (``seeds/the_game.md``).
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel
from cardsim.sims.thegame.heuristic_turns import (
    extras_reach,
    lookahead_choice,
    play_extras,
    play_out,
    reservations,
)
from cardsim.sims.thegame.rules import (
    DECK_SIZE,
    HIGHEST_CARD,
    LOWEST_CARD,
    MAX_HAND,
    N_PILES,
    required_plays,
)
from cardsim.sims.thegame.state import (
    F_PENALTY,
    LOG_TURN_END,
    MAX_CANDIDATES,
    N_PARAMS,
    P_LOOKAHEAD,
    P_OMNI_BUDGET,
    P_OMNI_CANDIDATES,
    P_OMNI_LOOKAHEAD,
    P_SEARCH_CANDIDATES,
    P_SEARCH_CONFIDENCE,
    P_SEARCH_ROLLOUTS,
    R_LOOK_CARDS,
    R_LOOK_PILES,
    S_EXTRA_PLAYS,
    S_LOG_LEN,
    S_TURNS,
    SEARCH,
    SIGNALS,
    STATS_LEN,
    apply_play,
    cards_left,
    find_slot,
    next_to_move,
    play_card,
    play_sequence,
    record,
    refill,
    shuffle_prefix,
)
from cardsim.sims.thegame.turn_search import (
    best_sequences,
)

# ---------------------------------------------------------------------------------------------
# search with rollouts: candidate turns scored by rollouts over sampled unseen cards.


@kernel(refcounts=False)
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


@kernel(refcounts=False)
def rollout(
    variant,
    n_variants_with_extras,
    player,
    players,
    draw_pos,
    hand_size,
    min_cards,
    required,
    trick_ok,
    piles,
    below,
    rng,
    params,
    W,
    F,
    C,
    sc,
) -> int:
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
    play_sequence(
        sc.r_hands,
        sc.r_counts,
        player,
        sc.r_piles,
        sc.r_below,
        sc.search_cards[k],
        sc.search_piles[k],
        required,
        sc.r_stats,
    )
    sc.candidate_extras[0] = 0
    if variant < n_variants_with_extras:
        reservations(sc.r_hands, sc.r_counts, player, players, sc.r_piles, sc.r_below, trick_ok, params, F[F_PENALTY])
        sc.candidate_extras[0] = play_extras(
            sc.r_hands,
            sc.r_counts,
            player,
            sc.r_piles,
            sc.r_below,
            trick_ok,
            extras_reach(DECK_SIZE - draw_pos, params),
            params,
            F[F_PENALTY],
            W,
            F,
            C,
            sc.r_stats,
        )
    pos = refill(sc.r_hands, sc.r_counts, player, hand_size, sc.r_deck, draw_pos)
    pos = play_out(
        SIGNALS,
        sc.r_deck,
        pos,
        sc.r_hands,
        sc.r_counts,
        (player + 1) % players,
        players,
        hand_size,
        min_cards,
        trick_ok,
        sc.r_piles,
        sc.r_below,
        rng,
        params,
        W,
        F,
        C,
        sc.r_stats,
    )
    return cards_left(sc.r_counts, players, pos)


@kernel(inline="always")
def same_sequence(sc, k, cards, pile_of, required) -> bool:
    """Whether candidate k of the search list is the given sequence."""
    for d in range(required):
        if sc.search_cards[k, d] != cards[d] or sc.search_piles[k, d] != pile_of[d]:
            return False
    return True


@kernel(refcounts=False)
def search_candidates(hands, counts, player, piles, below, required, trick_ok, params, W, F, C, sc) -> int:
    """The candidate turns a rollout search compares, into sc.search_cards / search_piles:
    first the planner's own choice (the lookahead's, when its weight is on), then the cheapest
    other sequences, P_SEARCH_CANDIDATES in all; returns how many (0: nothing is legal)."""
    keep = min(int(params[P_SEARCH_CANDIDATES]), MAX_CANDIDATES)
    n_cand = 0
    if params[P_LOOKAHEAD] > 0.0:
        if not lookahead_choice(hands, counts, player, piles, below, required, trick_ok, params, W, F, C):
            return 0
        for d in range(required):
            sc.search_cards[0, d] = W[R_LOOK_CARDS, d]
            sc.search_piles[0, d] = W[R_LOOK_PILES, d]
        n_cand = 1
    found = best_sequences(
        hands[player], counts[player], piles, below, required, trick_ok, True, params, F[F_PENALTY], W, F, C, keep
    )
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


@kernel(refcounts=False)
def turn_search(
    hands,
    counts,
    player,
    players,
    deck,
    draw_pos,
    hand_size,
    min_cards,
    piles,
    below,
    required,
    trick_ok,
    rng,
    params,
    W,
    F,
    C,
    sc,
    stats,
) -> int:
    """Rollout turn of search (with rollouts): the candidate mandatory sequences
    of :func:`search_candidates` (each followed by the planner's extras, plus the first one
    without extras) are each scored by the mean cards left of rollouts, played by
    the signals strategy with the same parameters (so with the lookahead), over
    P_SEARCH_ROLLOUTS determinisations (the unseen cards shuffled into teammates' hands
    and the draw pile). Scores are
    paired with the first candidate's on the same sample, and another variant is played only
    when it wins with confidence (see below)."""
    reservations(hands, counts, player, players, piles, below, trick_ok, params, F[F_PENALTY])
    n_cand = search_candidates(hands, counts, player, piles, below, required, trick_ok, params, W, F, C, sc)
    if n_cand == 0:
        return 0
    n_variants = n_cand + 1
    n_rollouts = int(params[P_SEARCH_ROLLOUTS])
    for v in range(n_variants):
        sc.search_score[v] = 0.0  # sum over samples of (cards left of v - cards left of 0)
        sc.search_square[v] = 0.0  # ... and of its square
    for _ in range(n_rollouts):
        sample_hidden(hands, counts, player, players, deck, draw_pos, below, rng, sc)
        first_score = rollout(
            0,
            n_cand,
            player,
            players,
            draw_pos,
            hand_size,
            min_cards,
            required,
            trick_ok,
            piles,
            below,
            rng,
            params,
            W,
            F,
            C,
            sc,
        )
        first_extras = sc.candidate_extras[0]
        for v in range(1, n_variants):
            if v == n_cand and first_extras == 0:
                continue  # candidate 0 played no extras: "without extras" is the same play
            difference = (
                rollout(
                    v,
                    n_cand,
                    player,
                    players,
                    draw_pos,
                    hand_size,
                    min_cards,
                    required,
                    trick_ok,
                    piles,
                    below,
                    rng,
                    params,
                    W,
                    F,
                    C,
                    sc,
                )
                - first_score
            )
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
    play_sequence(hands, counts, player, piles, below, sc.search_cards[k], sc.search_piles[k], required, stats)
    if best_v == n_cand:
        return required
    reservations(hands, counts, player, players, piles, below, trick_ok, params, F[F_PENALTY])
    extra = play_extras(
        hands,
        counts,
        player,
        piles,
        below,
        trick_ok,
        extras_reach(DECK_SIZE - draw_pos, params),
        params,
        F[F_PENALTY],
        W,
        F,
        C,
        stats,
    )
    stats[S_EXTRA_PLAYS] += extra
    return required + extra


@kernel(refcounts=False)
def play_out_search(
    deck,
    draw_pos,
    hands,
    counts,
    first,
    players,
    hand_size,
    min_cards,
    trick_ok,
    piles,
    below,
    rng,
    params,
    W,
    F,
    C,
    sc,
    stats,
) -> int:
    """The game loop of :func:`play_out` with rollout turns of search."""
    player = first
    while True:
        player = next_to_move(counts, player, players)
        if player < 0:
            break
        draw_left = DECK_SIZE - draw_pos
        required = required_plays(draw_left, min_cards)
        played = turn_search(
            hands,
            counts,
            player,
            players,
            deck,
            draw_pos,
            hand_size,
            min_cards,
            piles,
            below,
            required,
            trick_ok,
            rng,
            params,
            W,
            F,
            C,
            sc,
            stats,
        )
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


@kernel(refcounts=False)
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


@kernel(refcounts=False)
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


@kernel(refcounts=False)
def snapshot_plan(deck, draw_pos, hands, counts, players, hand_size, piles, below, rows, sc) -> int:
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
            apply_play(
                sc.r_hands,
                sc.r_counts,
                player,
                find_slot(sc.r_hands, sc.r_counts, player, card),
                sc.plan[3 * row + 2],
                sc.r_piles,
                sc.r_below,
            )
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
def plan_game(
    deck,
    draw_pos,
    hands,
    counts,
    first,
    players,
    hand_size,
    min_cards,
    trick_ok,
    piles,
    below,
    rng,
    params,
    W,
    F,
    C,
    sc,
) -> int:
    """omniscient's plan of the game from the given state (rows like the play log, in
    sc.plan): search's game, improved by exact rollouts as described above; returns the number
    of rows. The state itself is not changed.

    Pass k (k = 0 .. P_OMNI_CANDIDATES - 1) visits the turns of the current plan from the last
    one backwards and tries the k-th cheapest mandatory sequence there, with and without the
    planner's extras; later passes only run while the plan still loses and budget is left."""
    o = sc.o_stats
    o[:STATS_LEN] = 0
    load_state(hands, counts, piles, below, players, sc)
    pos = play_out(
        SEARCH,
        deck,
        draw_pos,
        sc.r_hands,
        sc.r_counts,
        first,
        players,
        hand_size,
        min_cards,
        trick_ok,
        sc.r_piles,
        sc.r_below,
        rng,
        params,
        W,
        F,
        C,
        o,
    )
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
        n_turns = snapshot_plan(deck, draw_pos, hands, counts, players, hand_size, piles, below, rows, sc)
        t = n_turns - 1
        while t >= 0 and best_left > 0 and spent < budget:
            player = sc.snap_meta[t, SNAP_PLAYER]
            pos_t = sc.snap_meta[t, SNAP_DRAW]
            row_t = sc.snap_meta[t, SNAP_ROW]
            required = required_plays(DECK_SIZE - pos_t, min_cards)
            load_state(sc.snap_hands[t], sc.snap_counts[t], sc.snap_piles[t], sc.snap_below[t], players, sc)
            reservations(
                sc.r_hands, sc.r_counts, player, players, sc.r_piles, sc.r_below, trick_ok, params, F[F_PENALTY]
            )
            if (
                best_sequences(
                    sc.r_hands[player],
                    sc.r_counts[player],
                    sc.r_piles,
                    sc.r_below,
                    required,
                    trick_ok,
                    True,
                    params,
                    F[F_PENALTY],
                    W,
                    F,
                    C,
                    level + 1,
                )
                <= level
            ):
                t -= 1
                continue  # fewer legal sequences than this pass needs
            for d in range(required):
                sc.search_cards[0, d] = C[0, level, d]
                sc.search_piles[0, d] = C[1, level, d]
            extras = 0
            for with_extras in (True, False):
                if not with_extras and extras == 0:
                    continue  # without extras is the same play
                load_state(sc.snap_hands[t], sc.snap_counts[t], sc.snap_piles[t], sc.snap_below[t], players, sc)
                o[:STATS_LEN] = 0
                play_sequence(
                    sc.r_hands,
                    sc.r_counts,
                    player,
                    sc.r_piles,
                    sc.r_below,
                    sc.search_cards[0],
                    sc.search_piles[0],
                    required,
                    o,
                )
                if with_extras:
                    reservations(
                        sc.r_hands, sc.r_counts, player, players, sc.r_piles, sc.r_below, trick_ok, params, F[F_PENALTY]
                    )
                    extras = play_extras(
                        sc.r_hands,
                        sc.r_counts,
                        player,
                        sc.r_piles,
                        sc.r_below,
                        trick_ok,
                        extras_reach(DECK_SIZE - pos_t, params),
                        params,
                        F[F_PENALTY],
                        W,
                        F,
                        C,
                        o,
                    )
                if same_position(sc, t + 1):
                    continue  # the plan's own turn: its outcome is known
                for p in range(N_PILES):
                    sc.after_piles[p] = sc.r_piles[p]
                for x in range(sc.r_below.shape[0]):
                    sc.after_below[x] = sc.r_below[x]
                record(o, player, 0, LOG_TURN_END)
                pos = refill(sc.r_hands, sc.r_counts, player, hand_size, deck, pos_t)
                pos = play_out(
                    SIGNALS,
                    deck,
                    pos,
                    sc.r_hands,
                    sc.r_counts,
                    (player + 1) % players,
                    players,
                    hand_size,
                    min_cards,
                    trick_ok,
                    sc.r_piles,
                    sc.r_below,
                    rng,
                    sc.o_params,
                    W,
                    F,
                    C,
                    o,
                )
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
def play_plan(
    deck, draw_pos, hands, counts, first, players, hand_size, min_cards, piles, below, rows, sc, stats
) -> int:
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
            play_card(
                hands,
                counts,
                player,
                find_slot(hands, counts, player, sc.plan[3 * row + 1]),
                sc.plan[3 * row + 2],
                piles,
                below,
                stats,
            )
            played += 1
            row += 1
        row += 1
        stats[S_EXTRA_PLAYS] += played - required
        stats[S_TURNS] += 1
        record(stats, player, 0, LOG_TURN_END)
        draw_pos = refill(hands, counts, player, hand_size, deck, draw_pos)
        player = (player + 1) % players
    return draw_pos
