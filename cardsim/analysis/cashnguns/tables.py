"""Cash'n Guns profile tables: every table profile of a strategy list simulated, the payoff
matrix, the symmetric game and its best responses (``cardsim cashnguns payoff``, the report).

All profiles use the same root seed, so they are played on the same deals and random draws
(common random numbers), which makes strategy comparisons sharper.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from cardsim.analysis.equilibrium import (
    Equilibrium,
    SymmetricGame,
    payoff_half_widths,
    table_profiles,
)
from cardsim.errors import Interrupted, UserError
from cardsim.sims.cashnguns.config import CashNGunsConfig
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS
from cardsim.sims.cashnguns.search import DEFAULT_BUDGET, SearchStrategy
from cardsim.sims.cashnguns.simulator import SIMULATOR
from cardsim.sims.cashnguns.strategies import (
    BULLET_POLICIES,
    LIE_POLICIES,
    NAMED_STRATEGIES,
    PARAM_RANGES,
    TARGET_POLICIES,
    Strategy,
)
from cardsim.sims.core.interrupts import (
    start_workers,
    stopped_quietly,
    worker_lost_errors,
    worker_task,
)
from cardsim.sims.core.parallel import current as current_backend
from cardsim.sims.core.runner import run, run_id
from cardsim.stats import Z95, wilson_interval

METRICS = ("win", "score")


def mix_text(equilibrium: dict[str, float]) -> str:
    """A mix in words, largest share first: ``d6 65%, d2 35%``."""
    return ", ".join(f"{name} {share:.0%}" for name, share in sorted(equilibrium.items(), key=lambda item: -item[1]))


def strategy_space_tables() -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The strategy space as three tables: named strategies (policies, spec, description), the
    policies of each part with their meaning, and each parameter with its default, range and
    meaning (from :class:`Strategy`'s documentation)."""
    named = pl.DataFrame(
        [
            {
                "strategy": name,
                "bullet": s.bullet,
                "target": s.target,
                "lie": s.lie,
                "spec": s.spec(),
                "description": description,
            }
            for name, (description, s) in NAMED_STRATEGIES.items()
        ]
        + [
            {
                "strategy": "search",
                "bullet": "search",
                "target": "search",
                "lie": "search",
                "spec": SearchStrategy().spec(),
                "description": SearchStrategy().describe() + "; options budget=N (worlds per decision, default "
                f"{DEFAULT_BUDGET}), metric=win|score, population=mix|library|presets|FILE.py joined with +",
            }
        ]
    )
    policies = pl.DataFrame(
        [
            {"part": part, "policy": name, "meaning": meaning}
            for part, table in (("bullet", BULLET_POLICIES), ("target", TARGET_POLICIES), ("lie", LIE_POLICIES))
            for name, (_, meaning) in table.items()
        ]
    )
    default = Strategy()
    parameters = pl.DataFrame(
        [
            {
                "parameter": name,
                "default": f"{getattr(default, name):g}",
                "range": f"{low:g} to {high:g}",
                "meaning": PARAMETER_MEANINGS[name],
            }
            for name, (low, high) in PARAM_RANGES.items()
        ]
        + [
            {
                "parameter": "order",
                "default": default.order,
                "range": "any order of CCCCCBBX",
                "meaning": PARAMETER_MEANINGS["order"],
            }
        ]
    )
    return named, policies, parameters


#: One line per parameter for ``cardsim cashnguns strategies``.
PARAMETER_MEANINGS = {
    "pot": "bigpot fires when the loot >= pot x the round's expected loot (round one: $53,125)",
    "safe": "safe fires when the target's counted chance of holding a loaded card <= safe",
    "guns": "guns lies down at >= guns guns; risk never lies down with fewer",
    "lie_p": "random lies down with this probability",
    "hit": "chance each gun wounds when not counting cards (3/8 = a full hand)",
    "wound": "dollars threshold puts on a wound (x (wounds + 1); lethal: my money + 3x)",
    "risk": "risk's base tolerated chance of a wound",
    "greed": "risk tolerates greed x (pot/expected - 1) more",
    "care": "risk tolerates care less per wound I carry",
    "endgame": "risk tolerates endgame x round/7 more (round 0-7)",
    "count": "1: each aimer's loaded chance from its revealed cards; 0: use hit",
    "read": "1: an opponent who has shown only Clicks is read as playing Clicks first",
    "order": "schedule's order of the 8 cards: C Click, B Bang!, X Bang!Bang!Bang! (168 orders)",
}


