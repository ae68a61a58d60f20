"""The benchmark's naive reference plays exactly the kernel's heists (so the speed ratio
compares equal work), and the bench rows have the promised shape."""

from __future__ import annotations

import numpy as np

from cardsim.sims.gang.bench import naive_history_batch
from cardsim.sims.gang.engine import play_batch
from cardsim.sims.gang.models import HISTORY


def test_naive_reference_equals_shared_work_kernel() -> None:
    n, players = 150, 4
    rng = np.random.default_rng(5)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int64), (n, 1)), axis=1)
    out = play_batch(
        np.random.default_rng(6),
        players,
        HISTORY,
        1,
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        decks=decks,
    )
    seeds = np.random.default_rng(6).integers(0, 2**32 - 1, size=n, dtype=np.int64)
    chips = np.zeros((n, 4, players), dtype=np.int64)
    success = np.zeros(n, dtype=np.bool_)
    naive_history_batch(decks, seeds, players, chips, success)
    assert (chips == out["chips"][:, :, :players]).all()
    assert (success == (out["flags"][:, 0] == 1)).all()
