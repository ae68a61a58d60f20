"""Smoke test of the benchmark rows (no timing is asserted)."""

from __future__ import annotations

import pytest

from cardsim.sims.poker.bench import main


@pytest.mark.slow
def test_quick_benchmark_returns_uniform_rows() -> None:
    rows = main(quick=True)
    assert len({tuple(row) for row in rows}) == 1  # same keys in every row
    whats = [row["what"] for row in rows]
    assert whats[0].startswith("cardsim evaluate 7-card")
    assert "enumerate all 7-card hands" in whats
    assert all(row["per_cpu_second"] > 0 for row in rows)
