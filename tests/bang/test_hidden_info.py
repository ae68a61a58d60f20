"""Bots read only public information and their own hand.

Mid-game states are changed in everything hidden from the deciding seat (other players'
hands, the draw pile's order, which hidden seat holds which hidden role) while the public
record stays as it was; every bot must then make every decision exactly as before: its play,
its end-of-turn discard, a General Store pick, Sid Ketchum's two discards and the draw-phase
choices of Jesse Jones, Kit Carlson and Pedro Ramirez (each asked of every seat, whatever its
character: the bots' choice does not depend on who is allowed to make it). Deliberately leaky
policies (one that peeks at hands, one whose Pedro Ramirez reads the hidden top of the draw
pile) must be caught by the same check (:mod:`cardsim.sims.bang.checks`, the game contract's
check, holds the swap). The search bot's posterior over the other seats' policies is checked
the same way: its update for another seat's public play must not change when everything hidden
from the observing seat does (the actor's hand and role included), and a leaky update is
caught. A user strategy's seat (:mod:`cardsim.sims.bang.strategy`)
is checked the same way: the typed View and legal choices it is given for every decision must
not change, and a user strategy that reads the state behind the View's back is caught.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from cardsim.sims.bang import strategy as S
from cardsim.sims.bang.checks import (
    bot_decisions,
    changed_decisions,
    hide_differently,
    leaky_decisions,
    mid_game_states,
    strategy_decisions,
    user_decisions,
    with_cards,
)
from cardsim.sims.bang.policies import card_worth

Decide = Callable[[np.ndarray, int], tuple]


def leaky_pedro_decisions(state: np.ndarray, p: int) -> tuple:
    """A cheat in the draw phase: Pedro Ramirez takes the discard pile's top card when the
    hidden top card of the draw pile is worth less to him (it reads the draw pile)."""
    decisions = bot_decisions(state, p)
    s = E.StateView(state)
    if s.g[E.G_DISCARD_N] == 0 or s.g[E.G_DECK_N] == 0:
        return decisions
    view = E.public_view(state.copy(), p)
    params = s.params[p]
    deck_top = int(s.deck[s.g[E.G_DECK_N] - 1])
    discard_top = int(s.discard[s.g[E.G_DISCARD_N] - 1])
    take = card_worth(view, params, discard_top) > card_worth(view, params, deck_top)
    return (*decisions[:-1], bool(take))


@pytest.mark.parametrize(
    "bot", [C.BOT_ROLE, C.BOT_NAIVE, C.BOT_RANDOM, C.BOT_TUNED, C.BOT_ROLE2, C.BOT_TUNED2, C.BOT_SEARCH]
)
@pytest.mark.parametrize("players", [4, 7])
def test_decisions_ignore_hidden_cards_and_roles(bot: int, players: int) -> None:
    states = mid_game_states(bot, players, SEARCH_GAMES if bot == C.BOT_SEARCH else 12)
    assert len(states) > 50
    assert changed_decisions(bot_decisions, states) == 0


#: games sampled for the search bot: it leaves its rollout policy's choice rarely, so it takes
#: more states than the other bots' 12 games to include plays it changed
SEARCH_GAMES = 24


def test_search_decisions_were_searched() -> None:
    """The search bot's states above include plays it searched and changed: its plays differ
    from its rollout policy's on some of them (so the check above covers the search)."""
    states = mid_game_states(C.BOT_SEARCH, 7, SEARCH_GAMES)
    differ = 0
    for state, p in states:
        searched = E.turn_action(state.copy(), np.random.default_rng(1), p)
        plain = E.choose_action(state.copy(), np.random.default_rng(1), p)
        differ += tuple(searched) != tuple(plain)
    assert differ > 0


def test_held_fire_was_searched() -> None:
    """The search bot's states above include a BANG! its rollout policy held back and the
    search fired (so the check above covers that decision too; it leaves the policy's held
    fire rarely: a few times among the 7-player states)."""
    states = mid_game_states(C.BOT_SEARCH, 7, SEARCH_GAMES)
    fired = 0
    for state, p in states:
        plain = E.choose_action(state.copy(), np.random.default_rng(1), p)
        if plain[0] != -1:
            continue
        searched = E.turn_action(state.copy(), np.random.default_rng(1), p)
        fired += searched[0] >= 0 and C.CARD_KIND[searched[0]] == C.BANG
    assert fired > 0


def test_mass_attacks_were_searched() -> None:
    """The search bot's states above include plays where its rollout policy fires a Gatling or
    Indians! (the search weighs it against ending the play phase), so the check above covers
    that decision too."""
    mass = 0
    for players in (4, 7):
        for state, p in mid_game_states(C.BOT_SEARCH, players, SEARCH_GAMES):
            plain = E.choose_action(state.copy(), np.random.default_rng(1), p)
            mass += plain[0] >= 0 and C.CARD_KIND[plain[0]] in (C.GATLING, C.INDIANS)
    assert mass > 0


