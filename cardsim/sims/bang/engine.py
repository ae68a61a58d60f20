"""Bang! as numba kernels: the turn loop and whole games, over the rules in sibling modules.

Every rule is a small ``@kernel`` function over the flat state array ``s``; the docstring of
each names its source: ``seed 003`` is ``../shared/seeds/003_b860e9a67841a34d.txt``,
``published`` the dV Giochi base-game rules and cards (see ``seeds/bang.md`` for the readings
chosen). By concern: :mod:`~cardsim.sims.bang.state` (layout, dealing, card movement, geometry,
draw! checks), :mod:`~cardsim.sims.bang.decisions` (legal plays, the public view, the door to
the bots), :mod:`~cardsim.sims.bang.characters` (abilities, the draw phase),
:mod:`~cardsim.sims.bang.rules` (life and death, shots, the cards) and this module (the turn,
the invariants, the game and the batch kernels). This module re-exports the names of the others,
so ``engine.X`` reaches every rule. All randomness comes from the numpy Generator passed in
(numba supports ``Generator`` objects).

Decisions are the bots' (:mod:`cardsim.sims.bang.policies`): at each one the engine fills the
public view (:func:`~cardsim.sims.bang.decisions.public_view`, layout in
:mod:`cardsim.sims.bang.view`) and hands it with the seat's parameters to the policy, which
never sees the state itself.

numba's on-disk cache only notices edits to the file that holds a function, and these
modules' kernels compile each other and the policies into themselves;
:func:`cardsim.sims.core.jit.drop_stale_cache` (called by ``@kernel``) therefore clears the
package's cache whenever any of its sources changed.

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

Reference counting: numba counts every array a kernel takes or views with an atomic add and
subtract, which in this game of small kernels cost more than the rules. Every rule, policy
and rollout kernel is therefore ``@kernel(refcounts=False)`` and allocates nothing: the
scratch it needs lives in the state (``VIEW``, ``ACTS``, ``PICKS``, ``SUSPECT``), and a
function that returns a view into the state (:func:`public_view`, :func:`seat_params`) is
inlined into its caller. Only the batch kernel's frame (the deal and the turn loop, which calls
the start of a turn, the bots' plays and the end of a turn as kernels), the search bot's
decision (:func:`~cardsim.sims.bang.search.search_play` with its sampled worlds) and
:func:`invariant_error` count references, a few times a turn. A kernel the others call
cannot allocate either (numba compiles it under its caller's setting), and says
``refcounts=False`` so that callers which count skip the counts inside it too.

:func:`play_focus_batch` is the one batch kernel every command compiles;
:func:`play_focus_games` hands it one argument type per argument whatever the caller passes.
``cardsim bench compile --profile`` shows the cost per kernel.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.bang.cards import (  # noqa: F401
    BANG,
    BARREL,
    BART_CASSIDY,
    BEER,
    BLACK_JACK,
    BOT_RANDOM,
    BOT_SEARCH,
    CALAMITY_JANET,
    CARD_KIND,
    CARD_RANK,
    CARD_SUIT,
    CAT_BALOU,
    CHARACTER_LIFE,
    COLT_REACH,
    DEPUTY,
    DIAMONDS,
    DUEL,
    DYNAMITE,
    EL_GRINGO,
    FIRST_BLUE,
    FIRST_WEAPON,
    GATLING,
    GENERAL_STORE,
    HEARTS,
    INDIANS,
    JAIL,
    JESSE_JONES,
    JOURDONNAIS,
    KIT_CARLSON,
    LUCKY_DUKE,
    MISSED,
    MUSTANG,
    N_CARDS,
    N_CHARACTERS,
    N_KINDS,
    OUTLAW,
    PANIC,
    PAUL_REGRET,
    PEDRO_RAMIREZ,
    RENEGADE,
    ROLES_BY_PLAYERS,
    ROSE_DOOLAN,
    SALOON,
    SCOPE,
    SHERIFF,
    SID_KETCHUM,
    SIDE_LAW,
    SIDE_NONE,
    SIDE_OUTLAWS,
    SIDE_RENEGADE,
    SLAB_THE_KILLER,
    SPADES,
    STAGECOACH,
    SUZY_LAFAYETTE,
    VOLCANIC,
    VULTURE_SAM,
    WEAPON_REACH,
    WELLS_FARGO,
    WILLY_THE_KID,
)  # fmt: skip
from cardsim.sims.bang.characters import (  # noqa: F401
    bang_card,
    dodge_card,
    dodges_in_hand,
    draw_phase,
    sid_heal,
    suzy_refill,
)  # fmt: skip
from cardsim.sims.bang.decisions import (  # noqa: F401
    choose_action,
    choose_discard,
    choose_jesse_source,
    choose_kit_return,
    choose_pedro_discard,
    choose_store_card,
    choose_two_to_discard,
    effective_kind,
    fill_view,
    legal_actions,
    public_view,
    push_action,
    push_take_options,
)  # fmt: skip
from cardsim.sims.bang.policies import (  # noqa: F401
    NO_ACTION,
    ROW_WIDTH,
    SID_ABILITY,
    default_params,
    pick_discard,
    pick_jesse_source,
    pick_kit_return,
    pick_pedro_discard,
    pick_store_card,
    pick_two_to_discard,
    rand_below,
    random_play,
    scripted_play,
)
from cardsim.sims.bang.posterior import observe_play, set_population
from cardsim.sims.bang.rules import (  # noqa: F401
    apply_action,
    begin_turn,
    check_end,
    discard_everything,
    eliminate,
    end_turn,
    lose_life,
    play_bang,
    play_beer,
    play_cat_balou,
    play_duel,
    play_equipment,
    play_gatling,
    play_general_store,
    play_indians,
    play_jail,
    play_panic,
    play_saloon,
    play_stagecoach,
    play_wells_fargo,
    resolve_dynamite,
    resolve_jail,
    resolve_shot,
    save_from_death,
    take_card_from,
)  # fmt: skip
from cardsim.sims.bang.search import copy_state, search_play
from cardsim.sims.bang.state import (  # noqa: F401
    ACTS,
    ALIVE,
    ATTACKS,
    BOT,
    CHAR,
    CHECK_BARREL,
    CHECK_DYNAMITE,
    CHECK_JAIL,
    DECK,
    DEFAULT_PARAM_BITS,
    DEFAULT_PARAMS,
    DISCARD,
    G_BANGS,
    G_CURRENT,
    G_DECK_N,
    G_DISCARD_N,
    G_MAX_TURNS,
    G_PLAYERS,
    G_RESHUFFLES,
    G_SIZE,
    G_SUZY,
    G_TURNS,
    G_VULTURE,
    G_WINNER,
    HAND,
    HAND_WIDTH,
    HOLDER,
    KILLER,
    LIFE,
    MAX_ACTIONS,
    MAX_ACTIONS_PER_TURN,
    MAX_LIFE,
    MAX_SEATS,
    OUT_TURN,
    PARAMS,
    PICKS,
    POP,
    REVEALED,
    ROLE,
    ROLLOUT,
    SEARCH,
    SEARCH_BUDGET,
    SEARCH_HORIZON,
    STATE_SIZE,
    SUSPECT,
    TABLE,
    VIEW,
    Z_DECK,
    Z_DISCARD,
    Z_HAND,
    Z_LIMBO,
    Z_TABLE,
    ZONE,
    StateView,
    alive_count,
    blank_state,
    can_shoot,
    check_succeeds,
    count_in_hand,
    deal_roles,
    distance,
    draw_check,
    draw_to_hand,
    find_in_hand,
    hand_count,
    may_bang_again,
    move,
    next_alive,
    pop_deck,
    random_hand_card,
    record_attack,
    reshuffle,
    seat_distance,
    seat_params,
    set_seat_params,
    setup_game,
    shuffle_prefix,
    suspect_scratch,
    table_count,
    to_deck_top,
    to_discard,
    to_hand,
    to_table,
    weapon_reach,
)  # fmt: skip
from cardsim.sims.bang.view import (  # noqa: F401
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
def turn_action(s, rng, p):
    """p's next play: the search bot's search (:mod:`cardsim.sims.bang.search`), every other
    bot's :func:`~cardsim.sims.bang.decisions.choose_action`."""
    if s[BOT + p] == BOT_SEARCH:
        return search_play(s, rng, p)
    return choose_action(s, rng, p)


