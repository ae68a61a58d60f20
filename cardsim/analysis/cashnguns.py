"""Cash'n Guns meta-game: profile payoffs, payoff matrices, a symmetric equilibrium, best responses.

The meta-game: each of ``players`` players picks a strategy from a list; a player's payoff is
its win probability (or mean score) over simulated games. Because every seat is shuffled and
strategies are anonymous, the game is symmetric: a player's payoff depends on its strategy and
on the multiset of strategies of the others. :func:`profile_payoffs` simulates every multiset
of strategies at the table (every "profile"); from it come the focal-vs-others matrix
(:func:`payoff_matrix`), the payoff of each strategy against a mixed population
(:func:`expected_payoffs`), a symmetric mixed Nash equilibrium found by replicator dynamics
with its regret (:func:`symmetric_equilibrium`) and best responses (:func:`best_responses`).

All profiles use the same root seed, so they are played on the same deals and random draws
(common random numbers), which makes strategy comparisons sharper.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from cardsim.errors import Interrupted, UserError
from cardsim.sims.cashnguns import SHIPPED_LIBRARIES
from cardsim.sims.cashnguns.config import CashNGunsConfig
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS, UNIT_DOLLARS
from cardsim.sims.cashnguns.simulator import SIMULATOR, play_lineups, strategy_rows
from cardsim.sims.cashnguns.strategies import (
    BULLET_POLICIES,
    LIE_POLICIES,
    NAMED_STRATEGIES,
    PARAM_RANGES,
    TARGET_POLICIES,
    Strategy,
    parse_strategy,
)
from cardsim.sims.core.interrupts import start_workers, worker_lost_errors, worker_task
from cardsim.sims.core.runner import run, run_id
from cardsim.sims.core.store import atomic_write_bytes
from cardsim.stats import Z95, wilson_interval

METRICS = ("win", "score")


def strategy_space_tables() -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The strategy space as three tables: named strategies (policies, spec, description), the
    policies of each part with their meaning, and each parameter with its default, range and
    meaning (from :class:`Strategy`'s documentation)."""
    named = pl.DataFrame([
        {"strategy": name, "bullet": s.bullet, "target": s.target, "lie": s.lie,
         "spec": s.spec(), "description": description}
        for name, (description, s) in NAMED_STRATEGIES.items()
    ])
    policies = pl.DataFrame([
        {"part": part, "policy": name, "meaning": meaning}
        for part, table in (("bullet", BULLET_POLICIES), ("target", TARGET_POLICIES), ("lie", LIE_POLICIES))
        for name, (_, meaning) in table.items()
    ])
    default = Strategy()
    parameters = pl.DataFrame([
        {"parameter": name, "default": f"{getattr(default, name):g}", "range": f"{low:g} to {high:g}",
         "meaning": PARAMETER_MEANINGS[name]}
        for name, (low, high) in PARAM_RANGES.items()
    ])
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
}


def table_profiles(strategy_count: int, players: int) -> list[tuple[int, ...]]:
    """Every multiset of ``players`` strategy indices, sorted (combinations with repetition)."""
    return list(itertools.combinations_with_replacement(range(strategy_count), players))


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
        result = run(SIMULATOR, config, n=n, seed=seed, store=store, jobs=1, chunk_size=chunk,
                     **(runner_options or {}))
        for index in sorted(set(profile)):
            slots = [slot for slot, s in enumerate(profile) if s == index]
            rows.append({"profile": "+".join(specs), "strategy": strategies[index],
                         **pooled_seats(result.episodes, slots), "run": run_id(result)})
    return rows


def pooled_seats(episodes: pl.DataFrame, slots: Sequence[int]) -> dict[str, Any]:
    """The raw sums of one strategy's ``slots`` over the games of ``episodes``, with the game
    as the unit: its seats in one game share the deal and the table (their outcomes are
    correlated), so each game gives one observation, the mean over its seats (the share of
    them that won, their mean score). ``n`` = games, ``seats`` = games x count."""
    wins = episodes.select([f"win_{slot}" for slot in slots]).to_numpy().astype(np.float64)
    scores = episodes.select([f"score_{slot}" for slot in slots]).to_numpy().astype(np.float64)
    share, score = wins.mean(axis=1), scores.mean(axis=1)
    return {"count": len(slots), "games": episodes.height, "n": episodes.height,
            "seats": episodes.height * len(slots), "wins": int(wins.sum()),
            "share_sum": float(share.sum()), "score_sum": float(score.sum()),
            "score_sq": float((score**2).sum())}


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
    if (runner_options or {}).get("backend") == "dask":
        jobs = 1
    size = 1 if jobs == 1 else 40
    batches = [profiles[i : i + size] for i in range(0, len(profiles), size)]
    arguments = (tuple(strategies), players)
    if jobs == 1:
        results = (_profile_rows(*arguments, batch, n, seed, shame_value, store, runner_options)
                   for batch in batches)
    else:
        from joblib import Parallel, delayed

        start_workers(jobs)  # a Ctrl-C while they start: no traceback from them
        results = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(worker_task)(_profile_rows, *arguments, batch, n, seed, shame_value, store,
                                 runner_options)
            for batch in batches
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
        stopped = ("interrupted" if isinstance(exc, KeyboardInterrupt)
                   else f"interrupted: a worker process was stopped ({type(exc).__name__})")
        kept = (f"their runs and finished chunks kept in {store}; run the same command to resume"
                if store is not None else "nothing kept (no results store)")
        raise Interrupted(f"{stopped}: {done} of {len(profiles)} profile(s) finished, "
                          f"{kept}") from None
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


@dataclass(frozen=True)
class SymmetricGame:
    """Payoffs of the symmetric meta-game.

    Attributes:
        strategies: strategy names, index order.
        players: table size.
        others: (m, K) counts of each strategy among the other players, one row per multiset.
        payoff: (K, m) payoff of a player using strategy s when the others are ``others[j]``.
        coefficients: multinomial coefficients (players-1)! / prod(others!) of each row.
        variance: (K, m) sampling variance of each payoff estimate, from its 95% interval
            (half-width / 1.96, squared).
        metric: 'win' (payoffs are probabilities) or 'score' (mean dollars).
    """

    strategies: tuple[str, ...]
    players: int
    others: np.ndarray
    payoff: np.ndarray
    coefficients: np.ndarray
    variance: np.ndarray
    metric: str


def symmetric_game(profiles: pl.DataFrame, strategies: Sequence[str], players: int, metric: str = "win") -> SymmetricGame:
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


def others_probabilities(game: SymmetricGame, mix: np.ndarray) -> np.ndarray:
    """Probability of each multiset of the others' strategies when each draws from ``mix``."""
    log_mix = np.log(np.maximum(mix, 1e-300))  # a zero share with a positive count gives ~0
    return game.coefficients * np.exp(game.others @ log_mix)


def expected_payoffs(game: SymmetricGame, mix: np.ndarray) -> np.ndarray:
    """Payoff of each pure strategy when every other player draws a strategy from ``mix``."""
    return game.payoff @ others_probabilities(game, mix)


