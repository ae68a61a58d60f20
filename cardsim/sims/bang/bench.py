"""`cardsim bench bang`: games per second on one core, compiled kernel vs interpreted reference.

The reference is the very same rules source run as plain Python
(:func:`cardsim.sims.bang.reference.interpreted_engine`), measured in the same process, so the
ratio is what numba buys. Targets: >= 2,000 games/s for 7 players with ``role`` bots, and
>= 5,000 games/s for 7 players with ``tuned`` bots, whose row also gives its speed
relative to the role bots measured in the same run. The search bot's rows play
7 players with one ``search`` seat (each role in turn) among ``tuned2`` bots, at the default
budget with its posterior over the other seats' policies on (target: >= 20 games per
CPU-second) and off, and at a quarter of the budget, so the posterior's and the budget's cost show;
they have no interpreted reference (it would take minutes). The user-strategy engine's speed
(:func:`strategy_rows`: a trivial Python strategy in one seat of 7 players, target >= 200 games
per CPU-second) is a row of ``cardsim bench strategies``. On a shared machine the wall-clock rate
depends on the other load, so each row also gives games per CPU-second of this process
(``cpu_games_per_second``, the one-core figure the targets are checked on).
"""

from __future__ import annotations

import time

import numpy as np

from cardsim.sims.bang import engine
from cardsim.sims.bang.cards import BOT_NAMES
from cardsim.sims.bang.reference import interpreted_engine
from cardsim.sims.bang.simulator import (
    POPULATION,
    BangConfig,
    bot_params,
    parse_bots,
    population_tables,
)
from cardsim.sims.bang.state import SEARCH_BUDGET

TARGETS = {(7, "role"): 2000.0, (7, "tuned"): 5000.0}
SEARCH_TARGET = 20.0
STRATEGY_TARGET = 200.0


def games_per_second(module, config: BangConfig, n: int, seed: int) -> tuple[float, float, float]:
    """(games per wall second, games per CPU second, mean turns per game) playing n games
    with ``module.play_games``."""
    rng = np.random.default_rng(seed)
    params = config.params_by_role()
    start, cpu = time.perf_counter(), time.process_time()
    result = module.play_games(n, config.players, config.bots_by_role(), params, config.max_turns, rng, False)
    elapsed, cpu_elapsed = time.perf_counter() - start, time.process_time() - cpu
    return n / elapsed, n / max(cpu_elapsed, 1e-9), float(result[1].mean())


