"""Bang! rules and the turn loop as numba kernels over a small state of arrays.

Every rule is a small ``@kernel`` function over the flat state array ``s`` (field
offsets below; :class:`StateView` names them for tests); the docstring of each
names its source: ``seed 003`` is ``../shared/seeds/003_b860e9a67841a34d.txt``, ``published``
the dV Giochi base-game rules and cards (see ``seeds/bang.md`` for the readings chosen).
All randomness comes from the numpy Generator passed in (numba supports ``Generator`` objects).

Decisions are the bots' (:mod:`cardsim.sims.bang.policies`): at each one the engine fills the
public view (:func:`public_view`, layout in :mod:`cardsim.sims.bang.view`) and hands it with the
seat's parameters to the policy, which never sees the state itself.

numba's on-disk cache only notices edits to the file that holds a function, and this module's
kernels compile the policies into themselves; :func:`cardsim.sims.core.jit.drop_stale_cache`
(called by ``@kernel``) therefore clears the package's cache whenever any of its sources
changed.

Compile time: numba optimises and compiles every separately compiled kernel together with its
whole call tree, so each level of a deep call chain compiles the rules below it once more.
A kernel with a single caller that sits between the batch kernel and the shared rules (the
turn, the draw phase, the card plays, the bots' seat-level choices, the path from a lethal hit
to an elimination, the deal) is therefore ``@kernel(inline="always")``: compiled as part of its
caller, not on its own; so are the few-line helpers with one or two callers (a separate kernel
costs a fixed share of compile time however small it is). Kernels called from many places stay
separate (inlined, each call site would be typed again), and so do the bots' play rules, the
random bot's legal plays and the Bang!/Gatling shot (inlined, they made their callers slower to
type than the separate kernels cost). Like every kernel, the separate ones are compiled
without numba's CPython wrapper and without machine code of their own
(:mod:`cardsim.sims.core.jit`); a test's call from Python compiles a twin with the wrapper.
:func:`play_focus_batch` is the one batch kernel every command compiles;
:func:`play_focus_games` hands it one argument type per argument whatever the caller passes.
``cardsim bench compile --profile`` shows the cost per kernel.
"""

from __future__ import annotations

import numpy as np
from cardsim.sims.core.jit import kernel

from cardsim.sims.bang.cards import (
    BANG, BARREL, BART_CASSIDY, BEER, BLACK_JACK, BOT_RANDOM, CALAMITY_JANET, CARD_KIND, CARD_RANK,
    CARD_SUIT, CAT_BALOU, CHARACTER_LIFE, COLT_REACH, DEPUTY, DIAMONDS, DUEL, DYNAMITE, EL_GRINGO,
    FIRST_BLUE, FIRST_WEAPON, GATLING, GENERAL_STORE, HEARTS, INDIANS, JAIL, JESSE_JONES,
    JOURDONNAIS, KIT_CARLSON, LUCKY_DUKE, MISSED, MUSTANG, N_CARDS, N_CHARACTERS, N_KINDS, OUTLAW,
    PANIC, PAUL_REGRET, PEDRO_RAMIREZ, RENEGADE, ROLES_BY_PLAYERS, ROSE_DOOLAN, SALOON, SCOPE,
    SHERIFF, SIDE_LAW, SIDE_NONE, SIDE_OUTLAWS, SIDE_RENEGADE, SID_KETCHUM, SLAB_THE_KILLER,
    SPADES, STAGECOACH, SUZY_LAFAYETTE, VOLCANIC, VULTURE_SAM, WEAPON_REACH, WELLS_FARGO,
    WILLY_THE_KID,
)  # fmt: skip
from cardsim.sims.bang.policies import (
    N_PARAMS, NO_ACTION, SID_ABILITY, default_params, pick_discard, pick_jesse_source,
    pick_kit_return, pick_pedro_discard, pick_store_card, pick_two_to_discard, rand_below,
    random_play, scripted_play,
)
from cardsim.sims.bang.view import (
    V_ALIVE, V_ALIVE_N, V_ATTACKS, V_BOT, V_CHAR, V_DISCARD_TOP, V_DIST, V_FOES, V_HAND_COUNT,
    V_HAND_N, V_LIFE, V_MAX_LIFE, V_MAY_BANG, V_MY_CARDS, V_MY_KINDS, V_MY_ROLE, V_OUTLAWS,
    V_PLAYERS, V_REACH, V_ROLE, V_SEAT, V_SHERIFF, V_TABLE, V_TABLE_N, VIEW_SIZE,
)  # fmt: skip

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
VIEW = PARAMS + MAX_SEATS * N_PARAMS  # the public view of the deciding seat (scratch)
ACTS = VIEW + VIEW_SIZE  # s[ACTS + i * 3 + 0..2]: legal action i (scratch)
STATE_SIZE = ACTS + MAX_ACTIONS * 3
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
        self.params = state[PARAMS:VIEW].view(np.float64).reshape(MAX_SEATS, N_PARAMS)
        self.acts = state[ACTS:].reshape(MAX_ACTIONS, 3)


# ---------------------------------------------------------------- state construction


@kernel
def seat_params(s, p):
    """Seat p's bot parameters as float64 (a view into the state)."""
    return s[PARAMS + p * N_PARAMS : PARAMS + (p + 1) * N_PARAMS].view(np.float64)