def payoff_half_widths(game: SymmetricGame, mix: np.ndarray) -> np.ndarray:
    """95% half-width of each strategy's estimated payoff against ``mix``, treating profiles as
    independent (variance = sum of probability^2 x variance of each profile payoff). Profiles
    share their random draws (common random numbers), so this band is an approximation."""
    probabilities = others_probabilities(game, mix)
    return Z95 * np.sqrt(game.variance @ probabilities**2)


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric mixed strategy profile and how far it is from a Nash equilibrium.

    Attributes:
        mix: probability of each strategy.
        payoffs: payoff of each pure strategy against the mix.
        value: the mix's own payoff (mix . payoffs).
        regret: the most any single strategy gains against it (0 at an exact equilibrium).
        best_deviation: the strategy attaining that gain.
    """

    mix: np.ndarray
    payoffs: np.ndarray
    value: float
    regret: float
    best_deviation: str


def evaluate_mix(game: SymmetricGame, mix: np.ndarray) -> Equilibrium:
    """Payoffs, value and regret of a symmetric mix."""
    payoffs = expected_payoffs(game, mix)
    value = float(mix @ payoffs)
    best = int(np.argmax(payoffs))
    regret = max(0.0, float(payoffs[best] - value))  # >= 0 up to rounding
    return Equilibrium(mix, payoffs, value, regret, game.strategies[best])


def replicator(game: SymmetricGame, start: np.ndarray, iterations: int = 2_000) -> np.ndarray:
    """Discrete replicator dynamics x <- x * f / (x . f) with payoffs shifted to be positive."""
    low, high = float(game.payoff.min()), float(game.payoff.max())
    scale = high - low if high > low else 1.0
    mix = start / start.sum()
    for _ in range(iterations):
        fitness = (expected_payoffs(game, mix) - low) / scale + 0.05
        mix = mix * fitness
        mix /= mix.sum()
    return mix


def hedge_average(game: SymmetricGame, start: np.ndarray, iterations: int = 2_000) -> np.ndarray:
    """The mean mix of multiplicative-weights (Hedge) self-play, step 4/sqrt(iterations) on
    payoffs scaled to 0-1. Where the replicator path circles an interior equilibrium without
    settling (rock-paper-scissors-like tables), this mean approaches it."""
    low, high = float(game.payoff.min()), float(game.payoff.max())
    scale = high - low if high > low else 1.0
    step = 4.0 / math.sqrt(iterations)
    weights = np.log(start / start.sum())
    total = np.zeros_like(start, dtype=np.float64)
    for _ in range(iterations):
        mix = np.exp(weights - weights.max())
        mix /= mix.sum()
        total += mix
        weights = weights + step * (expected_payoffs(game, mix) - low) / scale
    return total / total.sum()


def _newton_on_support(game: SymmetricGame, mix: np.ndarray, support: np.ndarray, steps: int) -> np.ndarray:
    """Newton's method on the indifference equations of ``support`` (every strategy of it earns
    the same against the mix, shares summing to one) from ``mix``. A step that would take a
    share below zero goes only to the edge of the simplex, and that strategy leaves the support.
    Returns the last mix reached."""
    mix = np.where(np.isin(np.arange(len(mix)), support), mix, 0.0)
    mix = mix / mix.sum()
    scale = float(np.abs(game.payoff).max()) or 1.0
    for _ in range(steps):
        support = np.flatnonzero(mix > 0)
        if support.size < 2:
            break

        # called only within this iteration, so the loop variables it reads are current
        def equations(free: np.ndarray) -> np.ndarray:
            full = np.zeros(len(mix))  # noqa: B023
            full[support] = np.append(free, 1.0 - free.sum())  # noqa: B023
            payoffs = expected_payoffs(game, full)[support]  # noqa: B023
            return payoffs[1:] - payoffs[0]

        free = mix[support][:-1]
        residual = equations(free)
        if np.abs(residual).max() < 1e-12 * scale:
            break
        jacobian = np.empty((free.size, free.size))
        for j in range(free.size):
            shifted = free.copy()
            shifted[j] += 1e-7
            jacobian[:, j] = (equations(shifted) - residual) / 1e-7
        try:
            step = np.linalg.solve(jacobian, -residual)
        except np.linalg.LinAlgError:
            break
        shares, change = mix[support], np.append(step, -step.sum())
        falling = change < 0
        reach = float(np.min(-shares[falling] / change[falling])) if falling.any() else math.inf
        fraction = min(1.0, reach)
        shares = shares + fraction * change
        if fraction < 1.0:  # a share reached zero: it leaves the support
            shares[np.argmin(shares)] = 0.0
        mix = np.zeros(len(mix))
        mix[support] = np.maximum(shares, 0.0)
        mix /= mix.sum()
    return mix


def polish_support(game: SymmetricGame, mix: np.ndarray, steps: int = 40) -> np.ndarray:
    """A mix near ``mix`` solving its support's indifference equations (a symmetric equilibrium
    with that support solves them; payoffs are polynomials of degree players - 1 in the shares):
    Newton's method on the support of shares > 1e-4 (:func:`_newton_on_support`); then, while a
    strategy outside the support earns more than the mix, it enters with a 2% share and Newton
    runs again (at most once per strategy). The caller keeps the result only if its regret is
    lower. Replicator paths that circle an interior equilibrium settle here."""
    current = mix / mix.sum()
    for _ in range(len(mix)):
        current = _newton_on_support(game, current, np.flatnonzero(current > 1e-4), steps)
        payoffs = expected_payoffs(game, current)
        value = float(current @ payoffs)
        outside = np.where(current > 0, -np.inf, payoffs)
        entrant = int(np.argmax(outside))
        if not outside[entrant] > value + 1e-9 * (float(np.abs(game.payoff).max()) or 1.0):
            break
        current = 0.98 * current
        current[entrant] += 0.02
    return current


def symmetric_equilibrium(game: SymmetricGame, *, starts: int = 4, iterations: int = 2_000, seed: int = 0) -> Equilibrium:
    """A symmetric mixed equilibrium: replicator dynamics from the uniform mix, from near each
    pure strategy and from random mixes; Hedge path means (:func:`hedge_average`) from the
    uniform and the random mixes; also every pure strategy; then the three of least regret are
    polished on their support (:func:`polish_support`); the lowest regret wins (the first of
    equals, the unpolished before the polished). Tiny shares (< 1e-6) are dropped and the mix renormalised before reporting."""
    count = len(game.strategies)
    rng = np.random.default_rng(seed)
    candidates = [np.eye(count)[s] for s in range(count)]
    uniform = [np.full(count, 1.0 / count)]
    near_pure = [np.full(count, 0.2 / count) + 0.8 * np.eye(count)[s] for s in range(count)]
    random_starts = [rng.dirichlet(np.ones(count)) for _ in range(starts)]
    candidates += [replicator(game, start, iterations) for start in uniform + near_pure + random_starts]
    candidates += [hedge_average(game, start, iterations) for start in uniform + random_starts]
    candidates = [np.where(mix < 1e-6, 0.0, mix) for mix in candidates]
    evaluated = [evaluate_mix(game, mix / mix.sum()) for mix in candidates]
    polished = [evaluate_mix(game, polish_support(game, e.mix)) for e in sorted(evaluated, key=lambda e: e.regret)[:3]]
    return min(evaluated + polished, key=lambda e: e.regret)


def best_responses(matrix: pl.DataFrame, metric: str = "win") -> pl.DataFrame:
    """For each strategy B played by all others: the focal strategy with the highest payoff,
    its payoff with interval, and B's own payoff against itself (what deviating gains)."""
    column, lo, hi = ("p_win", "win_lo", "win_hi") if metric == "win" else ("mean_score", "score_lo", "score_hi")
    rows = []
    for others in matrix["others"].unique(maintain_order=True):
        block = matrix.filter(pl.col("others") == others)
        best = block.sort(column, descending=True).row(0, named=True)
        itself = block.filter(pl.col("focal") == others).row(0, named=True)
        rows.append({
            "others": others,
            "best_response": best["focal"],
            "payoff": best[column],
            "lo": best[lo],
            "hi": best[hi],
            "payoff_of_others": itself[column],
            "gain": best[column] - itself[column],
        })
    return pl.DataFrame(rows)


def equilibrium_table(equilibrium: Equilibrium, game: SymmetricGame) -> pl.DataFrame:
    """The equilibrium as rows: strategy, its share in the mix, its payoff against the mix with
    a 95% interval (``lo``, ``hi``), best share first then best payoff."""
    half = payoff_half_widths(game, equilibrium.mix)
    lo, hi = equilibrium.payoffs - half, equilibrium.payoffs + half
    if game.metric == "win":
        lo, hi = np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)
    return pl.DataFrame({
        "strategy": list(game.strategies),
        "share": equilibrium.mix,
        "payoff_vs_mix": equilibrium.payoffs,
        "lo": lo,
        "hi": hi,
    }).sort(["share", "payoff_vs_mix"], descending=True)


# --- discover: a double-oracle / PSRO loop over the strategy space ------------------------------

#: discover's default stop tolerance per metric: three quarters of a point of win probability
#: (a margin under the issue's one-point target), $750 of score.
DEFAULT_TOLERANCE = {"win": 0.0075, "score": 750.0}
#: Local-search candidates per best-response search (discover/5: one-move neighbours, compound
#: moves and a hill-climb, :func:`local_search_steps`), on top of ``budget``.
DEFAULT_LOCAL = 200

#: Games simulated per chunk; chunks are fixed by game index, so results never depend on --jobs.
DISCOVER_CHUNK = 20_000


@dataclass(frozen=True)
class DiscoverSettings:
    """Everything that fixes the numbers of a ``discover`` run (stored with its rounds).

    Attributes:
        players, metric, shame_value, seed: the game, the payoff ('win' probability or mean
            'score' in dollars) and the root seed.
        budget: best-response candidates per search; rounds: PSRO rounds at most.
        start: specs of the starting library.
        library_cap: most strategies in the library after a reply joins (profiles grow as
            cap ** players / players!, and a table spread too thin is too noisy to solve).
            Beyond it, strategies with a share below ``prune_share`` leave first (oldest
            first), then the smallest; never the reply. Under the cap nothing leaves, so the
            double oracle keeps its memory instead of cycling.
        prune_share: the negligible share (see library_cap). A strategy that left stays in
            the record (``names``, ``dropped``) and a candidate of later searches; one that
            comes back keeps its name and is flagged ``returned``.
        table_games, profile_min, table_passes: games added to the profile table per round
            (spread by how likely each profile is under the current mix), games every new
            profile gets first, and the passes they are played in (each weighted by the
            equilibrium of the previous pass).
        search_games: games per candidate in the first search stage (the best tenth get 4x
            that, the best three 15x); validation_games: fresh paired games measuring the
            chosen reply's gain.
        stop_checks: independent searches per round besides discover's own (streams of
            ``STOP_CHECK``). The loop stops only when no search gains significantly and every
            95% upper bound is within ``tolerance`` (0: ``DEFAULT_TOLERANCE``).
        local: local-search candidates per search on top of ``budget``
            (:func:`local_search_steps`; 0: off).
    """

    players: int = 5
    metric: str = "win"
    shame_value: int = DEFAULT_SHAME_DOLLARS
    seed: int = 0
    budget: int = 200
    rounds: int = 20
    start: tuple[str, ...] = ("stubborn", "coward", "bluffer", "sniper")
    library_cap: int = 8
    prune_share: float = 0.02
    table_games: int = 200_000
    profile_min: int = 32
    table_passes: int = 4
    search_games: int = 1_000
    validation_games: int = 100_000
    stop_checks: int = 2
    tolerance: float = 0.0
    local: int = DEFAULT_LOCAL

    def stop_tolerance(self) -> float:
        """The bound every stop check must be within (``tolerance``, or the metric's default)."""
        return self.tolerance or DEFAULT_TOLERANCE[self.metric]

    def check(self) -> None:
        """One-line errors for settings out of range."""
        if self.metric not in METRICS:
            raise UserError(f"--metric must be one of: {', '.join(METRICS)}, got {self.metric!r}")
        if not 4 <= self.players <= 6:
            raise UserError(f"cashnguns: players must be 4-6 (seed rules), got {self.players}")
        for name in ("budget", "rounds", "table_games", "table_passes", "search_games", "validation_games",
                     "library_cap"):
            if getattr(self, name) < 1:
                raise UserError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        if self.stop_checks < 0:
            raise UserError(f"--stop-checks must be at least 0, got {self.stop_checks}")
        if self.local < 0:
            raise UserError(f"--local must be at least 0, got {self.local}")
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise UserError(f"--tolerance must be a number >= 0, got {self.tolerance}")
        if not (math.isfinite(self.prune_share) and 0 <= self.prune_share < 1):
            raise UserError(f"--prune-share must be a number from 0 to below 1, got {self.prune_share}")
        specs = [parse_strategy(spec).spec() for spec in self.start]
        if not specs:
            raise UserError("--start needs at least one strategy")
        repeated = sorted({spec for spec in specs if specs.count(spec) > 1})
        if repeated:
            raise UserError(f"--start names the same strategy twice: {repeated[0]}")


class CashNGunsArena:
    """Plays Cash'n Guns games for the search: strategies as kernel rows, payoff per slot."""

    def __init__(self, players: int, metric: str, shame_value: int, jobs: int = 1) -> None:
        self.players = players
        self.metric = metric
        self.shame_value = shame_value
        self.jobs = jobs

    def play(self, strategies: Sequence[Strategy], lineups: np.ndarray, seeds: np.ndarray) -> np.ndarray:
        """(games, players) payoff of each slot: 1/0 win, or the score in dollars (0 if dead).
        Games are cut into fixed chunks by index and may run in ``jobs`` processes."""
        rows = strategy_rows(strategies)
        bounds = [(i, min(i + DISCOVER_CHUNK, len(seeds))) for i in range(0, len(seeds), DISCOVER_CHUNK)]
        arguments = [(seeds[a:b], lineups[a:b], rows, self.shame_value, self.metric) for a, b in bounds]
        if self.jobs == 1 or len(bounds) == 1:
            parts = [_play_chunk(*a) for a in arguments]
        else:
            from joblib import Parallel, delayed

            start_workers(self.jobs)  # a Ctrl-C while they start: no traceback from them
            parts = Parallel(n_jobs=self.jobs)(delayed(worker_task)(_play_chunk, *a)
                                               for a in arguments)
        if not parts:
            return np.zeros((0, self.players))
        return np.concatenate(parts)


