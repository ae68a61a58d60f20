"""`cardsim bench cashnguns`: games per second for 5 players on one core, against the
plain-Python reference engine in the same process (target: >= 20,000 games/s)."""

from __future__ import annotations

import time

import numpy as np

from cardsim.sims.cashnguns.config import CashNGunsConfig
from cardsim.sims.cashnguns.reference import play_reference_game
from cardsim.sims.cashnguns.simulator import play_games, run_batch

TARGET_GAMES_PER_SECOND = 20_000
BENCH_TABLE = CashNGunsConfig(players=5, strategies=("shark", "hunter", "coward", "stubborn", "avenger"))


def _best_rate(work, games: int, repeats: int) -> tuple[float, float]:
    """Best (games/s, seconds) over ``repeats`` timed calls of ``work()``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return games / best, best


def main(quick: bool = False) -> list[dict]:
    """Time the compiled kernel, the full ``run_batch`` (kernel + episode table) and the
    reference engine on the same 5-player table, one process, one core."""
    config = BENCH_TABLE
    games = 50_000 if quick else 200_000
    reference_games = 100 if quick else 1_000
    repeats = 2 if quick else 3
    seeds = np.random.default_rng(0).integers(0, 2**63, games).astype(np.uint64)
    play_games(config, seeds[:10])  # compile (or load the cache) outside the timing
    strategies = config.slot_strategies()
    shame_units = config.shame_value / 5_000

    reference_rate, reference_seconds = _best_rate(
        lambda: [play_reference_game(int(s), strategies, shame_units) for s in seeds[:reference_games]],
        reference_games, 1,
    )
    kernel_rate, kernel_seconds = _best_rate(lambda: play_games(config, seeds), games, repeats)
    batch_rate, batch_seconds = _best_rate(
        lambda: run_batch(config, np.random.default_rng(1), games), games, repeats
    )
    rows = []
    for what, count, seconds, rate in (
        ("reference (plain Python)", reference_games, reference_seconds, reference_rate),
        ("kernel (numba batch)", games, kernel_seconds, kernel_rate),
        ("run_batch (kernel + table)", games, batch_seconds, batch_rate),
    ):
        rows.append({
            "what": what,
            "players": config.players,
            "games": count,
            "seconds": round(seconds, 3),
            "per_second": round(rate),
            "ratio": round(rate / reference_rate, 1),
            "target": TARGET_GAMES_PER_SECOND,
            "meets_target": bool(rate >= TARGET_GAMES_PER_SECOND),
        })
    return rows