@kernel(inline="always")
def take_turn(s, rng, p):
    """One turn (seed 003): draw! checks (Dynamite first, then Jail), draw, play any number of
    cards, then discard down to the hand limit (= current life). Each play is first added to
    the public record a search bot's posterior reads (:func:`observe_play`)."""
    if not begin_turn(s, rng, p):
        return
    for _ in range(MAX_ACTIONS_PER_TURN):
        if s[ALIVE + p] == 0 or s[G_WINNER] >= 0:
            return
        c, t, which = turn_action(s, rng, p)
        if c == -1:
            break
        observe_play(s, p, c, t)
        apply_action(s, rng, p, c, t, which)
    end_turn(s, rng, p)


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


def play_games(n_games, n_players, bots_by_role, params_by_role, max_turns, rng, check_every_turn):
    """Play n_games independent games; one row of results per game. ``params_by_role``: one
    row of bot parameters per role (see :mod:`cardsim.sims.bang.policies`). Plain Python over
    the one batch kernel :func:`play_focus_batch` (no focus seat), so every command compiles
    and caches that kernel alone."""
    return play_focus_games(
        n_games,
        n_players,
        bots_by_role,
        params_by_role,
        -1,
        0,
        params_by_role[0],
        max_turns,
        rng,
        rng,
        check_every_turn,
    )