def _play_chunk(seeds: np.ndarray, lineups: np.ndarray, rows: np.ndarray, shame_value: int, metric: str) -> np.ndarray:
    raw = play_lineups(seeds, np.ascontiguousarray(lineups), rows, shame_value)
    money, _, shame, alive, winner = raw[:5]
    if metric == "win":
        return winner.astype(np.float64)
    return np.where(alive, money.astype(np.float64) * UNIT_DOLLARS + shame.astype(np.float64) * shame_value, 0.0)


class ProfileTable:
    """Running sums of each strategy's payoff in each table profile, keyed by strategy specs
    (a profile is the sorted tuple of its players' specs), so rounds can share and resume it."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.sums: dict[tuple[str, ...], dict[str, list[float]]] = {}

    def add(self, profile: tuple[str, ...], payoffs: np.ndarray) -> None:
        """Add the (games, players) payoffs of games played with slot s using ``profile[s]``."""
        cell = self.sums.setdefault(tuple(sorted(profile)), {})
        for spec in sorted(set(profile)):
            values = payoffs[:, [slot for slot, s in enumerate(profile) if s == spec]].ravel()
            n, total, squares = cell.get(spec, [0.0, 0.0, 0.0])
            cell[spec] = [n + values.size, total + float(values.sum()), squares + float((values**2).sum())]

    def game(self, specs: Sequence[str], metric: str) -> SymmetricGame:
        """The symmetric game of ``specs`` (every profile of them must have been played)."""
        count = len(specs)
        multisets = table_profiles(count, self.players - 1)
        others = np.zeros((len(multisets), count), np.int64)
        for row, multiset in enumerate(multisets):
            for index in multiset:
                others[row, index] += 1
        payoff = np.full((count, len(multisets)), np.nan)
        variance = np.full((count, len(multisets)), np.nan)
        for row, multiset in enumerate(multisets):
            for s in range(count):
                profile = tuple(sorted(specs[i] for i in multiset + (s,)))
                n, total, squares = self.sums[profile][specs[s]]
                mean = total / n
                payoff[s, row] = mean
                variance[s, row] = max(squares / n - mean**2, 0.0) / max(n - 1, 1)
        factorial = np.array([math.factorial(k) for k in range(self.players)], np.float64)
        coefficients = math.factorial(self.players - 1) / factorial[others].prod(axis=1)
        return SymmetricGame(tuple(specs), self.players, others, payoff, coefficients, variance, metric)

    def to_json(self) -> list:
        return [[list(profile), spec, *sums] for profile, cell in self.sums.items() for spec, sums in cell.items()]

    @classmethod
    def from_json(cls, players: int, rows: list) -> ProfileTable:
        table = cls(players)
        for profile, spec, *sums in rows:
            table.sums.setdefault(tuple(profile), {})[spec] = list(sums)
        return table


#: Random streams. Every stream is a SeedSequence of entropy (root, *key) and a spawn key that
#: names who draws from it, so streams of different owners never coincide, whatever the root
#: and key: discover's own tables, searches and validations (no spawn key, the numbers as they
#: always were), discover's j-th independent stop check ((STOP_CHECK, j)), and the outside
#: check of a finished library ((OUTSIDE_CHECK,), see :func:`check_equilibrium`).
STOP_CHECK, OUTSIDE_CHECK = 1, 2


def _sequence(root: int, key: tuple[int, ...], streams: tuple[int, ...]) -> np.random.SeedSequence:
    """The SeedSequence of one purpose: entropy (root, *key), spawn key ``streams``."""
    return np.random.SeedSequence([root, *key], spawn_key=streams)


def _seeds(root: int, *key: int, size: int, streams: tuple[int, ...] = ()) -> np.ndarray:
    """Game seeds for one purpose of one round: a SeedSequence keyed by (root, *key)."""
    rng = np.random.default_rng(_sequence(root, key, streams))
    return rng.integers(0, np.iinfo(np.int64).max, size=size, dtype=np.int64).astype(np.uint64)


def profile_weights(profiles: list[tuple[int, ...]], mix: np.ndarray) -> np.ndarray:
    """How much each full profile matters to the payoffs against ``mix``: the sum over its
    distinct strategies s of the probability that the others are the rest of the profile."""
    weights = np.zeros(len(profiles))
    log_mix = np.log(np.maximum(mix, 1e-300))
    for row, profile in enumerate(profiles):
        for s in set(profile):
            rest = list(profile)
            rest.remove(s)
            counts = np.bincount(rest, minlength=len(mix))
            coefficient = math.factorial(len(rest)) / np.prod([math.factorial(int(c)) for c in counts])
            weights[row] += coefficient * math.exp(float(counts @ log_mix))
    return weights


def fill_table(arena, table: ProfileTable, library: Sequence[str], mix: np.ndarray, games: int,
               profile_min: int, seeds: np.ndarray) -> None:
    """Play every profile of ``library`` (specs) not yet in the table ``profile_min`` games,
    then ``games`` more spread over the profiles in proportion to :func:`profile_weights` (all
    profiles share ``seeds``: common random numbers)."""
    profiles = table_profiles(len(library), arena.players)
    keys = [tuple(sorted(library[i] for i in profile)) for profile in profiles]
    plan = [profile_min if key not in table.sums else 0 for key in keys]
    weights = profile_weights(profiles, mix)
    extra = np.floor(games * weights / weights.sum()).astype(np.int64)
    plan = [p + int(e) for p, e in zip(plan, extra)]
    chosen = [(profile, key, g) for profile, key, g in zip(profiles, keys, plan) if g > 0]
    if not chosen:
        return
    strategies = [parse_strategy(spec) for spec in library]
    lineups = np.concatenate([np.tile(np.array(profile, np.int64), (g, 1)) for profile, _, g in chosen])
    game_seeds = np.concatenate([seeds[:g] for _, _, g in chosen])
    payoffs = arena.play(strategies, lineups, game_seeds)
    start = 0
    for profile, _key, g in chosen:
        table.add(tuple(library[i] for i in profile), payoffs[start:start + g])
        start += g


def _lineups_against(mix: np.ndarray, players: int, games: int, root: int, *key: int,
                     streams: tuple[int, ...] = ()) -> np.ndarray:
    """(games, players - 1) opponents drawn independently from ``mix`` (library indices)."""
    rng = np.random.default_rng(_sequence(root, key, streams))
    return rng.choice(len(mix), size=(games, players - 1), p=mix).astype(np.int64)


def focal_payoffs(arena, library: Sequence, mix: np.ndarray, candidates: Sequence, games: int,
                  root: int, *key: int, streams: tuple[int, ...] = ()) -> np.ndarray:
    """(candidates, games) payoff of each candidate in slot 0 against opponents drawn from
    ``mix``, every candidate on the same games and opponents (common random numbers)."""
    opponents = _lineups_against(mix, arena.players, games, root, *key, 0, streams=streams)
    seeds = _seeds(root, *key, 1, size=games, streams=streams)
    pool = list(library) + list(candidates)
    focal = np.repeat(np.arange(len(library), len(pool), dtype=np.int64), games)
    lineups = np.column_stack([focal, np.tile(opponents, (len(candidates), 1))])
    payoffs = arena.play(pool, lineups, np.tile(seeds, len(candidates)))
    return payoffs[:, 0].reshape(len(candidates), games)


def search_best_response(arena, library: Sequence, mix: np.ndarray, candidates: Sequence, games: int,
                         root: int, round_index: int, refine: Callable[[Sequence], Sequence] | None = None,
                         streams: tuple[int, ...] = (),
                         local: Sequence[Callable[[list, np.ndarray], Sequence]] = ()) -> tuple[object, float]:
    """The candidate with the highest payoff against ``mix``, by successive halving.

    Stage 1: every candidate plays ``games`` games; ``refine`` (if given) then proposes
    variations of the stage-1 leaders, which play the same games; then each step of ``local``
    (the local search, :func:`local_search_steps`) proposes candidates from the pool so far and
    its stage-1 means, which play the same games again (common random numbers: a hill-climb
    compares neighbours on identical games). Stage 2: the best tenth (at
    least 3) play 4 x ``games`` fresh games; stage 3: the best three 15 x ``games``. Every stage
    plays all its candidates on the same games and opponents (common random numbers). Returns
    (the winner, its stage-3 mean payoff). ``streams``: whose random streams (see
    ``STOP_CHECK``); ``round_index`` keys fresh games within them.
    """
    pool = list(candidates)
    means = focal_payoffs(arena, library, mix, pool, games, root, round_index, 10, streams=streams).mean(axis=1)
    steps = list(local)
    if refine is not None:  # the first step: variations of the five stage-1 leaders
        steps.insert(0, lambda pool, means: refine([pool[i] for i in np.argsort(-means, kind="stable")[:5]]))
    for step in steps:
        extra = [c for c in step(pool, means) if c not in pool]
        if extra:
            pool += extra
            more = focal_payoffs(arena, library, mix, extra, games, root, round_index, 10,
                                 streams=streams).mean(axis=1)
            means = np.concatenate([means, more])
    alive = list(range(len(pool)))
    for stage, (count, keep) in enumerate(((4 * games, 3), (15 * games, 1)), start=1):
        order = np.argsort(-means, kind="stable")
        alive = [alive[i] for i in order[: max(keep, len(pool) // 10) if stage == 1 else keep]]
        means = focal_payoffs(arena, library, mix, [pool[i] for i in alive], count,
                              root, round_index, 10 + stage, streams=streams).mean(axis=1)
    best = int(np.argmax(means))
    return pool[alive[best]], float(means[best])


def measure_gain(arena, library: Sequence, mix: np.ndarray, response, games: int, root: int,
                 round_index: int, check: int = 0, streams: tuple[int, ...] = ()) -> tuple[float, float, float]:
    """Gain of ``response`` over the mix itself against the mix, on fresh paired games: each
    game is played once with ``response`` in slot 0 and once with a slot-0 strategy drawn from
    the mix, against the same opponents and seed. Returns (gain, 95% low, 95% high)."""
    opponents = _lineups_against(mix, arena.players, games, root, round_index, 20, check, streams=streams)
    seeds = _seeds(root, round_index, 21, check, size=games, streams=streams)
    rng = np.random.default_rng(_sequence(root, (round_index, 22, check), streams))
    own = rng.choice(len(mix), size=games, p=mix).astype(np.int64)
    pool = list(library) + [response]
    lineups = np.concatenate([np.column_stack([np.full(games, len(library)), opponents]),
                              np.column_stack([own, opponents])])
    payoffs = arena.play(pool, lineups, np.concatenate([seeds, seeds]))[:, 0]
    difference = payoffs[:games] - payoffs[games:]
    gain = float(difference.mean())
    half = Z95 * float(difference.std(ddof=1)) / math.sqrt(games) if games > 1 else math.inf
    return gain, gain - half, gain + half


def propose_candidates(archive: Sequence[Strategy], library: Sequence[Strategy], mix: np.ndarray,
                       count: int, rng: np.random.Generator) -> list[Strategy]:
    """``count`` distinct candidates (by spec): the archive (every strategy a library held or a
    round chose as its best reply) and the named strategies, then in turn a fresh random strategy and one to three mutations
    of a strategy drawn from the mix."""
    from cardsim.sims.cashnguns.space import mutate, sample_strategy

    seen: set[str] = set()
    candidates: list[Strategy] = []

    def offer(strategy: Strategy) -> None:
        spec = strategy.spec()
        if spec not in seen and len(candidates) < count:
            seen.add(spec)
            candidates.append(parse_strategy(spec))

    for strategy in list(archive) + [s for _, s in NAMED_STRATEGIES.values()]:
        offer(strategy)
    attempts = 0
    while len(candidates) < count and attempts < 50 * count:
        attempts += 1
        if attempts % 2:
            offer(sample_strategy(rng))
        else:
            parent = library[int(rng.choice(len(library), p=mix))]
            for _ in range(int(rng.integers(1, 4))):
                parent = mutate(parent, rng)
            offer(parent)
    return candidates


def refinements(leaders: Sequence[Strategy], count: int, rng: np.random.Generator) -> list[Strategy]:
    """``count`` distinct one-step mutations of the search leaders (in turn)."""
    from cardsim.sims.cashnguns.space import mutate

    specs = {s.spec() for s in leaders}
    out: list[Strategy] = []
    attempts = 0
    while len(out) < count and attempts < 50 * count:
        child = mutate(leaders[attempts % len(leaders)], rng)
        attempts += 1
        if child.spec() not in specs:
            specs.add(child.spec())
            out.append(parse_strategy(child.spec()))
    return out


#: How the local budget is spent: ``MEMBER_SHARE`` on the library members' one-move neighbours,
#: ``COMPOUND_SHARE`` on compound moves (several parameters at once, discover/5), the rest on
#: ``CLIMB_STEPS`` hill-climb steps from the ``CLIMB_TOP`` best candidates so far.
MEMBER_SHARE, COMPOUND_SHARE, CLIMB_STEPS, CLIMB_TOP = 0.3, 0.5, 2, 3
#: Parameters a compound move changes once every pair of range ends is tried.
COMPOUND_SIZE = 3


def _interleave(lists: Sequence[Sequence[Strategy]]) -> list[Strategy]:
    """The first item of each list, then the second of each, and so on."""
    return [lst[k] for k in range(max(map(len, lists), default=0)) for lst in lists if k < len(lst)]


def _fresh(pool: Sequence[Strategy], options: Sequence[Strategy], count: int) -> list[Strategy]:
    """The first ``count`` options (parsed back from their specs) whose spec is neither in
    ``pool`` nor repeated."""
    seen = {c.spec() for c in pool}
    out = []
    for option in options:
        spec = option.spec()
        if spec not in seen and len(out) < count:
            seen.add(spec)
            out.append(parse_strategy(spec))
    return out


def local_budget(local: int) -> tuple[int, int, list[int]]:
    """``local`` candidates split into (members' neighbours, compound moves, each climb step)."""
    members = round(local * MEMBER_SHARE)
    compound = round(local * COMPOUND_SHARE)
    rest = local - members - compound
    return members, compound, [rest * (k + 1) // CLIMB_STEPS - rest * k // CLIMB_STEPS for k in range(CLIMB_STEPS)]


def compound_candidates(members: Sequence[Strategy], leaders: Sequence[Strategy], count: int,
                        pool: Sequence[Strategy], rng: np.random.Generator) -> list[Strategy]:
    """``count`` compound moves not in ``pool``: every pair of range ends (``space.end_pairs``,
    each strategy's pairs in an order drawn from ``rng``) of the ``members``, taken in turn,
    then of the ``leaders`` the same way; once those run out, random ``COMPOUND_SIZE``-parameter
    moves (``space.compound_move``) of members and leaders in turn."""
    from cardsim.sims.cashnguns.space import compound_move, end_pairs

    def shuffled_pairs(strategy: Strategy) -> list[Strategy]:
        options = end_pairs(strategy)
        return [options[int(i)] for i in rng.permutation(len(options))]

    bases = list(members) + list(leaders)
    out = _fresh(pool, _interleave([shuffled_pairs(m) for m in members])
                 + _interleave([shuffled_pairs(m) for m in leaders]), count)
    attempts = 0
    while bases and len(out) < count and attempts < 50 * count:
        move = compound_move(bases[attempts % len(bases)], COMPOUND_SIZE, rng)
        attempts += 1
        out += _fresh(list(pool) + out, [move], 1)
    return out


def local_search_steps(library: Sequence[Strategy], mix: np.ndarray, local: int,
                       rng: np.random.Generator) -> list[Callable[[list, np.ndarray], list[Strategy]]]:
    """The local search of one best-response search (discover/5), as steps for
    :func:`search_best_response`, ``local`` candidates in all (none when 0), in this order:

    1. the neighbours of the mix's members (``space.neighbours``: every other bullet policy,
       with ``safe`` at each midpoint between the counted chances such as 0.3542 between 1/3
       and 3/8; every other target and lie-down rule; each parameter one and two grid steps and
       to the next chance midpoint), members with a share by decreasing share, taken in turn
       (the first neighbour of each member, then the second, ...), then the library's members
       without a share the same way, ``MEMBER_SHARE`` of ``local``;
    2. compound moves, ``COMPOUND_SHARE`` of ``local`` (:func:`compound_candidates`): from the
       mix's members by decreasing share, then from the ``CLIMB_TOP`` best candidates so far on
       the stage-1 games, two parameters set to ends of their ranges at once, then random moves
       of three parameters; they reach replies that differ from every member in several
       parameters where no single change gains (discover/4's one-move search cannot);
    3. ``CLIMB_STEPS`` hill-climb steps that share the rest: each takes the ``CLIMB_TOP`` best
       candidates so far on the stage-1 games and tries neighbours of theirs drawn at random
       (``rng``), on the same games.

    Candidates already in the pool are skipped; the draws depend only on ``rng`` and the
    stage-1 means, so the search is the same for any --jobs."""
    from cardsim.sims.cashnguns.space import neighbours

    if local <= 0:
        return []
    members, compound, climbs = local_budget(local)
    ranked = np.argsort(-np.asarray(mix), kind="stable")
    support = [library[i] for i in ranked if mix[i] > 0]
    rest = [library[i] for i in ranked if mix[i] <= 0]

    def leaders(pool: list, means: np.ndarray) -> list[Strategy]:
        return [pool[i] for i in np.argsort(-means, kind="stable")[:CLIMB_TOP]]

    def around_members(pool: list, means: np.ndarray) -> list[Strategy]:
        return _fresh(pool, _interleave([neighbours(m) for m in support])
                      + _interleave([neighbours(m) for m in rest]), members)

    def compound_moves(pool: list, means: np.ndarray) -> list[Strategy]:
        member_specs = {m.spec() for m in support}
        best = [s for s in leaders(pool, means) if s.spec() not in member_specs]
        return compound_candidates(support, best, compound, pool, rng)

    def climb(count: int) -> Callable[[list, np.ndarray], list[Strategy]]:
        def step(pool: list, means: np.ndarray) -> list[Strategy]:
            options = _fresh(pool, [n for leader in leaders(pool, means) for n in neighbours(leader)], 10**9)
            picked = rng.permutation(len(options))[:count] if options else []
            return [options[int(i)] for i in sorted(picked)]
        return step

    steps = [around_members] + ([compound_moves] if compound > 0 else [])
    return steps + [climb(count) for count in climbs if count > 0]


@dataclass(frozen=True)
class Reply:
    """One best-response search's answer: the reply, its last-stage search payoff, and its
    gain over the mix itself measured on fresh paired games (``gain`` with the 95% interval
    ``low``..``high``, on ``games`` games; see :func:`measure_gain`)."""

    strategy: Strategy
    search_payoff: float
    gain: float
    low: float
    high: float
    games: int
    candidates: int

    @property
    def spec(self) -> str:
        return self.strategy.spec()

    def record(self, names: dict[str, str]) -> dict:
        """The reply as a discover round stores it."""
        return {"best_response": self.spec, "best_response_name": names.get(self.spec, self.spec),
                "description": self.strategy.describe(), "candidates": self.candidates,
                "gain": self.gain, "exploitability_lo": self.low, "exploitability_hi": self.high,
                "validation_games": self.games}


def find_reply(arena, library: Sequence[Strategy], mix: np.ndarray, archive: Sequence[Strategy], *,
               budget: int, search_games: int, validation_games: int, root: int, key: int,
               streams: tuple[int, ...] = (), quick: bool = True, local: int = DEFAULT_LOCAL) -> Reply:
    """One best-response search against ``mix`` and the measure of its reply's gain.

    ``budget`` candidates: seven tenths proposed by :func:`propose_candidates` (the
    ``archive`` and named strategies first), the rest one-step refinements of the stage-1
    leaders, then ``local`` local-search candidates (:func:`local_search_steps`: neighbours of
    the library's members, compound moves of several parameters and a short hill-climb from the
    best candidates so far, discover/5);
    successive halving (:func:`search_best_response`, ``search_games`` per candidate
    first) picks the reply. Its gain is measured on fresh paired games that no candidate was
    selected on: a fifth of ``validation_games`` first when ``quick`` and, unless that already
    shows a significant gain, all of them. Every draw comes from the streams ``streams`` keyed
    by (``root``, ``key``): discover's own (no spawn key), a stop check's or the outside check's."""
    rng = np.random.default_rng(_sequence(root, (key, 3), streams))
    initial = budget - budget * 3 // 10
    candidates = propose_candidates(archive, library, mix, initial, rng)
    response, search_mean = search_best_response(
        arena, library, mix, candidates, search_games, root, key,
        refine=lambda leaders: refinements(leaders, budget - len(candidates), rng), streams=streams,
        local=local_search_steps(library, mix, local, rng))
    games = max(1, validation_games // 5) if quick else validation_games
    gain, low, high = measure_gain(arena, library, mix, response, games, root, key, 0, streams=streams)
    if quick and low <= 0:  # not clearly significant: measure on the full, separate set of games
        games = validation_games
        gain, low, high = measure_gain(arena, library, mix, response, games, root, key, 1, streams=streams)
    return Reply(response, search_mean, gain, low, high, games, budget + max(local, 0))


def discover(settings: DiscoverSettings, *, jobs: int = 1, store: Path | None = None,
             on_round: Callable[[dict], None] | None = None) -> dict:
    """The PSRO loop: solve the library's symmetric equilibrium, search the strategy space for
    a best response to it, add the response when its gain is significant (95% low bound > 0),
    repeat. Beyond ``library_cap`` strategies leave the library, negligible shares (below
    ``prune_share``) first, then the smallest (:func:`_next_library`);
    every strategy ever in a library or chosen as a round's best reply (named ``dN`` when new)
    stays a candidate of every later search, and one that comes back is flagged ``returned``.
    Every round also runs ``stop_checks`` independent searches (:class:`DiscoverSettings`);
    the run converges when no search gains significantly and every bound is within the
    tolerance. The run reports the equilibrium of
    :func:`reported_round`. Each round is stored in ``store`` as soon as it ends; a run with
    the same settings resumes after its last stored round. Returns the whole document."""
    settings.check()
    arena = CashNGunsArena(settings.players, settings.metric, settings.shame_value, jobs)
    path = discover_path(store, settings) if store is not None else None
    document = _load_discover(path, settings)
    table = ProfileTable.from_json(settings.players, document.pop("table_rows", []))
    for done in document["rounds"]:
        if on_round is not None:
            on_round(done)
    dropped: list[str] = document.setdefault("dropped", [])  # every spec ever pruned, in order
    while len(document["rounds"]) < settings.rounds and not document["converged"]:
        index = len(document["rounds"])
        library: list[str] = list(document["library"])
        names: dict[str, str] = document["names"]
        strategies = [parse_strategy(spec) for spec in library]
        previous = document["rounds"][-1]["equilibrium_specs"] if index else {}
        mix = np.array([previous.get(spec, 0.0) for spec in library]) if previous else np.ones(len(library))
        mix = mix / mix.sum()
        for part, games in enumerate(table_parts(settings.table_games, settings.table_passes)):
            if part == 0:  # new profiles first get profile_min games
                seeds = _seeds(settings.seed, index, 1, size=settings.profile_min + games)
            else:
                seeds = _seeds(settings.seed, index, 2 if part == 1 else 30 + part, size=settings.table_games)
            fill_table(arena, table, library, mix, games, settings.profile_min if part == 0 else 0, seeds)
            equilibrium = symmetric_equilibrium(table.game(library, settings.metric), seed=settings.seed)
            mix = equilibrium.mix
        archive = [parse_strategy(spec) for spec in names]
        search = dict(budget=settings.budget, search_games=settings.search_games,
                      validation_games=settings.validation_games, root=settings.seed, key=index,
                      local=settings.local)
        main = find_reply(arena, strategies, mix, archive, **search)
        replies = [main] + [find_reply(arena, strategies, mix, archive, **search, streams=(STOP_CHECK, check))
                            for check in range(settings.stop_checks)]
        worst = max(replies, key=lambda reply: reply.high)
        for reply in replies:
            if reply.spec not in names:
                names[reply.spec] = _name_of(reply.strategy, names)
        converged = all(reply.low <= 0 and reply.high <= settings.stop_tolerance() for reply in replies)
        new = sorted((reply for reply in replies if reply.spec not in library and reply.gain > 0),
                     key=lambda reply: (reply.low > 0, reply.gain), reverse=True)
        if any(reply.low > 0 for reply in replies):  # the best significant new reply, if any
            chosen = [reply for reply in new if reply.low > 0][:1]
        else:  # nothing significant: the likeliest gain unless every bound is within the tolerance
            chosen = [] if converged else new[:1]
        spec = main.spec
        record = {
            "round": index + 1,
            "library": [names[s] for s in library],
            "equilibrium": {names[s]: float(share) for s, share in zip(library, mix) if share > 0},
            "equilibrium_specs": {s: float(share) for s, share in zip(library, mix) if share > 0},
            "table_regret": equilibrium.regret,
            "value": equilibrium.value,
            "best_response": spec,
            "best_response_name": names[spec],
            "description": main.strategy.describe(),
            "candidates": settings.budget + settings.local,
            "search_payoff": main.search_payoff,
            "search": main.record(names),
            "stop_checks": [reply.record(names) for reply in replies[1:]],
            "converged": converged,
            "exploitability": max(worst.gain, 0.0),
            "gain": worst.gain,
            "exploitability_lo": worst.low,
            "exploitability_hi": worst.high,
            "validation_games": worst.games,
            "exploitability_from": "discover's search" if worst is main else "an independent stop check",
            "added": [{"name": names[reply.spec], "spec": reply.spec, "description": reply.strategy.describe(),
                       "returned": reply.spec in dropped} for reply in chosen],
        }
        document["library"] = _next_library(library, record["equilibrium_specs"],
                                            [reply.spec for reply in chosen], settings.library_cap,
                                            settings.prune_share)
        record["pruned"] = [{"name": names[s], "share": record["equilibrium_specs"].get(s, 0.0)}
                            for s in library if s not in document["library"]]
        dropped.extend(s for s in library if s not in document["library"] and s not in dropped)
        document["rounds"].append(record)
        document["converged"] = converged
        if path is not None:
            _save_discover(path, document, table)
        if on_round is not None:
            on_round(record)
    return document


def reported_round(document: dict) -> dict:
    """The round whose equilibrium a discover run reports: the last one when the run converged;
    otherwise the one with the lowest 95% bound over all its searches (discover's own and the
    stop checks, which every round runs). The outside check (:func:`check_equilibrium`) then
    measures it afresh, so picking the luckiest-looking round biases nothing reported."""
    rounds = document["rounds"]
    return rounds[-1] if document["converged"] else min(rounds, key=lambda r: r["exploitability_hi"])


def table_parts(games: int, passes: int) -> list[int]:
    """``games`` cut into ``passes`` near-equal parts (the first the smaller)."""
    return [games * (part + 1) // passes - games * part // passes for part in range(passes)]


def _next_library(library: list[str], shares: dict[str, float], added: list[str], cap: int,
                  prune_share: float = 0.0) -> list[str]:
    """The next round's library: the library plus the added strategies; while that exceeds
    ``cap``, a strategy of the old library leaves (never an added one): the oldest whose share
    in the equilibrium ``shares`` is under ``prune_share`` (or zero), else the one with the
    smallest share (the oldest of equals)."""
    def share(spec: str) -> float:
        return shares.get(spec, 0.0)

    kept = [spec for spec in library if spec not in added]
    while kept and len(kept) + len(added) > cap:
        negligible = [spec for spec in kept if share(spec) < prune_share or share(spec) == 0.0]
        kept.remove(negligible[0] if negligible else min(kept, key=share))
    return kept + list(added)


def _name_of(strategy: Strategy, names: dict[str, str]) -> str:
    """A named strategy's name, else ``dN`` numbered on from the highest ``dN`` in ``names``
    (a run that continues a shipped library starting at d40 names its first new reply d41, not
    d1, which the earlier run used for another strategy)."""
    for name, (_, named) in NAMED_STRATEGIES.items():
        if named.spec() == strategy.spec():
            return name
    numbers = [int(name[1:]) for name in names.values() if name[:1] == "d" and name[1:].isdigit()]
    return f"d{max(numbers, default=0) + 1}"


def discover_path(store: Path, settings: DiscoverSettings) -> Path:
    """Where a discover run with these settings keeps its rounds: one file per reading, seed and
    budget, with a hash of the other settings in its name where they are not the defaults (a
    run with another start library, stop checks or local budget never overwrites the default
    run's record, nor resumes from it)."""
    import hashlib
    import json

    shame = f"{settings.shame_value:+d}".replace("+", "p").replace("-", "m")
    key = _settings_key(settings)
    default = _settings_key(DiscoverSettings(players=settings.players, metric=settings.metric,
                                             shame_value=settings.shame_value, seed=settings.seed,
                                             budget=settings.budget))
    suffix = "" if key == default else "_" + hashlib.sha256(
        json.dumps(key, sort_keys=True).encode()).hexdigest()[:10]
    return Path(store) / "cashnguns_discover" / (
        f"{settings.players}p_{settings.metric}_shame{shame}_seed{settings.seed}_budget{settings.budget}{suffix}.json")


def settings_from_key(key: dict) -> DiscoverSettings:
    """The settings a discover record stores (:func:`_settings_key`), as ``DiscoverSettings``."""
    return DiscoverSettings(**{**key, "start": tuple(key["start"])})


def discover_flags(settings: DiscoverSettings) -> str:
    """The ``cardsim cashnguns discover`` options beyond the reading that give ``settings``
    (``--seed`` and ``--budget`` always, the others only where they are not the defaults)."""
    default = DiscoverSettings(players=settings.players, metric=settings.metric, shame_value=settings.shame_value)
    flags = f"--seed {settings.seed} --budget {settings.budget}"
    if settings.start != default.start:
        flags += f" --start '{','.join(settings.start)}'"
    numeric = ("stop_checks", "local", "rounds")
    for name in numeric:
        if getattr(settings, name) != getattr(default, name):
            flags += f" --{name.replace('_', '-')} {getattr(settings, name)}"
    given = {"players", "metric", "shame_value", "seed", "budget", "start", *numeric}
    unexposed = [name for name in DiscoverSettings.__dataclass_fields__
                 if name not in given and getattr(settings, name) != getattr(default, name)]
    if unexposed:
        raise UserError(f"discover: no command-line option gives {', '.join(unexposed)}")
    return flags


def _settings_key(settings: DiscoverSettings) -> dict:
    """The settings that must match for stored rounds to be reused (not ``rounds``)."""
    key = {name: getattr(settings, name) for name in DiscoverSettings.__dataclass_fields__ if name != "rounds"}
    key["start"] = list(settings.start)
    return key


def start_names(settings: DiscoverSettings) -> dict[str, str]:
    """{spec: name} of the starting library: a named strategy's name, the name a spec has in the
    shipped library of the same reading (so a run that continues it keeps d32 as d32), else
    ``dN`` numbered on from those (:func:`_name_of`)."""
    try:
        shipped = load_libraries().get((settings.players, settings.metric, settings.shame_value))
    except UserError:
        shipped = None
    known = {item["spec"]: item["name"] for item in (shipped or {}).get("library", [])}
    names: dict[str, str] = {}
    for given in settings.start:
        spec = parse_strategy(given).spec()
        names[spec] = given if given in NAMED_STRATEGIES else known.get(spec) or ""
    for spec, name in names.items():
        if not name:
            names[spec] = _name_of(parse_strategy(spec), {**known, **{s: n for s, n in names.items() if n}})
    return names


def _load_discover(path: Path | None, settings: DiscoverSettings) -> dict:
    names = start_names(settings)
    fresh = {"settings": _settings_key(settings), "rounds": [], "converged": False,
             "library": list(names), "names": names}
    if path is None or not path.exists():
        return fresh
    import json

    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError):
        raise UserError(f"discover: {path} is not a readable discover record; move it away to start over") from None
    if stored.get("settings") != fresh["settings"]:
        return fresh
    return stored


def _save_discover(path: Path, document: dict, table: ProfileTable) -> None:
    import json

    atomic_write_bytes(path, json.dumps({**document, "table_rows": table.to_json()}).encode())


def discover_round_lines(record: dict, metric: str) -> list[str]:
    """A discover round in a few plain lines: the equilibrium, each search's reply with its
    measured gain, the round's exploitability (the highest bound) and what the round decided."""
    scale, unit = (100.0, " points") if metric == "win" else (1.0, " $")
    mix = ", ".join(f"{name} {share:.0%}" for name, share in
                    sorted(record["equilibrium"].items(), key=lambda item: -item[1]))
    lines = [f"round {record['round']}: equilibrium of {len(record['library'])} strategies: {mix} "
             f"(value {record['value'] * scale:.2f}{unit}, regret on the table {record['table_regret'] * scale:.2f})"]
    searches = [("discover's search", record.get("search", record))]
    searches += [(f"stop check {k}", check) for k, check in enumerate(record.get("stop_checks", []), start=1)]
    for label, reply in searches:
        lines += [f"  {label}, best of {reply['candidates']} candidates: {reply['best_response']} "
                  f"({reply['best_response_name']}): {reply['description']}",
                  f"    gain {reply['gain'] * scale:+.2f}{unit} [95% {reply['exploitability_lo'] * scale:+.2f}, "
                  f"{reply['exploitability_hi'] * scale:+.2f}], {reply['validation_games']:,} fresh paired games"]
    lines.append(f"  exploitability {record['gain'] * scale:+.2f}{unit} (95% <= {record['exploitability_hi'] * scale:.2f}, "
                 f"the highest bound of the round's searches)")
    for added in record["added"]:
        back = " (returns: pruned earlier)" if added.get("returned") else ""
        lines.append(f"  added {added['name']} = {added['spec']}{back}")
    if record.get("pruned"):
        lines.append("  pruned from the library (still searched): " + ", ".join(
            f"{item['name']} {item['share']:.1%}" for item in record["pruned"]))
    if record["converged"]:
        lines.append("  converged: no search gains significantly and every bound is within the tolerance")
    elif not record["added"]:
        lines.append("  nothing added (a library strategy gains, or no reply gains): more table games next round")
    return lines


# --- the readings side by side ------------------------------------------------------------------

#: The rules readings the report compares: payoff metric x shame marker value (dollars).
READINGS: tuple[tuple[str, int], ...] = (("win", -5_000), ("win", 5_000), ("score", -5_000), ("score", 5_000))


def reading_label(metric: str, shame_value: int) -> str:
    return f"{metric}, shame {shame_value:+,}"


def discover_command_line(players: int, metric: str, shame_value: int) -> str:
    """The command that produces (or resumes) one stored discover run of the report."""
    return f"cardsim cashnguns discover --players {players} --metric {metric} --shame {shame_value}"


def load_discover_documents(store: Path, players: Sequence[int]) -> dict[tuple[int, str, int], dict]:
    """The stored discover runs (the current default settings but the reading) of every reading
    and player count, each with ``date``: its file's last change (UTC). A file at the same path
    with other settings (an older method's run) is skipped, and so is an unfinished run (not
    converged and fewer than the default rounds: still running or interrupted)."""
    import datetime
    import json

    found = {}
    for count in players:
        for metric, shame_value in READINGS:
            settings = DiscoverSettings(players=count, metric=metric, shame_value=shame_value)
            path = discover_path(store, settings)
            if path.exists():
                try:
                    document = json.loads(path.read_text())
                except (OSError, ValueError):
                    continue
                if document.get("settings") != _settings_key(settings) or not document.get("rounds"):
                    continue  # another method's or settings' run at the same path
                if not document.get("converged") and len(document["rounds"]) < settings.rounds:
                    continue  # unfinished: still running or interrupted (rerun the command to resume)
                stamp = datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.timezone.utc)
                found[(count, metric, shame_value)] = {**document, "date": stamp.isoformat(timespec="seconds")}
    return found


def stored_entries(store: Path, players: Sequence[int]) -> dict[tuple[int, str, int], dict]:
    """The stored discover runs of ``players`` as library entries (:func:`library_entry`)."""
    return {(count, metric, shame_value): library_entry(
                document, DiscoverSettings(players=count, metric=metric, shame_value=shame_value), document["date"])
            for (count, metric, shame_value), document in load_discover_documents(store, players).items()}


#: The questions the readings are compared on: (question, answer of a strategy).
FEATURES: tuple[tuple[str, Callable[[Strategy], str]], ...] = (
    ("card order", lambda s: "holds its loaded cards back" if s.bullet in ("late", "bigpot", "safe")
     else "plays loaded cards early or at random"),
    ("target", lambda s: "picks its target from the public record" if s.target != "random"
     else "aims at random"),
    ("lying down", lambda s: "never lies down" if s.lie == "never" else "lies down when threatened"),
    ("card counting", lambda s: "counts revealed cards" if (
        s.bullet == "safe" or s.target == "clicks" or (s.lie in ("threshold", "risk") and s.count == 1))
     else "does not count cards"),
    ("bullet policy", lambda s: f"bullet={s.bullet}"),
    ("target policy", lambda s: f"target={s.target}"),
    ("lie-down policy", lambda s: f"lie={s.lie}"),
)


def _equilibrium_specs(entry: dict) -> dict[str, float]:
    """A library entry's equilibrium as {spec: share}."""
    by_name = {item["name"]: item["spec"] for item in entry["library"]}
    return {by_name[name]: share for name, share in entry["equilibrium"].items()}


def equilibrium_features(entry: dict) -> dict[str, dict[str, float]]:
    """Share of an entry's equilibrium mix giving each answer to each question of ``FEATURES``."""
    features: dict[str, dict[str, float]] = {question: {} for question, _ in FEATURES}
    for spec, share in _equilibrium_specs(entry).items():
        strategy = parse_strategy(spec)
        for question, answer in FEATURES:
            value = answer(strategy)
            features[question][value] = features[question].get(value, 0.0) + share
    return features


def converged_entry(entry: dict) -> bool:
    """Whether an entry's mix is a searched equilibrium under the current stop rule: its run
    converged (no search gained significantly and every 95% bound was within the tolerance)
    and no outside check recorded with it (``refuted``) found a reply whose whole 95%
    interval lies above the tolerance, nor a reply from outside the searched space
    (``beyond_space``) gains more than the tolerance. Even then it is a mix of the searched
    space, not shown to be an equilibrium of the game. A first-method entry ("discover/1") never is: it
    stopped when its own search alone found nothing."""
    tolerance = DEFAULT_TOLERANCE[entry.get("metric", "win")]
    beaten_outside = any(reply["gain"] > tolerance for reply in entry.get("beyond_space", []))
    return (bool(entry["converged"]) and entry.get("method") != DISCOVER_METHOD_1
            and not entry.get("refuted") and not beaten_outside)


def _amount(metric: str, value: float) -> str:
    """A gain in the reading's unit: points of win probability or dollars of score."""
    if metric == "score":
        return f"{'-' if value < 0 else '+'}${abs(value):,.0f}"
    return f"{value * 100:+.2f} points"


def refutation_text(entry: dict) -> str:
    """The entry's ``refuted`` record in words: "refuted from outside: `command` found a reply
    gaining G (95% L to H)"; empty without one."""
    refuted = entry.get("refuted")
    if not refuted:
        return ""
    low, high = refuted["interval"]
    return (f"refuted from outside: `{refuted['command']}` found a reply gaining "
            f"{_amount(entry['metric'], refuted['gain'])} (95% {_amount(entry['metric'], low)} to "
            f"{_amount(entry['metric'], high)})")


#: What every exploitability figure is measured against: the searched strategy space only.
SEARCHED_SPACE = ("the searched strategy space only (five fixed card orders: random, big pot, "
                  "early, late, safe; targets and lie-down rules from the public record)")


def beyond_space_text(entry: dict, sources: bool = True) -> str:
    """The replies from outside the searched space recorded with an entry (``beyond_space``:
    what the reply does, its gain in the reading's unit, the paired games and who measured
    it), as one clause (``sources``: with who measured each and on how many games); empty
    when none is recorded."""
    replies = entry.get("beyond_space", [])
    if not replies:
        return ""
    metric = entry.get("metric", "win")
    parts = [f"{reply['reply']} gains {_amount(metric, reply['gain'])}"
             + (f" ({reply['source']}, {reply['games']} paired games)" if sources else "")
             for reply in replies]
    return "beaten from outside the searched space: " + "; ".join(parts)


def entry_status(entry: dict) -> str:
    """A library entry's status in plain words: converged, stopped by the first method's rule,
    or not converged (the run's least exploitable round is reported); an outside refutation
    recorded with the entry (``refuted``: the command, gain and 95% interval, in the
    reading's unit) is added to any of them (a converged one is then not an equilibrium)."""
    refuted = refutation_text(entry)
    beyond = beyond_space_text(entry)
    if entry.get("method") == DISCOVER_METHOD_1:
        status = "first method: stopped when its own search found nothing; not converged by the current rule"
    elif entry["converged"]:
        status = (f"converged by discover's rule, but {refuted}; not an equilibrium" if refuted
                  else "converged within the searched space; not shown to be an equilibrium of the game")
    else:
        status = (f"not converged in {entry['rounds']} rounds: round {entry.get('reported_round', '?')}'s mix "
                  "(the least exploitable), not shown to be an equilibrium")
        if refuted:
            status += f"; {refuted}"
    if entry.get("method") == DISCOVER_METHOD_1 and refuted:
        status += f"; {refuted}"
    return f"{status}; {beyond}" if beyond else status


def outside_figures(entry: dict, check: dict) -> dict:
    """What the report gives as a reading's outside measure: the outside check's ``gain`` and
    ``exploitability_hi`` (``check``, possibly empty), or, when its 95% upper bound is higher
    (or there is no check), the entry's recorded refutation (``refuted``) or the highest of its
    other recorded outside checks (``outside_checks``: the same record, the command, gain and
    95% interval, for checks whose interval is not wholly above the tolerance, such as other
    seeds of ``cardsim cashnguns check``); ``refuted`` says whether a refutation gave the
    figures and ``command`` names the record that did (None for this check)."""
    records = [(True, entry["refuted"])] if entry.get("refuted") else []
    records += [(False, record) for record in entry.get("outside_checks", [])]
    best_hi = check.get("exploitability_hi", -math.inf)
    found = {"gain": check.get("gain", math.nan), "exploitability_hi": check.get("exploitability_hi", math.nan),
             "refuted": False, "command": None}
    for refutation, record in records:
        if record["interval"][1] > best_hi:
            best_hi = record["interval"][1]
            found = {"gain": record["gain"], "exploitability_hi": best_hi, "refuted": refutation,
                     "command": record["command"]}
    return found


def readings_table(entries: dict[tuple[int, str, int], dict], checks: dict[tuple[int, str, int], dict]
                   ) -> pl.DataFrame:
    """One row per (players, reading): where the equilibrium comes from (a stored discover run,
    or the shipped library), the discover run's rounds, whether it converged and its status
    (:func:`entry_status`), the
    equilibrium (name share, ...), discover's own exploitability bound, and the outside
    measure (:func:`outside_figures`: the outside check's gain with its 95% upper bound, or a
    recorded refutation's or other outside check's where that bound is higher, ``refuted`` and
    ``recorded_check`` saying which), in points of win probability or dollars. A reading with
    none has no gain (NaN)."""
    rows = []
    for key, entry in sorted(entries.items()):
        players, metric, shame_value = key
        scale = 100.0 if metric == "win" else 1.0
        check = checks.get(key, {})
        outside = outside_figures(entry, check)
        mix = ", ".join(f"{name} {share:.0%}" for name, share in
                        sorted(entry["equilibrium"].items(), key=lambda item: -item[1]))
        rows.append({
            "players": players, "reading": reading_label(metric, shame_value), "metric": metric,
            "source": entry.get("source", "shipped library"), "rounds": entry["rounds"],
            "converged": bool(entry["converged"]), "status": entry_status(entry), "equilibrium": mix,
            "discover_hi": entry["exploitability_hi"] * scale,
            "exploitability": outside["gain"] * scale,
            "exploitability_hi": outside["exploitability_hi"] * scale,
            "refuted": outside["refuted"], "recorded_check": outside["command"] or "",
            "games": check.get("validation_games", 0), "candidates": check.get("candidates", 0),
        })
    return pl.DataFrame(rows)


def readings_strategies(entries: dict[tuple[int, str, int], dict]) -> pl.DataFrame:
    """Each strategy with a share in a final equilibrium: where, its share, spec, description."""
    rows = []
    for (players, metric, shame_value), entry in sorted(entries.items()):
        by_name = {item["name"]: item["spec"] for item in entry["library"]}
        for name, share in sorted(entry["equilibrium"].items(), key=lambda item: -item[1]):
            rows.append({"players": players, "reading": reading_label(metric, shame_value),
                         "strategy": name, "share": share, "spec": by_name[name],
                         "description": parse_strategy(by_name[name]).describe()})
    return pl.DataFrame(rows)


def readings_conclusions(entries: dict[tuple[int, str, int], dict]) -> list[str]:
    """Plain sentences, one per question of ``FEATURES``: the answer that takes most of the
    equilibrium mix in every run (holds), or which runs answer which way (flips)."""
    if not entries:
        return []
    sentences = []
    features = {key: equilibrium_features(entry) for key, entry in sorted(entries.items())}
    for question, _ in FEATURES:
        by_run = {key: max(found[question].items(), key=lambda item: item[1]) for key, found in features.items()}
        answers = {value for value, _ in by_run.values()}
        if len(answers) == 1:
            low = min(share for _, share in by_run.values())
            amount = "all of the searched mix" if low > 0.9995 else f"most of the searched mix (at least {low:.0%})"
            sentences.append(f"{question.capitalize()} holds in all {len(by_run)} runs: {amount} {answers.pop()}.")
        else:
            groups: dict[str, list[str]] = {}
            for (players, metric, shame_value), (value, _) in by_run.items():
                groups.setdefault(value, []).append(f"{players}p {reading_label(metric, shame_value)}")
            parts = "; ".join(f"{value} in {', '.join(runs)}" for value, runs in groups.items())
            sentences.append(f"{question.capitalize()} flips: {parts}.")
    return sentences


#: The issue's target: the outside check's 95% upper bound at most one point of win probability.
TARGET_POINTS = 1.0


def searched_sentence(entries: dict[tuple[int, str, int], dict], checks: dict[tuple[int, str, int], dict]) -> str:
    """The chapter's key result: how far the outside check (:func:`check_equilibrium`) beats
    the mixes of the main reading (win, shame -$5,000), or a refutation or another outside check
    recorded with an entry where its 95% upper bound is higher (:func:`outside_figures`; its
    command is named),
    whether that meets the one-point target at each count, and what holds in every converged,
    unrefuted run (:func:`converged_entry`). Empty when the main reading has no checked mix."""
    main = {key[0]: check for key, check in checks.items() if key[1:] == ("win", DEFAULT_SHAME_DOLLARS)}
    if not main:
        return ""
    counts = ", ".join(str(players) for players in sorted(main))
    figures = {p: outside_figures(entries.get((p, "win", DEFAULT_SHAME_DOLLARS), {}), check)
               for p, check in main.items()}
    bounds = {p: 100 * found["exploitability_hi"] for p, found in figures.items()}

    def reading(p: int) -> str:
        text = f"{100 * figures[p]['gain']:+.2f} (95% <= {bounds[p]:.2f}) at {p}"
        if figures[p]["command"]:
            what = "an outside refutation" if figures[p]["refuted"] else "a recorded outside check"
            text += (f" ({what}, `{figures[p]['command']}`; this report's check: "
                     f"{100 * main[p]['gain']:+.2f}, 95% <= {100 * main[p]['exploitability_hi']:.2f})")
        return text

    per_count = "; ".join(reading(p) for p in sorted(main))
    missed = sorted(p for p, bound in bounds.items() if bound > TARGET_POINTS)
    verdict = (f"within the {TARGET_POINTS:g}-point target at every count" if not missed else
               f"the {TARGET_POINTS:g}-point target is missed at {', '.join(map(str, missed))} players")
    budgets = " or ".join(str(b) for b in sorted({check["candidates"] for check in main.values()}))
    seeds = " or ".join(str(s) for s in sorted({check["check"]["seed"] for check in main.values()}))
    converged = {key: entry for key, entry in entries.items() if converged_entry(entry)}
    holds = [sentence for sentence in readings_conclusions(converged) if " holds in all " in sentence]
    main_entries = {p: entries.get((p, "win", DEFAULT_SHAME_DOLLARS), {}) for p in sorted(main)}
    beyond = [f"at {p} players {beyond_space_text(entry, sources=False).split(': ', 1)[1]}"
              for p, entry in main_entries.items() if entry.get("beyond_space")]
    measured = sorted({f"{reply['source']}, {reply['games']} paired games"
                       for entry in main_entries.values() for reply in entry.get("beyond_space", [])})
    text = (f"Tried from outside, within {SEARCHED_SPACE}: with {counts} players (win probability, shame "
            f"-$5,000), a fresh best-response search of {budgets} candidates (seed {seeds}, random streams "
            f"discover never draws from) against each reported mix gains {per_count} points: {verdict}. ")
    if beyond:
        text += ("Replies the searched space cannot express beat these mixes, so none is an equilibrium of "
                 "the game: " + "; ".join(beyond) + f" ({'; '.join(measured)}). ")
    if holds:
        text += "Within the searched space only: " + " ".join(holds)
    return text.rstrip()


def per_slot_table(config: CashNGunsConfig, episodes: pl.DataFrame) -> pl.DataFrame:
    """Per player slot: strategy, win probability (Wilson 95%), mean score (95%), survival."""
    n = episodes.height
    rows = []
    for slot, spec in enumerate(config.slot_specs()):
        wins = int(episodes[f"win_{slot}"].sum())
        lo, hi = wilson_interval(wins, n)
        score = episodes[f"score_{slot}"].cast(pl.Float64)
        half = Z95 * float(score.std() or 0.0) / np.sqrt(n)
        rows.append({
            "slot": slot, "strategy": spec, "n": n, "wins": wins, "p_win": wins / n,
            "lo": float(lo), "hi": float(hi), "mean_score": float(score.mean()),
            "score_lo": float(score.mean()) - half, "score_hi": float(score.mean()) + half,
            "survived": float(episodes[f"alive_{slot}"].mean()),
            "wounds": float(episodes[f"wounds_{slot}"].cast(pl.Float64).mean()),
            "shame": float(episodes[f"shame_{slot}"].cast(pl.Float64).mean()),
        })
    return pl.DataFrame(rows)


# --- the shipped libraries: each reading's final discover library, checked afresh -----------------

LIBRARIES_FORMAT = "cardsim-cashnguns-libraries/2"
#: The first format: one code fingerprint for the whole file, no method per entry.
LIBRARIES_FORMAT_1 = "cardsim-cashnguns-libraries/1"
#: The short name of the current discover method (printed by discover and check).
METHOD_VERSION = "discover/5"
#: The discover method the current code runs (a shipped entry says which one produced it).
DISCOVER_METHOD = ("discover/5: discover/4 with compound moves in its local search: 200 grid/random "
                   "candidates plus 200 local ones (60 one-move neighbours of the library members, 100 "
                   "compound moves that set two parameters to ends of their ranges at once or move three, "
                   "from the members and the best candidates so far, 40 hill-climb candidates)")
#: The fourth method: discover/5 with a one-move local search of 100 candidates.
DISCOVER_METHOD_4 = ("discover/4: discover/3 (a hard library cap of 8, shares under 2% leave first; "
                     "the equilibrium polished by Newton's method on its support; stops only when two "
                     "independent searches find no significant gain and both 95% bounds are within the "
                     "tolerance) with a local search in every best-response search: 200 grid/random "
                     "candidates plus 100 local ones (the library members' neighbours, counted-chance "
                     "midpoints such as safe=0.3542, a two-step hill-climb on common random numbers)")
#: The third method: discover/4 without the local search.
DISCOVER_METHOD_3 = ("discover/3: a hard library cap of 8 (beyond it, shares under 2% leave first, then "
                     "the smallest; they stay search candidates); the library's equilibrium polished by "
                     "Newton's method on its support; stops only when two independent "
                     "200-candidate searches find no significant gain and both 95% bounds are within "
                     "the tolerance")
#: The second method: the same stop rule, a library that only dropped zero shares beyond its cap.
DISCOVER_METHOD_2 = ("discover/2: stops only when two independent 200-candidate searches find no "
                     "significant gain and both 95% bounds are within the tolerance")
#: The method of entries written before the method was recorded.
DISCOVER_METHOD_1 = "discover/1: stopped at the first round whose own search found no significant gain"


def cashnguns_fingerprint() -> str:
    """The runner's code fingerprint of the Cash'n Guns game (rules, kernel, strategy space)."""
    from cardsim.sims.core.fingerprint import code_fingerprint

    return code_fingerprint(SIMULATOR.run_batch.__module__)


def library_entry(document: dict, settings: DiscoverSettings, date: str) -> dict:
    """One reading's shipped entry from its stored discover ``document`` (run by the current
    code): the final library (names and specs), the run's last-round figures as it stored
    them, how to rerun it, and its provenance (method, game code fingerprint, version)."""
    from cardsim import __version__

    last = reported_round(document)
    names = document["names"]
    specs = {name: spec for spec, name in names.items()}
    command = f"{discover_command_line(settings.players, settings.metric, settings.shame_value)} {discover_flags(settings)}"
    return {
        "players": settings.players, "metric": settings.metric, "shame_value": settings.shame_value,
        "command": command, "seed": settings.seed, "budget": settings.budget, "date": date,
        "method": DISCOVER_METHOD, "code_fingerprint": cashnguns_fingerprint(), "version": __version__,
        "settings": document["settings"], "rounds": len(document["rounds"]), "reported_round": last["round"],
        "converged": bool(document["converged"]),
        "library": [{"name": name, "spec": specs[name]} for name in last["library"]],
        "equilibrium": dict(last["equilibrium"]),
        "exploitability": last["gain"], "exploitability_hi": last["exploitability_hi"],
        "validation_games": last["validation_games"],
    }


def write_libraries(path: Path, shipped: dict) -> None:
    """Write a libraries document to ``path`` atomically, in the shipped file's layout (one
    space of indent, a final newline)."""
    import json

    atomic_write_bytes(path, (json.dumps(shipped, indent=1) + "\n").encode("utf-8"))


def record_entries(records: Sequence[Path]) -> dict[tuple[int, str, int], dict]:
    """Library entries from discover record files named by hand (any settings, e.g. a run that
    continues a shipped library with ``--start``), by reading; one-line errors for a file that
    is not a finished discover record and for two records of one reading."""
    import datetime
    import json

    found: dict[tuple[int, str, int], dict] = {}
    for record in records:
        try:
            document = json.loads(Path(record).read_text())
            settings = settings_from_key(document["settings"])
            rounds = document["rounds"]
        except (OSError, ValueError, KeyError, TypeError):
            raise UserError(f"libraries: {record} is not a readable discover record") from None
        if not rounds or not (document.get("converged") or len(rounds) >= settings.rounds):
            raise UserError(f"libraries: {record} is unfinished (rerun its discover command to resume it)")
        key = (settings.players, settings.metric, settings.shame_value)
        if key in found:
            raise UserError(f"libraries: two records for {settings.players} players, {reading_label(*key[1:])}")
        stamp = datetime.datetime.fromtimestamp(Path(record).stat().st_mtime, datetime.timezone.utc)
        found[key] = library_entry(document, settings, stamp.isoformat(timespec="seconds"))
    return found


def export_libraries(store: Path, players: Sequence[int], path: Path,
                     records: Sequence[Path] = ()) -> tuple[dict, list]:
    """Write the libraries file at ``path`` (the command passes the shipped one,
    :data:`cardsim.sims.cashnguns.SHIPPED_LIBRARIES`, by default): every reading at ``players`` with a stored discover run
    (default settings but the reading), or with one of the discover ``records`` named (any
    settings; a record of another player count is an error), gets a new entry; a reading
    without one keeps its entry of the file already at ``path`` (with that entry's own
    provenance); a reading with neither is an error (nothing written). Entries of other player
    counts are kept. The date of a new entry is its stored file's last change (UTC). Returns
    (the document, the kept readings)."""
    named = record_entries(records)
    stray = sorted({count for count, _, _ in named} - set(players))
    if stray:
        raise UserError(f"libraries: a --record is for {stray[0]} players, not among --players")
    stored = {**stored_entries(store, players), **named}
    try:
        existing = load_libraries(path)
    except UserError:
        existing = {}
    wanted = [(p, m, v) for p in players for m, v in READINGS]
    missing = [discover_command_line(*key) for key in wanted if key not in stored and key not in existing]
    if missing:
        raise UserError(f"libraries: no stored discover run for: {'; '.join(missing)} (store {store})")
    kept = sorted(key for key in existing if key not in stored)
    entries = {**{key: existing[key] for key in kept}, **stored}
    shipped = {"format": LIBRARIES_FORMAT, "readings": [entries[key] for key in sorted(entries)]}
    write_libraries(Path(path), shipped)
    return shipped, [key for key in kept if key in wanted]


def load_libraries(path: Path = SHIPPED_LIBRARIES) -> dict[tuple[int, str, int], dict]:
    """The shipped libraries by (players, metric, shame value), each entry with its provenance
    (``method``, ``code_fingerprint``, ``version``; a first-format file's entries get the file's
    fingerprint and version and ``DISCOVER_METHOD_1``); one-line UserError when the file is
    missing, not a libraries document, or holds a spec that does not parse."""
    import json

    try:
        shipped = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UserError(f"libraries: {path} is missing or unreadable "
                        "(write it with: cardsim cashnguns libraries)") from None
    if not isinstance(shipped, dict) or shipped.get("format") not in (LIBRARIES_FORMAT, LIBRARIES_FORMAT_1):
        raise UserError(f"libraries: {path} is not a {LIBRARIES_FORMAT} document")
    first = {"method": DISCOVER_METHOD_1, "code_fingerprint": shipped.get("code_fingerprint"),
             "version": shipped.get("version")} if shipped["format"] == LIBRARIES_FORMAT_1 else {}
    found = {}
    for entry in shipped.get("readings", []):
        for item in entry["library"]:
            parse_strategy(item["spec"])
        found[(entry["players"], entry["metric"], entry["shame_value"])] = {**first, **entry}
    return found


@dataclass(frozen=True)
class OutsideCheck:
    """How a finished equilibrium is tried from outside (:func:`check_equilibrium`): one
    best-response search of ``budget`` candidates (``search_games`` games each in the first
    stage) against the equilibrium mix as shipped, and the reply's gain on
    ``validation_games`` fresh paired games, all drawn from ``seed``'s outside-check streams,
    which discover never draws from; plus ``local`` local-search candidates (discover/5's
    :func:`local_search_steps`: neighbours of the library's members, compound moves, then a
    hill-climb)."""

    budget: int = 200
    search_games: int = 1_000
    validation_games: int = 100_000
    seed: int = 0
    local: int = DEFAULT_LOCAL

    def check(self) -> None:
        """One-line errors for settings out of range."""
        for name in ("budget", "search_games", "validation_games"):
            if getattr(self, name) < 1:
                raise UserError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        if self.local < 0:
            raise UserError(f"--local must be at least 0, got {self.local}")


def check_equilibrium(entry: dict, check: OutsideCheck, *, jobs: int = 1, store: Path | None = None) -> dict:
    """Try a finished equilibrium from outside: a fresh best-response search (:func:`find_reply`,
    its candidates proposed from the library, the named strategies, random strategies and
    mutations) against the mix as it was reported, not re-solved, and the reply's gain over
    the mix on fresh paired games (every game measured, no quick first look), with the current
    code. ``entry``: a shipped library (:func:`load_libraries`) or any dict with players,
    metric, shame_value, library ([{name, spec}]) and equilibrium ({name: share}).

    Returns ``{players, metric, shame_value, equilibrium, check, best_response,
    best_response_name, description, candidates, search_payoff, gain, exploitability_lo,
    exploitability_hi, validation_games, code_fingerprint}``; stored in
    ``store``/cashnguns_check under a name that hashes the entry's library and mix, the
    settings and the code fingerprint, so a rerun with the same code reuses it."""
    import hashlib
    import json

    check.check()
    specs = [item["spec"] for item in entry["library"]]
    names = {item["spec"]: item["name"] for item in entry["library"]}
    by_name = {item["name"]: item["spec"] for item in entry["library"]}
    unknown = sorted(set(entry["equilibrium"]) - set(by_name))
    if unknown:
        raise UserError(f"check: the equilibrium names strategies not in the library: {', '.join(unknown)}")
    shares = np.array([entry["equilibrium"].get(names[spec], 0.0) for spec in specs], np.float64)
    if not (np.all(shares >= 0) and shares.sum() > 0):
        raise UserError("check: the equilibrium has no positive share")
    mix = shares / shares.sum()
    fingerprint = cashnguns_fingerprint()
    key = json.dumps([entry["players"], entry["metric"], entry["shame_value"], specs, mix.tolist(),
                      asdict(check), fingerprint], sort_keys=True)
    path = None
    if store is not None:
        path = Path(store) / "cashnguns_check" / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"
        if path.exists():
            try:
                return json.loads(path.read_text())
            except (OSError, ValueError):
                pass  # unreadable: computed again and rewritten
    arena = CashNGunsArena(entry["players"], entry["metric"], entry["shame_value"], jobs)
    library = [parse_strategy(spec) for spec in specs]
    reply = find_reply(arena, library, mix, library, budget=check.budget, search_games=check.search_games,
                       validation_games=check.validation_games, root=check.seed, key=0,
                       streams=(OUTSIDE_CHECK,), quick=False, local=check.local)
    name = names.get(reply.spec) or _name_of(reply.strategy, names)
    result = {"players": entry["players"], "metric": entry["metric"], "shame_value": entry["shame_value"],
              "equilibrium": {names[spec]: float(share) for spec, share in zip(specs, mix) if share > 0},
              "check": asdict(check), **reply.record({**names, reply.spec: name}),
              "search_payoff": reply.search_payoff, "code_fingerprint": fingerprint}
    if path is not None:
        atomic_write_bytes(path, json.dumps(result).encode())
    return result


def record_outside_check(path: Path, result: dict, command: str) -> dict:
    """Record an outside check (:func:`check_equilibrium`'s ``result``) with its reading's entry
    in the libraries file at ``path``, in ``outside_checks`` (command, gain, 95% interval, reply,
    games; a record with the same command is replaced), so that the report gives the highest
    recorded bound (:func:`outside_figures`). The file is rewritten atomically; a check of
    another mix than the entry's (the file changed since) is an error. Returns the entry."""
    import json

    shipped = json.loads(Path(path).read_text(encoding="utf-8"))
    key = (result["players"], result["metric"], result["shame_value"])
    entry = next((e for e in shipped["readings"] if (e["players"], e["metric"], e["shame_value"]) == key),
                 {"equilibrium": {}})
    shares = {name: share for name, share in entry["equilibrium"].items() if share > 0}
    total = sum(shares.values())
    if set(shares) != set(result["equilibrium"]) or any(
            not math.isclose(share / total, result["equilibrium"][name], abs_tol=1e-12)
            for name, share in shares.items()):
        raise UserError(f"check: the library in {path} changed during the check; nothing recorded")
    record = {"command": command, "gain": result["gain"],
              "interval": [result["exploitability_lo"], result["exploitability_hi"]],
              "reply": result["best_response"], "games": result["validation_games"]}
    entry["outside_checks"] = [r for r in entry.get("outside_checks", []) if r["command"] != command] + [record]
    write_libraries(Path(path), shipped)
    return entry


def check_command_line(players: int, metric: str, shame_value: int, check: OutsideCheck) -> str:
    """The command that runs one outside check of a shipped library."""
    return (f"cardsim cashnguns check --players {players} --metric {metric} --shame {shame_value} "
            f"--budget {check.budget} --games {check.validation_games} --seed {check.seed}"
            + (f" --local {check.local}" if check.local != DEFAULT_LOCAL else ""))
