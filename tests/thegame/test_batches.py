"""The batch kernels per strategy family: each strategy is played by the kernel of its family,
the play log comes from the same kernel, and warm-up reaches every family."""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import InnerKernel
from cardsim.sims.thegame import batch, heuristic_turns, kernel, rollouts, rules, state, turn_search
from cardsim.sims.thegame.config import STRATEGIES
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.simulator import warmup_configs

FAMILIES = {kernel.batch_greedy, kernel.batch_heuristic, kernel.batch_search, kernel.batch_omniscient}


def test_each_strategy_is_played_by_its_family_kernel():
    chosen = {name: kernel.batch_kernel(sid, strategy_params(2, name)) for name, (sid, _) in STRATEGIES.items()}
    assert chosen["greedy"] is kernel.batch_greedy
    assert chosen["random"] is chosen["planner"] is chosen["signals"] is kernel.batch_heuristic
    assert chosen["search"] is kernel.batch_heuristic  # no rollouts: signals with a lookahead
    assert kernel.batch_kernel(kernel.SEARCH, strategy_params(2, "search", 1)) is kernel.batch_search
    assert chosen["omniscient"] is kernel.batch_omniscient


def test_warmup_configs_reach_every_family():
    reached = {
        kernel.batch_kernel(c.strategy_id, strategy_params(c.players, c.strategy, c.rollouts)) for c in warmup_configs()
    }
    assert reached == FAMILIES


def test_traced_game_is_the_batch_game():
    """trace_game plays through the same batch kernel: same statistics as play_games."""
    seeds = np.array([5, 77, 1234], np.int64)
    for name, (sid, _) in STRATEGIES.items():
        params = strategy_params(2, name, 1 if name == "search" else 0)
        params[kernel.P_SEARCH_CANDIDATES] = 2
        params[kernel.P_OMNI_BUDGET] = 20.0
        batch = kernel.play_games(seeds, 2, 7, 2, True, sid, params)
        for row, seed in zip(batch, seeds):
            traced, log = kernel.trace_game(int(seed), 2, 7, 2, True, sid, params)
            np.testing.assert_array_equal(traced, row)
            assert (log[:, 2] == kernel.LOG_TURN_END).sum() == row[kernel.S_TURNS]


def test_the_game_loops_run_without_reference_counting():
    """Every kernel of the game's modules is compiled without numba's reference counting (or
    inlined into its caller), except those that allocate arrays, which a kernel without
    counting cannot: the batch kernels (they allocate and hand the arrays to their loops), a
    deal's deck and the search buffers."""
    allocating = {
        kernel.batch_greedy,
        kernel.batch_heuristic,
        kernel.batch_search,
        kernel.batch_omniscient,
        kernel.deal_deck,
        kernel.new_rollout,
    }
    compiled = {
        value
        for module in (rules, state, turn_search, heuristic_turns, rollouts, batch)
        for value in vars(module).values()
        if isinstance(value, InnerKernel)
    }
    counted = {k for k in compiled if k.targetoptions.get("_nrt", True) and k.targetoptions["inline"] != "always"}
    assert counted == allocating
    loops = {kernel.greedy_games, kernel.heuristic_games, kernel.search_games, kernel.omniscient_games}
    assert loops <= compiled - counted
