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

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim import __version__
from cardsim.errors import UserError
from cardsim.options import (
    RunOptions,
    announce_compile,
    check_n,
    parse_choice,
    parse_range,
    run_config,
    run_id,
    split_names,
    unique,
)

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
    return RunOptions(seed=seed, jobs=jobs, backend=backend, scheduler=scheduler,
                      store=Path(store) if store is not None else None, precision=precision,
                      max_n=max_n, quiet=quiet).checked()


def _concat(frames: list[pl.DataFrame]) -> pl.DataFrame:
    import polars as pl

    return pl.concat(frames, how="vertical")


def _gang_modes(value: Names) -> list[str]:
    aliases = {"pro": "professional"}
    names = ["all"] if value == "all" else [aliases.get(m, m) for m in split_names(value, name="mode")]
    return parse_choice(names, ["basic", "advanced", "professional", "master"], name="mode")


class Gang:
    """The Gang: ``heist``, ``game`` and ``cards`` (see ``cardsim gang --help``)."""

    @staticmethod
    def heist(
        players: Players = 4, model: Names = "history", levels: Players = 1,
        challenge: Names = (), specialist: str | None = None, specialist_round: str = "river",
        boost: str = "top", n: int = 100_000, *, seed: int = 0, jobs: int | None = None,
        backend: str = "joblib", scheduler: str | None = None, store: str | Path | None = None,
        precision: float | None = None, max_n: int | None = None, quiet: bool = False,
        options: RunOptions | None = None, **fields: Any,
    ) -> Result:
        """Per-heist success with its 95% Wilson interval per players x model x levels.

        ``table``: players, model, levels, n, successes, order_ok, random_exact, success
        (+ ``_lo``/``_hi``). ``fields``: further config fields for every heist (see
        ``cardsim.sims.gang.config``).

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
                **fields,
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
        specialist_round: str = "river", boost: str = "top", n: int = 20_000,
        check: bool = False, *, seed: int = 0, jobs: int | None = None, backend: str = "joblib",
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
                specialist_round=specialist_round, boost=boost, **fields,
            )
            for name_mode in modes for count, name, level in groups
        ]
        heist_configs = [
            SIMULATOR.make_config(players=count, model=name, levels=level,
                                  challenges=challenges, specialist_round=specialist_round,
                                  boost=boost, **fields)
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
        95% interval), hardest first; every card sees the same deals (same seed).

        ``kind``: "challenges", "specialists" or "all".

        >>> r = cardsim.gang.cards(model="history", kind="specialists", n=200, jobs=1,
        ...                        quiet=True)
        >>> r.table.filter(r.table["card"] == "none")["difference"].to_list()
        [0.0]
        """
        import polars as pl

        from cardsim.analysis.gang import card_effects
        from cardsim.sims.gang.cards import CARD_SUMMARIES, CHALLENGES, SPECIALISTS
        from cardsim.sims.gang.models import MODEL_IDS
        from cardsim.sims.gang.simulator import SIMULATOR

        if kind not in ("challenges", "specialists", "all"):
            raise UserError(f"--kind must be challenges, specialists or all (got {kind!r})")
        options = options or run_options(seed=seed, jobs=jobs, backend=backend,
                                         scheduler=scheduler, store=store, precision=precision,
                                         max_n=max_n, quiet=quiet)
        chosen: list[tuple[str, str]] = [("none", "none")]
        if kind in ("challenges", "all"):
            chosen += [("challenge", c) for c in CHALLENGES]
        if kind in ("specialists", "all"):
            chosen += [("specialist", s) for s in SPECIALISTS]
        planned = [
            (card_kind, card, SIMULATOR.make_config(
                players=count, model=name, levels=level,
                challenges=(card,) if card_kind == "challenge" else (),
                specialist=card if card_kind == "specialist" else "",
                specialist_round=specialist_round, boost=boost,
            ))
            for count in parse_range(players)
            for name in parse_choice(model, list(MODEL_IDS), name="model")
            for level in parse_range(levels, name="levels")
            for card_kind, card in chosen
        ]
        runs = _Runs("gang cards", n, options, len(planned))
        episodes = _concat([
            runs.episodes("gang", config).select("players", "model", "levels", "success")
            .with_columns(pl.lit(card_kind).alias("kind"), pl.lit(card).alias("card"))
            for card_kind, card, config in planned
        ])
        effects = card_effects(episodes).with_columns(
            pl.col("card").replace_strict({**CARD_SUMMARIES, "none": "no card"}).alias("rule")
        )
        return runs.result({"card_effects": effects}, episodes)


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


