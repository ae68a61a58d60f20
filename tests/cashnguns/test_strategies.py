"""Each policy and named strategy with fixed inputs; the CLI spec parser."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import BANG, BANG_BANG_BANG, CLICK
from cardsim.sims.cashnguns.strategies import (
    NAMED_STRATEGIES,
    Strategy,
    choose_bullet,
    choose_lie_down,
    choose_target,
    loaded_chance,
    parse_strategy,
)

FULL_HAND = np.array([5, 2, 1])
BASE = Strategy(pot=1.2, safe=0.1, guns=2, lie_p=0.25, hit=0.5, wound=10_000, count=0)


def row(**changes):
    return replace(BASE, **changes).param_row()


def bullet(policy, hand, pot=0.0, expected=10.0, target_loaded=0.375, u=0.0, **changes):
    return choose_bullet(row(bullet=policy, **changes), np.array(hand), pot, expected, target_loaded, u)


def test_random_bullet_picks_cards_in_proportion_to_the_hand():
    """u in [0, 5/8) -> Click, [5/8, 7/8) -> Bang!, [7/8, 1) -> Bang!Bang!Bang!."""
    assert bullet("random", FULL_HAND, u=0.0) == CLICK
    assert bullet("random", FULL_HAND, u=0.624) == CLICK
    assert bullet("random", FULL_HAND, u=0.625) == BANG
    assert bullet("random", FULL_HAND, u=0.874) == BANG
    assert bullet("random", FULL_HAND, u=0.875) == BANG_BANG_BANG
    assert bullet("random", [0, 0, 1], u=0.3) == BANG_BANG_BANG


def test_big_pot_bullet_fires_relative_to_the_expected_pot():
    """pot=1.2: fires from 12 units when 10 are expected, from 6 when 5 are expected."""
    assert bullet("bigpot", FULL_HAND, pot=11.9) == CLICK
    assert bullet("bigpot", FULL_HAND, pot=12) == BANG_BANG_BANG
    assert bullet("bigpot", FULL_HAND, pot=6, expected=5.0) == BANG_BANG_BANG
    assert bullet("bigpot", [5, 2, 0], pot=12) == BANG
    assert bullet("bigpot", [0, 2, 0], pot=1) == BANG  # out of Clicks
    assert bullet("bigpot", [3, 0, 0], pot=20) == CLICK  # out of loaded cards


def test_early_and_late_bullet_orders():
    assert bullet("early", FULL_HAND) == BANG_BANG_BANG
    assert bullet("early", [5, 1, 0]) == BANG
    assert bullet("early", [5, 0, 0]) == CLICK
    assert bullet("late", FULL_HAND) == CLICK
    assert bullet("late", [0, 1, 1]) == BANG
    assert bullet("late", [0, 0, 1]) == BANG_BANG_BANG


def test_safe_bullet_keeps_the_bang_for_a_target_that_cannot_answer():
    """safe=0.1: a Bang! when the target's loaded chance is <= 0.1, else a Click."""
    assert bullet("safe", FULL_HAND, target_loaded=0.375) == CLICK
    assert bullet("safe", FULL_HAND, target_loaded=0.1) == BANG
    assert bullet("safe", [5, 0, 1], target_loaded=0.0) == BANG_BANG_BANG
    assert bullet("safe", [0, 1, 1], target_loaded=0.9) == BANG  # no Click left


def test_loaded_chance_counts_revealed_cards():
    revealed = np.array([[0, 0, 0], [3, 1, 0], [2, 2, 1], [5, 0, 0]])
    assert loaded_chance(revealed, 0) == pytest.approx(3 / 8)
    assert loaded_chance(revealed, 1) == pytest.approx(2 / 4)
    assert loaded_chance(revealed, 2) == 0.0  # every loaded card seen
    assert loaded_chance(revealed, 3) == 1.0  # every Click seen