def _profile_rows(
    strategies: Sequence[str],
    players: int,
    batch: list[tuple[int, ...]],
    n: int,
    seed: int,
    shame_value: int,
    store: Path | None,
    runner_options: dict | None = None,
) -> list[dict]:
    """Raw pooled sums for each strategy of each profile in ``batch`` (runs in workers).
    ``runner_options``: further :func:`~cardsim.sims.core.runner.run` keywords (precision,
    max_n, backend, scheduler)."""
    rows = []
    chunk = min(n, SIMULATOR.chunk_size)
    for profile in batch:
        specs = tuple(strategies[i] for i in profile)
        config = CashNGunsConfig(players=players, strategies=specs, shame_value=shame_value)
        result = run(SIMULATOR, config, n=n, seed=seed, store=store, jobs=1, chunk_size=chunk, **(runner_options or {}))
        for index in sorted(set(profile)):
            slots = [slot for slot, s in enumerate(profile) if s == index]
            rows.append(
                {
                    "profile": "+".join(specs),
                    "strategy": strategies[index],
                    **pooled_seats(result.episodes, slots),
                    "run": run_id(result),
                }
            )
    return rows


def pooled_seats(episodes: pl.DataFrame, slots: Sequence[int]) -> dict[str, Any]:
    """The raw sums of one strategy's ``slots`` over the games of ``episodes``, with the game
    as the unit: its seats in one game share the deal and the table (their outcomes are
    correlated), so each game gives one observation, the mean over its seats (the share of
    them that won, their mean score). ``n`` = games, ``seats`` = games x count."""
    wins = episodes.select([f"win_{slot}" for slot in slots]).to_numpy().astype(np.float64)
    scores = episodes.select([f"score_{slot}" for slot in slots]).to_numpy().astype(np.float64)
    share, score = wins.mean(axis=1), scores.mean(axis=1)
    return {
        "count": len(slots),
        "games": episodes.height,
        "n": episodes.height,
        "seats": episodes.height * len(slots),
        "wins": int(wins.sum()),
        "share_sum": float(share.sum()),
        "score_sum": float(score.sum()),
        "score_sq": float((score**2).sum()),
    }


def pooled_intervals(frame: pl.DataFrame) -> pl.DataFrame:
    """``p_win`` (wins per seat) and ``mean_score`` per row of :func:`pooled_seats` sums, with
    95% intervals over games: the Wilson interval of the per-game share of seats that won
    (n = games; valid for a share in [0, 1], exact Wilson with one seat) and the normal
    interval of the per-game mean score."""
    games = frame["n"].to_numpy().astype(np.float64)
    share = frame["share_sum"].to_numpy()
    lo, hi = wilson_interval(share, games)
    mean = frame["score_sum"].to_numpy() / games
    variance = np.maximum(frame["score_sq"].to_numpy() / games - mean**2, 0.0) * games / np.maximum(games - 1, 1)
    half = Z95 * np.sqrt(variance / games)
    return frame.with_columns(
        pl.Series("p_win", share / games),
        pl.Series("win_lo", lo),
        pl.Series("win_hi", hi),
        pl.Series("mean_score", mean),
        pl.Series("score_lo", mean - half),
        pl.Series("score_hi", mean + half),
    ).drop("share_sum", "score_sum", "score_sq")


