"""The symmetric meta-game of any game whose seats are shuffled and strategies anonymous.

Each of ``players`` players picks a strategy from a list; a player's payoff depends on its
strategy and on the multiset of the others' strategies (:class:`SymmetricGame`). This module
finds a symmetric mixed Nash equilibrium (replicator dynamics and a hedge average from several
starts, polished by Newton's method on the support, :func:`symmetric_equilibrium`) and measures
any mix's regret (:func:`evaluate_mix`). It knows nothing of the game that made the payoffs.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from cardsim.stats import Z95


def table_profiles(strategy_count: int, players: int) -> list[tuple[int, ...]]:
    """Every multiset of ``players`` strategy indices, sorted (combinations with repetition)."""
    return list(itertools.combinations_with_replacement(range(strategy_count), players))


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


def symmetric_equilibrium(
    game: SymmetricGame, *, starts: int = 4, iterations: int = 2_000, seed: int = 0
) -> Equilibrium:
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
