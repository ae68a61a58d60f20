"""Bang!'s checks in the game contract (:mod:`cardsim.testing`): bots read only public
information and their own hand, and the compiled kernel plays as the interpreted rules do.

Mid-game states are changed in everything hidden from the deciding seat (other players'
hands, the draw pile's order, which hidden seat holds which hidden role) while the public
record stays as it was; every bot must then make every decision exactly as before: its play,
its end-of-turn discard, a General Store pick, Sid Ketchum's two discards and the draw-phase
choices of Jesse Jones, Kit Carlson and Pedro Ramirez (each asked of every seat, whatever its
character: the bots' choice does not depend on who is allowed to make it). A user strategy's
seat (:mod:`cardsim.sims.bang.strategy`) is checked the same way through the typed View and the
legal choices it is given. ``tests/bang/test_hidden_info.py`` runs the same check over every bot
and player count and catches more leaky policies.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from cardsim.sims.bang import strategy as S
from cardsim.sims.bang.simulator import POPULATION, bot_params, population_tables
from cardsim.sims.bang.usercall import install
from cardsim.sims.core.game import HiddenInfoResult

#: a policy as the check sees it: everything seat p decides on a state
Decide = Callable[[np.ndarray, int], tuple]


def mid_game_states(bot: int, players: int, n_games: int = 12) -> list[tuple[np.ndarray, int]]:
    """(state, seat about to decide) pairs after 4..30 turns of ``bot`` games."""
    rng = np.random.default_rng(players * 10 + bot)
    params = E.DEFAULT_PARAMS
    if bot in (C.BOT_TUNED, C.BOT_ROLE2, C.BOT_TUNED2, C.BOT_SEARCH):
        params = bot_params(C.BOT_NAMES[bot], players)
    population = population_tables(list(POPULATION), players) if bot == C.BOT_SEARCH else None
    found = []
    for _ in range(n_games):
        s = E.setup_game(players, np.full(4, bot), params, 1000, rng)
        if population is not None:  # the search bot with its posterior over the population
            E.set_population(s, *population)
        p = 0
        for turn in range(30):
            if s[E.G_WINNER] >= 0:
                break
            if s[E.ALIVE + p] == 1:
                E.take_turn(s, rng, p)
            p = (p + 1) % players
            if turn >= 4 and s[E.G_WINNER] < 0 and s[E.ALIVE + p] == 1:
                found.append((s.copy(), p))
    return found


def hide_differently(state: np.ndarray, p: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` that differs only in what seat p cannot see: the draw pile is
    reshuffled, other players' hand cards are swapped with draw-pile cards, and two living
    players with hidden roles (other than p) swap roles, with the bot and the parameter row
    the deal gave each seat from its role (a decision that read another seat's row would read
    its role)."""
    s = E.StateView(state.copy())
    deck_n = int(s.g[E.G_DECK_N])
    for q in range(int(s.g[E.G_PLAYERS])):
        if q == p or s.alive[q] == 0 or deck_n == 0:
            continue
        for c in [c for c in range(C.N_CARDS) if s.zone[c] == E.Z_HAND and s.holder[c] == q]:
            if rng.random() < 0.7:
                i = int(rng.integers(deck_n))
                d = int(s.deck[i])
                E.move(s.state, d, E.Z_HAND, q)
                E.move(s.state, c, E.Z_DECK, -1)
                s.deck[i] = c
    s.deck[:deck_n] = rng.permutation(s.deck[:deck_n])
    hidden = [q for q in range(int(s.g[E.G_PLAYERS])) if q != p and s.alive[q] == 1 and s.revealed[q] == 0]
    if len(hidden) >= 2:
        a, b = rng.choice(hidden, 2, replace=False)
        s.role[a], s.role[b] = s.role[b], s.role[a]
        # what the deal set from the roles moves with them: each seat's bot and parameter row
        s.bot[a], s.bot[b] = s.bot[b], s.bot[a]
        s.params[[a, b]] = s.params[[b, a]]
    assert E.invariant_error(s.state) == 0
    return s.state


def public_cards(state: np.ndarray, k: int) -> np.ndarray:
    """``k`` cards every seat has seen (the bottom of the discard pile; -1 padded), to stand
    for the cards a General Store shows or Kit Carlson looks at."""
    s = E.StateView(state)
    shown = np.full(k, -1, np.int64)
    n = min(k, int(s.g[E.G_DISCARD_N]))
    shown[:n] = s.discard[:n]
    return shown


def bot_decisions(state: np.ndarray, p: int) -> tuple:
    """Everything seat p's bot decides on this state (same random streams for both copies):
    play, end-of-turn discard, General Store pick, Sid Ketchum's discards, Jesse Jones's
    source, Kit Carlson's returned card and Pedro Ramirez's choice."""
    play = E.turn_action(state.copy(), np.random.default_rng(1), p)
    discard = E.choose_discard(state.copy(), np.random.default_rng(2), p)
    shown = public_cards(state, 3)
    store = kit = -1
    if shown[2] >= 0:
        store = E.choose_store_card(state.copy(), np.random.default_rng(3), p, shown.copy(), 3)
        kit = E.choose_kit_return(state.copy(), np.random.default_rng(4), p, shown.copy())
    sid = (-1, -1)
    if E.hand_count(state, p) >= 2:
        sid = E.choose_two_to_discard(state.copy(), np.random.default_rng(5), p)
    jesse = E.choose_jesse_source(state.copy(), np.random.default_rng(6), p)
    pedro = False
    if E.StateView(state).g[E.G_DISCARD_N] > 0:
        pedro = E.choose_pedro_discard(state.copy(), np.random.default_rng(7), p)
    return (
        tuple(int(x) for x in play),
        int(discard),
        int(store),
        int(kit),
        tuple(int(x) for x in sid),
        int(jesse),
        bool(pedro),
    )