@kernel
def set_seat_params(s, p, params):
    """Store seat p's bot parameters (float64) bit for bit in the state. Element by element,
    here and wherever the rules copy arrays: a slice assignment compiles numba's shape-mismatch
    error (string formatting and all) into every kernel that reaches it."""
    slot = seat_params(s, p)
    for i in range(N_PARAMS):
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
        for i in range(N_PARAMS):
            s[PARAMS + p * N_PARAMS + i] = DEFAULT_PARAM_BITS[roles[p], i]
        if chars[p] == SUZY_LAFAYETTE:
            s[G_SUZY] = p
        if chars[p] == VULTURE_SAM:
            s[G_VULTURE] = p
    for c in range(N_CARDS):
        s[ZONE + c] = Z_DECK
        s[HOLDER + c] = -1
        s[DECK + c] = c
    s[TABLE:HAND] = -1
    s[G_DECK_N] = N_CARDS
    return s


@kernel
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


@kernel
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


@kernel
def hand_count(s, p):
    """Number of cards in seat p's hand."""
    return s[HAND + p * HAND_WIDTH + N_KINDS]


@kernel(inline="always")
def count_in_hand(s, p, kind):
    """Number of cards of ``kind`` in p's hand."""
    return s[HAND + p * HAND_WIDTH + kind]


@kernel
def find_in_hand(s, p, kind):
    """Some card of ``kind`` in p's hand, -1 if none."""
    if s[HAND + p * HAND_WIDTH + kind] == 0:
        return -1
    for c in range(N_CARDS):
        if s[ZONE + c] == Z_HAND and s[HOLDER + c] == p and CARD_KIND[c] == kind:
            return c
    return -1


@kernel
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


@kernel
def to_hand(s, c, p):
    """Put card c into p's hand (leaving the table slot it may have held)."""
    move(s, c, Z_HAND, p)


@kernel
def to_discard(s, c):
    """Put card c face up on the discard pile (leaving the table slot it may have held)."""
    move(s, c, Z_DISCARD, -1)
    s[DISCARD + (s[G_DISCARD_N])] = c
    s[G_DISCARD_N] += 1


@kernel
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


@kernel
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


@kernel
def draw_to_hand(s, rng, p, k):
    """p draws k cards from the draw pile."""
    for _ in range(k):
        c = pop_deck(s, rng)
        if c < 0:
            return
        to_hand(s, c, p)


@kernel
def suzy_refill(s, rng):
    """Suzy Lafayette (published): as soon as she has no cards in hand, she draws one."""
    q = s[G_SUZY]
    if q >= 0 and s[ALIVE + q] == 1 and s[G_WINNER] < 0 and hand_count(s, q) == 0:
        draw_to_hand(s, rng, q, 1)


# ---------------------------------------------------------------- table geometry


@kernel
def alive_count(s):
    """Number of players still in the game."""
    n = 0
    for p in range(s[G_PLAYERS]):
        n += s[ALIVE + p]
    return n


@kernel
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


@kernel
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


@kernel
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


@kernel
def record_attack(s, attacker, target):
    """The public record of who attacked whom (BANG!, Duel, Panic!, Cat Balou, Jail): the bots'
    beliefs about hidden roles are built from it (:func:`policies.suspicion`)."""
    if attacker != target:
        s[ATTACKS + attacker * MAX_SEATS + target] += 1


# ---------------------------------------------------------------- life, death and the end


@kernel
def check_end(s):
    """End conditions (seed 003): Sheriff dead -> the Renegade wins if he is the only one
    alive, otherwise the Outlaws; all Outlaws and the Renegade dead -> Sheriff and Deputies."""
    n = s[G_PLAYERS]
    sheriff_alive = False
    foes_alive = 0
    living = 0
    last = -1
    for p in range(n):
        if s[ALIVE + p] == 1:
            living += 1
            last = p
            if s[ROLE + p] == SHERIFF:
                sheriff_alive = True
            elif s[ROLE + p] == OUTLAW or s[ROLE + p] == RENEGADE:
                foes_alive += 1
    if not sheriff_alive:
        if living == 1 and s[ROLE + last] == RENEGADE:
            s[G_WINNER] = SIDE_RENEGADE
        else:
            s[G_WINNER] = SIDE_OUTLAWS
    elif foes_alive == 0:
        s[G_WINNER] = SIDE_LAW


@kernel(inline="always")
def discard_everything(s, p):
    """Discard all cards in p's hand and in play in front of p."""
    for c in range(N_CARDS):
        if s[HOLDER + c] == p and (s[ZONE + c] == Z_HAND or s[ZONE + c] == Z_TABLE):
            to_discard(s, c)


