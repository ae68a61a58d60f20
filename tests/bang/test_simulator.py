"""Whole games: invariants on every game, reproducibility, the episode table, exact odds."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from cardsim.sims.bang.policies import NO_ACTION
from cardsim.sims.bang.simulator import SIMULATOR, BangConfig, parse_bots, play_arrays
from cardsim.sims.core.runner import run
from tests.bang.scenario import card, give, rng, stack, table


@pytest.mark.parametrize("players", [4, 5, 6, 7])
@pytest.mark.parametrize("bot", ["random", "role", "naive", "tuned"])
def test_invariants_hold_after_every_turn(players: int, bot: str) -> None:
    """80 cards accounted for, life within [1, max] for the living, one winner or none."""
    config = BangConfig(players=players, **parse_bots(bot))
    winner, turns, roles, chars, alive, life, killer, out_turn, errors = play_arrays(
        config, np.random.default_rng(players), 300, strict=True
    )
    assert errors.max() == 0
    assert set(np.unique(winner)) <= {C.SIDE_LAW, C.SIDE_OUTLAWS, C.SIDE_RENEGADE, C.SIDE_NONE}
    for i in range(300):
        living_roles = roles[i, :players][alive[i, :players] == 1]
        if winner[i] == C.SIDE_LAW:
            assert set(living_roles) <= {C.SHERIFF, C.DEPUTY} and C.SHERIFF in living_roles
        elif winner[i] == C.SIDE_RENEGADE:
            assert list(living_roles) == [C.RENEGADE]
        elif winner[i] == C.SIDE_OUTLAWS:
            assert C.SHERIFF not in living_roles
    assert (life[:, :players] <= 5).all()
    dead = alive[:, :players] == 0
    assert ((out_turn[:, :players] > 0) == dead).all()  # eliminated exactly when dead
    assert (out_turn[:, :players] <= turns[:, None]).all()
    assert (killer[:, :players][~dead] == -1).all()


def test_mixed_bots_per_role_also_keep_invariants() -> None:
    config = BangConfig(players=7, **parse_bots("sheriff=random,deputy=role,outlaw=random"))
    errors = play_arrays(config, np.random.default_rng(9), 200, strict=True)[-1]
    assert errors.max() == 0


def test_same_seed_same_games_different_seed_different_games() -> None:
    config = BangConfig(players=6)
    a = SIMULATOR.run_batch(config, np.random.default_rng(5), 200)
    b = SIMULATOR.run_batch(config, np.random.default_rng(5), 200)
    c = SIMULATOR.run_batch(config, np.random.default_rng(6), 200)
    assert a.equals(b)
    assert not a.equals(c)


def test_episode_table_is_compact_and_complete() -> None:
    frame = SIMULATOR.run_batch(BangConfig(players=5), np.random.default_rng(1), 50)
    assert frame.height == 50
    assert frame.schema["winner"] == pl.Int8 and frame.schema["role_0"] == pl.Int8
    assert (frame["role_0"] == C.SHERIFF).all()
    assert (frame["role_5"] == -1).all() and (frame["char_6"] == -1).all()
    assert (frame["sheriff_won"] == (frame["winner"] == C.SIDE_LAW)).all()
    assert frame["turns"].min() >= 1


def test_runner_chunks_match_for_any_jobs() -> None:
    config = BangConfig(players=4)
    one = run(SIMULATOR, config, n=600, seed=3, jobs=1)
    two = run(SIMULATOR, config, n=600, seed=3, jobs=2)
    assert one.episodes.equals(two.episodes)


def test_parse_bots_errors_are_user_errors() -> None:
    from cardsim.errors import UserError

    assert parse_bots("outlaw=random") == {"outlaw_bot": "random"}
    with pytest.raises(UserError):
        parse_bots("captain=role")
    with pytest.raises(UserError):
        parse_bots("outlaw=smart")


def _tolerance(p: float, n: int) -> float:
    """Five standard errors of a proportion estimated from n draws."""
    return 5.0 * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize(
    ("character", "purpose", "exact"),
    [
        (C.KIT_CARLSON, E.CHECK_BARREL, 20 / 80),
        (C.KIT_CARLSON, E.CHECK_DYNAMITE, 70 / 80),
        (C.LUCKY_DUKE, E.CHECK_BARREL, 1 - (60 / 80) * (59 / 79)),
        (C.LUCKY_DUKE, E.CHECK_DYNAMITE, 1 - (10 / 80) * (9 / 79)),
    ],
)
def test_draw_check_odds_match_exact_values(character: int, purpose: int, exact: float) -> None:
    """draw! from a freshly shuffled 80-card deck: a heart 20/80; Dynamite spares 70/80;
    Lucky Duke picks the better of two cards drawn without replacement."""
    generator = np.random.default_rng(11)
    n = 4000
    good = 0
    for _ in range(n):
        s = table([character, C.KIT_CARLSON, C.KIT_CARLSON, C.KIT_CARLSON])
        E.shuffle_prefix(s.deck, 80, generator)
        good += bool(E.draw_check(s.state, generator, 0, purpose))
    assert abs(good / n - exact) < _tolerance(exact, n)


def test_scenario_turn_by_role_bot_shoots_the_sheriff_as_outlaw() -> None:
    s = table([C.KIT_CARLSON] * 4)  # seat 3 is an Outlaw next to the Sheriff (seat 0)
    give(s, 3, card(C.BANG, "AS"))
    stack(s, card(C.MISSED, "10C"), card(C.MISSED, "JC"), card(C.MISSED, "QC"))
    E.take_turn(s.state, rng(), 3)
    assert s.life[0] == 4 and s.attacks[3, 0] == 1


def test_role_bot_deputy_never_targets_the_sheriff() -> None:
    s = table([C.KIT_CARLSON] * 7)  # seats 5, 6 Deputies; 6 sits next to the Sheriff
    give(s, 6, card(C.BANG, "AS"), card(C.DUEL, "QD"), card(C.JAIL, "JS"))
    assert E.choose_action(s.state, rng(), 6) == NO_ACTION  # no evidence against anyone yet
    E.record_attack(s.state, 1, 0)  # seat 1 shot at the Sheriff earlier
    c, t, _ = E.choose_action(s.state, rng(), 6)
    assert t == 1 and C.CARD_KIND[c] == C.JAIL


def test_naive_bot_deputy_shoots_without_evidence() -> None:
    """The naive rung skips the inference: a Deputy shoots an unknown neighbour (here the other
    Deputy, seat 5) where the role bot holds fire."""
    s = table([C.KIT_CARLSON] * 7, bots=[C.BOT_NAIVE] * 7)
    give(s, 6, card(C.BANG, "AS"))
    c, t, _ = E.choose_action(s.state, rng(), 6)
    assert t == 5 and C.CARD_KIND[c] == C.BANG


def test_role_bot_lone_deputy_knows_everyone_else_is_a_foe() -> None:
    s = table([C.KIT_CARLSON] * 5)  # 5 players: one Deputy (seat 4), the rest are foes
    give(s, 4, card(C.BANG, "AS"))
    c, t, _ = E.choose_action(s.state, rng(), 4)
    assert t == 3 and C.CARD_KIND[c] == C.BANG  # seat 3 is the only foe in reach


def dealt_role_game(players: int, seed: int) -> E.StateView:
    """A freshly dealt game with role bots everywhere."""
    return E.StateView(
        E.setup_game(players, np.array([1, 1, 1, 1]), E.DEFAULT_PARAMS, 1000, np.random.default_rng(seed))
    )


def test_invariant_check_catches_broken_states() -> None:
    s = dealt_role_game(5, seed=2)
    assert E.invariant_error(s.state) == 0
    E.move(s.state, int(s.deck[0]), E.Z_LIMBO, -1)  # a card lost from the draw pile
    assert E.invariant_error(s.state) == 1
    s = dealt_role_game(5, seed=2)
    s.life[2] = s.max_life[2] + 1
    assert E.invariant_error(s.state) == 4
    s = dealt_role_game(5, seed=2)
    s.hand[1, C.BANG] += 1
    assert E.invariant_error(s.state) == 6
    s = dealt_role_game(5, seed=2)
    s.g[E.G_WINNER] = C.SIDE_LAW
    assert E.invariant_error(s.state) == 5


def test_interpreted_reference_plays_identical_games() -> None:
    """The benchmark's reference (same source, plain Python) matches the compiled kernel."""
    from cardsim.sims.bang.reference import interpreted_engine

    slow = interpreted_engine()
    for bots in (np.array([1, 1, 1, 1]), np.array([0, 0, 0, 0])):
        fast_rows = E.play_games(6, 5, bots, E.DEFAULT_PARAMS, 1000, np.random.default_rng(8), True)
        slow_rows = slow.play_games(6, 5, bots, slow.DEFAULT_PARAMS, 1000, np.random.default_rng(8), True)
        for a, b in zip(fast_rows, slow_rows, strict=True):
            assert np.array_equal(a, b)


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_invariants_hold_in_many_games(players: int) -> None:
    """Long run: 20,000 games per bot kind, invariants checked after every turn."""
    for bot in ("random", "role", "naive", "tuned"):
        config = BangConfig(players=players, **parse_bots(bot))
        errors = play_arrays(config, np.random.default_rng(100 + players), 20_000, strict=True)[-1]
        assert errors.max() == 0
