"""Bang! state: the flat int64 array every rule works on, and the rules that only move cards.

The whole game is ONE flat array ``s`` (field offsets below; :class:`StateView` names them for
tests). Here: its layout, building and dealing a table (seed 003 steps 2-5), card movement
between the draw pile, the discard pile, hands and play, the table's geometry (distance and
reach, seed 003 and the published cards), draw! checks and the public record of attacks.
The rules built on these live in :mod:`~cardsim.sims.bang.rules`, the characters' abilities in
:mod:`~cardsim.sims.bang.characters`, the turn loop in :mod:`~cardsim.sims.bang.engine`.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.bang.cards import (
    CARD_KIND,
    CARD_RANK,
    CARD_SUIT,
    CHARACTER_LIFE,
    COLT_REACH,
    FIRST_WEAPON,
    HEARTS,
    LUCKY_DUKE,
    MUSTANG,
    N_CARDS,
    N_CHARACTERS,
    N_KINDS,
    PAUL_REGRET,
    ROLES_BY_PLAYERS,
    ROSE_DOOLAN,
    SCOPE,
    SHERIFF,
    SPADES,
    SUZY_LAFAYETTE,
    VOLCANIC,
    VULTURE_SAM,
    WEAPON_REACH,
    WILLY_THE_KID,
)  # fmt: skip
from cardsim.sims.bang.policies import (
    ROW_WIDTH,
    default_params,
    rand_below,
)  # fmt: skip
from cardsim.sims.bang.view import (
    VIEW_SIZE,
)  # fmt: skip
from cardsim.sims.core.jit import kernel

MAX_SEATS = 7
MAX_ACTIONS = 1024  # far above any reachable count of legal plays
MAX_ACTIONS_PER_TURN = 300  # safety valve: no legal sequence of plays comes near it

# card zones
Z_DECK, Z_DISCARD, Z_HAND, Z_TABLE, Z_LIMBO = 0, 1, 2, 3, 4

# The whole game state is ONE flat int64 array (cheap to pass between kernels: one array
# instead of many). Offsets of its fields:
G_PLAYERS, G_DECK_N, G_DISCARD_N, G_TURNS, G_CURRENT, G_BANGS = 0, 1, 2, 3, 4, 5
G_WINNER, G_SUZY, G_VULTURE, G_RESHUFFLES, G_MAX_TURNS = 6, 7, 8, 9, 10
G_SIZE = 11  # game scalars at s[0:G_SIZE]
ROLE = G_SIZE  # s[ROLE + p]: role per seat (-1: seat unused)
CHAR = ROLE + MAX_SEATS  # character per seat
LIFE = CHAR + MAX_SEATS  # current life points
MAX_LIFE = LIFE + MAX_SEATS  # printed life (+1 for the Sheriff)
ALIVE = MAX_LIFE + MAX_SEATS  # 1 while in the game
BOT = ALIVE + MAX_SEATS  # bot kind per seat
REVEALED = BOT + MAX_SEATS  # 1 once the seat's role is public
KILLER = REVEALED + MAX_SEATS  # who eliminated the seat (-1: nobody / Dynamite / alive)
OUT_TURN = KILLER + MAX_SEATS  # turn number of the seat's elimination (0: still alive)
ZONE = OUT_TURN + MAX_SEATS  # s[ZONE + c]: Z_* zone of card c
HOLDER = ZONE + N_CARDS  # seat holding card c (hand/in play), -1 otherwise
DECK = HOLDER + N_CARDS  # draw pile, top at s[DECK + s[G_DECK_N] - 1]
DISCARD = DECK + N_CARDS  # discard pile, top at s[DISCARD + s[G_DISCARD_N] - 1]
TABLE = DISCARD + N_CARDS  # s[TABLE + p * N_KINDS + k]: card of kind k in play before p, or -1
HAND_WIDTH = N_KINDS + 1
HAND = TABLE + MAX_SEATS * N_KINDS  # s[HAND + p * HAND_WIDTH + k]: cards of kind k in p's
#                                     hand; k = N_KINDS: hand size
ATTACKS = HAND + MAX_SEATS * HAND_WIDTH  # s[ATTACKS + a * MAX_SEATS + t]: attacks a made on t
PARAMS = ATTACKS + MAX_SEATS * MAX_SEATS  # float64 bits of each seat's bot parameters
VIEW = PARAMS + MAX_SEATS * ROW_WIDTH  # the public view of the deciding seat (scratch)
ACTS = VIEW + VIEW_SIZE  # s[ACTS + i * 3 + 0..2]: legal action i (scratch)
ROLLOUT = ACTS + MAX_ACTIONS * 3  # float64 bits of the search bot's rollout parameters, per role
SEARCH = ROLLOUT + 4 * ROW_WIDTH  # s[SEARCH]: search rollouts per decision; s[SEARCH + 1]: horizon
PICKS = SEARCH + 2  # the cards a General Store shows or Kit Carlson looks at (scratch)
SUSPECT = PICKS + MAX_SEATS  # float64 bits of the deciding bot's suspicion per seat (scratch)
# the search bot's population of opponent policies (the posterior over each seat's policy,
# cardsim.sims.bang.posterior); last in the state, so a rollout's world copies only the part
# before it (WORLD_SIZE)
POP = SUSPECT + 2 * MAX_SEATS  # s[POP]: population members (0: no posterior kept)
MAX_MEMBERS = 8
POP_RANDOM = POP + 1  # s[POP_RANDOM + m]: 1 if member m plays uniformly random legal plays
POP_SLIP = POP_RANDOM + MAX_MEMBERS  # float64 bits: chance member m's aim is not its rule's
POP_PRIOR = POP_SLIP + MAX_MEMBERS  # float64 bits: log prior weight of member m
POP_PARAMS = POP_PRIOR + MAX_MEMBERS  # float64 bits of member m's parameters for role r
POP_LOGLIK = POP_PARAMS + MAX_MEMBERS * 4 * ROW_WIDTH  # float64 bits: log-likelihood of the
#   public plays of seat q under (member m, role r), at POP_LOGLIK + (q * MAX_MEMBERS + m) * 4 + r
WORLD_SIZE = POP
STATE_SIZE = POP_LOGLIK + MAX_SEATS * MAX_MEMBERS * 4
#: the search bot's default rollouts per decision and rollout horizon (turns)
SEARCH_BUDGET = 128
SEARCH_HORIZON = 10
#: role bot parameters per role (row = role), the defaults of every seat
DEFAULT_PARAMS = np.array([default_params(role) for role in range(4)])
#: the same bit for bit as int64 (how the state holds them; no float view to compile)
DEFAULT_PARAM_BITS = DEFAULT_PARAMS.view(np.int64)

# draw! purposes
CHECK_DYNAMITE, CHECK_JAIL, CHECK_BARREL = 0, 1, 2


class StateView:
    """Named numpy views into a flat state array (for tests and inspection, not kernels)."""

    def __init__(self, state: np.ndarray) -> None:
        self.state = state
        self.g = state[:G_SIZE]
        self.role = state[ROLE : ROLE + MAX_SEATS]
        self.char = state[CHAR : CHAR + MAX_SEATS]
        self.life = state[LIFE : LIFE + MAX_SEATS]
        self.max_life = state[MAX_LIFE : MAX_LIFE + MAX_SEATS]
        self.alive = state[ALIVE : ALIVE + MAX_SEATS]
        self.bot = state[BOT : BOT + MAX_SEATS]
        self.revealed = state[REVEALED : REVEALED + MAX_SEATS]
        self.killer = state[KILLER : KILLER + MAX_SEATS]
        self.out_turn = state[OUT_TURN : OUT_TURN + MAX_SEATS]
        self.zone = state[ZONE : ZONE + N_CARDS]
        self.holder = state[HOLDER : HOLDER + N_CARDS]
        self.deck = state[DECK : DECK + N_CARDS]
        self.discard = state[DISCARD : DISCARD + N_CARDS]
        self.table = state[TABLE:HAND].reshape(MAX_SEATS, N_KINDS)
        self.hand = state[HAND:ATTACKS].reshape(MAX_SEATS, HAND_WIDTH)
        self.attacks = state[ATTACKS:PARAMS].reshape(MAX_SEATS, MAX_SEATS)
        self.params = state[PARAMS:VIEW].view(np.float64).reshape(MAX_SEATS, ROW_WIDTH)
        self.acts = state[ACTS:ROLLOUT].reshape(MAX_ACTIONS, 3)
        self.rollout = state[ROLLOUT:SEARCH].view(np.float64).reshape(4, ROW_WIDTH)


# ---------------------------------------------------------------- state construction


@kernel(inline="always")
def seat_params(s, p):
    """Seat p's bot parameters as float64 (a view into the state; inlined, so a caller without
    reference counting never hands a view to one with it)."""
    return s[PARAMS + p * ROW_WIDTH : PARAMS + (p + 1) * ROW_WIDTH].view(np.float64)


@kernel(inline="always")
def suspect_scratch(s):
    """The state's float64 scratch for a bot's suspicion (``2 * MAX_SEATS`` floats, a view):
    policies write their beliefs there instead of allocating them at every decision."""
    return s[SUSPECT : SUSPECT + 2 * MAX_SEATS].view(np.float64)


@kernel(refcounts=False)
def set_seat_params(s, p, params):
    """Store seat p's bot parameters (float64) bit for bit in the state. Element by element,
    here and wherever the rules copy arrays: a slice assignment compiles numba's shape-mismatch
    error (string formatting and all) into every kernel that reaches it."""
    slot = seat_params(s, p)
    for i in range(ROW_WIDTH):
        slot[i] = params[i]


@kernel(inline="always")
def blank_state(roles, chars, bots, max_turns):
    """A table with the given roles/characters/bots per seat, full life, all 80 cards in the
    draw pile in id order (top = card 79), nobody dealt. Used by setup and by scenario tests."""
    n = roles.shape[0]
    s = np.zeros(STATE_SIZE, np.int64)
    s[G_PLAYERS] = n
    s[G_WINNER] = -1
    s[G_SUZY] = -1
    s[G_VULTURE] = -1
    s[G_MAX_TURNS] = max_turns
    for p in range(MAX_SEATS):
        s[ROLE + p] = -1
        s[CHAR + p] = -1
        s[KILLER + p] = -1
    for p in range(n):
        s[ROLE + p] = roles[p]
        s[CHAR + p] = chars[p]
        s[BOT + p] = bots[p]
        s[MAX_LIFE + p] = CHARACTER_LIFE[chars[p]] + (1 if roles[p] == SHERIFF else 0)
        s[LIFE + p] = s[MAX_LIFE + p]
        s[ALIVE + p] = 1
        s[REVEALED + p] = 1 if roles[p] == SHERIFF else 0
        for i in range(ROW_WIDTH):
            s[PARAMS + p * ROW_WIDTH + i] = DEFAULT_PARAM_BITS[roles[p], i]
        if chars[p] == SUZY_LAFAYETTE:
            s[G_SUZY] = p
        if chars[p] == VULTURE_SAM:
            s[G_VULTURE] = p
    for c in range(N_CARDS):
        s[ZONE + c] = Z_DECK
        s[HOLDER + c] = -1
        s[DECK + c] = c
    s[TABLE:HAND] = -1
    for i in range(4 * ROW_WIDTH):
        s[ROLLOUT + i] = DEFAULT_PARAM_BITS[i // ROW_WIDTH, i % ROW_WIDTH]
    s[SEARCH] = SEARCH_BUDGET
    s[SEARCH + 1] = SEARCH_HORIZON
    s[G_DECK_N] = N_CARDS
    return s


@kernel(refcounts=False)
def shuffle_prefix(values, n, rng):
    """Fisher-Yates shuffle of values[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        values[i], values[j] = values[j], values[i]


@kernel(inline="always")
def deal_roles(n_players, rng):
    """Roles for a table (seed 003 step 2-3): the Sheriff sits at seat 0 and plays first (seats
    are clockwise turn order), the other roles are shuffled over seats 1..n-1."""
    roles = np.empty(n_players, np.int64)
    for i in range(n_players):
        roles[i] = ROLES_BY_PLAYERS[n_players - 4, i]
    shuffle_prefix(roles[1:], n_players - 1, rng)
    return roles


@kernel(inline="always")
def setup_game(n_players, bots_by_role, params_by_role, max_turns, rng):
    """Deal a fresh game: roles, distinct random characters, shuffled deck, each player dealt
    as many cards as their life points (seed 003 steps 2-5). Each seat gets its role's bot
    and bot parameters (row of ``params_by_role``)."""
    roles = deal_roles(n_players, rng)
    pool = np.empty(N_CHARACTERS, np.int64)
    for i in range(N_CHARACTERS):
        pool[i] = i
    shuffle_prefix(pool, N_CHARACTERS, rng)
    chars = pool[:n_players]
    bots = np.empty(n_players, np.int64)
    for p in range(n_players):
        bots[p] = bots_by_role[roles[p]]
    s = blank_state(roles, chars, bots, max_turns)
    for p in range(n_players):
        set_seat_params(s, p, params_by_role[roles[p]])
    shuffle_prefix(s[DECK : DECK + N_CARDS], N_CARDS, rng)
    for p in range(n_players):
        draw_to_hand(s, rng, p, s[LIFE + p])
    return s


# ---------------------------------------------------------------- card movement


@kernel(refcounts=False)
def move(s, c, zone, p):
    """The one place a card changes zone: keeps the in-play slots and hand counts in step."""
    k = CARD_KIND[c]
    if s[ZONE + c] == Z_HAND:
        s[HAND + (s[HOLDER + c]) * HAND_WIDTH + k] -= 1
        s[HAND + (s[HOLDER + c]) * HAND_WIDTH + N_KINDS] -= 1
    elif s[ZONE + c] == Z_TABLE:
        s[TABLE + (s[HOLDER + c]) * N_KINDS + k] = -1
    s[ZONE + c] = zone
    s[HOLDER + c] = p
    if zone == Z_HAND:
        s[HAND + p * HAND_WIDTH + k] += 1
        s[HAND + p * HAND_WIDTH + N_KINDS] += 1
    elif zone == Z_TABLE:
        s[TABLE + p * N_KINDS + k] = c


@kernel(refcounts=False)
def hand_count(s, p):
    """Number of cards in seat p's hand."""
    return s[HAND + p * HAND_WIDTH + N_KINDS]


@kernel(inline="always")
def count_in_hand(s, p, kind):
    """Number of cards of ``kind`` in p's hand."""
    return s[HAND + p * HAND_WIDTH + kind]


@kernel(refcounts=False)
def find_in_hand(s, p, kind):
    """Some card of ``kind`` in p's hand, -1 if none."""
    if s[HAND + p * HAND_WIDTH + kind] == 0:
        return -1
    for c in range(N_CARDS):
        if s[ZONE + c] == Z_HAND and s[HOLDER + c] == p and CARD_KIND[c] == kind:
            return c
    return -1


@kernel(refcounts=False)
def random_hand_card(s, rng, p):
    """A uniformly random card from p's hand (drawn blind), -1 if the hand is empty."""
    n = hand_count(s, p)
    if n == 0:
        return -1
    k = rand_below(rng, n)
    for c in range(N_CARDS):
        if s[ZONE + c] == Z_HAND and s[HOLDER + c] == p:
            if k == 0:
                return c
            k -= 1
    return -1


@kernel(inline="always")
def table_count(s, p):
    """Number of cards in play in front of p."""
    n = 0
    for k in range(N_KINDS):
        if s[TABLE + p * N_KINDS + k] >= 0:
            n += 1
    return n


@kernel(refcounts=False)
def to_hand(s, c, p):
    """Put card c into p's hand (leaving the table slot it may have held)."""
    move(s, c, Z_HAND, p)


@kernel(refcounts=False)
def to_discard(s, c):
    """Put card c face up on the discard pile (leaving the table slot it may have held)."""
    move(s, c, Z_DISCARD, -1)
    s[DISCARD + (s[G_DISCARD_N])] = c
    s[G_DISCARD_N] += 1


@kernel(refcounts=False)
def to_table(s, c, p):
    """Put blue card c in play in front of p (seed 003: blue cards stay in play)."""
    move(s, c, Z_TABLE, p)


@kernel(inline="always")
def to_deck_top(s, c):
    """Put card c back on top of the draw pile (Kit Carlson's returned card)."""
    move(s, c, Z_DECK, -1)
    s[DECK + (s[G_DECK_N])] = c
    s[G_DECK_N] += 1


@kernel(inline="always")
def reshuffle(s, rng):
    """Seed 003 draw phase: an empty draw pile is rebuilt by shuffling the discard pile."""
    n = s[G_DISCARD_N]
    for i in range(n):
        c = s[DISCARD + i]
        s[DECK + i] = c
        s[ZONE + c] = Z_DECK
    s[G_DECK_N] = n
    s[G_DISCARD_N] = 0
    shuffle_prefix(s[DECK : DECK + N_CARDS], n, rng)
    s[G_RESHUFFLES] += 1


@kernel(refcounts=False)
def pop_deck(s, rng):
    """Take the top card of the draw pile into limbo (reshuffling if empty); -1 if no card
    exists anywhere outside hands and play."""
    if s[G_DECK_N] == 0:
        reshuffle(s, rng)
        if s[G_DECK_N] == 0:
            return -1
    s[G_DECK_N] -= 1
    c = s[DECK + (s[G_DECK_N])]
    move(s, c, Z_LIMBO, -1)
    return c


@kernel(refcounts=False)
def draw_to_hand(s, rng, p, k):
    """p draws k cards from the draw pile."""
    for _ in range(k):
        c = pop_deck(s, rng)
        if c < 0:
            return
        to_hand(s, c, p)


# ---------------------------------------------------------------- table geometry


@kernel(refcounts=False)
def alive_count(s):
    """Number of players still in the game."""
    n = 0
    for p in range(s[G_PLAYERS]):
        n += s[ALIVE + p]
    return n


@kernel(refcounts=False)
def next_alive(s, p):
    """The next living player clockwise (to p's left) after p; p itself if alone."""
    n = s[G_PLAYERS]
    q = (p + 1) % n
    while q != p and s[ALIVE + q] == 0:
        q = (q + 1) % n
    return q


@kernel(inline="always")
def seat_distance(s, a, b):
    """Seat distance a->b counting living players only, the shorter way round (seed 003)."""
    n = s[G_PLAYERS]
    clockwise = 0
    q = a
    while q != b:
        q = (q + 1) % n
        if s[ALIVE + q] == 1:
            clockwise += 1
    return min(clockwise, alive_count(s) - clockwise)


@kernel(refcounts=False)
def distance(s, a, b):
    """Distance a sees b at: seat distance, +1 for b's Mustang, +1 if b is Paul Regret, -1 for
    a's Scope, -1 if a is Rose Doolan (seed 003 range; published cards and characters)."""
    d = seat_distance(s, a, b)
    if s[TABLE + b * N_KINDS + MUSTANG] >= 0:
        d += 1
    if s[CHAR + b] == PAUL_REGRET:
        d += 1
    if s[TABLE + a * N_KINDS + SCOPE] >= 0:
        d -= 1
    if s[CHAR + a] == ROSE_DOOLAN:
        d -= 1
    return max(d, 1)


@kernel(inline="always")
def weapon_reach(s, p):
    """Reach of p's weapon in play; the Colt .45 (reach 1) without one (published)."""
    for k in range(FIRST_WEAPON, N_KINDS):
        if s[TABLE + p * N_KINDS + k] >= 0:
            return WEAPON_REACH[k - FIRST_WEAPON]
    return COLT_REACH


@kernel(inline="always")
def can_shoot(s, p, t):
    """p may aim a BANG! at t: t is another living player at distance <= p's reach
    (published 'up to the reach', not the seed's 'strictly more')."""
    return t != p and s[ALIVE + t] == 1 and distance(s, p, t) <= weapon_reach(s, p)


@kernel(inline="always")
def may_bang_again(s, p):
    """One BANG! per turn unless p has a Volcanic in play or is Willy the Kid (published)."""
    volcanic = s[TABLE + p * N_KINDS + VOLCANIC] >= 0
    return s[G_BANGS] == 0 or volcanic or s[CHAR + p] == WILLY_THE_KID


# ---------------------------------------------------------------- draw! checks


@kernel(inline="always")
def check_succeeds(purpose, c):
    """Outcome of one flipped card for the checking player: Dynamite explodes on spades 2-9,
    Jail is escaped and Barrel dodges on a heart (published cards)."""
    if purpose == CHECK_DYNAMITE:
        return not (CARD_SUIT[c] == SPADES and 2 <= CARD_RANK[c] <= 9)
    return CARD_SUIT[c] == HEARTS


@kernel(refcounts=False)
def draw_check(s, rng, p, purpose):
    """p 'draw!'s: flip the top card and discard it; Lucky Duke flips two and keeps the better.
    True when the outcome is good for p (no explosion / escape / dodge)."""
    flips = 2 if s[CHAR + p] == LUCKY_DUKE else 1
    good = False
    for _ in range(flips):
        c = pop_deck(s, rng)
        if c < 0:
            return good or purpose == CHECK_DYNAMITE
        to_discard(s, c)
        good = good or check_succeeds(purpose, c)
    return good


# ---------------------------------------------------------------- public record


@kernel(refcounts=False)
def record_attack(s, attacker, target):
    """The public record of who attacked whom (BANG!, Duel, Panic!, Cat Balou, Jail): the bots'
    beliefs about hidden roles are built from it (:func:`policies.suspicion`)."""
    if attacker != target:
        s[ATTACKS + attacker * MAX_SEATS + target] += 1
