"""A tiny per-game random stream (SplitMix64) so every game replays from one 64-bit seed.

Each game's seed is drawn from the numpy Generator handed to ``run_batch``, so all randomness
still comes from that Generator; storing the seed in the episode row lets any game be replayed
move by move. The compiled and the plain-Python versions give the same stream (tested).
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.jit import kernel

_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MASK = (1 << 64) - 1


@kernel(refcounts=False)
def next_uniform(state: np.ndarray) -> float:
    """Advance ``state`` (a one-element uint64 array) and return a float in [0, 1)."""
    state[0] += np.uint64(_GOLDEN)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


class PyStream:
    """The same SplitMix64 stream with Python integers (for the plain-Python reference)."""

    def __init__(self, seed: int) -> None:
        self.state = int(seed) & _MASK

    def uniform(self) -> float:
        """The next float in [0, 1), equal to :func:`next_uniform` for the same seed."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        z ^= z >> 31
        return (z >> 11) * (1.0 / 9007199254740992.0)
