"""`cardsim cashnguns`: strategies, a table run, the meta-game payoff matrix, the best-response
search (discover) and the one-round enumeration (stage)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated

import polars as pl
import typer

from cardsim.analysis.cashnguns import DEFAULT_LOCAL, mix_text
from cardsim.analysis.cashnguns.check import DEFAULT_ORACLE_GAMES
from cardsim.commands.common import (
    ClusterOptions,
    ClusterOpts,
    JobsOpt,
    JsonOpt,
    NoStoreOpt,
    PlotFormatOpt,
    PlotOpt,
    QuietOpt,
    RunOptions,
    RunOpts,
    SeedOpt,
    StoreOpt,
    check_output_file,
    check_plot_folder,
    game_app,
    record_result,
    run_user_strategy,
    show_table,
    show_value,
)
from cardsim.commands.output import record_run
from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS
from cardsim.sims.cashnguns.search import DEFAULT_BUDGET as SEARCH_BUDGET

app = game_app("cashnguns")

StrategyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        help="Strategy specs, comma separated (or repeated -s): NAME or NAME:key=value,... "
        "(see 'cardsim cashnguns strategies').",
    ),
]
PlayersOpt = Annotated[str, typer.Option("--players", help="Player counts 4-6: 5, 4-6 or 4,6.")]
CountsOpt = Annotated[str, typer.Option("--players", help="4-6 players: one count, a range or a list.")]
MetricOpt = Annotated[str, typer.Option("--metric", help="Payoff: win (probability) or score (mean $).")]
ShameOpt = Annotated[
    int,
    typer.Option(
        "--shame",
        help="Dollars per shame marker in the final score (default -5000, the published rules' penalty; the seed's 'worth $5,000' read literally is +5000).",
    ),
]
LocalOpt = Annotated[
    int,
    typer.Option(
        "--local",
        help="Local-search candidates per search on top of --budget (30%: neighbours of the library's members; 50%: compound moves of two or three parameters; 20%: a hill-climb; 0: off).",
    ),
]

UserStrategyOpt = Annotated[
    str, typer.Option("--strategy", help="A strategy written in Python, FILE.py:NAME (see docs/strategies.md).")
]
TracebackOpt = Annotated[bool, typer.Option("--traceback", help="On a strategy's failure, also print its traceback.")]
SweepOpt = Annotated[
    bool,
    typer.Option(
        "--sweep/--no-sweep",
        help="Also try every card order (168) and opponent reading on top of every mix member (the schedule sweep).",
    ),
]


@app.command("strategies")
def strategies_command(as_json: JsonOpt = False) -> None:
    """List the named strategies, the policies a custom strategy combines, its parameters and
    the shipped mixes (--against mix) with their status: "not converged" and the best known
    reply's gain with its 95% interval where the mix does not hold (read from the libraries file).

    Example: cardsim cashnguns strategies
    """
    from cardsim.api import cashnguns

    tables = cashnguns.strategies()
    named, policies, parameters, mixes = (
        tables["strategies"],
        tables["policies"],
        tables["parameters"],
        tables["mixes"],
    )
    show_table(
        named, title="named strategies (override any field: NAME:key=value,...)", name="strategies", as_json=as_json
    )
    show_table(policies, title="policies (custom:bullet=...,target=...,lie=...)", name="policies", as_json=as_json)
    show_table(
        parameters, title="parameters (custom:key=value; out of range is an error)", name="parameters", as_json=as_json
    )
    if mixes.height:
        show_table(
            mixes
            if as_json
            else mixes.select(
                "players", "metric", "shame", "mix", "status", pl.col("best_known_reply").alias("best known reply, 95%")
            ),
            title=(
                "shipped mixes (--against mix): the searched library's, none shown to be an equilibrium "
                "of the game; the report and 'cardsim cashnguns check' name each best known reply"
            ),
            name="mixes",
            as_json=as_json,
        )


@app.command("run")
def run_command(
    players: PlayersOpt = "5",
    strategy: StrategyOpt = None,
    shame: ShameOpt = DEFAULT_SHAME_DOLLARS,
    n: Annotated[int, typer.Option("--n", help="Games to play (minimum when --precision is set).")] = 20_000,
    run: RunOpts = RunOptions(),
    as_json: JsonOpt = False,
) -> None:
    """Play a table of strategies: one -s for all, two for focal vs others, or one per player
    (so a repeated strategy here means another seat, not a duplicate).

    Example: cardsim cashnguns run --players 5 -s shark,stubborn --n 20000
    """
    from cardsim.api import cashnguns

    result = cashnguns.run(players=players, strategy=strategy, shame=shame, n=n, options=run)
    record_result(result)
    table = result.tables["slots"]
    if not as_json:
        table = table.select(
            "players",
            "slot",
            "strategy",
            "n",
            "p_win",
            pl.format("[{}, {}]", pl.col("lo").round(4), pl.col("hi").round(4)).alias("95% CI"),
            pl.col("mean_score").round(0).cast(pl.Int64).alias("score $"),
            pl.format("±{}", (pl.col("score_hi") - pl.col("mean_score")).round(0).cast(pl.Int64)).alias("95%"),
            "survived",
            "wounds",
            "shame",
        )
    show_table(table, title=f"Cash'n Guns, {players} players (slot 0 = focal)", name="slots", as_json=as_json)


def _matrix_grid(matrix: pl.DataFrame, metric: str) -> pl.DataFrame:
    """The matrix as a grid of 'value [lo, hi]' strings: rows focal, columns others."""
    column, lo, hi = ("p_win", "win_lo", "win_hi") if metric == "win" else ("mean_score", "score_lo", "score_hi")
    names = matrix["focal"].unique(maintain_order=True).to_list()
    grid: dict[str, list[str]] = {"focal \\ others": names}
    for others in names:
        cells = []
        for focal in names:
            row = matrix.filter((pl.col("focal") == focal) & (pl.col("others") == others)).row(0, named=True)
            if metric == "win":
                cells.append(f"{row[column]:.3f} [{row[lo]:.3f},{row[hi]:.3f}]")
            else:
                cells.append(f"{row[column]:,.0f} [{row[lo]:,.0f},{row[hi]:,.0f}]")
        grid[others] = cells
    return pl.DataFrame(grid)


@app.command("payoff")
def payoff_command(
    players: PlayersOpt = "5",
    strategy: StrategyOpt = None,
    n: Annotated[int, typer.Option("--n", help="Games per table profile (minimum with --precision).")] = 300,
    metric: MetricOpt = "win",
    shame: ShameOpt = DEFAULT_SHAME_DOLLARS,
    run: RunOpts = RunOptions(),
    plot: PlotOpt = None,
    plot_format: PlotFormatOpt = "svg",
    profiles_csv: Annotated[
        Path | None,
        typer.Option("--profiles-csv", help="Write every profile's payoffs here (one CSV per player count)."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Meta-game: focal-vs-others payoff matrix, symmetric mixed equilibrium with its regret,
    best responses. Every table profile of the strategies is simulated --n games (each profile
    is its own stored run).

    Example: cardsim cashnguns payoff --players 5 --n 300 --plot plots
    """
    from cardsim.analysis.cashnguns import METRICS
    from cardsim.api import cashnguns

    if metric not in METRICS:
        raise UserError(f"--metric must be one of: {', '.join(METRICS)}")
    plot = check_plot_folder(plot, plot_format)
    if profiles_csv is not None:
        check_output_file(profiles_csv, what="--profiles-csv", suffixes=(".csv",))
    result = _with_progress(
        lambda report: cashnguns.payoff(
            players=players,
            strategy=strategy,
            n=n,
            metric=metric,
            shame=shame,
            options=run,
            on_profile=(lambda count: report) if report else None,
        ),
        "cashnguns profiles",
        run.quiet,
    )
    record_result(result)
    for key, equilibrium in result.manifest["equilibria"].items():
        count = int(key.removesuffix("p"))
        matrix = result.tables[f"matrix_{key}"]
        mix = result.tables[f"equilibrium_{key}"]
        responses = result.tables[f"best_responses_{key}"]
        if as_json:
            show_table(matrix, name=f"matrix_{key}", as_json=True)
            show_table(mix, name=f"equilibrium_{key}", as_json=True)
            show_table(responses, name=f"best_responses_{key}", as_json=True)
            show_value(key, {name: equilibrium[name] for name in ("summary", "value", "regret", "best_deviation")})
        else:
            for shown in (metric,) + tuple(m for m in METRICS if m != metric):
                what = "win probability" if shown == "win" else "mean score ($)"
                show_table(
                    _matrix_grid(matrix, shown),
                    title=f"{count} players: {what} of focal (row) vs all others (column), 95% CI",
                )
            show_table(mix, title="symmetric equilibrium mix of these strategies only (not of the game)")
            show_value(key, None, text=equilibrium["summary"])
            show_table(responses, title="best response to each strategy played by all others")
        if profiles_csv is not None:
            target = profiles_csv.with_name(f"{profiles_csv.stem}_{count}p.csv")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                result.episodes.filter(pl.col("players") == count).drop("players").write_csv(target)
            except OSError as exc:
                raise UserError(f"--profiles-csv: cannot write {target} ({exc.strerror or exc})") from None
        if plot is not None:
            _save_plots(plot, plot_format, count, matrix, mix, equilibrium["regret"], metric, run.quiet)