@kernel(inline="always")
def eliminate(s, rng, victim, killer):
    """Seed 003 elimination: the role is revealed and the cards leave play (to Vulture Sam's
    hand if he is alive, published); then, if the game goes on, killing an Outlaw earns 3 cards
    and a Sheriff who kills a Deputy discards all his cards. killer -1: no player (Dynamite)."""
    s[ALIVE + victim] = 0
    s[LIFE + victim] = 0
    s[REVEALED + victim] = 1
    s[KILLER + victim] = killer
    s[OUT_TURN + victim] = s[G_TURNS]
    heir = s[G_VULTURE]
    if heir >= 0 and heir != victim and s[ALIVE + heir] == 1:
        for c in range(N_CARDS):
            if s[HOLDER + c] == victim and (s[ZONE + c] == Z_HAND or s[ZONE + c] == Z_TABLE):
                to_hand(s, c, heir)
    else:
        discard_everything(s, victim)
    check_end(s)
    if s[G_WINNER] >= 0:
        return
    if killer >= 0 and killer != victim and s[ALIVE + killer] == 1:
        if s[ROLE + victim] == OUTLAW:
            draw_to_hand(s, rng, killer, 3)
        elif s[ROLE + victim] == DEPUTY and s[ROLE + killer] == SHERIFF:
            discard_everything(s, killer)
    suzy_refill(s, rng)


@kernel
def choose_two_to_discard(s, rng, p):
    """Sid Ketchum's two cards, chosen by p's bot."""
    return pick_two_to_discard(public_view(s, p), seat_params(s, p), s[BOT + p] == BOT_RANDOM,
                               rng)


@kernel(inline="always")
def sid_heal(s, rng, p):
    """Sid Ketchum (published): discard two cards to regain one life point, any time."""
    a, b = choose_two_to_discard(s, rng, p)
    to_discard(s, a)
    to_discard(s, b)
    s[LIFE + p] = min(s[LIFE + p] + 1, s[MAX_LIFE + p])


@kernel(inline="always")
def save_from_death(s, rng, p):
    """At 0 life or less p plays Beers out of turn (only while more than two players are
    alive, published) and Sid Ketchum discards pairs, each regaining one life, until alive."""
    while s[LIFE + p] <= 0:
        if alive_count(s) > 2:
            b = find_in_hand(s, p, BEER)
            if b >= 0:
                to_discard(s, b)
                s[LIFE + p] += 1
                continue
        if s[CHAR + p] == SID_KETCHUM and hand_count(s, p) >= 2:
            a, b2 = choose_two_to_discard(s, rng, p)
            to_discard(s, a)
            to_discard(s, b2)
            s[LIFE + p] += 1
            continue
        return


@kernel
def lose_life(s, rng, victim, amount, source):
    """victim loses ``amount`` life points caused by player ``source`` (-1: Dynamite).
    Below 1 the victim may be saved, else is eliminated. Survivors' abilities (published):
    Bart Cassidy draws one card per point lost; El Gringo takes one random card from the
    source's hand per point lost (not for Dynamite)."""
    if s[ALIVE + victim] == 0 or amount <= 0:
        return
    s[LIFE + victim] -= amount
    if s[LIFE + victim] <= 0:
        save_from_death(s, rng, victim)
        if s[LIFE + victim] <= 0:
            eliminate(s, rng, victim, source)
            return
    if s[CHAR + victim] == BART_CASSIDY:
        draw_to_hand(s, rng, victim, amount)
    if s[CHAR + victim] == EL_GRINGO and source >= 0 and source != victim:
        for _ in range(amount):
            c = random_hand_card(s, rng, source)
            if c < 0:
                break
            to_hand(s, c, victim)
    suzy_refill(s, rng)


# ---------------------------------------------------------------- responses


@kernel(inline="always")
def dodge_card(s, p):
    """A card p can play as Missed!: a Missed!, or a BANG! for Calamity Janet (published)."""
    c = find_in_hand(s, p, MISSED)
    if c < 0 and s[CHAR + p] == CALAMITY_JANET:
        c = find_in_hand(s, p, BANG)
    return c


@kernel(inline="always")
def bang_card(s, p):
    """A card p can discard as a BANG! (Duel, Indians!): a BANG!, or a Missed! for Calamity."""
    c = find_in_hand(s, p, BANG)
    if c < 0 and s[CHAR + p] == CALAMITY_JANET:
        c = find_in_hand(s, p, MISSED)
    return c


@kernel(inline="always")
def dodges_in_hand(s, p):
    """How many shots p can cancel from hand."""
    n = count_in_hand(s, p, MISSED)
    if s[CHAR + p] == CALAMITY_JANET:
        n += count_in_hand(s, p, BANG)
    return n


@kernel
def resolve_shot(s, rng, shooter, target, needed):
    """A shot at target that takes ``needed`` Missed! to cancel (2 for Slab the Killer's
    BANG!). Barrel and Jourdonnais each give one draw! (a heart counts as one Missed!), then
    Missed! cards are played if enough are held; otherwise target loses one life point."""
    draws = 0
    if s[TABLE + target * N_KINDS + BARREL] >= 0:
        draws += 1
    if s[CHAR + target] == JOURDONNAIS:
        draws += 1
    for _ in range(draws):
        if needed == 0:
            break
        if draw_check(s, rng, target, CHECK_BARREL):
            needed -= 1
    if needed > 0 and dodges_in_hand(s, target) >= needed:
        for _ in range(needed):
            to_discard(s, dodge_card(s, target))
        needed = 0
        suzy_refill(s, rng)
    if needed > 0:
        lose_life(s, rng, target, 1, shooter)


# ---------------------------------------------------------------- the cards (one unit each)


