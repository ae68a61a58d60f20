"""Tuned parameters of the heuristic strategies, per player count.

Values come from the tuning runs described in ``seeds/the_game.md`` (section "Strategy
parameters"); they are inputs of the player model, not results. Index names are the ``P_*``
constants of :mod:`cardsim.sims.thegame.state`.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.thegame.state import (
    N_PARAMS,
    P_LATE_DRAW,
    P_LOOKAHEAD,
    P_LOOKAHEAD_CANDIDATES,
    P_OMNI_BUDGET,
    P_OMNI_CANDIDATES,
    P_OMNI_LOOKAHEAD,
    P_PAIR_PENALTY,
    P_REACH_EARLY,
    P_REACH_LATE,
    P_SEARCH_CANDIDATES,
    P_SEARCH_CONFIDENCE,
    P_SEARCH_ROLLOUTS,
    P_SIGNAL_PENALTY,
    P_SIGNAL_THRESHOLD,
    P_TRICK_BONUS,
)

BASE: dict[int, float] = {
    P_REACH_EARLY: 0.0,
    P_REACH_LATE: 0.0,
    P_LATE_DRAW: 0.0,
    P_PAIR_PENALTY: 2.0,
    P_TRICK_BONUS: 0.5,
    P_SIGNAL_THRESHOLD: 1.0,
    P_SIGNAL_PENALTY: 3.0,
    P_SEARCH_CANDIDATES: 4.0,
    P_SEARCH_ROLLOUTS: 0.0,
    P_LOOKAHEAD: 0.0,
    P_LOOKAHEAD_CANDIDATES: 8.0,
    P_SEARCH_CONFIDENCE: 2.0,
    P_OMNI_BUDGET: 300.0,
    P_OMNI_CANDIDATES: 4.0,
    P_OMNI_LOOKAHEAD: 0.0,
}

# Per player count: overrides of BASE found by tuning. With 3-5 players an extra card that
# makes one unplayed card unreachable is still worth playing while the draw pile holds more than
# 10 cards (phase-dependent reach); with 1-2 players that costs wins.
PHASED_REACH = {P_REACH_EARLY: 1.0, P_REACH_LATE: 0.0, P_LATE_DRAW: 10.0}
BY_PLAYERS: dict[int, dict[int, float]] = {
    1: {},
    2: {},
    3: PHASED_REACH,
    4: PHASED_REACH,
    5: PHASED_REACH,
}

# search and omniscient add the next-turn lookahead to the signals planner. omniscient's plan
# improvement (rollouts.plan_game): 4 passes, rollouts by signals without the lookahead (cheaper
# per turn, so more deviations fit the budget), 300 rollout turns per game. Passes (the
# cheapest sequence at every turn before the second cheapest anywhere) won more at the same
# budget than trying several candidates at each turn in one pass; search-policy rollouts won
# less.
LOOKAHEAD: dict[int, dict[int, float]] = {
    1: {P_LOOKAHEAD: 0.75},
    2: {P_LOOKAHEAD: 0.6},
    3: {P_LOOKAHEAD: 0.6},
    4: {P_LOOKAHEAD: 0.6},
    5: {P_LOOKAHEAD: 0.6},
}


def strategy_params(players: int, strategy: str = "planner", rollouts: int = 0) -> np.ndarray:
    """The float64 parameter vector of ``strategy`` at this player count (``rollouts``: the
    search strategy's sampled determinisations per candidate turn; omniscient's rollouts are
    exact and governed by its P_OMNI_* entries)."""
    values = dict(BASE)
    values.update(BY_PLAYERS.get(players, {}))
    if strategy in ("search", "omniscient"):
        values.update(LOOKAHEAD.get(players, {}))
        values[P_SEARCH_ROLLOUTS] = float(rollouts) if strategy == "search" else 0.0
    params = np.zeros(N_PARAMS)
    for index, value in values.items():
        params[index] = value
    return params
