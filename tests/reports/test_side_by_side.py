"""The quick profile builds the games' chapters side by side in worker processes, their plots
drawn there: the HTML and PDF are byte for byte the ones a one-process build writes."""

from __future__ import annotations

from dataclasses import replace

from cardsim.reports.build import game_section, write_report
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
