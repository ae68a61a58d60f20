"""`cardsim bang`: role/team and character win rates and game length for 4-7 players."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import polars as pl
import typer

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
    check_plot_folder,
    game_app,
    record_result,
    show_table,
)
from cardsim.commands.output import record_run
from cardsim.errors import UserError

app = game_app("bang")

BotsOpt = Annotated[
    str,
    typer.Option(
        "--bots",
        help="Bot per role: one bot for all (role, random) or role=bot pairs, e.g. "
        "sheriff=role,outlaw=random (unnamed roles keep 'role').",
    ),
]


def _interval(frame: pl.DataFrame, as_json: bool) -> pl.DataFrame:
    """Readable rate columns: p rounded and its 95% interval as one string (JSON: unchanged)."""
    if as_json:
        return frame
    return frame.with_columns(
        pl.col("p").round(4),
        pl.format("[{}, {}]", pl.col("lo").round(4), pl.col("hi").round(4)).alias("95% CI"),
    ).drop("lo", "hi")


@app.command("bots")
def bots_command(as_json: JsonOpt = False) -> None:
    """List the bots that can be seated per role.

    Example: cardsim bang bots
    """
    from cardsim.api import bang

    show_table(bang.bots(), title="Bang! bots (--bots sheriff=role,outlaw=random)", name="bots", as_json=as_json)


@app.command("run")
def run_command(
    players: Annotated[str, typer.Option("--players", help="4-7, one count or a range.")] = "4-7",
    bots: BotsOpt = "role",
    n: Annotated[int, typer.Option("--n", help="Games per player count.")] = 50_000,
    max_turns: Annotated[int, typer.Option("--max-turns", help="Turn cap; a capped game is won by nobody.")] = 1000,
    run: RunOpts = RunOptions(),
    plot: PlotOpt = None,
    plot_format: PlotFormatOpt = "svg",
    kills: Annotated[bool, typer.Option("--kills", help="Also print who eliminated whom (by role).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Win rate per side and role with 95% intervals, per character, mean game length in turns.

    Example: cardsim bang run --players 4-7 --n 50000 --bots sheriff=role,outlaw=random
    """
    from cardsim.api import bang

    plot = check_plot_folder(plot, plot_format)
    result = bang.run(players=players, bots=bots, n=n, max_turns=max_turns, kills=kills, options=run)
    record_result(result)
    label = bang.bot_label(bots)
    sides = result.tables["sides"]
    show_table(
        _interval(sides, as_json), title=f"Bang!: games won per side ({label} bots)", name="sides", as_json=as_json
    )
    show_table(
        _interval(result.tables["roles"], as_json),
        title="win rate per role (n = games: a role's seats win together)",
        name="roles",
        as_json=as_json,
    )
    characters = result.tables["characters"].with_columns(pl.col("survived").round(4))
    show_table(
        _interval(characters, as_json),
        title="win rate per character (all counts; one seat per game)",
        name="characters",
        as_json=as_json,
    )
    lengths = result.tables["length"].with_columns(pl.col("mean", "lo", "hi").round(2))
    show_table(lengths, title="game length in player turns (mean, 95% CI)", name="length", as_json=as_json)
    if kills:
        eliminations = result.tables["eliminations"].with_columns(pl.col("share").round(4))
        show_table(eliminations, title="eliminations: victim role by killer role", name="eliminations", as_json=as_json)
    if plot is not None:
        from cardsim.reports.plots.bang import side_win_plot
        from cardsim.reports.style import save_figure

        written = save_figure(side_win_plot(sides, bots=label), plot / f"bang_side_win.{plot_format}")
        if not run.quiet:
            typer.echo(f"plot -> {written}", err=True)


PlayersOpt = Annotated[str, typer.Option("--players", help="4-7, one count or a range.")]


@app.command("train")
def train_command(
    players: PlayersOpt = "4-7",
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    budget: Annotated[int, typer.Option("--budget", help="Games per player count (all rounds and roles).")] = 1_200_000,
    rounds: Annotated[int, typer.Option("--rounds", help="Round limit of the best response.")] = 3,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Parameter file to write (entries of other counts kept; default results/bang/<bot>.json)."
        ),
    ] = None,
    bot: Annotated[str, typer.Option("--bot", help="tuned, or tuned2 (the structural rules on).")] = "tuned",
    quiet: QuietOpt = False,
) -> None:
    """Train the 'tuned' (or 'tuned2') bots by iterated best response; same seed, same
    parameters for any --jobs. The shipped parameters: cardsim/sims/bang/data/<bot>.json.

    Example: cardsim bang train --bot tuned2 --players 4-7 --seed 0 --jobs 2 --budget 800000
    """
    from cardsim.api import bang

    def log(line: str) -> None:
        if not quiet:
            typer.echo(line, err=True)

    bang.train(
        players, seed=seed, jobs=jobs, **cluster.keywords(), budget=budget, rounds=rounds, out=out, log=log, bot=bot
    )


