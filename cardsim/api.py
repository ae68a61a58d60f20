"""The Python API: the command line's analyses as functions that return tables.

Each function has the names and defaults of its command (``cardsim gang heist`` is
:func:`gang.heist <Gang.heist>`), runs through the same code (the commands are thin wrappers
over these functions) and returns a :class:`Result`. Bad input raises
:class:`cardsim.UserError` with the command's one-line message, before anything runs.

Two differences from the command line, both for notebooks:

- ``store=None`` (the default) writes nothing; give a folder (``store="results"``) to keep and
  reuse runs as the command line does.
- lists are Python lists or the command line's strings: ``players=[3, 4]`` or ``"3-4"``.

>>> import cardsim
>>> r = cardsim.gang.heist(players=4, model="history", n=2000, jobs=1, quiet=True)
>>> r.table.select("players", "model", "n").rows()
[(4, 'history', 2000)]
>>> 0 < r.table["success_lo"][0] < r.table["success"][0] < r.table["success_hi"][0] < 1
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim import __version__
from cardsim.errors import COMMAND_LINE, UserError, keyword_message
from cardsim.options import (
    RunOptions,
    announce_compile,
    check_n,
    parse_choice,
    parse_range,
    run_config,
    split_names,
    unique,
)
from cardsim.sims.core.runner import run_id

if TYPE_CHECKING:
    import pandas
    import polars as pl

Players = int | str | Sequence[int]
Names = str | Sequence[str]

__all__ = ["Result", "UserError", "bang", "cashnguns", "gang", "report", "thegame", "tune"]


@dataclass(frozen=True)
class Result:
    """What an analysis produced.

    Attributes:
        table: the summary table the command prints (raw columns: rates with their ``_lo`` /
            ``_hi`` 95% interval), a polars DataFrame.
        episodes: one row per episode played, all configurations stacked (empty for ``tune``
            and ``report``, which keep only their summaries).
        manifest: the command, version, root seed, stop rule, run ids and each run's manifest.
        tables: every table by name (``table`` is the first), as in the ``--json`` document.
    """

    table: pl.DataFrame
    episodes: pl.DataFrame
    manifest: dict[str, Any]
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)

    def to_pandas(self, name: str | None = None) -> pandas.DataFrame:
        """``table`` (or ``tables[name]``) as a pandas DataFrame; needs the ``cardsim[pandas]``
        extra (pandas, and pyarrow, which polars converts through)."""
        try:
            import pandas  # noqa: F401
            import pyarrow  # noqa: F401
        except ImportError:
            raise UserError("to_pandas() needs pandas and pyarrow: "
                            "pip install 'cardsim[pandas]'") from None
        return (self.table if name is None else self.tables[name]).to_pandas()

    def __repr__(self) -> str:
        return (f"Result({self.manifest.get('command')}, runs={len(self.manifest.get('runs', []))}, "
                f"tables={list(self.tables)})\n{self.table}")


class _Runs:
    """The runs of one analysis: runs each config, keeps ids and manifests for the Result."""

    def __init__(self, command: str, n: int, options: RunOptions, planned: int = 1) -> None:
        self.command = command
        self.planned = planned
        self.n = check_n(n)
        self.options = options
        self.ids: list[str] = []
        self.manifests: list[dict[str, Any]] = []

    def episodes(self, game: str, config: Any) -> pl.DataFrame:
        """Play ``config``; a configuration met twice in one analysis is refused, since its
        identical seeded episodes would be counted twice (n doubled, interval too narrow)."""
        result = run_config(game, config, n=self.n, options=self.options, runs=self.planned)
        if run_id(result) in self.ids:
            raise UserError(f"{self.command}: the same configuration was asked twice "
                            f"({run_id(result)}); its episodes would be counted twice")
        self.ids.append(run_id(result))
        self.manifests.append(result.manifest)
        return result.episodes

    def result(self, tables: dict[str, pl.DataFrame], episodes: pl.DataFrame) -> Result:
        manifest = {
            "command": self.command, "version": __version__, "seed": self.options.seed,
            "stop_rule": self.options.stop_rule(self.n), "runs": self.ids,
            "manifests": self.manifests,
        }
        return Result(next(iter(tables.values())), episodes, manifest, tables)


def run_options(
    *, seed: int = 0, jobs: int | None = None, backend: str = "joblib",
    scheduler: str | None = None, store: str | Path | None = None,
    precision: float | None = None, max_n: int | None = None, quiet: bool = False,
) -> RunOptions:
    """The checked runner options of an API call (``store=None``: nothing written)."""
    if store is not None and not isinstance(store, (str, Path)):
        raise UserError(f"--store must be a folder name or None, got {store!r}")
    return RunOptions(seed=seed, jobs=jobs, backend=backend, scheduler=scheduler,
                      store=Path(store) if store is not None else None, precision=precision,
                      max_n=max_n, quiet=quiet).checked()


def _concat(frames: list[pl.DataFrame]) -> pl.DataFrame:
    import polars as pl

    return pl.concat(frames, how="vertical")


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
        players: Players = 4, model: Names = "history", levels: Players = 1,
        challenge: Names = (), specialist: str | None = None, specialist_round: str = "river",
        boost: str = "top", specialist_use: str = "helpful", jack: str = "stay",
        n: int = 100_000, *, seed: int = 0, jobs: int | None = None,
        backend: str = "joblib", scheduler: str | None = None, store: str | Path | None = None,
        precision: float | None = None, max_n: int | None = None, quiet: bool = False,
        options: RunOptions | None = None, **fields: Any,
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

        options = options or run_options(seed=seed, jobs=jobs, backend=backend,
                                         scheduler=scheduler, store=store, precision=precision,
                                         max_n=max_n, quiet=quiet)
        challenges = tuple(split_names(challenge, name="challenge"))
        configs = [
            SIMULATOR.make_config(
                players=count, model=name, levels=level, challenges=challenges,
                specialist=specialist or "", specialist_round=specialist_round, boost=boost,
                specialist_use=specialist_use, jack=jack, **fields,
            )
            for count in parse_range(players)
            for name in parse_choice(model, list(MODEL_IDS), name="model")
            for level in parse_range(levels, name="levels")
        ]
        runs = _Runs("gang heist", n, options, len(configs))
        episodes = _concat([runs.episodes("gang", config) for config in configs])
        summary = heist_summary(episodes)
        rest = [c for c in summary.columns if c not in ("success", "success_lo", "success_hi")]
        return runs.result({"heist_success": summary.select(*rest, "success", "success_lo",
                                                            "success_hi")}, episodes)

    @staticmethod
    def game(
        mode: Names = "basic", players: Players = 4, model: Names = "history",
        levels: Players = 1, deck_order: str = "shuffled", challenge: Names = (),
        specialist_round: str = "river", boost: str = "top", specialist_use: str = "helpful",
        jack: str = "stay", n: int = 20_000, check: bool = False, *, seed: int = 0, jobs: int | None = None, backend: str = "joblib",
        scheduler: str | None = None, store: str | Path | None = None,
        precision: float | None = None, max_n: int | None = None, quiet: bool = False,
        options: RunOptions | None = None, **fields: Any,
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

        options = options or run_options(seed=seed, jobs=jobs, backend=backend,
                                         scheduler=scheduler, store=store, precision=precision,
                                         max_n=max_n, quiet=quiet)
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
                players=count, model=name, levels=level, unit="game", mode=name_mode,
                deck_order=deck_order, challenges=challenges,
                specialist_round=specialist_round, boost=boost, specialist_use=specialist_use,
                jack=jack, **fields,
            )
            for name_mode in modes for count, name, level in groups
        ]
        heist_configs = [
            SIMULATOR.make_config(players=count, model=name, levels=level,
                                  challenges=challenges, specialist_round=specialist_round,
                                  boost=boost, specialist_use=specialist_use, jack=jack,
                                  **fields)
            for count, name, level in groups
        ] if check and "basic" in modes else []
        runs = _Runs("gang game", n, options, len(configs) + len(heist_configs))
        games = _concat([runs.episodes("gang", config) for config in configs])
        tables = {"game_win": game_summary(games), "final_counts": final_counts(games)}
        if heist_configs:
            heists = _concat([runs.episodes("gang", config) for config in heist_configs])
            import polars as pl

            tables["formula_check"] = formula_check(heists, games.filter(pl.col("mode") == "basic"))
        return runs.result(tables, games)

    @staticmethod
    def cards(
        players: Players = 4, model: Names = "bayes", levels: Players = 1, kind: str = "all",
        specialist_round: str = "river", boost: str = "top", n: int = 20_000, *,
        seed: int = 0, jobs: int | None = None, backend: str = "joblib",
        scheduler: str | None = None, store: str | Path | None = None,
        precision: float | None = None, max_n: int | None = None, quiet: bool = False,
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
        options = options or run_options(seed=seed, jobs=jobs, backend=backend,
                                         scheduler=scheduler, store=store, precision=precision,
                                         max_n=max_n, quiet=quiet)
        other_jack = "jack (may discard)"
        chosen: list[tuple[str, str, str, dict[str, Any]]] = [("none", "none", "", {})]
        if kind in ("challenges", "all"):
            chosen += [("challenge", c, "", {"challenges": (c,)}) for c in CHALLENGES]
        if kind in ("specialists", "all"):
            for card in SPECIALISTS:
                if card not in GROUP_DECIDED:
                    chosen.append(("specialist", card, "", {"specialist": card}))
                    continue
                chosen += [("specialist", card, use, {"specialist": card, "specialist_use": use})
                           for use in ("helpful", "always")]
            chosen += [("specialist", other_jack, use,
                        {"specialist": "jack", "jack": "discard", "specialist_use": use})
                       for use in ("helpful", "always")]
        planned = [
            (card_kind, card, use, SIMULATOR.make_config(
                players=count, model=name, levels=level,
                specialist_round=specialist_round, boost=boost, **card_fields,
            ))
            for count in parse_range(players)
            for name in parse_choice(model, list(MODEL_IDS), name="model")
            for level in parse_range(levels, name="levels")
            for card_kind, card, use, card_fields in chosen
        ]
        runs = _Runs("gang cards", n, options, len(planned))
        episodes = _concat([
            runs.episodes("gang", config).select("players", "model", "levels", "success")
            .with_columns(pl.int_range(pl.len(), dtype=pl.Int64).alias("deal"),
                          pl.lit(card_kind).alias("kind"), pl.lit(card).alias("card"),
                          pl.lit(use).alias("use"))
            for card_kind, card, use, config in planned
        ])
        summaries = {**CARD_SUMMARIES, "none": "no card",
                     other_jack: "jack read so that the holder may discard the Jack itself"}
        effects = card_effects(episodes).with_columns(
            pl.col("card").replace_strict(summaries).alias("rule")
        )
        return runs.result({"card_effects": effects}, episodes)

    @staticmethod
    def evaluate(strategy: str, players: int | str = 4, n: int = 2_000,
                 against: str = "percentile", *, seed: int = 0,
                 jobs: int | None = None) -> Result:
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
            raise UserError(f"gang evaluate: against must be one of {', '.join(MODEL_IDS)}, "
                            f"got {against!r}")
        n = check_n(n)
        validate_root_seed(seed)
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise UserError(f"--jobs must be at least 1, got {jobs!r}")
        check_methods(load_strategy(strategy), strategy, DECISIONS)
        chunks = -(-n // EVALUATE_CHUNK)
        tasks = [(strategy, count[0], against, chunk_generator(seed, i), EVALUATE_CHUNK,
                  i * EVALUATE_CHUNK) for i in range(chunks)]
        if (jobs or 1) == 1 or chunks == 1:
            parts = [evaluate_chunk(*task) for task in tasks]
        else:
            from joblib import Parallel, delayed

            parts = Parallel(n_jobs=jobs)(delayed(evaluate_chunk)(*task) for task in tasks)
        for part in parts:  # the first failure in heist order, whichever worker met it
            if "error" in part:
                raise StrategyError(**part["error"], traceback_text=part["traceback"])
        user = np.concatenate([part["user"] for part in parts])[:n]
        builtin = np.concatenate([part["builtin"] for part in parts])[:n]
        names = [strategy, against]
        wins = [int(user.sum()), int(builtin.sum())]
        lo, hi = wilson_interval(wins, [n, n])
        table = pl.DataFrame({
            "strategy": names, "players": [count[0]] * 2, "n": [n, n], "successes": wins,
            "success": [w / n for w in wins], "success_lo": lo.tolist(), "success_hi": hi.tolist(),
        })
        diff = paired_difference(user, builtin)
        difference = pl.DataFrame({
            "strategy": [strategy], "against": [against], "players": [count[0]], "n": [n],
            "difference": [diff["difference"]], "difference_lo": [diff["lo"]],
            "difference_hi": [diff["hi"]],
        })
        episodes = pl.DataFrame({"heist": np.arange(1, n + 1), "success": user,
                                 "builtin_success": builtin})
        manifest = {"command": "gang evaluate", "version": __version__, "seed": seed,
                    "strategy": strategy, "against": against, "players": count[0], "n": n,
                    "chunk": EVALUATE_CHUNK, "stop_rule": f"fixed n={n}", "runs": []}
        return Result(table, episodes, manifest,
                      {"evaluate": table, "paired_difference": difference})


class TheGame:
    """The Game: ``run`` (see ``cardsim thegame --help``)."""

    @staticmethod
    def run(
        players: Players = "1-5", strategy: Names = "planner", min_cards: int = 2,
        hand_size: int | None = None, backwards_trick: bool = True, rollouts: int = 0,
        n: int = 10_000, *, seed: int = 0, jobs: int | None = None, backend: str = "joblib",
        scheduler: str | None = None, store: str | Path | None = None,
        precision: float | None = None, max_n: int | None = None, quiet: bool = False,
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

        options = options or run_options(seed=seed, jobs=jobs, backend=backend,
                                         scheduler=scheduler, store=store, precision=precision,
                                         max_n=max_n, quiet=quiet)
        configs = [
            SIMULATOR.make_config(players=count, strategy=name, min_cards=min_cards,
                                  hand_size=hand_size, backwards_trick=backwards_trick,
                                  rollouts=rollouts if name == "search" else 0)
            for count in parse_range(players)
            for name in parse_choice(strategy, list(STRATEGY_NAMES), name="strategy")
        ]
        runs = _Runs("thegame run", n, options, len(configs))
        episodes = _concat([runs.episodes("thegame", config) for config in configs])
        summary = summary_table(episodes)
        checked = anchor_check(summary)
        summary = summary.join(checked.select("players", "strategy", "anchor", "beats_anchor"),
                               on=["players", "strategy"], maintain_order="left")
        return runs.result({"summary": summary,
                            "cards_left_distribution": cards_left_distribution(episodes)},
                           episodes)

    @staticmethod
    def evaluate(
        strategy: str, players: int = 3, n: int = 2_000, against: str = "signals",
        min_cards: int = 2, hand_size: int | None = None, backwards_trick: bool = True, *,
        seed: int = 0, jobs: int | None = None, time_limit: float | None = None,
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
            raise UserError(f"against: unknown built-in strategy {against!r}; choose from: "
                            f"{', '.join(STRATEGY_NAMES)}")
        config = TheGameConfig(players=players, strategy=against, min_cards=min_cards,
                               hand_size=hand_size, backwards_trick=backwards_trick)
        limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not limit > 0:
            raise UserError(f"time_limit: seconds per decision, above 0, not {time_limit!r}")
        workers = RunOptions(jobs=jobs).checked().jobs or (1 if n <= 1_000 else os.cpu_count() or 1)
        path, name = split_spec(strategy)
        check_methods(load_strategy(strategy), strategy, REQUIRED_DECISIONS)
        resolved = f"{path.resolve()}:{name}"  # workers load it wherever they start
        rules = {"min_cards": min_cards, "hand_size": hand_size,
                 "backwards_trick": backwards_trick}
        rows = evaluate_games(resolved, strategy, against, config.players, n, seed, workers,
                              rules, float(limit))
        left = {strategy: rows["user"][:, S_CARDS_LEFT].astype(np.int64),
                against: rows["builtin"][:, S_CARDS_LEFT].astype(np.int64)}
        summary = []
        for who, cards in left.items():
            wins, excellent = int((cards == 0).sum()), int((cards <= 10).sum())
            (win_lo,), (win_hi,) = wilson_interval([wins], [n])
            (exc_lo,), (exc_hi,) = wilson_interval([excellent], [n])
            mean, lo, hi = mean_interval(cards)
            summary.append({"strategy": who, "players": config.players, "n": n,
                            "win": wins / n, "win_lo": float(win_lo), "win_hi": float(win_hi),
                            "excellent": excellent / n, "excellent_lo": float(exc_lo),
                            "excellent_hi": float(exc_hi), "cards_left": mean,
                            "cards_left_lo": lo, "cards_left_hi": hi})
        yours, theirs = left[strategy], left[against]
        paired = []
        for measure, mine, builtin in (("win", yours == 0, theirs == 0),
                                       ("cards_left", yours, theirs)):
            found = paired_difference(mine.astype(np.float64), builtin.astype(np.float64))
            paired.append({"measure": measure, "strategy": strategy, "against": against,
                           "n": int(found["n"]), "difference": found["difference"],
                           "difference_lo": found["lo"], "difference_hi": found["hi"]})
        episodes = pl.DataFrame({
            "deal_seed": rows["deals"], "players": np.full(n, config.players, np.int8),
            "cards_left": yours.astype(np.int8), "won": yours == 0,
            "against_cards_left": theirs.astype(np.int8), "against_won": theirs == 0,
        })
        manifest = {"command": "thegame evaluate", "version": __version__, "seed": seed,
                    "stop_rule": f"fixed n={n:,}", "runs": [], "strategy": strategy,
                    "against": against, "players": config.players, "rules": rules,
                    "time_limit": float(limit)}
        tables = {"evaluate": pl.DataFrame(summary), "paired": pl.DataFrame(paired)}
        return Result(tables["evaluate"], episodes, manifest, tables)


def _bang_counts(players: Players) -> list[int]:
    """Bang!'s player counts, 4-7."""
    counts = parse_range(players)
    if any(c < 4 or c > 7 for c in counts):
        raise UserError(f"bang: players must be 4-7, got {players!r}")
    return counts


