"""One tiny report over every landed game, written once per test session.

``cardsim report --quick`` takes minutes; this runs the same code path (every game's section
builder, the HTML and the PDF writer) on a profile of one small chunk per experiment, so the
browser, PDF and chapter tests all read the same files and the same store.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from cardsim.reports.build import HTML_NAME, PDF_NAME, WrittenReport, all_games, build_report
from cardsim.reports.content import Report
from cardsim.reports.html import write_html
from cardsim.reports.pdf import Page, layout, write_pdf
from cardsim.reports.suite import Profile

# one small chunk per experiment: checks the plumbing, not the numbers
TINY = Profile("quick", precision=0.45, max_n=40, tune_precision=0.45, tune_max_n=20)
TINY_SEED = 11


@dataclass(frozen=True)
class TinyReport:
    """The report, its PDF layout, the written files and the results store they came from."""

    report: Report
    pages: list[Page]
    written: WrittenReport
    store: Path


@pytest.fixture(scope="session")
def tiny_report(tmp_path_factory) -> TinyReport:
    """What ``write_report`` does, keeping the report object for layout checks."""
    base = tmp_path_factory.mktemp("tiny-report")
    report, skipped = build_report(list(all_games()), profile=TINY, seed=TINY_SEED, jobs=1, store=base / "store")
    html = write_html(report, base / "out" / HTML_NAME)
    pages = layout(report)
    count = write_pdf(report, base / "out" / PDF_NAME, pages)
    written = WrittenReport(html, base / "out" / PDF_NAME, count, tuple(s.key for s in report.sections), skipped)
    return TinyReport(report, pages, written, base / "store")
