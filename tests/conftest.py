"""Suite-wide set-up: groups of tests that share expensive set-up run on one xdist worker.

The README's test command runs the suite on two workers with ``--dist loadgroup``: every test
marked ``xdist_group(name)`` runs on the worker that takes that group. The tiny report (a
session fixture, ``tests/reports/conftest.py``) is then built once, and The Gang's and The
Game's kernels are compiled by one worker each instead of by both at once (the workers share
the numba disk cache, but two processes compiling the same kernel both pay for it).
"""

from __future__ import annotations

import pytest

# Test folders whose tests share compiled kernels, each run by one worker.
GROUPED_FOLDERS = ("gang", "thegame")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests that use the tiny report, and those of :data:`GROUPED_FOLDERS`, with their
    ``xdist_group`` (before xdist reads the marks)."""
    for item in items:
        if "tiny_report" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("tiny_report"))
            continue
        parts = item.nodeid.split("/")
        if len(parts) > 2 and parts[0] == "tests" and parts[1] in GROUPED_FOLDERS:
            item.add_marker(pytest.mark.xdist_group(parts[1]))
