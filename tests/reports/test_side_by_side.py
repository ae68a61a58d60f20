"""With several workers one scheduler plays every chapter's experiments and builds the chapters
in worker processes, their plots drawn there: the HTML and PDF are byte for byte the ones a
one-process build writes."""

from __future__ import annotations

from dataclasses import replace

from cardsim.reports.build import game_section, write_report
from cardsim.reports.content import Plot, Report
from cardsim.reports.pdf import drawn_ahead, write_pdf
from cardsim.reports.schedule import Task, _batches, expected_cost
from cardsim.reports.suite import Profile
from cardsim.sims.core.coin import SIMULATOR as COIN
from tests.reports import toy_section

TINY = Profile("quick", precision=0.45, max_n=40, tune_precision=0.45, tune_max_n=20)
# Two chapters over the same toy game (no store: the two would share its runs).
PLUGINS = {"coin": (toy_section, COIN), "coin-again": (toy_section, COIN)}


def _written(tmp_path, name, jobs, store):
    out = tmp_path / name
    finished = []
    report = write_report(
        list(PLUGINS),
        profile=TINY,
        seed=7,
        jobs=jobs,
        store=store,
        out_dir=out,
        plugins=PLUGINS,
        on_done=finished.append,
    )
    return (
        report.html.read_bytes(),
        report.pdf.read_bytes(),
        [(o.game, o.experiment.key, o.n, o.stop_rule) for o in finished],
    )


def test_scheduled_chapters_write_the_same_bytes_as_one_process(tmp_path):
    one = _written(tmp_path, "jobs1", 1, None)
    two = _written(tmp_path, "jobs2", 2, None)
    assert one[0] == two[0]
    assert one[1] == two[1]
    assert one[2] == two[2]  # the same outcomes, heard of in the same order


def test_scheduled_chapters_with_a_store_read_their_runs_back_and_write_the_same_bytes(tmp_path):
    one = _written(tmp_path, "jobs1", 1, tmp_path / "store1")
    two = _written(tmp_path, "jobs2", 2, tmp_path / "store2")
    again = _written(tmp_path, "again", 2, tmp_path / "store2")  # resumed: every run stored
    assert one == two == again


def test_runs_with_one_config_are_one_task_and_small_runs_are_batched_dearest_first():
    # e0 and e3 share a config (one run, one task); e4 is twenty times dearer per episode
    plan = [
        replace(TINY.experiment(f"e{i}", {"p_heads": p}, {}), weight=w)
        for i, (p, w) in enumerate([(0.1, 1), (0.2, 1), (0.3, 1), (0.1, 1), (0.4, 20)])
    ]
    small = expected_cost(plan[0])
    assert expected_cost(plan[4]) == 20 * small
    tasks = _batches("coin", COIN, plan, 0, None, threshold=2 * small)
    assert all(isinstance(t, Task) and t.kind == "runs" for t in tasks)
    assert [t.keys for t in tasks] == [("e4",), ("e0", "e3", "e1"), ("e2",)]
    assert tasks[0].cost > tasks[1].cost >= tasks[2].cost


def test_plots_drawn_ahead_are_the_ones_the_pdf_would_draw(tmp_path):
    section, *_ = game_section("coin", toy_section, COIN, profile=TINY, seed=3, jobs=1, store=None)
    ahead = drawn_ahead(section)
    plots = [b for b in ahead.blocks if isinstance(b, Plot)]
    assert plots and all(p.svg and p.size and p.pdf for p in plots)

    def pdf_of(chapter, name):
        pages = write_pdf(Report("t", "s", (), (chapter,)), tmp_path / name)
        return pages, (tmp_path / name).read_bytes()

    assert pdf_of(section, "plain.pdf") == pdf_of(ahead, "ahead.pdf")
    # a drawing the layout does not ask for is not used: the plot is drawn afresh
    wrong = replace(
        ahead, blocks=tuple(replace(b, pdf=((1.0, b"not a pdf"),)) if isinstance(b, Plot) else b for b in ahead.blocks)
    )
    assert pdf_of(wrong, "wrong.pdf") == pdf_of(section, "plain2.pdf")


def test_a_worker_that_dies_stops_the_report_in_one_line(tmp_path, monkeypatch):
    """A worker killed mid-report (a Ctrl-C that reached the workers only, a kill) ends the
    report with :class:`Interrupted` (one line), not a pool's traceback."""
    import os

    import pytest

    from cardsim.errors import Interrupted
    from cardsim.reports.suite import SideTask

    monkeypatch.setattr(
        toy_section, "side_tasks", lambda *_: [SideTask("die", os._exit, {"status": 3}, 1.0)], raising=False
    )
    with pytest.raises(Interrupted, match="a worker process was stopped"):
        write_report(
            ["coin"],
            profile=TINY,
            seed=7,
            jobs=2,
            store=tmp_path / "store",
            out_dir=tmp_path / "out",
            plugins={"coin": (toy_section, COIN)},
        )
