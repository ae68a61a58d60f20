"""``cardsim report --quick`` on a dask cluster writes the files it writes on joblib, byte for byte.

Slow (two quick reports, minutes each on two cores): run with ``-m slow``. The default run checks
the same path on the tiny profile for The Gang (the chapter built here, every run's chunks on
the cluster, against the joblib scheduler's worker processes); every game on the tiny profile is
slow too (minutes).
"""

from __future__ import annotations

import pytest

from cardsim.cli import main
from cardsim.reports.build import HTML_NAME, PDF_NAME, all_games, write_report
from cardsim.reports.findings import findings_name
from cardsim.sims.core import parallel
from cardsim.sims.core.parallel import using
from tests.reports.conftest import TINY, TINY_SEED

distributed = pytest.importorskip("dask.distributed")
pytestmark = pytest.mark.xdist_group("dask_cluster")


@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster of two one-thread worker processes."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address
        parallel.disconnect()


def _files(folder):
    return {name: (folder / name).read_bytes() for name in (HTML_NAME, PDF_NAME, findings_name(TINY.name))}


@pytest.mark.parametrize(
    "games",
    [
        pytest.param(["gang"], id="gang"),
        pytest.param(list(all_games()), id="all", marks=pytest.mark.slow),
    ],
)
def test_tiny_report_is_the_same_on_dask(scheduler, tmp_path, games):
    write_report(games, profile=TINY, seed=TINY_SEED, jobs=2, store=tmp_path / "here-store", out_dir=tmp_path / "here")
    with using("dask", scheduler):
        write_report(
            games, profile=TINY, seed=TINY_SEED, jobs=2, store=tmp_path / "there-store", out_dir=tmp_path / "there"
        )
    here, there = _files(tmp_path / "here"), _files(tmp_path / "there")
    for name in here:
        assert there[name] == here[name], name


@pytest.mark.slow
def test_quick_report_is_the_same_on_dask(scheduler, tmp_path, monkeypatch, capsys):
    outputs = {}
    monkeypatch.delenv("CARDSIM_STORE", raising=False)
    for side, extra in (("joblib", ["--jobs", "2"]), ("dask", ["--backend", "dask", "--scheduler", scheduler])):
        (tmp_path / side).mkdir()
        monkeypatch.chdir(tmp_path / side)  # each its own ./results store (the report names it)
        with pytest.raises(SystemExit) as done:
            main(["report", "--quick", "--quiet", *extra])
        assert done.value.code == 0, capsys.readouterr().err
        outputs[side] = _files(tmp_path / side / "reports")
    for name in outputs["joblib"]:
        assert outputs["dask"][name] == outputs["joblib"][name], name