def profile_payoffs(
    strategies: Sequence[str],
    players: int,
    *,
    n: int,
    seed: int = 0,
    shame_value: int = DEFAULT_SHAME_DOLLARS,
    store: Path | None = None,
    jobs: int = 1,
    on_profile: Callable[[int, int], None] | None = None,
    runner_options: dict | None = None,
) -> pl.DataFrame:
    """Simulate every profile ``n`` games and pool each strategy's seats.

    Profiles are shared among ``jobs`` worker processes in batches; the table is the same for
    any ``jobs`` (each profile is its own run from the same seed, rows in profile order).

    Returns one row per (profile, strategy in it): ``profile`` (strategy names joined by
    ``+``), ``strategy``, ``count`` (its seats), ``games``, ``n`` (= games, the unit of the
    intervals), ``seats`` (count x games), ``wins``, ``run`` (the profile's run id), ``p_win`` (wins per seat) with its 95%
    interval ``win_lo``/``win_hi``, ``mean_score`` with its 95% interval
    ``score_lo``/``score_hi`` (dollars). Seats of one strategy in the same game are correlated,
    so each game is one observation (see :func:`pooled_seats`, :func:`pooled_intervals`).
    ``runner_options`` passes
    ``precision``/``max_n`` (each profile then stops on its own precision; ``games`` says how
    many it played) or ``backend="dask"``/``scheduler`` (profiles then run one after another,
    each on the cluster) to every profile's run.
    """
    if len(set(strategies)) != len(strategies) or not strategies:
        raise UserError("payoff: give distinct strategies")
    if jobs < 1:
        raise UserError(f"jobs must be at least 1, got {jobs}")
    profiles = table_profiles(len(strategies), players)
    if (runner_options or {}).get("backend") == "dask" or current_backend().on_cluster:
        jobs = 1  # profiles one after another, each run's chunks on the cluster
    size = 1 if jobs == 1 else 40
    batches = [profiles[i : i + size] for i in range(0, len(profiles), size)]
    arguments = (tuple(strategies), players)
    if jobs == 1:
        results = (_profile_rows(*arguments, batch, n, seed, shame_value, store, runner_options) for batch in batches)
    else:
        from joblib import Parallel, delayed

        start_workers(jobs)  # a Ctrl-C while they start: no traceback from them
        results = stopped_quietly(
            Parallel(n_jobs=jobs, return_as="generator")(
                delayed(worker_task)(_profile_rows, *arguments, batch, n, seed, shame_value, store, runner_options)
                for batch in batches
            )
        )
    rows: list[dict] = []
    done = 0
    try:
        for batch, batch_rows in zip(batches, results):
            rows.extend(batch_rows)
            done += len(batch)
            if on_profile is not None:
                on_profile(done, len(profiles))
    except (KeyboardInterrupt, *worker_lost_errors()) as exc:  # type: ignore[misc]
        stopped = (
            "interrupted"
            if isinstance(exc, KeyboardInterrupt)
            else f"interrupted: a worker process was stopped ({type(exc).__name__})"
        )
        kept = (
            f"their runs and finished chunks kept in {store}; run the same command to resume"
            if store is not None
            else "nothing kept (no results store)"
        )
        raise Interrupted(f"{stopped}: {done} of {len(profiles)} profile(s) finished, {kept}") from None
    return pooled_intervals(pl.DataFrame(rows))


def payoff_matrix(profiles: pl.DataFrame, strategies: Sequence[str], players: int) -> pl.DataFrame:
    """Focal strategy A against (players - 1) opponents all playing B, for every pair.

    One row per (focal, others) with ``n`` (games), ``wins``, ``p_win`` (95% Wilson interval)
    and ``mean_score`` (95% interval). On the diagonal every seat plays the focal strategy:
    each game is one observation of its seats' mean (see :func:`pooled_seats`).
    """
    rows = []
    for focal in strategies:
        for others in strategies:
            specs = sorted([strategies.index(focal)] + [strategies.index(others)] * (players - 1))
            name = "+".join(strategies[i] for i in specs)
            row = profiles.filter((pl.col("profile") == name) & (pl.col("strategy") == focal))
            if row.height != 1:
                raise UserError(f"payoff: profile {name} missing from the profile table")
            rows.append(row.with_columns(pl.lit(focal).alias("focal"), pl.lit(others).alias("others")))
    return pl.concat(rows).select(
        "focal", "others", "n", "wins", "p_win", "win_lo", "win_hi", "mean_score", "score_lo", "score_hi"
    )


