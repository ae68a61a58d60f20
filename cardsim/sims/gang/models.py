"""The ladder of player models: names, ids and the chip-likelihood table the bayes model uses.

The models themselves run inside the heist kernel (:mod:`cardsim.sims.gang.engine`); each is
documented in ``seeds/the_gang.md`` ("Player models"): what a player knows, what they signal
(which chip they claim) and how contested chips are settled.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np

RANDOM, PERCENTILE, HISTORY, BAYES = 0, 1, 2, 3
LEAKY = 4  # not a player model: claims the true team rank (reads hidden cards); only the
#            hidden-card swap test uses it, to show that the test catches a leak
MODEL_IDS: dict[str, int] = {"random": RANDOM, "percentile": PERCENTILE, "history": HISTORY, "bayes": BAYES}
MODEL_DESCRIPTIONS: dict[str, str] = {
    "random": "each round a uniformly random chip allocation (exact success = tied orders / n!)",
    "percentile": "claim the band of your hand's percentile among all opponent holdings; "
    "contests at random",
    "history": "percentile claims; contests settled by earlier visible chips, most recent first",
    "bayes": "posterior over each teammate's holding from chips and announcements; claim your "
    "expected rank in the team; contests settled on public beliefs",
}


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
