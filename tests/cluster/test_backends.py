"""Every long command on a dask cluster gives the numbers it gives on joblib.

One small dask ``LocalCluster`` (two worker processes of one thread) serves the module; each
command runs once on joblib and once on the cluster, at sizes that still cut its work into
several tasks where it can, and the JSON documents (the trained file for ``bang train``) must
be equal. The joblib side runs with ``--jobs 1`` (no worker pool to start: the games' own
tests show every ``--jobs`` gives the same numbers).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardsim.cli import main
from cardsim.sims.core import parallel

distributed = pytest.importorskip("dask.distributed")
pytestmark = pytest.mark.xdist_group("dask_cluster")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"


@pytest.fixture(scope="module")
def scheduler():
    """The address of a two-worker LocalCluster, shared by the module's tests."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address
        parallel.disconnect()


def cardsim(capsys, *args: str) -> tuple[int, str, str]:
    """The console entry point in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


COMMANDS = {
    "gang evaluate": ["gang", "evaluate", "--strategy", f"{EXAMPLES}/gang_pairs_high.py:PairsHigh", "--n", "600"],
    "thegame evaluate": [
        "thegame",
        "evaluate",
        "--strategy",
        f"{EXAMPLES}/thegame_closest.py:Closest",
        "--players",
        "3",
        "--n",
        "600",
    ],
    "bang evaluate": [
        "bang",
        "evaluate",
        "--strategy",
        f"{EXAMPLES}/bang_renegade.py:TwoRules",
        "--seat",
        "renegade",
        "--players",
        "5",
        "--n",
        "300",
    ],
    "cashnguns evaluate": [
        "cashnguns",
        "evaluate",
        "--strategy",
        f"{EXAMPLES}/cashnguns_patient.py:Patient",
        "--players",
        "4",
        "--n",
        "1200",
    ],
    "bang compare": ["bang", "compare", "--players", "4", "--roles", "outlaw", "--n", "5200", "--no-store"],
    "bang ladder": ["bang", "ladder", "--players", "5", "--rungs", "random,role2", "--n", "5100", "--no-store"],
    "bang stress": [
        "bang",
        "stress",
        "--players",
        "5",
        "--roles",
        "renegade",
        "--games",
        "200",
        "--steps",
        "1",
        "--validation",
        "200",
        "--trials",
        "2",
        "--n",
        "200",
    ],
    "cashnguns discover": [
        "cashnguns",
        "discover",
        "--players",
        "4",
        "--budget",
        "4",
        "--rounds",
        "1",
        "--local",
        "0",
        "--stop-checks",
        "0",
        "--no-sweep",
        "--no-store",
    ],
    "cashnguns check": [
        "cashnguns",
        "check",
        "--players",
        "4",
        "--budget",
        "4",
        "--games",
        "2000",
        "--local",
        "0",
        "--no-sweep",
    ],
    "tune thegame": [
        "tune",
        "thegame",
        "--players",
        "2",
        "--strategy",
        "greedy",
        "--target",
        "0.05",
        "--top",
        "2",
        "--precision",
        "0.3",
        "--max-n",
        "60",
        "--no-store",
        "--quiet",
    ],
    "tune gang": [
        "tune",
        "gang",
        "--players",
        "4",
        "--model",
        "random",
        "--no-combinations",
        "--top",
        "2",
        "--precision",
        "0.3",
        "--max-n",
        "20",
        "--no-store",
        "--quiet",
    ],
    "cashnguns tournament": [
        "cashnguns",
        "tournament",
        "-e",
        "stubborn,coward,shark",
        "--players",
        "4",
        "--n",
        "4500",
        "--no-store",
    ],
    "bang tournament": ["bang", "tournament", "-e", "role,random", "--players", "4", "--n", "300", "--no-store"],
    "gang crossplay": [
        "gang",
        "crossplay",
        "-e",
        f"{EXAMPLES}/gang_percentile.py:Percentile,{EXAMPLES}/gang_pairs_high.py:PairsHigh",
        "--players",
        "3",
        "--n",
        "150",
        "--no-store",
    ],
    "thegame crossplay": [
        "thegame",
        "crossplay",
        "-e",
        f"{EXAMPLES}/thegame_closest.py:Closest,{EXAMPLES}/thegame_greedy.py:Greedy",
        "--players",
        "3",
        "--n",
        "60",
        "--no-store",
    ],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_same_json_on_dask_as_on_joblib(capsys, scheduler, command):
    args = COMMANDS[command]
    code, here, err = cardsim(capsys, *args, "--jobs", "1", "--json")
    assert code == 0, err
    code, there, err = cardsim(capsys, *args, "--backend", "dask", "--scheduler", scheduler, "--json")
    assert code == 0, err
    assert json.loads(there) == json.loads(here)
    assert there == here


def test_same_trained_file_on_dask_as_on_joblib(capsys, scheduler, tmp_path):
    args = ["bang", "train", "--players", "4", "--budget", "10000", "--rounds", "1", "--quiet"]
    code, _, err = cardsim(capsys, *args, "--jobs", "1", "--out", str(tmp_path / "here.json"))
    assert code == 0, err
    code, _, err = cardsim(
        capsys, *args, "--backend", "dask", "--scheduler", scheduler, "--out", str(tmp_path / "there.json")
    )
    assert code == 0, err
    assert (tmp_path / "there.json").read_bytes() == (tmp_path / "here.json").read_bytes()
