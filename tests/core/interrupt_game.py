"""A slow coin for the Ctrl-C tests: every chunk takes a moment, so a signal lands mid-run.

Run as a script it plays one stored run with two workers and reports an interruption as the
command line does (one line on stderr, exit 130)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import numpy as np
import polars as pl

from cardsim.sims.core.simulator import Simulator


@dataclass(frozen=True)
class SlowCoinConfig:
    seconds: float = 0.4


def run_batch(config: SlowCoinConfig, rng: np.random.Generator, n: int) -> pl.DataFrame:
    time.sleep(config.seconds)
    draws = rng.random(n)
    return pl.DataFrame({"draw": draws, "heads": draws < 0.5})


SIMULATOR = Simulator(
    name="slowcoin",
    config_type=SlowCoinConfig,
    run_batch=run_batch,
    headline="heads",
    policies={"fair": "p = 0.5"},
    chunk_size=10,
)

if __name__ == "__main__":
    from cardsim.errors import Interrupted
    from cardsim.sims.core import runner
    from tests.core.interrupt_game import (
        SIMULATOR as GAME,  # by module name, for the workers
    )
    from tests.core.interrupt_game import SlowCoinConfig as Config

    runner.code_fingerprint = lambda module: "slowcoin"  # a test game outside cardsim.sims
    try:
        runner.run(GAME, Config(), n=2_000, seed=1, jobs=2, store=sys.argv[1])
    except Interrupted as exc:
        print(exc, file=sys.stderr)
        sys.exit(130)
