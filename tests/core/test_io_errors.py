"""Write errors during a run (disk full, no permission): one line, exit 2, finished chunks kept
and resumed by the next call. The failure is simulated by making the store's writer raise the
OSError the system would raise."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys

import pytest

from cardsim.errors import UserError
from cardsim.sims.core import store
from cardsim.sims.core.coin import SIMULATOR as COIN
from cardsim.sims.core.coin import CoinConfig
from cardsim.sims.core.runner import run

# Runs the CLI with the store's writer failing on the k-th chunk file (or on the manifest).
FAILING_CLI = """
import errno, os, sys
from cardsim.sims.core import store
failing_chunk, code = int(sys.argv[1]), getattr(errno, sys.argv[2])
real_write = store.atomic_write_bytes
chunks_written = []
def write(path, data):
    if path.parent.name == "chunks":
        chunks_written.append(path)
        if len(chunks_written) == failing_chunk:
            raise OSError(code, os.strerror(code), str(path))
    elif failing_chunk == 0:
        raise OSError(code, os.strerror(code), str(path))
    real_write(path, data)
store.atomic_write_bytes = write
from cardsim.cli import main
sys.argv = ["cardsim", *sys.argv[3:]]
main()
"""
GAME = ["thegame", "run", "--players", "2", "--strategy", "greedy", "--n", "3000", "--quiet", "--json"]


def cardsim(*args: str, fail_at: int | None = None, code: str = "ENOSPC"):
    prefix = ["-c", FAILING_CLI, str(fail_at), code] if fail_at is not None else ["-m", "cardsim"]
    return subprocess.run([sys.executable, *prefix, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL)


def test_full_disk_mid_run_is_one_line_and_the_next_call_resumes(tmp_path):
    # two workers: the chunk still running when the write fails is cancelled without a warning
    failed = cardsim(*GAME, "--store", str(tmp_path), "--jobs", "2", fail_at=2)
    assert failed.returncode == 2
    lines = failed.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert lines[0].startswith("error: cannot write ") and "No space left on device" in lines[0]
    assert "1 finished chunk(s) kept" in lines[0]
    (run_dir,) = tmp_path.iterdir()
    (first_chunk,) = (run_dir / "chunks").iterdir()  # which one finished first may vary
    before = first_chunk.stat()

    resumed = cardsim(*GAME, "--store", str(tmp_path), "--jobs", "1")
    assert resumed.returncode == 0, resumed.stderr
    after = first_chunk.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # reused
    fresh = cardsim(*GAME, "--no-store", "--jobs", "1")
    assert resumed.stdout == fresh.stdout and json.loads(resumed.stdout.splitlines()[0])


def test_unwritable_store_is_one_line_before_any_chunk(tmp_path):
    failed = cardsim(*GAME, "--store", str(tmp_path), "--jobs", "1", fail_at=0, code="EACCES")
    assert failed.returncode == 2
    lines = failed.stderr.strip().splitlines()
    assert len(lines) == 1 and "Permission denied" in lines[0] and "manifest.json" in lines[0]


def test_runner_keeps_finished_chunks_after_a_write_error(tmp_path, monkeypatch):
    real_write = store.atomic_write_bytes
    written: list[str] = []

    def write(path, data):
        if path.parent.name == "chunks":
            written.append(path.name)
            if len(written) == 4:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_write(path, data)

    monkeypatch.setattr(store, "atomic_write_bytes", write)
    with pytest.raises(UserError, match=r"No space left on device; 3 finished chunk\(s\) kept"):
        run(COIN, CoinConfig(0.6), n=900, seed=8, store=tmp_path)
    monkeypatch.setattr(store, "atomic_write_bytes", real_write)
    calls: list[int] = []
    resumed = run(COIN, CoinConfig(0.6), n=900, seed=8, store=tmp_path, on_chunk=calls.append)
    assert sorted(calls) == list(range(3, 9))
    assert resumed.episodes.equals(run(COIN, CoinConfig(0.6), n=900, seed=8).episodes)


def test_a_manifest_without_chunk_size_is_the_file_blamed(tmp_path):
    """A run whose manifest lost its chunk size names the manifest (not a chunk file), in one
    line, when the same command meets it again and when `runs show` reads it."""
    made = cardsim(*GAME, "--store", str(tmp_path), "--jobs", "1")
    assert made.returncode == 0, made.stderr
    (run_dir,) = tmp_path.iterdir()
    manifest = json.loads((run_dir / "manifest.json").read_text())
    del manifest["chunk_size"]
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    for result in (
        cardsim(*GAME, "--store", str(tmp_path), "--jobs", "1"),
        cardsim("runs", "show", run_dir.name, "--store", str(tmp_path)),
    ):
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1, result.stderr
        assert "manifest.json: no valid chunk_size" in lines[0] and ".parquet" not in lines[0]
