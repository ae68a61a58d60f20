"""Difficulty tuning's API (``cardsim.tune``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim import __version__
from cardsim.errors import UserError
from cardsim.options import (
    announce_compile,
    parse_range,
)
from cardsim.sims.core.runner import run_id

if TYPE_CHECKING:
    pass

from cardsim.api.common import Players, Result, on_backend, run_options


def _landed_simulator(game: str) -> Any:
    """The game's simulator, or a one-line error while it has not landed."""
    from cardsim.sims.registry import get_simulator

    try:
        return get_simulator(game)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"cardsim.sims.{game}"):
            raise UserError(f"'cardsim tune {game}' needs the {game} simulator, which is not available yet") from None
        raise


class Tune:
    """Difficulty tuning: ``gang`` and ``thegame`` (see ``cardsim tune --help``).

    Every player count gets its own answer, for the group's model (or strategy) and for the
    rungs either side of it (weaker and stronger players), so a group sees how much its skill
    matters; a target no configuration reaches is flagged as out of reach, with the closest
    reachable configuration. Tables (raw rates with their 95% interval ``lo``/``hi``):

    - ``answers`` (``table``): one row per player count and rung: ``play``, its rate and n,
      ``reach`` (reachable, above, below), ``tied`` (configurations this n cannot tell apart
      from it) and the ``answer`` as a sentence;
    - ``closest``: per answer, the ``top`` configurations closest to the target, ranked;
    - ``ladder``: per answer, the easy/medium/hard configurations.

    ``precision`` and ``max_n`` default to the report's tuning profile, so a tune run and the
    report reuse each other's stored chunks.
    """

    @staticmethod
    def _tune(
        game: str,
        column: str,
        candidates_for: Callable[[int, str], list[Any]],
        refine_for: Callable[[int, str], list[Any]] | None,
        *,
        counts: list[int],
        rungs: list[str],
        chosen: str,
        who: Callable[[int, str], str],
        target: float,
        top: int,
        precision: float | None,
        max_n: int | None,
        seed: int,
        jobs: int | None,
        store: str | Path | None,
        quiet: bool,
    ) -> Result:
        """Check the options, run :func:`~cardsim.analysis.tuning.tune_rungs` behind one
        progress bar and tabulate its answers."""
        import polars as pl

        from cardsim.analysis.tuning import (
            answers_table,
            check_target,
            closest_table,
            ladder_table,
            tune_rungs,
        )
        from cardsim.options import choose_jobs
        from cardsim.reports.progress import Tracker
        from cardsim.reports.suite import DEFAULT

        target = check_target(target)
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise UserError(f"--top must be at least 1, got {top}")
        most_n = DEFAULT.tune_max_n if max_n is None else max_n
        options = run_options(
            seed=seed,
            jobs=jobs,
            store=store,
            quiet=quiet,
            precision=DEFAULT.tune_precision if precision is None else precision,
            max_n=most_n,
        )
        simulator = _landed_simulator(game)
        total = sum(len(candidates_for(count, rung)) for count in counts for rung in rungs)
        announce_compile(game, quiet)
        ids: list[str] = []

        with Tracker(total, enabled=not quiet, label="tune") as tracker:

            def done(_label: str, result: Any) -> None:
                tracker.finish()
                ids.append(run_id(result))

            results = tune_rungs(
                simulator,
                candidates_for,
                simulator.headline,
                refine_for=refine_for,
                players=counts,
                rungs=rungs,
                chosen=chosen,
                target=target,
                seed=options.seed,
                jobs=choose_jobs(game, most_n, options, runs=total),
                store=options.store,
                precision=options.precision,
                max_n=most_n,
                on_start=tracker.start,
                on_chunk=tracker.chunk,
                on_done=done,
                on_refine=tracker.extend,
            )
        answers = answers_table(results, column, who, target)
        manifest = {
            "command": f"tune {game}",
            "version": __version__,
            "seed": options.seed,
            "stop_rule": f"precision {options.precision} (max-n {options.max_n:,})",
            "runs": list(dict.fromkeys(ids)),
            "target": target,
            column: chosen,
            "rungs": rungs,
            "players": counts,
        }
        return Result(
            answers,
            pl.DataFrame(),
            manifest,
            {
                "answers": answers,
                "closest": closest_table(results, column, top),
                "ladder": ladder_table(results, column),
            },
        )

    @staticmethod
    @on_backend
    def gang(
        players: Players = 4,
        model: str = "history",
        levels: int = 1,
        target: float = 0.5,
        combinations: bool = True,
        top: int = 8,
        precision: float | None = None,
        max_n: int | None = None,
        *,
        seed: int = 0,
        jobs: int | None = None,
        store: str | Path | None = None,
        quiet: bool = False,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> Result:
        """The Gang: the mode and card configuration (Basic, Advanced, Professional with each
        permanent challenge, Master Thief; with ``combinations``, where none of these covers
        the target within its interval, also one or two permanent challenges on the modes that
        take them) whose game win rate is closest to ``target``, per player count, for
        ``model`` and the model rungs either side.

        >>> r = cardsim.tune.gang(players=4, model="random", target=0.5, combinations=False,
        ...                       top=2, precision=0.3, max_n=20, jobs=1, quiet=True)
        >>> r.table.select("players", "model", "chosen").rows()
        [(4, 'random', True), (4, 'percentile', False)]
        >>> r.table["reach"][0]  # random play cannot win half its games: out of reach
        'above'
        >>> r.tables["closest"].select("model", "rank").rows()
        [('random', 1), ('random', 2), ('percentile', 1), ('percentile', 2)]
        """
        from cardsim.analysis.tuning import (
            Candidate,
            gang_candidates,
            gang_combinations,
            neighbour_rungs,
        )

        simulator = _landed_simulator("gang")
        from cardsim.sims.gang.models import MODEL_DESCRIPTIONS

        counts = parse_range(players)
        for count in counts:  # validates players, model and levels before any run
            simulator.make_config(players=count, model=model, levels=levels)
        rulebook = gang_candidates()
        finer = gang_combinations(1) + gang_combinations(2) if combinations else []

        def with_group(candidates: list[Candidate], count: int, rung: str) -> list[Candidate]:
            base = {"players": count, "model": rung, "levels": levels}
            return [Candidate(c.label, {**base, **c.config}) for c in candidates]

        return Tune._tune(
            "gang",
            "model",
            lambda count, rung: with_group(rulebook, count, rung),
            lambda count, rung: with_group(finer, count, rung),
            counts=counts,
            rungs=neighbour_rungs(list(MODEL_DESCRIPTIONS), model),
            chosen=model,
            who=lambda count, rung: f"{count} players playing like the '{rung}' model",
            target=target,
            top=top,
            precision=precision,
            max_n=max_n,
            seed=seed,
            jobs=jobs,
            store=store,
            quiet=quiet,
        )

    @staticmethod
    @on_backend
    def thegame(
        players: Players = 3,
        strategy: str = "signals",
        target: float = 0.3,
        top: int = 8,
        precision: float | None = None,
        max_n: int | None = None,
        *,
        seed: int = 0,
        jobs: int | None = None,
        store: str | Path | None = None,
        quiet: bool = False,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> Result:
        """The Game: minimum cards per turn, hand size and backwards trick closest to ``target``
        per player count, for ``strategy`` and the strategies either side of it (omniscient,
        which sees hidden cards, is never a rung unless asked for).

        >>> r = cardsim.tune.thegame(players="1-2", strategy="greedy", target=0.05, top=3,
        ...                          precision=0.3, max_n=60, jobs=1, quiet=True)
        >>> r.table.select("players", "strategy").rows()
        [(1, 'random'), (1, 'greedy'), (1, 'planner'), (2, 'random'), (2, 'greedy'), (2, 'planner')]
        >>> r.tables["closest"]["rank"].to_list()[:3], r.table["n"].to_list() == [60] * 6
        ([1, 2, 3], True)
        """
        from cardsim.analysis.tuning import Candidate, neighbour_rungs, thegame_candidates

        simulator = _landed_simulator("thegame")
        from cardsim.sims.thegame.config import STRATEGY_NAMES

        counts = parse_range(players)
        for count in counts:  # validates players and strategy before any run
            simulator.make_config(players=count, strategy=strategy)
        # omniscient sees hidden cards: a bound, never a rung a group can stand on
        legal = [name for name in STRATEGY_NAMES if name != "omniscient" or strategy == "omniscient"]

        def candidates_for(count: int, rung: str) -> list[Candidate]:
            base = {"players": count, "strategy": rung}
            return [Candidate(c.label, {**base, **c.config}) for c in thegame_candidates(count)]

        return Tune._tune(
            "thegame",
            "strategy",
            candidates_for,
            None,
            counts=counts,
            rungs=neighbour_rungs(legal, strategy),
            chosen=strategy,
            who=lambda count, rung: f"{count} player(s) using the '{rung}' strategy",
            target=target,
            top=top,
            precision=precision,
            max_n=max_n,
            seed=seed,
            jobs=jobs,
            store=store,
            quiet=quiet,
        )
