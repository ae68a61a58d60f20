"""A dask cluster's failures: a killed worker, strategy files the workers do not have, a
failing strategy, and schedulers that cannot serve (one line, exit 2, within the timeout)."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import pytest

import cardsim
from cardsim.cli import main
from cardsim.errors import UserError
from cardsim.sims.core import parallel
from cardsim.sims.core.runner import run
from cardsim.sims.core.store import load_run
from tests.cluster.test_backends import COMMANDS
from tests.core.interrupt_game import SIMULATOR as SLOW_COIN
from tests.core.interrupt_game import SlowCoinConfig

distributed = pytest.importorskip("dask.distributed")
pytestmark = pytest.mark.xdist_group("dask_cluster")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
BROKEN = """
class Broken:
    def play(self, view, legal):
        raise ValueError("boom")
"""


@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster of two one-thread worker processes (their nannies restart a killed one)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address
        parallel.disconnect()


def cardsim_cli(capsys, *args: str) -> tuple[int, str, str]:
    """The console entry point in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def test_a_killed_worker_loses_no_finished_chunk(scheduler, tmp_path):
    config = SlowCoinConfig(seconds=0.1)
    client = parallel.connect(scheduler)
    victim = sorted(client.run(os.getpid).values())[0]
    arrived: list[int] = []

    def kill_after_four(index: int) -> None:
        arrived.append(index)
        if len(arrived) == 4:
            os.kill(victim, signal.SIGKILL)  # mid-run: the other worker holds a running chunk

    there = run(
        SLOW_COIN, config, n=400, seed=3, backend="dask", scheduler=scheduler, store=tmp_path, on_chunk=kill_after_four
    )
    here = run(SLOW_COIN, config, n=400, seed=3, jobs=1)
    assert victim not in client.run(os.getpid).values()  # the worker did die
    assert there.episodes.equals(here.episodes)
    assert sorted(arrived) == list(range(40))  # every chunk once, none lost
    stored = load_run(there.path)
    assert stored.chunk_indices() == list(range(40))
    assert not stored.unhashed_chunk_indices(40)  # the client wrote and hashed every chunk
    client.wait_for_workers(2, timeout=60)  # the nanny's new worker, for the next tests


@pytest.mark.parametrize(
    "game, example, name",
    [
        ("gang", "gang_pairs_high.py", "PairsHigh"),
        ("thegame", "thegame_closest.py", "Closest"),  # its workers are given the absolute path
    ],
)
def test_a_strategy_file_reaches_workers_that_lack_it(scheduler, capsys, tmp_path, monkeypatch, game, example, name):
    source = (EXAMPLES / example).read_text()
    (tmp_path / "only_here.py").write_text(source)
    monkeypatch.chdir(tmp_path)  # the workers started elsewhere: no only_here.py beside them
    client = parallel.connect(scheduler)
    assert not any(client.run(os.path.exists, "only_here.py").values())
    args = [game, "evaluate", "--strategy", f"only_here.py:{name}", "--n", "600", "--json"]
    # in this process: joblib workers reused from earlier tests keep the folder they started in
    code, here, err = cardsim_cli(capsys, *args, "--jobs", "1")
    assert code == 0, err
    code, there, err = cardsim_cli(capsys, *args, "--backend", "dask", "--scheduler", scheduler)
    assert code == 0, err
    assert there == here
    received = client.run(_received_sources)  # what the workers load instead of their files
    assert any({"only_here.py", str(tmp_path / "only_here.py")} <= set(paths) for paths in received.values())


def test_strategy_files_reach_their_own_processes_on_workers_that_lack_them(scheduler, capsys, tmp_path, monkeypatch):
    # a cross-play runs each strategy in a process of its own (isolation), on the worker
    for file, example in (("first_here.py", "gang_pairs_high.py"), ("second_here.py", "gang_percentile.py")):
        (tmp_path / file).write_text((EXAMPLES / example).read_text())
    monkeypatch.chdir(tmp_path)
    client = parallel.connect(scheduler)
    assert not any(client.run(os.path.exists, "first_here.py").values())
    args = ["gang", "crossplay", "-e", "first_here.py:PairsHigh,second_here.py:Percentile", "--players", "3"]
    args += ["--n", "150", "--no-store", "--json"]
    code, here, err = cardsim_cli(capsys, *args, "--jobs", "1")
    assert code == 0, err
    code, there, err = cardsim_cli(capsys, *args, "--backend", "dask", "--scheduler", scheduler)
    assert code == 0, err
    assert there == here


def _received_sources() -> list[str]:
    from cardsim.sims.core import user_strategy

    return sorted(user_strategy._RECEIVED)