def leaky_decisions(state: np.ndarray, p: int) -> tuple:
    """A cheat: the bot's play, but aimed at whoever holds fewest Missed! (a hidden fact)."""
    play = bot_decisions(state, p)
    view = E.StateView(state)
    living = [q for q in range(int(view.g[E.G_PLAYERS])) if q != p and view.alive[q] == 1]
    softest = min(living, key=lambda q: (int(view.hand[q, C.MISSED]), q))
    return play, softest


def changed_decisions(decide: Decide, states: list[tuple[np.ndarray, int]]) -> int:
    """How many states get a different decision once their hidden part is changed."""
    rng = np.random.default_rng(7)
    changed = 0
    for state, p in states:
        before = decide(state, p)
        for _ in range(3):
            if decide(hide_differently(state, p, rng), p) != before:
                changed += 1
                break
    return changed


def hidden_info_check(seed: int, policy: Decide | None = None) -> HiddenInfoResult:
    """The game declaration's hidden-information hook: role bots at 4 players, a few games;
    counts the states compared and those where a decision changed when the deciding seat's
    hidden part changed, for the bots and for a user strategy's View (``policy``: a
    :data:`Decide` to check instead). The games come from :func:`mid_game_states`' own stream,
    so ``seed`` is not used."""
    states = mid_game_states(C.BOT_ROLE, 4, n_games=3)
    if policy is not None:
        return HiddenInfoResult(len(states), changed_decisions(policy, states))
    users = with_cards(states)
    changed = changed_decisions(bot_decisions, states) + changed_decisions(user_decisions, users)
    return HiddenInfoResult(len(states) + len(users), changed)


#: the declared leaky policy the check must catch: the role bot's decisions, plus a target
#: read from the hands (whoever holds fewest Missed!)
LEAKY_POLICY = leaky_decisions


# ---------------------------------------------------------------- a user strategy's view


class Recorder:
    """A user strategy that records every (decision, view, legal) it is asked and answers
    with the first legal choice (``leak``: a cheat that reads the state the test decides on
    and aims at whoever holds fewest Missed!, a hidden fact)."""

    def __init__(self, leak: np.ndarray | None = None) -> None:
        self.seen: list[tuple] = []
        self.leak = leak
        for name in S.DECISIONS:
            setattr(self, name, self._method(name))

    def _method(self, name: str):
        def method(view, legal):
            self.seen.append((name, view, legal))
            aimed = [play for play in legal if play.target >= 0] if name == "play" else []
            if self.leak is not None and aimed:
                hands = E.StateView(self.leak).hand
                return min(aimed, key=lambda play: (int(hands[play.target, C.MISSED]), play))
            return legal[0]

        return method


def strategy_decisions(strategy: object, name: str, state: np.ndarray, p: int, fallback: int = C.BOT_ROLE) -> tuple:
    """Seat p made a user seat playing ``strategy`` (decisions it leaves out: built-in bot
    ``fallback``): every decision of :func:`bot_decisions`, asked through the engine's own door."""
    state = state.copy()
    state[E.BOT + p] = C.BOT_USER + fallback
    previous = install(S.UserSeat(strategy, name, int(state[E.ROLE + p])))
    try:
        return bot_decisions(state, p)
    finally:
        install(previous)


def user_decisions(state: np.ndarray, p: int, leaky: bool = False) -> tuple:
    """Seat p made a user seat (fallback: the role bot): every decision of
    :func:`bot_decisions`, asked of the strategy through the engine's own door, as the views
    and legal choices it was given and the answers the engine took."""
    recorder = Recorder(state if leaky else None)
    return strategy_decisions(recorder, "recorder", state, p), tuple(recorder.seen)


def with_cards(states: list[tuple[np.ndarray, int]]) -> list[tuple[np.ndarray, int]]:
    """The states whose deciding seat holds cards (the engine never asks an empty hand for
    its end-of-turn discard, and a user strategy has no legal answer there)."""
    return [(s, p) for s, p in states if E.hand_count(s, p) > 0]


# ---------------------------------------------------------------- the reference


def reference_check(seed: int) -> int:
    """The game declaration's reference hook (``reference_check``, run by the generic contract
    test): the compiled kernel against the same rules interpreted by Python, a few 4-player
    games; returns how many games it compared."""
    from cardsim.sims.bang.reference import interpreted_engine

    slow = interpreted_engine()
    bots = np.array([1, 1, 1, 1])
    fast_rows = E.play_games(3, 4, bots, E.DEFAULT_PARAMS, 1000, np.random.default_rng(seed), True)
    slow_rows = slow.play_games(3, 4, bots, slow.DEFAULT_PARAMS, 1000, np.random.default_rng(seed), True)
    for a, b in zip(fast_rows, slow_rows, strict=True):
        assert np.array_equal(a, b)
    return 3
