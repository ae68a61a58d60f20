"""Cash'n Guns' API: strategies, runs, payoffs, discover, checks and user strategies
(``cardsim.cashnguns``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim import __version__
from cardsim.errors import UserError
from cardsim.options import (
    RunOptions,
    announce_compile,
    check_n,
    parse_range,
    unique,
)

if TYPE_CHECKING:
    import polars as pl

from cardsim.api.common import Names, Players, Result, Runs, concat_rows, on_backend, run_options


def cashnguns_counts(players: Players) -> list[int]:
    """Cash'n Guns player counts for the searches over the seed rules' 4-6."""
    counts = parse_range(players)
    for count in counts:
        if not 4 <= count <= 6:
            raise UserError(f"cashnguns: players must be 4-6 (seed rules), got {count}")
    return counts


class CashNGuns:
    """Cash'n Guns: ``strategies``, ``run``, ``payoff``, ``stage``, ``discover``, ``check``,
    ``libraries`` and ``evaluate`` (see ``cardsim cashnguns --help``)."""

    @staticmethod
    def strategies() -> dict[str, pl.DataFrame]:
        """The named strategies (``strategies``), the policies a custom strategy combines
        (``policies``), its parameters (``parameters``) and the shipped mixes (``mixes``: one
        row per reading, the mix, whether it holds and its best known reply, read from the
        libraries file by :func:`~cardsim.analysis.cashnguns.reading_status`; empty when the
        file cannot be read)."""
        from cardsim.analysis.cashnguns import shipped_mixes_table, strategy_space_tables

        named, policies, parameters = strategy_space_tables()
        return {"strategies": named, "policies": policies, "parameters": parameters, "mixes": shipped_mixes_table()}

    @staticmethod
    def run(
        players: Players = 5,
        strategy: Names | None = None,
        shame: int | None = None,
        n: int = 20_000,
        *,
        seed: int = 0,
        jobs: int | None = None,
        backend: str = "joblib",
        scheduler: str | None = None,
        store: str | Path | None = None,
        precision: float | None = None,
        max_n: int | None = None,
        quiet: bool = False,
        options: RunOptions | None = None,
    ) -> Result:
        """A table of strategies per player count (one for all, two for focal vs others, or one
        per player): per slot (``slots``) the win probability, mean score, survival, wounds and
        shame, with 95% intervals."""
        import polars as pl

        from cardsim.analysis.cashnguns import per_slot_table
        from cardsim.sims.cashnguns.config import CashNGunsConfig
        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS

        options = options or run_options(
            seed=seed,
            jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            store=store,
            precision=precision,
            max_n=max_n,
            quiet=quiet,
        )
        specs = tuple(strategy_specs(strategy) or ("calculator", "stubborn"))
        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        configs = [
            CashNGunsConfig(players=count, strategies=specs, shame_value=shame) for count in parse_range(players)
        ]
        check_python_entrants(specs)
        runs = Runs("cashnguns run", n, options, len(configs))
        tables, frames = [], []
        for config in configs:
            episodes = runs.episodes("cashnguns", config)
            frames.append(episodes)
            table = per_slot_table(config, episodes)
            tables.append(table.select(pl.lit(config.players).alias("players"), pl.all()))
        return runs.result({"slots": pl.concat(tables)}, concat_rows(frames))

    @staticmethod
    @on_backend
    def evaluate(
        strategy: str,
        players: int = 4,
        n: int = 2_000,
        against: str = "mix",
        metric: str = "win",
        shame: int | None = None,
        *,
        seat: int = 0,
        seed: int = 0,
        jobs: int | None = 1,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> Result:
        """A strategy written in Python (``FILE.py:NAME``, see ``cardsim/sims/cashnguns/strategy.py``)
        in player slot ``seat`` against the shipped mix of the reading (``against="mix"``) or a
        built-in strategy spec, on ``n`` deals each also played with the built-in in the same
        seat: each side's win rate (95% Wilson interval) and mean score (95% interval), and the
        paired difference in ``metric`` with its 95% interval. A shipped mix is the searched
        library's, not shown to be an equilibrium of the game: ``details["status"]`` says
        whether it holds, and where not, "not converged" and its best known reply with its gain
        and 95% interval (:func:`~cardsim.analysis.cashnguns.status_text`, read from the
        libraries file). A bad keyword is a ``UserError`` naming it; a failing strategy a
        ``StrategyError`` naming seat, turn and decision.

        >>> r = cardsim.cashnguns.evaluate("examples/strategies/cashnguns_patient.py:Patient",
        ...                                players=4, n=200)  # doctest: +SKIP
        """
        import polars as pl

        from cardsim.analysis.cashnguns.evaluate import evaluate_strategy
        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS

        for name, value in (("players", players), ("n", n), ("seat", seat), ("seed", seed)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise UserError(f"evaluate: {name} must be an integer, got {value!r}")
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise UserError(f"evaluate: jobs must be a positive integer, got {jobs!r}")
        if not isinstance(against, str) or not isinstance(metric, str):
            raise UserError("evaluate: against and metric must be strings")
        shame_value = DEFAULT_SHAME_DOLLARS if shame is None else shame
        if isinstance(shame_value, bool) or not isinstance(shame_value, int):
            raise UserError(f"evaluate: shame must be whole dollars, got {shame!r}")
        found = evaluate_strategy(
            strategy,
            players=players,
            n=n,
            against=against,
            metric=metric,
            shame_value=shame_value,
            seat=seat,
            seed=seed,
            jobs=jobs or 1,
        )
        table = evaluation_table(found)
        manifest = {"command": "cashnguns evaluate", "seed": seed, "details": found}
        return Result(table, pl.DataFrame(), manifest, {"evaluate": table})

    @staticmethod
    def payoff(
        players: Players = 5,
        strategy: Names | None = None,
        n: int = 300,
        metric: str = "win",
        shame: int | None = None,
        *,
        seed: int = 0,
        jobs: int | None = None,
        backend: str = "joblib",
        scheduler: str | None = None,
        store: str | Path | None = None,
        precision: float | None = None,
        max_n: int | None = None,
        quiet: bool = False,
        options: RunOptions | None = None,
        on_profile: Callable[[int], Callable[[int, int], None]] | None = None,
    ) -> Result:
        """Meta-game per player count: focal-vs-others payoff matrix (``matrix_<k>p``), the
        symmetric equilibrium mix (``equilibrium_<k>p``) and best responses
        (``best_responses_<k>p``); ``manifest["equilibria"]`` has each value and regret.
        ``table`` is the first player count's matrix; ``episodes`` the pooled per-profile
        payoffs of every count.

        >>> r = cardsim.cashnguns.payoff(players=4, strategy="stubborn,coward", n=100, jobs=1,
        ...                              quiet=True)
        >>> r.table.height, sorted(r.tables)[0]
        (4, 'best_responses_4p')
        """
        import polars as pl

        from cardsim.analysis.cashnguns import (
            METRICS,
            best_responses,
            equilibrium_table,
            payoff_matrix,
            profile_payoffs,
            symmetric_equilibrium,
            symmetric_game,
        )
        from cardsim.options import choose_jobs
        from cardsim.sims.cashnguns.config import CashNGunsConfig
        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS
        from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES

        if metric not in METRICS:
            raise UserError(f"--metric must be one of: {', '.join(METRICS)}")
        options = options or run_options(
            seed=seed,
            jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            store=store,
            precision=precision,
            max_n=max_n,
            quiet=quiet,
        )
        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        names = unique(strategy_specs(strategy), name="strategy") or list(NAMED_STRATEGIES)
        counts = parse_range(players)
        for count in counts:
            CashNGunsConfig(players=count, strategies=tuple(names[:1]), shame_value=shame)
        check_n(n)
        check_python_entrants(names)
        runner_options = {
            "precision": options.precision,
            "max_n": options.max_n,
            "backend": options.backend,
            "scheduler": options.scheduler,
        }
        announce_compile("cashnguns", options.quiet)
        tables: dict[str, pl.DataFrame] = {}
        pooled = []
        equilibria: dict[str, dict[str, Any]] = {}
        runs: list[str] = []
        for count in counts:
            profiles = profile_payoffs(
                names,
                count,
                n=n,
                seed=options.seed,
                shame_value=shame,
                store=options.store,
                jobs=choose_jobs("cashnguns", n, options, runs=math.comb(len(names) + count - 1, count)),
                on_profile=on_profile(count) if on_profile else None,
                runner_options=runner_options,
            )
            matrix = payoff_matrix(profiles, names, count)
            game = symmetric_game(profiles, names, count, metric)
            equilibrium = symmetric_equilibrium(game, seed=options.seed)
            tables[f"matrix_{count}p"] = matrix
            tables[f"equilibrium_{count}p"] = equilibrium_table(equilibrium, game)
            tables[f"best_responses_{count}p"] = best_responses(matrix, metric)
            pooled.append(profiles.select(pl.lit(count).alias("players"), pl.all()))
            runs.extend(profiles["run"].unique(maintain_order=True).to_list())
            equilibria[f"{count}p"] = {
                "value": equilibrium.value,
                "regret": equilibrium.regret,
                "best_deviation": equilibrium.best_deviation,
                "profiles": profiles["profile"].n_unique(),
                "summary": (
                    f"{count} players, metric {metric}, {_games(profiles)} per profile, "
                    f"{profiles['profile'].n_unique():,} profiles: equilibrium value "
                    f"{equilibrium.value:.4g}, regret {equilibrium.regret:.3g} "
                    f"(best deviation: {equilibrium.best_deviation})"
                ),
            }
        manifest = {
            "command": "cashnguns payoff",
            "version": __version__,
            "seed": options.seed,
            "stop_rule": options.stop_rule(n),
            "runs": list(dict.fromkeys(runs)),
            "metric": metric,
            "strategies": names,
            "equilibria": equilibria,
        }
        return Result(tables[f"matrix_{counts[0]}p"], concat_rows(pooled), manifest, tables)

    @staticmethod
    @on_backend
    def tournament(
        entrants: Names,
        players: int = 5,
        games: int = 20_000,
        design: str = "auto",
        metric: str = "win",
        shame: int | None = None,
        *,
        seed: int = 0,
        jobs: int | None = 1,
        backend: str = "joblib",
        scheduler: str | None = None,
        store: str | Path | None = None,
        alpha: float = 10.0,
        population: int = 50,
        on_chunk: Callable[[int, int], None] | None = None,
    ) -> Result:
        """A tournament of ``entrants`` at ``players``-player tables (see
        :mod:`cardsim.analysis.cashnguns.tournament`): built-in names or specs, ``FILE.py:NAME``
        (each runs in its own process and sees a copy of its view), ``mix`` or ``library`` (the
        shipped mix's members or the whole library of the reading), each optionally
        ``LABEL=SPEC``; ``design`` ``all`` (every composition), ``distinct`` (every table of
        different entrants), ``sampled`` (every table of one or two entrants plus sampled
        others, slots turned through the seats) or ``auto``; about ``games`` games, every
        composition on the same deals. Tables: ``standings`` (win rate and mean score per seat,
        95% intervals over games), ``head_to_head``, ``payoff_table`` (the heuristic payoff
        table), ``equilibrium`` (the population's symmetric equilibrium, design ``all`` only)
        and ``alpharank`` (α-Rank, when every table of one or two entrants was played);
        ``manifest`` the plan and settings. Chunks run in ``jobs`` processes or on the dask
        cluster at ``scheduler``, the same numbers on either. With ``store``, finished chunks
        are kept and the same call resumes. Bad input is a ``UserError`` naming the keyword.

        >>> r = cardsim.cashnguns.tournament("stubborn,coward,shark", players=4, games=300)
        >>> r.table.columns[:4]
        ['entrant', 'games', 'seats', 'p_win']
        """
        from cardsim.analysis.cashnguns.tournament import (
            TournamentSettings,
            play_tournament,
            resolve_entrants,
            tournament_tables,
        )
        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS

        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        if isinstance(shame, bool) or not isinstance(shame, int):
            raise UserError(f"--shame must be whole dollars, got {shame!r}")
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise UserError(f"--jobs must be a positive integer, got {jobs!r}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise UserError(f"--players must be one integer 4-6, got {players!r}")
        if store is not None and not isinstance(store, (str, Path)):
            raise UserError(f"--store must be a folder name or None, got {store!r}")
        if metric not in ("win", "score"):
            raise UserError(f"--metric must be one of: win, score, got {metric!r}")
        found = resolve_entrants(entrant_specs(entrants), players, metric, shame)
        settings = TournamentSettings(
            tuple(found),
            players=players,
            games=games,
            design=design,
            shame_value=shame,
            seed=seed,
            metric=metric,
            alpha=alpha,
            population=population,
        )
        played = play_tournament(
            settings, jobs=jobs or 1, store=None if store is None else Path(store), on_chunk=on_chunk
        )
        tables = tournament_tables(settings, played)
        summary = tables.pop("summary")
        shown = {name: table for name, table in tables.items() if table is not None}
        manifest = {
            "command": "cashnguns tournament",
            "version": __version__,
            "seed": seed,
            "runs": [summary["run"]] if summary["run"] else [],
            **summary,
        }
        return Result(shown["standings"], played["sums"], manifest, shown)

    @staticmethod
    def stage(
        players: Players = 5,
        guns: int = 2,
        loot: str = "20k,10k,10k,5k,5k",
        shame: int | None = None,
        wound_cost: int = 10_000,
        opponent_hand: str | Sequence[int] = "5,2,1",
    ) -> pl.DataFrame:
        """One-round payoffs (bullet x stand/lie down) of a player aimed at by ``guns`` guns,
        by exact enumeration (exact only for round one with fixed aims and nobody else lying
        down); a ``players`` column when more than one count is asked."""
        import polars as pl

        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS, HAND_COUNTS
        from cardsim.sims.cashnguns.stage import parse_loot, stage_game

        try:
            hand = tuple(
                int(x) for x in (opponent_hand.split(",") if isinstance(opponent_hand, str) else opponent_hand)
            )
        except ValueError:
            raise UserError(f"--opponent-hand: three counts like 5,2,1, got {opponent_hand!r}") from None
        if len(hand) != 3 or any(h < 0 or h > full for h, full in zip(hand, HAND_COUNTS)):
            raise UserError(f"--opponent-hand: three counts within 5,2,1, got {opponent_hand!r}")
        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        counts = parse_range(players)
        tables = [
            stage_game(count, guns, parse_loot(loot), shame_value=shame, wound_cost=wound_cost, opponent_hand=hand)
            for count in counts
        ]
        if len(counts) == 1:
            return tables[0]
        return pl.concat([t.select(pl.lit(c).alias("players"), pl.all()) for c, t in zip(counts, tables)])

    @staticmethod
    def start_library(start: Names, players: int, metric: str, shame: int) -> tuple[str, ...]:
        """Discover's starting specs: the token 'library' replaced by the shipped library of
        the reading (its specs in the file's order), each strategy once (a repeat is dropped)."""
        from cardsim.analysis.cashnguns import load_libraries
        from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES, parse_strategy

        specs: list[str] = []
        for given in strategy_specs(start):
            if given == "library":
                entry = load_libraries().get((players, metric, shame))
                if entry is None:
                    raise UserError(
                        f"--start library: no shipped library for {players} players, --metric {metric} --shame {shame}"
                    )
                specs += [item["spec"] for item in entry["library"]]
            else:
                specs.append(given if given in NAMED_STRATEGIES else parse_strategy(given).spec())
        return tuple(dict.fromkeys(specs))

    @staticmethod
    @on_backend
    def discover(
        players: Players = 5,
        metric: str = "win",
        shame: int | None = None,
        budget: int = 200,
        rounds: int = 20,
        local: int | None = None,
        start: Names | None = None,
        stop_checks: int = 2,
        seed: int = 0,
        jobs: int | None = None,
        store: str | Path | None = None,
        sweep: bool = True,
        on_round: Callable[[dict[str, Any]], None] | None = None,
        on_start: Callable[[Any], None] | None = None,
        on_done: Callable[[dict[str, Any]], None] | None = None,
        *,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> list[dict[str, Any]]:
        """Grow a strategy library by best responses (double oracle) per player count; one
        document per count (:func:`discover_document`); ``sweep``: every round also tries each
        member with all 168 card orders and opponent reading. Every count's settings are checked
        before any runs; ``on_start`` hears each count's settings before its run,
        ``on_round`` each finished round and ``on_done`` each count's document."""
        from cardsim.analysis.cashnguns import DEFAULT_LOCAL, DiscoverSettings, discover
        from cardsim.options import search_jobs
        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS

        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        local = DEFAULT_LOCAL if local is None else local
        every_settings = [
            DiscoverSettings(
                players=count,
                metric=metric,
                shame_value=shame,
                seed=seed,
                budget=budget,
                rounds=rounds,
                local=local,
                stop_checks=stop_checks,
                sweep=sweep,
                start=(CashNGuns.start_library(start, count, metric, shame) if start else DiscoverSettings.start),
            )
            for count in parse_range(players)
        ]
        for settings in every_settings:  # every count checked before any is run
            settings.check()
        workers = search_jobs(jobs)
        documents = []
        for settings in every_settings:
            if on_start is not None:
                on_start(settings)
            documents.append(
                discover_document(
                    discover(settings, jobs=workers, store=None if store is None else Path(store), on_round=on_round)
                )
            )
            if on_done is not None:
                on_done(documents[-1])
        return documents

    @staticmethod
    @on_backend
    def check(
        players: Players = "4-6",
        metric: str = "win",
        shame: int | None = None,
        budget: int = 200,
        games: int = 100_000,
        local: int | None = None,
        seed: int = 0,
        libraries: str | Path | None = None,
        record: bool = False,
        sweep: bool = True,
        jobs: int | None = None,
        oracle_games: int | None = None,
        oracle_budget: int | None = None,
        *,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> list[dict[str, Any]]:
        """Try each shipped mix from outside: a fresh best-response search against the mix as
        shipped and (``sweep``) every mix member with each of the 168 card orders and opponent
        reading, and the search player (reads each opponent's mix member and plans by
        rollouts, ``oracle_budget`` worlds per decision, measured on ``oracle_games`` fresh
        paired games; 0: left out); the best reply's gain on ``games`` fresh paired games, one row per player
        count (gain and its 95% bounds in the payoff's unit: win probability or dollars). With
        ``record``, each check is written into the libraries file with its entry. Each row's
        ``holds`` and ``status`` say whether the mix holds by everything recorded with it (this
        check too when recorded), and where not, "not converged" and its best known reply with
        its gain and 95% interval (:func:`~cardsim.analysis.cashnguns.reading_status`); a mix is
        at most converged within the searched space, never shown to be an equilibrium of the game."""
        from cardsim.analysis.cashnguns import (
            DEFAULT_LOCAL,
            METRICS,
            OutsideCheck,
            check_command_line,
            check_equilibrium,
            load_libraries,
            reading_status,
            record_outside_check,
            status_text,
        )
        from cardsim.analysis.cashnguns.check import DEFAULT_ORACLE_GAMES
        from cardsim.options import check_output_file, search_jobs
        from cardsim.sims.cashnguns import SHIPPED_LIBRARIES
        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS
        from cardsim.sims.cashnguns.search import DEFAULT_BUDGET

        if metric not in METRICS:
            raise UserError(f"--metric must be one of: {', '.join(METRICS)}, got {metric!r}")
        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        counts = cashnguns_counts(players)
        check = OutsideCheck(
            budget=budget,
            validation_games=games,
            seed=seed,
            local=DEFAULT_LOCAL if local is None else local,
            sweep=sweep,
            oracle_games=DEFAULT_ORACLE_GAMES if oracle_games is None else oracle_games,
            oracle_budget=DEFAULT_BUDGET if oracle_budget is None else oracle_budget,
        )
        check.check()
        path = Path(libraries) if libraries is not None else SHIPPED_LIBRARIES
        shipped = load_libraries(path)
        if record:  # the file is rewritten after the checks: its folder must take it before any is run
            check_output_file(path, what="check --record", suffixes=(".json",))
        missing = [count for count in counts if (count, metric, shame) not in shipped]
        if missing:
            raise UserError(
                f"check: no library for {', '.join(map(str, missing))} players, "
                f"--metric {metric} --shame {shame} in {path}"
            )
        workers = search_jobs(jobs)
        rows = []
        for count in counts:
            entry = shipped[(count, metric, shame)]
            result = check_equilibrium(entry, check, jobs=workers)
            if record:
                record_outside_check(path, result, check_command_line(count, metric, shame, check))
            rows.append({"players": count, "entry": entry, **result})
        if record:  # the status by the file as the checks left it
            shipped = load_libraries(path)
        for row in rows:
            entry = shipped[(row["players"], metric, shame)]
            row.update(holds=reading_status(entry)["holds"], status=status_text(entry))
        return rows

    @staticmethod
    def libraries(
        players: Players = "4-6",
        store: str | Path = "results",
        out: str | Path | None = None,
        records: Sequence[str | Path] = (),
    ) -> tuple[dict[str, Any], list[Any]]:
        """Write the strategy libraries file (default: the shipped one) from the stored discover
        runs in ``store`` (or the discover ``records`` named) of every reading at ``players``;
        returns (the document, the readings that kept their earlier entry). Whether each mix
        holds is :func:`~cardsim.analysis.cashnguns.reading_status` of its entry."""
        from cardsim.analysis.cashnguns import export_libraries
        from cardsim.options import check_output_file
        from cardsim.sims.cashnguns import SHIPPED_LIBRARIES

        counts = cashnguns_counts(players)
        target = check_output_file(
            Path(out) if out is not None else SHIPPED_LIBRARIES, what="libraries --out", suffixes=(".json",)
        )
        return export_libraries(Path(store), counts, target, records=[Path(r) for r in records])


def discover_document(document: dict[str, Any]) -> dict[str, Any]:
    """A discover record as the API and ``--json`` give it: without the internal profile
    table; on top, the reported round's
    (:func:`~cardsim.analysis.cashnguns.reported_round`) number, exploitability and
    equilibrium."""
    from cardsim.analysis.cashnguns import METHOD_VERSION, reported_round

    reported = reported_round(document)
    return {
        "method": METHOD_VERSION,
        "settings": document["settings"],
        "converged": document["converged"],
        "strategies": {name: spec for spec, name in document["names"].items()},
        "rounds": document["rounds"],
        "reported_round": reported["round"],
        "exploitability": reported["exploitability"],
        "exploitability_hi": reported["exploitability_hi"],
        "equilibrium": reported["equilibrium"],
    }


def evaluation_table(found: dict[str, Any]) -> pl.DataFrame:
    """One row per side of a Cash'n Guns evaluation (the user's strategy, the built-in in the
    same seat) and the paired difference, with 95% intervals."""
    import polars as pl

    rows = [
        {
            "side": side,
            "strategy": found["strategy"] if side == "user" else found["against"],
            "n": found["n"],
            **found[side],
        }
        for side in ("user", "builtin")
    ]
    difference = found["difference"]
    table = pl.DataFrame(rows)
    return table.with_columns(
        pl.lit(found["metric"]).alias("metric"),
        pl.lit(difference["value"]).alias("difference"),
        pl.lit(difference["lo"]).alias("difference_lo"),
        pl.lit(difference["hi"]).alias("difference_hi"),
    )


def _games(profiles: pl.DataFrame) -> str:
    """'n=300 games', or the range of games the profiles played under a precision stop
    (each stops on its own, never below ``n``)."""
    games = profiles["games"].to_list()
    low, high = min(games), max(games)
    return f"n={low:,} games" if low == high else f"n={low:,}-{high:,} games"


def check_python_entrants(specs: Sequence[str]) -> None:
    """Start the process of every strategy written in Python among ``specs`` (``FILE.py:NAME``)
    before anything runs: a file that fails to load, or lacks a decision, is a ``UserError``
    naming it. The strategy's code runs only in that process, never in this one."""
    from cardsim.sims.cashnguns.config import is_file_spec
    from cardsim.sims.cashnguns.strategy import DECISIONS
    from cardsim.sims.core.isolation import isolated_strategy

    for spec in dict.fromkeys(specs):
        if is_file_spec(spec):
            isolated_strategy(spec, DECISIONS)


def entrant_specs(value: Names | None) -> list[str]:
    """Tournament entrants from 'a,b,LABEL=spec' or a list of such strings: a comma piece with
    '=' but no ':' continues the previous spec's parameters only when that spec is a built-in
    with parameters (``name:key=value``); otherwise it is an entrant ``LABEL=SPEC``."""
    from cardsim.sims.cashnguns.config import is_file_spec

    parts = [value] if isinstance(value, str) else value or ()
    if not isinstance(parts, (list, tuple)) or not all(isinstance(p, str) for p in parts):
        raise UserError(f"--entrant: expected 'a,b', a list of entrants; got {value!r}")
    specs: list[str] = []
    for part in parts:
        for piece in (p.strip() for p in part.split(",")):
            if not piece:
                continue
            previous = specs[-1] if specs else ""
            parameterised = ":" in previous.partition("=")[0] and not is_file_spec(previous)
            if "=" in piece and ":" not in piece and parameterised:
                specs[-1] += f",{piece}"
            else:
                specs.append(piece)
    return specs


def strategy_specs(value: Names | None) -> list[str]:
    """Cash'n Guns strategy specs from 'a,b:key=v,key=v,c' or a list of such strings: a comma
    piece with '=' but no ':' continues the previous spec's parameters."""
    specs: list[str] = []
    parts = [value] if isinstance(value, str) else value or ()
    if not isinstance(parts, (list, tuple)) or not all(isinstance(p, str) for p in parts):
        raise UserError(f"--strategy: expected 'a,b', a list of strategy specs or None; got {value!r}")
    for part in parts:
        for piece in (p.strip() for p in part.split(",")):
            if not piece:
                continue
            if specs and "=" in piece and ":" not in piece:
                specs[-1] += f",{piece}"
            else:
                specs.append(piece)
    return specs
