"""A numba-compiled Cash'n Guns strategy plays inside the compiled engine: the compiled twin of
Patient gives the Python Patient's games exactly, and a bad answer is one StrategyError line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numba import njit

from cardsim.sims.cashnguns.compiled import play_compiled
from cardsim.sims.cashnguns.simulator import strategy_rows
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.cashnguns.strategy import Seat, play_games
from cardsim.sims.core.user_strategy import StrategyError, load_strategy

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
PATIENT = f"{EXAMPLES / 'cashnguns_patient.py'}:Patient"
COMPILED = f"{EXAMPLES / 'cashnguns_patient_compiled.py'}:PatientCompiled"


def test_the_compiled_patient_plays_the_python_patients_games():
    rows = strategy_rows([parse_strategy(name) for name in ("shark", "hunter", "coward", "stubborn", "avenger")])
    rng = np.random.default_rng(4)
    for players, shame_value in ((5, -5000), (4, 5000)):
        seeds = rng.integers(0, 2**63, 300).astype(np.uint64)
        lineups = rng.integers(0, 5, (300, players))
        lineups[:, 0] = -1
        lineups[::3, 2] = -1
        found = play_compiled(load_strategy(COMPILED), COMPILED, seeds, lineups, rows, shame_value)
        patient = Seat(load_strategy(PATIENT), PATIENT)
        games = play_games(
            seeds, [[patient if row < 0 else rows[row] for row in line] for line in lineups], shame_value
        )
        for game, result in enumerate(games):
            for key in ("money", "wounds", "shame", "alive", "winner", "shots", "cards_used"):
                assert result[key] == found[key][game].tolist(), (game, key)
        assert 0 < found["winner"][:, 0].mean() < 1


@njit
def _shoot_myself(
    seat,
    round,
    hand,
    alive,
    money,
    wounds,
    shame,
    loot,
    drawn,
    revealed,
    aims,
    lay,
    expected_loot,
    target,
    targets,
    shame_value,
    u,
):
    return seat if round == 2 else (seat + 1) % alive.shape[0]


class _Illegal:
    aim = staticmethod(_shoot_myself)


def test_a_compiled_strategy_that_answers_illegally_or_is_not_compiled_is_one_line():
    patient = load_strategy(COMPILED)
    _Illegal.card, _Illegal.lie_down = staticmethod(patient.card), staticmethod(patient.lie_down)
    rows = strategy_rows([parse_strategy("shark")])
    seeds = np.arange(1, 6, dtype=np.uint64)
    lineups = np.zeros((5, 4), np.int64)
    lineups[:, 1] = -1
    with pytest.raises(StrategyError) as caught:
        play_compiled(_Illegal(), "bad.py:Illegal", seeds, lineups, rows, -5000)
    message = str(caught.value)
    assert message.startswith("strategy bad.py:Illegal, seat ") and ", turn 3, decision aim: returned " in message
    assert "\n" not in message
    with pytest.raises(StrategyError, match="must be numba.njit functions"):
        play_compiled(load_strategy(PATIENT), PATIENT, seeds, lineups, rows, -5000)
