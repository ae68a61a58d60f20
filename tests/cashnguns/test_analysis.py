"""Meta-game analysis: profile payoffs, the matrix, the symmetric equilibrium, best responses."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from cardsim.analysis.cashnguns import (
    best_responses,
    equilibrium_table,
    evaluate_mix,
    expected_payoffs,
    payoff_half_widths,
    payoff_matrix,
    profile_payoffs,
    symmetric_equilibrium,
    symmetric_game,
    table_profiles,
)
from cardsim.errors import UserError


def synthetic_profiles(payoff, strategies=("a", "b"), players=4) -> pl.DataFrame:
    """A profile table whose payoffs come from payoff(strategy, others_counts)."""
    rows = []
    for profile in table_profiles(len(strategies), players):
        counts = np.bincount(profile, minlength=len(strategies))
        for s in sorted(set(profile)):
            others = counts.copy()
            others[s] -= 1
            rows.append(
                {
                    "profile": "+".join(strategies[i] for i in profile),
                    "strategy": strategies[s],
                    "p_win": payoff(s, others),
                    "win_lo": payoff(s, others) - 0.02,
                    "win_hi": payoff(s, others) + 0.02,
                    "mean_score": 0.0,
                    "score_lo": 0.0,
                    "score_hi": 0.0,
                }
            )
    return pl.DataFrame(rows)


def test_table_profiles_count():
    assert len(table_profiles(11, 5)) == 3003  # C(15, 5)
    assert table_profiles(2, 2) == [(0, 0), (0, 1), (1, 1)]


def test_equilibrium_of_a_game_with_a_known_mixed_equilibrium():
    """u(a | k others play a) = 1 - k/3, u(b) = 1/2: against a mix with share p of a,
    E[u(a)] = 1 - p, so the symmetric equilibrium is p = 1/2 exactly."""
    profiles = synthetic_profiles(lambda s, others: 1 - others[0] / 3 if s == 0 else 0.5)
    game = symmetric_game(profiles, ["a", "b"], 4)
    assert expected_payoffs(game, np.array([0.5, 0.5])) == pytest.approx([0.5, 0.5])
    equilibrium = symmetric_equilibrium(game)
    assert equilibrium.mix == pytest.approx([0.5, 0.5], abs=1e-3)
    assert equilibrium.regret < 1e-4
    assert evaluate_mix(game, np.array([1.0, 0.0])).regret == pytest.approx(0.5)
    table = equilibrium_table(equilibrium, game)
    # each profile payoff has half-width 0.02; against the pure mix b only one profile counts
    assert payoff_half_widths(game, np.array([0.0, 1.0])) == pytest.approx([0.02, 0.02])
    assert (table["hi"] - table["payoff_vs_mix"] < 0.02).all()


def test_equilibrium_finds_a_dominant_strategy():
    profiles = synthetic_profiles(
        lambda s, others: 0.6 - 0.05 * others[1] if s == 1 else 0.3, strategies=("a", "b"), players=5
    )
    equilibrium = symmetric_equilibrium(symmetric_game(profiles, ["a", "b"], 5))
    assert equilibrium.mix == pytest.approx([0.0, 1.0])
    assert equilibrium.regret == 0.0


def test_expected_payoffs_against_a_pure_population():
    profiles = synthetic_profiles(lambda s, others: 0.1 * s + 0.01 * others[1], strategies=("a", "b", "c"))
    game = symmetric_game(profiles, ["a", "b", "c"], 4)
    assert expected_payoffs(game, np.array([0.0, 1.0, 0.0])) == pytest.approx([0.03, 0.13, 0.23])


def test_missing_profiles_are_an_error():
    profiles = synthetic_profiles(lambda s, others: 0.5).head(3)
    with pytest.raises(UserError, match="does not cover"):
        symmetric_game(profiles, ["a", "b"], 4)


def test_profile_payoffs_matrix_and_best_responses_from_simulation():
    strategies = ["stubborn", "coward"]
    profiles = profile_payoffs(strategies, 4, n=400, seed=1)
    assert profiles.height == 1 + 2 + 2 + 2 + 1
    assert (profiles["n"] == 400).all() and (profiles["seats"] == profiles["count"] * 400).all()
    assert ((profiles["win_lo"] <= profiles["p_win"]) & (profiles["p_win"] <= profiles["win_hi"])).all()
    wins_per_profile = profiles.group_by("profile").agg(pl.col("wins").sum())["wins"]
    assert (wins_per_profile >= 0.8 * 400).all()  # nearly every game has a winner
    matrix = payoff_matrix(profiles, strategies, 4)
    assert matrix.height == 4
    cell = matrix.filter((pl.col("focal") == "coward") & (pl.col("others") == "stubborn"))
    assert cell["n"].item() == 400
    responses = best_responses(matrix)
    assert responses["others"].to_list() == strategies
    for row in responses.iter_rows(named=True):
        block = matrix.filter(pl.col("others") == row["others"])
        assert row["payoff"] == block["p_win"].max()
        assert row["gain"] >= 0


def test_seats_of_one_strategy_in_a_game_are_one_observation():
    """Three seats of a strategy with perfectly correlated outcomes (all win or all lose, the
    same score): the interval is the game-level one (n = games), not one over 3 x games."""
    from cardsim.analysis.cashnguns import pooled_intervals, pooled_seats
    from cardsim.stats import wilson_interval

    won = np.array([1, 0, 1, 1, 0] * 20)
    score = np.array([10.0, 0.0, 30.0, 20.0, 5.0] * 20)
    episodes = pl.DataFrame({**{f"win_{s}": won for s in range(3)}, **{f"score_{s}": score for s in range(3)}})
    row = pooled_intervals(pl.DataFrame([{"profile": "x", "strategy": "x", **pooled_seats(episodes, [0, 1, 2])}])).row(
        0, named=True
    )
    assert (row["n"], row["seats"], row["wins"]) == (100, 300, 180)
    lo, hi = wilson_interval(60, 100)
    assert np.isclose(row["p_win"], 0.6) and np.isclose(row["win_lo"], lo) and np.isclose(row["win_hi"], hi)
    half = 1.959963984540054 * score.std(ddof=1) / np.sqrt(100)
    assert np.isclose(row["score_lo"], score.mean() - half)
    assert np.isclose(row["score_hi"], score.mean() + half)


def test_profile_payoffs_are_reproducible():
    first = profile_payoffs(["trigger", "hunter"], 4, n=200, seed=3)
    assert first.equals(profile_payoffs(["trigger", "hunter"], 4, n=200, seed=3))


def test_profile_payoffs_are_the_same_for_any_job_count():
    one = profile_payoffs(["trigger", "hunter", "coward"], 4, n=100, seed=5, jobs=1)
    assert one.equals(profile_payoffs(["trigger", "hunter", "coward"], 4, n=100, seed=5, jobs=2))


def test_equilibrium_of_a_cycling_game_comes_from_a_hedge_path_mean():
    """A rock-paper-scissors game (2 players, payoff 1/2 + 0.4 B, B antisymmetric) whose only
    equilibrium is (1/7, 2/7, 4/7): the replicator path circles it without settling (its end
    has a large regret); the mean of a Hedge path is close to it."""
    from cardsim.analysis.cashnguns import SymmetricGame, evaluate_mix, replicator, symmetric_equilibrium

    antisymmetric = np.array([[0.0, -1.0, 0.5], [1.0, 0.0, -0.25], [-0.5, 0.25, 0.0]])
    game = SymmetricGame(
        ("rock", "paper", "scissors"),
        2,
        np.eye(3, dtype=np.int64),
        0.5 + 0.4 * antisymmetric,
        np.ones(3),
        np.zeros((3, 3)),
        "win",
    )
    end = replicator(game, np.array([0.6, 0.2, 0.2]))
    assert evaluate_mix(game, end).regret > 0.02
    found = symmetric_equilibrium(game)
    assert found.regret < 0.01
    assert np.allclose(found.mix, [1 / 7, 2 / 7, 4 / 7], atol=0.05)


def test_polishing_on_the_support_reaches_the_exact_equilibrium():
    """Newton's method on the support's indifference equations lands exactly on the cycling
    game's equilibrium (1/7, 2/7, 4/7), where the replicator path circles; and on a five-strategy
    table from a support whose payoffs cannot be equalised ({0, 2}: 0 always beats 2), the
    strategy that beats the mix (3) enters and Newton reaches the equilibrium (2/11, 0, 19/77,
    4/7, 0) with no regret."""
    from cardsim.analysis.cashnguns import SymmetricGame, evaluate_mix, polish_support

    antisymmetric = np.array([[0.0, -1.0, 0.5], [1.0, 0.0, -0.25], [-0.5, 0.25, 0.0]])
    cycling = SymmetricGame(
        ("rock", "paper", "scissors"),
        2,
        np.eye(3, dtype=np.int64),
        0.5 + 0.4 * antisymmetric,
        np.ones(3),
        np.zeros((3, 3)),
        "win",
    )
    polished = polish_support(cycling, np.array([0.6, 0.2, 0.2]))
    assert polished == pytest.approx([1 / 7, 2 / 7, 4 / 7], abs=1e-9) and evaluate_mix(cycling, polished).regret < 1e-9
    table = np.array(
        [
            [0.50, 0.30, 0.70, 0.45, 0.52],
            [0.80, 0.50, 0.20, 0.40, 0.50],
            [0.30, 0.80, 0.50, 0.60, 0.50],
            [0.75, 0.60, 0.40, 0.50, 0.50],
            [0.48, 0.50, 0.50, 0.50, 0.50],
        ]
    )
    five = SymmetricGame(tuple("abcde"), 2, np.eye(5, dtype=np.int64), table, np.ones(5), np.zeros((5, 5)), "win")
    polished = polish_support(five, np.array([0.5, 0.0, 0.5, 0.0, 0.0]))
    assert polished == pytest.approx([2 / 11, 0, 19 / 77, 4 / 7, 0], abs=1e-9)
    assert evaluate_mix(five, polished).regret < 1e-9