ALIVE = np.array([True, True, False, True, True])
MONEY = np.array([0, 6, 9, 6, 2])
WOUNDS = np.array([0, 1, 0, 2, 2])
REVEALED = np.array([[0, 0, 0], [1, 1, 0], [4, 2, 1], [2, 1, 1], [1, 1, 1]])


def target(policy, me=0, aims=(), lay=(), u=0.0):
    history = np.full((8, 5), -1, np.int64)
    lain = np.zeros((8, 5), np.bool_)
    for index, aimed in enumerate(aims):
        history[index] = aimed
        lain[index] = lay[index] if lay else False
    return choose_target(row(target=policy), me, ALIVE, MONEY, WOUNDS, REVEALED, history, lain, len(aims), u)


def test_random_target_is_a_uniform_living_opponent():
    picks = [target("random", u=u) for u in (0.0, 0.34, 0.67, 0.99)]
    assert picks == [1, 3, 4, 4]
    assert {target("random", me=3, u=u) for u in np.linspace(0, 0.999, 30)} == {0, 1, 4}


def test_leader_target_is_the_richest_living_opponent_ties_at_random():
    """Seat 2 is richest but dead; seats 1 and 3 tie at 6 units."""
    assert target("leader", u=0.2) == 1
    assert target("leader", u=0.7) == 3
    assert target("leader", me=1, u=0.9) == 3


def test_retaliate_targets_the_last_aggressor_else_random():
    assert target("retaliate", aims=[(4, 3, -1, 0, 1)], u=0.9) == 3
    assert target("retaliate", aims=[(4, 0, -1, 0, 0)], u=0.9) == 4
    # the most recent round in which anyone aimed at me counts, even two rounds back
    assert target("retaliate", aims=[(4, 0, -1, 1, 0), (4, 3, -1, 4, 1)], u=0.9) == 4
    # a shooter who lay down lowered its gun: not an aggressor
    assert target("retaliate", aims=[(4, 0, -1, 0, 0)], lay=[(False, False, False, False, True)], u=0.9) == 3
    assert target("retaliate", aims=[(4, 3, -1, 4, 1)], u=0.5) == target("random", u=0.5)


def test_weakest_target_is_the_most_wounded():
    assert target("weakest", u=0.1) == 3
    assert target("weakest", u=0.9) == 4


def test_clicks_target_is_the_one_least_likely_loaded():
    """Seat 4 has shown all three loaded cards (chance 0); seat 3 has 1/4, seat 1 2/6."""
    assert target("clicks", u=0.99) == 4
    assert target("clicks", me=4, u=0.99) == 3


def lie(
    policy,
    guns,
    pot=10,
    expected=10.0,
    alive=5,
    wounds=0,
    money=0,
    shame=-1.0,
    u=0.5,
    revealed=None,
    round_index=0,
    **changes,
):
    targets = np.array([1] + [0] * guns + [1] * (4 - guns))
    revealed = np.zeros((5, 3), np.int64) if revealed is None else np.array(revealed)
    aims = np.full((8, 5), -1, np.int64)
    aims[:round_index] = 1
    return bool(
        choose_lie_down(
            row(lie=policy, **changes),
            0,
            targets,
            np.ones(5, np.bool_),
            revealed,
            aims,
            pot,
            expected,
            alive,
            wounds,
            money,
            round_index,
            shame,
            u,
        )
    )


def test_never_lie_down():
    assert not lie("never", guns=4)


def test_random_lie_down_with_probability_lie_p():
    assert lie("random", guns=0, u=0.2)
    assert not lie("random", guns=3, u=0.3)


def test_lie_down_when_aimed_at_by_enough_guns():
    assert not lie("guns", guns=1)
    assert lie("guns", guns=2)