@kernel(inline="always")
def play_bang(s, rng, p, c, t):
    """BANG!: t (in reach) must cancel with Missed! or lose one life; counts as p's BANG! for
    the turn even when Calamity Janet plays a Missed! as BANG! (published)."""
    to_discard(s, c)
    s[G_BANGS] += 1
    record_attack(s, p, t)
    resolve_shot(s, rng, p, t, 2 if s[CHAR + p] == SLAB_THE_KILLER else 1)


@kernel(inline="always")
def play_beer(s, p, c):
    """Beer: regain one life point, never above the maximum; no effect with two players left."""
    to_discard(s, c)
    if alive_count(s) > 2:
        s[LIFE + p] = min(s[LIFE + p] + 1, s[MAX_LIFE + p])


@kernel(inline="always")
def take_card_from(s, rng, t, which):
    """The card taken from t: a random hand card when which < 0, else the chosen card in play."""
    if which < 0:
        return random_hand_card(s, rng, t)
    return which


@kernel(inline="always")
def play_panic(s, rng, p, c, t, which):
    """Panic!: take one card (random from hand, or one in play) from a player at distance 1."""
    to_discard(s, c)
    record_attack(s, p, t)
    taken = take_card_from(s, rng, t, which)
    if taken >= 0:
        to_hand(s, taken, p)
    suzy_refill(s, rng)


@kernel(inline="always")
def play_cat_balou(s, rng, p, c, t, which):
    """Cat Balou: any player, any distance, discards one card (random from hand, or in play)."""
    to_discard(s, c)
    record_attack(s, p, t)
    taken = take_card_from(s, rng, t, which)
    if taken >= 0:
        to_discard(s, taken)
    suzy_refill(s, rng)


@kernel(inline="always")
def play_duel(s, rng, p, c, t):
    """Duel: starting with the challenged t, the two discard BANG! cards in turn; the first who
    does not loses one life point (caused by the other). Not a BANG! for the turn limit."""
    to_discard(s, c)
    record_attack(s, p, t)
    turn, other = t, p
    while True:
        b = bang_card(s, turn)
        if b < 0:
            lose_life(s, rng, turn, 1, other)
            return
        to_discard(s, b)
        suzy_refill(s, rng)
        turn, other = other, turn


@kernel(inline="always")
def play_general_store(s, rng, p, c):
    """General Store: reveal one card per living player; starting with p and going clockwise
    each living player takes one."""
    to_discard(s, c)
    k = alive_count(s)
    shown = np.empty(k, np.int64)
    n_shown = 0
    for _ in range(k):
        card = pop_deck(s, rng)
        if card < 0:
            break
        shown[n_shown] = card
        n_shown += 1
    picker = p
    remaining = n_shown
    while remaining > 0:
        i = choose_store_card(s, rng, picker, shown, remaining)
        to_hand(s, shown[i], picker)
        shown[i] = shown[remaining - 1]
        remaining -= 1
        picker = next_alive(s, picker)


@kernel(inline="always")
def play_gatling(s, rng, p, c):
    """Gatling: a shot at every other player (one Missed! each, even from Slab the Killer);
    not a BANG! for the turn limit."""
    to_discard(s, c)
    t = next_alive(s, p)
    while t != p and s[G_WINNER] < 0:
        nxt = next_alive(s, t)
        resolve_shot(s, rng, p, t, 1)
        t = nxt


@kernel(inline="always")
def play_indians(s, rng, p, c):
    """Indians!: every other player discards a BANG! (Calamity: or Missed!) or loses one life."""
    to_discard(s, c)
    t = next_alive(s, p)
    while t != p and s[G_WINNER] < 0:
        nxt = next_alive(s, t)
        b = bang_card(s, t)
        if b >= 0:
            to_discard(s, b)
            suzy_refill(s, rng)
        else:
            lose_life(s, rng, t, 1, p)
        t = nxt


@kernel(inline="always")
def play_saloon(s, c):
    """Saloon: every living player regains one life point (not above the maximum)."""
    to_discard(s, c)
    for q in range(s[G_PLAYERS]):
        if s[ALIVE + q] == 1:
            s[LIFE + q] = min(s[LIFE + q] + 1, s[MAX_LIFE + q])


@kernel(inline="always")
def play_stagecoach(s, rng, p, c):
    """Stagecoach: draw two cards."""
    to_discard(s, c)
    draw_to_hand(s, rng, p, 2)


@kernel(inline="always")
def play_wells_fargo(s, rng, p, c):
    """Wells Fargo: draw three cards."""
    to_discard(s, c)
    draw_to_hand(s, rng, p, 3)


@kernel(inline="always")
def play_equipment(s, p, c):
    """Barrel, Mustang, Scope, Dynamite, weapons: put in play in front of p. A new weapon
    replaces (discards) the one in play: one weapon at a time (published)."""
    k = CARD_KIND[c]
    if k >= FIRST_WEAPON:
        for w in range(FIRST_WEAPON, N_KINDS):
            if s[TABLE + p * N_KINDS + w] >= 0:
                to_discard(s, s[TABLE + p * N_KINDS + w])
    to_table(s, c, p)


