"""Bang! bots: every decision a seat makes, read from the public view and its own parameters.

A policy sees one int64 array laid out by :mod:`cardsim.sims.bang.view` (the public record
and its own hand, filled by :func:`cardsim.sims.bang.engine.public_view`) and a float64
parameter vector (its role's row; see ``PARAM_NAMES``). It never sees the game state, so it
cannot read another hand, a hidden role or the draw pile (``tests/bang/test_hidden_info.py``
checks that by changing exactly those and seeing no decision change).

Bots (``cards.BOT_NAMES``):

- ``random``: a uniformly random legal play, pick, discard.
- ``naive``: the scripted play order below, attacking anyone its own role does not rule out as
  a friend (no inference); plays Dynamite whatever its role.
- ``role``: the same play order with beliefs: suspicion from the public attack record, a foe
  who is certain from role counts always worth a shot, Dynamite only where it helps its side,
  a Renegade who turns on a leading Sheriff. Its parameters are ``default_params``.
- ``tuned``: the role bot with parameters trained per role and player count by iterated best
  response (:mod:`cardsim.sims.bang.training`).

Return conventions: a play is (card, target, which) with (-1, -1, -1) for "end the play phase";
``SID_ABILITY`` as card is Sid Ketchum's "discard two, regain one".
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.bang.cards import (
    BANG,
    BARREL,
    BEER,
    BOT_NAIVE,
    CALAMITY_JANET,
    CARABINE,
    CARD_KIND,
    CAT_BALOU,
    DEPUTY,
    DUEL,
    DYNAMITE,
    FIRST_BLUE,
    FIRST_WEAPON,
    GATLING,
    GENERAL_STORE,
    INDIANS,
    JAIL,
    MISSED,
    MUSTANG,
    N_KINDS,
    OUTLAW,
    PANIC,
    REMINGTON,
    RENEGADE,
    ROLES_BY_PLAYERS,
    SALOON,
    SCHOFIELD,
    SCOPE,
    SHERIFF,
    SID_KETCHUM,
    STAGECOACH,
    VOLCANIC,
    WEAPON_REACH,
    WELLS_FARGO,
    WILLY_THE_KID,
    WINCHESTER,
)  # fmt: skip
from cardsim.sims.bang.view import (
    MAX_SEATS,
    V_ALIVE,
    V_ALIVE_N,
    V_ATTACKS,
    V_BOT,
    V_CHAR,
    V_DISCARD_TOP,
    V_DIST,
    V_FOES,
    V_HAND_COUNT,
    V_HAND_N,
    V_LIFE,
    V_MAX_LIFE,
    V_MAY_BANG,
    V_MY_CARDS,
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
)  # fmt: skip
from cardsim.sims.core.jit import kernel

NO_ACTION = (-1, -1, -1)
SID_ABILITY = -2  # pseudo card id of Sid Ketchum's "discard two, regain one" action

# static worth of each card kind (keep/discard/pick order); BANG!, Missed! and Beer are
# parameters of the role bot (P_WORTH_*), defaulting to these values
KIND_WORTH = np.array(
    [7.0, 8.0, 9.0, 6.5, 6.0, 5.0, 4.0, 6.0, 5.5, 4.0, 6.0, 7.0,
     7.5, 1.0, 5.0, 6.5, 5.5, 3.0, 4.0, 4.5, 5.0, 5.5]
)  # fmt: skip

# --- parameters of the role bot (one float per entry, per role and player count) ----------
P_EVIDENCE_SHERIFF = 0  # suspicion a player earns per attack on the Sheriff
P_EVIDENCE_CHAIN = 1  # suspicion shift per attack on a suspect (-) or a lawful-looking player (+)
P_WOUNDED = 2  # extra hostility per life point the target has lost (finish off the wounded)
P_UNKNOWN = 3  # hostility toward a player whose role is unknown and who has no record
P_TRUST = 4  # weight of the suspicion in hostility
P_CERTAIN = 5  # hostility toward a player certain to be a foe from role counts alone
P_OUTLAW_SHERIFF = 6  # an Outlaw's hostility toward the Sheriff
P_REN_SHERIFF_LIFE = 7  # the Renegade shoots the Sheriff while Outlaws live only at >= this life
P_REN_MARGIN = 8  # ... and only when the law side outnumbers the Outlaws by >= this
P_DYNAMITE = 9  # play Dynamite when foes make up >= this share of the other living players
P_JAIL_MIN = 10  # Jail only a target with hostility above this
P_TAKE_MIN = 11  # Panic!/Cat Balou only a target with hostility above this
P_SHOOT_MIN = 12  # BANG!/Duel only a target with hostility above this
P_BEER_GAP = 13  # drink a Beer in one's own turn only when missing >= this many life points
P_SALOON_GAP = 14  # play Saloon only when missing >= this many life points
P_DUEL_BANGS = 15  # Duel only holding >= this many BANG!s (or against an empty hand)
P_MASS_SHERIFF_LIFE = 16  # a Deputy/Renegade plays Gatling/Indians! only if the Sheriff has >= this
P_RESERVE_MISSED = 17  # Calamity Janet keeps this many Missed! instead of firing them as BANG!
P_WORTH_BANG = 18  # keep/discard worth of a BANG!
P_WORTH_MISSED = 19  # ... of a Missed!
P_WORTH_BEER = 20  # ... of a Beer (when wounded)
# structural rules, off at 0 (the role and tuned bots), on in role2/tuned2
P_REN_RULES = 21  # > 0.5: the Renegade never aims at the Sheriff while others live, and once
#                   living Deputies >= living Outlaws he hits the lawful-looking players
P_SHERIFF_CAUTION = 22  # the Sheriff's hostility drop toward players with no hostile record
P_OUTLAW_FOCUS = 23  # > 0.5: an Outlaw focuses on the Sheriff: Duels him whatever his own
#                      BANG!s, and his Panic!/Cat Balou strips the Mustang that keeps him away
P_DEPUTY_CAUTION = 24  # a Deputy's hostility drop toward players with no hostile record
P_OUTLAW_MASS = 25  # an Outlaw plays Gatling/Indians! only when foes make up >= this share
#                     of the other living players (his fellow Outlaws are hit too)
# the balancing Renegade (with ``renegade_rules`` on): which side is ahead, and how
# readily he shoots; all off at 0 (the two-rule Renegade)
P_REN_LAW_LIFE = 26  # > 0: the law is ahead while the Sheriff has >= this life (one less with
#                      one Outlaw left); 0: once living Deputies >= living Outlaws
P_REN_BASE = 27  # the Renegade's added hostility toward every player but the Sheriff
P_REN_REVENGE = 28  # ... and per attack that player made on him
N_PARAMS = 29  # the bots' parameters (named, ranged, trained)
# after them in a parameter row: play styles of an outside review of the balance claims
# (``examples/strategies/bang_styles.py``), off at 0 in every built-in bot and never trained;
# population members turn them on
P_OUTLAW_LONG = 29  # > 0.5: the Outlaw plays long (:func:`long_outlaw_hostility`)
P_REN_WILD = 30  # > 0.5: the Renegade plays as an Outlaw (:func:`wild_renegade_hostility`)
STYLE_SWITCHES = (P_OUTLAW_LONG, P_REN_WILD)
ROW_WIDTH = N_PARAMS + len(STYLE_SWITCHES)  # floats in one role's parameter row
PARAM_NAMES: tuple[str, ...] = (
    "evidence_sheriff", "evidence_chain", "wounded", "unknown", "trust", "certain",
    "outlaw_sheriff", "renegade_sheriff_life", "renegade_margin", "dynamite", "jail_min",
    "take_min", "shoot_min", "beer_gap", "saloon_gap", "duel_bangs", "mass_sheriff_life",
    "reserve_missed", "worth_bang", "worth_missed", "worth_beer", "renegade_rules",
    "sheriff_caution", "outlaw_focus", "deputy_caution", "outlaw_mass", "renegade_law_life",
    "renegade_base", "renegade_revenge",
)  # fmt: skip
#: (low, high) range searched by the training for each parameter
PARAM_RANGES: tuple[tuple[float, float], ...] = (
    (0.0, 4.0), (0.0, 3.0), (0.0, 1.0), (-1.0, 1.5), (0.0, 3.0), (0.5, 4.0),
    (1.0, 20.0), (1.0, 6.0), (-1.0, 4.0), (0.0, 2.0), (-1.0, 2.0),
    (-1.0, 2.0), (-1.0, 2.0), (1.0, 3.0), (1.0, 3.0), (0.0, 3.0), (1.0, 5.0),
    (0.0, 2.0), (3.0, 10.0), (3.0, 10.0), (3.0, 10.0), (0.0, 1.0), (0.0, 2.0), (0.0, 2.0),
    (0.0, 2.0), (0.0, 1.0), (0.0, 6.0), (0.0, 8.0), (0.0, 2.0),
)  # fmt: skip


def default_params(role: int) -> np.ndarray:
    """The role bot's parameter row for ``role`` (the play-style switches off): the
    hand-written heuristic (the Sheriff leans against unknown players, only Outlaws play
    Dynamite, the Renegade turns on a Sheriff at 3+ life whose side outnumbers the Outlaws)."""
    params = np.array(
        [2.0, 1.0, 0.05, 0.0, 1.0, 2.0, 10.0, 3.0, 1.0, 2.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 2.0,
         0.0, KIND_WORTH[BANG], KIND_WORTH[MISSED], KIND_WORTH[BEER], 0.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.0, 0.0]
    )  # fmt: skip
    if role == SHERIFF:
        params[P_UNKNOWN] = 0.5
    if role == OUTLAW:
        params[P_DYNAMITE] = 0.6
    return params


#: the structural rules as the role2 bot plays them: the Renegade's two rules, a
#: Sheriff who holds fire on players with no hostile record (reads Deputies from their aims),
#: Outlaws who focus on the Sheriff (a Duel whatever their BANG!s once he is down to one life,
#: his Mustang taken when it keeps him out of reach), and a Renegade who balances the sides
#: (the law counts as ahead while the Sheriff has 3+ life, 2+ against a last Outlaw; he keeps
#: shooting and answers his attackers: the outside Balancer's rule). ``deputy_caution`` and
#: ``outlaw_mass`` stay off in role2; training may turn them on for tuned2.
STRUCTURAL = {
    P_REN_RULES: 1.0,
    P_SHERIFF_CAUTION: 1.0,
    P_OUTLAW_FOCUS: 1.0,
    P_REN_LAW_LIFE: 3.0,
    P_REN_BASE: 5.0,
    P_REN_REVENGE: 0.5,
}


def with_structure(params: np.ndarray) -> np.ndarray:
    """A copy of a parameter table (rows = roles) or vector with the structural rules on."""
    out = np.array(params, dtype=np.float64, copy=True)
    for index, value in STRUCTURAL.items():
        out[..., index] = value
    return out


# ---------------------------------------------------------------- reading the view


@kernel(refcounts=False)
def find_card(v, kind):
    """Some card of ``kind`` in my hand (the lowest id), -1 if none."""
    if v[V_MY_KINDS + kind] == 0:
        return -1
    for i in range(v[V_HAND_N]):
        c = v[V_MY_CARDS + i]
        if CARD_KIND[c] == kind:
            return c
    return -1


@kernel(refcounts=False)
def in_play(v, seat, kind):
    """True if ``seat`` has a card of ``kind`` in play."""
    return v[V_TABLE + seat * N_KINDS + kind] >= 0


@kernel(refcounts=False)
def random_own_card(v, rng):
    """A uniformly random card of my hand (same draw as the engine's blind pick)."""
    n = v[V_HAND_N]
    if n == 0:
        return -1
    return v[V_MY_CARDS + min(int(rng.random() * n), n - 1)]


@kernel(refcounts=False)
def rand_below(rng, n):
    """A uniform integer in [0, n) from one uniform double of the Generator (the bias, below
    n / 2**53, is far under any Monte Carlo error). One helper for every random pick, the
    engine's and the bots', keeps numba's compile time down (``Generator.integers`` is costly
    to compile at each site)."""
    return min(int(rng.random() * n), n - 1)


@kernel(inline="always")
def sheriff_life(v):
    """The Sheriff's current life (public)."""
    return v[V_LIFE + v[V_SHERIFF]]


@kernel(inline="always")
def bang_cards(v):
    """How many cards I can discard as a BANG! (Calamity Janet: Missed! too)."""
    n = v[V_MY_KINDS + BANG]
    if v[V_CHAR + v[V_SEAT]] == CALAMITY_JANET:
        n += v[V_MY_KINDS + MISSED]
    return n


# ---------------------------------------------------------------- beliefs


@kernel
def suspicion(v, w):
    """Suspicion (hostility to the Sheriff) per seat from the public attack record: each attack
    on the Sheriff adds ``evidence_sheriff``; an attack on a player who looks (or is revealed)
    outlaw-like looks lawful and moves the attacker by -``evidence_chain``, an attack on a
    lawful-looking (or revealed Deputy) player by +``evidence_chain``. Two passes let the
    evidence travel along one chain of attacks."""
    suspect = np.zeros(2 * MAX_SEATS)
    suspicion_into(v, w, suspect)
    return suspect[:MAX_SEATS]


@kernel(refcounts=False)
def suspicion_into(v, w, suspect):
    """:func:`suspicion` written into the caller's ``suspect`` (``2 * MAX_SEATS`` floats: the
    suspicion per seat, then the second pass's scratch), so a game loop allocates nothing."""
    n = v[V_PLAYERS]
    sheriff = v[V_SHERIFF]
    for a in range(MAX_SEATS):
        suspect[a] = 0.0
        suspect[MAX_SEATS + a] = 0.0
    for a in range(n):
        suspect[a] = base_suspicion(v, w, sheriff, a)
    # pass 1 reads suspect[:MAX_SEATS] into the scratch half, pass 2 reads it back
    for half in range(2):
        read = 0 if half == 0 else MAX_SEATS
        write = MAX_SEATS - read
        for a in range(n):
            suspect[write + a] = base_suspicion(v, w, sheriff, a)
        for a in range(n):
            if a == sheriff:
                continue
            for t in range(n):
                hits = v[V_ATTACKS + a * MAX_SEATS + t]
                if hits == 0 or t == sheriff or t == a:
                    continue
                role = v[V_ROLE + t] if v[V_ALIVE + t] == 0 else -1
                if role == OUTLAW or (role < 0 and suspect[read + t] > 0):
                    suspect[write + a] -= w[P_EVIDENCE_CHAIN] * hits
                elif role == DEPUTY or (role < 0 and suspect[read + t] < 0):
                    suspect[write + a] += w[P_EVIDENCE_CHAIN] * hits


@kernel(inline="always")
def base_suspicion(v, w, sheriff, a):
    """Seat a's suspicion from its own attacks on the Sheriff alone (the passes' start)."""
    if a == sheriff:
        return 0.0
    return w[P_EVIDENCE_SHERIFF] * v[V_ATTACKS + a * MAX_SEATS + sheriff]


@kernel(inline="always")
def certain_foe_score(w, evidence):
    """Hostility toward a player who is certainly a foe from role counts alone: always worth a
    shot, the evidence only orders such players (a Renegade who shot Outlaws looks lawful but
    is still a foe once every unknown player must be one)."""
    return max(w[P_CERTAIN] + 0.1 * max(min(evidence, 5.0), -5.0), 0.5)


@kernel(inline="always")
def naive_hostility(v, w, t):
    """The naive bot: anyone its role does not rule out as a friend scores 1 (Outlaws: the
    Sheriff 10); a Renegade spares the Sheriff until they are the last two."""
    if t == v[V_SEAT] or v[V_ALIVE + t] == 0:
        return -1e9
    r = v[V_MY_ROLE]
    t_sheriff = t == v[V_SHERIFF]
    lean = w[P_WOUNDED] * (v[V_MAX_LIFE + t] - v[V_LIFE + t])
    if r == OUTLAW:
        return (10.0 if t_sheriff else 1.0) + lean
    if t_sheriff and r == DEPUTY:
        return -1e9
    if t_sheriff and r == RENEGADE and (v[V_OUTLAWS] > 0 or v[V_ALIVE_N] > 2):
        return -1e9
    return 1.0 + lean


@kernel(refcounts=False)
def hostility(v, w, suspect, t):
    """How much I want to hurt t (> the play's threshold: worth attacking), from my role, the
    public Sheriff, public role counts and the suspicion ``suspect``."""
    if v[V_BOT] == BOT_NAIVE:
        return naive_hostility(v, w, t)
    if t == v[V_SEAT] or v[V_ALIVE + t] == 0:
        return -1e9
    r = v[V_MY_ROLE]
    t_sheriff = t == v[V_SHERIFF]
    living = v[V_ALIVE_N]
    others_hidden = living - 1 - (0 if r == SHERIFF else 1)  # unknown roles but mine
    lean = w[P_WOUNDED] * (v[V_MAX_LIFE + t] - v[V_LIFE + t])
    evidence = w[P_TRUST] * suspect[t]
    if r == SHERIFF or r == DEPUTY:
        if t_sheriff:
            return -1e9
        if v[V_FOES] == others_hidden:
            return certain_foe_score(w, suspect[t]) + lean
        if suspect[t] <= 0.0:
            caution = w[P_SHERIFF_CAUTION] if r == SHERIFF else w[P_DEPUTY_CAUTION]
            return evidence + w[P_UNKNOWN] + lean - caution
        return evidence + w[P_UNKNOWN] + lean
    if r == OUTLAW:
        if w[P_OUTLAW_LONG] > 0.5:
            return long_outlaw_hostility(v, w, suspect, t)
        if t_sheriff:
            return w[P_OUTLAW_SHERIFF] + lean
        if v[V_OUTLAWS] == 1:
            return certain_foe_score(w, -suspect[t]) + lean
        return -evidence + w[P_UNKNOWN] + lean
    # Renegade: while Outlaws live he fights whichever side leads; then he clears the
    # Deputies, the Sheriff last (killing him before would hand the game to the Outlaws).
    outlaws = v[V_OUTLAWS]
    if w[P_REN_WILD] > 0.5:
        return wild_renegade_hostility(v, w, suspect, t)
    if w[P_REN_RULES] > 0.5:
        return renegade_rules_hostility(v, w, suspect, t)
    if outlaws > 0:
        if t_sheriff:
            law_lead = living - 1 - outlaws - outlaws
            if law_lead >= w[P_REN_MARGIN] and v[V_LIFE + t] >= w[P_REN_SHERIFF_LIFE]:
                return 1.5 + lean
            return -1e9
        return evidence + w[P_UNKNOWN] + lean
    if t_sheriff:
        return 1.0 if living == 2 else -1e9
    return 2.0 + lean


@kernel(refcounts=False)
def long_outlaw_hostility(v, w, suspect, t):
    """The Outlaw who plays long (``outlaw_long``): he strips the Sheriff's helpers first (the
    lawful-looking players), shoots the Sheriff only once he is down to 2 life, and never a
    fellow suspect (an outlaw-looking player)."""
    lean = w[P_WOUNDED] * (v[V_MAX_LIFE + t] - v[V_LIFE + t])
    if t == v[V_SHERIFF]:
        return 20.0 if v[V_LIFE + t] <= 2 else 1.0 + lean
    if suspect[t] > 0.0:
        return -1e9
    return 6.0 - suspect[t] + lean


@kernel(refcounts=False)
def wild_renegade_hostility(v, w, suspect, t):
    """The Renegade played as a beginner's Outlaw (``renegade_wild``): he hits the Sheriff, then
    the lawful-looking players, while any Outlaw lives; then whoever is left, the Sheriff last."""
    lean = w[P_WOUNDED] * (v[V_MAX_LIFE + t] - v[V_LIFE + t])
    t_sheriff = t == v[V_SHERIFF]
    if v[V_OUTLAWS] == 0:
        if t_sheriff and v[V_ALIVE_N] != 2:
            return -1e9
        return 10.0 + lean
    if t_sheriff:
        return 20.0 + lean
    return 5.0 - suspect[t] + lean


@kernel(inline="always")
def deputies_alive(v):
    """Deputies still alive: the role count of the player count minus the revealed dead."""
    n = v[V_PLAYERS]
    deputies = 0
    for q in range(n):
        if ROLES_BY_PLAYERS[n - 4, q] == DEPUTY:
            deputies += 1
        if v[V_ALIVE + q] == 0 and v[V_ROLE + q] == DEPUTY:
            deputies -= 1
    return deputies


@kernel(refcounts=False)
def renegade_rules_hostility(v, w, suspect, t):
    """The Renegade's rules: never aim at the Sheriff while anyone else lives; hit
    the outlaw-looking players while the Outlaws are ahead and the lawful-looking ones once the
    law is (the Sheriff's side must not win before the Renegade is alone with him). The law is
    ahead once the living Deputies are at least as many as the living Outlaws, or, with
    ``renegade_law_life`` > 0, while the Sheriff has that much life (one less against a last
    Outlaw). ``renegade_base`` keeps him shooting, ``renegade_revenge`` answers attackers."""
    lean = w[P_WOUNDED] * (v[V_MAX_LIFE + t] - v[V_LIFE + t])
    if t == v[V_SHERIFF]:
        return 1.0 + lean if v[V_ALIVE_N] == 2 else -1e9
    outlaws = v[V_OUTLAWS]
    eager = w[P_REN_BASE] + w[P_REN_REVENGE] * v[V_ATTACKS + t * MAX_SEATS + v[V_SEAT]]
    if outlaws == 0:
        return 2.0 + lean + eager
    evidence = w[P_TRUST] * suspect[t]
    if w[P_REN_LAW_LIFE] > 0.0:
        law_ahead = sheriff_life(v) >= w[P_REN_LAW_LIFE] - (1.0 if outlaws == 1 else 0.0)
    else:
        law_ahead = deputies_alive(v) >= outlaws
    if law_ahead:
        return -evidence + w[P_UNKNOWN] + lean + eager
    return evidence + w[P_UNKNOWN] + lean + eager


@kernel(refcounts=False)
def wants_dynamite(v, w):
    """Dynamite hits whoever it explodes on as it goes round, so it helps a side in proportion
    to the foes among the other living players. Naive: always. Role bot: when that share is
    >= ``dynamite`` (default: Outlaws at >= 0.6, everyone else never)."""
    if v[V_BOT] == BOT_NAIVE:
        return True
    r = v[V_MY_ROLE]
    others = v[V_ALIVE_N] - 1
    if others <= 0:
        return False
    if r == OUTLAW:
        foes = others - (v[V_OUTLAWS] - 1)
    elif r == RENEGADE:
        foes = others
    else:
        foes = v[V_FOES]
    return foes >= w[P_DYNAMITE] * others


@kernel(refcounts=False)
def card_worth(v, w, c):
    """Worth of card c to me (what to keep, pick and throw away)."""
    k = CARD_KIND[c]
    me = v[V_SEAT]
    if k >= FIRST_WEAPON:
        if in_play(v, me, k) or WEAPON_REACH[k - FIRST_WEAPON] <= v[V_REACH]:
            return 1.0
        return KIND_WORTH[k]
    if k >= FIRST_BLUE and k != JAIL and k != DYNAMITE and in_play(v, me, k):
        return 0.5
    if k == BEER and v[V_LIFE + me] == v[V_MAX_LIFE + me]:
        return 5.0
    if k == DYNAMITE and not wants_dynamite(v, w):
        return 0.0
    if k == BANG:
        return w[P_WORTH_BANG]
    if k == MISSED:
        return w[P_WORTH_MISSED]
    if k == BEER:
        return w[P_WORTH_BEER]
    return KIND_WORTH[k]


@kernel(refcounts=False)
def best_target(v, w, suspect, kind, threshold):
    """The living player I most want to hit with ``kind`` among legal targets, -1 if nobody
    scores above ``threshold``."""
    best = -1
    best_score = threshold
    me = v[V_SEAT]
    for t in range(v[V_PLAYERS]):
        if t == me or v[V_ALIVE + t] == 0:
            continue
        if kind == BANG and v[V_DIST + t] > v[V_REACH]:
            continue
        if kind == PANIC and v[V_DIST + t] > 1:
            continue
        if kind == JAIL and (t == v[V_SHERIFF] or in_play(v, t, JAIL)):
            continue
        if (kind == PANIC or kind == CAT_BALOU) and v[V_HAND_COUNT + t] + v[V_TABLE_N + t] == 0:
            continue
        score = hostility(v, w, suspect, t)
        if score > best_score:
            best_score = score
            best = t
    return best


@kernel(inline="always")
def pick_card_to_take(v, t):
    """Panic!/Cat Balou on a foe: its best card in play (not Jail/Dynamite), else blind from
    hand, else -2 when only a Jail/Dynamite (that hurts it) is left."""
    best = -1
    best_worth = 0.0
    for k in range(N_KINDS):
        c = v[V_TABLE + t * N_KINDS + k]
        if c >= 0 and k != JAIL and k != DYNAMITE and KIND_WORTH[k] > best_worth:
            best = c
            best_worth = KIND_WORTH[k]
    if best >= 0:
        return best
    if v[V_HAND_COUNT + t] > 0:
        return -1
    return -2


# ---------------------------------------------------------------- the play phase


@kernel
def scripted_play(v, w):
    """The naive/role/tuned bot's next play. Order: heal, draw, equip, Jail, Panic!/Cat Balou,
    Duel (one it can win), Gatling/Indians!, BANG!, Dynamite, Saloon, Sid's ability."""
    return scripted_play_into(v, w, np.zeros(2 * MAX_SEATS))


@kernel(refcounts=False)
def scripted_play_into(v, w, suspect):
    """:func:`scripted_play` with the suspicion it reads written into the caller's ``suspect``
    (:func:`suspicion_into`), so a game loop allocates nothing."""
    me = v[V_SEAT]
    living = v[V_ALIVE_N]
    missing = v[V_MAX_LIFE + me] - v[V_LIFE + me]
    suspicion_into(v, w, suspect)
    if missing >= w[P_BEER_GAP] and missing > 0 and living > 2:
        c = find_card(v, BEER)
        if c >= 0:
            return c, -1, -1
    for k in (WELLS_FARGO, STAGECOACH, GENERAL_STORE):
        c = find_card(v, k)
        if c >= 0:
            return c, -1, -1
    for k in (BARREL, MUSTANG, SCOPE):
        if not in_play(v, me, k):
            c = find_card(v, k)
            if c >= 0:
                return c, -1, -1
    best_weapon = -1
    best_reach = v[V_REACH]
    for k in (SCHOFIELD, REMINGTON, CARABINE, WINCHESTER):
        reach = WEAPON_REACH[k - FIRST_WEAPON]
        if reach > best_reach and not in_play(v, me, k):
            c = find_card(v, k)
            if c >= 0:
                best_weapon = c
                best_reach = reach
    if best_weapon >= 0:
        return best_weapon, -1, -1
    no_gun = not in_play(v, me, VOLCANIC) and v[V_REACH] == 1
    if no_gun and v[V_CHAR + me] != WILLY_THE_KID:
        c = find_card(v, VOLCANIC)
        if c >= 0 and v[V_MY_KINDS + BANG] >= 2:
            return c, -1, -1
    c = find_card(v, JAIL)
    if c >= 0:
        t = best_target(v, w, suspect, JAIL, w[P_JAIL_MIN])
        if t >= 0:
            return c, t, -1
    r = v[V_MY_ROLE]
    focus = r == OUTLAW and w[P_OUTLAW_FOCUS] > 0.0
    for k in (PANIC, CAT_BALOU):
        c = find_card(v, k)
        if c >= 0:
            t = best_target(v, w, suspect, k, w[P_TAKE_MIN])
            if t >= 0:
                which = pick_card_to_take(v, t)
                if focus and t == v[V_SHERIFF] and v[V_DIST + t] > v[V_REACH]:
                    mustang = v[V_TABLE + t * N_KINDS + MUSTANG]
                    if mustang >= 0:
                        which = mustang
                if which != -2:
                    return c, t, which
    c = find_card(v, DUEL)
    if c >= 0:
        t = best_target(v, w, suspect, DUEL, w[P_SHOOT_MIN])
        all_in = focus and t == v[V_SHERIFF] and sheriff_life(v) <= w[P_OUTLAW_FOCUS]
        if t >= 0 and (all_in or bang_cards(v) >= max(w[P_DUEL_BANGS], 1.0) or v[V_HAND_COUNT + t] == 0):
            return c, t, -1
    reckless = r == SHERIFF or sheriff_life(v) >= w[P_MASS_SHERIFF_LIFE] or living == 2
    if r == OUTLAW:
        reckless = living - v[V_OUTLAWS] >= w[P_OUTLAW_MASS] * (living - 1)
    if reckless:
        for k in (GATLING, INDIANS):
            c = find_card(v, k)
            if c >= 0:
                return c, -1, -1
    if v[V_MAY_BANG] == 1:
        c = find_card(v, BANG)
        calamity = v[V_CHAR + me] == CALAMITY_JANET
        if c < 0 and calamity and v[V_MY_KINDS + MISSED] > w[P_RESERVE_MISSED]:
            c = find_card(v, MISSED)
        if c >= 0:
            t = best_target(v, w, suspect, BANG, w[P_SHOOT_MIN])
            if t >= 0:
                return c, t, -1
    if not in_play(v, me, DYNAMITE) and wants_dynamite(v, w):
        c = find_card(v, DYNAMITE)
        if c >= 0:
            return c, -1, -1
    if missing > 0:
        c = find_card(v, SALOON)
        if c >= 0 and missing >= w[P_SALOON_GAP]:
            return c, -1, -1
        if v[V_CHAR + me] == SID_KETCHUM and v[V_HAND_N] >= 2 + v[V_LIFE + me]:
            return SID_ABILITY, -1, -1
    return NO_ACTION


@kernel(inline="always")
def random_play(legal, n, rng):
    """The random bot: uniformly one of the n legal plays or 'stop'."""
    i = rand_below(rng, n + 1)
    if i == n:
        return NO_ACTION
    return legal[i * 3 + 0], legal[i * 3 + 1], legal[i * 3 + 2]


# ---------------------------------------------------------------- other decisions


@kernel(inline="always")
def pick_two_to_discard(v, w, random_bot, rng):
    """Sid Ketchum's two cards: two random ones, or the two worth least."""
    first = -1
    second = -1
    if random_bot:
        first = random_own_card(v, rng)
        second = random_own_card(v, rng)
        while second == first:
            second = random_own_card(v, rng)
        return first, second
    worst1 = 1e9
    worst2 = 1e9
    for i in range(v[V_HAND_N]):
        c = v[V_MY_CARDS + i]
        worth = card_worth(v, w, c)
        if worth < worst1:
            second, worst2 = first, worst1
            first, worst1 = c, worth
        elif worth < worst2:
            second, worst2 = c, worth
    return first, second


@kernel(inline="always")
def pick_discard(v, w, random_bot, rng):
    """End-of-turn discard: a random card, or the one worth least."""
    if random_bot:
        return random_own_card(v, rng)
    worst = -1
    worst_worth = 1e9
    for i in range(v[V_HAND_N]):
        c = v[V_MY_CARDS + i]
        worth = card_worth(v, w, c)
        if worth < worst_worth:
            worst = c
            worst_worth = worth
    return worst


@kernel(inline="always")
def pick_store_card(v, w, random_bot, rng, shown, remaining):
    """General Store: a random shown card, or the one worth most (index into ``shown``)."""
    if random_bot:
        return rand_below(rng, remaining)
    best = 0
    for i in range(1, remaining):
        if card_worth(v, w, shown[i]) > card_worth(v, w, shown[best]):
            best = i
    return best


@kernel(refcounts=False)
def pick_jesse_source(v, w, random_bot, rng, suspect):
    """Jesse Jones: the player to draw his first card from (-1: the deck). Random among the
    deck and every other player with cards, or the most hostile player with cards (his
    suspicion written into ``suspect``, :func:`suspicion_into`)."""
    me = v[V_SEAT]
    source = -1
    if random_bot:
        n_options = 1
        for q in range(v[V_PLAYERS]):
            if q != me and v[V_ALIVE + q] == 1 and v[V_HAND_COUNT + q] > 0:
                n_options += 1
        pick = rand_below(rng, n_options)
        for q in range(v[V_PLAYERS]):
            if q != me and v[V_ALIVE + q] == 1 and v[V_HAND_COUNT + q] > 0:
                pick -= 1
                if pick == 0:
                    source = q
        return source
    suspicion_into(v, w, suspect)
    best = 0.0
    for q in range(v[V_PLAYERS]):
        if q != me and v[V_ALIVE + q] == 1 and v[V_HAND_COUNT + q] > 0:
            score = hostility(v, w, suspect, q) + 0.01 * v[V_HAND_COUNT + q]
            if score > best:
                best = score
                source = q
    return source


@kernel(inline="always")
def pick_kit_return(v, w, random_bot, rng, seen):
    """Kit Carlson: which of the three cards he looked at goes back on the deck."""
    if random_bot:
        return rand_below(rng, 3)
    back = 0
    for i in range(1, 3):
        if card_worth(v, w, seen[i]) < card_worth(v, w, seen[back]):
            back = i
    return back


@kernel(inline="always")
def pick_pedro_discard(v, w, random_bot, rng):
    """Pedro Ramirez: take the top of the discard pile as first card? (random: a coin)."""
    if random_bot:
        return rng.random() < 0.5
    return card_worth(v, w, v[V_DISCARD_TOP]) >= 6.0
