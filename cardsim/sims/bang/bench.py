"""`cardsim bench bang`: games per second on one core, compiled kernel vs interpreted reference.

The reference is the very same rules source run as plain Python
(:func:`cardsim.sims.bang.reference.interpreted_engine`), measured in the same process, so the
ratio is what numba buys. The target is >= 2,000 games/s for 7 players with ``role`` bots.
"""

from __future__ import annotations

import time

import numpy as np

from cardsim.sims.bang import engine
from cardsim.sims.bang.reference import interpreted_engine
from cardsim.sims.bang.simulator import BangConfig, parse_bots

TARGET_GAMES_PER_SECOND = 2000.0


def games_per_second(module, config: BangConfig, n: int, seed: int) -> tuple[float, float]:
    """(games per second, mean turns per game) playing n games with ``module.play_games``."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    result = module.play_games(n, config.players, config.bots_by_role(), config.params_by_role(),
                               config.max_turns, rng, False)
    elapsed = time.perf_counter() - start
    return n / elapsed, float(result[1].mean())


def main(quick: bool) -> list[dict]:
    """Rows: compiled and interpreted speed for 7 players (role and random bots), 4 players."""
    compiled_n, reference_n = (2_000, 20) if quick else (20_000, 100)
    engine.play_games(2, 4, np.array([1, 1, 1, 1]), engine.DEFAULT_PARAMS, 100,
                      np.random.default_rng(0), False)  # warm
    interpreted = interpreted_engine()
    rows = []
    for players, bots in ((7, "role"), (7, "random"), (4, "role")):
        config = BangConfig(players=players, **parse_bots(bots))
        fast, turns = games_per_second(engine, config, compiled_n, seed=1)
        slow, _ = games_per_second(interpreted, config, reference_n, seed=1)
        row = {
            "what": f"{players} players, {bots} bots",
            "games_per_second": round(fast, 1),
            "mean_turns": round(turns, 1),
            "reference_games_per_second": round(slow, 2),
            "ratio": round(fast / slow, 1),
        }
        if (players, bots) == (7, "role"):
            row["target"] = TARGET_GAMES_PER_SECOND
            row["meets_target"] = bool(fast >= TARGET_GAMES_PER_SECOND)
        rows.append(row)
    return rows
