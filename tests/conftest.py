"""Suite-wide set-up: on a second core, compile The Game's and The Gang's kernels and build the
tiny report while the tests run.

With cold numba caches most of the default run is compilation, and one pytest process keeps one
core busy. The tests reach The Game and The Gang late (``core``'s API examples and the ``gang``
and ``thegame`` folders), so ``cardsim warmup gang`` then ``cardsim warmup thegame`` (``--jobs
1``, The Gang first since its tests come first), started in the background at session start,
fill the same on-disk cache on the other core meanwhile; a test that gets
there first compiles the kernel itself, as without the warm-up. The warm-up only compiles and
plays one throwaway episode per configuration.

Then the same background builds the session's tiny report (``tests/reports/tiny_report.py``,
the report tests' shared fixture: every game's chapter, its HTML and PDF) into a folder of its
own, with the code and inputs the fixture would use; the ``tiny_report`` fixture takes it from
there through :func:`built_aside`, or builds it itself when the background has not started it
or failed. Off with ``CARDSIM_TEST_WARMUP=0`` and on a single core; stopped, and its folder
removed, when the session ends.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

_background: subprocess.Popen | None = None
_aside: Path | None = None  # the background's folder: one sub-folder per build, NAME.done once built


def pytest_sessionstart(session: pytest.Session) -> None:
    global _background, _aside
    if os.environ.get("CARDSIM_TEST_WARMUP", "1") == "0" or (os.cpu_count() or 1) < 2:
        return
    _aside = Path(tempfile.mkdtemp(prefix="cardsim-tests-"))
    python = shlex.quote(sys.executable)
    tiny = shlex.quote(str(_aside / "tiny-report"))
    # The Gang first (tests/core's API examples and tests/gang need it before tests/thegame
    # needs The Game), then The Game, then the tiny report (tests/reports), one after the other
    steps = [f"{python} -m cardsim warmup {game} --jobs 1 --quiet" for game in ("gang", "thegame")]
    steps.append(f"mkdir {tiny} && {python} -m tests.reports.tiny_report {tiny} && touch {tiny}.done")
    _background = subprocess.Popen(
        ["sh", "-c", " && ".join(steps)], cwd=session.config.rootpath,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _background is not None and _background.poll() is None:
        os.killpg(_background.pid, signal.SIGTERM)
        _background.wait()
    if _aside is not None:
        shutil.rmtree(_aside, ignore_errors=True)


@pytest.fixture(scope="session")
def built_aside() -> Callable[[str], Path | None]:
    """``built_aside(name)``: the folder the background built ``name`` into, waiting for it if
    that build is under way; None if it has not started or did not finish."""

    def folder(name: str) -> Path | None:
        if _background is None or _aside is None:
            return None
        done = _aside / f"{name}.done"
        while not done.exists():
            if not (_aside / name).exists() or _background.poll() is not None:
                return _aside / name if done.exists() else None
            time.sleep(0.1)
        return _aside / name

    return folder
