"""Seeds: one root seed per run, one spawned child per chunk (numpy's parallel random guide).

Chunk ``i`` always gets the child ``SeedSequence(root).spawn(k)[i]`` (for any ``k > i``), which is
``SeedSequence(root, spawn_key=(i,))``; workers never own a seed, so the episodes are the same
whatever the worker count, the completion order or the backend.
"""

from __future__ import annotations

import numpy as np

from cardsim.errors import UserError


def validate_root_seed(root: int) -> int:
    """A root seed must be a non-negative integer (numpy's SeedSequence entropy)."""
    if isinstance(root, bool) or not isinstance(root, int) or root < 0:
        raise UserError(f"seed must be a non-negative integer, got {root!r}")
    return root


def chunk_seed(root: int, chunk_index: int) -> np.random.SeedSequence:
    """The seed sequence of chunk ``chunk_index``: the ``chunk_index``-th child of ``root``."""
    return np.random.SeedSequence(entropy=root, spawn_key=(chunk_index,))


def chunk_generator(root: int, chunk_index: int) -> np.random.Generator:
    """A fresh PCG64 generator for one chunk."""
    return np.random.Generator(np.random.PCG64(chunk_seed(root, chunk_index)))
