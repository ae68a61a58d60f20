"""Bang! decisions: what a seat may do and what it sees when it decides.

:func:`legal_actions` lists a seat's legal plays; :func:`public_view` fills the public view
(layout: :mod:`cardsim.sims.bang.view`) that every policy receives instead of the state; the
``choose_*`` kernels are the engine's one door to the bots (:mod:`cardsim.sims.bang.policies`)
for every decision a seat makes: its plays, its end-of-turn discard, General Store picks, Sid
Ketchum's discards and the draw-phase choices of Jesse Jones, Kit Carlson and Pedro Ramirez.
``tests/bang/test_hidden_info.py`` calls each of them on states that differ only in hidden
information. A seat with bot code ``BOT_USER + k`` is played by a Python strategy
(:mod:`cardsim.sims.bang.strategy`): each ``choose_*`` asks it through :func:`user_choice`
and plays built-in bot ``k`` for the decisions it leaves out.
"""

from __future__ import annotations

from numba import objmode

from cardsim.sims.bang.cards import (
    BANG,
    BEER,
    BOT_RANDOM,
    BOT_USER,
    CALAMITY_JANET,
    CARD_KIND,
    CAT_BALOU,
    DUEL,
    FIRST_BLUE,
    JAIL,
    MISSED,
    N_CARDS,
    N_KINDS,
    OUTLAW,
    PANIC,
    RENEGADE,
    ROLES_BY_PLAYERS,
    SHERIFF,
    SID_KETCHUM,
)  # fmt: skip
from cardsim.sims.bang.policies import (
    SID_ABILITY,
    pick_discard,
    pick_jesse_source,
    pick_kit_return,
    pick_pedro_discard,
    pick_store_card,
    pick_two_to_discard,
    random_play,
    scripted_play_into,
)  # fmt: skip
from cardsim.sims.bang.state import (
    ACTS,
    ALIVE,
    ATTACKS,
    BOT,
    CHAR,
    DISCARD,
    G_DISCARD_N,
    G_PLAYERS,
    G_TURNS,
    HAND,
    HAND_WIDTH,
    HOLDER,
    LIFE,
    MAX_ACTIONS,
    MAX_LIFE,
    MAX_SEATS,
    PICKS,
    REVEALED,
    ROLE,
    TABLE,
    VIEW,
    Z_HAND,
    ZONE,
    alive_count,
    can_shoot,
    distance,
    hand_count,
    may_bang_again,
    seat_params,
    suspect_scratch,
    weapon_reach,
)  # fmt: skip
from cardsim.sims.bang.usercall import (
    D_DISCARD,
    D_JESSE,
    D_KIT,
    D_PEDRO,
    D_PLAY,
    D_SID,
    D_STORE,
    FALLBACK,
    SID_BASE,
    dispatch,
)
from cardsim.sims.bang.view import (
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
    VIEW_SIZE,
)  # fmt: skip
from cardsim.sims.core.jit import kernel


@kernel(inline="always")
def effective_kind(s, p, c):
    """The kind c is played as in p's own turn: Calamity Janet's Missed! plays as a BANG!."""
    k = CARD_KIND[c]
    if k == MISSED and s[CHAR + p] == CALAMITY_JANET:
        return BANG
    return k


# ---------------------------------------------------------------- legal actions


@kernel(refcounts=False)
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


@kernel(refcounts=False)
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


@kernel(inline="always")
def as_builtin(s, p):
    """Seat p's bot code as a built-in: a user seat's fallback bot k, else its own bot."""
    return s[BOT + p] - BOT_USER if s[BOT + p] >= BOT_USER else s[BOT + p]


@kernel(inline="always")
def public_view(s, p):
    """Fill and return the view of seat p (:func:`fill_view`; a view into the state, inlined
    so a caller without reference counting never hands a view to one with it)."""
    fill_view(s, p)
    return s[VIEW : VIEW + VIEW_SIZE]


@kernel(refcounts=False)
def fill_view(s, p):
    """Fill the view of seat p (layout: :mod:`cardsim.sims.bang.view`): the public
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
    v[V_BOT] = as_builtin(s, p)
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


# ---------------------------------------------------------------- a Python strategy's seat


@kernel(refcounts=False)
def user_choice(s, p, decision, start, stop):
    """Ask the Python strategy of user seat p (bot code ``BOT_USER + k``) for ``decision``
    (a :mod:`~cardsim.sims.bang.usercall` code) with ``s[start:stop]`` (the legal plays, or
    the cards shown): the one step out of compiled code, a numba ``objmode`` call of
    :func:`~cardsim.sims.bang.usercall.dispatch` with p's public view only. Returns its
    integer answer, ``FALLBACK`` for "play the built-in bot k here".

    The whole state goes to Python and is sliced there: without reference counting numba
    hands Python a view's parent array, not the view; ``s`` must be an array Python made."""
    fill_view(s, p)
    turn = s[G_TURNS]
    with objmode(out="int64"):
        out = dispatch(decision, s[VIEW : VIEW + VIEW_SIZE], s[start:stop], turn)
    return out


