"""`cardsim cashnguns ...`: every command runs, prints what it says, and fails in one line."""

from __future__ import annotations

import json
import subprocess
import sys

import polars as pl
import pytest
from typer.testing import CliRunner

from cardsim.commands.cashnguns import app
from cardsim.errors import UserError
from cardsim.sims.cashnguns.stage import stage_game

runner = CliRunner()


def invoke(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_strategies_lists_every_named_strategy():
    result = invoke("strategies", "--json")
    tables = json.loads(result.stdout)["tables"]
    first = tables["strategies"]
    assert len(first) >= 8
    assert {"random", "stubborn", "coward", "calculator", "counter"} <= {row["strategy"] for row in first}
    assert {row["parameter"] for row in tables["parameters"]} >= {"pot", "safe", "risk", "count"}


def test_run_focal_vs_others_reports_intervals(tmp_path):
    result = invoke(
        "run",
        "--players",
        "4",
        "-s",
        "shark:pot=0.8",
        "-s",
        "stubborn",
        "--n",
        "1000",
        "--seed",
        "2",
        "--jobs",
        "1",
        "--store",
        str(tmp_path),
        "-q",
        "--json",
    )
    rows = json.loads(result.stdout)["tables"]["slots"]
    assert [row["strategy"] for row in rows] == ["shark:pot=0.8"] + ["stubborn"] * 3
    for row in rows:
        assert row["n"] == 1000 and row["lo"] <= row["p_win"] <= row["hi"]
    again = invoke(
        "run",
        "--players",
        "4",
        "-s",
        "shark:pot=0.8",
        "-s",
        "stubborn",
        "--n",
        "1000",
        "--seed",
        "2",
        "--jobs",
        "1",
        "--store",
        str(tmp_path),
        "-q",
        "--json",
    )
    assert json.loads(again.stdout)["tables"]["slots"] == rows


def test_stage_prints_the_exact_matrix():
    result = invoke("stage", "--players", "5", "--guns", "3", "--loot", "20k,10k,5k", "--json")
    rows = json.loads(result.stdout)["tables"]["stage"]
    assert rows == stage_game(5, 3, (1, 1, 1)).to_dicts()


def test_payoff_prints_matrix_equilibrium_and_writes_plots(tmp_path):
    plot = tmp_path / "plots"
    result = invoke(
        "payoff",
        "--players",
        "4",
        "-s",
        "stubborn",
        "-s",
        "coward",
        "--n",
        "200",
        "--plot",
        str(plot),
        "--profiles-csv",
        str(tmp_path / "profiles.csv"),
        "-q",
        "--no-store",
        "--jobs",
        "1",
        "--json",
    )
    data = json.loads(result.stdout)
    assert len(data["tables"]["matrix_4p"]) == 4
    assert sum(row["share"] for row in data["tables"]["equilibrium_4p"]) == pytest.approx(1.0)
    assert data["details"]["4p"]["regret"] >= 0
    assert (plot / "cashnguns_payoff_4p.svg").read_text().startswith("<?xml")
    assert (plot / "cashnguns_payoff_4p_equilibrium.svg").exists()
    profiles = pl.read_csv(tmp_path / "profiles_4p.csv")
    assert profiles.height == 8 and set(profiles["strategy"]) == {"stubborn", "coward"}
    text = invoke("payoff", "--players", "4", "-s", "stubborn,coward", "--n", "200", "-q", "--no-store", "--jobs", "1")
    assert "symmetric equilibrium" in text.stdout and "regret" in text.stdout


def test_payoff_json_names_every_run_it_stored(tmp_path):
    """The document's ``runs`` lists each profile's stored run (not an empty list)."""
    store = tmp_path / "store"
    result = invoke(
        "payoff",
        "--players",
        "4",
        "-s",
        "stubborn,coward",
        "--n",
        "100",
        "-q",
        "--store",
        str(store),
        "--jobs",
        "1",
        "--json",
    )
    runs = json.loads(result.stdout)["runs"]
    assert sorted(runs) == sorted(entry.name for entry in store.iterdir()) and len(runs) == 5


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--players", "7", "--no-store"], "players must be 4-6"),
        (["run", "-s", "shark:pot=x", "--no-store"], "bad value"),
        (["payoff", "--metric", "money"], "--metric must be"),
        (["run", "-s", "custom:speed=3", "--no-store"], "bad strategy option"),
        (["run", "-s", "custom:risk=2", "--no-store"], "risk must be between 0 and 1"),
        (["stage", "--loot", "15k"], "notes are"),
        (["stage", "--guns", "9"], "guns must be"),
        (["stage", "--opponent-hand", "5,2"], "three counts"),
    ],
)
def test_bad_input_raises_a_user_error(args, message):
    result = runner.invoke(app, args)
    assert isinstance(result.exception, UserError)
    assert message in str(result.exception)


def test_bad_input_is_one_line_and_exit_2_from_the_console():
    result = subprocess.run(
        [sys.executable, "-m", "cardsim.cli", "cashnguns", "run", "--players", "7"], capture_output=True, text=True
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "players must be 4-6" in lines[0], result.stderr