def symmetric_game(
    profiles: pl.DataFrame, strategies: Sequence[str], players: int, metric: str = "win"
) -> SymmetricGame:
    """The symmetric game from a profile table (``metric`` 'win': p_win, 'score': mean score)."""
    if metric not in METRICS:
        raise UserError(f"metric must be one of: {', '.join(METRICS)}")
    column, lo, hi = ("p_win", "win_lo", "win_hi") if metric == "win" else ("mean_score", "score_lo", "score_hi")
    count = len(strategies)
    multisets = table_profiles(count, players - 1)
    others = np.zeros((len(multisets), count), np.int64)
    for row, multiset in enumerate(multisets):
        for index in multiset:
            others[row, index] += 1
    lookup = {tuple(row): j for j, row in enumerate(others.tolist())}
    payoff = np.full((count, len(multisets)), np.nan)
    variance = np.full((count, len(multisets)), np.nan)
    position = {name: i for i, name in enumerate(strategies)}
    for profile, strategy, value, low, high in profiles.select("profile", "strategy", column, lo, hi).iter_rows():
        counts = np.zeros(count, np.int64)
        for name in profile.split("+"):
            counts[position[name]] += 1
        s = position[strategy]
        counts[s] -= 1
        payoff[s, lookup[tuple(counts.tolist())]] = value
        variance[s, lookup[tuple(counts.tolist())]] = ((high - low) / (2 * Z95)) ** 2
    if np.isnan(payoff).any():
        raise UserError("payoff: the profile table does not cover every profile")
    factorial = np.array([math.factorial(k) for k in range(players)], np.float64)
    coefficients = math.factorial(players - 1) / factorial[others].prod(axis=1)
    return SymmetricGame(tuple(strategies), players, others, payoff, coefficients, variance, metric)


def best_responses(matrix: pl.DataFrame, metric: str = "win") -> pl.DataFrame:
    """For each strategy B played by all others: the focal strategy with the highest payoff,
    its payoff with interval, and B's own payoff against itself (what deviating gains)."""
    column, lo, hi = ("p_win", "win_lo", "win_hi") if metric == "win" else ("mean_score", "score_lo", "score_hi")
    rows = []
    for others in matrix["others"].unique(maintain_order=True):
        block = matrix.filter(pl.col("others") == others)
        best = block.sort(column, descending=True).row(0, named=True)
        itself = block.filter(pl.col("focal") == others).row(0, named=True)
        rows.append(
            {
                "others": others,
                "best_response": best["focal"],
                "payoff": best[column],
                "lo": best[lo],
                "hi": best[hi],
                "payoff_of_others": itself[column],
                "gain": best[column] - itself[column],
            }
        )
    return pl.DataFrame(rows)


def equilibrium_table(equilibrium: Equilibrium, game: SymmetricGame) -> pl.DataFrame:
    """The equilibrium as rows: strategy, its share in the mix, its payoff against the mix with
    a 95% interval (``lo``, ``hi``), best share first then best payoff."""
    half = payoff_half_widths(game, equilibrium.mix)
    lo, hi = equilibrium.payoffs - half, equilibrium.payoffs + half
    if game.metric == "win":
        lo, hi = np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)
    return pl.DataFrame(
        {
            "strategy": list(game.strategies),
            "share": equilibrium.mix,
            "payoff_vs_mix": equilibrium.payoffs,
            "lo": lo,
            "hi": hi,
        }
    ).sort(["share", "payoff_vs_mix"], descending=True)


def per_slot_table(config: CashNGunsConfig, episodes: pl.DataFrame) -> pl.DataFrame:
    """Per player slot: strategy, win probability (Wilson 95%), mean score (95%), survival."""
    n = episodes.height
    rows = []
    for slot, spec in enumerate(config.slot_specs()):
        wins = int(episodes[f"win_{slot}"].sum())
        lo, hi = wilson_interval(wins, n)
        score = episodes[f"score_{slot}"].cast(pl.Float64)
        half = Z95 * float(score.std() or 0.0) / np.sqrt(n)
        rows.append(
            {
                "slot": slot,
                "strategy": spec,
                "n": n,
                "wins": wins,
                "p_win": wins / n,
                "lo": float(lo),
                "hi": float(hi),
                "mean_score": float(score.mean()),
                "score_lo": float(score.mean()) - half,
                "score_hi": float(score.mean()) + half,
                "survived": float(episodes[f"alive_{slot}"].mean()),
                "wounds": float(episodes[f"wounds_{slot}"].cast(pl.Float64).mean()),
                "shame": float(episodes[f"shame_{slot}"].cast(pl.Float64).mean()),
            }
        )
    return pl.DataFrame(rows)
