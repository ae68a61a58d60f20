"""α-Rank of a population of strategies in a symmetric game (one population).

α-Rank (Omidshafiei, Papadimitriou, Piliouras, Tuyls, Rowland, Lespiau, Czarnecki, Lanctot,
Perolat & Munos, "α-Rank: Multi-Agent Evaluation by Evolution", Sci. Rep. 9:9937, 2019) ranks
strategies by the stationary distribution of an evolutionary process: a population of ``m``
individuals all play one strategy; now and then one mutates to another strategy, and the
mutants take over (fixate) or die out with a probability set by how much better they fare
(the Fermi rule with selection intensity ``α``). The chain moves between the monomorphic
populations; the mass it spends in each is the strategy's score.

A strategy's fitness is its expected payoff in a game whose other ``players - 1`` seats are
drawn without replacement from the rest of the population (``k`` mutants of strategy ``s``,
``m - k`` residents of ``r``): for two players this is the finite-population fitness of the
paper's single-population model (Traulsen, Nowak & Pacheco 2006); for more players the draw
is hypergeometric. Payoffs come from a function ``payoff(strategy, mutants, residents)`` of the
table's composition (the strategy's own seat included), so any heuristic payoff table covering
every table of two strategies serves.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: payoff(strategy index, its side's seats, the other side's seats, other strategy index):
#: the strategy's payoff at a table of ``own`` seats of it and ``other`` seats of the other.
TablePayoff = Callable[[int, int, int, int], float]


@dataclass(frozen=True)
class AlphaRank:
    """The result: ``pi`` (stationary mass per strategy, sums to 1), ``order`` (indices, best
    first), ``fixation`` (K, K) probability that one mutant of column ``s`` takes over a
    population of row ``r``, ``transitions`` (K, K) the Markov chain, and the settings."""

    pi: np.ndarray
    order: np.ndarray
    fixation: np.ndarray
    transitions: np.ndarray
    alpha: float
    population: int


def _hypergeometric(total: int, marked: int, draws: int) -> np.ndarray:
    """P(j marked among ``draws`` drawn without replacement from ``total``), j = 0..draws."""
    out = np.zeros(draws + 1)
    denominator = math.comb(total, draws)
    for j in range(draws + 1):
        if j <= marked and draws - j <= total - marked:
            out[j] = math.comb(marked, j) * math.comb(total - marked, draws - j) / denominator
    return out


def fitness(
    payoff: TablePayoff, mutant: int, resident: int, mutants: int, population: int, players: int
) -> tuple[float, float]:
    """(mutant's, resident's) expected payoff with ``mutants`` mutants in the population: the
    others at its table drawn without replacement from the other ``population - 1``."""
    others = players - 1
    mutant_draw = _hypergeometric(population - 1, mutants - 1, others)
    resident_draw = _hypergeometric(population - 1, mutants, others)
    f_mutant = sum(p * payoff(mutant, 1 + j, others - j, resident) for j, p in enumerate(mutant_draw) if p > 0)
    f_resident = sum(p * payoff(resident, others - j + 1, j, mutant) for j, p in enumerate(resident_draw) if p > 0)
    return f_mutant, f_resident


def fixation_probability(differences: np.ndarray, alpha: float) -> float:
    """Probability that one mutant takes over under the Fermi rule, from the fitness
    differences (mutant minus resident) at k = 1 .. m - 1 mutants:
    1 / sum_{l=0}^{m-1} prod_{k=1}^{l} exp(-alpha * difference_k), in log space."""
    exponents = np.concatenate([[0.0], np.cumsum(-alpha * np.asarray(differences, np.float64))])
    top = float(exponents.max())
    return float(math.exp(-(top + math.log(float(np.exp(exponents - top).sum())))))


def alpha_rank(
    payoff: TablePayoff, strategies: int, players: int, *, alpha: float = 10.0, population: int = 50
) -> AlphaRank:
    """α-Rank of ``strategies`` strategies in a symmetric ``players``-player game whose
    payoffs ``payoff`` gives (see :data:`TablePayoff`); ``population`` (m) individuals,
    selection intensity ``alpha``, every mutation equally likely (1 / (K - 1))."""
    if strategies < 1 or players < 2 or population < players or alpha < 0:
        raise ValueError("alpha_rank: need strategies >= 1, players >= 2, population >= players, alpha >= 0")
    count = strategies
    fixation = np.zeros((count, count))
    for resident in range(count):
        for mutant in range(count):
            if mutant == resident:
                continue
            differences = []
            for mutants in range(1, population):
                f_mutant, f_resident = fitness(payoff, mutant, resident, mutants, population, players)
                differences.append(f_mutant - f_resident)
            fixation[resident, mutant] = fixation_probability(np.array(differences), alpha)
    eta = 1.0 / (count - 1) if count > 1 else 0.0
    transitions = eta * fixation
    np.fill_diagonal(transitions, 0.0)
    np.fill_diagonal(transitions, 1.0 - transitions.sum(axis=1))
    pi = stationary(transitions)
    order = np.array(sorted(range(count), key=lambda s: (-pi[s], s)), np.int64)
    return AlphaRank(pi, order, fixation, transitions, float(alpha), int(population))


def stationary(transitions: np.ndarray) -> np.ndarray:
    """The stationary distribution of a row-stochastic matrix (pi P = pi, sum 1), by least
    squares on the balance equations with the normalisation appended."""
    count = transitions.shape[0]
    system = np.vstack([transitions.T - np.eye(count), np.ones((1, count))])
    target = np.zeros(count + 1)
    target[-1] = 1.0
    pi, *_ = np.linalg.lstsq(system, target, rcond=None)
    pi = np.maximum(pi, 0.0)
    return pi / pi.sum()


def matrix_payoff(matrix: np.ndarray) -> TablePayoff:
    """A two-player symmetric game's payoff matrix (row: my strategy, column: the other's) as
    a :data:`TablePayoff`."""
    matrix = np.asarray(matrix, np.float64)

    def payoff(strategy: int, own: int, other: int, other_strategy: int) -> float:
        return float(matrix[strategy, strategy if own == 2 else other_strategy])

    return payoff
