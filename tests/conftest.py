"""Suite-wide set-up: compile The Game's and The Gang's kernels on a second core while the tests run.

With cold numba caches most of the default run is compilation, and one pytest process keeps one
core busy. The tests reach The Game and The Gang late (``core``'s API examples and the ``gang``
and ``thegame`` folders), so ``cardsim warmup gang`` then ``cardsim warmup thegame`` (``--jobs
1``, The Gang first since its tests come first), started in the background at session start,
fill the same on-disk cache on the other core meanwhile; a test that gets
there first compiles the kernel itself, as without the warm-up. The warm-up only compiles and
plays one throwaway episode per configuration: every figure a test checks is computed by the
test. Off with ``CARDSIM_TEST_WARMUP=0`` and on a single core; stopped when the session ends.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys

import pytest

_warmup: subprocess.Popen | None = None


def pytest_sessionstart(session: pytest.Session) -> None:
    global _warmup
    if os.environ.get("CARDSIM_TEST_WARMUP", "1") == "0" or (os.cpu_count() or 1) < 2:
        return
    # The Gang first (tests/core's API examples and tests/gang need it before tests/thegame
    # needs The Game), then The Game, one after the other on the second core
    python = shlex.quote(sys.executable)
    _warmup = subprocess.Popen(
        ["sh", "-c", " && ".join(f"{python} -m cardsim warmup {game} --jobs 1 --quiet"
                                 for game in ("gang", "thegame"))],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _warmup is not None and _warmup.poll() is None:
        os.killpg(_warmup.pid, signal.SIGTERM)
        _warmup.wait()
