"""Ctrl-C: to the workers only, to every process, or while the workers start, a
run keeps its finished chunks and says so in one line (exit 130), never a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")


def _start(store: Path, *, main_ignores_sigint: bool) -> subprocess.Popen:
    """The slow two-worker run in its own session (as a script would start it)."""

    def ignore() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.core.interrupt_game", str(store)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=ignore if main_ignores_sigint else None,
    )


def _descendants(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    children = [int(p) for p in found.split()]
    return children + [d for child in children for d in _descendants(child)]


def _wait(condition, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _chunk_files(store: Path) -> list[Path]:
    return sorted(store.glob("*/chunks/*.parquet"))


def _finish(process: subprocess.Popen, store: Path) -> tuple[str, int]:
    """The one stderr line, and the chunks it says are kept (all recorded in the manifest)."""
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("interrupted") and "kept in" in lines[0], err
    kept = int(lines[0].split(" finished chunk(s) kept")[0].rsplit(" ", 1)[1])
    manifest = json.loads(next(store.glob("*/manifest.json")).read_text())
    assert len(manifest.get("chunk_sha256", {})) == kept
    return lines[0], kept


@pytest.mark.parametrize("main_ignores_sigint", [True, False], ids=["workers-only", "all"])
def test_ctrl_c_mid_run_keeps_finished_chunks_in_one_line(tmp_path, main_ignores_sigint):
    store = tmp_path / "store"
    process = _start(store, main_ignores_sigint=main_ignores_sigint)
    _wait(lambda: len(_chunk_files(store)) >= 2)
    if main_ignores_sigint:  # a background script's run: Ctrl-C reaches the workers only
        for pid in _descendants(process.pid):
            os.kill(pid, signal.SIGINT)
    else:  # a terminal's Ctrl-C: every process of the command
        os.killpg(process.pid, signal.SIGINT)
    line, kept = _finish(process, store)
    assert kept >= 2
    if main_ignores_sigint:
        assert "a worker process was stopped" in line
    # the same run resumes from the kept chunks
    assert len(_chunk_files(store)) >= kept


def test_ctrl_c_while_the_workers_start_is_one_line(tmp_path):
    store = tmp_path / "store"
    process = _start(store, main_ignores_sigint=False)
    _wait(lambda: len(_descendants(process.pid)) >= 2)
    os.killpg(process.pid, signal.SIGINT)
    _finish(process, store)


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.parametrize("how", ["closed", "dropped"])
def test_a_run_stopped_early_says_nothing_of_cancelled_tasks(how):
    """joblib warns that it cancelled the tasks still running when its generator is closed or
    dropped early; a stopped run has its one line and nothing else (seen in CI on Ctrl-C)."""
    import gc
    import warnings

    from joblib import Parallel, delayed

    from cardsim.sims.core.interrupts import stopped_quietly

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outputs = stopped_quietly(
            Parallel(n_jobs=2, return_as="generator_unordered")(delayed(_nap)(0.2) for _ in range(8))
        )
        next(outputs)
        if how == "closed":
            outputs.close()
        else:
            del outputs
            gc.collect()
    assert [str(w.message) for w in caught if "tasks" in str(w.message)] == []