class Bang:
    """Bang!: ``run``, ``bots``, ``train``, ``compare`` and ``stress`` (see ``cardsim bang
    --help``)."""

    @staticmethod
    def run(
        players: Players = "4-7", bots: str = "role", n: int = 50_000, max_turns: int = 1000,
        kills: bool = False, *, seed: int = 0, jobs: int | None = None,
        backend: str = "joblib", scheduler: str | None = None, store: str | Path | None = None,
        precision: float | None = None, max_n: int | None = None, quiet: bool = False,
        options: RunOptions | None = None,
    ) -> Result:
        """Games won per side (``sides``), per role (``roles``) and per character
        (``characters``) with 95% intervals, game length (``length``) and, with ``kills``,
        eliminations by role (``eliminations``).

        >>> r = cardsim.bang.run(players=4, n=200, jobs=1, quiet=True)
        >>> int(r.table["successes"].sum()), r.episodes.height
        (200, 200)
        """
        from cardsim.analysis.bang import (
            character_win_table,
            elimination_table,
            length_table,
            role_win_table,
            side_win_table,
        )
        from cardsim.sims.bang.simulator import BangConfig, parse_bots

        options = options or run_options(seed=seed, jobs=jobs, backend=backend,
                                         scheduler=scheduler, store=store, precision=precision,
                                         max_n=max_n, quiet=quiet)
        counts = _bang_counts(players)
        bot_fields = parse_bots(bots)
        configs = [BangConfig(players=count, max_turns=max_turns, **bot_fields)
                   for count in counts]
        runs = _Runs("bang run", n, options, len(configs))
        episodes = _concat([runs.episodes("bang", config) for config in configs])
        tables = {
            "sides": side_win_table(episodes), "roles": role_win_table(episodes),
            "characters": character_win_table(episodes), "length": length_table(episodes),
        }
        if kills:
            tables["eliminations"] = elimination_table(episodes)
        return runs.result(tables, episodes)

    @staticmethod
    def bot_label(bots: str = "role") -> str:
        """How a ``bots`` setting reads in a title: the one bot every role plays, or the
        ``role=bot`` pairs."""
        from cardsim.sims.bang.simulator import parse_bots

        fields = parse_bots(bots)
        if len(fields) == 4 and len(set(fields.values())) == 1:
            return next(iter(fields.values()))
        return ", ".join(f"{k.removesuffix('_bot')}={v}" for k, v in fields.items()) or "role"

    @staticmethod
    def bots() -> pl.DataFrame:
        """The bots that can be seated per role, with how each plays."""
        import polars as pl

        from cardsim.sims.bang.cards import BOT_DESCRIPTIONS

        return pl.DataFrame([{"bot": name, "plays": text} for name, text in BOT_DESCRIPTIONS.items()])

    @staticmethod
    def train(players: Players = "4-7", seed: int = 0, jobs: int | None = None,
              budget: int = 1_200_000, rounds: int = 3, out: str | Path = "results/bang/tuned.json",
              log: Callable[[str], None] | None = None) -> None:
        """Train the ``tuned`` bots by iterated best response and write their parameters to
        ``out`` (entries of other player counts kept); ``log`` hears the progress lines."""
        from cardsim.options import check_output_file, search_jobs
        from cardsim.sims.bang.training import train_and_save

        counts = _bang_counts(players)
        check_output_file(Path(out), what="--out")
        if budget < 10_000 or rounds < 1:
            raise UserError(f"bang: --budget must be >= 10000 and --rounds >= 1, got {budget}, "
                            f"{rounds}")
        workers = search_jobs(jobs)
        for count in counts:
            train_and_save(count, seed, budget, rounds, workers, Path(out),
                           log=log or (lambda line: None))

    @staticmethod
    def ladder(players: Players = "5,7", rungs: Names = "random,role2,tuned2,search", n: int = 2_000,
               seed: int = 0, jobs: int | None = None, params: str | Path | None = None,
               budget: int = 64) -> tuple[pl.DataFrame, str]:
        """Each rung of the bot ladder against the rung below, for every role (as
        :meth:`compare`, paired on the same deals), and the verdict sentence naming every cell
        where a rung does not gain 3 points with its 95% lower bound above 0."""
        import polars as pl

        from cardsim.options import search_jobs
        from cardsim.sims.bang.compare import ladder_rows, ladder_verdict
        from cardsim.sims.core.seeds import validate_root_seed

        counts = _bang_counts(players)
        validate_root_seed(seed)
        rows = ladder_rows(counts, split_names(rungs, name="--rungs"), n, seed, search_jobs(jobs),
                           None if params is None else Path(params), budget)
        return pl.DataFrame(rows), ladder_verdict(rows)

    @staticmethod
    def compare(players: Players = "4-7", bot: str = "tuned", against: str = "role",
                roles: Names = "sheriff,deputy,outlaw,renegade", n: int = 20_000, seed: int = 0,
                jobs: int | None = None, params: str | Path | None = None, budget: int = 64,
                store: str | Path | None = None,
                on_row: Callable[[dict, str | None], None] | None = None) -> pl.DataFrame:
        """Win rate of one seat of each role playing ``bot`` while the others play
        ``against``, the paired baseline on the same deals, and the difference with its 95%
        interval, one row per player count and role (``budget``: rollouts per decision of a
        ``search`` seat). With a ``store`` folder each finished
        row is kept there and reused by the same comparison; ``on_row`` is called with each
        row and its record's id as it is ready."""
        import polars as pl

        from cardsim.options import search_jobs
        from cardsim.sims.bang.compare import compare_rows
        from cardsim.sims.core.seeds import validate_root_seed

        counts = _bang_counts(players)
        validate_root_seed(seed)
        rows = compare_rows(counts, bot, against, split_names(roles, name="--roles"),
                            n, seed, search_jobs(jobs), None if params is None else Path(params),
                            budget, store=None if store is None else Path(store), on_row=on_row)
        return pl.DataFrame(rows)

    @staticmethod
    def stress(players: Players = "5-7", roles: Names = "renegade", against: str = "tuned",
               games: int = 3_000, steps: int = 8, validation: int = 20_000, trials: int = 12,
               sigma: float = 0.1, n: int = 4_000, seed: int = 0,
               jobs: int | None = None) -> dict[str, pl.DataFrame]:
        """Try to overturn the ladder's balance conclusions on the tuned rung: the best
        response of each named role (``best_response``) and the side win rates of randomly
        perturbed tuned tables (``perturbation``); a part with 0 steps or 0 trials is left
        out."""
        import polars as pl

        from cardsim.options import search_jobs
        from cardsim.sims.bang.cards import ROLE_NAMES, roles_for
        from cardsim.sims.bang.stress import best_response, mapper, perturbed_side_rates

        counts = _bang_counts(players)
        wanted = split_names(roles, name="--roles")
        for role in wanted:
            if role not in ROLE_NAMES:
                raise UserError(f"bang: unknown role {role!r}; choose from: {', '.join(ROLE_NAMES)}")
        if against not in ("tuned", "role"):
            raise UserError(f"bang: --against must be tuned or role, got {against!r}")
        if min(games, validation, n) < 2 or min(steps, trials) < 0 or not 0 <= sigma <= 1:
            raise UserError("bang: --games, --validation and --n must be >= 2, --steps and --trials "
                            f">= 0, --sigma in [0, 1]; got {games}, {validation}, {n}, {steps}, "
                            f"{trials}, {sigma}")
        map_calls = mapper(search_jobs(jobs))
        found, shaken = [], []
        for count in counts:
            present = set(roles_for(count))
            for role in wanted:
                if steps and ROLE_NAMES.index(role) in present:
                    found.append(best_response(count, ROLE_NAMES.index(role), against, games, steps,
                                               validation, seed, map_calls))
            if trials:
                shaken.extend(perturbed_side_rates(count, sigma, trials, n, seed, map_calls))
        tables = {}
        if found:
            tables["best_response"] = pl.DataFrame(found)
        if shaken:
            tables["perturbation"] = pl.DataFrame(shaken)
        return tables


