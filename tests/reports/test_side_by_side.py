"""The quick profile builds the games' chapters side by side in worker processes, their plots
drawn there: the HTML and PDF are byte for byte the ones a one-process build writes."""

from __future__ import annotations

from dataclasses import replace

from cardsim.reports.build import SHARED_TAIL, TAIL_SLICES, game_section, split_plan, write_report
from cardsim.reports.content import Plot, Report
from cardsim.reports.pdf import drawn_ahead, write_pdf
from cardsim.reports.suite import Profile
from cardsim.sims.core.coin import SIMULATOR as COIN
from tests.reports import toy_section

SIDE_BY_SIDE = Profile("quick", precision=0.45, max_n=40, tune_precision=0.45, tune_max_n=20,
                       games_side_by_side=True)
# Two chapters over the same toy game (no store: the two would share its runs).
PLUGINS = {"coin": (toy_section, COIN), "coin-again": (toy_section, COIN)}


def test_side_by_side_chapters_write_the_same_bytes_as_one_process(tmp_path):
    written = {}
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}"
        finished = []
        report = write_report(list(PLUGINS), profile=SIDE_BY_SIDE, seed=7, jobs=jobs, store=None,
                              out_dir=out, plugins=PLUGINS, on_done=finished.append)
        written[jobs] = (report.html.read_bytes(), report.pdf.read_bytes(),
                         [(o.game, o.experiment.key, o.n, o.stop_rule) for o in finished])
    assert written[1][0] == written[2][0]
    assert written[1][1] == written[2][1]
    assert written[1][2] == written[2][2]  # the same outcomes, heard of in the same order


def test_the_longest_plan_splits_into_a_head_and_tail_slices_that_keep_equal_configs_together():
    # 15 experiments, the 1st and the 14th with the same config, as the 6th and the 15th
    biases = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.97, 0.1, 0.6]
    plan = [SIDE_BY_SIDE.experiment(f"e{i}", {"p_heads": p}, {}) for i, p in enumerate(biases)]
    assert (SHARED_TAIL, TAIL_SLICES) == (1 / 3, 4)  # the last 5 in 4 slices: 2, 1, 1, 1
    keys = [[e.key for e in part] for part in split_plan(COIN, plan)]
    # e13 and e14 go with e0 and e5, in the head; their slices are left empty and dropped
    assert keys == [[f"e{i}" for i in range(10)] + ["e13", "e14"], ["e10", "e11"], ["e12"]]
    assert split_plan(COIN, plan[:2]) == [plan[:2]]  # too short to share


def test_plots_drawn_ahead_are_the_ones_the_pdf_would_draw(tmp_path):
    section, *_ = game_section("coin", toy_section, COIN, profile=SIDE_BY_SIDE, seed=3, jobs=1,
                               store=None)
    ahead = drawn_ahead(section)
    plots = [b for b in ahead.blocks if isinstance(b, Plot)]
    assert plots and all(p.svg and p.size and p.pdf for p in plots)
    def pdf_of(chapter, name):
        pages = write_pdf(Report("t", "s", (), (chapter,)), tmp_path / name)
        return pages, (tmp_path / name).read_bytes()

    assert pdf_of(section, "plain.pdf") == pdf_of(ahead, "ahead.pdf")
    # a drawing the layout does not ask for is not used: the plot is drawn afresh
    wrong = replace(ahead, blocks=tuple(replace(b, pdf=((1.0, b"not a pdf"),))
                                        if isinstance(b, Plot) else b for b in ahead.blocks))
    assert pdf_of(wrong, "wrong.pdf") == pdf_of(section, "plain2.pdf")
