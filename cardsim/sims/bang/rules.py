"""Bang! rules: life, death and the end of the game, shots and their responses, the cards.

Each rule is a small kernel over the state (:mod:`cardsim.sims.bang.state`) whose docstring
names its source: ``seed 003`` is ``../shared/seeds/003_b860e9a67841a34d.txt``, ``published``
the dV Giochi base-game rules and cards (see ``seeds/bang.md`` for the readings chosen).
"""

from __future__ import annotations

from cardsim.sims.bang.cards import (
    BANG,
    BARREL,
    BART_CASSIDY,
    BEER,
    CARD_KIND,
    CAT_BALOU,
    DEPUTY,
    DUEL,
    DYNAMITE,
    EL_GRINGO,
    FIRST_WEAPON,
    GATLING,
    GENERAL_STORE,
    INDIANS,
    JAIL,
    JOURDONNAIS,
    N_CARDS,
    N_KINDS,
    OUTLAW,
    PANIC,
    RENEGADE,
    SALOON,
    SHERIFF,
    SID_KETCHUM,
    SIDE_LAW,
    SIDE_OUTLAWS,
    SIDE_RENEGADE,
    SLAB_THE_KILLER,
    STAGECOACH,
    WELLS_FARGO,
)  # fmt: skip
from cardsim.sims.bang.characters import (
    bang_card,
    dodge_card,
    dodges_in_hand,
    draw_phase,
    sid_heal,
    suzy_refill,
)  # fmt: skip
from cardsim.sims.bang.decisions import (
    choose_discard,
    choose_store_card,
    choose_two_to_discard,
    effective_kind,
)  # fmt: skip
from cardsim.sims.bang.policies import (
    SID_ABILITY,
)  # fmt: skip
from cardsim.sims.bang.state import (
    ALIVE,
    CHAR,
    CHECK_BARREL,
    CHECK_DYNAMITE,
    CHECK_JAIL,
    G_BANGS,
    G_CURRENT,
    G_PLAYERS,
    G_TURNS,
    G_VULTURE,
    G_WINNER,
    HOLDER,
    KILLER,
    LIFE,
    MAX_LIFE,
    OUT_TURN,
    PICKS,
    REVEALED,
    ROLE,
    TABLE,
    Z_HAND,
    Z_TABLE,
    ZONE,
    alive_count,
    draw_check,
    draw_to_hand,
    find_in_hand,
    hand_count,
    next_alive,
    pop_deck,
    random_hand_card,
    record_attack,
    to_discard,
    to_hand,
    to_table,
)  # fmt: skip
from cardsim.sims.core.jit import kernel

# ---------------------------------------------------------------- life, death and the end


@kernel(refcounts=False)
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


@kernel(refcounts=False)
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


@kernel(refcounts=False)
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
    shown = s[PICKS : PICKS + k]
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


@kernel(refcounts=False)
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


# ---------------------------------------------------------------- the turn's frame


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


@kernel(refcounts=False)
def begin_turn(s, rng, p):
    """The start of p's turn (seed 003): draw! checks (Dynamite first, then Jail) and the draw
    phase. True if p goes on to play cards."""
    s[G_TURNS] += 1
    s[G_CURRENT] = p
    s[G_BANGS] = 0
    if s[TABLE + p * N_KINDS + DYNAMITE] >= 0:
        resolve_dynamite(s, rng, p)
        if s[ALIVE + p] == 0 or s[G_WINNER] >= 0:
            return False
    if s[TABLE + p * N_KINDS + JAIL] >= 0:
        if not resolve_jail(s, rng, p):
            return False
    draw_phase(s, rng, p)
    suzy_refill(s, rng)
    return True


@kernel(refcounts=False)
def end_turn(s, rng, p):
    """The end of p's turn (seed 003): discard down to the hand limit (= current life), by
    p's bot, unless p is out or the game is over."""
    if s[ALIVE + p] == 0 or s[G_WINNER] >= 0:
        return
    while hand_count(s, p) > s[LIFE + p]:
        to_discard(s, choose_discard(s, rng, p))
    suzy_refill(s, rng)
