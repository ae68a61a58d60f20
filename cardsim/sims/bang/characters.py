"""Bang! characters' abilities that change how the rules run (published base game).

Suzy Lafayette's refill, Sid Ketchum's heal, Calamity Janet's interchangeable BANG!/Missed!
when responding, and the draw phase with Black Jack, Jesse Jones, Kit Carlson and Pedro
Ramirez. The abilities that only adjust one rule (Slab the Killer, Jourdonnais, Lucky Duke,
Bart Cassidy, El Gringo, Vulture Sam, Paul Regret, Rose Doolan, Willy the Kid) sit in that rule.
"""

from __future__ import annotations

from cardsim.sims.bang.cards import (
    BANG,
    BLACK_JACK,
    CALAMITY_JANET,
    CARD_SUIT,
    DIAMONDS,
    HEARTS,
    JESSE_JONES,
    KIT_CARLSON,
    MISSED,
    PEDRO_RAMIREZ,
)  # fmt: skip
from cardsim.sims.bang.decisions import (
    choose_jesse_source,
    choose_kit_return,
    choose_pedro_discard,
    choose_two_to_discard,
)  # fmt: skip
from cardsim.sims.bang.state import (
    ALIVE,
    CHAR,
    DISCARD,
    G_DISCARD_N,
    G_SUZY,
    G_WINNER,
    LIFE,
    MAX_LIFE,
    PICKS,
    count_in_hand,
    draw_to_hand,
    find_in_hand,
    hand_count,
    pop_deck,
    random_hand_card,
    to_deck_top,
    to_discard,
    to_hand,
)  # fmt: skip
from cardsim.sims.core.jit import kernel


@kernel(refcounts=False)
def suzy_refill(s, rng):
    """Suzy Lafayette (published): as soon as she has no cards in hand, she draws one."""
    q = s[G_SUZY]
    if q >= 0 and s[ALIVE + q] == 1 and s[G_WINNER] < 0 and hand_count(s, q) == 0:
        draw_to_hand(s, rng, q, 1)


@kernel(inline="always")
def sid_heal(s, rng, p):
    """Sid Ketchum (published): discard two cards to regain one life point, any time."""
    a, b = choose_two_to_discard(s, rng, p)
    to_discard(s, a)
    to_discard(s, b)
    s[LIFE + p] = min(s[LIFE + p] + 1, s[MAX_LIFE + p])


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


# ---------------------------------------------------------------- the turn


@kernel(inline="always")
def draw_phase(s, rng, p):
    """Draw two cards (seed 003), as changed by the characters (published): Black Jack shows
    his second card and draws again on a heart or diamond; Jesse Jones may take his first card
    at random from another player's hand; Kit Carlson looks at three, keeps two and puts one
    back on top; Pedro Ramirez may take his first card from the top of the discard pile."""
    ch = s[CHAR + p]
    if ch == BLACK_JACK:
        draw_to_hand(s, rng, p, 1)
        c = pop_deck(s, rng)
        if c >= 0:
            to_hand(s, c, p)
            if CARD_SUIT[c] == HEARTS or CARD_SUIT[c] == DIAMONDS:
                draw_to_hand(s, rng, p, 1)
    elif ch == JESSE_JONES:
        source = choose_jesse_source(s, rng, p)
        if source >= 0:
            to_hand(s, random_hand_card(s, rng, source), p)
            suzy_refill(s, rng)
        else:
            draw_to_hand(s, rng, p, 1)
        draw_to_hand(s, rng, p, 1)
    elif ch == KIT_CARLSON:
        seen = s[PICKS : PICKS + 3]
        n_seen = 0
        for _ in range(3):
            c = pop_deck(s, rng)
            if c < 0:
                break
            seen[n_seen] = c
            n_seen += 1
        back = -1
        if n_seen == 3:
            back = choose_kit_return(s, rng, p, seen)
        for i in range(n_seen):
            if i == back:
                to_deck_top(s, seen[i])
            else:
                to_hand(s, seen[i], p)
    elif ch == PEDRO_RAMIREZ:
        take_discard = False
        if s[G_DISCARD_N] > 0:
            take_discard = choose_pedro_discard(s, rng, p)
        if take_discard:
            s[G_DISCARD_N] -= 1
            to_hand(s, s[DISCARD + (s[G_DISCARD_N])], p)
        else:
            draw_to_hand(s, rng, p, 1)
        draw_to_hand(s, rng, p, 1)
    else:
        draw_to_hand(s, rng, p, 2)
