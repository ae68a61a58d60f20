"""Bots read only public information and their own hand.

Mid-game states are changed in everything hidden from the deciding seat (other players'
hands, the draw pile's order, which hidden seat holds which hidden role) while the public
record stays as it was; every bot must then decide exactly as before. A deliberately leaky
policy (one that peeks at hands) must be caught by the same check.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E

Decide = Callable[[np.ndarray, int], tuple]


def mid_game_states(bot: int, players: int, n_games: int = 12) -> list[tuple[np.ndarray, int]]:
    """(state, seat about to decide) pairs after 4..30 turns of ``bot`` games."""
    rng = np.random.default_rng(players * 10 + bot)
    found = []
    for _ in range(n_games):
        s = E.setup_game(players, np.full(4, bot), E.DEFAULT_PARAMS, 1000, rng)
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
    players with hidden roles (other than p) swap roles."""
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
    hidden = [q for q in range(int(s.g[E.G_PLAYERS]))
              if q != p and s.alive[q] == 1 and s.revealed[q] == 0]
    if len(hidden) >= 2:
        a, b = rng.choice(hidden, 2, replace=False)
        s.role[a], s.role[b] = s.role[b], s.role[a]
    assert E.invariant_error(s.state) == 0
    return s.state


def bot_decisions(state: np.ndarray, p: int) -> tuple:
    """Everything seat p's bot decides on this state (same random stream for both copies)."""
    play = E.choose_action(state.copy(), np.random.default_rng(1), p)
    discard = E.choose_discard(state.copy(), np.random.default_rng(2), p)
    return tuple(int(x) for x in play), int(discard)


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


@pytest.mark.parametrize("bot", [C.BOT_ROLE, C.BOT_NAIVE, C.BOT_RANDOM])
@pytest.mark.parametrize("players", [4, 7])
def test_decisions_ignore_hidden_cards_and_roles(bot: int, players: int) -> None:
    states = mid_game_states(bot, players)
    assert len(states) > 50
    assert changed_decisions(bot_decisions, states) == 0


def test_a_leaky_policy_is_caught() -> None:
    states = mid_game_states(C.BOT_ROLE, 7)
    assert changed_decisions(leaky_decisions, states) > 0


def test_view_holds_no_hidden_role_or_hand() -> None:
    """The view shows the Sheriff's, the dead's and one's own role, other hands only as
    counts."""
    state, p = mid_game_states(C.BOT_ROLE, 7, n_games=1)[0]
    s = E.StateView(state)
    v = E.public_view(state.copy(), p)
    from cardsim.sims.bang import view as V

    for q in range(7):
        shown = v[V.V_ROLE + q]
        public = q == p or s.revealed[q] == 1
        assert shown == (s.role[q] if public else -1)
        assert v[V.V_HAND_COUNT + q] == s.hand[q, C.N_KINDS]
    mine = sorted(c for c in range(C.N_CARDS) if s.zone[c] == E.Z_HAND and s.holder[c] == p)
    assert list(v[V.V_MY_CARDS : V.V_MY_CARDS + v[V.V_HAND_N]]) == mine


def hidden_info_check(seed: int) -> int:
    """The game declaration's hidden-information hook (``hidden_info_check``, run by the
    generic contract test): role bots at 4 players, a few games; asserts no decision changes
    when the deciding seat's hidden part is changed and returns the states compared (the games
    come from :func:`mid_game_states`' own stream, so ``seed`` is not used)."""
    states = mid_game_states(C.BOT_ROLE, 4, n_games=3)
    assert changed_decisions(bot_decisions, states) == 0
    return len(states)
