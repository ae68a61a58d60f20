"""Bang! summaries from the episode table: side win rates, per character, game length.

Every rate carries n and a 95% Wilson interval (:mod:`cardsim.stats`). The episode
table is the one :func:`cardsim.sims.bang.simulator.run_batch` returns (one row per game).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from cardsim.sims.bang.cards import CHARACTER_NAMES, ROLE_NAMES, ROLE_SIDE, SIDE_NAMES
from cardsim.stats import mean_table, proportion_table

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
    """One row per seat actually used: game (the episode's row), players, seat, role,
    character, won, survived."""
    frames = []
    numbered = episodes.with_row_index("game")
    for seat in range(MAX_SEATS):
        frames.append(
            numbered.filter(pl.col(f"role_{seat}") >= 0).select(
                pl.col("game"),
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
    """Per player count and role: games with that role, how many the role won, p and its 95%
    interval.

    The unit is the game: every seat of a role wins or loses with its side (two Outlaws win
    together), so the seats of one role in one game are one observation, not several; p is
    both the chance that the role's side wins and the chance that a seat dealt the role
    wins."""
    games = seat_table(episodes).group_by(["game", "players", "role"], maintain_order=True).agg(pl.col("won").first())
    return proportion_table(games, ["players", "role"], "won").sort(["players", "role"])


def character_win_table(episodes: pl.DataFrame, *, by_role: bool = False) -> pl.DataFrame:
    """Per character (optionally per character and role): seats, wins, p, 95% interval,
    sorted by win rate, ties by name (so the same episodes give the same table). A character
    is dealt to at most one seat per game, so its seats are games (the unit of the
    interval)."""
    keys = ["character", "role"] if by_role else ["character"]
    table = proportion_table(seat_table(episodes), keys, "won")
    survived = seat_table(episodes).group_by(keys).agg(pl.col("survived").mean())
    return table.join(survived, on=keys).sort(["p", *keys], descending=[True] + [False] * len(keys))


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
    return counts.with_columns((pl.col("n") / pl.col("n").sum().over(["players", "victim"])).alias("share")).sort(
        ["players", "victim", "n"], descending=[False, False, True]
    )


def _leader(table: pl.DataFrame, key: str, lowest: bool) -> tuple[str, bool, float]:
    """(the row's ``key`` with the highest p, or the lowest; whether its 95% interval is clear
    of every other row's; its margin in p over the runner-up)."""
    ordered = table.sort(["p", key], descending=[not lowest, False])
    top = ordered.row(0, named=True)
    rest = ordered.slice(1)
    if lowest:
        clear = bool((rest["lo"] > top["hi"]).all())
    else:
        clear = bool((rest["hi"] < top["lo"]).all())
    margin = abs(float(rest["p"][0]) - float(top["p"])) if rest.height else float("inf")
    return str(top[key]), clear, margin


def ladder_conclusions(sides: dict[str, pl.DataFrame], roles: dict[str, pl.DataFrame]) -> list[str]:
    """Plain-words balance findings across bot rungs (``sides``/``roles``: per rung name, the
    :func:`side_win_table` / :func:`role_win_table` of that rung). Per player count: the
    favoured side and the weakest role, said to hold on every rung only when every rung agrees
    and separates it from the rest at 95% (with the narrowest margin over the runner-up, to show
    how close it came), otherwise named per rung as bot-dependent; and the
    Sheriff side's trend with the player count."""
    rungs = list(sides)
    lines = []
    counts = sorted(set(sides[rungs[0]]["players"].to_list()))
    for what, tables, key, lowest in (
        ("favoured side", sides, "side", False),
        ("weakest role (per seat)", roles, "role", True),
    ):
        for players in counts:
            picks = {}
            for rung in rungs:
                table = tables[rung].filter(pl.col("players") == players)
                if key == "side":
                    table = table.filter(pl.col("side") != "none")
                picks[rung] = _leader(table, key, lowest)
            names = {name for name, _, _ in picks.values()}
            if len(names) == 1 and all(clear for _, clear, _ in picks.values()):
                closest = min(picks, key=lambda r: picks[r][2])
                lines.append(
                    f"{players} players, {what}: {names.pop()} on every rung "
                    f"({', '.join(rungs)}), separated at 95% on each (narrowest margin "
                    f"{100 * picks[closest][2]:.1f} points, {closest}): holds."
                )
            elif len(names) == 1:
                unclear = [r for r, (_, clear, _) in picks.items() if not clear]
                lines.append(
                    f"{players} players, {what}: {names.pop()} on every rung, but not "
                    f"separated at 95% with {', '.join(unclear)} bots."
                )
            else:
                per_rung = "; ".join(
                    f"{r}: {name}" + ("" if clear else " (not separated at 95%)")
                    for r, (name, clear, _) in picks.items()
                )
                lines.append(f"{players} players, {what}: depends on the bots ({per_rung}).")
    for rung in rungs:
        law = sides[rung].filter(pl.col("side") == "sheriff").sort("players")["p"].to_list()
        trend = (
            "falls with every added player"
            if all(a > b for a, b in zip(law, law[1:]))
            else "zigzags with the player count"
        )
        lines.append(
            f"Sheriff side with {rung} bots {trend} (point estimates): "
            + ", ".join(f"{p:.3f}" for p in law)
            + f" at {counts[0]}-{counts[-1]}."
        )
    return lines
