"""The simulator surface: config validation, rows, determinism given the generator."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from cardsim.errors import UserError
from cardsim.sims.thegame.config import STRATEGY_NAMES, TheGameConfig
from cardsim.sims.thegame.simulator import SIMULATOR


@pytest.mark.parametrize(
    "fields",
    [
        {"players": 0},
        {"players": 6},
        {"players": 2.5},
        {"strategy": "telepathy"},
        {"min_cards": 0},
        {"min_cards": 9},
        {"hand_size": 0},
        {"hand_size": 9},
        {"backwards_trick": "yes"},
        {"rollouts": -1},
        {"rollouts": 65},
        {"strategy": "planner", "rollouts": 4},
    ],
)
def test_bad_config_is_a_user_error(fields: dict) -> None:
    with pytest.raises(UserError) as caught:
        SIMULATOR.make_config(**fields)
    assert "\n" not in str(caught.value)


def test_rules_default_hand_size_and_knobs() -> None:
    assert TheGameConfig(players=1).effective_hand_size == 8
    assert TheGameConfig(players=2).effective_hand_size == 7
    assert TheGameConfig(players=4, hand_size=5).effective_hand_size == 5
    assert TheGameConfig(players=3, min_cards=3).min_cards == 3


def test_strategies_are_registered_in_ladder_order() -> None:
    assert (
        list(SIMULATOR.policies)
        == list(STRATEGY_NAMES)
        == ["random", "greedy", "planner", "signals", "search", "omniscient"]
    )
    assert SIMULATOR.headline == "won"


@pytest.mark.parametrize("strategy", ["random", "greedy", "planner", "signals"])
def test_rows_are_consistent(strategy: str) -> None:
    config = SIMULATOR.make_config(players=3, strategy=strategy)
    frame = SIMULATOR.run_batch(config, np.random.default_rng(3), 300)
    assert frame.height == 300
    assert (frame["won"] == (frame["cards_left"] == 0)).all()
    assert (frame["excellent"] == (frame["cards_left"] <= 10)).all()
    assert (frame["cards_left"] == frame["cards_in_hands"] + frame["draw_left"]).all()
    assert frame["cards_left"].max() <= 98 - 2  # the first turn always plays two cards
    assert set(frame["strategy"].unique()) == {strategy}
    assert frame.filter(pl.col("draw_left") > 0)["cards_in_hands"].min() >= 3 * 6 - 2


def test_same_generator_state_same_rows() -> None:
    config = SIMULATOR.make_config(players=2, strategy="random")
    first = SIMULATOR.run_batch(config, np.random.default_rng(99), 200)
    second = SIMULATOR.run_batch(config, np.random.default_rng(99), 200)
    other = SIMULATOR.run_batch(config, np.random.default_rng(100), 200)
    assert first.equals(second)
    assert not first.equals(other)


def test_strategies_share_deals_for_paired_comparison() -> None:
    greedy = SIMULATOR.run_batch(SIMULATOR.make_config(strategy="greedy"), np.random.default_rng(5), 50)
    planner = SIMULATOR.run_batch(SIMULATOR.make_config(strategy="planner"), np.random.default_rng(5), 50)
    assert greedy["deal_seed"].equals(planner["deal_seed"])


def test_through_the_runner_any_jobs_same_numbers() -> None:
    from cardsim.sims.core.runner import run

    config = SIMULATOR.make_config(players=2, strategy="greedy")
    one = run(SIMULATOR, config, n=400, seed=4, jobs=1, chunk_size=100).episodes
    two = run(SIMULATOR, config, n=400, seed=4, jobs=2, chunk_size=100).episodes
    assert one.equals(two)
