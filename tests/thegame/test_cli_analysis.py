"""CLI, summary tables and plots of The Game."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
from typer.testing import CliRunner

from cardsim.analysis.thegame import (
    anchor_check,
    best_anchor,
    cards_left_counts,
    cards_left_distribution,
    summary_table,
)
from cardsim.commands.thegame import app
from cardsim.sims.thegame.simulator import SIMULATOR

runner = CliRunner()


def episodes() -> pl.DataFrame:
    frames = [
        SIMULATOR.run_batch(SIMULATOR.make_config(players=p, strategy=s), np.random.default_rng(p), 200)
        for p in (1, 2)
        for s in ("greedy", "planner")
    ]
    return pl.concat(frames)


def test_summary_intervals_bracket_the_estimates() -> None:
    table = summary_table(episodes())
    assert table.height == 4
    assert (table["n"] == 200).all()
    for column in ("win", "excellent", "cards_left"):
        assert (table[f"{column}_lo"] <= table[column]).all()
        assert (table[column] <= table[f"{column}_hi"]).all()
    frame = episodes()
    part = frame.filter((pl.col("players") == 2) & (pl.col("strategy") == "planner"))
    row = table.filter((pl.col("players") == 2) & (pl.col("strategy") == "planner"))
    assert row["win"][0] == part["won"].mean()
    assert row["cards_left"][0] == part["cards_left"].mean()


def test_distribution_shares_sum_to_one() -> None:
    table = cards_left_distribution(episodes())
    shares = table.drop("players", "strategy", "n").sum_horizontal()
    assert np.allclose(shares.to_numpy(), 1.0)
    counts = cards_left_counts(episodes())
    assert counts["games"].sum() == 800


def test_anchor_check_uses_the_highest_published_rate() -> None:
    assert best_anchor(1) == 0.118
    assert best_anchor(2) == 0.24  # full communication beats the 18.8% no-communication figure
    assert best_anchor(5) == 0.144  # the RL agent
    checked = anchor_check(summary_table(episodes()))
    expected = (checked["win_lo"] > checked["anchor"]).to_list()
    assert checked["beats_anchor"].to_list() == expected


def test_run_command_prints_rates_and_distribution() -> None:
    result = runner.invoke(
        app,
        [
            "run",
            "--players",
            "1-2",
            "--strategy",
            "greedy,planner",
            "--n",
            "300",
            "--no-store",
            "--jobs",
            "1",
            "--quiet",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    tables = json.loads(result.output)["tables"]
    summary, distribution = tables["summary"], tables["cards_left_distribution"]
    assert len(summary) == 4 and len(distribution) == 4
    assert {"win", "win_lo", "win_hi", "excellent", "cards_left", "anchor"} <= set(summary[0])


def test_run_command_writes_plots(tmp_path) -> None:
    result = runner.invoke(
        app,
        [
            "run",
            "--players",
            "1",
            "--strategy",
            "random,greedy",
            "--n",
            "200",
            "--no-store",
            "--jobs",
            "1",
            "--quiet",
            "--plot",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["thegame_cards_left_1p.svg", "thegame_win_rate.svg"]
    assert "<svg" in (tmp_path / "thegame_win_rate.svg").read_text()


def test_strategies_command_lists_the_ladder() -> None:
    result = runner.invoke(app, ["strategies", "--json"])
    assert result.exit_code == 0
    names = [row["strategy"] for row in json.loads(result.output)["tables"]["strategies"]]
    assert names == ["random", "greedy", "planner", "signals", "search", "omniscient"]


def test_bad_player_count_is_one_line_exit_2() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "cardsim.cli", "thegame", "run", "--players", "0-2", "--n", "10", "--no-store"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "players" in done.stderr


def test_summary_interval_is_per_game_never_per_player() -> None:
    """The players of a game win together: the win interval is the game-level Wilson interval
    (n = games); a table with one (perfectly correlated) row per player is refused."""
    from cardsim.stats import wilson_interval

    games = pl.DataFrame(
        {
            "players": [3] * 50,
            "strategy": ["greedy"] * 50,
            "won": [True] * 10 + [False] * 40,
            "excellent": [True] * 20 + [False] * 30,
            "cards_left": [0] * 10 + [12] * 40,
        }
    )
    row = summary_table(games).row(0, named=True)
    lo, hi = wilson_interval(10, 50)
    assert row["n"] == 50 and np.isclose(row["win_lo"], lo) and np.isclose(row["win_hi"], hi)
    seats = pl.concat([games.with_columns(pl.lit(k).alias("player")) for k in range(3)])
    import pytest

    with pytest.raises(ValueError, match="one row per game"):
        summary_table(seats)
