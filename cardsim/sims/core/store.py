"""The results store: one folder per run, episodes as parquet chunks plus ``manifest.json``.

Layout::

    <store>/<game>-<key>/manifest.json        what was run (game, config, seed, chunk size, ...)
    <store>/<game>-<key>/chunks/000000.parquet one file per finished chunk

``key`` hashes everything that determines the episodes (game, config, root seed, chunk size,
package version, code fingerprint), so asking the same run again finds the folder and reuses its
chunks, and a larger ``n`` only computes the missing chunks. Every file is written atomically
(temporary file in the same folder, then ``os.replace``), so an interrupted run never leaves a
half-written file; files get the permissions the user's umask gives (like any other file).

The manifest records the SHA-256 of every chunk file (``chunk_sha256``), checked on every read:
a chunk file changed after it was written (say, replaced by another run's chunk) is an error
naming it. A chunk file without a recorded hash (the process was killed between writing the
chunk and saving the manifest, or the run predates chunk hashes) is never trusted by a run: it
is computed again, which gives the same rows. Anything in the store that is not ours, or not
readable, is reported by name and never overwritten or deleted.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import polars as pl

from cardsim.errors import UserError

MANIFEST_NAME = "manifest.json"
CHUNKS_DIR = "chunks"
MANIFEST_FORMAT = "cardsim-run/1"
_RUN_DIR_PATTERN = re.compile(r"^[a-z]+-[0-9a-f]{16}$")
# Folders other commands keep their records in, next to the runs (not runs, not foreign).
RECORD_FOLDERS = ("cashnguns_discover", "bang_compare", "cashnguns_tournament", "crossplay")
_CHUNK_PATTERN = re.compile(r"^(\d{6})\.parquet$")
_TEMP_PATTERN = re.compile(r"^\..+\.tmp$")


class StoreWriteError(UserError):
    """A file of the store could not be written (disk full, no permission): one line, exit 2."""


def run_key(identity: dict[str, Any]) -> str:
    """A stable 16-hex-digit key for everything that determines a run's episodes."""
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def describe_os_error(exc: OSError) -> str:
    """The system's words for an OSError ('No space left on device'), whatever its form."""
    if exc.strerror:
        return exc.strerror
    if exc.errno:
        return os.strerror(exc.errno)
    return str(exc) or type(exc).__name__


