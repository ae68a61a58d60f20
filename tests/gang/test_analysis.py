"""Summary tables and figures from episode rows (cardsim.analysis.gang, reports.plots.gang)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from cardsim.analysis.gang import (
    best_of_five,
    card_effects,
    difference_interval,
    final_counts,
    formula_check,
    game_summary,
    heist_summary,
)
from cardsim.reports.plots.gang import (
    card_effects_plot,
    game_win_plot,
    levels_curve_plot,
    success_by_players_plot,
)
from cardsim.reports.style import svg_text
from cardsim.stats import wilson_interval


def _heists(players: int, model: str, levels: int, successes: int, n: int) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "players": [players] * n,
            "model": [model] * n,
            "levels": [levels] * n,
            "success": [True] * successes + [False] * (n - successes),
            "order_ok": [True] * successes + [False] * (n - successes),
            "random_order_p": [1 / 24] * n,
        }
    )


def test_heist_summary_has_wilson_interval_and_exact_random_value() -> None:
    table = heist_summary(pl.concat([_heists(4, "history", 1, 70, 100), _heists(5, "history", 1, 60, 100)]))
    row = table.row(0, named=True)
    assert row["n"] == 100 and row["success"] == 0.7
    assert row["success_lo"] < 0.7 < row["success_hi"]
    assert row["random_exact"] == pytest.approx(1 / 24)


def test_difference_interval_contains_zero_for_equal_rates_and_excludes_it_for_far_ones() -> None:
    d, lo, hi = difference_interval(500, 1000, 500, 1000)
    assert d == 0 and lo < 0 < hi
    d, lo, hi = difference_interval(600, 1000, 500, 1000)
    assert d == pytest.approx(0.1) and 0 < lo < 0.1 < hi


def test_card_effects_sorted_hardest_first_against_the_none_baseline() -> None:
    rows = []
    for card, kind, k in (("none", "none", 70), ("blackout", "challenge", 50), ("investor", "specialist", 80)):
        rows.append(
            _heists(4, "bayes", 1, k, 100)
            .select("players", "model", "levels", "success")
            .with_columns(pl.lit(kind).alias("kind"), pl.lit(card).alias("card"))
        )
    effects = card_effects(pl.concat(rows))
    assert effects["card"].to_list() == ["blackout", "none", "investor"]
    assert effects.filter(pl.col("card") == "none")["difference"][0] == 0
    assert effects.filter(pl.col("card") == "blackout")["difference"][0] == pytest.approx(-0.2)
    svg = svg_text(card_effects_plot(effects))
    assert svg.startswith("<svg")


def test_card_effects_pair_heists_by_deal_when_the_runs_match() -> None:
    # the card changes 3 of 100 deals (2 lost, 1 won): paired, the interval is a few points
    # wide; unpaired (no deal column, or a run of another length) it spans about +-13 points
    base = [True] * 60 + [False] * 40
    card = [False, False] + base[2:60] + [True] + base[61:]

    def rows(name: str, kind: str, success: list[bool]) -> pl.DataFrame:
        return pl.DataFrame(
            {
                "players": 4,
                "model": "bayes",
                "levels": 1,
                "success": success,
                "deal": range(len(success)),
                "kind": kind,
                "card": name,
            }
        )

    paired = card_effects(pl.concat([rows("none", "none", base), rows("muscle", "specialist", card)]))
    muscle = paired.filter(pl.col("card") == "muscle").row(0, named=True)
    assert muscle["pairing"] == "by deal" and muscle["difference"] == pytest.approx(-0.01)
    assert muscle["difference_hi"] - muscle["difference_lo"] < 0.1
    assert muscle["difference_lo"] < -0.01 < muscle["difference_hi"]
    unpaired = (
        card_effects(pl.concat([rows("none", "none", base), rows("muscle", "specialist", card)]).drop("deal"))
        .filter(pl.col("card") == "muscle")
        .row(0, named=True)
    )
    assert unpaired["pairing"] == "unpaired"
    assert unpaired["difference_hi"] - unpaired["difference_lo"] > 0.2
    shorter = card_effects(pl.concat([rows("none", "none", base), rows("muscle", "specialist", card[:90])]))
    assert shorter.filter(pl.col("card") == "muscle")["pairing"][0] == "unpaired"
    twice = rows("muscle", "specialist", card[:50] * 2).with_columns(pl.Series("deal", list(range(50)) * 2))
    repeated = card_effects(pl.concat([rows("none", "none", base), twice]))
    assert repeated.filter(pl.col("card") == "muscle")["pairing"][0] == "unpaired"  # deals 0-49 twice
    from cardsim.reports.sections.gang import _pairing_words

    assert _pairing_words(paired).startswith("paired by deal (")
    assert "unpaired (independent samples) for muscle (n = 90)" in _pairing_words(shorter)
    no_baseline = card_effects(rows("muscle", "specialist", card))
    assert no_baseline["pairing"][0] == "unpaired" and math.isnan(no_baseline["difference"][0])


def _games() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "players": [4] * 4,
            "model": ["history"] * 4,
            "levels": [1] * 4,
            "mode": ["basic"] * 4,
            "success": [True, True, False, True],
            "vaults": [3, 3, 1, 3],
            "alarms": [0, 2, 3, 1],
            "heists": [3, 5, 4, 4],
        }
    )


def test_game_summary_and_final_counts() -> None:
    games = _games()
    summary = game_summary(games)
    assert summary["win"][0] == 0.75 and summary["heists"][0] == 4.0
    finals = final_counts(games)
    assert finals["games"].sum() == 4 and finals["share"].sum() == pytest.approx(1.0)


def test_formula_check_flags_agreement() -> None:
    heists = _heists(4, "history", 1, 700, 1000)
    games = pl.DataFrame(
        {
            "players": [4] * 1000,
            "model": ["history"] * 1000,
            "levels": [1] * 1000,
            "mode": ["basic"] * 1000,
            "heists": [4] * 1000,
            "success": [True] * round(1000 * float(best_of_five(0.7)))
            + [False] * (1000 - round(1000 * float(best_of_five(0.7)))),
        }
    )
    assert formula_check(heists, games)["agrees"].all()
    far = games.with_columns(pl.lit(False).alias("success"))
    assert not formula_check(heists, far)["agrees"].any()


def test_figures_render() -> None:
    summary = heist_summary(
        pl.concat([_heists(p, m, 1, 50 + p, 100) for p in (3, 4) for m in ("percentile", "history")])
    )
    assert "<svg" in svg_text(success_by_players_plot(summary))
    levels = heist_summary(pl.concat([_heists(4, "history", lv, 60 + lv, 100) for lv in (1, 4)]))
    assert "<svg" in svg_text(levels_curve_plot(levels))
    games = game_summary(pl.concat([_games(), _games().with_columns(pl.lit("master").alias("mode"))]))
    assert "<svg" in svg_text(game_win_plot(games))
    assert np.isfinite(summary["success_lo"].to_numpy()).all()


def test_game_rows_are_summarised_per_game_never_per_heist() -> None:
    """The heists of a game are correlated (one crew, one chip ladder): game rows give the
    game-level interval (n = games), and the heist table refuses them."""
    games = pl.DataFrame(
        {
            "players": [4] * 200,
            "model": ["history"] * 200,
            "levels": [1] * 200,
            "mode": ["basic"] * 200,
            "success": [True] * 120 + [False] * 80,
            "heists": [5] * 120 + [4] * 80,
        }
    )
    row = game_summary(games).row(0, named=True)
    lo, hi = wilson_interval(120, 200)
    assert row["n"] == 200 and np.isclose(row["win_lo"], lo) and np.isclose(row["win_hi"], hi)
    with pytest.raises(ValueError, match="game rows"):
        heist_summary(games)
