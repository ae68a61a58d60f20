"""Higher or Lower for the runner: config, plain-numpy ``run_batch``, checks. Ranks: 0 (two) to 12 (ace)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
import polars as pl

from cardsim.errors import UserError
from cardsim.sims.core.game import HiddenInfoResult
from cardsim.sims.core.simulator import Simulator

DECK = np.repeat(np.arange(13), 4)
STRATEGIES = {
    "random": "calls higher or lower at random",
    "middle": "calls higher on an 8 or below, lower above it",
    "counting": "counts the unseen cards above and below the shown one; calls the larger side",
}


@dataclass(frozen=True)
class HiloConfig:
    strategy: str = "counting"
    target: int = 5

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise UserError(f"hilo: unknown strategy {self.strategy!r}; choose from: "
                            f"{', '.join(STRATEGIES)}")
        if not isinstance(self.target, int) or not 1 <= self.target <= 51:
            raise UserError(f"hilo: target must be 1-51 calls, got {self.target!r}")


def deal(rng: np.random.Generator, n: int, target: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` shuffled decks and the coin flips the random strategy calls with."""
    return rng.permuted(np.tile(DECK, (n, 1)), axis=1), rng.random((n, target)) < 0.5


def calls(decks: np.ndarray, coins: np.ndarray, strategy: str) -> np.ndarray:
    """(n, target) calls, True = higher: call ``k`` sees cards 0..k of each deck only."""
    rows = np.arange(len(decks))
    unseen = np.full((len(decks), 13), 4)
    out = np.zeros(coins.shape, dtype=bool)
    for step in range(coins.shape[1]):
        shown = decks[:, step]
        unseen[rows, shown] -= 1
        if strategy == "random":
            out[:, step] = coins[:, step]
        elif strategy == "middle":
            out[:, step] = shown <= 6
        else:
            below = np.cumsum(unseen, axis=1)[rows, shown] - unseen[rows, shown]
            out[:, step] = unseen.sum(axis=1) - below - unseen[rows, shown] >= below
    return out


def play(decks: np.ndarray, coins: np.ndarray, strategy: str) -> tuple[np.ndarray, np.ndarray]:
    """(won, right calls before the first miss) per deck."""
    higher = calls(decks, coins, strategy)
    target = coins.shape[1]
    shown, turned = decks[:, :target], decks[:, 1 : target + 1]
    right = np.where(higher, turned > shown, turned < shown)
    streak = np.cumprod(right, axis=1).sum(axis=1)
    return streak == target, streak


def run_batch(config: HiloConfig, rng: np.random.Generator, n: int) -> pl.DataFrame:
    """One row per game: strategy, target, won (headline), correct calls, first card's rank."""
    decks, coins = deal(rng, n, config.target)
    won, correct = play(decks, coins, config.strategy)
    return pl.DataFrame({
        "strategy": pl.Series([config.strategy] * n, dtype=pl.String),
        "target": pl.Series(np.full(n, config.target, np.int8)),
        "won": pl.Series(won),
        "correct": pl.Series(correct.astype(np.int8)),
        "first_rank": pl.Series(decks[:, 0].astype(np.int8)),
    })


def reference_game(deck: list[int], coins: list[bool], strategy: str) -> tuple[bool, int]:
    """The plain-Python referee and player: one game card by card -> (won, right calls)."""
    seen: list[int] = []
    for step, flip in enumerate(coins):
        shown, turned = deck[step], deck[step + 1]
        seen.append(shown)
        unseen = [r for r in range(13) for _ in range(4 - seen.count(r))]
        above = sum(r > shown for r in unseen)
        below = sum(r < shown for r in unseen)
        higher = {"random": flip, "middle": shown <= 6, "counting": above >= below}[strategy]
        if not (turned > shown if higher else turned < shown):
            return False, step
    return True, len(coins)


def reference_check(seed: int) -> int:
    """The vectorised games against :func:`reference_game`; returns the games compared."""
    decks, coins = deal(np.random.default_rng(seed), 40, 8)
    for strategy in STRATEGIES:
        won, correct = play(decks, coins, strategy)
        for game in range(len(decks)):
            expected = reference_game(decks[game].tolist(), coins[game].tolist(), strategy)
            assert (bool(won[game]), int(correct[game])) == expected, (strategy, game)
    return len(decks) * len(STRATEGIES)


def peeking_calls(decks: np.ndarray, coins: np.ndarray) -> np.ndarray:
    """A deliberately leaky player: calls "higher" exactly when the next card, still face down,
    is higher. The hidden-information check must catch it."""
    target = coins.shape[1]
    return decks[:, 1 : target + 1] > decks[:, :target]


def hidden_info_check(seed: int, policy: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
                      ) -> HiddenInfoResult:
    """Reshuffle the cards not yet turned up and count the calls made so far that change.
    ``policy``: ``calls(decks, coins)`` to check instead of the three strategies."""
    rng = np.random.default_rng(seed)
    decks, coins = deal(rng, 40, 12)
    players = {name: partial(calls, strategy=name) for name in STRATEGIES} if policy is None else {"policy": policy}
    compared = changed = 0
    for step in range(coins.shape[1]):
        other = decks.copy()
        other[:, step + 1:] = rng.permuted(decks[:, step + 1:], axis=1)
        for call in players.values():
            before, after = call(decks, coins), call(other, coins)
            compared += len(decks)
            changed += int((before[:, : step + 1] != after[:, : step + 1]).any(axis=1).sum())
    return HiddenInfoResult(compared, changed)


SIMULATOR = Simulator("hilo", HiloConfig, run_batch, headline="won", policies=STRATEGIES, chunk_size=20_000)