def test_balancing_renegade_decisions_were_checked() -> None:
    """The role2 states above include Renegade plays the balancing rule decides: with
    ``renegade_law_life``, ``renegade_base`` and ``renegade_revenge`` off (the two-rule
    Renegade) they differ on some of them (so the check above covers the new rule and each of
    its parameters)."""
    from cardsim.sims.bang.policies import P_REN_BASE, P_REN_LAW_LIFE, P_REN_REVENGE

    for index in (P_REN_LAW_LIFE, P_REN_BASE, P_REN_REVENGE):
        differ = 0
        for players in (4, 7):
            for state, p in mid_game_states(C.BOT_ROLE2, players):
                if E.StateView(state).role[p] != C.RENEGADE:
                    continue
                off = state.copy()
                E.StateView(off).params[p, index] = 0.0
                rule = E.turn_action(state.copy(), np.random.default_rng(1), p)
                plain = E.turn_action(off, np.random.default_rng(1), p)
                differ += tuple(rule) != tuple(plain)
        assert differ > 0, index


# ---------------------------------------------------------------- the search bot's posterior


def loglik_table(state: np.ndarray) -> np.ndarray:
    """The public log-likelihood table of the population (seats x members x roles)."""
    from cardsim.sims.bang.state import MAX_MEMBERS, POP_LOGLIK

    block = state[POP_LOGLIK : POP_LOGLIK + E.MAX_SEATS * MAX_MEMBERS * 4]
    return block.view(np.float64).reshape(E.MAX_SEATS, MAX_MEMBERS, 4).copy()


def observed_plays(state: np.ndarray, p: int) -> list[tuple[int, int, int]]:
    """(actor, card, target) plays the posterior reads, one per other living seat: each
    seat's own bot's next play on this state where it is aimed or a Gatling/Indians!."""
    plays = []
    view = E.StateView(state)
    for q in range(int(view.g[E.G_PLAYERS])):
        if q == p or view.alive[q] == 0:
            continue
        c, t, _ = E.choose_action(state.copy(), np.random.default_rng(q), q)
        if c >= 0 and (t >= 0 or C.CARD_KIND[c] in (C.GATLING, C.INDIANS)):
            plays.append((q, int(c), int(t)))
    return plays


def posterior_updates(plays: list[tuple[int, int, int]]) -> Decide:
    """The likelihood table after each of ``plays`` is observed on a state (seen by seat p)."""

    def decide(state: np.ndarray, p: int) -> tuple:
        tables = []
        for q, c, t in plays:
            s = state.copy()
            E.observe_play(s, q, c, t)
            tables.append(loglik_table(s).tobytes())
        return tuple(tables)

    return decide


def leaky_posterior_updates(plays: list[tuple[int, int, int]]) -> Decide:
    """A cheat: the update above plus a bonus for the actor's true role (a hidden fact)."""
    honest = posterior_updates(plays)

    def decide(state: np.ndarray, p: int) -> tuple:
        tables = []
        for q, c, t in plays:
            s = state.copy()
            E.observe_play(s, q, c, t)
            table = loglik_table(s)
            table[q, :, int(s[E.ROLE + q])] += 0.5
            tables.append(table.tobytes())
        return honest(state, p) + tuple(tables)

    return decide


@pytest.mark.parametrize("players", [5, 7])
def test_posterior_reads_only_public_plays(players: int) -> None:
    """The search bot's posterior update for another seat's play (its likelihood under each
    member and role) does not change when everything hidden from the observing seat does,
    the actor's own hand and role included; a leaky update is caught."""
    states = mid_game_states(C.BOT_SEARCH, players, 8)
    rng = np.random.default_rng(11)
    changed = leaked = checked = 0
    for state, p in states:
        plays = observed_plays(state, p)
        if not plays:
            continue
        honest, leaky = posterior_updates(plays), leaky_posterior_updates(plays)
        before, before_leaky = honest(state, p), leaky(state, p)
        checked += len(plays)
        for _ in range(3):
            other = hide_differently(state, p, rng)
            changed += honest(other, p) != before
            leaked += leaky(other, p) != before_leaky
    assert checked > 50
    assert changed == 0
    assert leaked > 0


def test_posterior_moves_and_is_used() -> None:
    """The likelihood table of the search games above is not all zeros (plays were read), and
    the search bot's play differs with and without its posterior on some states (so the swap
    check of its decisions covers the posterior's use)."""
    states = mid_game_states(C.BOT_SEARCH, 7, SEARCH_GAMES)
    assert all(np.any(loglik_table(state) != 0) for state, _ in states)
    differ = 0
    for state, p in states:
        off = state.copy()
        off[E.POP] = 0
        with_posterior = E.turn_action(state.copy(), np.random.default_rng(1), p)
        without = E.turn_action(off, np.random.default_rng(1), p)
        differ += tuple(with_posterior) != tuple(without)
    assert differ > 0


