"""The stored starting-hand table (cardsim.sims.gang.preflop) against a fresh computation."""

from __future__ import annotations

import numpy as np

from cardsim.sims.gang.preflop import EQUITY, class_index, compute_equity_table

from .conftest import card


def test_stored_table_matches_a_fresh_monte_carlo_run() -> None:
    """Every class agrees with an independent 3,000-sample run within 4.5 standard errors."""
    samples = 3000
    fresh = compute_equity_table(samples, 7)
    tolerance = 4.5 * np.sqrt(0.25 / samples) + 0.002
    assert np.abs(fresh - EQUITY).max() < tolerance


def test_known_equities_and_class_layout() -> None:
    """Aces are the best start (about 85% heads-up), 3-2 offsuit about the worst; suited beats
    offsuit; the suitless Jack counts as an offsuit Jack."""
    aces = EQUITY[class_index(card("Ac"), card("Ad"))]
    assert 0.84 < aces < 0.86 and aces == EQUITY.max()
    assert EQUITY[class_index(card("3c"), card("2d"))] < 0.33
    assert EQUITY[class_index(card("Ac"), card("Kc"))] > EQUITY[class_index(card("Ac"), card("Kd"))]
    assert class_index(52, card("Qc")) == class_index(card("Jd"), card("Qc"))
    assert class_index(52, card("Jc")) == class_index(card("Jd"), card("Jc"))