def _with_progress(work, label: str, quiet: bool):
    """Run ``work(report)`` with a rich progress bar on stderr unless quiet or not a terminal."""
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    if quiet or not console.is_terminal:
        return work(None)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(label, total=None)
        return work(lambda done, total: progress.update(task, completed=done, total=total))


def _save_plots(
    plot: Path,
    plot_format: str,
    players: int,
    matrix: pl.DataFrame,
    mix: pl.DataFrame,
    regret: float,
    metric: str,
    quiet: bool,
) -> None:
    from cardsim.reports.plots.cashnguns import equilibrium_bars, payoff_heatmap
    from cardsim.reports.style import save_figure

    heat = save_figure(
        payoff_heatmap(matrix, players=players, metric=metric), plot / f"cashnguns_payoff_{players}p.{plot_format}"
    )
    bars = save_figure(
        equilibrium_bars(mix, players=players, regret=regret, metric=metric),
        plot / f"cashnguns_payoff_{players}p_equilibrium.{plot_format}",
    )
    if not quiet:
        typer.echo(f"wrote {heat} and {bars}", err=True)


@app.command("stage")
def stage_command(
    players: PlayersOpt = "5",
    guns: Annotated[int, typer.Option("--guns", help="Guns aimed at the focal player.")] = 2,
    loot: Annotated[
        str, typer.Option("--loot", help="Notes on the table, e.g. 20k,10k,10k,5k,5k.")
    ] = "20k,10k,10k,5k,5k",
    shame: ShameOpt = DEFAULT_SHAME_DOLLARS,
    wound_cost: Annotated[int, typer.Option("--wound-cost", help="Dollars a wound costs in 'value'.")] = 10_000,
    opponent_hand: Annotated[
        str, typer.Option("--opponent-hand", help="Click,Bang,BBB counts opponents draw from.")
    ] = "5,2,1",
    as_json: JsonOpt = False,
) -> None:
    """One-round payoffs (bullet x stand/lie down) of a player aimed at by k guns, by exact
    enumeration: exact only for round one with fixed aims and nobody else lying down.

    Example: cardsim cashnguns stage --players 5 --guns 2 --loot 20k,10k,10k,5k,5k
    """
    from cardsim.api import cashnguns

    table = cashnguns.stage(players, guns, loot, shame=shame, wound_cost=wound_cost, opponent_hand=opponent_hand)
    show_table(
        table,
        title=(
            f"one round, exact only for round one with fixed aims and nobody else lying down: "
            f"{players} players, {guns} guns on you, loot {loot}, "
            f"opponents' cards {opponent_hand}"
        ),
        name="stage",
        as_json=as_json,
    )


