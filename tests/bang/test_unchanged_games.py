"""Games whose bots did not change stay identical: a hash of every result column.

The expected digests were recorded before the role bot was fixed and moved out of the engine
(issue 18); the random and naive bots were not changed, so their games must not move by a card.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from cardsim.sims.bang.simulator import BangConfig, parse_bots, play_arrays

EXPECTED: dict[tuple[str, int], str] = {
    ("random", 4): "c4cff00cea4ba534",
    ("random", 5): "45a83b4651f2dc7f",
    ("random", 6): "03180cd56678c8d0",
    ("random", 7): "f890d9f7639ae8d0",
    ("naive", 4): "baecb9d5278f3887",
    ("naive", 5): "3fb3f53006cf372e",
    ("naive", 6): "83c43f04811040a3",
    ("naive", 7): "fe32519da0b840b4",
}


def games_digest(bot: str, players: int, n: int = 200) -> str:
    """sha256 over every result array of ``n`` games (seed = players) with ``bot`` everywhere."""
    config = BangConfig(players=players, **parse_bots(bot))
    digest = hashlib.sha256()
    for column in play_arrays(config, np.random.default_rng(players), n):
        digest.update(np.ascontiguousarray(column).tobytes())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("bot", "players"), sorted(EXPECTED))
def test_games_of_unchanged_bots_are_identical(bot: str, players: int) -> None:
    assert games_digest(bot, players) == EXPECTED[(bot, players)]
