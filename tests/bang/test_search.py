"""The search bot and the structural rules of the role2/tuned2 bots."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from cardsim.sims.bang import policies as P
from cardsim.sims.bang import search as S
from cardsim.sims.bang import view as V
from cardsim.sims.bang.compare import compare_rows
from cardsim.sims.bang.simulator import bot_params


@pytest.mark.parametrize("players", [4, 7])
def test_games_with_a_search_seat_keep_every_invariant(players: int) -> None:
    table = bot_params("tuned2", players)
    bots = np.full(4, C.BOT_NAMES.index("tuned2"), dtype=np.int64)
    result = E.play_focus_games(
        6,
        players,
        bots,
        table,
        C.OUTLAW,
        C.BOT_SEARCH,
        table[C.OUTLAW],
        1000,
        np.random.default_rng(1),
        np.random.default_rng(2),
        True,
        rollout_params=table,
        search_budget=8,
        search_horizon=10,
    )
    assert result[-1].max() == 0
    assert set(result[0].tolist()) <= {C.SIDE_LAW, C.SIDE_OUTLAWS, C.SIDE_RENEGADE}


def mid_game(players: int, seed: int) -> tuple[np.ndarray, int]:
    """A state some turns into a role-bot game, and the seat about to play."""
    rng = np.random.default_rng(seed)
    s = E.setup_game(players, np.full(4, C.BOT_ROLE), E.DEFAULT_PARAMS, 1000, rng)
    p = 0
    for _ in range(12):
        if s[E.G_WINNER] >= 0:
            break
        if s[E.ALIVE + p] == 1:
            E.take_turn(s, rng, p)
        p = (p + 1) % players
    while s[E.ALIVE + p] == 0:
        p = (p + 1) % players
    return s, p


@pytest.mark.parametrize("seed", range(6))
def test_a_sampled_world_keeps_what_the_seat_sees(seed: int) -> None:
    """The world a search samples shows its seat the same public view (but for the seat's own
    bot kind), keeps every invariant, and deals the hidden roles the table's role counts."""
    s, p = mid_game(7, seed)
    if s[E.G_WINNER] >= 0:
        pytest.skip("game over early")
    world = np.empty_like(s)
    lean = S.role_leans(E.public_view(s.copy(), p), E.seat_params(s, p))
    S.sample_world(s, np.random.default_rng(seed), p, world, lean)
    assert E.invariant_error(world) == 0
    seen = E.public_view(s.copy(), p).copy()
    sampled = E.public_view(world.copy(), p).copy()
    seen[V.V_BOT] = sampled[V.V_BOT] = 0
    assert np.array_equal(seen, sampled)
    assert sorted(world[E.ROLE : E.ROLE + 7]) == sorted(C.ROLES_BY_PLAYERS[3])


def test_a_player_who_aimed_at_the_sheriff_is_sampled_an_outlaw() -> None:
    """The sampled worlds read the public record: a seat that has aimed at the Sheriff is dealt
    the Outlaw role far more often than its share of the hidden roles (the rollout policy's
    Deputy never aims at the Sheriff, nor its Renegade while others live), and a seat with no
    record less often."""
    s, _ = mid_game(7, 0)
    state = E.StateView(s)
    state.role[:7] = C.ROLES_BY_PLAYERS[3]
    state.alive[:7] = 1
    state.revealed[:7] = 0
    state.revealed[0] = 1
    state.attacks[:, :] = 0
    state.attacks[3, 0] = 2  # seat 3 aimed at the Sheriff twice
    p = int(np.flatnonzero(state.role[:7] == C.DEPUTY)[0])
    lean = S.role_leans(E.public_view(s.copy(), p), E.seat_params(s, p))
    world = np.empty_like(s)
    rng = np.random.default_rng(5)
    outlaw = np.zeros(7)
    for _ in range(400):
        S.sample_world(s, rng, p, world, lean)
        outlaw += world[E.ROLE : E.ROLE + 7] == C.OUTLAW
    share = 3 / 5  # three Outlaws among the five hidden seats
    assert outlaw[3] / 400 > 0.95 > share
    others = [q for q in range(1, 7) if q not in (3, p)]
    assert max(outlaw[others]) / 400 < share


def renegade_view(alive: list[int]) -> np.ndarray:
    """The view of a 7-player Renegade (seat 1) with only the listed seats alive."""
    s, _ = mid_game(7, 0)
    state = E.StateView(s)
    state.role[:7] = C.ROLES_BY_PLAYERS[3]
    for q in range(7):
        state.alive[q] = 1 if q in alive else 0
        state.revealed[q] = 1 if q not in alive or q == 0 else 0
    return E.public_view(s, 1).copy()


def test_the_two_rule_renegade_spares_the_sheriff_while_others_live() -> None:
    w = P.with_structure(E.DEFAULT_PARAMS)[C.RENEGADE]
    v = renegade_view([0, 1, 2, 6])
    suspect = P.suspicion(v, w)
    assert P.hostility(v, w, suspect, 0) < -1e8
    assert max(P.hostility(v, w, suspect, t) for t in (2, 6)) > -1e8
    alone = renegade_view([0, 1])
    assert P.hostility(alone, w, P.suspicion(alone, w), 0) > 0


def test_the_structural_rules_are_off_for_the_role_and_tuned_bots() -> None:
    for table in (E.DEFAULT_PARAMS, bot_params("tuned", 5)):
        assert not table[:, P.P_REN_RULES :].any()
    assert (bot_params("tuned2", 5)[:, P.P_REN_RULES] == 1.0).all()


