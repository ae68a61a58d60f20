"""Games whose bots did not change stay identical: a hash of every result column.

The expected digests were recorded before the role bot was fixed and moved out of the engine;
the random and naive bots were not changed, so their games must not move by a card.
The second set was recorded before the engine's kernels were restructured to compile faster:
every bot, mixed tables, the per-turn invariant checks and a focus seat with its
own bot and parameters on common random numbers.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from cardsim.sims.bang import engine
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


def digest_of(arrays) -> str:
    """sha256 (16 hex digits) over the result arrays."""
    digest = hashlib.sha256()
    for column in arrays:
        digest.update(np.ascontiguousarray(column).tobytes())
    return digest.hexdigest()[:16]


def games_digest(bot: str, players: int, n: int = 200) -> str:
    """sha256 over every result array of ``n`` games (seed = players) with ``bot`` everywhere."""
    config = BangConfig(players=players, **parse_bots(bot))
    return digest_of(play_arrays(config, np.random.default_rng(players), n))


@pytest.mark.parametrize(("bot", "players"), sorted(EXPECTED))
def test_games_of_unchanged_bots_are_identical(bot: str, players: int) -> None:
    assert games_digest(bot, players) == EXPECTED[(bot, players)]


MIXED = "sheriff=tuned,deputy=naive,outlaw=random,renegade=role"
BEFORE_COMPILE_CHANGES: dict[tuple[str, int], str] = {
    ("role", 4): "7d2013273bded9b2",
    ("role", 5): "ee89f41f8a9a8b02",
    ("role", 6): "0fb67715c1f20c2b",
    ("role", 7): "e4357ab011911650",
    ("tuned", 4): "f294ae11485a4b4d",
    ("tuned", 5): "89a16e96034a95fc",
    ("tuned", 6): "f571f1213c3acfeb",
    ("tuned", 7): "8ffc3492c9742b24",
    (MIXED, 4): "5246eafddafd42d9",
    (MIXED, 5): "5cfea01ad282aae4",
    (MIXED, 6): "becdbe12179cd982",
    (MIXED, 7): "680ae595065b7230",
}
FOCUS_BEFORE_COMPILE_CHANGES = {4: "27d9fdb99f91f1d4", 7: "1d06937cbfe0ca96"}


@pytest.mark.parametrize(("bots", "players"), sorted(BEFORE_COMPILE_CHANGES))
def test_games_are_identical_after_the_compile_changes(bots: str, players: int) -> None:
    config = BangConfig(players=players, **parse_bots(bots))
    arrays = play_arrays(config, np.random.default_rng(players), 300, strict=players == 5)
    assert digest_of(arrays) == BEFORE_COMPILE_CHANGES[(bots, players)]


@pytest.mark.parametrize("players", sorted(FOCUS_BEFORE_COMPILE_CHANGES))
def test_focus_games_are_identical_after_the_compile_changes(players: int) -> None:
    config = BangConfig(players=players, **parse_bots("role"))
    tuned = BangConfig(players=players, **parse_bots("tuned")).params_by_role()
    arrays = engine.play_focus_games(
        300,
        players,
        config.bots_by_role(),
        config.params_by_role(),
        2,
        3,
        tuned[2],
        1000,
        np.random.default_rng(10 + players),
        np.random.default_rng(20 + players),
        False,
    )
    assert digest_of(arrays) == FOCUS_BEFORE_COMPILE_CHANGES[players]