@kernel(refcounts=False)
def user_action(s, rng, p):
    """A user seat's play: its strategy's pick among the legal plays and "end the phase",
    or its fallback bot's play."""
    n = legal_actions(s, p)
    i = user_choice(s, p, D_PLAY, ACTS, ACTS + 3 * n)
    if i == FALLBACK:
        return builtin_action(s, rng, p)
    if i >= n:
        return -1, -1, -1
    return s[ACTS + i * 3 + 0], s[ACTS + i * 3 + 1], s[ACTS + i * 3 + 2]


# ---------------------------------------------------------------- the door to the bots


@kernel(inline="always")
def builtin_action(s, rng, p):
    """p's next play by a built-in bot: the random bot from the legal plays, the others from
    the public view and their parameters."""
    if as_builtin(s, p) == BOT_RANDOM:
        n = legal_actions(s, p)
        return random_play(s[ACTS : ACTS + 3 * n], n, rng)
    return scripted_play_into(public_view(s, p), seat_params(s, p), suspect_scratch(s))


@kernel(refcounts=False)
def choose_action(s, rng, p):
    """p's next play, chosen by its bot (a user seat's by its strategy). A kernel of its own
    without reference counting: the game loop that asks it may count references, and the
    views a bot reads are made here."""
    if s[BOT + p] >= BOT_USER:
        return user_action(s, rng, p)
    return builtin_action(s, rng, p)


@kernel(inline="always")
def choose_store_card(s, rng, p, shown, remaining):
    """General Store pick (index into the ``remaining`` shown cards), by p's bot."""
    if s[BOT + p] >= BOT_USER:
        for j in range(remaining):  # no-op for the General Store, whose cards sit there
            s[PICKS + j] = shown[j]
        i = user_choice(s, p, D_STORE, PICKS, PICKS + remaining)
        if i != FALLBACK:
            return i
    return pick_store_card(public_view(s, p), seat_params(s, p), as_builtin(s, p) == BOT_RANDOM, rng, shown, remaining)


@kernel(inline="always")
def choose_discard(s, rng, p):
    """End-of-turn discard, by p's bot."""
    if s[BOT + p] >= BOT_USER:
        c = user_choice(s, p, D_DISCARD, ACTS, ACTS)
        if c != FALLBACK:
            return c
    return pick_discard(public_view(s, p), seat_params(s, p), as_builtin(s, p) == BOT_RANDOM, rng)


@kernel(refcounts=False)
def choose_two_to_discard(s, rng, p):
    """Sid Ketchum's two cards, chosen by p's bot."""
    if s[BOT + p] >= BOT_USER:
        pair = user_choice(s, p, D_SID, ACTS, ACTS)
        if pair != FALLBACK:
            return pair // SID_BASE, pair % SID_BASE
    return pick_two_to_discard(public_view(s, p), seat_params(s, p), as_builtin(s, p) == BOT_RANDOM, rng)


@kernel(inline="always")
def choose_jesse_source(s, rng, p):
    """Jesse Jones's draw: the seat to take his first card from (-1: the deck), by p's bot."""
    if s[BOT + p] >= BOT_USER:
        q = user_choice(s, p, D_JESSE, ACTS, ACTS)
        if q != FALLBACK:
            return q
    return pick_jesse_source(
        public_view(s, p), seat_params(s, p), as_builtin(s, p) == BOT_RANDOM, rng, suspect_scratch(s)
    )


@kernel(inline="always")
def choose_kit_return(s, rng, p, seen):
    """Kit Carlson's draw: which of the three ``seen`` cards goes back on the deck, by p's bot."""
    if s[BOT + p] >= BOT_USER:
        for j in range(3):  # no-op for Kit Carlson's draw, whose cards sit there
            s[PICKS + j] = seen[j]
        i = user_choice(s, p, D_KIT, PICKS, PICKS + 3)
        if i != FALLBACK:
            return i
    return pick_kit_return(public_view(s, p), seat_params(s, p), as_builtin(s, p) == BOT_RANDOM, rng, seen)


@kernel(inline="always")
def choose_pedro_discard(s, rng, p):
    """Pedro Ramirez's draw: take the top of the discard pile as his first card? By p's bot."""
    if s[BOT + p] >= BOT_USER:
        take = user_choice(s, p, D_PEDRO, ACTS, ACTS)
        if take != FALLBACK:
            return take == 1
    return pick_pedro_discard(public_view(s, p), seat_params(s, p), as_builtin(s, p) == BOT_RANDOM, rng)
