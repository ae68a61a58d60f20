"""Difficulty tuning: ranking by distance to the target, the ladder, and candidate runs."""

from __future__ import annotations

import math

import polars as pl
import pytest

from cardsim.analysis.tuning import (
    Candidate,
    check_target,
    closest_answer,
    evaluate_candidates,
    gang_candidates,
    gang_combinations,
    ladder,
    level_aims,
    neighbour_rungs,
    rank_candidates,
    tune_rungs,
)
from cardsim.errors import UserError
from cardsim.sims.core.coin import SIMULATOR as COIN
from cardsim.stats import wilson_interval


def table(rows: list[tuple[str, int, int]]) -> pl.DataFrame:
    """A candidate table (label, n, successes, p, lo, hi) from counts."""
    labels, n, k = zip(*rows)
    lo, hi = wilson_interval(list(k), list(n))
    return pl.DataFrame({"label": labels, "n": n, "successes": k}).with_columns(
        (pl.col("successes") / pl.col("n")).alias("p"), pl.Series("lo", lo), pl.Series("hi", hi)
    )


def test_rank_orders_by_distance_and_flags_ties():
    ranked = rank_candidates(table([("a", 1000, 900), ("b", 1000, 480), ("c", 1000, 540), ("d", 1000, 100)]), 0.5)
    assert ranked["label"].to_list() == ["b", "c", "a", "d"]
    assert ranked["rank"].to_list() == [1, 2, 3, 4]
    assert ranked["covers_target"].to_list() == [True, False, False, False]
    # b (48%) and c (54%) intervals at n=1000 overlap; a and d are far away
    assert ranked["tied_with_best"].to_list() == [True, True, False, False]


def test_ladder_picks_clearly_easier_and_harder():
    steps = ladder(
        table(
            [
                ("easy", 2000, 1500),
                ("mid", 2000, 1000),
                ("near", 2000, 1040),
                ("hard", 2000, 500),
                ("harder", 2000, 100),
            ]
        ),
        0.5,
    )
    assert steps["level"].to_list() == ["easy", "medium", "hard"]
    assert steps["label"].to_list() == ["easy", "mid", "hard"]
    assert steps["aim"].to_list() == pytest.approx([0.75, 0.5, 0.25])


def test_ladder_leaves_out_a_missing_side():
    steps = ladder(table([("only", 500, 250), ("harder", 500, 100)]), 0.5)
    assert steps["level"].to_list() == ["medium", "hard"]


def test_level_aims_and_target_check():
    assert level_aims(0.3) == pytest.approx({"easy": 0.65, "medium": 0.3, "hard": 0.15})
    with pytest.raises(UserError, match="target"):
        check_target(1.2)


def test_evaluate_candidates_matches_exact_coin_probabilities():
    candidates = [Candidate(f"p{p}", {"p_heads": p}) for p in (0.25, 0.5, 0.7)]
    result = evaluate_candidates(COIN, candidates, "heads", seed=3, jobs=1, store=None, precision=None, max_n=4000)
    assert result["label"].to_list() == ["p0.25", "p0.5", "p0.7"]
    for row, exact in zip(result.iter_rows(named=True), (0.25, 0.5, 0.7)):
        assert row["n"] == 4000
        # 4.5 standard errors: a correct simulator fails this about once in 150,000 runs
        assert abs(row["p"] - exact) < 4.5 * math.sqrt(exact * (1 - exact) / row["n"])
        assert row["lo"] <= row["p"] <= row["hi"]
    best = rank_candidates(result, 0.45).row(0, named=True)
    assert best["label"] == "p0.5"


def test_closest_answer_flags_a_target_out_of_reach():
    rates = table([("easy", 100, 80), ("hard", 100, 20)])
    high = closest_answer(rates, 0.97)
    assert (high.label, high.reach, high.reachable) == ("easy", "above", False)
    assert "out of reach" in high.sentence("us", 0.97) and "Closest reachable: easy, 80.0%" in high.sentence("us", 0.97)
    low = closest_answer(rates, 0.02)
    assert (low.label, low.reach) == ("hard", "below")
    middle = closest_answer(rates, 0.5)
    assert middle.reachable and middle.sentence("us", 0.5).startswith("For us aiming at a 50% win rate, play: ")
    # within the easiest interval (upper end ~87%) the target still counts as reachable
    assert closest_answer(rates, 0.85).reachable


def test_neighbour_rungs():
    ladder_names = ("random", "percentile", "history", "bayes")
    assert neighbour_rungs(ladder_names, "percentile") == ["random", "percentile", "history"]
    assert neighbour_rungs(ladder_names, "random") == ["random", "percentile"]
    assert neighbour_rungs(ladder_names, "bayes") == ["history", "bayes"]


def test_gang_combinations_follow_the_configs():
    plain = gang_candidates()
    singles, pairs = gang_combinations(1), gang_combinations(2)
    labels = [c.label for c in plain + singles + pairs]
    assert len(labels) == len(set(labels))
    # Basic takes one or two permanent challenges (G6); Professional only one (G4), already listed
    assert {c.config["mode"] for c in singles + pairs} == {"basic"}
    assert len(singles) == 10 and len(pairs) == 45
    assert all(len(c.config["challenges"]) == 2 for c in pairs)


def coin_candidates(count: int, rung: str) -> list[Candidate]:
    return [Candidate(f"p{p}", {"p_heads": p}) for p in (0.1, 0.9)]


@pytest.mark.parametrize("target, refined", [(0.5, True), (0.9, False)])
def test_tune_rungs_refines_only_when_no_interval_covers_the_target(target, refined):
    announced: list[int] = []
    results = tune_rungs(
        COIN,
        coin_candidates,
        "heads",
        refine_for=lambda c, r: [Candidate("p0.5", {"p_heads": 0.5})],
        players=[1, 2],
        rungs=["low", "high"],
        chosen="high",
        target=target,
        seed=1,
        jobs=1,
        store=None,
        precision=None,
        max_n=400,
        on_refine=announced.append,
    )
    assert [(t.players, t.model, t.chosen) for t in results] == [
        (1, "low", False),
        (1, "high", True),
        (2, "low", False),
        (2, "high", True),
    ]
    assert announced == ([1] * 4 if refined else [])
    assert all(t.answer.label == ("p0.5" if refined else "p0.9") and t.answer.reachable for t in results)
    assert all(t.ranked.height == (3 if refined else 2) for t in results)
