"""The compiled kernel: identical to the plain-Python reference, invariants on every game,
reproducibility, the config and the episode rows."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from cardsim.errors import UserError
from cardsim.sims.cashnguns.config import CashNGunsConfig
from cardsim.sims.cashnguns.reference import play_reference_game
from cardsim.sims.cashnguns.rng import PyStream, next_uniform
from cardsim.sims.cashnguns.rules import HAND_COUNTS, NOTES_PER_ROUND
from cardsim.sims.cashnguns.simulator import SIMULATOR, play_games, run_batch
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES
from cardsim.sims.core.runner import run

ALL = tuple(NAMED_STRATEGIES)
TABLES = [
    CashNGunsConfig(players=4, strategies=("random",)),
    CashNGunsConfig(players=5, strategies=ALL[:5]),
    CashNGunsConfig(players=6, strategies=ALL[5:11]),
    CashNGunsConfig(players=6, strategies=("shark", "trigger"), shame_value=5_000),
]


def test_compiled_and_python_streams_agree():
    state = np.array([987654321], np.uint64)
    stream = PyStream(987654321)
    assert [next_uniform(state) for _ in range(50)] == [stream.uniform() for _ in range(50)]


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.players}p-{'-'.join(c.strategies)}")
def test_kernel_matches_the_plain_python_reference(config):
    """Same seed, same game: the batch kernel and the Table engine agree on every output."""
    seeds = np.random.default_rng(config.players).integers(0, 2**63, 60).astype(np.uint64)
    raw = play_games(config, seeds)
    names = ("money", "wounds", "shame", "alive", "winner", "shots", "cards_used")
    for game, seed in enumerate(seeds):
        expected = play_reference_game(int(seed), config.slot_strategies(), config.shame_value / 5000)
        for index, name in enumerate(names):
            assert raw[index][game].tolist() == expected[name], (name, int(seed))
        assert [int(raw[i][game]) for i in range(7, 11)] == expected["game"]


@pytest.mark.parametrize("config", TABLES, ids=lambda c: f"{c.players}p-{'-'.join(c.strategies)}")
def test_invariants_on_every_simulated_game(config):
    """Loot paid + left = drawn; each bullet card used at most once; dead players have three
    wounds; money paid equals money held; winners are survivors; a lone survivor wins."""
    seeds = np.random.default_rng(11).integers(0, 2**63, 20_000).astype(np.uint64)
    money, wounds, shame, alive, winner, shots, cards, rounds, drawn, paid, left = play_games(config, seeds)
    assert np.array_equal(paid + left, drawn)
    assert np.array_equal(money.sum(axis=1), paid)
    assert (money >= 0).all()
    assert (cards <= np.array(HAND_COUNTS)).all() and (cards >= 0).all()
    assert (cards.sum(axis=2) <= rounds[:, None]).all()
    assert (cards.sum(axis=2)[alive] == np.broadcast_to(rounds[:, None], alive.shape)[alive]).all()
    assert (shots <= cards[:, :, 1] + cards[:, :, 2]).all()
    assert (shame <= cards.sum(axis=2)).all()
    assert np.array_equal(wounds == 3, ~alive)
    assert (wounds <= 3).all()
    assert not (winner & ~alive).any()
    survivors = alive.sum(axis=1)
    assert ((rounds == 8) | (survivors <= 1)).all()
    assert np.array_equal(winner[survivors == 1], alive[survivors == 1])
    assert not winner[survivors == 0].any()
    assert (winner.sum(axis=1)[survivors >= 1] >= 1).all()
    full = rounds == 8
    assert (drawn[full] == 15 + 30 + 40).all()  # all 40 notes: 15x1 + 15x2 + 10x4 units
    assert (drawn >= rounds * NOTES_PER_ROUND).all()


def test_run_batch_is_reproducible_and_has_one_compact_row_per_game():
    config = TABLES[1]
    first = run_batch(config, np.random.default_rng(3), 500)
    second = run_batch(config, np.random.default_rng(3), 500)
    assert first.height == 500 and first.equals(second)
    assert not first.equals(run_batch(config, np.random.default_rng(4), 500))
    assert first.schema["win"] == pl.Boolean and first.schema["wounds_0"] == pl.Int8
    assert first["win"].equals(first["win_0"].alias("win"))
    assert first.estimated_size() / first.height < 120


def test_game_seed_column_replays_a_game():
    config = TABLES[2]
    frame = run_batch(config, np.random.default_rng(5), 20)
    row = frame.row(7, named=True)
    replay = play_reference_game(row["game_seed"], config.slot_strategies(), -1.0)
    assert replay["money"] == [row[f"money_{s}"] // 5000 for s in range(6)]
    assert replay["winner"] == [row[f"win_{s}"] for s in range(6)]


def test_scores_count_only_survivors_with_the_shame_value():
    config = CashNGunsConfig(players=5, strategies=("random",), shame_value=-5_000)
    frame = run_batch(config, np.random.default_rng(8), 2_000)
    for slot in range(5):
        expected = (
            pl.when(pl.col(f"alive_{slot}"))
            .then(pl.col(f"money_{slot}") - 5_000 * pl.col(f"shame_{slot}").cast(pl.Int32))
            .otherwise(0)
        )
        assert frame.select((pl.col(f"score_{slot}") == expected).all()).item()


def test_runner_gives_the_same_table_for_any_job_count():
    config = TABLES[0]
    one = run(SIMULATOR, config, n=3_000, seed=9, chunk_size=1_000, jobs=1).episodes
    two = run(SIMULATOR, config, n=3_000, seed=9, chunk_size=1_000, jobs=2).episodes
    assert one.equals(two)


def test_symmetric_table_gives_every_slot_the_same_win_rate():
    """Seats are shuffled and ties broken at random: with one strategy for all, each slot's
    win rate equals the table average (exact by symmetry); tolerance 4.5 standard errors."""
    n = 40_000
    frame = run_batch(CashNGunsConfig(players=5, strategies=("hunter",)), np.random.default_rng(1), n)
    rates = np.array([frame[f"win_{s}"].mean() for s in range(5)])
    mean = rates.mean()
    tolerance = 4.5 * np.sqrt(mean * (1 - mean) / n)
    assert np.abs(rates - mean).max() < tolerance


def test_config_forms_and_validation():
    assert CashNGunsConfig(players=4, strategies=("coward",)).slot_specs() == ("coward",) * 4
    assert CashNGunsConfig(players=4, strategies=("shark", "coward")).slot_specs() == (
        "shark",
        "coward",
        "coward",
        "coward",
    )
    assert len(SIMULATOR.make_config(players=6, strategies=list(ALL[:6])).slot_strategies()) == 6
    for fields, message in [
        ({"players": 3}, "players must be 4-6"),
        ({"players": 7}, "players must be 4-6"),
        ({"players": 5, "strategies": ("a", "b", "c")}, "give 1 strategy"),
        ({"strategies": ("nope",)}, "unknown strategy"),
        ({"strategies": "coward"}, "tuple"),
        ({"shame_value": 2.5}, "whole dollars"),
    ]:
        with pytest.raises(UserError, match=message):
            CashNGunsConfig(**fields)


def test_kernel_matches_reference_on_random_custom_tables():
    """Random tables of strategies drawn from the whole space (every policy, random parameters,
    free card orders and opponent reading) and a random shame value: the kernel and the
    reference agree game by game."""
    from cardsim.sims.cashnguns.space import sample_extended_strategy

    rng = np.random.default_rng(2024)
    for _ in range(12):
        players = int(rng.integers(4, 7))
        specs = tuple(sample_extended_strategy(rng).spec() for _ in range(players))
        config = CashNGunsConfig(
            players=players, strategies=specs, shame_value=int(rng.choice([-10_000, -5_000, 0, 5_000]))
        )
        seeds = rng.integers(0, 2**63, 15).astype(np.uint64)
        raw = play_games(config, seeds)
        for game, seed in enumerate(seeds):
            expected = play_reference_game(int(seed), config.slot_strategies(), config.shame_value / 5000)
            assert raw[0][game].tolist() == expected["money"]
            assert raw[4][game].tolist() == expected["winner"]
            assert raw[6][game].tolist() == expected["cards_used"]
            assert [int(raw[i][game]) for i in range(7, 11)] == expected["game"]


def test_a_table_where_everyone_always_lies_down():
    """Everybody lies down every round: no gun ever fires, nobody shares, every player ends
    with 8 shame markers and no money, all 40 notes stay on the table, and all tie as winners."""
    config = CashNGunsConfig(players=5, strategies=("random:lie_p=1",))
    frame = run_batch(config, np.random.default_rng(0), 200)
    for slot in range(5):
        assert (frame[f"shame_{slot}"] == 8).all() and (frame[f"money_{slot}"] == 0).all()
        assert (frame[f"wounds_{slot}"] == 0).all() and (frame[f"shots_{slot}"] == 0).all()
        assert frame[f"win_{slot}"].all() and (frame[f"score_{slot}"] == -40_000).all()
    assert (frame["loot_left"] == 425_000).all() and (frame["loot_paid"] == 0).all()
    assert (frame["winners"] == 5).all()
