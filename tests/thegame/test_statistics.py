"""Statistical checks of the strategy ladder (long runs are marked slow)."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.thegame import kernel
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import rules_hand_size
from cardsim.sims.thegame.simulator import SIMULATOR
from cardsim.stats import wilson_interval


def win_interval(players: int, strategy: str, n: int, seed: int = 2026):
    frame = SIMULATOR.run_batch(
        SIMULATOR.make_config(players=players, strategy=strategy), np.random.default_rng(seed), n
    )
    wins = int(frame["won"].sum())
    lo, hi = wilson_interval(wins, n)
    return wins / n, float(lo), float(hi), frame


def test_random_play_never_gets_far() -> None:
    """Uniformly random plays close piles fast: with n = 2,000 games the Wilson upper bound of
    the win rate stays below 0.5% and the mean game is short."""
    p, lo, hi, frame = win_interval(3, "random", 2_000)
    assert hi < 0.005
    assert frame["turns"].mean() < 15


def test_planner_beats_greedy_on_paired_deals() -> None:
    """Same deals for both (same generator): the planner leaves fewer cards on average, by more
    than the paired 95% interval of the difference."""
    _, _, _, greedy = win_interval(2, "greedy", 1_000)
    _, _, _, planner = win_interval(2, "planner", 1_000)
    difference = (greedy["cards_left"].cast(float) - planner["cards_left"].cast(float)).to_numpy()
    half = 1.96 * difference.std(ddof=1) / np.sqrt(difference.size)
    assert difference.mean() - half > 0


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_omniscient_never_leaves_more_cards_than_search(players: int) -> None:
    """omniscient starts from search's own game and only adopts strictly better rollouts, so on
    every deal it leaves at most as many cards as search; with no rollout budget it is search,
    move for move; with its budget it wins clearly more of 300 paired deals."""
    seeds = np.arange(300, dtype=np.int64) * 7919 + 31 * players
    size = int(rules_hand_size(players))
    search = kernel.play_games(seeds, players, size, 2, True, kernel.SEARCH, strategy_params(players, "search"))
    omniscient = kernel.play_games(
        seeds, players, size, 2, True, kernel.OMNISCIENT, strategy_params(players, "omniscient")
    )
    left, bound = search[:, kernel.S_CARDS_LEFT], omniscient[:, kernel.S_CARDS_LEFT]
    assert (bound <= left).all()
    assert (bound == 0).sum() >= (left == 0).sum() + 15
    no_budget = strategy_params(players, "omniscient")
    no_budget[kernel.P_OMNI_BUDGET] = 0
    assert np.array_equal(
        kernel.play_games(seeds[:50], players, size, 2, True, kernel.OMNISCIENT, no_budget),
        search[:50],
    )
    for seed in seeds[:3]:
        _, search_log = kernel.trace_game(
            int(seed), players, size, 2, True, kernel.SEARCH, strategy_params(players, "search")
        )
        _, plan_log = kernel.trace_game(int(seed), players, size, 2, True, kernel.OMNISCIENT, no_budget)
        assert np.array_equal(search_log, plan_log)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_ladder_is_ordered(players: int) -> None:
    """random < greedy < planner < signals at n = 10,000 each: consecutive Wilson intervals
    do not overlap."""
    intervals = [win_interval(players, s, 10_000)[1:3] for s in ("random", "greedy", "planner", "signals")]
    for (_lo_weak, hi_weak), (lo_strong, _hi_strong) in zip(intervals, intervals[1:]):
        assert hi_weak < lo_strong, intervals


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_search_beats_the_published_anchors(players: int) -> None:
    """The quality target: with 10,000 games the lower end of search's 95% Wilson
    interval is above the best published win rate at that player count."""
    from cardsim.analysis.thegame import best_anchor

    _, lo, _, _ = win_interval(players, "search", 10_000, seed=players)
    assert lo > best_anchor(players)
