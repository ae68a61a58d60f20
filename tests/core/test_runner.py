"""Runner: determinism across jobs/backends, chunk seeds, store reuse, resume, precision stop."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import polars as pl
import pytest

from cardsim.errors import Interrupted, UserError
from cardsim.sims.core.coin import SIMULATOR as COIN
from cardsim.sims.core.coin import CoinConfig
from cardsim.sims.core.runner import compile_ahead, compile_one_game, load_episodes, run
from cardsim.sims.core.seeds import chunk_seed
from cardsim.sims.core.store import load_run
from cardsim.stats import wilson_half_width


def test_chunk_seed_is_the_spawned_child():
    children = np.random.SeedSequence(1234).spawn(7)
    for index, child in enumerate(children):
        mine = chunk_seed(1234, index)
        assert mine.generate_state(4).tolist() == child.generate_state(4).tolist()


def test_same_table_for_one_and_two_jobs():
    one = run(COIN, CoinConfig(0.3), n=1_234, seed=9, jobs=1).episodes
    two = run(COIN, CoinConfig(0.3), n=1_234, seed=9, jobs=2).episodes
    assert one.height == 1_234
    assert one.equals(two)


def test_other_seed_other_table():
    first = run(COIN, CoinConfig(0.3), n=300, seed=1).episodes
    second = run(COIN, CoinConfig(0.3), n=300, seed=2).episodes
    assert not first.equals(second)


def test_table_is_prefix_of_longer_run():
    short = run(COIN, CoinConfig(0.5), n=250, seed=3).episodes
    long = run(COIN, CoinConfig(0.5), n=1_000, seed=3).episodes
    assert long.head(250).equals(short)


def test_same_table_on_dask_local_cluster():
    distributed = pytest.importorskip("dask.distributed")
    local = run(COIN, CoinConfig(0.4), n=800, seed=5, jobs=1).episodes
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = run(COIN, CoinConfig(0.4), n=800, seed=5, backend="dask", scheduler=cluster.scheduler_address).episodes
    assert local.equals(remote)


def test_dask_without_scheduler_is_a_user_error():
    with pytest.raises(UserError, match="scheduler"):
        run(COIN, CoinConfig(), n=10, backend="dask")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n": 0}, "positive"),
        ({"n": -5}, "positive"),
        ({"n": 10, "jobs": 0}, "jobs"),
        ({"n": 10, "backend": "spark"}, "backend"),
        ({"n": 10, "precision": 0.7}, "precision"),
        ({"n": 100, "precision": 0.01, "max_n": 10}, "max-n"),
        ({"n": 10, "seed": -1}, "seed"),
    ],
)
def test_bad_options_are_user_errors(kwargs, message):
    with pytest.raises(UserError, match=message):
        run(COIN, CoinConfig(), **kwargs)


def test_store_reuses_and_extends(tmp_path):
    first = run(COIN, CoinConfig(0.3), n=250, seed=4, store=tmp_path)
    stored = load_run(first.path)
    assert stored.chunk_indices() == [0, 1, 2]
    assert stored.manifest["n"] == 250
    calls: list[int] = []
    again = run(COIN, CoinConfig(0.3), n=250, seed=4, store=tmp_path, on_chunk=calls.append)
    assert calls == []  # nothing recomputed
    assert again.episodes.equals(first.episodes)
    longer = run(COIN, CoinConfig(0.3), n=520, seed=4, store=tmp_path, on_chunk=calls.append)
    assert sorted(calls) == [3, 4, 5]
    assert longer.episodes.equals(run(COIN, CoinConfig(0.3), n=520, seed=4).episodes)
    assert load_episodes(load_run(first.path)).equals(longer.episodes)


def test_interrupted_run_resumes_to_same_table(tmp_path):
    def stop_after_three(index: int) -> None:
        if index == 2:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="3 finished chunk"):
        run(COIN, CoinConfig(0.6), n=900, seed=8, store=tmp_path, on_chunk=stop_after_three)
    calls: list[int] = []
    resumed = run(COIN, CoinConfig(0.6), n=900, seed=8, store=tmp_path, on_chunk=calls.append)
    assert sorted(calls) == list(range(3, 9))
    uninterrupted = run(COIN, CoinConfig(0.6), n=900, seed=8).episodes
    assert resumed.episodes.equals(uninterrupted)


def test_corrupt_chunk_is_named_and_kept(tmp_path):
    result = run(COIN, CoinConfig(), n=200, seed=1, store=tmp_path)
    chunk = result.path / "chunks" / "000001.parquet"
    chunk.write_bytes(b"not parquet")
    with pytest.raises(UserError, match="corrupt results file .*000001.parquet"):
        run(COIN, CoinConfig(), n=200, seed=1, store=tmp_path)
    assert chunk.read_bytes() == b"not parquet"


def test_corrupt_manifest_is_named_and_kept(tmp_path):
    result = run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    manifest = result.path / "manifest.json"
    manifest.write_text("{ broken")
    with pytest.raises(UserError, match="corrupt results file .*manifest.json"):
        run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    assert manifest.read_text() == "{ broken"


def test_foreign_file_in_run_folder_is_an_error(tmp_path):
    result = run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    (result.path / "chunks" / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="foreign file .*notes.txt"):
        run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)


def test_precision_stop_is_deterministic_and_meets_target():
    runs = [run(COIN, CoinConfig(0.2), n=100, seed=11, jobs=jobs, precision=0.02) for jobs in (1, 2)]
    assert runs[0].episodes.equals(runs[1].episodes)
    episodes = runs[0].episodes
    half = float(wilson_half_width(episodes["heads"].sum(), episodes.height))
    assert half < 0.02
    # one chunk fewer would not have met the target: the stop is the first prefix that does
    shorter = episodes.head(episodes.height - COIN.chunk_size)
    assert float(wilson_half_width(shorter["heads"].sum(), shorter.height)) >= 0.02
    assert "precision reached" in runs[0].stop_rule


def test_precision_stops_at_max_n():
    result = run(COIN, CoinConfig(0.5), n=100, seed=2, precision=0.001, max_n=450)
    assert result.episodes.height == 450
    assert result.stop_rule.startswith("max-n reached")


def test_one_job_plays_no_chunk_past_the_stop(tmp_path):
    result = run(COIN, CoinConfig(0.2), n=100, seed=11, jobs=1, precision=0.02, store=tmp_path)
    assert "precision reached" in result.stop_rule
    assert result.manifest["chunks_done"] == result.manifest["chunks_used"]
    assert result.manifest["chunks_done"] * COIN.chunk_size == result.episodes.height


def test_precision_counts_the_last_chunk_only_up_to_max_n():
    # chunks of 400 and max-n 500: the target is checked on the 500 episodes reported, not
    # on the 800 of the two chunks played
    size, limit = 400, 500
    result = run(COIN, CoinConfig(0.5), n=size, seed=4, precision=0.0435, max_n=limit, chunk_size=size)
    assert result.episodes.height == limit
    half = float(wilson_half_width(result.episodes["heads"].sum(), limit))
    assert (half < 0.0435) == result.stop_rule.startswith("precision reached")
    assert f"n={limit:,}" in result.stop_rule


def test_episode_count_rounds_chunks_up_but_table_has_n_rows():
    result = run(COIN, CoinConfig(), n=101, seed=0)
    assert result.episodes.height == 101
    assert result.manifest["chunks_used"] == math.ceil(101 / COIN.chunk_size)
    assert isinstance(result.episodes, pl.DataFrame)


def test_code_change_gives_a_new_run_folder(tmp_path, monkeypatch):
    first = run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    monkeypatch.setattr("cardsim.sims.core.runner.code_fingerprint", lambda module: "0" * 16)
    second = run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    assert first.path != second.path


def test_fingerprint_follows_imported_simulator_packages():
    from cardsim.sims.core.fingerprint import _SIMS_IMPORT

    source = "from cardsim.sims.poker.evaluator import evaluate\nimport cardsim.sims.core.seeds\n"
    assert _SIMS_IMPORT.findall(source) == ["poker", "core"]
    assert _SIMS_IMPORT.findall('"""mentions cardsim.sims.bang in prose"""') == []


def test_compile_one_game_plays_one_episode_of_each_config(monkeypatch):
    played: list[tuple[float, int]] = []

    def recording_batch(config, rng, n):
        played.append((config.p_heads, n))
        return COIN.run_batch(config, rng, n)

    coin = dataclasses.replace(COIN, run_batch=recording_batch)
    assert compile_one_game(coin, [CoinConfig(0.2), CoinConfig(0.7)]) == "coin"
    assert played == [(0.2, 1), (0.7, 1)]


def test_compile_ahead_runs_in_worker_processes_only_when_there_is_a_second_core():
    starts: list[int] = []
    work = [(COIN, [CoinConfig(0.3)]), (COIN, [CoinConfig(0.6)])]
    compile_ahead(work, jobs=1, on_start=lambda: starts.append(1))
    compile_ahead(work[:1], jobs=2, on_start=lambda: starts.append(2))
    assert starts == []
    compile_ahead(work, jobs=2, on_start=lambda: starts.append(3))
    assert starts == [3]