class Bang:
    """Bang!: ``run`` (see ``cardsim bang --help``)."""

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
        counts = parse_range(players)
        if any(c < 4 or c > 7 for c in counts):
            raise UserError(f"bang: players must be 4-7, got {players!r}")
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


class CashNGuns:
    """Cash'n Guns: ``payoff`` (see ``cardsim cashnguns --help``)."""

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
                    "stop_rule": options.stop_rule(n), "runs": [], "metric": metric,
                    "strategies": names, "equilibria": equilibria}
        return Result(tables[f"matrix_{counts[0]}p"], _concat(pooled), manifest, tables)


def _games(profiles: pl.DataFrame) -> str:
    """'n=300 games', or the range of games the profiles played under a precision stop
    (each stops on its own, never below ``n``)."""
    low, high = int(profiles["games"].min()), int(profiles["games"].max())
    return f"n={low:,} games" if low == high else f"n={low:,}-{high:,} games"


def strategy_specs(value: Names | None) -> list[str]:
    """Cash'n Guns strategy specs from 'a,b:key=v,key=v,c' or a list of such strings: a comma
    piece with '=' but no ':' continues the previous spec's parameters."""
    specs: list[str] = []
    for part in ([value] if isinstance(value, str) else list(value or ())):
        for piece in (p.strip() for p in part.split(",")):
            if not piece:
                continue
            if specs and "=" in piece and ":" not in piece:
                specs[-1] += f",{piece}"
            else:
                specs.append(piece)
    return specs


