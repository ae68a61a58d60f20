"""The Gang's API: heists, games, card effects and user strategies (``cardsim.gang``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim import __version__
from cardsim.errors import UserError
from cardsim.options import (
    RunOptions,
    check_n,
    parse_choice,
    parse_range,
    split_names,
)

if TYPE_CHECKING:
    pass

from cardsim.api.common import (
    Names,
    Players,
    Result,
    Runs,
    concat_rows,
    crossplay_result,
    on_backend,
    run_options,
    with_keyword_errors,
)

GANG_MODES = ("basic", "advanced", "professional", "master")


def _gang_modes(value: Names) -> list[str]:
    aliases = {"pro": "professional"}
    if value is None:
        return parse_choice(value, GANG_MODES, name="mode")
    names = ["all"] if value == "all" else [aliases.get(m, m) for m in split_names(value, name="mode")]
    return parse_choice(names, GANG_MODES, name="mode")


class Gang:
    """The Gang: ``heist``, ``game`` and ``cards`` (see ``cardsim gang --help``)."""

    @staticmethod
    def heist(
        players: Players = 4,
        model: Names = "history",
        levels: Players = 1,
        challenge: Names = (),
        specialist: str | None = None,
        specialist_round: str = "river",
        boost: str = "top",
        specialist_use: str = "helpful",
        jack: str = "stay",
        n: int = 100_000,
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
        **fields: Any,
    ) -> Result:
        """Per-heist success with its 95% Wilson interval per players x model x levels.

        ``table``: players, model, levels, n, successes, order_ok, random_exact, success
        (+ ``_lo``/``_hi``). ``specialist_use``: "helpful" (the group plays a card it may
        decline only when it expects a gain) or "always"; ``jack``: "stay" (the Jack must stay
        in the holder's pocket) or "discard". ``fields``: further config fields for every heist
        (see ``cardsim.sims.gang.config``).

        >>> r = cardsim.gang.heist(players="3-4", model="history", n=500, jobs=1, quiet=True)
        >>> r.table["players"].to_list(), r.episodes.height
        ([3, 4], 1000)
        """
        from cardsim.analysis.gang import heist_summary
        from cardsim.sims.gang.models import MODEL_IDS
        from cardsim.sims.gang.simulator import SIMULATOR

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
        challenges = tuple(split_names(challenge, name="challenge"))
        configs = [
            SIMULATOR.make_config(
                players=count,
                model=name,
                levels=level,
                challenges=challenges,
                specialist=specialist or "",
                specialist_round=specialist_round,
                boost=boost,
                specialist_use=specialist_use,
                jack=jack,
                **fields,
            )
            for count in parse_range(players)
            for name in parse_choice(model, list(MODEL_IDS), name="model")
            for level in parse_range(levels, name="levels")
        ]
        runs = Runs("gang heist", n, options, len(configs))
        episodes = concat_rows([runs.episodes("gang", config) for config in configs])
        summary = heist_summary(episodes)
        rest = [c for c in summary.columns if c not in ("success", "success_lo", "success_hi")]
        return runs.result({"heist_success": summary.select(*rest, "success", "success_lo", "success_hi")}, episodes)

    @staticmethod
    def game(
        mode: Names = "basic",
        players: Players = 4,
        model: Names = "history",
        levels: Players = 1,
        deck_order: str = "shuffled",
        challenge: Names = (),
        specialist_round: str = "river",
        boost: str = "top",
        specialist_use: str = "helpful",
        jack: str = "stay",
        n: int = 20_000,
        check: bool = False,
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
        **fields: Any,
    ) -> Result:
        """Game win rate and mean heists per mode x players x model x levels (``table``
        ``game_win``), the final vault/alarm counts (``final_counts``) and, with ``check``,
        the basic game against the best-of-five formula (``formula_check``). ``fields``:
        further config fields for every game.

        >>> r = cardsim.gang.game(mode="master", n=200, jobs=1, quiet=True)
        >>> r.table["mode"].to_list(), int(r.tables["final_counts"]["games"].sum())
        (['master'], 200)
        """
        from cardsim.analysis.gang import final_counts, formula_check, game_summary
        from cardsim.sims.gang.models import MODEL_IDS
        from cardsim.sims.gang.simulator import SIMULATOR

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
        modes = _gang_modes(mode)
        challenges = tuple(split_names(challenge, name="challenge"))
        groups = [
            (count, name, level)
            for count in parse_range(players)
            for name in parse_choice(model, list(MODEL_IDS), name="model")
            for level in parse_range(levels, name="levels")
        ]
        configs = [
            SIMULATOR.make_config(
                players=count,
                model=name,
                levels=level,
                unit="game",
                mode=name_mode,
                deck_order=deck_order,
                challenges=challenges,
                specialist_round=specialist_round,
                boost=boost,
                specialist_use=specialist_use,
                jack=jack,
                **fields,
            )
            for name_mode in modes
            for count, name, level in groups
        ]
        heist_configs = (
            [
                SIMULATOR.make_config(
                    players=count,
                    model=name,
                    levels=level,
                    challenges=challenges,
                    specialist_round=specialist_round,
                    boost=boost,
                    specialist_use=specialist_use,
                    jack=jack,
                    **fields,
                )
                for count, name, level in groups
            ]
            if check and "basic" in modes
            else []
        )
        runs = Runs("gang game", n, options, len(configs) + len(heist_configs))
        games = concat_rows([runs.episodes("gang", config) for config in configs])
        tables = {"game_win": game_summary(games), "final_counts": final_counts(games)}
        if heist_configs:
            heists = concat_rows([runs.episodes("gang", config) for config in heist_configs])
            import polars as pl

            tables["formula_check"] = formula_check(heists, games.filter(pl.col("mode") == "basic"))
        return runs.result(tables, games)

    @staticmethod
    def cards(
        players: Players = 4,
        model: Names = "bayes",
        levels: Players = 1,
        kind: str = "all",
        specialist_round: str = "river",
        boost: str = "top",
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
        """For every single card: heist success and its difference against no card (Newcombe
        95% interval), hardest first; every card's heist k starts from the same deck and heist
        seed (same seed), so the difference is paired by deal (column ``pairing``, see
        :func:`cardsim.analysis.gang.card_effects`).

        ``kind``: "challenges", "specialists" or "all". Specialists the group decides on are
        run both ways (column ``use``: "helpful" and "always"); the Jack also under its other
        reading, as the card "jack (may discard)".

        >>> r = cardsim.gang.cards(model="random", kind="specialists", n=200, jobs=1,
        ...                        quiet=True)
        >>> r.table.filter(r.table["card"] == "none")["difference"].to_list()
        [0.0]
        """
        import polars as pl

        from cardsim.analysis.gang import card_effects
        from cardsim.sims.gang.cards import CARD_SUMMARIES, CHALLENGES, GROUP_DECIDED, SPECIALISTS
        from cardsim.sims.gang.models import MODEL_IDS
        from cardsim.sims.gang.simulator import SIMULATOR

        if kind not in ("challenges", "specialists", "all"):
            raise UserError(f"--kind must be challenges, specialists or all (got {kind!r})")
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
        other_jack = "jack (may discard)"
        chosen: list[tuple[str, str, str, dict[str, Any]]] = [("none", "none", "", {})]
        if kind in ("challenges", "all"):
            chosen += [("challenge", c, "", {"challenges": (c,)}) for c in CHALLENGES]
        if kind in ("specialists", "all"):
            for card in SPECIALISTS:
                if card not in GROUP_DECIDED:
                    chosen.append(("specialist", card, "", {"specialist": card}))
                    continue
                chosen += [
                    ("specialist", card, use, {"specialist": card, "specialist_use": use})
                    for use in ("helpful", "always")
                ]
            chosen += [
                ("specialist", other_jack, use, {"specialist": "jack", "jack": "discard", "specialist_use": use})
                for use in ("helpful", "always")
            ]
        planned = [
            (
                card_kind,
                card,
                use,
                SIMULATOR.make_config(
                    players=count,
                    model=name,
                    levels=level,
                    specialist_round=specialist_round,
                    boost=boost,
                    **card_fields,
                ),
            )
            for count in parse_range(players)
            for name in parse_choice(model, list(MODEL_IDS), name="model")
            for level in parse_range(levels, name="levels")
            for card_kind, card, use, card_fields in chosen
        ]
        runs = Runs("gang cards", n, options, len(planned))
        episodes = concat_rows(
            [
                runs.episodes("gang", config)
                .select("players", "model", "levels", "success")
                .with_columns(
                    pl.int_range(pl.len(), dtype=pl.Int64).alias("deal"),
                    pl.lit(card_kind).alias("kind"),
                    pl.lit(card).alias("card"),
                    pl.lit(use).alias("use"),
                )
                for card_kind, card, use, config in planned
            ]
        )
        summaries = {
            **CARD_SUMMARIES,
            "none": "no card",
            other_jack: "jack read so that the holder may discard the Jack itself",
        }
        effects = card_effects(episodes).with_columns(pl.col("card").replace_strict(summaries).alias("rule"))
        return runs.result({"card_effects": effects}, episodes)

    @staticmethod
    @on_backend
    def evaluate(
        strategy: str,
        players: int | str = 4,
        n: int = 2_000,
        against: str = "percentile",
        *,
        seed: int = 0,
        jobs: int | None = None,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> Result:
        """A user strategy (``FILE.py:NAME``, see :mod:`cardsim.sims.gang.strategy`) playing
        every seat of basic heists (the game is cooperative, so there is no seat to pick),
        against a built-in model on the same deals.

        ``table``: one row for the strategy and one for the built-in: n heists, successes and
        success with its 95% Wilson interval (the heist is the unit: the team wins it
        together). ``tables["paired_difference"]``: the mean of the per-heist differences
        (strategy minus built-in, same deal and tie-breaks) with its 95% interval. A failing
        strategy raises :class:`cardsim.sims.core.user_strategy.StrategyError` (one line naming
        the seat and turn); a bad file or name, a :class:`UserError`.

        >>> from pathlib import Path
        >>> twin = Path(cardsim.__file__).parents[1] / "examples/strategies/gang_percentile.py"
        >>> r = cardsim.gang.evaluate(f"{twin}:Percentile", n=200, jobs=1)
        >>> r.tables["paired_difference"]["difference"].to_list()
        [0.0]
        """
        import numpy as np
        import polars as pl

        from cardsim.sims.core.seeds import chunk_generator, validate_root_seed
        from cardsim.sims.core.user_strategy import (
            StrategyError,
            check_methods,
            load_strategy,
            paired_difference,
            run_chunks,
            split_spec,
        )
        from cardsim.sims.gang.models import MODEL_IDS
        from cardsim.sims.gang.strategy import (
            DECISIONS,
            EVALUATE_CHUNK,
            evaluate_chunk,
        )
        from cardsim.stats import wilson_interval

        count = parse_range(players)
        if len(count) != 1 or not 3 <= count[0] <= 6:
            raise UserError(f"gang evaluate: players must be one count of 3-6, got {players!r}")
        if against not in MODEL_IDS:
            raise UserError(f"gang evaluate: against must be one of {', '.join(MODEL_IDS)}, got {against!r}")
        n = check_n(n)
        validate_root_seed(seed)
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise UserError(f"--jobs must be at least 1, got {jobs!r}")
        check_methods(load_strategy(strategy), strategy, DECISIONS)
        path, name = split_spec(strategy)
        resolved = f"{path.resolve()}:{name}"  # workers load it wherever they start
        chunks = -(-n // EVALUATE_CHUNK)
        tasks = [
            (resolved, count[0], against, chunk_generator(seed, i), EVALUATE_CHUNK, i * EVALUATE_CHUNK, strategy)
            for i in range(chunks)
        ]
        parts = run_chunks(evaluate_chunk, tasks, jobs or 1)
        for part in parts:  # the first failure in heist order, whichever worker met it
            if "error" in part:
                raise StrategyError(**part["error"], traceback_text=part["traceback"])
        user = np.concatenate([part["user"] for part in parts])[:n]
        builtin = np.concatenate([part["builtin"] for part in parts])[:n]
        names = [strategy, against]
        wins = [int(user.sum()), int(builtin.sum())]
        lo, hi = wilson_interval(wins, [n, n])
        table = pl.DataFrame(
            {
                "strategy": names,
                "players": [count[0]] * 2,
                "n": [n, n],
                "successes": wins,
                "success": [w / n for w in wins],
                "success_lo": lo.tolist(),
                "success_hi": hi.tolist(),
            }
        )
        diff = paired_difference(user, builtin)
        difference = pl.DataFrame(
            {
                "strategy": [strategy],
                "against": [against],
                "players": [count[0]],
                "n": [n],
                "difference": [diff["difference"]],
                "difference_lo": [diff["lo"]],
                "difference_hi": [diff["hi"]],
            }
        )
        episodes = pl.DataFrame({"heist": np.arange(1, n + 1), "success": user, "builtin_success": builtin})
        manifest = {
            "command": "gang evaluate",
            "version": __version__,
            "seed": seed,
            "strategy": strategy,
            "against": against,
            "players": count[0],
            "n": n,
            "chunk": EVALUATE_CHUNK,
            "stop_rule": f"fixed n={n}",
            "runs": [],
        }
        return Result(table, episodes, manifest, {"evaluate": table, "paired_difference": difference})

    @staticmethod
    @with_keyword_errors
    @on_backend
    def crossplay(
        entrants: Names,
        players: int = 4,
        n: int = 200,
        *,
        seed: int = 0,
        jobs: int | None = 1,
        backend: str = "joblib",
        scheduler: str | None = None,
        store: str | Path | None = None,
        on_chunk: Callable[[int, int], None] | None = None,
    ) -> Result:
        """Cross-play (:mod:`cardsim.analysis.crossplay`): for every pair of ``entrants``
        (``FILE.py:NAME`` or ``LABEL=FILE.py:NAME``, each run in its own process), the team's
        success when every seat but seat 0 plays A and seat 0 plays B (the diagonal: A alone),
        on the same ``n`` deals, with 95% Wilson intervals. ``table``: one row per (team, one).
        Chunks of deals run in ``jobs`` processes (or on the dask cluster at ``scheduler``),
        the same numbers for any; with ``store``, finished chunks are kept and the same call
        resumes."""
        from cardsim.sims.gang.strategy import DECISIONS

        return crossplay_result(
            "gang", entrants, players, n, seed, DECISIONS, jobs=jobs, store=store, on_chunk=on_chunk
        )
