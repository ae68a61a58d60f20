"""`cardsim gang ...`: commands run end to end, print intervals, and fail with one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import polars as pl
import pytest
from typer.testing import CliRunner

from cardsim.cli import app
from cardsim.errors import UserError


def cardsim(*args: str, tmp_path) -> subprocess.CompletedProcess | object:
    """Run ``cardsim gang ARGS`` in-process (exit code and stdout like the console script)."""
    env = {"CARDSIM_STORE": str(tmp_path / "store")}
    return CliRunner().invoke(app, ["gang", *args], env=env)


def test_bad_player_count_is_one_line_from_the_console_script(tmp_path) -> None:
    env = dict(os.environ, CARDSIM_STORE=str(tmp_path / "store"))
    result = subprocess.run(
        [sys.executable, "-m", "cardsim.cli", "gang", "heist", "--players", "7", "--n", "10"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "players must be 3 to 6" in lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["heist", "--players", "2", "--n", "10"], "players must be 3 to 6"),
        (["heist", "--model", "oracle", "--n", "10"], "unknown model"),
        (["heist", "--challenge", "lasers", "--n", "10"], "unknown challenge"),
        (["game", "--mode", "expert", "--n", "10"], "unknown mode"),
        (["cards", "--kind", "jokers", "--n", "10"], "--kind must be"),
    ],
)
def test_bad_input_is_a_user_error(args, message, tmp_path) -> None:
    result = cardsim(*args, tmp_path=tmp_path)
    assert isinstance(result.exception, UserError) and message in str(result.exception)


def test_heist_prints_success_with_interval(tmp_path) -> None:
    result = cardsim(
        "heist", "--players", "3", "--model", "history", "--n", "500", "--jobs", "1", "--json", "-q", tmp_path=tmp_path
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["tables"]["heist_success"]
    assert rows[0]["n"] == 500 and rows[0]["success_lo"] < rows[0]["success"] < rows[0]["success_hi"]


def test_game_prints_win_rate_and_final_counts(tmp_path) -> None:
    result = cardsim("game", "--mode", "master", "--n", "200", "--jobs", "1", "--json", "-q", tmp_path=tmp_path)
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)["tables"]
    summary, finals = tables["game_win"], tables["final_counts"]
    assert summary[0]["mode"] == "master"
    assert sum(row["games"] for row in finals) == 200
    assert all(row["alarms"] <= 2 for row in finals)


def test_cards_writes_effect_table_and_plot(tmp_path) -> None:
    out = tmp_path / "effects.parquet"
    result = cardsim(
        "cards",
        "--kind",
        "challenges",
        "--model",
        "history",
        "--n",
        "200",
        "--jobs",
        "1",
        "--no-store",
        "-q",
        "--out",
        str(out),
        "--plot",
        str(tmp_path / "plots"),
        tmp_path=tmp_path,
    )
    assert result.exit_code == 0, result.output
    effects = pl.read_parquet(out)
    assert set(effects["card"]) >= {"none", "blackout", "security-cameras"}
    assert (effects.filter(pl.col("card") == "none")["difference"] == 0).all()
    assert list((tmp_path / "plots").glob("gang_card_effects_*.svg"))


def test_models_lists_the_ladder(tmp_path) -> None:
    result = cardsim("models", "--json", tmp_path=tmp_path)
    names = [row["model"] for row in json.loads(result.stdout)["tables"]["models"]]
    assert names == ["random", "percentile", "history", "bayes"]


def test_game_check_compares_with_the_best_of_five_formula(tmp_path) -> None:
    result = cardsim(
        "game",
        "--mode",
        "basic",
        "--check",
        "--n",
        "1000",
        "--jobs",
        "1",
        "--json",
        "-q",
        "--no-store",
        tmp_path=tmp_path,
    )
    assert result.exit_code == 0, result.output
    check = json.loads(result.stdout)["tables"]["formula_check"][0]
    assert check["predicted_lo"] <= check["predicted"] <= check["predicted_hi"]
    assert isinstance(check["agrees"], bool)


def test_unknown_specialist_use_is_one_line_exit_2(tmp_path) -> None:
    env = dict(os.environ, CARDSIM_STORE=str(tmp_path / "store"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardsim.cli",
            "gang",
            "heist",
            "--specialist",
            "muscle",
            "--specialist-use",
            "sometimes",
            "--n",
            "10",
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "specialist use must be helpful or always" in lines[0]


def test_cards_reports_helpful_and_always_and_the_other_jack_reading(tmp_path) -> None:
    out = tmp_path / "effects.parquet"
    result = cardsim(
        "cards",
        "--kind",
        "specialists",
        "--model",
        "random",
        "--n",
        "100",
        "--jobs",
        "1",
        "--no-store",
        "-q",
        "--out",
        str(out),
        tmp_path=tmp_path,
    )
    assert result.exit_code == 0, result.output
    assert "always" in result.stdout and "helpful" in result.stdout
    effects = pl.read_parquet(out)
    muscle = effects.filter(pl.col("card") == "muscle")
    assert sorted(muscle["use"]) == ["always", "helpful"]
    assert effects.filter(pl.col("card") == "investor")["use"].to_list() == [""]
    assert effects.filter(pl.col("card") == "jack (may discard)").height == 2