def test_threshold_weighs_pot_share_against_wound_risk():
    """hit=0.5, wound=$10k (2 units), shame -1 unit.
    One gun, pot 10 units, 5 alive: stand = 0.5*2 - 0.5*2 = 0 > -1 -> stand.
    Two guns: p=0.75, stand = 0.25*2 - 0.75*2 = -1.0, not below -1 -> stand; three guns:
    p=0.875, stand = 0.25 - 1.75 = -1.5 < -1 -> lie. A lethal wound costs money + 3 * wound."""
    assert not lie("threshold", guns=0, pot=0)
    assert not lie("threshold", guns=1)
    assert not lie("threshold", guns=2)
    assert lie("threshold", guns=3)
    assert lie("threshold", guns=1, wounds=2, money=10)  # 0.5*2 - 0.5*16 < -1
    assert not lie("threshold", guns=1, pot=40)  # a big pot is worth the risk
    assert not lie("threshold", guns=3, shame=-3.0)  # a harsher shame penalty: stand


def test_counting_uses_the_aimers_revealed_cards():
    """Two guns from seats 1 and 2. Counting, seat 1 has shown all its loaded cards and seat 2
    has shown 3 Clicks: p = 1 - 1 x (1 - 3/5) = 0.6."""
    revealed = [[0, 0, 0], [2, 2, 1], [3, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert lie("risk", guns=2, risk=0.55, count=1, revealed=revealed)
    assert not lie("risk", guns=2, risk=0.65, count=1, revealed=revealed)
    # not counting: 1 - 0.5^2 = 0.75 whatever was revealed
    assert lie("risk", guns=2, risk=0.7, count=0, revealed=revealed)
    # both aimers out of loaded cards: no risk at all
    empty = [[0, 0, 0], [2, 2, 1], [1, 2, 1], [0, 0, 0], [0, 0, 0]]
    assert not lie("risk", guns=2, risk=0.0, count=1, revealed=empty)


def test_risk_rule_terms():
    """Not counting, two guns: p = 0.75. The tolerated risk 0.7 moves with the pot (greed),
    my wounds (care), the round (endgame) and needs at least ``guns`` guns."""
    assert lie("risk", guns=2, risk=0.7, count=0)
    assert not lie("risk", guns=2, risk=0.7, count=0, greed=0.5, pot=12)  # 0.7 + 0.5*0.2 = 0.8
    assert lie("risk", guns=2, risk=0.8, count=0, care=0.1, wounds=1)  # 0.8 - 0.1 = 0.7
    assert not lie("risk", guns=2, risk=0.7, count=0, endgame=0.2, round_index=7)  # 0.9
    assert not lie("risk", guns=1, risk=0.0, count=0)  # guns param is 2


def test_named_strategies_span_the_policy_space():
    """Every bullet, target and lie-down policy is used by some named strategy, but the free
    card order (``schedule``), whose 168 orders the schedule sweep tries on every mix member."""
    from cardsim.sims.cashnguns.strategies import BULLET_POLICIES, LIE_POLICIES, TARGET_POLICIES

    used = {(s.bullet, s.target, s.lie) for _, s in NAMED_STRATEGIES.values()}
    assert len(used) == len(NAMED_STRATEGIES)
    assert {b for b, _, _ in used} == set(BULLET_POLICIES) - {"schedule"}
    assert {t for _, t, _ in used} == set(TARGET_POLICIES)
    assert {x for _, _, x in used} == set(LIE_POLICIES)


def test_spec_round_trips_and_describes():
    for _, strategy in NAMED_STRATEGIES.values():
        again = parse_strategy(strategy.spec())
        assert again.param_row()[:3].tolist() == strategy.param_row()[:3].tolist()
        assert again.spec() == strategy.spec()
        assert strategy.describe()


def test_parse_named_strategy_and_overrides():
    assert parse_strategy("coward") == NAMED_STRATEGIES["coward"][1]
    custom = parse_strategy("coward:guns=3,target=leader")
    assert (custom.guns, custom.target, custom.lie) == (3, "leader", "guns")
    assert parse_strategy("calculator:hit=0.3,wound=20000").hit == 0.3
    assert parse_strategy("custom:bullet=early") == Strategy(bullet="early")
    assert parse_strategy("custom:bullet=safe,target=clicks,lie=risk,risk=0.4,count=0").count == 0


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nope", "unknown strategy"),
        ("coward:guns", "bad strategy option"),
        ("coward:speed=3", "bad strategy option"),
        ("coward:guns=x", "bad value"),
        ("coward:guns=2.5", "bad value"),
        ("coward:guns=9", "guns must be between"),
        ("coward:lie=sometimes", "unknown lie policy"),
        ("random:lie_p=1.5", "lie_p must be between"),
        ("patient:pot=12345", "pot must be between"),
        ("custom:risk=-0.1", "risk must be between"),
        ("custom:count=2", "count must be between"),
        ("custom:wound=1500", "whole thousands"),
    ],
)
def test_bad_strategy_specs_are_user_errors(spec, message):
    with pytest.raises(UserError, match=message):
        parse_strategy(spec)


