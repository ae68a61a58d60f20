"""Bang! summaries from the episode table: side win rates, per character, game length.

Every rate carries n and a 95% Wilson interval (:mod:`cardsim.analysis.stats`). The episode
table is the one :func:`cardsim.sims.bang.simulator.run_batch` returns (one row per game).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from cardsim.analysis.stats import mean_table, proportion_table
from cardsim.sims.bang.cards import CHARACTER_NAMES, ROLE_NAMES, ROLE_SIDE, SIDE_NAMES

MAX_SEATS = 7


def side_win_table(episodes: pl.DataFrame) -> pl.DataFrame:
    """Per player count and side (sheriff = Sheriff + Deputies, outlaws, renegade, none):
    games, games won, p and its 95% interval."""
    frames = []
    for code, side in enumerate(SIDE_NAMES):
        frames.append(
            episodes.select(
                pl.col("players"),
                pl.lit(side).alias("side"),
                (pl.col("winner") == code).alias("won"),
            )
        )
    long = pl.concat(frames)
    return proportion_table(long, ["players", "side"], "won").sort(["players", "side"])


def seat_table(episodes: pl.DataFrame) -> pl.DataFrame:
    """One row per seat actually used: players, seat, role, character, won, survived."""
    frames = []
    for seat in range(MAX_SEATS):
        frames.append(
            episodes.filter(pl.col(f"role_{seat}") >= 0).select(
                pl.col("players"),
                pl.lit(seat, dtype=pl.Int8).alias("seat"),
                pl.col(f"role_{seat}").cast(pl.Int64).alias("role_code"),
                pl.col(f"char_{seat}").cast(pl.Int64).alias("char_code"),
                pl.col("winner").cast(pl.Int64),
                (pl.col(f"alive_{seat}") == 1).alias("survived"),
            )
        )
    seats = pl.concat(frames)
    role_code = seats["role_code"].to_numpy()
    won = ROLE_SIDE[role_code] == seats["winner"].to_numpy()
    return seats.with_columns(
        pl.Series("won", won),
        pl.Series("role", np.array(ROLE_NAMES)[role_code]),
        pl.Series("character", np.array(CHARACTER_NAMES)[seats["char_code"].to_numpy()]),
    ).drop("role_code", "char_code")


def role_win_table(episodes: pl.DataFrame) -> pl.DataFrame:
    """Per player count and role: seats with that role, how many won, p and 95% interval."""
    return proportion_table(seat_table(episodes), ["players", "role"], "won").sort(
        ["players", "role"]
    )


def character_win_table(episodes: pl.DataFrame, *, by_role: bool = False) -> pl.DataFrame:
    """Per character (optionally per character and role): seats, wins, p, 95% interval,
    sorted by win rate. Roles are dealt at random, so characters meet every role."""
    keys = ["character", "role"] if by_role else ["character"]
    table = proportion_table(seat_table(episodes), keys, "won")
    survived = seat_table(episodes).group_by(keys).agg(pl.col("survived").mean())
    return table.join(survived, on=keys).sort("p", descending=True)


def length_table(episodes: pl.DataFrame) -> pl.DataFrame:
    """Per player count: mean game length in player turns with its 95% interval."""
    return mean_table(episodes, ["players"], "turns").sort("players")


def elimination_table(episodes: pl.DataFrame) -> pl.DataFrame:
    """Who eliminated whom: per player count, victim role and killer role ('dynamite' when no
    player caused it), the number of eliminations and their share of that victim role's."""
    roles = np.stack([episodes[f"role_{s}"].to_numpy() for s in range(MAX_SEATS)], axis=1)
    killers = np.stack([episodes[f"killer_{s}"].to_numpy() for s in range(MAX_SEATS)], axis=1)
    dead = np.stack([episodes[f"alive_{s}"].to_numpy() == 0 for s in range(MAX_SEATS)], axis=1)
    dead &= roles >= 0
    rows, seats = np.nonzero(dead)
    killer_seat = killers[rows, seats].astype(np.int64)
    killer_role = np.where(killer_seat >= 0, roles[rows, np.maximum(killer_seat, 0)], -1)
    names = np.array(ROLE_NAMES + ("dynamite",))
    frame = pl.DataFrame(
        {
            "players": episodes["players"].to_numpy()[rows],
            "victim": names[roles[rows, seats].astype(np.int64)],
            "killer": names[killer_role.astype(np.int64)],
        }
    )
    counts = frame.group_by(["players", "victim", "killer"]).agg(pl.len().alias("n"))
    return counts.with_columns(
        (pl.col("n") / pl.col("n").sum().over(["players", "victim"])).alias("share")
    ).sort(["players", "victim", "n"], descending=[False, False, True])
