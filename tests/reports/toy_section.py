"""A toy chapter over the runner's coin simulator: exercises the report framework without a game."""

from __future__ import annotations

import numpy as np
import polars as pl

from cardsim.analysis.tuning import candidate_table, ladder, rank_candidates
from cardsim.reports.content import (
    Block,
    Paragraph,
    Plot,
    proportion_columns,
    table_from_frame,
    text_column,
)
from cardsim.reports.plots.common import heatmap
from cardsim.reports.sections.common import proportion_block
from cardsim.reports.style import new_figure, series_style
from cardsim.reports.suite import Experiment, Outcomes, Profile
from cardsim.stats import proportion_table

GAME = "coin"
TITLE = "Coin (toy chapter)"
QUESTION = "How often does a biased coin land heads?"
BIASES = (0.2, 0.5, 0.8)


def rerun(profile: Profile) -> str:
    return "python -c 'from cardsim.sims.core.coin import SIMULATOR'"


def plan(profile: Profile) -> list[Experiment]:
    return [profile.experiment(f"bias{p}", {"p_heads": p}, {"bias": p}) for p in BIASES]


def models(profile: Profile) -> list[tuple[str, str]]:
    return [("fair", "p_heads = 0.5"), ("biased", "p_heads = 0.2 or 0.8")]


def heads_plot(frame: pl.DataFrame):
    """Heads rate by bias with interval whiskers (a pure function of the episodes)."""
    table = proportion_table(frame, ["bias"], "heads").sort("bias")
    fig, ax = new_figure()
    p = table["p"].to_numpy()
    ax.errorbar(
        table["bias"].to_numpy(),
        p,
        yerr=np.vstack([p - table["lo"].to_numpy(), table["hi"].to_numpy() - p]),
        capsize=3,
        **series_style(0),
    )
    ax.set_xlabel("bias")
    ax.set_ylabel("heads rate")
    return fig


def outcome_heatmap(frame: pl.DataFrame):
    """Share of heads and tails per bias as a heatmap with a colour bar (a constrained-layout
    colour bar is laid out again when the figure is drawn again: the side-by-side test needs
    one)."""
    table = proportion_table(frame, ["bias"], "heads").sort("bias")
    p = table["p"].to_numpy()
    return heatmap(
        np.column_stack([p, 1.0 - p]),
        rows=[str(b) for b in table["bias"]],
        columns=["heads", "tails"],
        title="Outcome share by bias",
        xlabel="outcome",
        ylabel="bias",
        colorbar_label="share",
    )


def results(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    frame = outcomes.combined()
    return (
        proportion_block(frame, ["bias"], "heads", title="Heads by bias", label="heads"),
        Plot("coin-heads", "Heads rate by bias, 95% intervals.", lambda: heads_plot(frame)),
        Plot("coin-outcomes", "Share of heads and tails per bias.", lambda: outcome_heatmap(frame)),
    )


def recommendations(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    table = candidate_table(
        [(f"bias {o.experiment.labels['bias']}", o.episodes) for o in outcomes.by_key.values()], "heads"
    )
    steps = ladder(rank_candidates(table, 0.5), 0.5)
    return (
        Paragraph("For a fair game, pick the coin whose heads rate is closest to 50%."),
        table_from_frame(
            steps,
            title="Ladder",
            columns=[text_column("level", "level"), text_column("coin", "label")] + proportion_columns("heads"),
        ),
    )
