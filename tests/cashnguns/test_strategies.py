"""Each policy and named strategy with fixed inputs; the CLI spec parser."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import BANG, BANG_BANG_BANG, CLICK
from cardsim.sims.cashnguns.strategies import (
    BULLET_BIG_POT,
    BULLET_EARLY,
    BULLET_LATE,
    BULLET_RANDOM,
    LIE_GUNS,
    LIE_NEVER,
    LIE_RANDOM,
    LIE_THRESHOLD,
    NAMED_STRATEGIES,
    TARGET_LEADER,
    TARGET_RANDOM,
    TARGET_RETALIATE,
    TARGET_WEAKEST,
    Strategy,
    choose_bullet,
    choose_lie_down,
    choose_target,
    parse_strategy,
)

FULL_HAND = np.array([5, 2, 1])
PARAMS = Strategy(pot=40_000, guns=2, lie_p=0.25, hit=0.5, wound=10_000).param_row()


def bullet(policy, hand, pot=0, u=0.0):
    return choose_bullet(policy, np.array(hand), pot, PARAMS, u)


def test_random_bullet_picks_cards_in_proportion_to_the_hand():
    """u in [0, 5/8) -> Click, [5/8, 7/8) -> Bang!, [7/8, 1) -> Bang!Bang!Bang!."""
    assert bullet(BULLET_RANDOM, FULL_HAND, u=0.0) == CLICK
    assert bullet(BULLET_RANDOM, FULL_HAND, u=0.624) == CLICK
    assert bullet(BULLET_RANDOM, FULL_HAND, u=0.625) == BANG
    assert bullet(BULLET_RANDOM, FULL_HAND, u=0.874) == BANG
    assert bullet(BULLET_RANDOM, FULL_HAND, u=0.875) == BANG_BANG_BANG
    assert bullet(BULLET_RANDOM, [0, 0, 1], u=0.3) == BANG_BANG_BANG


def test_big_pot_bullet_saves_bangs_for_large_loot():
    assert bullet(BULLET_BIG_POT, FULL_HAND, pot=7) == CLICK  # $35k < $40k
    assert bullet(BULLET_BIG_POT, FULL_HAND, pot=8) == BANG_BANG_BANG
    assert bullet(BULLET_BIG_POT, [5, 2, 0], pot=8) == BANG
    assert bullet(BULLET_BIG_POT, [0, 2, 0], pot=1) == BANG  # out of Clicks
    assert bullet(BULLET_BIG_POT, [3, 0, 0], pot=20) == CLICK  # out of loaded cards


def test_early_and_late_bullet_orders():
    assert bullet(BULLET_EARLY, FULL_HAND) == BANG_BANG_BANG
    assert bullet(BULLET_EARLY, [5, 1, 0]) == BANG
    assert bullet(BULLET_EARLY, [5, 0, 0]) == CLICK
    assert bullet(BULLET_LATE, FULL_HAND) == CLICK
    assert bullet(BULLET_LATE, [0, 1, 1]) == BANG
    assert bullet(BULLET_LATE, [0, 0, 1]) == BANG_BANG_BANG


ALIVE = np.array([True, True, False, True, True])
MONEY = np.array([0, 6, 9, 6, 2])
WOUNDS = np.array([0, 1, 0, 2, 2])


def target(policy, me=0, last=(-1, -1, -1, -1, -1), u=0.0):
    return choose_target(policy, me, ALIVE, MONEY, WOUNDS, np.array(last), u)


def test_random_target_is_a_uniform_living_opponent():
    picks = [target(TARGET_RANDOM, u=u) for u in (0.0, 0.34, 0.67, 0.99)]
    assert picks == [1, 3, 4, 4]
    assert {target(TARGET_RANDOM, me=3, u=u) for u in np.linspace(0, 0.999, 30)} == {0, 1, 4}


def test_leader_target_is_the_richest_living_opponent_ties_at_random():
    """Seat 2 is richest but dead; seats 1 and 3 tie at 6 units."""
    assert target(TARGET_LEADER, u=0.2) == 1
    assert target(TARGET_LEADER, u=0.7) == 3
    assert target(TARGET_LEADER, me=1, u=0.9) == 3


def test_retaliate_targets_last_rounds_shooter_else_random():
    assert target(TARGET_RETALIATE, last=(4, 3, -1, 0, 1), u=0.9) == 3
    assert target(TARGET_RETALIATE, last=(4, 0, -1, 0, 0), u=0.9) == 4
    assert target(TARGET_RETALIATE, last=(4, 3, -1, 4, 1), u=0.5) == target(TARGET_RANDOM, u=0.5)


def test_weakest_target_is_the_most_wounded():
    assert target(TARGET_WEAKEST, u=0.1) == 3
    assert target(TARGET_WEAKEST, u=0.9) == 4


def lie(policy, guns, pot=10, alive=5, wounds=0, money=0, shame=-1.0, u=0.5):
    return bool(choose_lie_down(policy, guns, pot, alive, wounds, money, shame, PARAMS, u))


def test_never_lie_down():
    assert not lie(LIE_NEVER, guns=4)


def test_random_lie_down_with_probability_lie_p():
    assert lie(LIE_RANDOM, guns=0, u=0.2)
    assert not lie(LIE_RANDOM, guns=3, u=0.3)


def test_lie_down_when_aimed_at_by_enough_guns():
    assert not lie(LIE_GUNS, guns=1)
    assert lie(LIE_GUNS, guns=2)


def test_threshold_weighs_pot_share_against_wound_risk():
    """hit=0.5, wound=$10k (2 units), shame -1 unit.
    One gun, pot 10 units, 5 alive: stand = 0.5*2 - 0.5*2 = 0 > -1 -> stand.
    Two guns: p=0.75, stand = 0.25*2 - 0.75*2 = -1.0, not below -1 -> stand; three guns:
    p=0.875, stand = 0.25 - 1.75 = -1.5 < -1 -> lie. A lethal wound costs money + 3 * wound."""
    assert not lie(LIE_THRESHOLD, guns=0, pot=0)
    assert not lie(LIE_THRESHOLD, guns=1)
    assert not lie(LIE_THRESHOLD, guns=2)
    assert lie(LIE_THRESHOLD, guns=3)
    assert lie(LIE_THRESHOLD, guns=1, wounds=2, money=10)  # 0.5*2 - 0.5*16 < -1
    assert not lie(LIE_THRESHOLD, guns=1, pot=40)  # a big pot is worth the risk
    assert not lie(LIE_THRESHOLD, guns=3, shame=-3.0)  # a harsher shame penalty: stand


def test_named_strategies_span_the_policy_space():
    """At least eight named strategies, using every bullet, target and lie-down policy."""
    assert len(NAMED_STRATEGIES) >= 8
    used = {(s.bullet, s.target, s.lie) for _, s in NAMED_STRATEGIES.values()}
    assert len(used) == len(NAMED_STRATEGIES)
    assert {b for b, _, _ in used} == {"random", "bigpot", "early", "late"}
    assert {t for _, t, _ in used} == {"random", "leader", "retaliate", "weakest"}
    assert {x for _, _, x in used} == {"never", "random", "guns", "threshold"}


def test_parse_named_strategy_and_overrides():
    assert parse_strategy("coward") == NAMED_STRATEGIES["coward"][1]
    custom = parse_strategy("coward:guns=3,target=leader")
    assert (custom.guns, custom.target, custom.lie) == (3, "leader", "guns")
    assert parse_strategy("calculator:hit=0.3,wound=20000").param_row()[3:].tolist() == [0.3, 4.0]
    assert parse_strategy("custom:bullet=early") == Strategy(bullet="early")


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nope", "unknown strategy"),
        ("coward:guns", "bad strategy option"),
        ("coward:speed=3", "bad strategy option"),
        ("coward:guns=x", "bad value"),
        ("coward:guns=9", "guns must be"),
        ("coward:lie=sometimes", "unknown lie policy"),
        ("random:lie_p=1.5", "probability"),
        ("patient:pot=12345", "multiple of 5000"),
    ],
)
def test_bad_strategy_specs_are_user_errors(spec, message):
    with pytest.raises(UserError, match=message):
        parse_strategy(spec)
