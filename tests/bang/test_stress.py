"""``cardsim bang stress``: the best response and the perturbations are reproducible for any
worker count, a search that keeps its start is exactly a zero difference, and bad input is a
one-line error."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from cardsim.sims.bang import tuned
from cardsim.sims.bang.cards import DEPUTY, RENEGADE
from cardsim.sims.bang.stress import best_response, mapper, perturbed_side_rates, winners


def test_best_response_is_the_same_for_any_jobs() -> None:
    one = best_response(5, RENEGADE, "tuned", 150, 2, 300, 4, mapper(1))
    two = best_response(5, RENEGADE, "tuned", 150, 2, 300, 4, mapper(2))
    assert one == two
    assert one["search_games"] == 2 * 7 * 150 and one["n"] == 300


def test_a_search_of_no_steps_replays_its_start_exactly() -> None:
    """Zero steps keep the start vector: same deals, same play, difference exactly 0."""
    for against, role in (("tuned", RENEGADE), ("role", DEPUTY)):
        row = best_response(5, role, against, 100, 0, 400, 2, mapper(1))
        assert row["win"] == row["start"] and row["diff"] == 0.0
        assert row["diff_lo"] == row["diff_hi"] == 0.0


def test_perturbations_read_their_own_games() -> None:
    rows = perturbed_side_rates(6, 0.1, 2, 300, 5, mapper(1))
    assert [r["trial"] for r in rows] == [0, 1, 2] and rows[0]["sigma"] == 0.0
    # trial 0 is the shipped table: its rates are those of its own deals replayed here
    winner = winners(6, tuned.params_for(6), 300, 5, (6, 2000, 0))
    assert rows[0]["outlaws"] == round(float(np.mean(winner == 1)), 5)
    for row in rows:
        rates = {side: row[side] for side in ("sheriff", "outlaws", "renegade")}
        assert row["weakest"] == min(rates, key=rates.get)
        assert row["sheriff_lo"] <= row["sheriff"] <= row["sheriff_hi"]
    assert rows[1] != rows[2]  # perturbed tables play differently
    assert rows == perturbed_side_rates(6, 0.1, 2, 300, 5, mapper(2))


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--roles", "captain"], "captain"),
        (["--against", "genius"], "genius"),
        (["--search-n", "-5"], "--search-n"),
        (["--players", "9"], "4-7"),
    ],
)
def test_stress_bad_input_is_one_line_exit_2(args: list[str], needle: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardsim.cli", "bang", "stress", *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and needle in done.stderr


def test_stress_json_document() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardsim.cli",
            "bang",
            "stress",
            "--players",
            "5",
            "--search-n",
            "100",
            "--steps",
            "1",
            "--validation",
            "200",
            "--trials",
            "1",
            "--n",
            "200",
            "--jobs",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    tables = json.loads(done.stdout)["tables"]
    assert [r["role"] for r in tables["best_response"]] == ["renegade"]
    assert len(tables["perturbation"]) == 2