def test_card_orders_are_the_168_arrangements_and_the_schedule_plays_them():
    """``order_of_index`` lists every arrangement of 5 Clicks, 2 Bangs and 1 Bang!Bang!Bang!
    once; the compiled ``schedule_card`` plays an order card by card, and from a hand used
    another way it plays the first card of the order still in hand."""
    import itertools

    from cardsim.sims.cashnguns.strategies import (
        ALL_ORDERS,
        Strategy,
        choose_bullet,
        order_index,
        parse_strategy,
        schedule_card,
    )

    assert len(ALL_ORDERS) == 168 == len(set(itertools.permutations("CCCCCBBX")))
    assert set(ALL_ORDERS) == {"".join(p) for p in itertools.permutations("CCCCCBBX")}
    kinds = {"C": 0, "B": 1, "X": 2}
    for index, order in enumerate(ALL_ORDERS):
        assert order_index(order) == index
        hand = np.array([5, 2, 1], np.int64)
        row = Strategy("schedule", order=order).param_row()
        for letter in order:
            card = choose_bullet(row, hand, 10.0, 10.0, 0.5, 0.3)
            assert card == kinds[letter] == schedule_card(index, hand)
            hand[card] -= 1
    # a Bang! already used elsewhere: CCCCCBXB then plays its Clicks, Bang!Bang!Bang!, nothing else loaded
    assert schedule_card(order_index("BCCCCCXB"), np.array([5, 1, 1], np.int64)) == 0
    assert schedule_card(order_index("BCCCCCXB"), np.array([0, 1, 1], np.int64)) == 2
    strategy = parse_strategy("coward:bullet=schedule,order=cccccbxb,read=1")
    assert strategy.spec() == "custom:bullet=schedule,target=random,lie=guns,order=CCCCCBXB,guns=2,read=1"
    assert parse_strategy(strategy.spec()) == strategy
    with pytest.raises(UserError, match="order must be 8 letters"):
        parse_strategy("custom:bullet=schedule,order=CCCCCBBB")


def test_reading_clicks_first():
    """``read=1``: an opponent who has shown Clicks only is read as holding a Click while it has
    played fewer than five cards, loaded after; one that has shown a loaded card is counted as
    without reading; ``read=0`` is plain counting."""
    from cardsim.sims.cashnguns.strategies import loaded_chance, opponent_loaded

    revealed = np.zeros((4, 3), np.int64)
    revealed[1, 0] = 2  # seat 1 showed two Clicks
    revealed[2] = [1, 1, 0]  # seat 2 showed a Click and a Bang!
    aims = np.full((8, 4), -1, np.int64)
    aims[:4] = 0
    reading = row(read=1)
    assert opponent_loaded(row(), revealed, aims, 4, 1) == loaded_chance(revealed, 1) == 3 / 6
    assert opponent_loaded(reading, revealed, aims, 4, 1) == 0.0
    aims[4] = 0
    assert opponent_loaded(reading, revealed, aims, 5, 1) == 1.0
    assert opponent_loaded(reading, revealed, aims, 5, 2) == loaded_chance(revealed, 2)
    assert opponent_loaded(reading, revealed, aims, 5, 3) == loaded_chance(revealed, 3)