def main(quick: bool) -> list[dict]:
    """Rows: compiled and interpreted speed for 7 players (role, tuned, random bots) and 4
    players (role bots)."""
    compiled_n, reference_n = (2_000, 20) if quick else (20_000, 100)
    engine.play_games(2, 4, np.array([1, 1, 1, 1]), engine.DEFAULT_PARAMS, 100, np.random.default_rng(0), False)  # warm
    interpreted = interpreted_engine()
    rows = []
    role_cpu_rate = None
    for players, bots in ((7, "role"), (7, "tuned"), (7, "random"), (4, "role")):
        config = BangConfig(players=players, **parse_bots(bots))
        fast, fast_cpu, turns = games_per_second(engine, config, compiled_n, seed=1)
        slow, slow_cpu, _ = games_per_second(interpreted, config, reference_n, seed=1)
        row = {
            "what": f"{players} players, {bots} bots",
            "games_per_second": round(fast, 1),
            "cpu_games_per_second": round(fast_cpu, 1),
            "mean_turns": round(turns, 1),
            "reference_games_per_second": round(slow, 2),
            "ratio": round(fast_cpu / slow_cpu, 1),
        }
        if (players, bots) == (7, "role"):
            role_cpu_rate = fast_cpu
        if (players, bots) == (7, "tuned") and role_cpu_rate:
            row["vs_role_bots"] = round(fast_cpu / role_cpu_rate, 2)
        if (players, bots) in TARGETS:
            row["target"] = TARGETS[(players, bots)]
            row["meets_target"] = bool(fast_cpu >= TARGETS[(players, bots)])
        rows.append(row)
    for budget, posterior in ((SEARCH_BUDGET, True), (SEARCH_BUDGET, False), (SEARCH_BUDGET // 4, True)):
        rows.append(search_row(budget, 20 if quick else 100, posterior))
    return rows


class _FirstChoice:
    """The trivial user strategy of the benchmark: the first legal choice of every decision."""

    def __getattr__(self, name: str):
        from cardsim.sims.bang.strategy import DECISIONS

        if name not in DECISIONS:
            raise AttributeError(name)
        return lambda view, legal: legal[0]


def strategy_rows(quick: bool = False) -> list[dict]:
    """Games per CPU-second of the user-strategy engine (:mod:`cardsim.sims.bang.strategy`):
    7 players, a trivial Python strategy (the first legal choice of every decision, each
    checked as for a user's) in one seat, each role in turn, role bots elsewhere, beside the
    compiled kernel on the same deals with the role bot in that seat, measured in the same run
    (``cardsim bench strategies``)."""
    from cardsim.sims.bang.strategy import UserSeat, builtin_games, play_user_games
    from cardsim.sims.core.strategy_bench import speed_row

    n = 100 if quick else 400
    user_cpu = kernel_cpu = 0.0
    for role in range(4):
        seat = UserSeat(_FirstChoice(), "bench", role)
        play_user_games(seat, 7, "role", "role", 90 + role, 95 + role, 2)  # load the kernels
        clock = time.process_time()
        play_user_games(seat, 7, "role", "role", role, 10 + role, n)
        user_cpu += time.process_time() - clock
        clock = time.process_time()
        builtin_games(role, 7, "role", "role", role, 10 + role, n)
        kernel_cpu += time.process_time() - clock
    return [
        speed_row(
            game="Bang!",
            what="trivial strategy in one seat (each role in turn), role bots elsewhere",
            players=7,
            unit="games",
            n=4 * n,
            cpu_seconds=max(user_cpu, 1e-9),
            kernel="role",
            kernel_per_second=4 * n / max(kernel_cpu, 1e-9),
            target=STRATEGY_TARGET,
        )
    ]


def search_row(budget: int, n_per_role: int, posterior: bool = True) -> dict:
    """Games per second of 7-player games with one search seat (each role in turn, the same
    number of games) among tuned2 bots, at ``budget`` rollouts per decision, with its
    posterior over the default population of opponent policies on or off."""
    population = population_tables(list(POPULATION), 7) if posterior else None
    table = bot_params("tuned2", 7)
    bots = np.full(4, BOT_NAMES.index("tuned2"), dtype=np.int64)
    search = BOT_NAMES.index("search")
    engine.play_focus_games(
        1,
        7,
        bots,
        table,
        2,
        search,
        table[2],
        1000,
        np.random.default_rng(0),
        np.random.default_rng(0),
        False,
        rollout_params=table,
        search_budget=budget,
        population=population,
    )  # warm
    wall = cpu = 0.0
    turns = []
    for role in range(4):
        start, clock = time.perf_counter(), time.process_time()
        result = engine.play_focus_games(
            n_per_role,
            7,
            bots,
            table,
            role,
            search,
            table[role],
            1000,
            np.random.default_rng(role),
            np.random.default_rng(10 + role),
            False,
            rollout_params=table,
            search_budget=budget,
            population=population,
        )
        wall += time.perf_counter() - start
        cpu += time.process_time() - clock
        turns.append(float(result[1].mean()))
    games = 4 * n_per_role
    row = {
        "what": f"7 players, one search seat (budget {budget}, posterior {'on' if posterior else 'off'}), tuned2 bots",
        "games_per_second": round(games / wall, 1),
        "cpu_games_per_second": round(games / max(cpu, 1e-9), 1),
        "mean_turns": round(float(np.mean(turns)), 1),
        "budget": budget,
    }
    if budget == SEARCH_BUDGET and posterior:
        row["target"] = SEARCH_TARGET
        row["meets_target"] = bool(games / max(cpu, 1e-9) >= SEARCH_TARGET)
    return row
