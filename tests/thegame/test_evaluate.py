"""`cardsim thegame evaluate` and ``cardsim.thegame.evaluate``: a user's strategy against a
built-in on the same deals, paired, reproducible whatever the worker count, and every failing
strategy one line naming the seat and turn (exit 2, nothing stored)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.cli import main
from cardsim.errors import UserError
from cardsim.sims.core.user_strategy import StrategyError
from cardsim.sims.thegame import strategy
from cardsim.sims.thegame.batch import play_games
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.state import S_CARDS_LEFT, SIGNALS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
GREEDY = f"{EXAMPLES / 'thegame_greedy.py'}:Greedy"
CLOSEST = f"{EXAMPLES / 'thegame_closest.py'}:Closest"

BAD = """
import time

class Raises:
    def play(self, view, legal):
        if view.turn == 3:
            raise KeyError("lost my notes")
        return legal[0] if view.to_play == 0 else legal[-1]

class Illegal:
    def play(self, view, legal):
        return (view.hand[0], 7)

class WrongType:
    def play(self, view, legal):
        return list(legal[-1]) if legal[-1] else None

class Slow:
    def play(self, view, legal):
        time.sleep(5)
        return legal[0]

class Silent:
    pass
"""


def cardsim_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


@pytest.fixture
def bad_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "bad.py"
    path.write_text(BAD)
    return path


def test_the_twin_against_its_built_in_differs_by_exactly_nothing():
    result = cardsim.thegame.evaluate(GREEDY, players=3, n=300, against="greedy", seed=4, jobs=1)
    yours, theirs = result.table.rows(named=True)
    assert yours["n"] == theirs["n"] == 300
    assert yours["win"] == theirs["win"] and yours["cards_left"] == theirs["cards_left"]
    assert yours["win_lo"] <= yours["win"] <= yours["win_hi"]
    paired = result.tables["paired"].rows(named=True)
    assert [row["measure"] for row in paired] == ["win", "cards_left"]
    assert all(row["difference"] == row["difference_lo"] == row["difference_hi"] == 0 for row in paired)


def test_the_paired_difference_is_per_deal_against_the_kernel():
    """The built-in side is the batch kernel on the evaluation's deals, and the paired
    difference is the mean of per-deal differences."""
    result = cardsim.thegame.evaluate(CLOSEST, players=2, n=300, against="signals", seed=9, jobs=1)
    episodes = result.episodes
    deals = episodes["deal_seed"].to_numpy()
    kernel = play_games(deals, 2, 7, 2, True, SIGNALS, strategy_params(2, "signals"))
    assert episodes["against_cards_left"].to_list() == kernel[:, S_CARDS_LEFT].tolist()
    assert deals[:250].tolist() == strategy.chunk_deal_seeds(9, 0, 250).tolist()
    mine = episodes["cards_left"].to_numpy().astype(float)
    difference = result.tables["paired"].filter(measure="cards_left")["difference"][0]
    assert difference == pytest.approx(float(np.mean(mine - kernel[:, S_CARDS_LEFT])))
    signals = result.table.filter(strategy="signals").row(0, named=True)
    assert signals["win"] == pytest.approx(float(np.mean(kernel[:, S_CARDS_LEFT] == 0)))


def test_same_numbers_with_one_worker_and_two():
    one = cardsim.thegame.evaluate(CLOSEST, players=3, n=600, against="planner", seed=2, jobs=1)
    two = cardsim.thegame.evaluate(CLOSEST, players=3, n=600, against="planner", seed=2, jobs=2)
    assert one.table.equals(two.table) and one.tables["paired"].equals(two.tables["paired"])
    assert one.episodes.equals(two.episodes)


def test_the_command_prints_both_tables_as_json(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = cardsim_cli(
        capsys,
        "thegame",
        "evaluate",
        "--strategy",
        GREEDY,
        "--against",
        "greedy",
        "--players",
        "2",
        "--n",
        "250",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--json",
    )
    assert code == 0, err
    document = json.loads(out)
    assert document["command"] == "thegame evaluate" and document["seed"] == 5
    assert [row["n"] for row in document["tables"]["evaluate"]] == [250, 250]
    assert {row["difference"] for row in document["tables"]["paired"]} == {0.0}
    assert not list(tmp_path.iterdir())  # nothing stored


@pytest.mark.parametrize(
    "name, words",
    [
        ("Raises", "seat 2, turn 3, decision play: raised KeyError: 'lost my notes'"),
        ("Illegal", "decision play: returned ("),
        ("WrongType", "(list), not one of the legal choices"),
        ("Slow", "took longer than 0.3 s"),
    ],
)
def test_a_failing_strategy_is_one_line_and_exit_2(capsys, bad_file, name, words):
    args = (
        "thegame",
        "evaluate",
        "--strategy",
        f"bad.py:{name}",
        "--players",
        "3",
        "--n",
        "20",
        "--jobs",
        "1",
        "--time-limit",
        "0.3",
    )
    code, out, err = cardsim_cli(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"error: strategy bad.py:{name}, seat ")
    assert words in err and ", turn " in err
    assert not list(bad_file.parent.rglob("*.parquet"))  # nothing stored
    assert not (bad_file.parent / "results").exists()
    if name == "Raises":
        code, out, err = cardsim_cli(capsys, *args, "--traceback")
        assert code == 2 and "Traceback (most recent call last)" in err
        assert "lost my notes" in err and err.strip().splitlines()[-1].startswith("error: ")


def test_a_failing_strategy_in_a_worker_is_the_same_line(capsys, bad_file):
    code, _, err = cardsim_cli(
        capsys, "thegame", "evaluate", "--strategy", "bad.py:Raises", "--players", "3", "--n", "600", "--jobs", "2"
    )
    assert code == 2 and err.count("\n") == 1
    assert "seat 2, turn 3, decision play: raised KeyError" in err


@pytest.mark.parametrize(
    "spec, words",
    [
        ("nofile.py:Mine", "no file nofile.py"),
        ("bad.py:Missing", "defines no 'Missing'"),
        ("bad.py:Silent", "has no method play(view, legal)"),
        ("bad.py", "FILE.py:NAME"),
    ],
)
def test_a_strategy_that_cannot_be_loaded_is_one_line(capsys, bad_file, spec, words):
    code, out, err = cardsim_cli(capsys, "thegame", "evaluate", "--strategy", spec, "--n", "10")
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err


@pytest.mark.parametrize(
    "keyword, value, words",
    [
        ("players", 9, "players"),
        ("n", 0, "n must be"),
        ("against", "psychic", "against"),
        ("time_limit", 0, "time_limit"),
        ("seed", -1, "seed"),
        ("jobs", 0, "--jobs"),
        ("min_cards", 9, "min_cards"),
    ],
)
def test_bad_keywords_are_a_user_error_naming_them(keyword, value, words):
    with pytest.raises(UserError, match=words):
        cardsim.thegame.evaluate(GREEDY, **{keyword: value})


@pytest.mark.parametrize("value", [["mine.py:Mine"], None, 3])
def test_a_strategy_that_is_not_a_spec_is_a_user_error(value):
    with pytest.raises(UserError, match="strategy must be given as FILE.py:NAME"):
        cardsim.thegame.evaluate(value)


def test_a_strategy_error_from_the_api_keeps_the_traceback(bad_file):
    with pytest.raises(StrategyError) as caught:
        cardsim.thegame.evaluate("bad.py:Raises", n=10, jobs=1)
    assert caught.value.seat == 2 and caught.value.turn == 3
    assert "KeyError" in caught.value.traceback_text
