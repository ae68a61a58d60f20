"""The results store: one folder per run, episodes as parquet chunks plus ``manifest.json``.

Layout::

    <store>/<game>-<key>/manifest.json        what was run (game, config, seed, chunk size, ...)
    <store>/<game>-<key>/chunks/000000.parquet one file per finished chunk

``key`` hashes everything that determines the episodes (game, config, root seed, chunk size,
package version), so asking the same run again finds the folder and reuses its chunks, and a
larger ``n`` only computes the missing chunks. Every file is written atomically (temporary file
in the same folder, then ``os.replace``), so an interrupted run never leaves a half-written file.
Anything in the store that is not ours, or not readable, is reported by name and never
overwritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from cardsim.errors import UserError

MANIFEST_NAME = "manifest.json"
CHUNKS_DIR = "chunks"
MANIFEST_FORMAT = "cardsim-run/1"
_RUN_DIR_PATTERN = re.compile(r"^[a-z]+-[0-9a-f]{16}$")
_CHUNK_PATTERN = re.compile(r"^(\d{6})\.parquet$")


def run_key(identity: dict[str, Any]) -> str:
    """A stable 16-hex-digit key for everything that determines a run's episodes."""
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_parquet(path: Path, frame: pl.DataFrame) -> None:
    """Write a DataFrame as parquet through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        frame.write_parquet(tmp, statistics=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def open_store(path: Path) -> Path:
    """The store folder, created if missing; a clear error if it cannot be one."""
    if path.exists() and not path.is_dir():
        raise UserError(f"store {path} is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot use store {path}: {exc.strerror}") from None
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        raise UserError(f"store {path} is not readable and writable")
    return path


@dataclass
class StoredRun:
    """One run folder: its manifest and its finished chunks."""

    path: Path
    manifest: dict[str, Any]

    @property
    def run_id(self) -> str:
        return self.path.name

    def chunk_path(self, index: int) -> Path:
        return self.path / CHUNKS_DIR / f"{index:06d}.parquet"

    def chunk_indices(self) -> list[int]:
        """Indices of the chunk files present; a foreign file in the folder is an error."""
        folder = self.path / CHUNKS_DIR
        if not folder.exists():
            return []
        indices = []
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith(".") and entry.name.endswith(".tmp"):
                continue  # left by a hard kill mid-write: never read, replaced on the next write
            match = _CHUNK_PATTERN.match(entry.name)
            if not match or not entry.is_file():
                raise UserError(f"foreign file in the results store: {entry}")
            indices.append(int(match.group(1)))
        return indices

    def read_chunk(self, index: int) -> pl.DataFrame:
        path = self.chunk_path(index)
        try:
            frame = pl.read_parquet(path)
        except Exception as exc:  # polars raises several types for damaged files
            raise UserError(
                f"corrupt results file {path} ({type(exc).__name__}); move it away to recompute"
            ) from None
        expected = self.manifest.get("chunk_size")
        if frame.height != expected:
            raise UserError(
                f"corrupt results file {path}: {frame.height} rows, expected {expected}"
            )
        return frame

    def write_chunk(self, index: int, frame: pl.DataFrame) -> None:
        atomic_write_parquet(self.chunk_path(index), frame)

    def save_manifest(self) -> None:
        text = json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
        atomic_write_bytes(self.path / MANIFEST_NAME, text.encode())


def read_manifest(path: Path) -> dict[str, Any]:
    """Load and check one manifest file; any problem is a one-line error naming the file."""
    try:
        manifest = json.loads(path.read_text())
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise UserError(f"corrupt results file {path}: not valid JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise UserError(f"foreign file in the results store: {path} is not a cardsim manifest")
    return manifest


def load_run(run_dir: Path) -> StoredRun:
    """An existing run folder, checked."""
    manifest_path = run_dir / MANIFEST_NAME
    if not manifest_path.is_file():
        raise UserError(f"foreign folder in the results store: {run_dir} has no {MANIFEST_NAME}")
    return StoredRun(run_dir, read_manifest(manifest_path))


def open_run(store: Path, game: str, identity: dict[str, Any], manifest: dict[str, Any]) -> StoredRun:
    """The run folder for ``identity``: reused if present (after checking it), else created."""
    run_dir = open_store(store) / f"{game}-{run_key(identity)}"
    if run_dir.exists():
        run = load_run(run_dir)
        if run.manifest.get("identity") != identity:
            raise UserError(f"results file {run_dir / MANIFEST_NAME} does not match its folder name")
        return run
    run = StoredRun(run_dir, {"format": MANIFEST_FORMAT, "identity": identity, **manifest})
    run.save_manifest()
    return run


def list_runs(store: Path) -> list[StoredRun]:
    """Every run in the store, oldest first; a foreign or corrupt entry is a clear error."""
    if not store.exists():
        return []
    open_store(store)
    runs = []
    for entry in sorted(store.iterdir()):
        if entry.name.startswith("."):
            continue
        if not entry.is_dir() or not _RUN_DIR_PATTERN.match(entry.name):
            raise UserError(f"foreign file in the results store: {entry}")
        runs.append(load_run(entry))
    return sorted(runs, key=lambda run: (run.manifest.get("created", ""), run.run_id))


def find_run(store: Path, run_id: str) -> StoredRun:
    """A run by its folder name or a unique prefix of it."""
    matches = [run for run in list_runs(store) if run.run_id.startswith(run_id)]
    if not matches:
        raise UserError(f"no run {run_id!r} in store {store}")
    if len(matches) > 1:
        raise UserError(f"run id {run_id!r} is ambiguous: {', '.join(r.run_id for r in matches)}")
    return matches[0]