def _cashnguns_counts(players: Players) -> list[int]:
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
        (``policies``) and its parameters (``parameters``)."""
        from cardsim.analysis.cashnguns import strategy_space_tables

        named, policies, parameters = strategy_space_tables()
        return {"strategies": named, "policies": policies, "parameters": parameters}

    @staticmethod
    def run(
        players: Players = 5, strategy: Names | None = None, shame: int | None = None,
        n: int = 20_000, *, seed: int = 0, jobs: int | None = None, backend: str = "joblib",
        scheduler: str | None = None, store: str | Path | None = None,
        precision: float | None = None, max_n: int | None = None, quiet: bool = False,
        options: RunOptions | None = None,
    ) -> Result:
        """A table of strategies per player count (one for all, two for focal vs others, or one
        per player): per slot (``slots``) the win probability, mean score, survival, wounds and
        shame, with 95% intervals."""
        import polars as pl

        from cardsim.analysis.cashnguns import per_slot_table
        from cardsim.sims.cashnguns.config import CashNGunsConfig
        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS

        options = options or run_options(seed=seed, jobs=jobs, backend=backend,
                                         scheduler=scheduler, store=store, precision=precision,
                                         max_n=max_n, quiet=quiet)
        specs = tuple(strategy_specs(strategy) or ("calculator", "stubborn"))
        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        configs = [CashNGunsConfig(players=count, strategies=specs, shame_value=shame)
                   for count in parse_range(players)]
        runs = _Runs("cashnguns run", n, options, len(configs))
        tables, frames = [], []
        for config in configs:
            episodes = runs.episodes("cashnguns", config)
            frames.append(episodes)
            table = per_slot_table(config, episodes)
            tables.append(table.select(pl.lit(config.players).alias("players"), pl.all()))
        return runs.result({"slots": pl.concat(tables)}, _concat(frames))
    @staticmethod
    def evaluate(strategy: str, players: int = 4, n: int = 2_000, against: str = "mix", metric: str = "win",
                 shame: int | None = None, *, seat: int = 0, seed: int = 0, jobs: int | None = 1) -> Result:
        """A strategy written in Python (``FILE.py:NAME``, see ``cardsim/sims/cashnguns/strategy.py``)
        in player slot ``seat`` against the shipped mix of the reading (``against="mix"``) or a
        built-in strategy spec, on ``n`` deals each also played with the built-in in the same
        seat: each side's win rate (95% Wilson interval) and mean score (95% interval), and the
        paired difference in ``metric`` with its 95% interval. A bad keyword is a ``UserError``
        naming it; a failing strategy a ``StrategyError`` naming seat, turn and decision.

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
        found = evaluate_strategy(strategy, players=players, n=n, against=against, metric=metric,
                                  shame_value=shame_value, seat=seat, seed=seed, jobs=jobs or 1)
        table = evaluation_table(found)
        manifest = {"command": "cashnguns evaluate", "seed": seed, "details": found}
        return Result(table, pl.DataFrame(), manifest, {"evaluate": table})

    @staticmethod
    def payoff(
        players: Players = 5, strategy: Names | None = None, n: int = 300, metric: str = "win",
        shame: int | None = None, *, seed: int = 0, jobs: int | None = None,
        backend: str = "joblib", scheduler: str | None = None, store: str | Path | None = None,
        precision: float | None = None, max_n: int | None = None, quiet: bool = False,
        options: RunOptions | None = None, on_profile=None,
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
        options = options or run_options(seed=seed, jobs=jobs, backend=backend,
                                         scheduler=scheduler, store=store, precision=precision,
                                         max_n=max_n, quiet=quiet)
        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        names = unique(strategy_specs(strategy), name="strategy") or list(NAMED_STRATEGIES)
        counts = parse_range(players)
        for count in counts:
            CashNGunsConfig(players=count, strategies=tuple(names[:1]), shame_value=shame)
        check_n(n)
        runner_options = {"precision": options.precision, "max_n": options.max_n,
                          "backend": options.backend, "scheduler": options.scheduler}
        announce_compile("cashnguns", options.quiet)
        tables: dict[str, pl.DataFrame] = {}
        pooled = []
        equilibria: dict[str, dict[str, Any]] = {}
        runs: list[str] = []
        for count in counts:
            profiles = profile_payoffs(
                names, count, n=n, seed=options.seed, shame_value=shame, store=options.store,
                jobs=choose_jobs("cashnguns", n, options,
                                 runs=math.comb(len(names) + count - 1, count)),
                on_profile=on_profile(count) if on_profile else None,
                runner_options=runner_options)
            matrix = payoff_matrix(profiles, names, count)
            game = symmetric_game(profiles, names, count, metric)
            equilibrium = symmetric_equilibrium(game, seed=options.seed)
            tables[f"matrix_{count}p"] = matrix
            tables[f"equilibrium_{count}p"] = equilibrium_table(equilibrium, game)
            tables[f"best_responses_{count}p"] = best_responses(matrix, metric)
            pooled.append(profiles.select(pl.lit(count).alias("players"), pl.all()))
            runs.extend(profiles["run"].unique(maintain_order=True).to_list())
            equilibria[f"{count}p"] = {
                "value": equilibrium.value, "regret": equilibrium.regret,
                "best_deviation": equilibrium.best_deviation,
                "profiles": profiles["profile"].n_unique(),
                "summary": (f"{count} players, metric {metric}, {_games(profiles)} per profile, "
                            f"{profiles['profile'].n_unique():,} profiles: equilibrium value "
                            f"{equilibrium.value:.4g}, regret {equilibrium.regret:.3g} "
                            f"(best deviation: {equilibrium.best_deviation})"),
            }
        manifest = {"command": "cashnguns payoff", "version": __version__, "seed": options.seed,
                    "stop_rule": options.stop_rule(n), "runs": list(dict.fromkeys(runs)),
                    "metric": metric,
                    "strategies": names, "equilibria": equilibria}
        return Result(tables[f"matrix_{counts[0]}p"], _concat(pooled), manifest, tables)


    @staticmethod
    def stage(players: Players = 5, guns: int = 2, loot: str = "20k,10k,10k,5k,5k",
              shame: int | None = None, wound_cost: int = 10_000,
              opponent_hand: str | Sequence[int] = "5,2,1") -> pl.DataFrame:
        """One-round payoffs (bullet x stand/lie down) of a player aimed at by ``guns`` guns,
        by exact enumeration (exact only for round one with fixed aims and nobody else lying
        down); a ``players`` column when more than one count is asked."""
        import polars as pl

        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS, HAND_COUNTS
        from cardsim.sims.cashnguns.stage import parse_loot, stage_game

        try:
            hand = tuple(int(x) for x in (opponent_hand.split(",") if isinstance(opponent_hand, str)
                                          else opponent_hand))
        except ValueError:
            raise UserError(f"--opponent-hand: three counts like 5,2,1, got {opponent_hand!r}") from None
        if len(hand) != 3 or any(h < 0 or h > full for h, full in zip(hand, HAND_COUNTS)):
            raise UserError(f"--opponent-hand: three counts within 5,2,1, got {opponent_hand!r}")
        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        counts = parse_range(players)
        tables = [stage_game(count, guns, parse_loot(loot), shame_value=shame,
                             wound_cost=wound_cost, opponent_hand=hand) for count in counts]
        if len(counts) == 1:
            return tables[0]
        return pl.concat([t.select(pl.lit(c).alias("players"), pl.all())
                          for c, t in zip(counts, tables)])

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
                    raise UserError(f"--start library: no shipped library for {players} players, "
                                    f"--metric {metric} --shame {shame}")
                specs += [item["spec"] for item in entry["library"]]
            else:
                specs.append(given if given in NAMED_STRATEGIES else parse_strategy(given).spec())
        return tuple(dict.fromkeys(specs))

    @staticmethod
    def discover(players: Players = 5, metric: str = "win", shame: int | None = None,
                 budget: int = 200, rounds: int = 20, local: int | None = None,
                 start: Names | None = None, stop_checks: int = 2, seed: int = 0,
                 jobs: int | None = None, store: str | Path | None = None, sweep: bool = True,
                 on_round: Callable[[dict], None] | None = None,
                 on_start: Callable[[Any], None] | None = None,
                 on_done: Callable[[dict], None] | None = None) -> list[dict]:
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
            DiscoverSettings(players=count, metric=metric, shame_value=shame, seed=seed, budget=budget,
                             rounds=rounds, local=local, stop_checks=stop_checks, sweep=sweep,
                             **({"start": CashNGuns.start_library(start, count, metric, shame)}
                                if start else {}))
            for count in parse_range(players)]
        for settings in every_settings:  # every count checked before any is run
            settings.check()
        workers = search_jobs(jobs)
        documents = []
        for settings in every_settings:
            if on_start is not None:
                on_start(settings)
            documents.append(discover_document(discover(
                settings, jobs=workers, store=None if store is None else Path(store),
                on_round=on_round)))
            if on_done is not None:
                on_done(documents[-1])
        return documents

    @staticmethod
    def check(players: Players = "4-6", metric: str = "win", shame: int | None = None,
              budget: int = 200, games: int = 100_000, local: int | None = None, seed: int = 0,
              libraries: str | Path | None = None, record: bool = False, sweep: bool = True,
              jobs: int | None = None) -> list[dict]:
        """Try each shipped mix from outside: a fresh best-response search against the mix as
        shipped and (``sweep``) every mix member with each of the 168 card orders and opponent
        reading; the best reply's gain on ``games`` fresh paired games, one row per player
        count (gain and its 95% bounds in the payoff's unit: win probability or dollars). With
        ``record``, each check is written into the libraries file with its entry."""
        from cardsim.analysis.cashnguns import (
            DEFAULT_LOCAL,
            METRICS,
            OutsideCheck,
            check_command_line,
            check_equilibrium,
            load_libraries,
            record_outside_check,
        )
        from cardsim.options import check_output_file, search_jobs
        from cardsim.sims.cashnguns import SHIPPED_LIBRARIES
        from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS

        if metric not in METRICS:
            raise UserError(f"--metric must be one of: {', '.join(METRICS)}, got {metric!r}")
        shame = DEFAULT_SHAME_DOLLARS if shame is None else shame
        counts = _cashnguns_counts(players)
        check = OutsideCheck(budget=budget, validation_games=games, seed=seed,
                             local=DEFAULT_LOCAL if local is None else local, sweep=sweep)
        check.check()
        path = Path(libraries) if libraries is not None else SHIPPED_LIBRARIES
        shipped = load_libraries(path)
        if record:  # the file is rewritten after the checks: its folder must take it before any is run
            check_output_file(path, what="check --record", suffixes=(".json",))
        missing = [count for count in counts if (count, metric, shame) not in shipped]
        if missing:
            raise UserError(f"check: no library for {', '.join(map(str, missing))} players, "
                            f"--metric {metric} --shame {shame} in {path}")
        workers = search_jobs(jobs)
        rows = []
        for count in counts:
            entry = shipped[(count, metric, shame)]
            result = check_equilibrium(entry, check, jobs=workers)
            if record:
                record_outside_check(path, result, check_command_line(count, metric, shame, check))
            rows.append({"players": count, "entry": entry, **result})
        return rows

    @staticmethod
    def libraries(players: Players = "4-6", store: str | Path = "results", out: str | Path | None = None,
                  records: Sequence[str | Path] = ()) -> tuple[dict, list]:
        """Write the strategy libraries file (default: the shipped one) from the stored discover
        runs in ``store`` (or the discover ``records`` named) of every reading at ``players``;
        returns (the document, the readings that kept their earlier entry)."""
        from cardsim.analysis.cashnguns import export_libraries
        from cardsim.options import check_output_file
        from cardsim.sims.cashnguns import SHIPPED_LIBRARIES

        counts = _cashnguns_counts(players)
        target = check_output_file(Path(out) if out is not None else SHIPPED_LIBRARIES,
                                   what="libraries --out", suffixes=(".json",))
        return export_libraries(Path(store), counts, target, records=[Path(r) for r in records])