@app.command("discover")
def discover_command(
    players: CountsOpt = "5",
    metric: MetricOpt = "win",
    shame: ShameOpt = DEFAULT_SHAME_DOLLARS,
    budget: Annotated[int, typer.Option("--budget", help="Best-response candidates searched per round.")] = 200,
    rounds: Annotated[
        int, typer.Option("--rounds", help="PSRO rounds at most (stops earlier when no candidate gains significantly).")
    ] = 20,
    local: LocalOpt = DEFAULT_LOCAL,
    start: Annotated[
        list[str] | None,
        typer.Option(
            "--start",
            help="Starting library: strategy specs, comma separated (or repeated), and 'library' for the shipped library of the reading (continue its run; default: stubborn,coward,bluffer,sniper).",
        ),
    ] = None,
    stop_checks: Annotated[
        int,
        typer.Option(
            "--stop-checks",
            help="Independent searches every round besides discover's own; the run stops only when none gains significantly and every 95% bound is within the tolerance.",
        ),
    ] = 2,
    sweep: SweepOpt = True,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Grow a strategy library by best responses (double oracle / PSRO): each round solves the
    library's symmetric equilibrium, searches the strategy space for the best reply to it, adds
    the reply when its gain is significant, and reports the exploitability with a 95% interval.
    Every round also runs --stop-checks independent searches (default two; fresh candidates
    and games) and the schedule sweep (every mix member with each of the 168 card orders and
    with opponent reading; --no-sweep leaves it out); the best significant new reply joins; the run stops only when no search gains
    significantly and every 95% bound is within 0.75 points (win) or $750 (score); otherwise it
    reports its least exploitable round. --start library continues the shipped library of the
    reading (add specs to bring in replies found elsewhere).
    Finished rounds are stored; rerunning the same command resumes after them (a larger
    --rounds continues a run that stopped at the round limit; other settings keep their own
    record). --json: one document; its last
    round carries exploitability, exploitability_hi (95% upper bound) and the equilibrium, its
    top level those of the reported round, in the payoff's unit (win probability 0-1, or
    dollars of score).

    Example: cardsim cashnguns discover --players 5 --budget 200 --rounds 8
    """
    from cardsim.analysis.cashnguns import METHOD_VERSION, discover_round_lines
    from cardsim.api import cashnguns
    from cardsim.commands.common import resolve_store

    folder = resolve_store(store, no_store)

    def starting(settings) -> None:
        typer.echo(
            f"Cash'n Guns discover, {settings.players} players ({METHOD_VERSION}: {settings.budget} "
            f"grid/random + {settings.local} local-search candidates per search"
            f"{', and the schedule sweep' if settings.sweep else ''}):"
        )

    def done(document: dict) -> None:
        typer.echo(reported_line(document, metric))

    def show(record: dict) -> None:
        typer.echo("\n".join(discover_round_lines(record, metric)))

    documents = cashnguns.discover(
        players,
        metric,
        shame,
        budget=budget,
        rounds=rounds,
        local=local,
        start=start,
        stop_checks=stop_checks,
        sweep=sweep,
        seed=seed,
        jobs=jobs,
        **cluster.keywords(),
        store=folder,
        on_round=None if as_json else show,
        on_start=None if as_json else starting,
        on_done=None if as_json else done,
    )
    record_run(None, seed, f"until converged, at most {rounds} rounds of {budget} + {local} local candidates")
    if as_json:
        show_value("discover", documents if len(documents) > 1 else documents[0])
        show_table(
            pl.DataFrame(
                [
                    {
                        "players": d["settings"]["players"],
                        "rounds": len(d["rounds"]),
                        "converged": d["converged"],
                        "exploitability": d["exploitability"],
                        "exploitability_hi": d["exploitability_hi"],
                    }
                    for d in documents
                ]
            ),
            name="discover",
            as_json=True,
        )


def reported_line(document: dict, metric: str) -> str:
    """Which round's equilibrium the run reports, and why."""
    scale, unit = (100.0, " points") if metric == "win" else (1.0, " $")
    mix = mix_text(document["equilibrium"])
    why = (
        "the run converged within the searched space"
        if document["converged"]
        else "not converged within --rounds: the round with the lowest bound of its searches"
    )
    return (
        f"reported: round {document['reported_round']}'s equilibrium {mix} ({why}); exploitability "
        f"{document['exploitability_hi'] * scale:.2f}{unit} at most (95%). Try it from outside with "
        "'cardsim cashnguns check' once shipped."
    )