@kernel(inline="always")
def play_jail(s, p, c, t):
    """Jail: put in play in front of t (anyone but the Sheriff), any distance."""
    record_attack(s, p, t)
    to_table(s, c, t)


@kernel(inline="always")
def effective_kind(s, p, c):
    """The kind c is played as in p's own turn: Calamity Janet's Missed! plays as a BANG!."""
    k = CARD_KIND[c]
    if k == MISSED and s[CHAR + p] == CALAMITY_JANET:
        return BANG
    return k


@kernel
def apply_action(s, rng, p, c, t, which):
    """Carry out one play by p (card c, target t, which card to take for Panic!/Cat Balou)."""
    if c == SID_ABILITY:
        sid_heal(s, rng, p)
        return
    k = effective_kind(s, p, c)
    if k == BANG:
        play_bang(s, rng, p, c, t)
    elif k == BEER:
        play_beer(s, p, c)
    elif k == PANIC:
        play_panic(s, rng, p, c, t, which)
    elif k == CAT_BALOU:
        play_cat_balou(s, rng, p, c, t, which)
    elif k == DUEL:
        play_duel(s, rng, p, c, t)
    elif k == GENERAL_STORE:
        play_general_store(s, rng, p, c)
    elif k == GATLING:
        play_gatling(s, rng, p, c)
    elif k == INDIANS:
        play_indians(s, rng, p, c)
    elif k == SALOON:
        play_saloon(s, c)
    elif k == STAGECOACH:
        play_stagecoach(s, rng, p, c)
    elif k == WELLS_FARGO:
        play_wells_fargo(s, rng, p, c)
    elif k == JAIL:
        play_jail(s, p, c, t)
    else:
        play_equipment(s, p, c)
    suzy_refill(s, rng)


# ---------------------------------------------------------------- legal actions


@kernel
def push_action(s, n, c, t, which):
    """Append one action to the scratch buffer."""
    if n < MAX_ACTIONS:
        s[ACTS + n * 3 + 0] = c
        s[ACTS + n * 3 + 1] = t
        s[ACTS + n * 3 + 2] = which
        return n + 1
    return n


@kernel(inline="always")
def push_take_options(s, n, c, t):
    """Panic!/Cat Balou options against t: a blind hand card, or each card t has in play."""
    if hand_count(s, t) > 0:
        n = push_action(s, n, c, t, -1)
    for k in range(N_KINDS):
        if s[TABLE + t * N_KINDS + k] >= 0:
            n = push_action(s, n, c, t, s[TABLE + t * N_KINDS + k])
    return n


@kernel
def legal_actions(s, p):
    """All legal plays for p in its play phase into the ACTS block; returns their number.
    Missed! is not playable in one's own turn (except by Calamity Janet as BANG!); a Beer that
    cannot have an effect is not offered; blue cards follow 'no two of a name in front of a
    player'; Jail never targets the Sheriff."""
    n = 0
    players = s[G_PLAYERS]
    living = alive_count(s)
    for c in range(N_CARDS):
        if s[ZONE + c] != Z_HAND or s[HOLDER + c] != p:
            continue
        k = effective_kind(s, p, c)
        if k == BANG:
            if may_bang_again(s, p):
                for t in range(players):
                    if can_shoot(s, p, t):
                        n = push_action(s, n, c, t, -1)
        elif k == MISSED:
            continue
        elif k == BEER:
            if s[LIFE + p] < s[MAX_LIFE + p] and living > 2:
                n = push_action(s, n, c, -1, -1)
        elif k == PANIC or k == CAT_BALOU:
            for t in range(players):
                if t != p and s[ALIVE + t] == 1 and (k == CAT_BALOU or distance(s, p, t) <= 1):
                    n = push_take_options(s, n, c, t)
        elif k == DUEL:
            for t in range(players):
                if t != p and s[ALIVE + t] == 1:
                    n = push_action(s, n, c, t, -1)
        elif k == JAIL:
            for t in range(players):
                free = s[TABLE + t * N_KINDS + JAIL] < 0
                if t != p and s[ALIVE + t] == 1 and s[ROLE + t] != SHERIFF and free:
                    n = push_action(s, n, c, t, -1)
        elif k >= FIRST_BLUE:
            if s[TABLE + p * N_KINDS + k] < 0:
                n = push_action(s, n, c, -1, -1)
        else:
            n = push_action(s, n, c, -1, -1)
    if s[CHAR + p] == SID_KETCHUM and s[LIFE + p] < s[MAX_LIFE + p] and hand_count(s, p) >= 2:
        n = push_action(s, n, SID_ABILITY, -1, -1)
    return n


# ---------------------------------------------------------------- what a bot sees


