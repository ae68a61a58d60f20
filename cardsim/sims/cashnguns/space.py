"""The strategy space the best-response search draws from: random strategies and small changes.

Every strategy of :class:`strategies.Strategy` is reachable: the three policies are drawn
uniformly and each numeric parameter on a grid of its range (``strategies.PARAM_RANGES``), so
candidates print as short, readable specs. :func:`mutate` changes one policy or one parameter
of a strategy, which lets the search refine what already works.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from cardsim.sims.cashnguns.strategies import (
    BULLET_POLICIES,
    LIE_POLICIES,
    PARAM_RANGES,
    TARGET_POLICIES,
    Strategy,
)

#: Grid step of each numeric parameter.
PARAM_STEPS: dict[str, float] = {
    "pot": 0.05, "safe": 0.05, "guns": 1, "lie_p": 0.05, "hit": 0.025, "wound": 5_000,
    "risk": 0.05, "greed": 0.1, "care": 0.05, "endgame": 0.1, "count": 1,
}
#: Where the search draws ``pot`` and ``wound`` from (the full range is allowed in specs, but
#: a pot ratio above 2 or a wound cost above $60,000 is never useful).
SEARCH_RANGES: dict[str, tuple[float, float]] = {**PARAM_RANGES, "pot": (0.5, 2.0), "wound": (0, 60_000)}
POLICY_TABLES = {"bullet": BULLET_POLICIES, "target": TARGET_POLICIES, "lie": LIE_POLICIES}


def _grid_value(name: str, rng: np.random.Generator) -> float | int:
    low, high = SEARCH_RANGES[name]
    step = PARAM_STEPS[name]
    value = low + step * int(rng.integers(0, int(round((high - low) / step)) + 1))
    return int(value) if name in ("guns", "wound", "count") else round(value, 4)


def sample_strategy(rng: np.random.Generator) -> Strategy:
    """A uniformly drawn strategy: each policy uniform, each parameter uniform on its grid."""
    policies = {part: str(rng.choice(list(table))) for part, table in POLICY_TABLES.items()}
    values = {name: _grid_value(name, rng) for name in SEARCH_RANGES}
    return Strategy(**policies, **values)


def mutate(strategy: Strategy, rng: np.random.Generator) -> Strategy:
    """The strategy with one policy redrawn or one parameter it uses moved one to three grid
    steps (or redrawn)."""
    used = strategy.used_fields()
    if not used or rng.random() < 0.3:
        part = str(rng.choice(list(POLICY_TABLES)))
        return replace(strategy, **{part: str(rng.choice(list(POLICY_TABLES[part])))})
    name = str(rng.choice(list(used)))
    low, high = SEARCH_RANGES[name]
    if rng.random() < 0.25:
        value = _grid_value(name, rng)
    else:
        step = PARAM_STEPS[name] * int(rng.choice([-3, -2, -1, 1, 2, 3]))
        value = min(high, max(low, getattr(strategy, name) + step))
        value = int(round(value)) if name in ("guns", "wound", "count") else round(value, 4)
    return replace(strategy, **{name: value})
