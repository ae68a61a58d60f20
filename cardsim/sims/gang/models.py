"""The ladder of player models: names, ids and the chip-likelihood table the bayes model uses.

The models themselves run inside the heist kernel (:mod:`cardsim.sims.gang.engine`); each is
documented in ``seeds/the_gang.md`` ("Player models"): what a player knows, what they signal
(which chip they claim) and how contested chips are settled.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

RANDOM, PERCENTILE, HISTORY, BAYES = 0, 1, 2, 3
LEAKY = 4  # not a player model: claims the true team rank (reads hidden cards); only the
#            hidden-card swap test uses it, to show that the test catches a leak


@dataclass(frozen=True)
class PlayerModel:
    """One rung of the ladder, as everything outside the kernel sees it.

    Attributes:
        name: the ``--model`` name.
        id: the kernel's id (the constant its decision code branches on).
        description: one line of how it plays (``cardsim gang models``, the simulator's policies,
            the report).
        cost: rough cost of a heist against a percentile heist, for the report's scheduler
            order only.
        bench_heists: heists ``cardsim bench gang`` times it on (times 4 without ``--quick``).
        bench_target: the heists per second ``cardsim bench gang`` holds it to (None: no target).
    """

    name: str
    id: int
    description: str
    cost: float = 1.0
    bench_heists: int = 10_000
    bench_target: int | None = None


#: the player models, weakest first: the one table the command line, the API, the report, the
#: benchmark and the hidden-information check read
PLAYER_MODELS: tuple[PlayerModel, ...] = (
    PlayerModel(
        "random",
        RANDOM,
        "each round a uniformly random chip allocation (exact success = tied orders / n!)",
        cost=0.2,
        bench_heists=50_000,
    ),
    PlayerModel(
        "percentile",
        PERCENTILE,
        "claim the band of your hand's percentile among all opponent holdings; contests at random",
    ),
    PlayerModel(
        "history",
        HISTORY,
        "percentile claims; contests settled by earlier visible chips, most recent first",
        bench_target=50_000,
    ),
    PlayerModel(
        "bayes",
        BAYES,
        "posterior over each teammate's holding from chips and announcements; claim your "
        "expected rank in the team; contests settled on public beliefs",
        cost=8.0,
        bench_heists=1_000,
        bench_target=6_000,
    ),
)
MODEL_IDS: dict[str, int] = {model.name: model.id for model in PLAYER_MODELS}
MODEL_DESCRIPTIONS: dict[str, str] = {model.name: model.description for model in PLAYER_MODELS}


@cache
def chip_likelihood(players: int, bands: int) -> np.ndarray:
    """P(chip = c | own claimed band = b), shape (players, bands).

    The bayes model's view of a teammate (a "percentile player" model of the others): the
    teammate claims band ``b`` of ``bands`` equal percentile bands, the other ``players - 1``
    claims are independent and uniform over the bands, and equal claims are ordered at random.
    The chip is then one plus the number of claims placed below the teammate's.
    """
    others = players - 1
    table = np.zeros((players, bands))
    for band in range(bands):
        p_low = band / bands
        p_equal = 1.0 / bands
        p_high = 1.0 - p_low - p_equal
        for below in range(others + 1):
            for equal in range(others - below + 1):
                above = others - below - equal
                weight = (
                    comb(others, below)
                    * comb(others - below, equal)
                    * p_low**below
                    * p_equal**equal
                    * max(p_high, 0.0) ** above
                )
                for position in range(below, below + equal + 1):
                    table[position, band] += weight / (equal + 1)
    return table