@kernel
def public_view(s, p):
    """Fill and return the view of seat p (layout: :mod:`cardsim.sims.bang.view`): the public
    record and p's own hand, nothing else. Roles shown: the Sheriff's, the dead's and p's own;
    living Outlaws/foes are counted from the role counts of the player count minus the
    revealed dead (public, seed 003)."""
    v = s[VIEW : VIEW + VIEW_SIZE]
    n = s[G_PLAYERS]
    v[V_SEAT] = p
    v[V_PLAYERS] = n
    v[V_ALIVE_N] = alive_count(s)
    outlaws = 0
    foes = 0
    for r in range(n):
        role = ROLES_BY_PLAYERS[n - 4, r]
        if role == OUTLAW:
            outlaws += 1
        if role == OUTLAW or role == RENEGADE:
            foes += 1
    for q in range(MAX_SEATS):
        known = q < n and (s[REVEALED + q] == 1 or q == p)
        v[V_ROLE + q] = s[ROLE + q] if known else -1
        if q >= n:
            v[V_ALIVE + q] = 0
            continue
        if s[ROLE + q] == SHERIFF:
            v[V_SHERIFF] = q
        if s[ALIVE + q] == 0:
            if s[ROLE + q] == OUTLAW:
                outlaws -= 1
            if s[ROLE + q] == OUTLAW or s[ROLE + q] == RENEGADE:
                foes -= 1
        v[V_CHAR + q] = s[CHAR + q]
        v[V_LIFE + q] = s[LIFE + q]
        v[V_MAX_LIFE + q] = s[MAX_LIFE + q]
        v[V_ALIVE + q] = s[ALIVE + q]
        v[V_HAND_COUNT + q] = hand_count(s, q)
        v[V_DIST + q] = distance(s, p, q) if q != p and s[ALIVE + q] == 1 else 0
        on_table = 0
        for k in range(N_KINDS):
            c = s[TABLE + q * N_KINDS + k]
            v[V_TABLE + q * N_KINDS + k] = c
            if c >= 0:
                on_table += 1
        v[V_TABLE_N + q] = on_table
    v[V_OUTLAWS] = outlaws
    v[V_FOES] = foes
    v[V_MAY_BANG] = 1 if may_bang_again(s, p) else 0
    v[V_DISCARD_TOP] = s[DISCARD + (s[G_DISCARD_N] - 1)] if s[G_DISCARD_N] > 0 else -1
    v[V_REACH] = weapon_reach(s, p)
    v[V_MY_ROLE] = s[ROLE + p]
    v[V_BOT] = s[BOT + p]
    for i in range(MAX_SEATS * MAX_SEATS):
        v[V_ATTACKS + i] = s[ATTACKS + i]
    for k in range(N_KINDS):
        v[V_MY_KINDS + k] = s[HAND + p * HAND_WIDTH + k]
    held = 0
    size = hand_count(s, p)
    for c in range(N_CARDS):
        if held == size:
            break
        if s[ZONE + c] == Z_HAND and s[HOLDER + c] == p:
            v[V_MY_CARDS + held] = c
            held += 1
    v[V_HAND_N] = held
    return v


@kernel(inline="always")
def choose_action(s, rng, p):
    """p's next play, chosen by its bot: the random bot from the legal plays, the others from
    the public view and their parameters."""
    if s[BOT + p] == BOT_RANDOM:
        n = legal_actions(s, p)
        return random_play(s[ACTS : ACTS + 3 * n], n, rng)
    return scripted_play(public_view(s, p), seat_params(s, p))


@kernel(inline="always")
def choose_store_card(s, rng, p, shown, remaining):
    """General Store pick (index into the ``remaining`` shown cards), by p's bot."""
    return pick_store_card(public_view(s, p), seat_params(s, p), s[BOT + p] == BOT_RANDOM, rng,
                           shown, remaining)


@kernel(inline="always")
def choose_discard(s, rng, p):
    """End-of-turn discard, by p's bot."""
    return pick_discard(public_view(s, p), seat_params(s, p), s[BOT + p] == BOT_RANDOM, rng)


# ---------------------------------------------------------------- the turn


@kernel(inline="always")
def draw_phase(s, rng, p):
    """Draw two cards (seed 003), as changed by the characters (published): Black Jack shows
    his second card and draws again on a heart or diamond; Jesse Jones may take his first card
    at random from another player's hand; Kit Carlson looks at three, keeps two and puts one
    back on top; Pedro Ramirez may take his first card from the top of the discard pile."""
    ch = s[CHAR + p]
    random_bot = s[BOT + p] == BOT_RANDOM
    if ch == BLACK_JACK:
        draw_to_hand(s, rng, p, 1)
        c = pop_deck(s, rng)
        if c >= 0:
            to_hand(s, c, p)
            if CARD_SUIT[c] == HEARTS or CARD_SUIT[c] == DIAMONDS:
                draw_to_hand(s, rng, p, 1)
    elif ch == JESSE_JONES:
        source = pick_jesse_source(public_view(s, p), seat_params(s, p), random_bot, rng)
        if source >= 0:
            to_hand(s, random_hand_card(s, rng, source), p)
            suzy_refill(s, rng)
        else:
            draw_to_hand(s, rng, p, 1)
        draw_to_hand(s, rng, p, 1)
    elif ch == KIT_CARLSON:
        seen = np.empty(3, np.int64)
        n_seen = 0
        for _ in range(3):
            c = pop_deck(s, rng)
            if c < 0:
                break
            seen[n_seen] = c
            n_seen += 1
        back = -1
        if n_seen == 3:
            back = pick_kit_return(public_view(s, p), seat_params(s, p), random_bot, rng, seen)
        for i in range(n_seen):
            if i == back:
                to_deck_top(s, seen[i])
            else:
                to_hand(s, seen[i], p)
    elif ch == PEDRO_RAMIREZ:
        take_discard = False
        if s[G_DISCARD_N] > 0:
            take_discard = pick_pedro_discard(public_view(s, p), seat_params(s, p), random_bot,
                                              rng)
        if take_discard:
            s[G_DISCARD_N] -= 1
            to_hand(s, s[DISCARD + (s[G_DISCARD_N])], p)
        else:
            draw_to_hand(s, rng, p, 1)
        draw_to_hand(s, rng, p, 1)
    else:
        draw_to_hand(s, rng, p, 2)


