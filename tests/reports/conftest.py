"""The tiny report over every landed game (``tiny_report.py``), once per test session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.reports.tiny_report import TinyReport, build_tiny_report, load_tiny_report


@pytest.fixture(scope="session")
def tiny_report(tmp_path_factory, built_aside: Callable[[str], Path | None]) -> TinyReport:
    """The tiny report the session built on its second core, or, when that build did not run
    (one core, the warm-up off, only some tests selected) or failed, built here."""
    base = built_aside("tiny-report")
    tiny = load_tiny_report(base) if base is not None else None
    return tiny if tiny is not None else build_tiny_report(tmp_path_factory.mktemp("tiny-report"))