@app.command("check")
def check_command(
    players: CountsOpt = "4-6",
    metric: MetricOpt = "win",
    shame: ShameOpt = DEFAULT_SHAME_DOLLARS,
    budget: Annotated[int, typer.Option("--budget", help="Best-response candidates searched.")] = 200,
    n: Annotated[
        int, typer.Option("--n", help="Fresh paired games that measure the reply's gain (or the strategy's).")
    ] = 100_000,
    local: LocalOpt = DEFAULT_LOCAL,
    seed: SeedOpt = 0,
    libraries: Annotated[
        Path | None, typer.Option("--libraries", help="Libraries file (default: the shipped libraries.json).")
    ] = None,
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="Record each check with its entry in the libraries file (outside_checks), so the report gives the highest recorded bound.",
        ),
    ] = False,
    sweep: SweepOpt = True,
    oracle_games: Annotated[
        int,
        typer.Option(
            "--oracle-games",
            help="Fresh paired games that measure the search player as a reply (it reads each opponent's mix member and plans by rollouts); 0 leaves it out.",
        ),
    ] = DEFAULT_ORACLE_GAMES,
    oracle_budget: Annotated[
        int, typer.Option("--oracle-budget", help="The search player's sampled worlds per decision.")
    ] = SEARCH_BUDGET,
    user_strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy",
            help="Measure this strategy written in Python (FILE.py:NAME) against the shipped mix instead of searching: paired, on --n deals.",
        ),
    ] = None,
    traceback: TracebackOpt = False,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    as_json: JsonOpt = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="--strategy: no progress bar.")] = False,
    games: Annotated[int | None, typer.Option("--games", hidden=True, help="Old name of --n.")] = None,
) -> None:
    """Try a shipped mix from outside: a fresh best-response search of --budget
    candidates against the library's equilibrium mix as shipped (not re-solved), from random
    streams discover never draws from, and the schedule sweep (every mix member with each of
    the 168 card orders and with opponent reading; --no-sweep leaves it out); the reply of the
    search with the highest 95% upper bound and its gain over the mix on --n fresh paired
    games, with its 95% interval (points of win probability, or dollars of score). The search
    player is a third reply (--oracle-games fresh paired games; 0 leaves it out).
    --strategy FILE.py:NAME measures a strategy written in Python instead (paired, --n deals).
    Each mix's status follows, from everything recorded with it in the libraries file: "not
    converged" and its best known reply with its gain and 95% interval where it does not hold.

    Example: cardsim cashnguns check --players 4-6 --metric win --shame -5000 --seed 1
    """
    from cardsim.analysis.cashnguns import METHOD_VERSION
    from cardsim.api import cashnguns
    from cardsim.api.cashnguns import cashnguns_counts
    from cardsim.commands.common import deprecated_alias, evaluation_progress
    from cardsim.commands.output import interval_column

    games = deprecated_alias(n, games, old="--games", new="--n")
    if user_strategy is not None:
        if record:
            raise UserError("check: --record keeps searches only, not --strategy measures")
        counts = cashnguns_counts(players)
        record_run(None, seed, f"{games} paired deals per count")
        found = []
        for count in counts:
            with evaluation_progress(None if quiet else f"cashnguns check, {count} players"):
                result = run_user_strategy(
                    functools.partial(
                        cashnguns.evaluate,
                        user_strategy,
                        players=count,
                        n=games,
                        against="mix",
                        metric=metric,
                        shame=shame,
                        seed=seed,
                        jobs=jobs,
                        **cluster.keywords(),
                    ),
                    traceback,
                )
            found.append(result.manifest["details"])
        scale, unit = (100.0, "points") if metric == "win" else (1.0, "$")
        table = pl.DataFrame(
            [
                {
                    "players": f["players"],
                    "equilibrium": f["against"],
                    "games": f["n"],
                    "gain": f["difference"]["value"] * scale,
                    "lo": f["difference"]["lo"] * scale,
                    "hi": f["difference"]["hi"] * scale,
                    "unit": unit,
                }
                for f in found
            ]
        )
        if not as_json:
            table = table.select("players", pl.col("equilibrium").alias("shipped mix"), "games").with_columns(
                interval_column(table, "gain", "lo", "hi", signed=True).alias(f"gain over the mix, {unit} (95% CI)")
            )
        show_table(
            table,
            title=f"{user_strategy} against each shipped mix, {metric}, shame {shame:+,}, seed {seed}",
            name="check",
            as_json=as_json,
        )
        _show_status({f["players"]: f["status"] for f in found})
        return
    results = cashnguns.check(
        players,
        metric,
        shame,
        budget=budget,
        games=games,
        local=local,
        seed=seed,
        libraries=libraries,
        record=record,
        sweep=sweep,
        jobs=jobs,
        **cluster.keywords(),
        oracle_games=oracle_games,
        oracle_budget=oracle_budget,
    )
    record_run(
        None,
        seed,
        f"{budget} + {local} local candidates{' and the schedule sweep' if sweep else ''}, "
        f"{games} fresh paired games" + (f"; the search player on {oracle_games} games" if oracle_games else ""),
    )
    scale, unit = (100.0, "points") if metric == "win" else (1.0, "$")
    rows = []
    for result in results:
        rows.append(
            {
                "players": result["players"],
                "metric": metric,
                "shame": shame,
                "equilibrium": mix_text(result["equilibrium"]),
                "candidates": result["candidates"],
                "seed": seed,
                "best_response": result["best_response"],
                "found_by": result.get("exploitability_from", "search"),
                "description": result["description"],
                "games": result["validation_games"],
                "gain": result["gain"] * scale,
                "lo": result["exploitability_lo"] * scale,
                "hi": result["exploitability_hi"] * scale,
                "unit": unit,
                "discover_hi": result["entry"]["exploitability_hi"] * scale,
            }
        )
    table = pl.DataFrame(rows)
    if not as_json:
        table = table.select(
            "players",
            pl.col("equilibrium").alias("shipped mix"),
            "candidates",
            "games",
            interval_column(table, "gain", "lo", "hi", signed=True).alias(f"gain, {unit} (95% CI)"),
            pl.col("discover_hi").round(2).alias(f"discover's own bound ({unit})"),
            "found_by",
            "best_response",
        )
    show_table(
        table,
        title=(
            f"outside check ({METHOD_VERSION} search, {budget} + {local} local candidates"
            f"{' and the schedule sweep' if sweep else ''}): best "
            f"reply to each shipped mix, {metric}, shame {shame:+,}, seed {seed}"
        ),
        name="check",
        as_json=as_json,
    )
    _show_status({result["players"]: result["status"] for result in results})


