"""The Gang as the runner sees it: one config type, heist rows or game rows, the player models.

Headline column ``success``: the heist succeeded (unit heist) or the game was won (unit game).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from cardsim.sims.core.simulator import Simulator
from cardsim.sims.gang.config import GangConfig
from cardsim.sims.gang.engine import play_batch
from cardsim.sims.gang.game import MAX_HEISTS, play_games
from cardsim.sims.gang.holdings import MAX_PLAYERS, MAX_POCKET
from cardsim.sims.gang.models import MODEL_DESCRIPTIONS


def _config_columns(config: GangConfig, n: int) -> dict[str, pl.Series]:
    return {
        "players": pl.Series(np.full(n, config.players, np.int8)),
        "model": pl.Series([config.model] * n, dtype=pl.String),
        "levels": pl.Series(np.full(n, config.levels, np.int16)),
    }


def heist_rows(
    config: GangConfig, raw: dict[str, np.ndarray], masks: np.ndarray, specialists: np.ndarray
) -> pl.DataFrame:
    """Episode rows of heists from the kernel's raw arrays.

    Columns: players, model, levels, challenges (bit mask, bit k = challenge k), specialist
    (number, 0 = none), success, order_ok (red chips in a correct order), scan_ok, pockets
    (6 x 3 final card codes, -1 = empty), board (5), chips (4 rounds x 6 players, stars, 0 = no
    chip), final_scores (6, Muscle bit included), redrawn (bit mask of players who redrew),
    specialist_user, specialist_detail (shown card / announced value / dropped slot),
    scan_guess (named value or ranking; both scans: value * 16 + ranking), random_order_p
    (exact success of a random red-chip order for this deal).
    """
    n = len(masks)
    flags = raw["flags"]
    order_ok = flags[:, 0] == 1
    scan_ok = flags[:, 1] == 1
    columns = _config_columns(config, n)
    columns.update(
        {
            "challenges": pl.Series(masks.astype(np.int16)),
            "specialist": pl.Series(specialists.astype(np.int8)),
            "success": pl.Series(order_ok & scan_ok),
            "order_ok": pl.Series(order_ok),
            "scan_ok": pl.Series(scan_ok),
            "pockets": pl.Series(
                raw["pockets"].reshape(n, MAX_PLAYERS * MAX_POCKET).astype(np.int8),
                dtype=pl.Array(pl.Int8, MAX_PLAYERS * MAX_POCKET),
            ),
            "board": pl.Series(raw["board"].astype(np.int8), dtype=pl.Array(pl.Int8, 5)),
            "chips": pl.Series(
                raw["chips"].reshape(n, 4 * MAX_PLAYERS).astype(np.int8),
                dtype=pl.Array(pl.Int8, 4 * MAX_PLAYERS),
            ),
            "final_scores": pl.Series(raw["finals"].astype(np.int32), dtype=pl.Array(pl.Int32, MAX_PLAYERS)),
            "redrawn": pl.Series(flags[:, 2].astype(np.int8)),
            "specialist_user": pl.Series(flags[:, 3].astype(np.int8)),
            "specialist_detail": pl.Series(flags[:, 4].astype(np.int16)),
            "scan_guess": pl.Series(flags[:, 5].astype(np.int16)),
            "random_order_p": pl.Series(raw["random_p"]),
        }
    )
    return pl.DataFrame(columns)


def run_batch(config: GangConfig, rng: np.random.Generator, n: int) -> pl.DataFrame:
    """Play ``n`` heists or ``n`` games (by ``config.unit``); one row each.

    Heist rows keep the deal (final pockets, board), every round's chips and the outcome, so
    later analysis can ask new questions without re-running. Game rows keep the outcome
    sequence ("SFS..."), final vault and alarm counts and each heist's active cards.
    """
    if config.unit == "heist":
        masks = np.full(n, config.challenge_bits, dtype=np.int64)
        specialists = np.full(n, config.specialist_id, dtype=np.int64)
        raw = play_batch(
            rng,
            config.players,
            config.model_id,
            config.levels,
            masks,
            specialists,
            config.use_round,
            boost_top=config.boost == "top",
            helpful=config.specialist_use == "helpful",
            jack_stays=config.jack == "stay",
        )
        return heist_rows(config, raw, masks, specialists)
    games = play_games(config, rng, n)
    columns = _config_columns(config, n)
    columns.update(
        {
            "mode": pl.Series([config.mode] * n, dtype=pl.String),
            "success": pl.Series(games["won"]),
            "vaults": pl.Series(games["vaults"]),
            "alarms": pl.Series(games["alarms"]),
            "heists": pl.Series((games["vaults"] + games["alarms"]).astype(np.int8)),
            "outcomes": pl.Series(list(games["outcomes"]), dtype=pl.String),
            "heist_challenges": pl.Series(games["heist_challenges"], dtype=pl.Array(pl.Int16, MAX_HEISTS)),
            "heist_specialists": pl.Series(games["heist_specialists"], dtype=pl.Array(pl.Int8, MAX_HEISTS)),
        }
    )
    return pl.DataFrame(columns)


SIMULATOR = Simulator(
    name="gang",
    config_type=GangConfig,
    run_batch=run_batch,
    headline="success",
    policies=MODEL_DESCRIPTIONS,
    chunk_size=2000,
)
