"""One turn of random, greedy, planner, signals and search (its lookahead), and their game loops.

Each turn function plays on the live state and returns the number of cards played (fewer than
``required`` means the player could not play the minimum: the game ends). Strategy
descriptions: ``seeds/the_game.md`` (Strategies); the talk the rules allow ("I have something
good for pile N", who starts) is :func:`reservations` and :func:`choose_first_player`.
"""

from __future__ import annotations

from cardsim.sims.core.jit import kernel
from cardsim.sims.thegame.rules import (
    BACKWARDS_STEP,
    DECK_SIZE,
    MAX_HAND,
    N_PILES,
    can_play,
    is_backwards_trick,
    required_plays,
)
from cardsim.sims.thegame.state import (
    F_CAND_COST,
    F_LOOK_COST,
    F_NO_PENALTY,
    F_PENALTY,
    GREEDY,
    INF,
    LOG_TURN_END,
    MAX_TURN,
    P_LATE_DRAW,
    P_LOOKAHEAD,
    P_LOOKAHEAD_CANDIDATES,
    P_PAIR_PENALTY,
    P_REACH_EARLY,
    P_REACH_LATE,
    P_SIGNAL_PENALTY,
    P_SIGNAL_THRESHOLD,
    P_TRICK_BONUS,
    PLANNER,
    R_LEGAL_PILE,
    R_LEGAL_SLOT,
    R_LOOK_CARDS,
    R_LOOK_HAND,
    R_LOOK_PILES,
    R_LOOK_TOPS,
    R_SLOT_OF,
    R_TURN_CARDS,
    R_TURN_PILES,
    R_USED,
    R_WORK,
    RANDOM,
    S_EXTRA_PLAYS,
    S_TRICKS,
    S_TURNS,
    SLOT_TABLE,
    STATS_LEN,
    next_to_move,
    play_card,
    play_sequence,
    random_below,
    record,
    refill,
)
from cardsim.sims.thegame.turn_search import (
    best_sequences,
    effective_gap,
    far_partner,
    raw_gap,
)


@kernel(inline="always")
def sequential_choice(hands, counts, player, piles, required, trick_ok, rng, random_pick, W, F, C) -> bool:
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


@kernel(refcounts=False)
def turn_simple(
    hands, counts, player, piles, below, required, trick_ok, rng, random_pick, params, W, F, C, stats
) -> int:
    """random / greedy: exactly the minimum count, chosen one card at a time; when that order
    gets stuck although some order works, the cheapest feasible sequence (raw gaps) is played."""
    if sequential_choice(hands, counts, player, piles, required, trick_ok, rng, random_pick, W, F, C):
        play_sequence(hands, counts, player, piles, below, W[R_TURN_CARDS], W[R_TURN_PILES], required, stats)
        return required
    if (
        best_sequences(
            hands[player], counts[player], piles, below, required, trick_ok, False, params, F[F_NO_PENALTY], W, F, C, 1
        )
        == 0
    ):
        return 0
    play_sequence(hands, counts, player, piles, below, C[0, 0], C[1, 0], required, stats)
    return required


@kernel(refcounts=False)
def extra_play_cost(hands, counts, player, slot, pile, piles, below, trick_ok, params, pile_penalty, slot_of) -> float:
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


@kernel(refcounts=False)
def play_extras(hands, counts, player, piles, below, trick_ok, reach, params, pile_penalty, W, F, C, stats) -> int:
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
                cost = extra_play_cost(
                    hands, counts, player, s, pile, piles, below, trick_ok, params, pile_penalty, slot_of
                )
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


@kernel(refcounts=False)
def reservations(hands, counts, player, players, piles, below, trick_ok, params, out_penalty) -> None:
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