@kernel(inline="always")
def resolve_dynamite(s, rng, p):
    """Dynamite draw! at the start of p's turn: on spades 2-9 it explodes (3 life points, no
    player responsible) and is discarded, otherwise it passes to the player on p's left."""
    c = s[TABLE + p * N_KINDS + DYNAMITE]
    if draw_check(s, rng, p, CHECK_DYNAMITE):
        q = next_alive(s, p)
        if q != p and s[TABLE + q * N_KINDS + DYNAMITE] < 0:
            to_table(s, c, q)
    else:
        to_discard(s, c)
        lose_life(s, rng, p, 3, -1)


@kernel(inline="always")
def resolve_jail(s, rng, p):
    """Jail draw!: a heart frees p for this turn; either way Jail is discarded. True if p
    plays the turn."""
    c = s[TABLE + p * N_KINDS + JAIL]
    free = draw_check(s, rng, p, CHECK_JAIL)
    to_discard(s, c)
    return free


@kernel(inline="always")
def take_turn(s, rng, p):
    """One turn (seed 003): draw! checks (Dynamite first, then Jail), draw, play any number of
    cards, then discard down to the hand limit (= current life)."""
    s[G_TURNS] += 1
    s[G_CURRENT] = p
    s[G_BANGS] = 0
    if s[TABLE + p * N_KINDS + DYNAMITE] >= 0:
        resolve_dynamite(s, rng, p)
        if s[ALIVE + p] == 0 or s[G_WINNER] >= 0:
            return
    if s[TABLE + p * N_KINDS + JAIL] >= 0:
        if not resolve_jail(s, rng, p):
            return
    draw_phase(s, rng, p)
    suzy_refill(s, rng)
    for _ in range(MAX_ACTIONS_PER_TURN):
        if s[ALIVE + p] == 0 or s[G_WINNER] >= 0:
            return
        c, t, which = choose_action(s, rng, p)
        if c == -1:
            break
        apply_action(s, rng, p, c, t, which)
    if s[ALIVE + p] == 0 or s[G_WINNER] >= 0:
        return
    while hand_count(s, p) > s[LIFE + p]:
        to_discard(s, choose_discard(s, rng, p))
    suzy_refill(s, rng)


# ---------------------------------------------------------------- invariants and the game


@kernel
def invariant_error(s):
    """0 if the state is consistent, else a code: 1 cards not all accounted for (deck,
    discard, hands, play), 2 deck/discard stacks disagree with zones, 3 table slots disagree,
    4 life out of [1, max] for the living or a dead player holds cards, 5 bad winner,
    6 hand counts out of step with the cards."""
    counts = np.zeros(5, np.int64)
    for c in range(N_CARDS):
        counts[s[ZONE + c]] += 1
    if counts[Z_LIMBO] != 0 or counts[0] + counts[1] + counts[2] + counts[3] != N_CARDS:
        return 1
    if counts[Z_DECK] != s[G_DECK_N] or counts[Z_DISCARD] != s[G_DISCARD_N]:
        return 2
    for i in range(s[G_DECK_N]):
        if s[ZONE + (s[DECK + i])] != Z_DECK:
            return 2
    for i in range(s[G_DISCARD_N]):
        if s[ZONE + (s[DISCARD + i])] != Z_DISCARD:
            return 2
    kinds_in_hand = np.zeros(MAX_SEATS * HAND_WIDTH, np.int64)
    for c in range(N_CARDS):
        if s[ZONE + c] == Z_TABLE and s[TABLE + (s[HOLDER + c]) * N_KINDS + (CARD_KIND[c])] != c:
            return 3
        if s[ZONE + c] == Z_HAND:
            kinds_in_hand[s[HOLDER + c] * HAND_WIDTH + CARD_KIND[c]] += 1
            kinds_in_hand[s[HOLDER + c] * HAND_WIDTH + N_KINDS] += 1
    for i in range(MAX_SEATS * HAND_WIDTH):  # a loop: np.array_equal costs seconds to compile
        if kinds_in_hand[i] != s[HAND + i]:
            return 6
    n_weapons = 0
    for p in range(s[G_PLAYERS]):
        n_weapons = 0
        for k in range(N_KINDS):
            c = s[TABLE + p * N_KINDS + k]
            if c >= 0 and (s[ZONE + c] != Z_TABLE or s[HOLDER + c] != p or CARD_KIND[c] != k):
                return 3
            if c >= 0 and k >= FIRST_WEAPON:
                n_weapons += 1
        if n_weapons > 1 or (s[TABLE + p * N_KINDS + JAIL] >= 0 and s[ROLE + p] == SHERIFF):
            return 3
        if s[LIFE + p] > s[MAX_LIFE + p]:
            return 4
        if s[ALIVE + p] == 1 and s[LIFE + p] < 1:
            return 4
        if s[ALIVE + p] == 0 and hand_count(s, p) + table_count(s, p) > 0:
            return 4
    w = s[G_WINNER]
    if w >= 0:
        probe = s[G_WINNER]
        s[G_WINNER] = -1
        check_end(s)
        expected = s[G_WINNER]
        s[G_WINNER] = probe
        if w == SIDE_NONE:
            if expected >= 0 or s[G_TURNS] < s[G_MAX_TURNS]:
                return 5
        elif expected != w:
            return 5
    return 0