def discover_document(document: dict) -> dict:
    """A discover record as the API and ``--json`` give it: without the internal profile
    table; on top, the reported round's
    (:func:`~cardsim.analysis.cashnguns.reported_round`) number, exploitability and
    equilibrium."""
    from cardsim.analysis.cashnguns import METHOD_VERSION, reported_round

    reported = reported_round(document)
    return {"method": METHOD_VERSION, "settings": document["settings"], "converged": document["converged"],
            "strategies": {name: spec for spec, name in document["names"].items()},
            "rounds": document["rounds"], "reported_round": reported["round"],
            "exploitability": reported["exploitability"], "exploitability_hi": reported["exploitability_hi"],
            "equilibrium": reported["equilibrium"]}
def evaluation_table(found: dict) -> pl.DataFrame:
    """One row per side of a Cash'n Guns evaluation (the user's strategy, the built-in in the
    same seat) and the paired difference, with 95% intervals."""
    import polars as pl

    rows = [{"side": side, "strategy": found["strategy"] if side == "user" else found["against"],
             "n": found["n"], **found[side]} for side in ("user", "builtin")]
    difference = found["difference"]
    table = pl.DataFrame(rows)
    return table.with_columns(pl.lit(found["metric"]).alias("metric"),
                              pl.lit(difference["value"]).alias("difference"),
                              pl.lit(difference["lo"]).alias("difference_lo"),
                              pl.lit(difference["hi"]).alias("difference_hi"))


