"""The smallest possible simulator: a biased coin, one flip per episode.

It is the plug-in example of docs/contributing.md and the runner's test subject (its exact
success probability is known, and it needs no game code).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from cardsim.errors import UserError
from cardsim.sims.core.simulator import Simulator


@dataclass(frozen=True)
class CoinConfig:
    """Probability of heads."""

    p_heads: float = 0.5

    def __post_init__(self) -> None:
        if not 0.0 <= self.p_heads <= 1.0:
            raise UserError(f"p_heads must be between 0 and 1, got {self.p_heads}")


def run_batch(config: CoinConfig, rng: np.random.Generator, n: int) -> pl.DataFrame:
    """``n`` flips: the uniform draw itself is kept so tests can compare tables bit for bit."""
    draws = rng.random(n)
    return pl.DataFrame({"draw": draws, "heads": draws < config.p_heads})


SIMULATOR = Simulator(
    name="coin",
    config_type=CoinConfig,
    run_batch=run_batch,
    headline="heads",
    policies={"fair": "p_heads = 0.5"},
    chunk_size=100,
)
