"""Bang! summaries on a hand-made episode table with known answers, and the side plot."""

from __future__ import annotations

import numpy as np
import polars as pl

from cardsim.analysis.bang import (
    character_win_table,
    elimination_table,
    length_table,
    role_win_table,
    side_win_table,
)
from cardsim.reports.plots.bang import side_win_plot
from cardsim.sims.bang import cards as C
from cardsim.stats import wilson_interval


def _episodes() -> pl.DataFrame:
    """Three 4-player games: the law wins once, the Outlaws twice; Paul Regret is the Sheriff
    in game 0 (won) and an Outlaw in game 1 (won)."""
    rows = []
    setups = [
        (C.SIDE_LAW, [C.SHERIFF, C.RENEGADE, C.OUTLAW, C.OUTLAW], [C.PAUL_REGRET, 1, 2, 3], 20),
        (C.SIDE_OUTLAWS, [C.SHERIFF, C.OUTLAW, C.RENEGADE, C.OUTLAW], [4, C.PAUL_REGRET, 2, 3], 30),
        (C.SIDE_OUTLAWS, [C.SHERIFF, C.OUTLAW, C.OUTLAW, C.RENEGADE], [4, 5, 2, 3], 40),
    ]
    for winner, roles, chars, turns in setups:
        row = {"players": 4, "winner": winner, "turns": turns, "sheriff_won": winner == C.SIDE_LAW}
        for seat in range(7):
            row[f"role_{seat}"] = roles[seat] if seat < 4 else -1
            row[f"char_{seat}"] = chars[seat] if seat < 4 else -1
            row[f"alive_{seat}"] = 1 if seat < 4 and seat != 0 else 0
            row[f"life_{seat}"] = 1 if seat < 4 else 0
            row[f"killer_{seat}"] = -1
            row[f"out_turn_{seat}"] = turns if seat == 0 else 0
        rows.append(row)
    columns = pl.col("^(role|char|alive|life)_.*$", "winner")
    return pl.DataFrame(rows).with_columns(columns.cast(pl.Int8))


def test_side_win_table_counts_and_intervals() -> None:
    table = side_win_table(_episodes())
    outlaws = table.filter(pl.col("side") == "outlaws").row(0, named=True)
    assert (outlaws["n"], outlaws["successes"]) == (3, 2)
    lo, hi = wilson_interval(2, 3)
    assert np.isclose(outlaws["lo"], lo) and np.isclose(outlaws["hi"], hi)
    assert table["successes"].sum() == 3


def test_role_win_table_counts_games() -> None:
    table = role_win_table(_episodes())
    outlaw = table.filter(pl.col("role") == "outlaw").row(0, named=True)
    assert (outlaw["n"], outlaw["successes"]) == (3, 2)  # two Outlaw seats per game, one unit
    renegade = table.filter(pl.col("role") == "renegade").row(0, named=True)
    assert (renegade["n"], renegade["successes"]) == (3, 0)


def test_role_interval_is_the_game_level_one() -> None:
    """The two Outlaw seats of a game win together: the Outlaw row is the game-level Wilson
    interval of 'the Outlaws won', the same as the sides table's, not one over 2 x games."""
    episodes = pl.concat([_episodes()] * 40)  # 120 games, 240 perfectly correlated Outlaw seats
    outlaw = role_win_table(episodes).filter(pl.col("role") == "outlaw").row(0, named=True)
    side = side_win_table(episodes).filter(pl.col("side") == "outlaws").row(0, named=True)
    assert (outlaw["n"], outlaw["successes"]) == (120, 80)
    lo, hi = wilson_interval(80, 120)
    assert np.isclose(outlaw["lo"], lo) and np.isclose(outlaw["hi"], hi)
    assert np.isclose(outlaw["lo"], side["lo"]) and np.isclose(outlaw["hi"], side["hi"])


def test_character_win_table() -> None:
    table = character_win_table(_episodes())
    paul = table.filter(pl.col("character") == "Paul Regret").row(0, named=True)
    assert (paul["n"], paul["successes"]) == (2, 2)
    assert table["n"].sum() == 12


def test_length_table_mean() -> None:
    row = length_table(_episodes()).row(0, named=True)
    assert row["mean"] == 30.0 and row["lo"] < 30.0 < row["hi"]


def test_side_plot_draws_one_series_per_side() -> None:
    fig = side_win_plot(side_win_table(_episodes()))
    ax = fig.axes[0]
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert labels == ["sheriff", "outlaws", "renegade"]  # 'none' never happened: not drawn


def test_elimination_table_names_killer_roles() -> None:
    episodes = _episodes().with_columns(
        pl.lit(2, dtype=pl.Int8).alias("killer_0"),  # seat 2 shot the Sheriff in every game
    )
    table = elimination_table(episodes)
    # Sheriff dead in all three games: killed by the Outlaw (game 0, 2) / Renegade (game 1)
    by_killer = dict(zip(table["killer"].to_list(), table["n"].to_list(), strict=True))
    assert by_killer == {"outlaw": 2, "renegade": 1}
    assert abs(table["share"].sum() - 1.0) < 1e-12