def _games(profiles: pl.DataFrame) -> str:
    """'n=300 games', or the range of games the profiles played under a precision stop
    (each stops on its own, never below ``n``)."""
    low, high = int(profiles["games"].min()), int(profiles["games"].max())
    return f"n={low:,} games" if low == high else f"n={low:,}-{high:,} games"


def strategy_specs(value: Names | None) -> list[str]:
    """Cash'n Guns strategy specs from 'a,b:key=v,key=v,c' or a list of such strings: a comma
    piece with '=' but no ':' continues the previous spec's parameters."""
    specs: list[str] = []
    parts = [value] if isinstance(value, str) else value or ()
    if not isinstance(parts, (list, tuple)) or not all(isinstance(p, str) for p in parts):
        raise UserError(f"--strategy: expected 'a,b', a list of strategy specs or None; "
                        f"got {value!r}")
    for part in parts:
        for piece in (p.strip() for p in part.split(",")):
            if not piece:
                continue
            if specs and "=" in piece and ":" not in piece:
                specs[-1] += f",{piece}"
            else:
                specs.append(piece)
    return specs


def _landed_simulator(game: str) -> Any:
    """The game's simulator, or a one-line error while it has not landed."""
    from cardsim.sims.registry import get_simulator

    try:
        return get_simulator(game)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"cardsim.sims.{game}"):
            raise UserError(f"'cardsim tune {game}' needs the {game} simulator, "
                            "which is not available yet") from None
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
    def _tune(game: str, column: str, candidates_for: Callable[[int, str], list[Any]],
              refine_for: Callable[[int, str], list[Any]] | None, *, counts: list[int],
              rungs: list[str], chosen: str, who: Callable[[int, str], str], target: float, top: int,
              precision: float | None, max_n: int | None, seed: int, jobs: int | None,
              store: str | Path | None, quiet: bool) -> Result:
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
        options = run_options(
            seed=seed, jobs=jobs, store=store, quiet=quiet,
            precision=DEFAULT.tune_precision if precision is None else precision,
            max_n=DEFAULT.tune_max_n if max_n is None else max_n)
        simulator = _landed_simulator(game)
        total = sum(len(candidates_for(count, rung)) for count in counts for rung in rungs)
        announce_compile(game, quiet)
        ids: list[str] = []

        with Tracker(total, enabled=not quiet, label="tune") as tracker:
            def done(_label: str, result: Any) -> None:
                tracker.finish()
                ids.append(run_id(result))

            results = tune_rungs(
                simulator, candidates_for, simulator.headline, refine_for=refine_for,
                players=counts, rungs=rungs, chosen=chosen, target=target, seed=options.seed,
                jobs=choose_jobs(game, options.max_n, options, runs=total), store=options.store,
                precision=options.precision, max_n=options.max_n,
                on_start=tracker.start, on_chunk=tracker.chunk, on_done=done,
                on_refine=tracker.extend)
        answers = answers_table(results, column, who, target)
        manifest = {"command": f"tune {game}", "version": __version__, "seed": options.seed,
                    "stop_rule": f"precision {options.precision} (max-n {options.max_n:,})",
                    "runs": list(dict.fromkeys(ids)), "target": target, column: chosen,
                    "rungs": rungs, "players": counts}
        return Result(answers, pl.DataFrame(), manifest, {
            "answers": answers, "closest": closest_table(results, column, top),
            "ladder": ladder_table(results, column)})

    @staticmethod
    def gang(players: Players = 4, model: str = "history", levels: int = 1, target: float = 0.5,
             combinations: bool = True, top: int = 8, precision: float | None = None,
             max_n: int | None = None, *, seed: int = 0, jobs: int | None = None,
             store: str | Path | None = None, quiet: bool = False) -> Result:
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
            "gang", "model", lambda count, rung: with_group(rulebook, count, rung),
            lambda count, rung: with_group(finer, count, rung), counts=counts,
            rungs=neighbour_rungs(list(MODEL_DESCRIPTIONS), model), chosen=model,
            who=lambda count, rung: f"{count} players playing like the '{rung}' model",
            target=target, top=top, precision=precision, max_n=max_n, seed=seed, jobs=jobs,
            store=store, quiet=quiet)

    @staticmethod
    def thegame(players: Players = 3, strategy: str = "signals", target: float = 0.3,
                top: int = 8, precision: float | None = None, max_n: int | None = None, *,
                seed: int = 0, jobs: int | None = None, store: str | Path | None = None,
                quiet: bool = False) -> Result:
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
            "thegame", "strategy", candidates_for, None, counts=counts,
            rungs=neighbour_rungs(legal, strategy), chosen=strategy,
            who=lambda count, rung: f"{count} player(s) using the '{rung}' strategy",
            target=target, top=top, precision=precision, max_n=max_n, seed=seed, jobs=jobs,
            store=store, quiet=quiet)