def test_a_failing_strategy_gives_the_same_line_on_the_cluster(scheduler, capsys, tmp_path, monkeypatch):
    (tmp_path / "broken.py").write_text(BROKEN)
    monkeypatch.chdir(tmp_path)
    args = ["thegame", "evaluate", "--strategy", "broken.py:Broken", "--n", "600"]
    code, _, here = cardsim_cli(capsys, *args, "--jobs", "2")
    assert code == 2 and len(here.strip().splitlines()) == 1, here
    code, _, there = cardsim_cli(capsys, *args, "--backend", "dask", "--scheduler", scheduler)
    assert code == 2
    assert there == here
    assert "boom" in there


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_an_unreachable_scheduler_is_one_line_within_the_timeout(capsys):
    address = f"tcp://127.0.0.1:{_closed_port()}"
    started = time.monotonic()
    code, out, err = cardsim_cli(
        capsys,
        "gang",
        "evaluate",
        "--strategy",
        f"{EXAMPLES}/gang_pairs_high.py:PairsHigh",
        "--n",
        "600",
        "--backend",
        "dask",
        "--scheduler",
        address,
    )
    elapsed = time.monotonic() - started
    assert code == 2 and not out
    assert err.startswith(
        f"error: --scheduler {address}: no dask scheduler answered within {parallel.CONNECT_TIMEOUT_SECONDS:g} s"
    )
    assert len(err.strip().splitlines()) == 1
    assert elapsed < parallel.CONNECT_TIMEOUT_SECONDS + 5


@pytest.mark.parametrize(
    "args",
    [
        ["report", "--quick", "--game", "gang"],
        ["bang", "train", "--players", "4", "--budget", "10000"],
        ["cashnguns", "discover", "--players", "4", "--budget", "4", "--rounds", "1"],
        ["tune", "thegame", "--players", "2"],
        ["gang", "heist", "--n", "100"],
    ],
)
def test_every_long_command_refuses_an_unreachable_scheduler(capsys, monkeypatch, tmp_path, args):
    monkeypatch.setenv("CARDSIM_CONNECT_TIMEOUT", "1")
    monkeypatch.chdir(tmp_path)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    started = time.monotonic()
    code, out, err = cardsim_cli(capsys, *args, "--backend", "dask", "--scheduler", address)
    assert code == 2 and not out
    assert err.startswith(f"error: --scheduler {address}: no dask scheduler answered within 1 s")
    assert len(err.strip().splitlines()) == 1
    assert time.monotonic() - started < 6
    assert not any(tmp_path.iterdir())  # nothing ran, nothing written


def test_a_scheduler_without_workers_is_one_line(capsys, monkeypatch):
    monkeypatch.setenv("CARDSIM_CONNECT_TIMEOUT", "1")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None, protocol="tcp") as empty:
        code, _, err = cardsim_cli(
            capsys,
            "bang",
            "compare",
            "--players",
            "4",
            "--n",
            "100",
            "--backend",
            "dask",
            "--scheduler",
            empty.scheduler_address,
        )
    assert code == 2
    assert "the scheduler has no worker after 1 s" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["thegame evaluate", "gang crossplay"])
def test_workers_with_several_threads_give_the_same_numbers(capsys, command):
    # one worker process running two tasks at once in threads: The Game's Python engine and
    # the strategies' own processes (isolation) must not share state between them
    args = COMMANDS[command]
    code, here, err = cardsim_cli(capsys, *args, "--jobs", "1", "--json")
    assert code == 0, err
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, dashboard_address=None
    ) as threaded:
        code, there, err = cardsim_cli(
            capsys, *args, "--backend", "dask", "--scheduler", threaded.scheduler_address, "--json"
        )
        parallel.disconnect()
    assert code == 0, err
    assert there == here


def test_the_api_names_its_keywords():
    with pytest.raises(UserError, match="^backend dask needs scheduler"):
        cardsim.bang.train(players=4, backend="dask")
    with pytest.raises(UserError, match="scheduler is for backend dask"):
        cardsim.report(game="gang", scheduler="tcp://host:8786")


def test_workers_with_other_cardsim_code_are_refused(scheduler, monkeypatch):
    parallel.disconnect()  # connect afresh, so that the workers' code is compared again
    monkeypatch.setattr(parallel, "code_digest", lambda: "not-the-workers-code")
    with pytest.raises(UserError, match="runs other cardsim code than this machine"):
        cardsim.gang.evaluate(f"{EXAMPLES}/gang_pairs_high.py:PairsHigh", n=300, backend="dask", scheduler=scheduler)