def test_a_leaky_policy_is_caught() -> None:
    states = mid_game_states(C.BOT_ROLE, 7)
    assert changed_decisions(leaky_decisions, states) > 0


def test_a_leaky_draw_phase_policy_is_caught() -> None:
    states = mid_game_states(C.BOT_ROLE, 7)
    assert changed_decisions(leaky_pedro_decisions, states) > 0


def test_every_decision_is_asked() -> None:
    """The check above reaches each decision: on these states the store pick, Kit's card, Sid's
    discards and Pedro's choice are all made (not left at their placeholders)."""
    states = mid_game_states(C.BOT_ROLE, 7)
    decisions = [bot_decisions(state, p) for state, p in states]
    assert sum(d[2] >= 0 and d[3] >= 0 for d in decisions) > 0.9 * len(decisions)
    assert {0, 1, 2} <= {d[2] for d in decisions} and {0, 1, 2} <= {d[3] for d in decisions}
    assert any(d[4] != (-1, -1) for d in decisions)
    assert {d[6] for d in decisions} == {False, True}


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


# ---------------------------------------------------------------- a user strategy's view


def test_a_user_view_ignores_hidden_cards_and_roles() -> None:
    """The View and legal choices a user strategy gets, for each of the seven decisions, and
    the engine's answers do not change when the seat's hidden part does."""
    states = with_cards(mid_game_states(C.BOT_ROLE, 7) + mid_game_states(C.BOT_ROLE, 5))
    assert len(states) > 100
    assert changed_decisions(user_decisions, states) == 0
    asked = {name for state, p in states[:40] for name, _, _ in user_decisions(state, p)[1]}
    assert asked == set(S.DECISIONS)


@pytest.mark.parametrize("players", [5, 7])
def test_a_leaky_user_strategy_is_caught(players: int) -> None:
    """The cheat aims at whoever holds fewest Missed!: caught at every table size (an END or
    other untargeted play never reads a hand, so a seat the table lacks cannot hide it)."""
    states = with_cards(mid_game_states(C.BOT_ROLE, players))
    assert changed_decisions(lambda s, p: user_decisions(s, p, leaky=True), states) > 0


def row_reading_decisions(state: np.ndarray, p: int) -> tuple:
    """A cheat through the parameter rows: the role bot's decisions, plus the seat it would
    aim at: the first other living seat whose parameter row is an Outlaw's. The deal sets each
    seat's row from its role, so the row tells the hidden role."""
    view = E.StateView(state)
    outlaw_row = E.DEFAULT_PARAMS[C.OUTLAW]
    suspects = [
        q
        for q in range(int(view.g[E.G_PLAYERS]))
        if q != p and view.alive[q] == 1 and np.array_equal(view.params[q], outlaw_row)
    ]
    return bot_decisions(state, p), suspects[0] if suspects else -1


def test_a_policy_reading_roles_through_parameter_rows_is_caught() -> None:
    """The swap moves each seat's parameter row with its role, so a policy that reads another
    seat's role through its row changes its decisions (swapping the roles alone left it
    unchanged)."""
    states = mid_game_states(C.BOT_ROLE, 7)
    assert changed_decisions(row_reading_decisions, states) > 0


EXAMPLE_STYLES = [
    f"{Path(__file__).resolve().parents[2] / 'examples' / 'strategies' / name}"
    for name in (
        "bang_unseen.py:HunterOutlaw",
        "bang_unseen.py:GrudgeOutlaw",
        "bang_unseen.py:LoyalRenegade",
        "bang_unseen.py:LongOutlaw3",
        "bang_unseen.py:Mixed",
        "bang_styles.py:LongOutlaw",
        "bang_styles.py:WildRenegade",
    )
]


@pytest.mark.parametrize("spec", EXAMPLE_STYLES, ids=lambda spec: spec.rpartition("/")[2])
def test_the_outside_styles_read_only_the_public_view(spec: str) -> None:
    """Every decision of the outside styles the search is measured against, asked through the
    engine's door in mid-game 5-player states of the tuned bots, stays the same when the seat's
    hidden part changes (the leaky control above is caught by the same kit)."""
    from cardsim.sims.core.user_strategy import load_strategy

    strategy = load_strategy(spec)
    states = with_cards(mid_game_states(C.BOT_TUNED, 5, n_games=4))
    assert len(states) > 30
    assert changed_decisions(lambda s, p: strategy_decisions(strategy, spec, s, p, C.BOT_TUNED), states) == 0