def report(game: Names = (), quick: bool = False, out: str | Path = "reports", *,
           seed: int = 0, jobs: int | None = None, store: str | Path | None = "results",
           verbose: bool = False, quiet: bool = False) -> Result:
    """Run the default experiment suite (``quick``: small samples) and write
    ``<out>/cardsim-report.html`` and ``.pdf``, showing one progress bar over all experiments
    (done and time elapsed) on stderr (``verbose``: also a line per experiment; ``quiet``: neither).
    Unlike the analyses, the report keeps its runs in ``store`` by default (as ``cardsim
    report`` does), so a second call reuses them and only re-renders; ``store=None`` writes no
    runs. ``jobs`` defaults to every core.

    ``table`` (``experiments``): one row per experiment with its game, key, n, stop rule and
    run id; ``files``: the HTML and PDF paths (and the PDF's pages). ``manifest`` adds
    ``html``, ``pdf``, ``pdf_pages``, ``findings`` (the headline figures as JSON, with n and
    95% intervals: :mod:`cardsim.reports.findings`), the ``games`` included, the ``skipped``
    notes and the ``seconds`` taken.

    >>> r = cardsim.report(game="gang", quick=True, out="reports")  # doctest: +SKIP
    >>> r.manifest["html"]  # doctest: +SKIP
    'reports/cardsim-report.html'
    """
    import os
    import time

    import polars as pl

    from cardsim.options import check_output_folder
    from cardsim.reports.build import all_games, write_report
    from cardsim.reports.suite import PROFILES

    out = check_output_folder(Path(out), what="--out")
    known = all_games()
    games = split_names(game, name="game") or list(known)
    unknown = [g for g in games if g not in known]
    if unknown:
        raise UserError(f"unknown game {', '.join(unknown)}; choose from: {', '.join(known)}")
    options = run_options(seed=seed, jobs=jobs, store=store, quiet=quiet)
    profile = PROFILES["quick" if quick else "default"]
    outcomes: list[dict[str, Any]] = []
    started = time.perf_counter()
    written = write_report(
        games, profile=profile, seed=options.seed, jobs=options.jobs or os.cpu_count() or 1,
        store=options.store, out_dir=out, progress=not quiet, verbose=verbose and not quiet,
        on_done=lambda o: outcomes.append({"game": o.game, "experiment": o.experiment.key,
                                           "n": o.n, "stop_rule": o.stop_rule,
                                           "run": o.run_id}))
    experiments = pl.DataFrame(outcomes, schema={"game": pl.String, "experiment": pl.String,
                                                 "n": pl.Int64, "stop_rule": pl.String,
                                                 "run": pl.String})
    files = pl.DataFrame({"file": ["html", "pdf"], "path": [str(written.html), str(written.pdf)],
                          "pages": [None, written.pdf_pages]})
    manifest = {"command": "report", "version": __version__, "seed": options.seed,
                "stop_rule": profile.describe(),
                "runs": [r for r in dict.fromkeys(experiments["run"]) if r != "(memory)"],
                "html": str(written.html), "pdf": str(written.pdf),
                "pdf_pages": written.pdf_pages, "findings": str(written.findings), "games": list(written.games),
                "skipped": list(written.skipped),
                "seconds": round(time.perf_counter() - started, 1)}
    return Result(experiments, pl.DataFrame(), manifest,
                  {"experiments": experiments, "files": files})