def play_focus_games(
    n_games: int,
    n_players: int,
    bots_by_role: np.ndarray,
    params_by_role: np.ndarray,
    focus_role: int,
    focus_bot: int,
    focus_params: np.ndarray,
    max_turns: int,
    deal_rng: np.random.Generator,
    play_rng: np.random.Generator,
    check_every_turn: bool,
    rollout_params: np.ndarray | None = None,
    search_budget: int = SEARCH_BUDGET,
    search_horizon: int = SEARCH_HORIZON,
    population: tuple[np.ndarray, ...] | None = None,
) -> tuple[np.ndarray, ...]:
    """Play n_games; deals (roles, characters, deck) come from ``deal_rng`` and everything
    after from ``play_rng``, so two runs with equal deal streams play the same deals whatever
    the bots do (common random numbers). With ``focus_role`` >= 0 the first seat of that role
    plays ``focus_bot`` with ``focus_params`` instead of its role's bot. A ``search`` seat plans
    with ``rollout_params`` (per role; default ``params_by_role``), ``search_budget`` rollouts
    per decision and a horizon of ``search_horizon`` turns; with ``population`` (random flags,
    slips, log priors, parameters per member and role: :func:`cardsim.sims.bang.posterior.
    set_population`) it keeps a posterior over the other seats' policies. Returns (winner,
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
    if population is None:
        population = (np.zeros(0, np.int64), np.zeros(0), np.zeros(0), np.zeros((0, 4, ROW_WIDTH)))
    flags, slips, priors, member_params = population
    play_focus_batch(
        n_games,
        int(n_players),
        np.ascontiguousarray(bots_by_role, np.int64),
        np.ascontiguousarray(params_by_role, np.float64),
        int(focus_role),
        int(focus_bot),
        np.ascontiguousarray(focus_params, np.float64),
        int(max_turns),
        deal_rng,
        play_rng,
        bool(check_every_turn),
        np.ascontiguousarray(params_by_role if rollout_params is None else rollout_params, np.float64),
        int(search_budget),
        int(search_horizon),
        np.ascontiguousarray(flags, np.int64),
        np.ascontiguousarray(slips, np.float64),
        np.ascontiguousarray(priors, np.float64),
        np.ascontiguousarray(member_params, np.float64),
        np.zeros(STATE_SIZE, np.int64),
        *results,
    )
    return results


@kernel(inline="always")
def focus_seat(s, role):
    """The first seat dealt ``role`` (-1 if none)."""
    for p in range(s[G_PLAYERS]):
        if s[ROLE + p] == role:
            return p
    return -1


@kernel(inline="always")
def set_search(s, rollout_params, budget, horizon):
    """The search bot's rollout parameters (per role), budget and horizon, into the state."""
    slot = s[ROLLOUT : ROLLOUT + 4 * ROW_WIDTH].view(np.float64)
    for r in range(4):
        for i in range(ROW_WIDTH):
            slot[r * ROW_WIDTH + i] = rollout_params[r, i]
    s[SEARCH] = budget
    s[SEARCH + 1] = horizon


@kernel
def play_focus_batch(
    n_games,
    n_players,
    bots_by_role,
    params_by_role,
    focus_role,
    focus_bot,
    focus_params,
    max_turns,
    deal_rng,
    play_rng,
    check_every_turn,
    rollout_params,
    search_budget,
    search_horizon,
    member_random,
    member_slips,
    member_priors,
    member_params,
    s,
    winner,
    turns,
    roles,
    chars,
    alive,
    life,
    killer,
    out_turn,
    errors,
):
    """The batch kernel of :func:`play_focus_games`: plays the games into its result arrays
    (allocated by the caller: numba compiles each array constructor once per shape and type,
    seconds of a cold first run). Every game is played in ``s``, a state array the caller
    made (a user seat's strategy is handed the state Python made:
    :func:`~cardsim.sims.bang.decisions.user_choice`)."""
    for i in range(n_games):
        copy_state(s, setup_game(n_players, bots_by_role, params_by_role, max_turns, deal_rng))
        if focus_role >= 0:
            seat = focus_seat(s, focus_role)
            s[BOT + seat] = focus_bot
            set_seat_params(s, seat, focus_params)
        set_search(s, rollout_params, search_budget, search_horizon)
        if member_random.shape[0] > 0:
            set_population(s, member_random, member_slips, member_priors, member_params)
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