@kernel(inline="always")
def play_game(s, rng, check_every_turn):
    """Play turns clockwise from the Sheriff until a side wins or the turn cap is hit
    (winner 'none'). Returns the first invariant error code seen (0 if none)."""
    p = 0
    for q in range(s[G_PLAYERS]):
        if s[ROLE + q] == SHERIFF:
            p = q
    while s[G_WINNER] < 0:
        if s[G_TURNS] >= s[G_MAX_TURNS]:
            s[G_WINNER] = SIDE_NONE
            break
        if s[ALIVE + p] == 1:
            take_turn(s, rng, p)
            if check_every_turn:
                err = invariant_error(s)
                if err != 0:
                    return err
        p = (p + 1) % s[G_PLAYERS]
    return invariant_error(s)


def play_games(n_games, n_players, bots_by_role, params_by_role, max_turns, rng,
               check_every_turn):
    """Play n_games independent games; one row of results per game. ``params_by_role``: one
    row of bot parameters per role (see :mod:`cardsim.sims.bang.policies`). Plain Python over
    the one batch kernel :func:`play_focus_batch` (no focus seat), so every command compiles
    and caches that kernel alone."""
    return play_focus_games(n_games, n_players, bots_by_role, params_by_role, -1, 0,
                            params_by_role[0], max_turns, rng, rng, check_every_turn)


def play_focus_games(n_games, n_players, bots_by_role, params_by_role, focus_role, focus_bot,
                     focus_params, max_turns, deal_rng, play_rng, check_every_turn):
    """Play n_games; deals (roles, characters, deck) come from ``deal_rng`` and everything
    after from ``play_rng``, so two runs with equal deal streams play the same deals whatever
    the bots do (common random numbers). With ``focus_role`` >= 0 the first seat of that role
    plays ``focus_bot`` with ``focus_params`` instead of its role's bot. Returns (winner,
    turns, roles, chars, alive, life, killer, out_turn, errors), one row per game.

    Plain Python: it allocates the result arrays and hands the batch kernel one argument type
    per argument (C-contiguous int64 / float64 arrays, plain ints and a bool) whatever the
    caller passed, so every caller reaches the same compiled (and cached) kernel."""
    n_games = int(n_games)
    results = (
        np.empty(n_games, np.int8),  # winner
        np.empty(n_games, np.int16),  # turns
        np.full((n_games, MAX_SEATS), -1, np.int8),  # roles
        np.full((n_games, MAX_SEATS), -1, np.int8),  # chars
        np.zeros((n_games, MAX_SEATS), np.int8),  # alive
        np.zeros((n_games, MAX_SEATS), np.int8),  # life
        np.full((n_games, MAX_SEATS), -1, np.int8),  # killer
        np.zeros((n_games, MAX_SEATS), np.int16),  # out_turn
        np.zeros(n_games, np.int8),  # errors
    )
    play_focus_batch(n_games, int(n_players), np.ascontiguousarray(bots_by_role, np.int64),
                     np.ascontiguousarray(params_by_role, np.float64), int(focus_role),
                     int(focus_bot), np.ascontiguousarray(focus_params, np.float64),
                     int(max_turns), deal_rng, play_rng, bool(check_every_turn), *results)
    return results


@kernel(inline="always")
def focus_seat(s, role):
    """The first seat dealt ``role`` (-1 if none)."""
    for p in range(s[G_PLAYERS]):
        if s[ROLE + p] == role:
            return p
    return -1


@kernel
def play_focus_batch(n_games, n_players, bots_by_role, params_by_role, focus_role, focus_bot,
                     focus_params, max_turns, deal_rng, play_rng, check_every_turn, winner,
                     turns, roles, chars, alive, life, killer, out_turn, errors):
    """The batch kernel of :func:`play_focus_games`: plays the games into its result arrays
    (allocated by the caller: numba compiles each array constructor once per shape and type,
    seconds of a cold first run)."""
    for i in range(n_games):
        s = setup_game(n_players, bots_by_role, params_by_role, max_turns, deal_rng)
        if focus_role >= 0:
            seat = focus_seat(s, focus_role)
            s[BOT + seat] = focus_bot
            set_seat_params(s, seat, focus_params)
        errors[i] = play_game(s, play_rng, check_every_turn)
        winner[i] = s[G_WINNER]
        turns[i] = s[G_TURNS]
        for p in range(n_players):
            roles[i, p] = s[ROLE + p]
            chars[i, p] = s[CHAR + p]
            alive[i, p] = s[ALIVE + p]
            life[i, p] = s[LIFE + p]
            killer[i, p] = s[KILLER + p]
            out_turn[i, p] = s[OUT_TURN + p]
