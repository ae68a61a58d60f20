"""The ``search`` bot: determinized Monte Carlo planning with the engine itself.

At each play it would aim (BANG!, Duel, Jail, Panic!, Cat Balou) the search bot asks its
rollout policy (tuned2: the structural rules with their trained parameters) for the play, lists
the same card aimed at every other legal target plus ending the play phase; when the policy
would end its play phase holding a BANG! it may still play, the options are ending it and that
BANG! at each player in reach the policy does not rule out (a held fire is searched too); when
the policy fires a Gatling or Indians! (which hits friends too), the options are that and
ending the play phase. It scores each option by rollouts: it samples a world consistent with
the public record (the hidden roles dealt over the seats whose role is unknown, weighted by
how well each fits the public attack record, :func:`role_leans`, and, with a population of
opponent policies, by how well each seat's public plays fit each role under them,
:mod:`cardsim.sims.bang.posterior`; the unseen cards over the other hands by their public
counts and the draw pile), plays the option there and continues the game for a horizon of
turns with the rollout policy in its own seat and in every other seat a policy drawn from that
seat's posterior (without a population: the rollout policy everywhere), and scores the end:
1 / 0 for a won / lost game, else its side's share of the living players' life points. Every
option is played in the same sampled worlds. It leaves the rollout policy's choice only for an
option whose paired gain is more than ``SWITCH_Z`` standard errors above 0; past a quarter
of its rounds (and ``STOP_ROUNDS``) it stops early once every other option is ``STOP_Z``
standard errors below the policy's choice (the budget goes to the close calls). Every other decision is the rollout policy's.

The sampled world is built from public information and the bot's own hand only (card ids and
seats taken in a fixed order, then shuffled), so the decision is a function of the public view
and the random stream: ``tests/bang/test_hidden_info.py`` checks it like every other bot.
Budget (rollouts per decision) and horizon (turns) are state fields set per batch; the Sheriff
searches with ``SHERIFF_BUDGET`` times the budget (his role is public; every Outlaw aims at him,
so his close calls decide most games and more rollouts separate them). The method
follows the determinized tree search of Daniláková's Bang! AI, one level deep.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.bang.cards import (
    BANG,
    BOT_RANDOM,
    BOT_TUNED,
    CAT_BALOU,
    DEPUTY,
    DUEL,
    GATLING,
    INDIANS,
    JAIL,
    N_CARDS,
    N_KINDS,
    OUTLAW,
    PANIC,
    RENEGADE,
    ROLE_SIDE,
    ROLES_BY_PLAYERS,
    SIDE_RENEGADE,
)  # fmt: skip
from cardsim.sims.bang.decisions import choose_action, effective_kind, public_view
from cardsim.sims.bang.policies import (
    P_EVIDENCE_CHAIN,
    P_EVIDENCE_SHERIFF,
    P_JAIL_MIN,
    P_SHOOT_MIN,
    P_TAKE_MIN,
    ROW_WIDTH,
    find_card,
    hostility,
    pick_card_to_take,
    rand_below,
    scripted_play_into,
    suspicion,
)  # fmt: skip
from cardsim.sims.bang.posterior import add_policy_leans, member_params, sample_member
from cardsim.sims.bang.rules import apply_action, begin_turn, end_turn
from cardsim.sims.bang.state import (
    ALIVE,
    BOT,
    DECK,
    G_DECK_N,
    G_MAX_TURNS,
    G_PLAYERS,
    G_TURNS,
    G_WINNER,
    HAND,
    HAND_WIDTH,
    HOLDER,
    LIFE,
    MAX_ACTIONS_PER_TURN,
    MAX_SEATS,
    PARAMS,
    POP,
    POP_RANDOM,
    REVEALED,
    ROLE,
    ROLLOUT,
    SEARCH,
    STATE_SIZE,
    TABLE,
    WORLD_SIZE,
    Z_DECK,
    Z_HAND,
    Z_LIMBO,
    ZONE,
    can_shoot,
    distance,
    move,
    seat_params,
    shuffle_prefix,
    suspect_scratch,
)  # fmt: skip
from cardsim.sims.bang.view import V_ATTACKS, V_MAY_BANG, V_PLAYERS, V_SHERIFF
from cardsim.sims.core.jit import kernel

MAX_OPTIONS = MAX_SEATS + 1
SWAPS = 24  # Metropolis swaps of two hidden roles per sampled world
BELIEF = 1.0  # weight of the suspicion in the sampled roles
LEAN_EVIDENCE = (2.0, 1.0)  # evidence weights of that suspicion (the role bot's)
LAWLESS_AIM = 4.0  # log-weight against a Deputy or Renegade per aim at the Sheriff
SWITCH_Z = 1.0  # leave the rollout policy's choice only for an option better by this many s.e.
STOP_Z = 1.5  # stop a search early once every other option is worse by this many s.e. ...
STOP_ROUNDS = 4  # ... after at least a quarter of its rounds and this many
NEVER_AIM = -1e8  # hostility at or below this: a player the bot never aims at (its own side)
SHERIFF_BUDGET = 5  # the Sheriff searches with this many times the budget (every Outlaw aims
# at him and his side falls with him: his close calls are the ones worth the rollouts)


@kernel(refcounts=False)
def copy_state(dst, src):
    """dst[:] = src[:] element by element (no shape check compiled in)."""
    for i in range(STATE_SIZE):
        dst[i] = src[i]


@kernel(refcounts=False)
def copy_world(dst, src):
    """The game part of src into dst (everything before the population block: a rollout's
    world keeps no posterior)."""
    for i in range(WORLD_SIZE):
        dst[i] = src[i]


@kernel
def role_leans(v, w):
    """Log-weight of each hidden role per seat (rows: seats, columns: roles) from the public
    record, for the worlds :func:`sample_world` deals: Outlaws lean to the suspects and Deputies
    away (the suspicion read with fixed evidence weights, ``LEAN_EVIDENCE``, whatever the
    seat's own trained ones), and a player who has aimed at the Sheriff is hardly a Deputy or
    the Renegade (the rollout policy's Deputy never aims at him, nor its Renegade while others
    live: policies.hostility)."""
    fixed = w.copy()
    fixed[P_EVIDENCE_SHERIFF] = LEAN_EVIDENCE[0]
    fixed[P_EVIDENCE_CHAIN] = LEAN_EVIDENCE[1]
    suspect = suspicion(v, fixed)
    lean = np.zeros((MAX_SEATS, 4))
    sheriff = v[V_SHERIFF]
    for q in range(v[V_PLAYERS]):
        aimed = 0.0 if q == sheriff else float(v[V_ATTACKS + q * MAX_SEATS + sheriff])
        lean[q, OUTLAW] = BELIEF * suspect[q]
        lean[q, DEPUTY] = -BELIEF * suspect[q] - LAWLESS_AIM * aimed
        lean[q, RENEGADE] = -LAWLESS_AIM * aimed
    return lean


@kernel
def sample_world(s, rng, p, world, lean):
    """``world`` = ``s`` with everything hidden from p dealt afresh from what p knows: the
    roles not yet public over the seats whose role is unknown (shuffled, then ``SWAPS``
    Metropolis swaps toward weights exp(``lean[seat, role]``), :func:`role_leans`), the
    cards p has not seen (the draw pile and the other hands) over the other hands by their
    public sizes and the draw pile. p plays its rollout policy; with a population
    (:mod:`cardsim.sims.bang.posterior`) every other seat plays a member drawn from its
    posterior given its sampled role, else the rollout policy of that role."""
    copy_world(world, s)
    n = s[G_PLAYERS]
    left = np.zeros(4, np.int64)
    for q in range(n):
        left[ROLES_BY_PLAYERS[n - 4, q]] += 1
    seats = np.empty(MAX_SEATS, np.int64)
    n_hidden = 0
    for q in range(n):
        if s[REVEALED + q] == 1 or q == p:
            left[s[ROLE + q]] -= 1
        else:
            seats[n_hidden] = q
            n_hidden += 1
    pool = np.empty(MAX_SEATS, np.int64)
    k = 0
    for r in range(4):
        for _ in range(left[r]):
            pool[k] = r
            k += 1
    shuffle_prefix(pool, k, rng)
    for _ in range(SWAPS):
        if n_hidden < 2:
            break
        a = rand_below(rng, n_hidden)
        b = rand_below(rng, n_hidden)
        if pool[a] == pool[b]:
            continue
        qa = seats[a]
        qb = seats[b]
        change = lean[qa, pool[b]] + lean[qb, pool[a]] - lean[qa, pool[a]] - lean[qb, pool[b]]
        if change >= 0.0 or rng.random() < np.exp(change):
            pool[a], pool[b] = pool[b], pool[a]
    for i in range(n_hidden):
        world[ROLE + seats[i]] = pool[i]
    for q in range(n):
        world[BOT + q] = BOT_TUNED
        r = world[ROLE + q]
        if q != p and s[POP] > 0:
            m = sample_member(s, rng, q, r)
            if s[POP_RANDOM + m] == 1:
                world[BOT + q] = BOT_RANDOM
            w = member_params(s, m, r).view(np.int64)
            for i in range(ROW_WIDTH):
                world[PARAMS + q * ROW_WIDTH + i] = w[i]
            continue
        for i in range(ROW_WIDTH):
            world[PARAMS + q * ROW_WIDTH + i] = s[ROLLOUT + r * ROW_WIDTH + i]
    unseen = np.empty(N_CARDS, np.int64)
    m = 0
    for c in range(N_CARDS):
        zone = s[ZONE + c]
        if zone == Z_DECK or (zone == Z_HAND and s[HOLDER + c] != p):
            unseen[m] = c
            m += 1
    for i in range(m):
        move(world, unseen[i], Z_LIMBO, -1)
    shuffle_prefix(unseen, m, rng)
    dealt = 0
    for q in range(n):
        if q != p:
            for _ in range(s[HAND + q * HAND_WIDTH + N_KINDS]):
                move(world, unseen[dealt], Z_HAND, q)
                dealt += 1
    for i in range(dealt, m):
        c = unseen[i]
        world[DECK + i - dealt] = c
        world[ZONE + c] = Z_DECK
        world[HOLDER + c] = -1
    world[G_DECK_N] = m - dealt


@kernel(refcounts=False)
def world_value(world, p):
    """p's score of a rollout's end: 1 / 0 for a game its side won / lost, else its side's
    share of the living players' life points (a Renegade's side is himself)."""
    side = ROLE_SIDE[world[ROLE + p]]
    if world[G_WINNER] >= 0:
        return 1.0 if world[G_WINNER] == side else 0.0
    if world[ALIVE + p] == 0 and side == SIDE_RENEGADE:
        return 0.0
    mine = 0.0
    total = 0.0
    for q in range(world[G_PLAYERS]):
        if world[ALIVE + q] == 1:
            total += world[LIFE + q]
            if ROLE_SIDE[world[ROLE + q]] == side:
                mine += world[LIFE + q]
    return mine / total if total > 0 else 0.0


@kernel(inline="always")
def rollout_play_phase(world, rng, p):
    """The rest of p's play phase with p's rollout policy, until it ends the phase, dies or the
    game ends."""
    for _ in range(MAX_ACTIONS_PER_TURN):
        if world[ALIVE + p] == 0 or world[G_WINNER] >= 0:
            return
        c, t, which = choose_action(world, rng, p)
        if c == -1:
            return
        apply_action(world, rng, p, c, t, which)


@kernel(refcounts=False)
def play_out(world, rng, p, c, t, which, horizon):
    """From p's play phase: play (c, t, which) (c = -1: end the play phase), finish p's turn
    and play ``horizon`` more turns with every seat's rollout policy (or to the game's end)."""
    if c >= 0:
        apply_action(world, rng, p, c, t, which)
        rollout_play_phase(world, rng, p)
    end_turn(world, rng, p)
    stop = world[G_TURNS] + horizon
    q = p
    n = world[G_PLAYERS]
    while world[G_WINNER] < 0 and world[G_TURNS] < stop and world[G_TURNS] < world[G_MAX_TURNS]:
        q = (q + 1) % n
        if world[ALIVE + q] == 0:
            continue
        if begin_turn(world, rng, q):
            rollout_play_phase(world, rng, q)
            end_turn(world, rng, q)


@kernel(inline="always")
def may_aim(s, v, p, kind, t):
    """t (another living player) is a legal target of p's card of ``kind``, as in
    :func:`~cardsim.sims.bang.decisions.legal_actions`."""
    if kind == BANG:
        return can_shoot(s, p, t)
    if kind == PANIC:
        return distance(s, p, t) <= 1
    if kind == JAIL:
        return t != v[V_SHERIFF] and s[TABLE + t * N_KINDS + JAIL] < 0
    return kind == DUEL or kind == CAT_BALOU


@kernel(inline="always")
def paired_gain(totals, squares, j, done):
    """Option ``j``'s mean gain over option 0 (the rollout policy's choice) after ``done``
    rounds of paired rollouts, and its standard error."""
    mean = (totals[j] - totals[0]) / done
    spread = np.sqrt(max(squares[j] / done - mean * mean, 0.0) / max(done - 1, 1))
    return mean, spread


@kernel
def search_play(s, rng, p):
    """The search bot's play (see the module docstring)."""
    v = public_view(s, p)
    w = seat_params(s, p)
    c0, t0, which0 = scripted_play_into(v, w, suspect_scratch(s))
    mass = False
    if c0 >= 0 and t0 < 0:
        kind0 = effective_kind(s, p, c0)
        if kind0 != GATLING and kind0 != INDIANS:
            return c0, t0, which0
        mass = True
    suspect = suspicion(v, w)
    cards = np.full(MAX_OPTIONS, c0, np.int64)
    targets = np.empty(MAX_OPTIONS, np.int64)
    whiches = np.empty(MAX_OPTIONS, np.int64)
    n_options = 1
    if mass:
        # a Gatling or Indians! hits every other player, friends too: play it or end the phase
        targets[0] = -1
        whiches[0] = which0
        cards[1] = -1
        targets[1] = -1
        whiches[1] = -1
        n_options = 2
    elif c0 < 0:
        # the policy ends its play phase: the BANG! it holds back at any player it does not
        # rule out as a target (a held fire is a choice too)
        c0 = find_card(v, BANG) if v[V_MAY_BANG] == 1 else -1
        if c0 < 0:
            return -1, -1, -1
        cards[0] = -1
        targets[0] = -1
        whiches[0] = -1
        for t in range(s[G_PLAYERS]):
            if t == p or s[ALIVE + t] == 0 or not may_aim(s, v, p, BANG, t):
                continue
            if hostility(v, w, suspect, t) <= NEVER_AIM:
                continue
            cards[n_options] = c0
            targets[n_options] = t
            whiches[n_options] = -1
            n_options += 1
        if n_options == 1:
            return -1, -1, -1
    else:
        kind = effective_kind(s, p, c0)
        threshold = w[P_SHOOT_MIN]
        if kind == JAIL:
            threshold = w[P_JAIL_MIN]
        elif kind == PANIC or kind == CAT_BALOU:
            threshold = w[P_TAKE_MIN]
        targets[0] = t0
        whiches[0] = which0
        for t in range(s[G_PLAYERS]):
            if t == t0 or t == p or s[ALIVE + t] == 0 or not may_aim(s, v, p, kind, t):
                continue
            if hostility(v, w, suspect, t) <= threshold:
                continue
            which = -1
            if kind == PANIC or kind == CAT_BALOU:
                which = pick_card_to_take(v, t)  # -2: nothing worth taking
                if which == -2:
                    continue
            targets[n_options] = t
            whiches[n_options] = which
            n_options += 1
        cards[n_options] = -1  # end the play phase instead
        targets[n_options] = -1
        whiches[n_options] = -1
        n_options += 1
    lean = role_leans(v, w)
    add_policy_leans(s, p, lean)
    budget = s[SEARCH] * (SHERIFF_BUDGET if p == v[V_SHERIFF] else 1)
    rounds = max(1, budget // n_options)
    totals = np.zeros(MAX_OPTIONS)
    squares = np.zeros(MAX_OPTIONS)  # sums of squared differences from the default option
    base = np.empty(STATE_SIZE, np.int64)
    world = np.empty(STATE_SIZE, np.int64)
    values = np.empty(MAX_OPTIONS)
    done = 0
    for _ in range(rounds):
        sample_world(s, rng, p, base, lean)
        for j in range(n_options):
            copy_world(world, base)
            play_out(world, rng, p, cards[j], targets[j], whiches[j], s[SEARCH + 1])
            values[j] = world_value(world, p)
            totals[j] += values[j]
            squares[j] += (values[j] - values[0]) ** 2
        done += 1
        if done >= max(STOP_ROUNDS, rounds // 4) and done < rounds:
            # stop early once every other option is clearly worse than the policy's choice
            open_option = False
            for j in range(1, n_options):
                mean, spread = paired_gain(totals, squares, j, done)
                if mean + STOP_Z * spread >= 0.0:
                    open_option = True
                    break
            if not open_option:
                break
    best = 0
    best_edge = 0.0
    for j in range(1, n_options):
        mean, spread = paired_gain(totals, squares, j, done)
        edge = mean - SWITCH_Z * spread
        if mean > 0.0 and edge > best_edge:
            best = j
            best_edge = edge
    if cards[best] < 0:
        return -1, -1, -1
    return cards[best], targets[best], whiches[best]
