"""The batched, compiled environment of The Game plays the rules of the PettingZoo environment
(the same deal, legal actions, rewards and ends, step for step) and reaches its throughput."""

from __future__ import annotations

import time

import numpy as np
import pytest

from cardsim.envs.vector import N_ACTIONS, OBS_SIZE, TheGameVectorEnv, random_actions
from cardsim.errors import UserError
from cardsim.sims.thegame.strategy import END_TURN, Table


def _mask_of(table: Table) -> np.ndarray:
    mask = np.zeros(N_ACTIONS, np.int8)
    for choice in table.legal:
        if choice is END_TURN:
            mask[0] = 1
        else:
            card, pile = choice
            mask[1 + 4 * table.hand(table.mover).index(card) + pile] = 1
    return mask


def _choice(table: Table, action: int):
    if action == 0:
        return END_TURN
    slot, pile = divmod(action - 1, 4)
    return table.hand(table.mover)[slot], pile


@pytest.mark.parametrize("players", [1, 3, 5])
def test_every_step_matches_the_python_engine(players):
    env = TheGameVectorEnv(8, players=players)
    obs, mask = env.reset(seed=5)
    tables = [Table(int(seed), players) for seed in env.deal_seeds]
    for table in tables:
        table.start(0)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(3_000):
        for b, table in enumerate(tables):
            assert mask[b].tolist() == _mask_of(table).tolist()
            assert env.movers[b] == table.mover
            hand = np.flatnonzero(obs[b, :98]) + 2
            assert sorted(hand.tolist()) == sorted(table.hand(table.mover))
        actions = random_actions(mask, rng)
        for b, table in enumerate(tables):
            table.play(_choice(table, int(actions[b])))
        obs, mask, rewards, dones, info = env.step(actions)
        assert ((rewards == 1) == (actions != 0)).all()
        for b in np.flatnonzero(dones):
            assert tables[b].over and info["cards_left"][b] == tables[b].cards_left()
            tables[b] = Table(int(env.deal_seeds[b]), players)
            tables[b].start(0)
            finished += 1
        assert (info["cards_left"][~dones] == -1).all()
    assert finished > 20
    assert obs.shape == (8, OBS_SIZE) and 0 <= obs.min() and obs.max() <= 1


def test_the_same_seed_gives_the_same_games_and_bad_input_is_refused():
    runs = []
    for _ in range(2):
        env = TheGameVectorEnv(16, players=3)
        _, mask = env.reset(seed=9)
        rng = np.random.default_rng(2)
        total = 0.0
        for _ in range(200):
            _, mask, rewards, _, _ = env.step(random_actions(mask, rng))
            total += rewards.sum()
        runs.append((env.deal_seeds.tolist(), total))
    assert runs[0] == runs[1]
    with pytest.raises(ValueError, match="not legal"):
        env.step(np.where(mask[:, 0] == 0, 0, np.argmin(mask, axis=1)))
    with pytest.raises(UserError, match="num_envs"):
        TheGameVectorEnv(0)
    with pytest.raises(UserError, match="players"):
        TheGameVectorEnv(4, players=9)


def test_at_least_100_000_steps_per_cpu_second():
    """The target of the batched environment (random legal actions included); measured in CPU
    seconds so that a busy machine does not fail it."""
    env = TheGameVectorEnv(512, players=3)
    _, mask = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(20):  # warm
        _, mask, *_ = env.step(random_actions(mask, rng))
    started = time.process_time()
    steps = 0
    while time.process_time() - started < 1.0:
        _, mask, *_ = env.step(random_actions(mask, rng))
        steps += env.num_envs
    assert steps / (time.process_time() - started) >= 100_000


@pytest.mark.parametrize("players", [3, 6])
def test_gang_heists_match_the_python_heist(players):
    """Every heist of the batched environment, replayed on the PettingZoo environment's
    :class:`~cardsim.envs.gang.Heist` with the same deal and stars, settles the same chips and
    ends the same way."""
    pytest.importorskip("pettingzoo")
    from cardsim.envs.gang import Heist
    from cardsim.envs.vector import GangVectorEnv, gang_obs_size

    env = GangVectorEnv(16, players=players)
    obs, mask = env.reset(seed=4)
    assert obs.shape == (16, gang_obs_size(players)) and mask.all()

    def twin(b):
        decks, seeds = env.deals
        heist = Heist(players, 0)
        deck = decks[b].tolist()
        heist.pockets = [tuple(deck[2 * p : 2 * p + 2]) for p in range(players)]
        heist.board = tuple(deck[2 * players : 2 * players + 5])
        heist.tie_seed = int(seeds[b])
        heist._outcomes()
        return heist

    heists = [twin(b) for b in range(16)]
    rng = np.random.default_rng(3)
    ended = successes = 0
    for _ in range(4 * players * 6):
        for b, heist in enumerate(heists):
            assert env.movers[b] == heist.mover
            pocket = np.flatnonzero(obs[b, :52]).tolist()
            assert pocket == sorted(heist.pockets[heist.mover])
            assert np.flatnonzero(obs[b, 52:104]).tolist() == sorted(heist.shown())
        actions = random_actions(mask, rng)
        for b, heist in enumerate(heists):
            heist.take(int(actions[b]) + 1)
        obs, mask, rewards, dones, info = env.step(actions)
        for b in range(16):
            assert dones[b] == heists[b].over
            if dones[b]:
                assert info["success"][b] == heists[b].success == (rewards[b] == 1)
                ended += 1
                successes += int(heists[b].success)
                heists[b] = twin(b)
    assert ended == 16 * 6 and successes < ended
    assert players > 3 or successes > 0  # random stars rarely succeed at 6 (1 in 6! orders)


def test_gang_at_least_100_000_steps_per_cpu_second():
    from cardsim.envs.vector import GangVectorEnv

    env = GangVectorEnv(1024, players=4)
    _, mask = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(20):
        _, mask, *_ = env.step(random_actions(mask, rng))
    started = time.process_time()
    steps = 0
    while time.process_time() - started < 1.0:
        _, mask, *_ = env.step(random_actions(mask, rng))
        steps += env.num_envs
    assert steps / (time.process_time() - started) >= 100_000


def test_bench_envs_is_a_benchmark_target(monkeypatch):
    """`cardsim bench envs` measures both batched environments against their PettingZoo
    references (timings shortened here)."""
    from cardsim.commands.bench import targets
    from cardsim.envs import bench

    assert targets()["envs"] == "cardsim.envs.bench:main"
    monkeypatch.setattr(bench, "aec_speed", lambda name, seconds, **kw: 1_000.0)
    monkeypatch.setattr(bench, "vector_speed", lambda make, seconds: 200_000.0)
    rows = bench.main(quick=True)
    assert [r["game"] for r in rows] == ["thegame", "gang", "cashnguns", "bang"]
    assert rows[0]["ratio"] == 200.0 and rows[0]["meets_target"] is True
    assert bench.aec_speed.__name__ == "<lambda>"


def test_bench_speed_functions_measure_steps():
    pytest.importorskip("pettingzoo")
    from cardsim.envs import bench

    assert bench.vector_speed(lambda: TheGameVectorEnv(32, players=2), 0.05) > 0
    assert bench.aec_speed("gang_v0", 0.05, players=3) > 0