@kernel(refcounts=False)
def lookahead_choice(hands, counts, player, piles, below, required, trick_ok, params, W, F, C) -> bool:
    """Planner lookahead: among the P_LOOKAHEAD_CANDIDATES cheapest mandatory sequences, the one
    minimising its cost + P_LOOKAHEAD x the cost of the cheapest sequence the *remaining* hand
    could play next on the piles it leaves (new draws unknown, so ignored). The winner is left
    at the front of W[R_LOOK_CARDS] / W[R_LOOK_PILES]; False when no sequence is legal."""
    keep = max(1, min(int(params[P_LOOKAHEAD_CANDIDATES]), SLOT_TABLE // MAX_TURN))
    n_cand = best_sequences(
        hands[player], counts[player], piles, below, required, trick_ok, True, params, F[F_PENALTY], W, F, C, keep
    )
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
        if (
            n_left >= required
            and best_sequences(
                W[R_LOOK_HAND],
                n_left,
                W[R_LOOK_TOPS][:N_PILES],
                below,
                required,
                trick_ok,
                True,
                params,
                F[F_PENALTY],
                W,
                F,
                C,
                1,
            )
            > 0
        ):
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
def turn_planner(
    hands, counts, player, players, piles, below, required, draw_left, trick_ok, signals, params, W, F, C, stats
) -> int:
    """planner / signals: cheapest mandatory sequence by effective gap, then extras."""
    if signals:
        reservations(hands, counts, player, players, piles, below, trick_ok, params, F[F_PENALTY])
    else:
        F[F_PENALTY, :] = 0.0
    if params[P_LOOKAHEAD] > 0.0:
        if not lookahead_choice(hands, counts, player, piles, below, required, trick_ok, params, W, F, C):
            return 0
        play_sequence(hands, counts, player, piles, below, W[R_LOOK_CARDS], W[R_LOOK_PILES], required, stats)
    else:
        if (
            best_sequences(
                hands[player], counts[player], piles, below, required, trick_ok, True, params, F[F_PENALTY], W, F, C, 1
            )
            == 0
        ):
            return 0
        play_sequence(hands, counts, player, piles, below, C[0, 0], C[1, 0], required, stats)
    extra = play_extras(
        hands,
        counts,
        player,
        piles,
        below,
        trick_ok,
        extras_reach(draw_left, params),
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
def choose_first_player(hands, counts, players, piles, below, min_cards, trick_ok, params, W, F, C) -> int:
    """Allowed talk before the first turn ("I have a good start"): the player whose cheapest
    opening sequence costs least starts (ties: lowest seat)."""
    best = INF
    first = 0
    for q in range(players):
        if (
            best_sequences(
                hands[q], counts[q], piles, below, min_cards, trick_ok, True, params, F[F_NO_PENALTY], W, F, C, 1
            )
            > 0
            and F[F_CAND_COST, 0] < best
        ):
            best = F[F_CAND_COST, 0]
            first = q
    return first


@kernel(inline="always")
def take_heuristic_turn(
    strategy, hands, counts, player, players, piles, below, required, draw_left, trick_ok, rng, params, W, F, C, stats
) -> int:
    """One turn of random / greedy / planner / signals / search without rollouts (signals with
    the lookahead its parameters switch on); returns the number of cards played."""
    if strategy == RANDOM:
        return turn_simple(hands, counts, player, piles, below, required, trick_ok, rng, True, params, W, F, C, stats)
    if strategy == GREEDY:
        return turn_simple(hands, counts, player, piles, below, required, trick_ok, rng, False, params, W, F, C, stats)
    return turn_planner(
        hands,
        counts,
        player,
        players,
        piles,
        below,
        required,
        draw_left,
        trick_ok,
        strategy != PLANNER,
        params,
        W,
        F,
        C,
        stats,
    )


# ---------------------------------------------------------------------------------------------
# Game loops.


@kernel(refcounts=False)
def play_out(
    strategy,
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
    stats,
) -> int:
    """Play a heuristic strategy from the given state to the end of the game; returns the draw
    position. Turns, extra plays and tricks accumulate in ``stats``."""
    player = first
    while True:
        player = next_to_move(counts, player, players)
        if player < 0:
            break
        draw_left = DECK_SIZE - draw_pos
        required = required_plays(draw_left, min_cards)
        played = take_heuristic_turn(
            strategy,
            hands,
            counts,
            player,
            players,
            piles,
            below,
            required,
            draw_left,
            trick_ok,
            rng,
            params,
            W,
            F,
            C,
            stats,
        )
        if played < required:
            break  # the player to move cannot play the minimum: the game ends
        stats[S_TURNS] += 1
        record(stats, player, 0, LOG_TURN_END)
        draw_pos = refill(hands, counts, player, hand_size, deck, draw_pos)
        player = (player + 1) % players
    return draw_pos


@kernel(refcounts=False)
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


@kernel(refcounts=False)
def play_out_greedy(
    deck, draw_pos, hands, counts, first, players, hand_size, min_cards, trick_ok, piles, below, params, W, F, C, stats
) -> int:
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
            if (
                best_sequences(
                    hands[player], hcount, piles, below, required, trick_ok, False, params, F[F_NO_PENALTY], W, F, C, 1
                )
                == 0
            ):
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
