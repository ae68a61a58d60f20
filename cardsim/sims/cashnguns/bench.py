"""`cardsim bench cashnguns`: games per second for 5 players on one core, against the
plain-Python reference engine in the same process (target: >= 20,000 games/s), and the
user-strategy engine with a trivial Python strategy in one seat (target: >= 2,000 games/s;
:func:`strategy_rows` gives that row to ``cardsim bench strategies``, beside the
kernel on the same table), and the ``search`` player at its default budget in seat 0 of the
same table (target: >= 10 games/s).

Rates are per CPU-second of this process (``time.process_time``), which stays meaningful on
a machine shared with other jobs; the wall-clock rate is reported next to it.
"""

from __future__ import annotations

import time

import numpy as np

from cardsim.sims.cashnguns.config import CashNGunsConfig
from cardsim.sims.cashnguns.reference import play_reference_game
from cardsim.sims.cashnguns.simulator import play_games, run_batch

TARGET_GAMES_PER_SECOND = 20_000
#: Games per CPU-second of the user-strategy engine with a trivial strategy in one seat.
TARGET_USER_GAMES_PER_SECOND = 2_000
#: Games per CPU-second with the ``search`` player (default budget) in one seat of five.
TARGET_SEARCH_GAMES_PER_SECOND = 10


class Trivial:
    """The cheapest strategy: the first legal choice of every decision, never lie down."""

    def aim(self, view, legal):
        return legal[0]

    def card(self, view, legal):
        return legal[0]

    def lie_down(self, view, legal):
        return False


BENCH_TABLE = CashNGunsConfig(players=5, strategies=("shark", "hunter", "coward", "stubborn", "avenger"))


def _best_time(work, repeats: int) -> tuple[float, float]:
    """Best (CPU seconds, wall seconds) over ``repeats`` timed calls of ``work()``."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeats):
        cpu, wall = time.process_time(), time.perf_counter()
        work()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


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

    timings = [
        (
            "reference (plain Python)",
            reference_games,
            _best_time(
                lambda: [play_reference_game(int(s), strategies, shame_units) for s in seeds[:reference_games]], 1
            ),
        ),
        ("kernel (numba batch)", games, _best_time(lambda: play_games(config, seeds), repeats)),
        (
            "run_batch (kernel + table)",
            games,
            _best_time(lambda: run_batch(config, np.random.default_rng(1), games), repeats),
        ),
    ]
    from cardsim.sims.cashnguns import strategy as engine

    user_slots = _user_table(config)
    engine.play_games(seeds[:20], [user_slots] * 20, config.shame_value)  # load the kernels first
    timings.append(
        (
            "user strategy (Python engine, one seat)",
            reference_games,
            _best_time(
                lambda: engine.play_games(seeds[:reference_games], [user_slots] * reference_games, config.shame_value),
                1,
            ),
        )
    )
    from cardsim.sims.cashnguns.search import DEFAULT_BUDGET

    search_config = CashNGunsConfig(players=config.players, strategies=("search", *config.strategies[1:]))
    search_games = 20 if quick else 100
    play_games(search_config, seeds[:2])  # compile the search (or load the cache) first
    timings.append(
        (
            f"search player (one seat, budget {DEFAULT_BUDGET})",
            search_games,
            _best_time(lambda: play_games(search_config, seeds[:search_games]), 1),
        )
    )
    reference_rate = reference_games / timings[0][2][0]
    rows = []
    for what, count, (cpu_seconds, wall_seconds) in timings:
        target = (
            TARGET_USER_GAMES_PER_SECOND
            if what.startswith("user")
            else TARGET_SEARCH_GAMES_PER_SECOND
            if what.startswith("search")
            else TARGET_GAMES_PER_SECOND
        )
        rate = count / cpu_seconds
        rows.append(
            {
                "what": what,
                "players": config.players,
                "games": count,
                "cpu_seconds": round(cpu_seconds, 3),
                "per_second": round(rate),
                "wall_per_second": round(count / wall_seconds),
                "ratio": round(rate / reference_rate, 1),
                "target": target,
                "meets_target": bool(rate >= target),
            }
        )
    return rows


def _user_table(config: CashNGunsConfig) -> list:
    """The bench table with :class:`Trivial` in slot 0 instead of its built-in."""
    from cardsim.sims.cashnguns.strategy import Seat

    rows = [s.param_row() for s in config.slot_strategies()]
    return [Seat(Trivial(), "bench:Trivial"), *rows[1:]]


def strategy_rows(quick: bool = False) -> list[dict]:
    """Games per CPU-second of the user-strategy engine (:func:`strategy.play_games`) with
    :class:`Trivial` in slot 0 of :data:`BENCH_TABLE` (a user's strategy takes one seat), every
    decision checked as for a user's, beside the kernel playing the same table (``shark`` in
    slot 0) on the same seeds in the same run."""
    from cardsim.sims.cashnguns import strategy as engine
    from cardsim.sims.core.strategy_bench import best_cpu_seconds, speed_row

    config = BENCH_TABLE
    n = 1_000 if quick else 4_000
    repeats = 2 if quick else 3
    seeds = np.random.default_rng(3).integers(0, 2**63, max(n, 20_000)).astype(np.uint64)
    user_slots = _user_table(config)
    lineups = [user_slots] * n
    engine.play_games(seeds[:20], lineups[:20], config.shame_value)  # load the kernels first
    cpu_seconds = best_cpu_seconds(lambda: engine.play_games(seeds[:n], lineups, config.shame_value), repeats)
    play_games(config, seeds[:10])
    kernel_seconds = best_cpu_seconds(lambda: play_games(config, seeds), repeats)
    names = ", ".join(config.strategies[1:])
    return [
        speed_row(
            game="Cash'n Guns",
            what=f"trivial strategy in seat 0 (first legal choice, never lies down); seats 1-4: {names}",
            players=config.players,
            unit="games",
            n=n,
            cpu_seconds=cpu_seconds,
            kernel=f"{config.strategies[0]} in seat 0",
            kernel_per_second=seeds.size / kernel_seconds,
            target=TARGET_USER_GAMES_PER_SECOND,
        )
    ]
