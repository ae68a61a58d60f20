"""The sentences chapters build from their numbers."""

from __future__ import annotations

import numpy as np

from cardsim.analysis.cashnguns import Equilibrium
from cardsim.reports.sections.cashnguns import equilibrium_sentence
from cardsim.reports.sections.common import on_target


def equilibrium(value: float, regret: float) -> Equilibrium:
    return Equilibrium(np.array([1.0]), np.array([value]), value, regret, "x")


def test_shared_pure_equilibrium_is_said_once():
    text = equilibrium_sentence(
        [
            (4, "stubborn", {"strategy": "stubborn", "share": 1.0}, equilibrium(0.25, 0.0)),
            (5, "stubborn", {"strategy": "stubborn", "share": 1.0}, equilibrium(0.2, 0.001)),
        ]
    )
    assert text.count("stubborn") == 1
    assert "with 4, 5 players" in text and "25.0% at 4, 20.0% at 5" in text and "more than 0.10 points" in text
    assert "named strategies only" in text and "not shown to be an equilibrium of the game" in text


def test_mixed_and_different_equilibria_are_listed_per_count():
    text = equilibrium_sentence(
        [
            (4, "stubborn", {"strategy": "stubborn", "share": 1.0}, equilibrium(0.25, 0.0)),
            (5, None, {"strategy": "hunter", "share": 0.6}, equilibrium(0.2, 0.002)),
        ]
    )
    assert "with 4 players everyone plays 'stubborn'" in text
    assert "with 5 players a mix led by 'hunter' (60.0% of the mix, regret 0.20 points)" in text


def test_on_target_says_how_far_off():
    assert on_target({"p": 0.31, "lo": 0.29, "hi": 0.33}, 0.3) == "yes"
    assert on_target({"p": 0.35, "lo": 0.33, "hi": 0.37}, 0.3) == "no, 5.0 pts off"
