"""The rows of ``cardsim bench strategies``: a user-strategy engine's speed beside its kernel's.

A strategy written in plain Python plays in an engine that stays compiled
between the user's decisions, at a target speed per CPU-second with a trivial strategy in
every seat the strategy may take. Each game with such an engine declares
``Game.strategy_bench``, a ``strategy_rows(quick: bool = False) -> list[dict]`` whose rows
:func:`speed_row` builds, so every game's rows have the same keys. Speeds are per CPU-second
of this process (``time.process_time``), the best of a few timings of the same work (noise
on a shared machine only ever slows a run down); the kernel is timed in the same run on the
same table, so the ratio means more than either speed alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

#: The keys of every row, in order.
ROW_KEYS = (
    "game",
    "what",
    "players",
    "unit",
    "n",
    "cpu_seconds",
    "per_second",
    "kernel",
    "kernel_per_second",
    "ratio",
    "target",
    "meets_target",
)


def best_cpu_seconds(work: Callable[[], object], repeats: int) -> float:
    """The least CPU time of ``repeats`` calls of ``work()``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return max(best, 1e-9)


def speed_row(
    *,
    game: str,
    what: str,
    players: int,
    unit: str,
    n: int,
    cpu_seconds: float,
    kernel: str,
    kernel_per_second: float,
    target: float | None,
) -> dict[str, Any]:
    """One row: ``n`` episodes (``unit``: games, heists) of the user-strategy engine in
    ``cpu_seconds``, the kernel's rate with ``kernel`` on the same table, their ratio, and the
    target per CPU-second (None: a row for information, without a target)."""
    rate = n / cpu_seconds
    return {
        "game": game,
        "what": what,
        "players": players,
        "unit": unit,
        "n": n,
        "cpu_seconds": round(cpu_seconds, 3),
        "per_second": round(rate),
        "kernel": kernel,
        "kernel_per_second": round(kernel_per_second),
        "ratio": round(rate / kernel_per_second, 4) if kernel_per_second > 0 else None,
        "target": target,
        "meets_target": None if target is None else bool(rate >= target),
    }