def test_compare_rejects_a_bad_budget() -> None:
    with pytest.raises(UserError, match="budget"):
        compare_rows([5], "search", "tuned2", ["renegade"], 10, 0, 1, budget=0)


def test_ladder_verdict_names_the_cells_that_miss() -> None:
    from cardsim.sims.bang.compare import ladder_verdict

    rows = [
        {
            "players": 5,
            "role": role,
            "bot": "tuned2",
            "against": "role2",
            "diff": d,
            "diff_lo": d - 0.01,
            "diff_hi": d + 0.01,
            "holds": d >= 0.03 and d - 0.01 > 0,
        }
        for role, d in (("sheriff", 0.05), ("renegade", 0.02))
    ]
    verdict = ladder_verdict(rows)
    assert "1 of 2 cells" in verdict and "5p renegade +2.0" in verdict
    assert "sheriff" not in verdict
    rows[1]["diff"], rows[1]["diff_lo"], rows[1]["holds"] = 0.04, 0.03, True
    assert "for every role" in ladder_verdict(rows)
    for row in rows:
        row["diff"], row["diff_lo"], row["holds"] = 0.01, -0.01, False
    verdict = ladder_verdict(rows)
    assert "none of the 2 cells" in verdict and "no rung above role2" in verdict
    assert "leaves it out" in verdict and "random, role2, search" in verdict


def test_ladder_needs_two_rungs() -> None:
    from cardsim.sims.bang.compare import ladder_rows

    with pytest.raises(UserError, match="rungs"):
        ladder_rows([5], ["tuned2"], 10, 0, 1)


def posterior_after(truth: str, players: int, games: int, turns: int = 25) -> tuple[float, float]:
    """Mean posterior mass on the true member and on the true role of the hidden seats after
    ``turns`` turns of tables of ``truth`` bots, read from the likelihood table with equal
    priors (the Sheriff's role is public, so roles are weighed over the other three)."""
    from cardsim.sims.bang.simulator import POPULATION, population_tables
    from cardsim.sims.bang.state import MAX_MEMBERS, MAX_SEATS, POP_LOGLIK

    members = list(POPULATION)
    population = population_tables(members, players)
    rng = np.random.default_rng(5)
    on_member, on_role = [], []
    for _ in range(games):
        s = E.setup_game(players, np.full(4, C.BOT_NAMES.index(truth)), bot_params(truth, players), 1000, rng)
        E.set_population(s, *population)
        p = 0
        for _ in range(turns):
            if s[E.G_WINNER] >= 0:
                break
            if s[E.ALIVE + p] == 1:
                E.take_turn(s, rng, p)
            p = (p + 1) % players
        block = s[POP_LOGLIK : POP_LOGLIK + MAX_SEATS * MAX_MEMBERS * 4].view(np.float64)
        table = block.reshape(MAX_SEATS, MAX_MEMBERS, 4)[:, : len(members), 1:]
        for q in range(players):
            if s[E.REVEALED + q]:
                continue
            weight = np.exp(table[q] - table[q].max())
            weight /= weight.sum()
            on_member.append(weight.sum(axis=1)[members.index(truth)])
            on_role.append(weight.sum(axis=0)[s[E.ROLE + q] - 1])
    return float(np.mean(on_member)), float(np.mean(on_role))


def test_the_posterior_finds_the_table_and_the_roles() -> None:
    """After 25 turns the posterior puts well over the uniform mass (1/6 of members, 1/3 of
    roles) on how the hidden seats really play and which role they hold: on the random bot at
    a random table, on the true role at a role2 table."""
    random_member, _ = posterior_after("random", 7, 15)
    assert random_member > 0.4
    role2_member, role2_role = posterior_after("role2", 7, 15)
    assert role2_role > 0.6 and role2_member > 0.25


def test_the_population_holds_the_two_rules_style() -> None:
    """``tuned-tworules`` is a member by name (the default population holds it) and differs
    from ``tuned`` in the Renegade's row only."""
    from cardsim.sims.bang.simulator import POPULATION, TUNED_TWO_RULES, parse_population, population_tables

    assert TUNED_TWO_RULES in POPULATION
    assert parse_population(f"tuned, {TUNED_TWO_RULES}") == ["tuned", TUNED_TWO_RULES]
    params = population_tables(["tuned", TUNED_TWO_RULES], 7)[3]
    assert (params[0, :3] == params[1, :3]).all()
    assert not (params[0, 3] == params[1, 3]).all()


def test_the_population_holds_the_outside_review_styles() -> None:
    """``tuned-styles`` is in the default population and differs from ``tuned`` in the
    Outlaw's and the Renegade's rows only, by their style switches (on) and lean."""
    from cardsim.sims.bang import policies as P
    from cardsim.sims.bang.cards import BOT_NAMES
    from cardsim.sims.bang.simulator import POPULATION, TUNED_STYLES, bot_params, population_tables

    assert TUNED_STYLES in POPULATION
    plain, styles = population_tables(["tuned", TUNED_STYLES], 7)[3]
    assert (plain[:2] == styles[:2]).all()
    assert styles[2, P.P_OUTLAW_LONG] == 1.0 and styles[3, P.P_REN_WILD] == 1.0
    for bot in BOT_NAMES:  # no bot plays a style (the ladder's digest leaves the switches out)
        assert not bot_params(bot, 7)[:, list(P.STYLE_SWITCHES)].any()
