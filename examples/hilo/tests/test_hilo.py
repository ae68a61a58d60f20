"""The example game on its own (``pip install -e .`` here, then ``pytest tests``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cardsim_hilo import GAME
from cardsim_hilo.simulator import SIMULATOR, hidden_info_check, peeking_calls, play

from cardsim.errors import UserError
from cardsim.sims.registry import get_game, register
from cardsim.testing import check_game

register(GAME)  # once installed, its entry point registers it too


def test_a_pair_is_a_miss_and_a_run_wins():
    decks = np.array([[5, 9, 2, 2] + [0] * 48, [5, 9, 2, 12] + [0] * 48])
    won, correct = play(decks, np.zeros((2, 3), bool), "middle")
    assert correct.tolist() == [2, 3] and won.tolist() == [False, True]


def test_the_contract():
    """cardsim's contract kit, every clause: determinism over workers, resume, the first
    command's JSON, the hidden-information check (the strategies pass it, the peeking player is
    caught) and the plain-Python reference."""
    measured = check_game(GAME)
    assert measured["leaky_mutant"].startswith("leaky policy caught")


def test_the_peeking_player_is_caught_and_the_strategies_are_not():
    assert hidden_info_check(4).changed == 0 and hidden_info_check(4, peeking_calls).changed > 0


def test_validation():
    with pytest.raises(UserError, match="target"):
        SIMULATOR.make_config(target=0)


def test_command_line_and_report(capsys):
    from cardsim.cli import main
    from cardsim.reports.build import chapter
    from cardsim.reports.suite import QUICK, run_experiments
    from cardsim.sims.core.game import resolve

    with pytest.raises(SystemExit):
        main(["hilo", "run", "--n", "300", "--jobs", "1", "--no-store", "--quiet", "--json"])
    rows = json.loads(capsys.readouterr().out)["tables"]["wins"]
    assert [row["strategy"] for row in rows] == ["random", "middle", "counting"]
    section = resolve(get_game("hilo").report_section)
    outcomes = run_experiments(SIMULATOR, section.plan(QUICK), seed=1, jobs=1, store=None)
    assert chapter("hilo", section, outcomes, QUICK)[0].title == "Higher or Lower"