@app.command("compare")
def compare_command(
    players: PlayersOpt = "4-7",
    bot: Annotated[str, typer.Option("--bot", help="Bot of the one seat compared.")] = "tuned",
    against: Annotated[str, typer.Option("--against", help="Bot of every other seat.")] = "role",
    roles: Annotated[
        str, typer.Option("--roles", help="Roles to compare, comma-separated (default: all).")
    ] = "sheriff,deputy,outlaw,renegade",
    n: Annotated[int, typer.Option("--n", help="Deals per player count and role.")] = 20_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    params: Annotated[Path | None, typer.Option("--params", help="Tuned parameter file (default: shipped).")] = None,
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    quiet: QuietOpt = False,
    budget: Annotated[int, typer.Option("--budget", help="Rollouts per decision of a search seat.")] = 128,
    baseline: Annotated[
        str | None,
        typer.Option(
            "--baseline",
            help="Bot of the compared seat in the paired "
            "baseline (default: --against; two-rule: the hand-written "
            "two-rule Renegade).",
        ),
    ] = None,
    population: Annotated[
        str | None,
        typer.Option(
            "--population",
            help="Policies a search seat's posterior over "
            "the other seats is over, comma-separated (default: random,"
            "role,role2,tuned,tuned2,search,tuned-tworules,tuned-styles: "
            "tuned with the outside TwoRules Renegade, and with the outside "
            "bang_styles.py Outlaw and Renegade; none: no posterior).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Win rate of one seat of each role playing --bot while the others play --against, the
    paired baseline on the same deals (that seat on --baseline, default --against), and the
    difference with its 95% interval. Each finished row is kept in the store (bang_compare/)
    and reused by the same comparison.

    Example: cardsim bang compare --players 4-7 --bot tuned --against role --json
    """
    from cardsim.api import bang
    from cardsim.commands.common import resolve_store

    folder = resolve_store(store, no_store)
    if folder is not None:
        from cardsim.options import check_output_folder

        check_output_folder(folder, what="--store")
    if seed < 0:
        raise UserError(f"--seed must be a non-negative whole number, got {seed}")

    def progress(row: dict, record: str | None) -> None:
        if record is not None:
            record_run(record, seed, f"fixed n={n} per role")
        if not quiet:
            typer.echo(f"[bang compare] {row['players']} players, {row['role']}: done", err=True)

    record_run(None, seed, f"fixed n={n} per role")
    frame = bang.compare(
        players,
        bot,
        against,
        roles,
        n=n,
        seed=seed,
        jobs=jobs,
        **cluster.keywords(),
        params=params,
        budget=budget,
        store=folder,
        on_row=progress,
        baseline=baseline,
        population=population,
    )
    show_table(
        frame if as_json else frame.drop("bot", "against"),
        title=f"Bang!: one seat playing {bot}, others {against} (paired baseline)",
        name="compare",
        as_json=as_json,
    )


@app.command("ladder")
def ladder_command(
    players: PlayersOpt = "5,7",
    rungs: Annotated[
        str, typer.Option("--rungs", help="Bots from the weakest rung up, comma-separated.")
    ] = "random,role2,search",
    n: Annotated[int, typer.Option("--n", help="Deals per player count, role and rung.")] = 2_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    params: Annotated[Path | None, typer.Option("--params", help="Tuned parameter file (default: shipped).")] = None,
    budget: Annotated[int, typer.Option("--budget", help="Rollouts per decision of a search seat.")] = 128,
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record",
            help="Also write the rows and the verdict's "
            "inputs to this JSON file (the report reads "
            "cardsim/sims/bang/data/ladder.json).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Each rung of the bot ladder against the rung below, for every role (as bang compare),
    and whether it gains at least 3 points with the 95% lower bound above 0; with a search
    rung, its targets at 5 players too. Finished rows are kept in the store and reused.

    Example: cardsim bang ladder --players 5,7 --rungs random,role2,search --n 2000
    """
    from cardsim.api import bang
    from cardsim.commands.common import resolve_store

    folder = resolve_store(store, no_store)
    if folder is not None:
        from cardsim.options import check_output_folder

        check_output_folder(folder, what="--store")
    if record is not None:
        from cardsim.options import check_output_file

        check_output_file(record, what="--record")
    record_run(None, seed, f"fixed n={n} per role and rung")
    frame, verdict = bang.ladder(
        players,
        rungs,
        n=n,
        seed=seed,
        jobs=jobs,
        **cluster.keywords(),
        params=params,
        budget=budget,
        store=folder,
        record=record,
    )
    show_table(frame, title="Bang!: each rung against the rung below (paired)", name="ladder", as_json=as_json)
    if not as_json:
        typer.echo(verdict)


@app.command("stress")
def stress_command(
    players: PlayersOpt = "5-7",
    roles: Annotated[
        str, typer.Option("--roles", help="Roles whose best response is searched (comma-separated).")
    ] = "renegade",
    against: Annotated[
        str,
        typer.Option(
            "--against",
            help="tuned: every seat of the role against the tuned "
            "others; role: one seat among role bots (the compare setting).",
        ),
    ] = "tuned",
    search_n: Annotated[
        int, typer.Option("--search-n", help="Games per candidate and step of the best-response search.")
    ] = 3_000,
    steps: Annotated[int, typer.Option("--steps", help="Search steps per role.")] = 8,
    validation: Annotated[int, typer.Option("--validation", help="Fresh deals replaying the found vector.")] = 20_000,
    trials: Annotated[int, typer.Option("--trials", help="Perturbed tuned tables.")] = 12,
    sigma: Annotated[float, typer.Option("--sigma", help="Perturbation, share of each parameter's range.")] = 0.1,
    n: Annotated[int, typer.Option("--n", help="Games per perturbed table.")] = 4_000,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    as_json: JsonOpt = False,
    games: Annotated[int | None, typer.Option("--games", hidden=True, help="Old name of --search-n.")] = None,
) -> None:
    """Try to overturn the ladder's balance conclusions on the tuned rung: a best response of
    the named roles, and random perturbations of every tuned parameter (0 trials or 0 steps:
    skip that part). Same seed, same rows for any --jobs.

    Example: cardsim bang stress --players 5-7 --roles renegade --json
    """
    from cardsim.api import bang
    from cardsim.commands.common import deprecated_alias

    games = deprecated_alias(search_n, games, old="--games", new="--search-n")
    tables = bang.stress(
        players,
        roles,
        against,
        games=games,
        steps=steps,
        validation=validation,
        trials=trials,
        sigma=sigma,
        n=n,
        seed=seed,
        jobs=jobs,
        **cluster.keywords(),
    )
    record_run(None, seed, f"{steps} steps of {games} games, {trials} tables of {n} games")
    if "best_response" in tables:
        frame = tables["best_response"]
        show_table(
            frame
            if as_json
            else frame.select(
                "players", "role", "against", "n", "start", "win", "win_lo", "win_hi", "diff", "diff_lo", "diff_hi"
            ),
            title=f"Bang!: best response against {against} (paired with its start)",
            name="best_response",
            as_json=as_json,
        )
    if "perturbation" in tables:
        frame = tables["perturbation"]
        show_table(
            frame
            if as_json
            else frame.select(
                "players", "trial", "sigma", "n", "sheriff", "outlaws", "renegade", "weakest", "favoured"
            ),
            title="Bang!: side win rates of perturbed tuned tables",
            name="perturbation",
            as_json=as_json,
        )


@app.command("evaluate")
def evaluate_command(
    strategy: Annotated[
        str, typer.Option("--strategy", help="Your strategy as FILE.py:NAME (see docs/strategies.md).")
    ],
    role: Annotated[
        str,
        typer.Option(
            "--role", help="The role your strategy plays (its first seat): sheriff, deputy, outlaw or renegade."
        ),
    ] = "outlaw",
    players: Annotated[str, typer.Option("--players", help="Player count, 4-7.")] = "5",
    n: Annotated[int, typer.Option("--n", help="Games to play.")] = 2_000,
    against: Annotated[
        str,
        typer.Option(
            "--against",
            help="Built-in bot (or another strategy, FILE.py:NAME) compared in the same "
            "seat on the same deals; a built-in also makes the decisions "
            "your strategy leaves out (else tuned). See `bots`.",
        ),
    ] = "tuned",
    others: Annotated[
        str | None,
        typer.Option(
            "--others",
            help="Bot of every other seat: a built-in, FILE.py:NAME, or role=bot pairs with "
            "files among them (roles not named: --against; default: --against).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Root seed (same numbers for any --jobs).")] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", help="Worker processes.")] = None,
    cluster: ClusterOpts = ClusterOptions(),
    traceback: Annotated[
        bool, typer.Option("--traceback", help="Show the strategy's traceback when it fails.")
    ] = False,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
    seat: Annotated[str | None, typer.Option("--seat", hidden=True, help="Old name of --role.")] = None,
) -> None:
    """Your strategy in one role, built-in bots in the other seats, against a built-in in the
    same seat on the same deals.

    Example: cardsim bang evaluate --strategy examples/strategies/bang_renegade.py:TwoRules --role renegade --players 5 --n 2000
    """
    from cardsim.api import bang
    from cardsim.commands.common import deprecated_alias, evaluation_progress, run_user_strategy
    from cardsim.commands.output import interval_column

    role = deprecated_alias(role, seat, old="--seat", new="--role")
    with evaluation_progress(None if quiet else "bang evaluate"):
        result = run_user_strategy(
            lambda: bang.evaluate(
                strategy,
                role=role,
                players=players,
                n=n,
                against=against,
                others=others,
                seed=seed,
                jobs=jobs,
                **cluster.keywords(),
            ),
            traceback,
        )
    record_result(result)
    if as_json:
        show_table(result.table, title="bang evaluate", name="evaluate", as_json=True)
        show_table(
            result.tables["paired_difference"], title="paired difference", name="paired_difference", as_json=True
        )
        return
    table = result.table
    show_table(
        table.select("strategy", pl.col("seat").alias("role"), "players", "others", "n").with_columns(
            interval_column(table, "win", scale=100).alias("win % (95% CI)")
        ),
        title="Bang!: the seat's side wins, your strategy and the built-in on the same deals",
        name="evaluate",
    )
    paired = result.tables["paired_difference"]
    show_table(
        paired.select("strategy", "against", "n").with_columns(
            interval_column(paired, "difference", scale=100, signed=True).alias("difference, points (95% CI)")
        ),
        title="Paired difference per game (strategy minus built-in)",
        name="paired_difference",
    )


@app.command("tournament")
def tournament_command(
    entrant: Annotated[
        list[str],
        typer.Option(
            "--entrant",
            "-e",
            help="Built-in bots (not search) or Python strategies FILE.py:NAME, comma separated or repeated.",
        ),
    ],
    players: Annotated[int, typer.Option("--players", help="Table size, 4-7.")] = 4,
    n: Annotated[int, typer.Option("--n", help="Games per assignment of the entrants to the roles.")] = 500,
    seed: SeedOpt = 0,
    jobs: JobsOpt = None,
    cluster: ClusterOpts = ClusterOptions(),
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Bots per role: every assignment of the entrants (built-in bots, or Python strategies
    FILE.py:NAME, each in a process of its own) to the table's roles, --n games each on the
    same deals. Per role and entrant, the games its side won (95% Wilson); each
    side's win rate across the assignments (least, median, greatest). Each assignment is a
    stored run: the same command resumes.

    Example: cardsim bang tournament -e role,random,tuned --players 5 --n 500
    """
    from cardsim.api import bang
    from cardsim.commands.common import resolve_store
    from cardsim.commands.output import interval_column

    folder = resolve_store(store, no_store)
    workers = RunOptions(jobs=jobs).checked().jobs or 1
    result = bang.tournament(entrant, players=players, n=n, seed=seed, jobs=workers, store=folder, **cluster.keywords())
    record_run(None, seed, f"{n} games per assignment, {result.manifest['assignments']} assignments")
    tables = result.tables
    if as_json:
        for name, table in tables.items():
            show_table(table, name=name, as_json=True)
        return
    roles = (
        tables["roles"]
        .select("role", "entrant", "games")
        .with_columns(interval_column(tables["roles"], "p_win", "lo", "hi", scale=100).alias("side won % (95% CI)"))
    )
    show_table(
        roles,
        title=f"Bang! tournament, {players} players: {result.manifest['assignments']} assignments "
        f"x {n} paired deals, seed {seed}",
    )
    show_table(
        tables["sides"].with_columns(pl.col("least", "median", "greatest", "mean").round(3)),
        title="each side's win rate across the assignments (the spread the population makes)",
    )
