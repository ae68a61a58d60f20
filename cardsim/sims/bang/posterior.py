"""What the search bot believes about how each other seat plays: a posterior over a population.

The population is a short list of policies (built-in bots with their parameters per role, the
random bot, the search bot itself as its rollout policy). For every other seat the search bot
keeps the log-likelihood of that seat's public plays under each (member, role) pair; Bayes'
rule with the member's prior weight turns it into a posterior over who plays there and, summed
over members, into a lean over the seat's hidden role (added to the search bot's own role
inference, :func:`cardsim.sims.bang.search.role_leans`). A rollout deals each seat a role and
then a member drawn from that posterior (:func:`sample_member`).

Which plays count: an aimed play (BANG!, Duel, Jail, Panic!, Cat Balou; the card and its target
are public) and a Gatling or Indians!. Given the kind of card played (its choice depends on the
hand, which nobody else sees), a scripted member aims where its rule would from the seat's public
view with the role assumed, with probability ``1 - slip`` (the rest spread over the legal
targets); the random bot aims uniformly at a legal target. A scripted member fires a Gatling or
Indians! when its rule would fire it (``1 - slip``); the random bot is given even odds. The
likelihood is public: the actor's view is filled and then stripped of its hand, role and bot
code before any member reads it (``tests/bang/test_hidden_info.py`` swaps the hidden part and
checks the table does not change).
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.bang.cards import (
    BANG,
    BOT_ROLE,
    CAT_BALOU,
    DUEL,
    GATLING,
    INDIANS,
    JAIL,
    N_KINDS,
    OUTLAW,
    PANIC,
    SHERIFF,
)  # fmt: skip
from cardsim.sims.bang.decisions import effective_kind, fill_view
from cardsim.sims.bang.policies import (
    P_JAIL_MIN,
    P_MASS_SHERIFF_LIFE,
    P_OUTLAW_MASS,
    P_SHOOT_MIN,
    P_TAKE_MIN,
    ROW_WIDTH,
    best_target,
    suspicion_into,
)  # fmt: skip
from cardsim.sims.bang.state import (
    MAX_MEMBERS,
    MAX_SEATS,
    POP,
    POP_LOGLIK,
    POP_PARAMS,
    POP_PRIOR,
    POP_RANDOM,
    POP_SLIP,
    REVEALED,
    ROLE,
    VIEW,
    suspect_scratch,
)  # fmt: skip
from cardsim.sims.bang.view import (
    V_ALIVE,
    V_ALIVE_N,
    V_BOT,
    V_DIST,
    V_HAND_COUNT,
    V_HAND_N,
    V_LIFE,
    V_MY_KINDS,
    V_MY_ROLE,
    V_OUTLAWS,
    V_PLAYERS,
    V_REACH,
    V_ROLE,
    V_SEAT,
    V_SHERIFF,
    V_TABLE,
    V_TABLE_N,
    VIEW_SIZE,
)  # fmt: skip
from cardsim.sims.core.jit import kernel


@kernel(inline="always")
def member_params(s, m, r):
    """Member m's parameters for role r (float64, a view into the state; inlined)."""
    start = POP_PARAMS + (m * 4 + r) * ROW_WIDTH
    return s[start : start + ROW_WIDTH].view(np.float64)


@kernel(inline="always")
def population_floats(s):
    """The state's float64 blocks of the population: slips, log priors, parameters and the
    log-likelihood table, as one view (offsets from POP_SLIP)."""
    return s[POP_SLIP : POP_LOGLIK + MAX_SEATS * MAX_MEMBERS * 4].view(np.float64)


@kernel(inline="always")
def loglik_index(q, m, r):
    """Offset of (seat q, member m, role r) in :func:`population_floats`."""
    return POP_LOGLIK - POP_SLIP + (q * MAX_MEMBERS + m) * 4 + r


@kernel(refcounts=False)
def legal_aims(v, kind):
    """How many living players the actor of view ``v`` may aim ``kind`` at (public geometry)."""
    n = 0
    me = v[V_SEAT]
    for t in range(v[V_PLAYERS]):
        if t == me or v[V_ALIVE + t] == 0:
            continue
        if kind == BANG and v[V_DIST + t] > v[V_REACH]:
            continue
        if kind == PANIC and v[V_DIST + t] > 1:
            continue
        if kind == JAIL and (t == v[V_SHERIFF] or v[V_TABLE + t * N_KINDS + JAIL] >= 0):
            continue
        if (kind == PANIC or kind == CAT_BALOU) and v[V_HAND_COUNT + t] + v[V_TABLE_N + t] == 0:
            continue
        n += 1
    return max(n, 1)


@kernel(inline="always")
def would_fire_mass(v, w, r):
    """A scripted member's rule for a Gatling or Indians! with role r (policies'
    ``scripted_play_into``): the Sheriff always, an Outlaw when foes are enough of the table, the
    others while the Sheriff keeps enough life."""
    living = v[V_ALIVE_N]
    if r == OUTLAW:
        return living - v[V_OUTLAWS] >= w[P_OUTLAW_MASS] * (living - 1)
    return r == SHERIFF or v[V_LIFE + v[V_SHERIFF]] >= w[P_MASS_SHERIFF_LIFE] or living == 2