def _open_temp(folder: Path, name: str) -> tuple[int, Path]:
    """A new empty temporary file beside ``name``, created with mode 0666 so that the user's
    umask decides its permissions (``tempfile.mkstemp`` would force 0600)."""
    while True:
        tmp = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _open_temp(path.parent, path.name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def parquet_bytes(frame: pl.DataFrame) -> bytes:
    """A DataFrame as the bytes of a parquet file."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer, statistics=False)
    return buffer.getvalue()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def open_store(path: Path) -> Path:
    """The store folder, created if missing; a clear error if it cannot be one."""
    if path.exists() and not path.is_dir():
        raise UserError(f"store {path} is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot use store {path}: {describe_os_error(exc)}") from None
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        raise UserError(f"store {path} is not readable and writable")
    return path


def _readable_store(path: Path) -> Path:
    """An existing store folder to read (listing needs no write permission)."""
    if not path.is_dir():
        raise UserError(f"store {path} is not a folder")
    if not os.access(path, os.R_OK | os.X_OK):
        raise UserError(f"store {path} is not readable")
    return path


@dataclass
class StoredRun:
    """One run folder: its manifest and its finished chunks."""

    path: Path
    manifest: dict[str, Any]
    unverified: set[int] = field(default_factory=set)  # chunks read without a recorded hash

    @property
    def run_id(self) -> str:
        return self.path.name

    def chunk_path(self, index: int) -> Path:
        return self.path / CHUNKS_DIR / f"{index:06d}.parquet"

    def chunk_hash(self, index: int) -> str | None:
        """The SHA-256 recorded for chunk ``index``, None if the manifest has none."""
        hashes = self.manifest.get("chunk_sha256")
        return hashes.get(f"{index:06d}") if isinstance(hashes, dict) else None

    def chunk_indices(self) -> list[int]:
        """Indices of the chunk files present; a foreign file in the folder is an error."""
        folder = self.path / CHUNKS_DIR
        if not folder.exists():
            return []
        indices = []
        for entry in sorted(folder.iterdir()):
            if _TEMP_PATTERN.match(entry.name):
                continue  # left by a hard kill mid-write: never read, replaced on the next write
            match = _CHUNK_PATTERN.match(entry.name)
            if not match or not entry.is_file():
                raise UserError(f"foreign file in the results store: {entry}")
            indices.append(int(match.group(1)))
        return indices

    def unhashed_chunk_indices(self, count: int) -> list[int]:
        """Chunks 0..count-1 whose hash the manifest does not record (their rows cannot be
        checked: a reader must refuse them unless told to trust them)."""
        return [index for index in range(count) if self.chunk_hash(index) is None]

    def trusted_chunk_indices(self) -> list[int]:
        """Chunk files present whose hash the manifest records (the others are recomputed)."""
        return [index for index in self.chunk_indices() if self.chunk_hash(index) is not None]

    def read_chunk(self, index: int) -> pl.DataFrame:
        """Chunk ``index``, checked against its recorded hash and the chunk size."""
        path = self.chunk_path(index)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read {path}: {describe_os_error(exc)}") from None
        expected_hash = self.chunk_hash(index)
        if expected_hash is None:
            self.unverified.add(index)
        elif sha256_hex(data) != expected_hash:
            raise UserError(
                f"corrupt results file {path}: its content does not match the SHA-256 in the "
                "run's manifest (changed after it was written); move it away to recompute"
            )
        try:
            frame = pl.read_parquet(io.BytesIO(data))
        except Exception as exc:  # polars raises several types for damaged files
            raise UserError(f"corrupt results file {path} ({type(exc).__name__}); move it away to recompute") from None
        expected = self.manifest.get("chunk_size")
        if frame.height != expected:
            raise UserError(f"corrupt results file {path}: {frame.height} rows, expected {expected}")
        return frame

    def write_chunk(self, index: int, frame: pl.DataFrame) -> None:
        """Write chunk ``index`` and record its hash (saved with the next manifest save)."""
        data = parquet_bytes(frame)
        path = self.chunk_path(index)
        try:
            atomic_write_bytes(path, data)
        except OSError as exc:
            raise StoreWriteError(f"cannot write {path}: {describe_os_error(exc)}") from None
        self.manifest.setdefault("chunk_sha256", {})[f"{index:06d}"] = sha256_hex(data)

    def save_manifest(self) -> None:
        text = json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
        path = self.path / MANIFEST_NAME
        try:
            atomic_write_bytes(path, text.encode())
        except OSError as exc:
            raise StoreWriteError(f"cannot write {path}: {describe_os_error(exc)}") from None

    def is_stale(self) -> bool | None:
        """Whether the code that played this run differs from the installed code (its code
        fingerprint changed); None when that cannot be told (unknown game module)."""
        from cardsim.sims.core.fingerprint import code_fingerprint

        recorded = (self.manifest.get("identity") or {}).get("code")
        # a manifest from before ``code_module`` was recorded: the game's simulator module
        game = self.manifest.get("game")
        module = self.manifest.get("code_module") or (game and f"cardsim.sims.{game}.simulator")
        if not recorded or not module:
            return None
        try:
            return bool(code_fingerprint(module) != recorded)
        except ImportError:
            return None

    def created(self) -> datetime | None:
        """When the run was first made (the manifest's ``created``), None if unreadable."""
        try:
            moment = datetime.fromisoformat(str(self.manifest.get("created", "")))
        except ValueError:
            return None
        return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def read_manifest(path: Path) -> dict[str, Any]:
    """Load and check one manifest file; any problem is a one-line error naming the file."""
    try:
        manifest = json.loads(path.read_text())
    except OSError as exc:
        raise UserError(f"cannot read {path}: {describe_os_error(exc)}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise UserError(f"corrupt results file {path}: not valid JSON") from None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise UserError(f"foreign file in the results store: {path} is not a cardsim manifest")
    identity = manifest.get("identity")
    size = manifest.get("chunk_size")
    if not isinstance(identity, dict) or not isinstance(manifest.get("game"), str):
        raise UserError(f"corrupt results file {path}: no game or identity recorded")
    if isinstance(size, bool) or not isinstance(size, int) or size < 1 or (identity.get("chunk_size") != size):
        raise UserError(
            f"corrupt results file {path}: no valid chunk_size recorded "
            f"(got {size!r}); move the run folder away to recompute it"
        )
    hashes = manifest.get("chunk_sha256")
    if hashes is not None and not isinstance(hashes, dict):
        raise UserError(f"corrupt results file {path}: chunk_sha256 is not a table of hashes")
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
    if not run_dir.exists():
        _create_run_dir(run_dir, {"format": MANIFEST_FORMAT, "identity": identity, **manifest})
    run = load_run(run_dir)
    if run.manifest.get("identity") != identity:
        raise UserError(f"results file {run_dir / MANIFEST_NAME} does not match its folder name")
    return run


def _create_run_dir(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Make ``run_dir`` with its manifest in one rename, so that another process opening the
    same run at the same moment sees either no folder or a folder with its manifest (when it
    made the folder first, that folder is kept and this one dropped)."""
    while True:
        tmp = run_dir.parent / f".{run_dir.name}.{secrets.token_hex(4)}.tmp"
        try:
            tmp.mkdir()
            break
        except FileExistsError:
            continue
    try:
        StoredRun(tmp, manifest).save_manifest()
        os.rename(tmp, run_dir)
    except (OSError, StoreWriteError) as exc:
        (tmp / MANIFEST_NAME).unlink(missing_ok=True)
        tmp.rmdir()
        if (run_dir / MANIFEST_NAME).is_file():
            return
        if isinstance(exc, StoreWriteError):
            raise
        raise StoreWriteError(f"cannot make {run_dir}: {describe_os_error(exc)}") from None


def _load_entry(entry: Path) -> StoredRun:
    """One entry of the store folder as a run; a one-line error when it is not one."""
    if entry.is_symlink() or not entry.is_dir() or not _RUN_DIR_PATTERN.match(entry.name):
        raise UserError(f"foreign file in the results store: {entry} is not a cardsim run folder")
    return load_run(entry)


def scan_runs(store: Path) -> tuple[list[StoredRun], list[str]]:
    """Every readable run in the store, oldest first, and one message per entry skipped (a
    stray file, a folder that is not a run, a corrupt or unreadable manifest). Reads only."""
    if not store.exists():
        return [], []
    _readable_store(store)
    runs, skipped = [], []
    for entry in sorted(store.iterdir()):
        if entry.name.startswith(".") or (entry.name in RECORD_FOLDERS and entry.is_dir()):
            continue
        try:
            runs.append(_load_entry(entry))
        except UserError as exc:
            skipped.append(f"skipped: {exc}")
    runs.sort(key=lambda run: (run.manifest.get("created", ""), run.run_id))
    return runs, skipped


def find_run(store: Path, run_id: str) -> StoredRun:
    """A run by its folder name or a unique prefix of it (other entries are not read)."""
    if not store.exists():
        raise UserError(f"no run {run_id!r} in store {store}: the store does not exist")
    _readable_store(store)
    names = sorted(
        entry.name for entry in store.iterdir() if _RUN_DIR_PATTERN.match(entry.name) and entry.name.startswith(run_id)
    )
    if not names:
        raise UserError(f"no run {run_id!r} in store {store}")
    if len(names) > 1:
        raise UserError(f"run id {run_id!r} is ambiguous: {', '.join(names)}")
    return _load_entry(store / names[0])


def delete_run(run: StoredRun) -> None:
    """Delete a run folder, after checking that it holds only what the store writes there
    (manifest, chunk files, temporary files of interrupted writes); anything else is an error
    and nothing is deleted. The manifest goes last, so a deletion that fails half-way (no
    permission) leaves a run that still lists, resumes and can be pruned again."""
    folder = run.path
    if folder.is_symlink() or not _RUN_DIR_PATTERN.match(folder.name):
        raise UserError(f"not deleted: {folder} is not a cardsim run folder")
    chunk_files, top_files = [], []
    for entry in folder.iterdir():
        if entry.name == CHUNKS_DIR and entry.is_dir() and not entry.is_symlink():
            for chunk in entry.iterdir():
                ours = _CHUNK_PATTERN.match(chunk.name) or _TEMP_PATTERN.match(chunk.name)
                if not ours or chunk.is_symlink() or not chunk.is_file():
                    raise UserError(f"not deleted: {folder} holds a foreign file {chunk}")
                chunk_files.append(chunk)
        elif (entry.name == MANIFEST_NAME or _TEMP_PATTERN.match(entry.name)) and (
            entry.is_file() and not entry.is_symlink()
        ):
            top_files.append(entry)
        else:
            raise UserError(f"not deleted: {folder} holds a foreign file {entry}")
    top_files.sort(key=lambda path: path.name == MANIFEST_NAME)  # the manifest last
    try:
        for path in chunk_files:
            path.unlink()
        if (folder / CHUNKS_DIR).is_dir():
            (folder / CHUNKS_DIR).rmdir()
        for path in top_files:
            path.unlink()
        folder.rmdir()
    except OSError as exc:
        raise StoreWriteError(f"cannot delete {folder}: {describe_os_error(exc)}") from None
