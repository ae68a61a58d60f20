"""The Game's API: runs and user strategies (``cardsim.thegame``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cardsim import __version__
from cardsim.errors import UserError
from cardsim.options import (
    RunOptions,
    check_n,
    parse_choice,
    parse_range,
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


class TheGame:
    """The Game: ``run`` (see ``cardsim thegame --help``)."""

    @staticmethod
    def run(
        players: Players = "1-5",
        strategy: Names = "planner",
        min_cards: int = 2,
        hand_size: int | None = None,
        backwards_trick: bool = True,
        rollouts: int = 0,
        n: int = 10_000,
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
        """Win rate, excellent rate (<= 10 cards left) and mean cards left with 95% intervals
        per player count and strategy, against the best published win rate (``summary``), and
        the cards-left distribution (``cards_left_distribution``).

        >>> r = cardsim.thegame.run(players=[2, 3], strategy="greedy", n=100, jobs=1, quiet=True)
        >>> r.table.select("players", "strategy", "n").rows()
        [(2, 'greedy', 100), (3, 'greedy', 100)]
        """
        from cardsim.analysis.thegame import anchor_check, cards_left_distribution, summary_table
        from cardsim.sims.thegame.config import STRATEGY_NAMES
        from cardsim.sims.thegame.simulator import SIMULATOR

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
        configs = [
            SIMULATOR.make_config(
                players=count,
                strategy=name,
                min_cards=min_cards,
                hand_size=hand_size,
                backwards_trick=backwards_trick,
                rollouts=rollouts if name == "search" else 0,
            )
            for count in parse_range(players)
            for name in parse_choice(strategy, list(STRATEGY_NAMES), name="strategy")
        ]
        runs = Runs("thegame run", n, options, len(configs))
        episodes = concat_rows([runs.episodes("thegame", config) for config in configs])
        summary = summary_table(episodes)
        checked = anchor_check(summary)
        summary = summary.join(
            checked.select("players", "strategy", "anchor", "beats_anchor"),
            on=["players", "strategy"],
            maintain_order="left",
        )
        return runs.result({"summary": summary, "cards_left_distribution": cards_left_distribution(episodes)}, episodes)

    @staticmethod
    @on_backend
    def evaluate(
        strategy: str,
        players: int = 3,
        n: int = 2_000,
        against: str = "signals",
        min_cards: int = 2,
        hand_size: int | None = None,
        backwards_trick: bool = True,
        *,
        seed: int = 0,
        jobs: int | None = None,
        time_limit: float | None = None,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> Result:
        """Your strategy (``FILE.py:NAME``, see :mod:`cardsim.sims.thegame.strategy`) at every
        seat against the built-in ``against`` on the same ``n`` deals: each side's win rate
        (Wilson 95% interval; the game is the unit, the team wins together), excellent rate and
        mean cards left, and the paired differences (yours minus the built-in's, per deal, 95%
        interval) in ``paired``. The same ``seed`` gives the same numbers whatever ``jobs``;
        nothing is stored. A failing decision raises a one-line ``StrategyError`` naming the
        seat and turn (its ``traceback_text`` holds your traceback).

        >>> r = cardsim.thegame.evaluate("examples/strategies/thegame_greedy.py:Greedy",
        ...                              against="greedy", n=200, jobs=1)  # doctest: +SKIP
        >>> r.tables["paired"]["difference"].to_list()  # doctest: +SKIP
        [0.0, 0.0]
        """
        import os

        import numpy as np
        import polars as pl

        from cardsim.options import RunOptions
        from cardsim.sims.core.seeds import validate_root_seed
        from cardsim.sims.core.user_strategy import (
            DEFAULT_TIME_LIMIT,
            check_methods,
            load_strategy,
            paired_difference,
            split_spec,
        )
        from cardsim.sims.thegame.config import STRATEGY_NAMES, TheGameConfig
        from cardsim.sims.thegame.state import S_CARDS_LEFT
        from cardsim.sims.thegame.strategy import REQUIRED_DECISIONS, evaluate_games
        from cardsim.stats import mean_interval, wilson_interval

        n = check_n(n, name="n")
        seed = validate_root_seed(seed)
        if not isinstance(against, str) or against not in STRATEGY_NAMES:
            raise UserError(f"against: unknown built-in strategy {against!r}; choose from: {', '.join(STRATEGY_NAMES)}")
        config = TheGameConfig(
            players=players, strategy=against, min_cards=min_cards, hand_size=hand_size, backwards_trick=backwards_trick
        )
        limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not limit > 0:
            raise UserError(f"time_limit: seconds per decision, above 0, not {time_limit!r}")
        workers = RunOptions(jobs=jobs).checked().jobs or (1 if n <= 1_000 else os.cpu_count() or 1)
        path, name = split_spec(strategy)
        check_methods(load_strategy(strategy), strategy, REQUIRED_DECISIONS)
        resolved = f"{path.resolve()}:{name}"  # workers load it wherever they start
        rules = {"min_cards": min_cards, "hand_size": hand_size, "backwards_trick": backwards_trick}
        rows = evaluate_games(resolved, strategy, against, config.players, n, seed, workers, rules, float(limit))
        left = {
            strategy: rows["user"][:, S_CARDS_LEFT].astype(np.int64),
            against: rows["builtin"][:, S_CARDS_LEFT].astype(np.int64),
        }
        summary = []
        for who, cards in left.items():
            wins, excellent = int((cards == 0).sum()), int((cards <= 10).sum())
            (win_lo,), (win_hi,) = wilson_interval([wins], [n])
            (exc_lo,), (exc_hi,) = wilson_interval([excellent], [n])
            mean, lo, hi = mean_interval(cards)
            summary.append(
                {
                    "strategy": who,
                    "players": config.players,
                    "n": n,
                    "win": wins / n,
                    "win_lo": float(win_lo),
                    "win_hi": float(win_hi),
                    "excellent": excellent / n,
                    "excellent_lo": float(exc_lo),
                    "excellent_hi": float(exc_hi),
                    "cards_left": mean,
                    "cards_left_lo": lo,
                    "cards_left_hi": hi,
                }
            )
        yours, theirs = left[strategy], left[against]
        paired = []
        for measure, mine, builtin in (("win", yours == 0, theirs == 0), ("cards_left", yours, theirs)):
            found = paired_difference(mine.astype(np.float64), builtin.astype(np.float64))
            paired.append(
                {
                    "measure": measure,
                    "strategy": strategy,
                    "against": against,
                    "n": int(found["n"]),
                    "difference": found["difference"],
                    "difference_lo": found["lo"],
                    "difference_hi": found["hi"],
                }
            )
        episodes = pl.DataFrame(
            {
                "deal_seed": rows["deals"],
                "players": np.full(n, config.players, np.int8),
                "cards_left": yours.astype(np.int8),
                "won": yours == 0,
                "against_cards_left": theirs.astype(np.int8),
                "against_won": theirs == 0,
            }
        )
        manifest = {
            "command": "thegame evaluate",
            "version": __version__,
            "seed": seed,
            "stop_rule": f"fixed n={n:,}",
            "runs": [],
            "strategy": strategy,
            "against": against,
            "players": config.players,
            "rules": rules,
            "time_limit": float(limit),
        }
        tables = {"evaluate": pl.DataFrame(summary), "paired": pl.DataFrame(paired)}
        return Result(tables["evaluate"], episodes, manifest, tables)

    @staticmethod
    @with_keyword_errors
    @on_backend
    def crossplay(
        entrants: Names,
        players: int = 3,
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
        from cardsim.sims.thegame.strategy import DECISIONS

        return crossplay_result(
            "thegame", entrants, players, n, seed, DECISIONS, jobs=jobs, store=store, on_chunk=on_chunk
        )
