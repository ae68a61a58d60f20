"""The Gang summary tables from episode rows: heist success, game wins, the best-of-five check
and per-card effects, every probability with n and a 95% interval."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from cardsim.stats import (
    mean_table,
    paired_difference_interval,
    proportion_table,
    wilson_interval,
)

HEIST_GROUP = ("players", "model", "levels")
GAME_GROUP = ("players", "model", "levels", "mode")


def heist_summary(episodes: pl.DataFrame, by: Sequence[str] = HEIST_GROUP) -> pl.DataFrame:
    """Per group: n, heist success p with its Wilson interval, the share with the red chips in
    a correct order (before any scan), and the mean exact random-order value of the deals.

    The unit is the heist: the rows must be standalone heists (unit "heist"), each a fresh
    deal independent of the others, and the crew wins or loses it together (one row, not one
    per player). Heists played within a game are correlated (the same crew, the growing
    chip ladder), so game rows are refused: summarise them per game with
    :func:`game_summary`."""
    keys = list(by)
    if "heists" in episodes.columns:
        raise ValueError(
            "heist_summary takes standalone heist rows; these are game rows, whose "
            "heists are correlated: use game_summary (the game is the unit)"
        )
    success = proportion_table(episodes, keys, "success").rename(
        {"p": "success", "lo": "success_lo", "hi": "success_hi"}
    )
    order = proportion_table(episodes, keys, "order_ok").select(*keys, pl.col("p").alias("order_ok"))
    random_value = episodes.group_by(keys, maintain_order=True).agg(
        pl.col("random_order_p").mean().alias("random_exact")
    )
    return success.join(order, on=keys, maintain_order="left").join(random_value, on=keys, maintain_order="left")


def game_summary(games: pl.DataFrame, by: Sequence[str] = GAME_GROUP) -> pl.DataFrame:
    """Per group: n (games, the unit of every interval), game win rate with its Wilson
    interval and mean heists per game with its 95% interval."""
    keys = list(by)
    wins = proportion_table(games, keys, "success").rename({"p": "win", "lo": "win_lo", "hi": "win_hi"})
    heists = mean_table(games, keys, "heists").select(
        *keys,
        pl.col("mean").alias("heists"),
        pl.col("lo").alias("heists_lo"),
        pl.col("hi").alias("heists_hi"),
    )
    return wins.join(heists, on=keys, maintain_order="left")


def final_counts(games: pl.DataFrame, by: Sequence[str] = GAME_GROUP) -> pl.DataFrame:
    """Per group and final (vaults, alarms): n and share of games with its Wilson interval."""
    keys = list(by)
    counted = games.group_by([*keys, "vaults", "alarms"]).agg(pl.len().alias("games"))
    totals = games.group_by(keys).agg(pl.len().alias("n"))
    table = counted.join(totals, on=keys).sort([*keys, "vaults", "alarms"])
    lo, hi = wilson_interval(table["games"].to_numpy(), table["n"].to_numpy())
    return table.with_columns((pl.col("games") / pl.col("n")).alias("share"), pl.Series("lo", lo), pl.Series("hi", hi))


def best_of_five(p: float | np.ndarray) -> float | np.ndarray:
    """Basic game win probability from the per-heist success p: three vaults before three
    alarms, p^3 (1 + 3q + 6q^2) with q = 1 - p (the game lasts 3 to 5 heists)."""
    q = 1.0 - np.asarray(p, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    return p**3 * (1 + 3 * q + 6 * q * q)


def formula_check(heists: pl.DataFrame, games: pl.DataFrame, by: Sequence[str] = HEIST_GROUP) -> pl.DataFrame:
    """Basic-mode game win rate against p^3 (1 + 3q + 6q^2) of the same model's heist p; the
    predicted interval maps the heist Wilson interval through the (increasing) formula, and
    ``agrees`` says whether it overlaps the game interval."""
    keys = list(by)
    h = heist_summary(heists, keys).select(*keys, "success", "success_lo", "success_hi")
    g = game_summary(games, keys).select(*keys, pl.col("n").alias("games"), "win", "win_lo", "win_hi")
    table = h.join(g, on=keys, maintain_order="left")
    return table.with_columns(
        pl.Series("predicted", best_of_five(table["success"].to_numpy())),
        pl.Series("predicted_lo", best_of_five(table["success_lo"].to_numpy())),
        pl.Series("predicted_hi", best_of_five(table["success_hi"].to_numpy())),
    ).with_columns(
        ((pl.col("predicted_lo") <= pl.col("win_hi")) & (pl.col("win_lo") <= pl.col("predicted_hi"))).alias("agrees")
    )


def difference_interval(k1, n1, k2, n2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference p1 - p2 of two proportions with Newcombe's hybrid score 95% interval (built
    from the two Wilson intervals)."""
    k1, n1, k2, n2 = (np.asarray(v, dtype=np.float64) for v in (k1, n1, k2, n2))
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1)
    l2, u2 = wilson_interval(k2, n2)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def card_effects(episodes: pl.DataFrame, by: Sequence[str] = HEIST_GROUP) -> pl.DataFrame:
    """Per group and card (column ``card``; "none" is the baseline; and per ``use`` of a
    specialist when the column is there): heist success with its Wilson interval and the
    difference against no card, hardest card first.

    When the rows carry ``deal`` (the heist's index in its run: every card's run shares the
    seed, so heist k of every card starts from the same shuffled deck and heist seed; a card
    that deals differently, such as Security Cameras' third pocket card, still gets the same
    deck) and a card's run has as many heists as the baseline's, each deal once, the
    difference is paired by deal (Newcombe's paired hybrid score interval,
    :func:`cardsim.stats.paired_difference_interval`), column ``pairing`` "by deal";
    otherwise the two runs are compared as independent samples (Newcombe's hybrid score
    interval, :func:`difference_interval`), "unpaired"."""
    keys = list(by)
    cards = ["kind", "card", "use"] if "use" in episodes.columns else ["kind", "card"]
    table = proportion_table(episodes, [*keys, *cards], "success")
    base = table.filter(pl.col("card") == "none").select(
        *keys,
        pl.col("n").alias("base_n"),
        pl.col("successes").alias("base_successes"),
        pl.col("p").alias("base_p"),
    )
    table = table.join(base, on=keys, how="left", maintain_order="left")
    d, lo, hi = difference_interval(table["successes"], table["n"], table["base_successes"], table["base_n"])
    paired = np.zeros(table.height, dtype=bool)
    if "deal" in episodes.columns:
        counts = _paired_counts(episodes, keys, cards)
        table = table.join(counts, on=[*keys, *cards], how="left", maintain_order="left")
        paired = (
            (pl.col("pairs") == pl.col("n"))
            & (pl.col("deals") == pl.col("n"))
            & (pl.col("base_deals") == pl.col("n"))
            & (pl.col("n") == pl.col("base_n"))
        )
        paired = table.select(paired.fill_null(False)).to_series().to_numpy()
        by_deal = paired_difference_interval(
            *(table[name].fill_null(0).to_numpy() for name in ("both", "card_only", "base_only", "neither"))
        )
        d, lo, hi = (np.where(paired, pair, apart) for pair, apart in zip(by_deal, (d, lo, hi)))
        table = table.drop("pairs", "deals", "base_deals", "both", "card_only", "base_only", "neither")
    return (
        table.with_columns(
            pl.Series("difference", d),
            pl.Series("difference_lo", lo),
            pl.Series("difference_hi", hi),
            pl.Series("pairing", np.where(paired, "by deal", "unpaired")),
        )
        .drop("base_n", "base_successes")
        .sort([*keys, "p"])
    )


def _paired_counts(episodes: pl.DataFrame, keys: list[str], cards: list[str]) -> pl.DataFrame:
    """Per group and card, the 2x2 table of its heists against the baseline's on the same
    ``deal``: pairs, both succeeded, only the card's, only the baseline's, neither; and how
    many distinct deals the card's run and the baseline's hold (pairing needs each once)."""
    base = episodes.filter(pl.col("card") == "none")
    base_deals = base.group_by(keys).agg(pl.col("deal").n_unique().alias("base_deals"))
    deals = episodes.group_by([*keys, *cards], maintain_order=True).agg(pl.col("deal").n_unique().alias("deals"))
    joined = episodes.join(
        base.select(*keys, "deal", pl.col("success").alias("base_success")), on=[*keys, "deal"], how="inner"
    )
    card, none = pl.col("success"), pl.col("base_success")
    counts = joined.group_by([*keys, *cards], maintain_order=True).agg(
        pl.len().alias("pairs"),
        (card & none).sum().alias("both"),
        (card & ~none).sum().alias("card_only"),
        (~card & none).sum().alias("base_only"),
        (~card & ~none).sum().alias("neither"),
    )
    return deals.join(counts, on=[*keys, *cards], how="left").join(base_deals, on=keys, how="left")