def _show_status(statuses: dict[int, str]) -> None:
    """Each shipped mix's status (JSON: ``details["status"]``), from everything recorded with it:
    "not converged" and the best known reply with its gain and 95% interval where it does not hold."""
    show_value(
        "status",
        {str(players): text for players, text in statuses.items()},
        text="\n".join(f"shipped mix, {players} players: {text}" for players, text in statuses.items()),
    )


def evaluation_rows(found: dict) -> pl.DataFrame:
    """The evaluation as the command prints it: each side's win rate and mean score with their
    95% intervals, and the paired difference."""
    from cardsim.commands.output import interval_text

    scale, unit = (100.0, "points") if found["metric"] == "win" else (1.0, "$")
    rows = []
    for side in ("user", "builtin"):
        values = found[side]
        rows.append(
            {
                "seat": found["seat"],
                "strategy": found["strategy"]
                if side == "user"
                else ("" if ":" in found["against"] and ".py:" in found["against"] else "built-in: ")
                + found["against"],
                "n": found["n"],
                "win % (95% CI)": interval_text(values["p_win"], values["win_lo"], values["win_hi"], scale=100),
                "mean score $ (95% CI)": interval_text(values["mean_score"], values["score_lo"], values["score_hi"]),
            }
        )
    difference = found["difference"]
    text = interval_text(difference["value"], difference["lo"], difference["hi"], scale=scale, signed=True)
    rows.append(
        {
            "seat": found["seat"],
            "strategy": f"paired difference ({found['metric']}, {unit})",
            "n": found["n"],
            "win % (95% CI)": text if found["metric"] == "win" else "",
            "mean score $ (95% CI)": "" if found["metric"] == "win" else text,
        }
    )
    return pl.DataFrame(rows)