@kernel(refcounts=False)
def observe_play(s, q, c, t):
    """Add seat q's play of card c at target t (-1: none) to the public log-likelihood table,
    before the play is applied (the view is the one q decided on). No-op without a
    population, or for a play that is neither aimed nor a Gatling/Indians!."""
    n_members = s[POP]
    if n_members == 0 or c < 0:
        return
    kind = effective_kind(s, q, c)
    aimed = kind == BANG or kind == DUEL or kind == JAIL or kind == PANIC or kind == CAT_BALOU
    mass = kind == GATLING or kind == INDIANS
    if not ((aimed and t >= 0) or mass):
        return
    fill_view(s, q)
    v = s[VIEW : VIEW + VIEW_SIZE]
    # strip what only q knows: its hand, its role, its bot
    v[V_HAND_N] = 0
    for k in range(N_KINDS):
        v[V_MY_KINDS + k] = 0
    v[V_BOT] = BOT_ROLE
    known = s[REVEALED + q] == 1
    f = population_floats(s)
    suspect = suspect_scratch(s)
    options = legal_aims(v, kind) if aimed else 1
    threshold_index = P_SHOOT_MIN
    if kind == JAIL:
        threshold_index = P_JAIL_MIN
    elif kind == PANIC or kind == CAT_BALOU:
        threshold_index = P_TAKE_MIN
    for r in range(4):
        if known:
            if r != s[ROLE + q]:
                continue
        elif r == SHERIFF:
            continue
        v[V_MY_ROLE] = r
        v[V_ROLE + q] = r
        for m in range(n_members):
            if s[POP_RANDOM + m] == 1:
                p = 1.0 / options if aimed else 0.5
            else:
                w = member_params(s, m, r)
                slip = f[m]
                if aimed:
                    suspicion_into(v, w, suspect)
                    rule = best_target(v, w, suspect, kind, w[threshold_index])
                    p = slip / options + (1.0 - slip if rule == t else 0.0)
                else:
                    p = 1.0 - slip if would_fire_mass(v, w, r) else slip
            f[loglik_index(q, m, r)] += np.log(p)
    v[V_MY_ROLE] = -1
    v[V_ROLE + q] = -1


@kernel(refcounts=False)
def add_policy_leans(s, p, lean):
    """Add to ``lean`` (seats x roles, log-weights) each other seat's evidence for its roles
    from its plays: log sum over members of prior x likelihood (a constant per seat cancels
    in the sampler)."""
    n_members = s[POP]
    if n_members == 0:
        return
    f = population_floats(s)
    prior = POP_PRIOR - POP_SLIP  # offset of the log priors in f
    for q in range(MAX_SEATS):
        if q == p:
            continue
        for r in range(4):
            top = -1e300
            for m in range(n_members):
                x = f[prior + m] + f[loglik_index(q, m, r)]
                if x > top:
                    top = x
            total = 0.0
            for m in range(n_members):
                total += np.exp(f[prior + m] + f[loglik_index(q, m, r)] - top)
            lean[q, r] += top + np.log(total)


@kernel(refcounts=False)
def sample_member(s, rng, q, r):
    """A member for seat q playing role r, drawn from its posterior."""
    n_members = s[POP]
    f = population_floats(s)
    prior = POP_PRIOR - POP_SLIP
    top = -1e300
    for m in range(n_members):
        x = f[prior + m] + f[loglik_index(q, m, r)]
        if x > top:
            top = x
    total = 0.0
    for m in range(n_members):
        total += np.exp(f[prior + m] + f[loglik_index(q, m, r)] - top)
    u = rng.random() * total
    for m in range(n_members):
        u -= np.exp(f[prior + m] + f[loglik_index(q, m, r)] - top)
        if u < 0.0:
            return m
    return n_members - 1


@kernel(refcounts=False)
def set_population(s, random_flags, slips, log_priors, params):
    """Turn the posterior on with a population (``params``: members x roles x ROW_WIDTH) and
    clear the likelihood table (a game's start)."""
    n_members = random_flags.shape[0]
    s[POP] = n_members
    f = population_floats(s)
    for m in range(MAX_MEMBERS):
        s[POP_RANDOM + m] = 0
        f[m] = 0.0
        f[POP_PRIOR - POP_SLIP + m] = 0.0
    for m in range(n_members):
        s[POP_RANDOM + m] = random_flags[m]
        f[m] = slips[m]
        f[POP_PRIOR - POP_SLIP + m] = log_priors[m]
        for r in range(4):
            start = POP_PARAMS - POP_SLIP + (m * 4 + r) * ROW_WIDTH
            for i in range(ROW_WIDTH):
                f[start + i] = params[m, r, i]
    for i in range(MAX_SEATS * MAX_MEMBERS * 4):
        f[POP_LOGLIK - POP_SLIP + i] = 0.0
