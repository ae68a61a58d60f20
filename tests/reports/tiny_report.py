"""One tiny report over every landed game, built once per test session.

``cardsim report --quick`` takes minutes; this runs the same code path (every game's section
builder, the HTML and the PDF writer) on a profile of one small chunk per experiment, so the
browser, PDF and chapter tests all read the same files and the same store.

``python -m tests.reports.tiny_report DIR`` builds it into ``DIR`` and leaves it pickled there
(``tests/conftest.py`` runs this on the second core while the tests run; the ``tiny_report``
fixture then loads it instead of building it again).
"""

from __future__ import annotations

import os
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path

import cloudpickle

from cardsim.reports.build import ALL_GAMES, HTML_NAME, PDF_NAME, WrittenReport, build_report
from cardsim.reports.content import Report
from cardsim.reports.html import write_html
from cardsim.reports.pdf import Page, layout, write_pdf
from cardsim.reports.suite import Profile

# one small chunk per experiment: checks the plumbing, not the numbers
TINY = Profile("quick", precision=0.45, max_n=40, tune_precision=0.45, tune_max_n=20)
TINY_SEED = 11
PICKLED = "tiny-report.pickle"  # in the build folder, written last (complete when present)


@dataclass(frozen=True)
class TinyReport:
    """The report, its PDF layout, the written files and the results store they came from."""

    report: Report
    pages: list[Page]
    written: WrittenReport
    store: Path


def build_tiny_report(base: Path) -> TinyReport:
    """What ``write_report`` does into ``base``, keeping the report object for layout checks."""
    report, skipped = build_report(list(ALL_GAMES), profile=TINY, seed=TINY_SEED, jobs=1, store=base / "store")
    html = write_html(report, base / "out" / HTML_NAME)
    pages = layout(report)
    count = write_pdf(report, base / "out" / PDF_NAME, pages)
    written = WrittenReport(html, base / "out" / PDF_NAME, count, tuple(s.key for s in report.sections), skipped)
    return TinyReport(report, pages, written, base / "store")


def load_tiny_report(base: Path) -> TinyReport | None:
    """The tiny report :func:`main` left in ``base``, if it finished."""
    pickled = base / PICKLED
    if not pickled.exists():
        return None
    with pickled.open("rb") as data:
        return pickle.load(data)


def main(base: Path) -> None:
    """Build the tiny report into ``base`` and pickle it there (the plot makers are closures,
    hence cloudpickle); the pickle appears only once complete."""
    tiny = build_tiny_report(base)
    part = base / (PICKLED + ".part")
    part.write_bytes(cloudpickle.dumps(tiny))
    os.replace(part, base / PICKLED)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