@app.command("evaluate")
def evaluate_command(
    strategy: UserStrategyOpt,
    seat: Annotated[
        int, typer.Option("--seat", help="Player slot the strategy plays (seats are shuffled every game).")
    ] = 0,
    players: Annotated[int, typer.Option("--players", help="4-6 players.")] = 4,
    n: Annotated[
        int, typer.Option("--n", help="Deals, each played with the strategy and with the built-in in its seat.")
    ] = 2_000,
    against: Annotated[
        str,
        typer.Option(
            "--against",
            help="'mix' (the shipped mix of the reading), a built-in strategy spec, or a strategy written in Python (FILE.py:NAME) in every other seat and as the comparator.",
        ),
    ] = "mix",
    metric: MetricOpt = "win",
    shame: ShameOpt = DEFAULT_SHAME_DOLLARS,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    traceback: TracebackOpt = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Measure a strategy written in Python in one seat against the shipped mix or a built-in:
    each deal is played once with it and once with the built-in in the same seat (same seed,
    common random numbers); win rates with 95% Wilson intervals, mean scores and the paired
    difference with its 95% interval. Reproducible from --seed whatever --jobs. Against the mix,
    its status follows ("not converged" and its best known reply where it does not hold).

    Example: cardsim cashnguns evaluate --strategy examples/strategies/cashnguns_patient.py:Patient --players 4
    """
    import cardsim.api as api
    from cardsim.commands.common import evaluation_progress

    workers = RunOptions(jobs=jobs).checked().jobs or 1
    record_run(None, seed, f"{n} paired deals")
    with evaluation_progress(None if quiet else "cashnguns evaluate"):
        result = run_user_strategy(
            lambda: api.cashnguns.evaluate(
                strategy,
                players=players,
                n=n,
                against=against,
                metric=metric,
                shame=shame,
                seat=seat,
                seed=seed,
                jobs=workers,
                **cluster.keywords(),
            ),
            traceback,
        )
    found = result.manifest["details"]
    if as_json:
        show_value("evaluate", found)
    show_table(
        result.table if as_json else evaluation_rows(found),
        title=f"{strategy} in seat {seat}, {players} players, against {found['against']} "
        f"({metric}, shame {shame:+,}), seed {seed}",
        name="evaluate",
        as_json=as_json,
    )
    if found.get("status") and not as_json:
        _show_status({players: found["status"]})


@app.command("libraries")
def libraries_command(
    players: CountsOpt = "4-6",
    store: StoreOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="File to write (default: the package's shipped libraries.json).")
    ] = None,
    record: Annotated[
        list[Path] | None,
        typer.Option(
            "--record",
            help="A discover record file (in STORE/cashnguns_discover) to ship for its reading, whatever its settings (e.g. a run with --start); repeat for several.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write the shipped strategy libraries from the stored discover runs (default settings
    but the reading, or the --record files named) of every reading (win/score x shame
    -5000/+5000) at --players: each run's
    final library with its command, seed, budget, date, discover method and code fingerprint.
    A reading without a stored run keeps its entry of the file (and its provenance). The report
    and `cardsim cashnguns check` try these mixes from outside; each row's status is "not
    converged" (with the best known reply's gain) wherever a record beats the mix.

    Example: cardsim cashnguns libraries --players 4-6 --store results
    """
    from cardsim.analysis.cashnguns import gain_text, reading_status
    from cardsim.api import cashnguns
    from cardsim.commands.common import resolve_store
    from cardsim.sims.cashnguns import SHIPPED_LIBRARIES

    target = out or SHIPPED_LIBRARIES
    shipped, kept = cashnguns.libraries(players, resolve_store(store, False), target, records=record or ())
    statuses = [reading_status(e) for e in shipped["readings"]]
    table = pl.DataFrame(
        [
            {
                "players": e["players"],
                "metric": e["metric"],
                "shame": e["shame_value"],
                "strategies": len(e["library"]),
                "rounds": e["rounds"],
                "date": e["date"],
                "entry": ("kept" if (e["players"], e["metric"], e["shame_value"]) in kept else "written"),
                "code": e["code_fingerprint"],
                "status": status["label"],
                "best known reply, 95%": ""
                if status["reply"] is None
                else gain_text(e["metric"], status["reply"]["gain"], status["reply"]["interval"]),
            }
            for e, status in zip(shipped["readings"], statuses)
        ]
    )
    show_table(table, title=f"libraries written to {target}", name="libraries", as_json=as_json)


@app.command("tournament")
def tournament_command(
    entrant: Annotated[
        list[str],
        typer.Option(
            "--entrant",
            "-e",
            help="Entrants, comma separated or repeated: built-in names or specs, FILE.py:NAME (runs in its own process), 'mix' or 'library' (the shipped mix's members or library of the reading), each optionally LABEL=SPEC.",
        ),
    ],
    players: Annotated[int, typer.Option("--players", help="Table size, 4-6.")] = 5,
    games: Annotated[
        int, typer.Option("--n", help="Games to play, about (every composition gets the same number of deals).")
    ] = 20_000,
    design: Annotated[
        str,
        typer.Option(
            "--design",
            help="Tables: all (every composition), distinct (every table of different entrants), sampled (every table of one or two entrants plus sampled others, slots turned through the seats) or auto (all when each composition gets a full turn of the seats, else sampled).",
        ),
    ] = "auto",
    metric: MetricOpt = "win",
    shame: ShameOpt = DEFAULT_SHAME_DOLLARS,
    alpha: Annotated[
        float, typer.Option("--alpha", help="α-Rank's selection intensity, on payoffs rescaled to [0, 1].")
    ] = 10.0,
    population: Annotated[int, typer.Option("--population", help="α-Rank's population size.")] = 50,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    plot: PlotOpt = None,
    plot_format: PlotFormatOpt = "svg",
    traceback: TracebackOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """A tournament of built-in strategies, mix members and strategies written in Python at one
    table: the compositions of the design, each on the same deals (paired), slots turned one
    place per deal. Per entrant, win rate and mean score per seat with 95% intervals over games;
    the head-to-head table; the heuristic payoff table (--json); the population's symmetric
    equilibrium (design all) and α-Rank (Omidshafiei et al. 2019). Resumable: finished chunks
    are kept in the store and the same command continues.

    Example: cardsim cashnguns tournament -e stubborn,coward,shark,calculator --players 4 --n 2000
    """
    from cardsim.api import cashnguns
    from cardsim.commands.common import resolve_store

    plot = check_plot_folder(plot, plot_format)
    folder = resolve_store(store, no_store)
    workers = RunOptions(jobs=jobs).checked().jobs or 1
    result = run_user_strategy(
        lambda: _with_progress(
            lambda report: cashnguns.tournament(
                entrant,
                players=players,
                games=games,
                design=design,
                metric=metric,
                shame=shame,
                seed=seed,
                jobs=workers,
                store=folder,
                alpha=alpha,
                population=population,
                on_chunk=report,
                **cluster.keywords(),
            ),
            "cashnguns tournament",
            as_json,
        ),
        traceback,
    )
    facts = result.manifest
    record_run(
        facts["run"],
        seed,
        f"{facts['games']:,} games: {facts['compositions']:,} compositions "
        f"({facts['design']}) x {facts['deals_per_composition']} {'paired' if facts['paired'] else 'own'} deals",
    )
    tables = result.tables
    if as_json:
        for name, table in tables.items():
            show_table(table, name=name, as_json=True)
        show_value("tournament", {k: v for k, v in facts.items() if k not in ("command", "runs")})
    else:
        standings = tables["standings"].select(
            "entrant",
            "games",
            "seats",
            pl.format(
                "{} [{}, {}]",
                (100 * pl.col("p_win")).round(2),
                (100 * pl.col("win_lo")).round(2),
                (100 * pl.col("win_hi")).round(2),
            ).alias("win % per seat, 95%"),
            pl.format(
                "{} [{}, {}]",
                pl.col("mean_score").round(0).cast(pl.Int64),
                pl.col("score_lo").round(0).cast(pl.Int64),
                pl.col("score_hi").round(0).cast(pl.Int64),
            ).alias("mean score $, 95%"),
        )
        show_table(
            standings,
            title=(
                f"Cash'n Guns tournament, {players} players: {facts['games']:,} games, "
                f"{facts['compositions']:,} compositions ({facts['design']} design), "
                f"{facts['deals_per_composition']} {'paired deals' if facts['paired'] else 'deals of its own'} each, seed {seed}"
            ),
        )
        grid = tables["head_to_head"].pivot(on="opponent", index="entrant", values="p_win")
        show_table(
            grid.with_columns(pl.exclude("entrant").round(3)),
            title="head to head: row's win rate per seat at tables where the column sits",
        )
        if "equilibrium" in tables:
            equilibrium = facts["equilibrium"]
            show_table(
                tables["equilibrium"],
                title=(
                    f"the population's symmetric equilibrium ({metric}; of these entrants only), regret "
                    f"{equilibrium['regret']:.3g}"
                ),
            )
        else:
            typer.echo("equilibrium: not computed (the design does not play every composition)")
        if "alpharank" in tables:
            show_table(
                tables["alpharank"],
                title=f"α-Rank ({metric}, α={alpha:g} on payoffs rescaled to [0, 1], population {population})",
            )
        else:
            typer.echo("α-Rank: not computed (the design lacks the tables of one or two entrants)")
    if plot is not None:
        from cardsim.reports.plots.tournament import head_to_head_heatmap, ranking_plot
        from cardsim.reports.style import save_figure

        labels = [e["label"] for e in facts["entrants"]]
        title = f"Cash'n Guns tournament, {players} players, {facts['games']:,} games"
        heat = save_figure(
            head_to_head_heatmap(tables["head_to_head"], labels, title=title),
            plot / f"cashnguns_tournament_{players}p_head_to_head.{plot_format}",
        )
        ranking = save_figure(
            ranking_plot(tables["standings"], tables.get("alpharank"), title=title),
            plot / f"cashnguns_tournament_{players}p_ranking.{plot_format}",
        )
        typer.echo(f"wrote {heat} and {ranking}", err=True)
