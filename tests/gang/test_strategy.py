"""User strategies for The Gang (cardsim.sims.gang.strategy): the built-in percentile model
written through the interface plays the kernel's heists, `gang evaluate` pairs the deals and
gives the same numbers for any --jobs, and a failing strategy is one line naming seat and turn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import cardsim
from cardsim.cli import app
from cardsim.errors import UserError
from cardsim.sims.core.user_strategy import StrategyError, load_strategy
from cardsim.sims.gang.strategy import builtin_heists, draw_deals, play_heists

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "strategies"
TWIN = f"{EXAMPLES / 'gang_percentile.py'}:Percentile"
PAIRS = f"{EXAMPLES / 'gang_pairs_high.py'}:PairsHigh"

BAD = """
import time

class Raises:
    def take_chip(self, view, legal):
        if view.round == 2:
            raise RuntimeError("lost my nerve")
        return legal[0]

class Illegal:
    def take_chip(self, view, legal):
        return len(legal) + 1

class WrongType:
    def take_chip(self, view, legal):
        return float(legal[0])

class Slow:
    def take_chip(self, view, legal):
        time.sleep(5)
        return legal[0]

class NoMethod:
    def pick(self, view, legal):
        return legal[0]
"""


@pytest.fixture
def bad(tmp_path):
    path = tmp_path / "bad_gang.py"
    path.write_text(BAD)
    return path


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_percentile_twin_plays_the_kernels_heists(players: int) -> None:
    decks, seeds = draw_deals(np.random.default_rng(players), 150)
    user = play_heists(load_strategy(TWIN), TWIN, players, decks, seeds)
    kernel = builtin_heists("percentile", players, np.random.default_rng(players), 150)
    assert np.array_equal(user["chips"], kernel["chips"])  # heist by heist, round by round
    assert np.array_equal(user["success"], kernel["success"])
    assert 0 < user["success"].sum() < 150


def test_evaluate_pairs_the_deals_and_ignores_the_worker_count() -> None:
    one = cardsim.gang.evaluate(PAIRS, players=4, n=600, seed=7, jobs=1)
    two = cardsim.gang.evaluate(PAIRS, players=4, n=600, seed=7, jobs=2)
    assert one.table.equals(two.table) and one.episodes.equals(two.episodes)
    assert one.tables["paired_difference"].equals(two.tables["paired_difference"])
    row = one.table.row(0, named=True)
    assert row["n"] == 600 and row["success_lo"] < row["success"] < row["success_hi"]
    diff = one.tables["paired_difference"].row(0, named=True)
    episodes = one.episodes
    expected = float((episodes["success"].cast(int) - episodes["builtin_success"].cast(int)).mean())
    assert diff["difference"] == pytest.approx(expected)
    assert diff["difference_lo"] < diff["difference"] < diff["difference_hi"]


def test_evaluate_hands_workers_an_absolute_strategy_path(monkeypatch) -> None:
    """A worker may start in another folder: a relative spec reaches it resolved, while the
    tables and errors keep the spec as the user gave it."""
    import cardsim.sims.core.user_strategy as user_strategy

    handed: list[tuple] = []
    real = user_strategy.run_chunks

    def spy(function, tasks, jobs):
        handed.extend(tasks)
        return real(function, tasks, jobs)

    monkeypatch.setattr(user_strategy, "run_chunks", spy)
    monkeypatch.chdir(EXAMPLES)
    result = cardsim.gang.evaluate("gang_pairs_high.py:PairsHigh", players=4, n=50, seed=3, jobs=1)
    assert handed and all(task[0] == f"{EXAMPLES / 'gang_pairs_high.py'}:PairsHigh" for task in handed)
    assert result.table["strategy"][0] == "gang_pairs_high.py:PairsHigh"


def test_the_twin_against_its_kernel_differs_by_nothing() -> None:
    result = cardsim.gang.evaluate(TWIN, players=5, n=300, seed=2, jobs=1)
    diff = result.tables["paired_difference"].row(0, named=True)
    assert diff["difference"] == 0.0 and diff["n"] == 300
    assert result.table["successes"][0] == result.table["successes"][1]


@pytest.mark.parametrize(
    "name, words",
    [
        ("Raises", "seat 0, turn heist 1, turn round, decision take_chip: raised RuntimeError: lost my nerve"),
        ("Illegal", "seat 0, turn heist 1, pre-flop round, decision take_chip: returned 5 (int), not one"),
        ("WrongType", "seat 0, turn heist 1, pre-flop round, decision take_chip: returned 1.0 (float)"),
        ("Slow", "seat 0, turn heist 1, pre-flop round, decision take_chip: took longer than"),
    ],
)
def test_a_failing_strategy_is_one_error_naming_seat_and_turn(bad, name, words) -> None:
    with pytest.raises(StrategyError) as caught:
        cardsim.gang.evaluate(f"{bad}:{name}", n=10, jobs=1)
    message = str(caught.value)
    assert words in message and "\n" not in message


def test_a_failure_in_a_worker_names_the_same_seat_and_turn(bad) -> None:
    with pytest.raises(StrategyError, match="seat 0, turn heist 1, turn round, decision take_chip"):
        cardsim.gang.evaluate(f"{bad}:Raises", n=600, jobs=2)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("{dir}/missing.py:X", "no file"),
        ("{dir}/bad_gang.py:Nobody", "defines no 'Nobody'"),
        ("{dir}/bad_gang.py:NoMethod", "has no method take_chip"),
    ],
)
def test_a_bad_spec_is_a_user_error(bad, spec, words) -> None:
    with pytest.raises(UserError, match=words):
        cardsim.gang.evaluate(spec.format(dir=bad.parent), n=10, jobs=1)


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"players": 7}, "players must be one count of 3-6"),
        ({"against": "oracle"}, "against must be one of"),
        ({"n": 0}, "--n must be a positive"),
    ],
)
def test_bad_options_are_user_errors(fields, words) -> None:
    with pytest.raises(UserError, match=words):
        cardsim.gang.evaluate(PAIRS, **fields)


def test_the_command_prints_both_rates_and_the_difference(tmp_path) -> None:
    result = CliRunner().invoke(
        app,
        ["gang", "evaluate", "--strategy", PAIRS, "--n", "250", "--jobs", "1", "--json"],
        env={"CARDSIM_STORE": str(tmp_path / "store")},
    )
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)["tables"]
    assert [row["strategy"] for row in tables["evaluate"]] == [PAIRS, "percentile"]
    assert tables["paired_difference"][0]["n"] == 250
    assert not (tmp_path / "store").exists()  # nothing stored


@pytest.mark.parametrize("extra", [[], ["--traceback"]])
def test_the_command_fails_with_one_line_and_exit_2(bad, tmp_path, extra) -> None:
    env = dict(os.environ, CARDSIM_STORE=str(tmp_path / "store"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardsim.cli",
            "gang",
            "evaluate",
            "--strategy",
            f"{bad}:Raises",
            "--n",
            "10",
            "--jobs",
            "1",
            *extra,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert "seat 0, turn heist 1, turn round, decision take_chip" in lines[-1]
    assert ("Traceback" in result.stderr) == bool(extra)
    if not extra:
        assert len(lines) == 1
    assert not (tmp_path / "store").exists()


def test_the_tutorial_shows_the_example_files_as_they_are() -> None:
    """docs/strategies.md's code blocks for The Gang are the example files (which the tests above
    run), and the module docstring's example is the first of them."""
    import cardsim.sims.gang.strategy as module

    text = (ROOT / "docs" / "strategies.md").read_text()
    section = text.split("## The Gang", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("\n", 1)[1] for block in section.split("```python")[1:]]
    blocks = [block.split("```", 1)[0] for block in blocks]
    files = [EXAMPLES / "gang_pairs_high.py", EXAMPLES / "gang_percentile.py"]
    assert blocks == [path.read_text() for path in files]
    for path in files:
        assert str(path.relative_to(ROOT)) in section
    code = files[0].read_text().split("\n\n\n", 1)[1]
    docstring = "\n".join(line[4:] for line in module.__doc__.splitlines())
    assert code.strip() in docstring