class Tune:
    """Difficulty tuning: ``gang`` and ``thegame`` (see ``cardsim tune --help``)."""

    @staticmethod
    def _tune(game: str, candidates, target: float, precision: float | None,
              max_n: int | None, options: RunOptions, who: str) -> Result:
        import polars as pl

        from cardsim.analysis.tuning import (
            check_target,
            evaluate_candidates,
            ladder,
            rank_candidates,
        )
        from cardsim.reports.suite import DEFAULT
        from cardsim.sims.registry import get_simulator

        target = check_target(target)
        precision = DEFAULT.tune_precision if precision is None else precision
        max_n = DEFAULT.tune_max_n if max_n is None else max_n
        if not 0 < precision < 0.5:
            raise UserError(f"--precision must be between 0 and 0.5, got {precision}")
        if max_n < 1:
            raise UserError(f"--max-n must be at least 1, got {max_n}")
        simulator = get_simulator(game)
        announce_compile(game, options.quiet)
        table = evaluate_candidates(
            simulator, candidates, simulator.headline, seed=options.seed,
            jobs=options.jobs or 1, store=options.store, precision=precision, max_n=max_n)
        ranked = rank_candidates(table, target)
        manifest = {"command": f"tune {game}", "version": __version__, "seed": options.seed,
                    "stop_rule": f"precision {precision} (max-n {max_n:,})", "runs": [],
                    "target": target, "who": who}
        return Result(ranked, pl.DataFrame(), manifest,
                      {"closest": ranked, "ladder": ladder(table, target)})

    @staticmethod
    def gang(players: int = 4, model: str = "history", levels: int = 1, target: float = 0.5,
             precision: float | None = None, max_n: int | None = None, *, seed: int = 0,
             jobs: int | None = None, store: str | Path | None = None,
             quiet: bool = False) -> Result:
        """The Gang: mode and card configurations ranked by closeness of their game win rate
        to ``target`` (``closest``), and an easy/medium/hard ``ladder``. ``precision`` and
        ``max_n`` default to the report's tuning profile.

        >>> r = cardsim.tune.gang(players=4, model="history", target=0.5)  # doctest: +SKIP
        >>> r.table.select("rank", "label", "p", "lo", "hi").head(3)  # doctest: +SKIP
        """
        from cardsim.analysis.tuning import Candidate, gang_candidates
        from cardsim.sims.registry import get_simulator

        options = run_options(seed=seed, jobs=jobs, store=store, quiet=quiet)
        base = {"players": players, "model": model, "levels": levels}
        get_simulator("gang").make_config(**base)
        candidates = [Candidate(c.label, {**base, **c.config}) for c in gang_candidates()]
        return Tune._tune("gang", candidates, target, precision, max_n, options,
                          f"{players} players playing like the '{model}' model")

    @staticmethod
    def thegame(players: int = 3, strategy: str = "signals", target: float = 0.3,
                precision: float | None = None, max_n: int | None = None, *, seed: int = 0,
                jobs: int | None = None, store: str | Path | None = None,
                quiet: bool = False) -> Result:
        """The Game: minimum cards per turn, hand size and backwards trick ranked by closeness
        of the win rate to ``target`` (``closest``), and an easy/medium/hard ``ladder``.

        >>> r = cardsim.tune.thegame(players=2, strategy="greedy", target=0.05,
        ...                          precision=0.3, max_n=60, jobs=1, quiet=True)
        >>> r.tables["closest"]["rank"].to_list()[:3]
        [1, 2, 3]
        """
        from cardsim.analysis.tuning import Candidate, thegame_candidates
        from cardsim.sims.registry import get_simulator

        options = run_options(seed=seed, jobs=jobs, store=store, quiet=quiet)
        base = {"players": players, "strategy": strategy}
        get_simulator("thegame").make_config(**base)
        candidates = [Candidate(c.label, {**base, **c.config})
                      for c in thegame_candidates(players)]
        return Tune._tune("thegame", candidates, target, precision, max_n, options,
                          f"{players} player(s) using the '{strategy}' strategy")


def report(game: Names = (), quick: bool = False, out: str | Path = "reports", *,
           seed: int = 0, jobs: int | None = None, store: str | Path | None = "results",
           quiet: bool = True) -> Path:
    """Run the default experiment suite (``quick``: small samples) and write
    ``<out>/cardsim-report.html`` and ``.pdf``; returns the HTML path. Unlike the analyses,
    the report keeps its runs in ``store`` by default (as ``cardsim report`` does), so a
    second call reuses them; ``store=None`` writes no runs.

    >>> cardsim.report(game="gang", quick=True, out="reports")  # doctest: +SKIP
    PosixPath('reports/cardsim-report.html')
    """
    import os

    from cardsim.options import check_output_folder
    from cardsim.reports.build import ALL_GAMES, write_report
    from cardsim.reports.suite import PROFILES

    out = check_output_folder(Path(out), what="--out")
    games = split_names(game, name="game") or list(ALL_GAMES)
    unknown = [g for g in games if g not in ALL_GAMES]
    if unknown:
        raise UserError(f"unknown game {', '.join(unknown)}; choose from: {', '.join(ALL_GAMES)}")
    options = run_options(seed=seed, jobs=jobs, store=store, quiet=quiet)
    written = write_report(games, profile=PROFILES["quick" if quick else "default"], seed=seed,
                           jobs=options.jobs or os.cpu_count() or 1, store=options.store,
                           out_dir=out, progress=not quiet)
    return written.html


gang = Gang()
thegame = TheGame()
bang = Bang()
cashnguns = CashNGuns()
tune = Tune()
