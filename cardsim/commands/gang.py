"""`cardsim gang`: heist success, game win rates, card effects and the player-model ladder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import polars as pl
import typer

from cardsim.commands.common import (
    ClusterOptions,
    ClusterOpts,
    DealsOpt,
    JsonOpt,
    NOpt,
    NoStoreOpt,
    PlotFormatOpt,
    PlotOpt,
    QuietOpt,
    RunOptions,
    RunOpts,
    StoreOpt,
    check_output_file,
    check_plot_folder,
    game_app,
    record_result,
    show_table,
    split_names,
)
from cardsim.commands.output import interval_column
from cardsim.errors import UserError

app = game_app("gang")

PlayersOpt = Annotated[str, typer.Option("--players", help="Player counts: 4, 3-6 or 3,5.")]
ModelOpt = Annotated[str, typer.Option("--model", help="Player models (comma separated) or 'all'; see `models`.")]
LevelsOpt = Annotated[str, typer.Option("--levels", help="Strength bands per chip: 1, 1,4,16 or 1-8.")]
ChallengeOpt = Annotated[
    str, typer.Option("--challenge", help="Challenge cards active on every heist (comma separated).")
]
SpecialistOpt = Annotated[str, typer.Option("--specialist", help="Specialist card active on every heist.")]
RoundOpt = Annotated[str, typer.Option("--specialist-round", help="When the group plays a specialist: river or flop.")]
BoostOpt = Annotated[str, typer.Option("--boost", help="Who gets Hacker and Jack: top (chip holder) or bottom.")]
ModeOpt = Annotated[str, typer.Option("--mode", help="basic, advanced, pro(fessional), master, or a list / all.")]
DeckOrderOpt = Annotated[str, typer.Option("--deck-order", help="Card piles shuffled (default) or numbered 1-10.")]
UseOpt = Annotated[
    str, typer.Option("--specialist-use", help="helpful (group plays a card only when it expects a gain) or always.")
]
JackOpt = Annotated[str, typer.Option("--jack", help="Jack reading: stay (the Jack must stay) or discard.")]


def _interval_pct(value: str, lo: str, hi: str) -> pl.Expr:
    """'72.15 (71.95-72.35)': a rate (or difference) and its 95% interval in percent."""
    return pl.format(
        "{} ({}-{})",
        (pl.col(value) * 100).round(2),
        (pl.col(lo) * 100).round(2),
        (pl.col(hi) * 100).round(2),
    )


def _pct(column: str) -> pl.Expr:
    """:func:`_interval_pct` for a column with ``_lo`` / ``_hi`` companions."""
    return _interval_pct(column, f"{column}_lo", f"{column}_hi")


def _names(text: str, name: str = "challenge") -> tuple[str, ...]:
    return tuple(split_names(text, name=name))


@app.command("heist")
def heist_command(
    players: PlayersOpt = "4",
    model: ModelOpt = "history",
    levels: LevelsOpt = "1",
    challenge: ChallengeOpt = "",
    specialist: SpecialistOpt = "",
    specialist_round: RoundOpt = "river",
    boost: BoostOpt = "top",
    specialist_use: UseOpt = "helpful",
    jack: JackOpt = "stay",
    n: NOpt = 100_000,
    run: RunOpts = RunOptions(),
    plot: PlotOpt = None,
    plot_format: PlotFormatOpt = "svg",
    as_json: JsonOpt = False,
) -> None:
    """Per-heist success with its 95% Wilson interval per players x model x levels.

    Example: cardsim gang heist --players 4 --model history --n 200000
    """
    from cardsim.api import gang

    plot = check_plot_folder(plot, plot_format)
    challenges = _names(challenge)
    result = gang.heist(
        players=players,
        model=model,
        levels=levels,
        challenge=challenges,
        specialist=specialist,
        specialist_round=specialist_round,
        boost=boost,
        specialist_use=specialist_use,
        jack=jack,
        n=n,
        options=run,
    )
    record_result(result)
    summary = result.table
    if as_json:
        show_table(summary, title="gang heist success", name="heist_success", as_json=True)
    else:
        cards = ", ".join(challenges + ((specialist,) if specialist else ())) or "no cards"
        show_table(
            summary.select(
                "players",
                "model",
                "levels",
                "n",
                _pct("success").alias("success % (95% CI)"),
                (pl.col("order_ok") * 100).round(2).alias("order ok %"),
                (pl.col("random_exact") * 100).round(3).alias("random exact %"),
            ),
            title=f"The Gang: heist success ({cards}); random exact = tied orders / n! of the same deals",
            name="heist_success",
        )
    if plot is not None:
        from cardsim.reports.plots.gang import levels_curve_plot, success_by_players_plot
        from cardsim.reports.style import save_figure

        written = []
        if summary["levels"].n_unique() == 1 or summary["players"].n_unique() > 1:
            first_level = summary["levels"].min()
            written.append(
                save_figure(
                    success_by_players_plot(summary.filter(pl.col("levels") == first_level)),
                    plot / f"gang_success_by_players.{plot_format}",
                )
            )
        if summary["levels"].n_unique() > 1:
            written.append(save_figure(levels_curve_plot(summary), plot / f"gang_levels_curve.{plot_format}"))
        if not run.quiet:
            typer.echo(f"plots: {', '.join(str(path) for path in written)}", err=True)


@app.command("game")
def game_command(
    mode: ModeOpt = "basic",
    players: PlayersOpt = "4",
    model: ModelOpt = "history",
    levels: LevelsOpt = "1",
    deck_order: DeckOrderOpt = "shuffled",
    challenge: ChallengeOpt = "",
    specialist_round: RoundOpt = "river",
    boost: BoostOpt = "top",
    specialist_use: UseOpt = "helpful",
    jack: JackOpt = "stay",
    n: NOpt = 20_000,
    run: RunOpts = RunOptions(),
    plot: PlotOpt = None,
    plot_format: PlotFormatOpt = "svg",
    check: Annotated[
        bool, typer.Option("--check", help="Basic mode: also run n heists and compare with p^3 (1 + 3q + 6q^2).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Game win rate, mean heists and the final vault/alarm counts per mode x players x model.
    --challenge makes a card permanent (basic: on every heist; pro: the permanent challenge).

    Example: cardsim gang game --mode basic,advanced,pro,master --players 4 --n 20000
    """
    from cardsim.api import gang

    plot = check_plot_folder(plot, plot_format)
    result = gang.game(
        mode=mode,
        players=players,
        model=model,
        levels=levels,
        deck_order=deck_order,
        challenge=challenge,
        specialist_round=specialist_round,
        boost=boost,
        specialist_use=specialist_use,
        jack=jack,
        n=n,
        check=check,
        options=run,
    )
    record_result(result)
    summary, finals = result.tables["game_win"], result.tables["final_counts"]
    checked = result.tables.get("formula_check")
    if checked is not None:
        show_table(
            checked
            if as_json
            else checked.select(
                "players",
                "model",
                "levels",
                _pct("success").alias("heist % (95% CI)"),
                _pct("predicted").alias("p^3(1+3q+6q^2) %"),
                _pct("win").alias("game win %"),
                "agrees",
            ),
            title="The Gang: basic game win rate against the best-of-five formula",
            name="formula_check",
            as_json=as_json,
        )
    if as_json:
        show_table(summary, title="gang game win rate", name="game_win", as_json=True)
        show_table(finals, title="gang final vaults and alarms", name="final_counts", as_json=True)
    else:
        show_table(
            summary.select(
                "mode",
                "players",
                "model",
                "levels",
                "n",
                _pct("win").alias("win % (95% CI)"),
                pl.format(
                    "{} ({}-{})", pl.col("heists").round(3), pl.col("heists_lo").round(3), pl.col("heists_hi").round(3)
                ).alias("heists per game"),
            ),
            title="The Gang: game win rate (3 vaults before 3 alarms; 2 alarms in master)",
            name="game_win",
        )
        show_table(
            finals.select(
                "mode",
                "players",
                "model",
                "levels",
                "vaults",
                "alarms",
                "games",
                _interval_pct("share", "lo", "hi").alias("share % (95% CI)"),
            ),
            title="The Gang: final vault and alarm counts",
            name="final_counts",
        )
    if plot is not None:
        from cardsim.reports.plots.gang import game_win_plot
        from cardsim.reports.style import save_figure

        written = save_figure(game_win_plot(summary), plot / f"gang_game_win_by_mode.{plot_format}")
        if not run.quiet:
            typer.echo(f"plot: {written}", err=True)


