"""The strategy space the best-response search draws from: random strategies and small changes.

Every strategy of :class:`strategies.Strategy` is reachable: the three policies are drawn
uniformly and each numeric parameter on a grid of its range (``strategies.PARAM_RANGES``), so
candidates print as short, readable specs. :func:`mutate` changes one policy or one parameter
of a strategy, which lets the search refine what already works; :func:`neighbours` lists every
one-move change, and :func:`end_pairs` and :func:`compound_move` change several parameters at
once (discover/5's compound moves).
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
    "pot": 0.05,
    "safe": 0.05,
    "guns": 1,
    "lie_p": 0.05,
    "hit": 0.025,
    "wound": 5_000,
    "risk": 0.05,
    "greed": 0.1,
    "care": 0.05,
    "endgame": 0.1,
    "count": 1,
    "read": 1,
}
#: Where the search draws ``pot`` and ``wound`` from (the full range is allowed in specs, but
#: a pot ratio above 2 or a wound cost above $60,000 is never useful).
#: The random draws and mutations keep to the space they searched before the card-order
#: schedule and the opponent reading joined it (so a seed draws the same candidates as before);
#: those two are searched exhaustively instead (``analysis.cashnguns.schedules``).
SEARCH_RANGES: dict[str, tuple[float, float]] = {
    **{name: value for name, value in PARAM_RANGES.items() if name != "read"},
    "pot": (0.5, 2.0),
    "wound": (0, 60_000),
}
POLICY_TABLES = {
    "bullet": {name: value for name, value in BULLET_POLICIES.items() if name != "schedule"},
    "target": TARGET_POLICIES,
    "lie": LIE_POLICIES,
}
#: Fields that no grid step moves: the count and read toggles and the card order.
TOGGLES = ("count", "read", "order")


def grid_values(name: str) -> list[float | int]:
    """Every value of parameter ``name`` on its grid over the search range, lowest first."""
    low, high = SEARCH_RANGES[name]
    step = PARAM_STEPS[name]
    values = [low + step * k for k in range(int(round((high - low) / step)) + 1)]
    return [int(v) if name in ("guns", "wound", "count", "read") else round(v, 4) for v in values]


def _grid_value(name: str, rng: np.random.Generator) -> float | int:
    values = grid_values(name)
    return values[int(rng.integers(0, len(values)))]


def sample_strategy(rng: np.random.Generator) -> Strategy:
    """A uniformly drawn strategy: each policy uniform, each parameter uniform on its grid."""
    policies = {part: str(rng.choice(list(table))) for part, table in POLICY_TABLES.items()}
    values = {name: _grid_value(name, rng) for name in SEARCH_RANGES}
    return Strategy(**policies, **values)


def sample_extended_strategy(rng: np.random.Generator) -> Strategy:
    """A strategy of the whole space: :func:`sample_strategy`, then half the time the free card
    order (``schedule``, one of the 168 orders uniformly) as its bullet policy, and the opponent
    reading (``read``) on or off with equal chance."""
    from cardsim.sims.cashnguns.strategies import ALL_ORDERS

    strategy = sample_strategy(rng)
    if rng.random() < 0.5:
        strategy = replace(strategy, bullet="schedule", order=ALL_ORDERS[int(rng.integers(len(ALL_ORDERS)))])
    return replace(strategy, read=int(rng.integers(2)))


def mutate(strategy: Strategy, rng: np.random.Generator) -> Strategy:
    """The strategy with one policy redrawn or one parameter it uses moved one to three grid
    steps (or redrawn)."""
    used = tuple(name for name in strategy.used_fields() if name not in ("read", "order"))
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
        value = int(round(value)) if name in ("guns", "wound", "count", "read") else round(value, 4)
    return replace(strategy, **{name: value})


# --- Local search (since discover/4): systematic one-move neighbours of a strategy -------------


def counted_chances() -> tuple[float, ...]:
    """Every value the public estimate of "this card is loaded" can take,
    (3 - loaded revealed) / (8 - cards revealed) (:func:`strategies.loaded_chance`), sorted:
    0, 1/6, 1/5, 1/4, 2/7, 1/3, 3/8, 2/5, 3/7, 1/2, 3/5, 2/3, 3/4, 1."""
    from fractions import Fraction

    from cardsim.sims.cashnguns.strategies import CARDS_IN_HAND, LOADED_IN_HAND

    values = {Fraction(0)}
    for loaded in range(LOADED_IN_HAND + 1):
        left = LOADED_IN_HAND - loaded
        for unrevealed in range(max(left, 1), CARDS_IN_HAND - loaded + 1):
            values.add(Fraction(left, unrevealed))
    return tuple(float(v) for v in sorted(values))


def chance_midpoints() -> tuple[float, ...]:
    """The values halfway between consecutive counted chances (rounded to 4 places), e.g.
    0.3542 between 1/3 and 3/8. A threshold compared with a counted chance (``safe``; ``risk``
    and ``hit`` against one gun) behaves the same anywhere between two consecutive chances, so
    these midpoints are one representative of every behaviour a grid can straddle or miss."""
    chances = counted_chances()
    return tuple(round((a + b) / 2, 4) for a, b in zip(chances, chances[1:]))


#: The parameters compared with a counted chance (their neighbours include the midpoints).
CHANCE_PARAMETERS = ("safe", "risk", "hit")


def _value(name: str, value: float) -> float | int:
    low, high = PARAM_RANGES[name]
    value = min(high, max(low, value))
    return int(round(value)) if name in ("guns", "wound", "count", "read") else round(value, 4)


def policy_neighbours(strategy: Strategy) -> list[Strategy]:
    """Every strategy one policy away, in a fixed order: the bullet policy first (``random``,
    ``early``, ``late``, ``bigpot`` at pot 1.2, then ``safe`` at every chance midpoint, nearest
    to 3/8 first (the loaded share of a full hand, so the thresholds that split the most common
    counted states come first), then ``safe=0`` and ``bigpot`` at pot 1 and 1.5), then the
    target, then the lie-down rule (its parameters kept), then the count toggle."""
    midpoints = sorted(chance_midpoints(), key=lambda m: (abs(m - 0.375), m))
    out: list[Strategy] = [replace(strategy, bullet=b) for b in ("random", "early", "late")]
    out.append(replace(strategy, bullet="bigpot", pot=1.2))
    out += [replace(strategy, bullet="safe", safe=m) for m in midpoints + [0.0]]
    out += [replace(strategy, bullet="bigpot", pot=p) for p in (1.0, 1.5)]
    out += [replace(strategy, target=target) for target in POLICY_TABLES["target"]]
    out += [replace(strategy, lie=lie) for lie in POLICY_TABLES["lie"]]
    if strategy.lie in ("threshold", "risk"):
        out.append(replace(strategy, count=1 - strategy.count))
    return _distinct(strategy, out)


def parameter_steps(strategy: Strategy, name: str) -> list[float | int]:
    """The values one move of parameter ``name`` reaches: one and two grid steps down and up,
    and for the chance parameters (``CHANCE_PARAMETERS``) the nearest chance midpoint below and
    above the current value (in that order; the current value and repeats left out)."""
    value = getattr(strategy, name)
    steps = [_value(name, value + k * PARAM_STEPS[name]) for k in (-1, 1, -2, 2)]
    if name in CHANCE_PARAMETERS:
        midpoints = chance_midpoints()
        steps += [m for m in midpoints if m < value - 1e-9][-1:] + [m for m in midpoints if m > value + 1e-9][:1]
    return list(dict.fromkeys(v for v in steps if v != value))


def parameter_neighbours(strategy: Strategy) -> list[Strategy]:
    """Every strategy one parameter move away (:func:`parameter_steps` of each parameter it
    uses but the ``count`` toggle)."""
    return _distinct(
        strategy,
        [
            replace(strategy, **{name: value})
            for name in strategy.used_fields()
            if name not in TOGGLES
            for value in parameter_steps(strategy, name)
        ],
    )


def _distinct(strategy: Strategy, candidates: list[Strategy]) -> list[Strategy]:
    """The candidates by spec, first occurrence kept, the strategy itself left out."""
    seen = {strategy.spec()}
    out = []
    for candidate in candidates:
        spec = candidate.spec()
        if spec not in seen:
            seen.add(spec)
            out.append(candidate)
    return out


def neighbours(strategy: Strategy) -> list[Strategy]:
    """Every one-move neighbour: :func:`policy_neighbours` then :func:`parameter_neighbours`."""
    return _distinct(strategy, policy_neighbours(strategy) + parameter_neighbours(strategy))


# --- Compound moves (discover/5): several parameters changed at once ---------------------------


def range_ends(strategy: Strategy) -> dict[str, list[float | int]]:
    """Each parameter the strategy uses (but the ``count`` toggle) with the ends of its search
    range (``SEARCH_RANGES``) that it does not already hold; parameters at neither end only."""
    ends: dict[str, list[float | int]] = {}
    for name in strategy.used_fields():
        if name in TOGGLES:
            continue
        values = [
            v for v in dict.fromkeys(_value(name, end) for end in SEARCH_RANGES[name]) if v != getattr(strategy, name)
        ]
        if values:
            ends[name] = values
    return ends


def end_pairs(strategy: Strategy) -> list[Strategy]:
    """Every strategy with two of its parameters each set to an end of its range
    (:func:`range_ends`), in a fixed order (parameter pairs in ``used_fields`` order, low end
    first). No one-step neighbour makes these moves, and some work only together: with
    ``hit=0`` and ``endgame=-1`` the ``risk`` rule becomes a clock (lie down from a round on,
    earlier when wounded), which neither change makes alone."""
    ends = range_ends(strategy)
    names = list(ends)
    return _distinct(
        strategy,
        [
            replace(strategy, **{first: a, second: b})
            for i, first in enumerate(names)
            for second in names[i + 1 :]
            for a in ends[first]
            for b in ends[second]
        ],
    )


def compound_move(strategy: Strategy, size: int, rng: np.random.Generator) -> Strategy:
    """The strategy with ``size`` distinct parameters it uses (fewer if it uses fewer; never
    the ``count`` toggle) moved at once, each, with equal chance, to an end of its range or to
    one of its one-step values (:func:`parameter_steps`)."""
    ends = range_ends(strategy)
    names = [name for name in strategy.used_fields() if name not in TOGGLES]
    chosen = sorted(int(i) for i in rng.choice(len(names), size=min(size, len(names)), replace=False))
    changes = {}
    for name in (names[i] for i in chosen):
        steps = parameter_steps(strategy, name)
        options = ends[name] if name in ends and (not steps or rng.random() < 0.5) else steps
        changes[name] = options[int(rng.integers(len(options)))]
    return replace(strategy, **changes)