def _keywords(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` raising its UserErrors with keyword names (``max_n``), not the command
    line's flags (``--max-n``), unless a command-line command called it."""
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except UserError as exc:
            if COMMAND_LINE.get():
                raise
            raise type(exc)(keyword_message(str(exc))) from None

    return call


def _valid_names() -> dict[str, dict[str, Sequence[str]]]:
    """The names each API function accepts, per keyword, read from the games' own tables (so
    the docstrings list what the code accepts)."""
    from cardsim.sims.bang.cards import BOT_NAMES, ROLE_NAMES
    from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES
    from cardsim.sims.gang.cards import CHALLENGES, SPECIALISTS
    from cardsim.sims.gang.models import MODEL_IDS
    from cardsim.sims.thegame.config import STRATEGY_NAMES

    gang_cards: dict[str, Sequence[str]] = {"model": [*MODEL_IDS, "all"], "challenge": list(CHALLENGES),
                  "specialist": list(SPECIALISTS)}
    return {
        "Gang.heist": gang_cards,
        "Gang.game": {"mode": [*GANG_MODES, "pro", "all"], **gang_cards},
        "Gang.cards": {"model": gang_cards["model"],
                       "kind": ["challenges", "specialists", "all"]},
        "TheGame.run": {"strategy": [*STRATEGY_NAMES, "all"]},
        "Bang.run": {"bots (one for every seat, or role=bot pairs)": list(BOT_NAMES),
                     "roles (in role=bot pairs)": list(ROLE_NAMES)},
        "CashNGuns.payoff": {"strategy (NAME or NAME:key=value,...)": list(NAMED_STRATEGIES),
                             "metric": ["win", "score"]},
        "Tune.gang": {"model": list(MODEL_IDS)},
        "Tune.thegame": {"strategy": list(STRATEGY_NAMES)},
    }


def _with_names(function: Callable[..., Any], names: dict[str, Sequence[str]]) -> None:
    """Append the valid names to ``function``'s docstring, at its own indentation."""
    doc = function.__doc__ or ""
    lines = doc.expandtabs().splitlines()[1:]
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    pad = " " * indent
    listed = "\n".join(f"{pad}- ``{keyword}``: {', '.join(values)}"
                       for keyword, values in names.items())
    function.__doc__ = f"{doc.rstrip()}\n\n{pad}Valid names:\n\n{listed}\n{pad}"


_VALID_NAMES = _valid_names()
for _owner, _names in ((Gang, ("heist", "game", "cards")), (TheGame, ("run",)), (Bang, ("run",)),
                       (CashNGuns, ("payoff",)), (Tune, ("gang", "thegame"))):
    for _name in _names:
        _function = _owner.__dict__[_name].__func__
        _with_names(_function, _VALID_NAMES[f"{_owner.__name__}.{_name}"])
        setattr(_owner, _name, staticmethod(_keywords(_function)))
report = _keywords(report)

gang = Gang()
thegame = TheGame()
bang = Bang()
cashnguns = CashNGuns()
tune = Tune()
