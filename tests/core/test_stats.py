"""Intervals and summary tables against hand-computed values and scipy."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from cardsim.stats import (
    mean_interval,
    mean_table,
    paired_difference_interval,
    proportion_table,
    wilson_half_width,
    wilson_interval,
)


def test_wilson_by_hand():
    # 8 successes out of 10: centre (0.8 + z²/20)/(1 + z²/10), half z·sqrt(0.016 + z²/400)/(1 + z²/10)
    z = 1.959963984540054
    denom = 1 + z * z / 10
    centre = (0.8 + z * z / 20) / denom
    half = z * math.sqrt(0.8 * 0.2 / 10 + z * z / 400) / denom
    lo, hi = wilson_interval(8, 10)
    assert lo == pytest.approx(centre - half, abs=1e-12)
    assert hi == pytest.approx(centre + half, abs=1e-12)
    assert float(lo) == pytest.approx(0.4901625, abs=1e-6)


@pytest.mark.parametrize("k, n", [(0, 10), (10, 10), (3, 7), (500, 1000), (1, 100_000)])
def test_wilson_matches_scipy(k, n):
    stats = pytest.importorskip("scipy.stats")
    expected = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson_interval(k, n)
    assert float(lo) == pytest.approx(expected.low, abs=1e-9)
    assert float(hi) == pytest.approx(expected.high, abs=1e-9)


def test_wilson_is_vectorised_and_half_width_shrinks():
    lo, hi = wilson_interval(np.array([5, 50, 500]), np.array([10, 100, 1000]))
    widths = hi - lo
    assert widths[0] > widths[1] > widths[2]
    assert wilson_half_width(500, 1000) == pytest.approx(widths[2] / 2)


def test_mean_interval_by_hand():
    values = [1.0, 2.0, 3.0, 4.0]
    mean, lo, hi = mean_interval(values)
    half = 1.959963984540054 * np.std(values, ddof=1) / 2
    assert (mean, lo, hi) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    single = mean_interval([3.0])
    assert single[0] == 3.0 and math.isnan(single[1])


def test_proportion_table_groups_in_order():
    frame = pl.DataFrame({"players": [4, 3, 4, 3, 4], "won": [True, False, False, False, True]})
    table = proportion_table(frame, ["players"], "won")
    assert table["players"].to_list() == [4, 3]
    assert table["n"].to_list() == [3, 2]
    assert table["successes"].to_list() == [2, 0]
    assert table["p"].to_list() == pytest.approx([2 / 3, 0.0])
    lo, hi = wilson_interval(2, 3)
    assert table["lo"][0] == pytest.approx(float(lo)) and table["hi"][0] == pytest.approx(float(hi))


def test_mean_table_matches_mean_interval():
    frame = pl.DataFrame({"g": ["a", "a", "a", "b", "b"], "x": [1, 2, 6, 4, 4]})
    table = mean_table(frame, ["g"], "x")
    mean, lo, hi = mean_interval([1, 2, 6])
    row = table.row(0, named=True)
    assert row["n"] == 3
    assert row["mean"] == pytest.approx(mean)
    assert row["lo"] == pytest.approx(lo) and row["hi"] == pytest.approx(hi)
    assert table.row(1, named=True)["lo"] == pytest.approx(4.0)


def test_wilson_bounds_are_exact_at_the_edges():
    lo, hi = wilson_interval(np.array([0, 7]), np.array([7, 7]))
    assert lo[0] == 0.0 and hi[1] == 1.0
    assert lo[0] <= 0.0 <= hi[0] and lo[1] <= 1.0 <= hi[1]


def test_paired_difference_with_uncorrelated_pairs_is_the_unpaired_hybrid_interval():
    # a*d == b*c: phi = 0, so the paired interval is Newcombe's unpaired one on the two margins
    from cardsim.analysis.gang import difference_interval

    both, first_only, second_only, neither = 20, 20, 30, 30
    n = both + first_only + second_only + neither
    paired = paired_difference_interval(both, first_only, second_only, neither)
    unpaired = difference_interval(both + first_only, n, both + second_only, n)
    assert np.allclose(paired, unpaired, atol=1e-12)
    assert float(paired[0]) == pytest.approx(-0.1)


def test_paired_difference_of_identical_runs_is_narrow_around_zero():
    d, lo, hi = paired_difference_interval(700, 0, 0, 300)
    assert d == 0 and -0.01 < lo < 0 < hi < 0.01
    _, unpaired_lo, unpaired_hi = paired_difference_interval(490, 210, 210, 90)  # phi = 0
    assert hi - lo < (unpaired_hi - unpaired_lo) / 10


@pytest.mark.parametrize("cells", [(0.70, 0.02, 0.01, 0.27), (0.45, 0.05, 0.10, 0.40), (0.05, 0.02, 0.03, 0.90)])
def test_paired_difference_covers_the_true_difference_about_95_percent(cells):
    # 4,000 simulated 2x2 tables of 400 pairs from a known joint law: coverage 0.95 within
    # four standard errors of the simulated share (0.0138) plus Newcombe's reported
    # deviation of method 10 from nominal (within 0.02 for these laws)
    rng = np.random.default_rng(20261201)
    tables = rng.multinomial(400, cells, size=4000)
    d, lo, hi = paired_difference_interval(*tables.T)
    truth = cells[1] - cells[2]
    coverage = float(np.mean((lo <= truth) & (truth <= hi)))
    assert abs(coverage - 0.95) <= 4 * math.sqrt(0.95 * 0.05 / 4000) + 0.02
    assert np.all(lo <= d) and np.all(d <= hi)
