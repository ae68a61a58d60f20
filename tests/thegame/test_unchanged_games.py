"""The Game's games stay identical through compile-time changes: a hash of every statistic.

The digests were recorded on main before the single-caller turn kernels; any
change that moves a single card of any strategy's games (other than omniscient, which has its
own plan tests) changes them.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from cardsim.sims.thegame import kernel
from cardsim.sims.thegame.config import STRATEGIES
from cardsim.sims.thegame.params import strategy_params

BEFORE_COMPILE_CHANGES: dict[tuple[str, int], str] = {
    ("random", 1): "6040be82183a3a63",
    ("random", 2): "d6b02c8b5f1086ac",
    ("random", 3): "0e6effe6dc171e25",
    ("random", 5): "6ad20c511683c856",
    ("greedy", 1): "b12125dc5290aadf",
    ("greedy", 2): "8c43a56b998fd065",
    ("greedy", 3): "a8f69fb4d03650d0",
    ("greedy", 5): "2b9cbefd1ad3749b",
    ("planner", 1): "ba30df8cc8aa06c8",
    ("planner", 2): "ff2c3b6cd4666626",
    ("planner", 3): "1f934cd9e94220e4",
    ("planner", 5): "e8131247b003a4dd",
    ("signals", 1): "ba30df8cc8aa06c8",
    ("signals", 2): "c0d6eb54efa868f2",
    ("signals", 3): "379019ca07e91d40",
    ("signals", 5): "a4c3ea6ec2644c0e",
    ("search", 1): "9a3b11efef80161f",
    ("search", 2): "6d808ad0924d2ff2",
    ("search", 3): "9cd28200be813e4c",
    ("search", 5): "4502af14f8856a89",
}
SEEDS = np.arange(40, dtype=np.int64) * 7919 + 3


@pytest.mark.parametrize(("strategy", "players"), sorted(BEFORE_COMPILE_CHANGES))
def test_games_are_identical_after_the_compile_changes(strategy: str, players: int) -> None:
    strategy_id = STRATEGIES[strategy][0]
    hand_size = {1: 8, 2: 7}.get(players, 6)
    seeds = SEEDS[:10] if strategy == "search" else SEEDS
    stats = kernel.play_games(seeds, players, hand_size, 2, True, strategy_id, strategy_params(players, strategy))
    digest = hashlib.sha256(stats.tobytes()).hexdigest()[:16]
    assert digest == BEFORE_COMPILE_CHANGES[(strategy, players)]