@app.command("cards")
def cards_command(
    players: PlayersOpt = "4",
    model: ModelOpt = "bayes",
    levels: LevelsOpt = "1",
    kind: Annotated[str, typer.Option("--kind", help="challenges, specialists or all.")] = "all",
    specialist_round: RoundOpt = "river",
    boost: BoostOpt = "top",
    n: NOpt = 20_000,
    run: RunOpts = RunOptions(),
    plot: PlotOpt = None,
    plot_format: PlotFormatOpt = "svg",
    out: Annotated[Path | None, typer.Option("--out", help="Write the effect table as parquet.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """For every single card: heist success and its difference against no card, each with a
    95% interval, hardest first. All cards share the seed, so heist k of every card starts
    from the same deck and heist seed, and the differences are paired by deal.
    Specialists the group decides on are run both ways (--specialist-use helpful, the default,
    and always); the Jack also under its other reading ("jack (may discard)").

    Example: cardsim gang cards --players 4 --model bayes --n 20000
    """
    from cardsim.api import gang

    if kind not in ("challenges", "specialists", "all"):
        raise UserError(f"--kind must be challenges, specialists or all (got {kind!r})")
    plot = check_plot_folder(plot, plot_format)
    if out is not None:
        check_output_file(out, what="--out", suffixes=(".parquet",))
    result = gang.cards(
        players=players,
        model=model,
        levels=levels,
        kind=kind,
        specialist_round=specialist_round,
        boost=boost,
        n=n,
        options=run,
    )
    record_result(result)
    effects = result.table
    if out is not None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            effects.with_columns(pl.lit(specialist_round).alias("specialist_round")).write_parquet(out)
        except OSError as exc:
            raise UserError(f"--out: cannot write {out} ({exc.strerror or exc})") from None
    if as_json:
        show_table(effects, title="gang card effects", name="card_effects", as_json=True)
    else:
        row = ["players", "model", "levels", "kind", "card"]
        always = effects.filter(pl.col("use") != "helpful").select(
            *row, _interval_pct("difference", "difference_lo", "difference_hi").alias("vs none, always")
        )
        show_table(
            effects.filter(pl.col("use") != "always")
            .join(always, on=row, how="left", maintain_order="left")
            .select(
                *row,
                "n",
                _interval_pct("p", "lo", "hi").alias("success % (95% CI)"),
                _interval_pct("difference", "difference_lo", "difference_hi").alias("vs none, helpful"),
                "vs none, always",
            ),
            title="The Gang: heist success per card (specialists used when helpful), hardest "
            "first; differences in points with Newcombe 95% CI, paired by deal (unpaired where a "
            "card's n differs from no card's: column pairing in --json); 'always': every "
            "specialist used",
            name="card_effects",
        )
    if plot is not None:
        from cardsim.reports.plots.gang import card_effects_plot
        from cardsim.reports.style import save_figure

        for (count, name, level), group in effects.filter(pl.col("use") != "always").group_by(
            ["players", "model", "levels"], maintain_order=True
        ):
            written = save_figure(
                card_effects_plot(group), plot / f"gang_card_effects_{count}p_{name}_l{level}.{plot_format}"
            )
            if not run.quiet:
                typer.echo(f"plot: {written}", err=True)


@app.command("models")
def models_command(as_json: JsonOpt = False) -> None:
    """List the player-model ladder, weakest first.

    Example: cardsim gang models
    """
    from cardsim.sims.gang.models import MODEL_DESCRIPTIONS

    rows = [{"model": name, "how it plays": text} for name, text in MODEL_DESCRIPTIONS.items()]
    show_table(
        pl.DataFrame(rows), title="The Gang player models (--model NAME,... or all)", name="models", as_json=as_json
    )


@app.command("evaluate")
def evaluate_command(
    strategy: Annotated[
        str, typer.Option("--strategy", help="Your strategy as FILE.py:NAME (see docs/strategies.md).")
    ],
    players: Annotated[str, typer.Option("--players", help="Player count, 3-6.")] = "4",
    n: DealsOpt = 2_000,
    against: Annotated[
        str, typer.Option("--against", help="Built-in model to compare with on the same deals; see `models`.")
    ] = "percentile",
    seed: Annotated[int, typer.Option("--seed", help="Root seed (same numbers for any --jobs).")] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", help="Worker processes.")] = None,
    cluster: ClusterOpts = ClusterOptions(),
    traceback: Annotated[
        bool, typer.Option("--traceback", help="Show the strategy's traceback when it fails.")
    ] = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Your strategy on every seat of basic heists, against a built-in model on the same deals.

    Example: cardsim gang evaluate --strategy examples/strategies/gang_pairs_high.py:PairsHigh --n 2000
    """
    from cardsim.api import gang
    from cardsim.commands.common import evaluation_progress, run_user_strategy

    with evaluation_progress(None if quiet else "gang evaluate"):
        result = run_user_strategy(
            lambda: gang.evaluate(
                strategy, players=players, n=n, against=against, seed=seed, jobs=jobs, **cluster.keywords()
            ),
            traceback,
        )
    record_result(result)
    if as_json:
        show_table(result.table, title="gang evaluate", name="evaluate", as_json=True)
        show_table(
            result.tables["paired_difference"], title="paired difference", name="paired_difference", as_json=True
        )
        return
    table = result.table
    show_table(
        table.select("strategy", "players", "n").with_columns(
            interval_column(table, "success", scale=100).alias("success % (95% CI)")
        ),
        title="The Gang: heist success, your strategy on every seat and the built-in on the same deals",
        name="evaluate",
    )
    paired = result.tables["paired_difference"]
    show_table(
        paired.select("strategy", "against", "n").with_columns(
            interval_column(paired, "difference", scale=100, signed=True).alias("difference, points (95% CI)")
        ),
        title="Paired difference per heist (strategy minus built-in)",
        name="paired_difference",
    )


@app.command("crossplay")
def crossplay_command(
    entrant: Annotated[
        list[str],
        typer.Option(
            "--entrant",
            "-e",
            help="Strategies written in Python, FILE.py:NAME or LABEL=FILE.py:NAME, comma separated or repeated (each runs in its own process).",
        ),
    ],
    players: Annotated[int, typer.Option("--players", help="Seats at the table.")] = 4,
    n: Annotated[int, typer.Option("--n", help="Deals per cell (the same deals in every cell).")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Root seed: same seed, same numbers.")] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", help="Worker processes (default 1).")] = None,
    cluster: ClusterOpts = ClusterOptions(),
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Cross-play matrix: the team's success when every seat but one plays the row's strategy
    and one seat the column's (diagonal: the row's team alone), on the same --n deals, with
    95% Wilson intervals. Chunks of deals run in parallel (--jobs, or on a dask cluster); finished
    chunks are kept in the store and the same command resumes.

    Example: cardsim gang crossplay -e examples/strategies/gang_percentile.py:Percentile,examples/strategies/gang_pairs_high.py:PairsHigh --n 200
    """

    from cardsim.api import gang as api_game
    from cardsim.commands.common import run_crossplay

    run_crossplay(
        api_game.crossplay,
        "gang crossplay",
        entrant,
        players=players,
        n=n,
        seed=seed,
        jobs=jobs,
        cluster=cluster,
        store=store,
        no_store=no_store,
        as_json=as_json,
        quiet=quiet,
    )
