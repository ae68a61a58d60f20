"""The results store: chunk hashes, umask, listing what is readable, pruning only our runs."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardsim.commands import runs as runs_command
from cardsim.errors import UserError
from cardsim.sims.core.coin import SIMULATOR as COIN
from cardsim.sims.core.coin import CoinConfig
from cardsim.sims.core.runner import load_episodes, run
from cardsim.sims.core.store import delete_run, load_run, scan_runs


def cardsim(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cardsim.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def invoke(*args: str, answer: str | None = None):
    """The runs sub-command in this process (so tests can patch it), as typer's runner sees it."""
    from cardsim.cli import build_app

    return CliRunner().invoke(build_app("runs"), ["runs", *args], input=answer)


def edit_manifest(path: Path, change) -> None:
    manifest = json.loads((path / "manifest.json").read_text())
    change(manifest)
    (path / "manifest.json").write_text(json.dumps(manifest))


def test_every_chunk_hash_is_recorded(tmp_path):
    result = run(COIN, CoinConfig(0.3), n=250, seed=4, store=tmp_path)
    hashes = load_run(result.path).manifest["chunk_sha256"]
    assert sorted(hashes) == ["000000", "000001", "000002"]
    assert len(set(hashes.values())) == 3


CHANGED_CHUNK_1 = r"corrupt results file .*000001\.parquet: its content does not match"


def test_chunk_replaced_by_another_runs_chunk_is_named_and_kept(tmp_path):
    mine = run(COIN, CoinConfig(0.3), n=200, seed=1, store=tmp_path)
    other = run(COIN, CoinConfig(0.3), n=200, seed=2, store=tmp_path)
    swapped = mine.path / "chunks" / "000001.parquet"
    foreign = (other.path / "chunks" / "000001.parquet").read_bytes()
    swapped.write_bytes(foreign)  # a valid chunk of the right size: only the hash tells
    with pytest.raises(UserError, match=CHANGED_CHUNK_1):
        run(COIN, CoinConfig(0.3), n=200, seed=1, store=tmp_path)
    with pytest.raises(UserError, match=CHANGED_CHUNK_1):
        load_episodes(load_run(mine.path))
    assert swapped.read_bytes() == foreign


def test_chunk_without_recorded_hash_is_computed_again(tmp_path):
    first = run(COIN, CoinConfig(0.4), n=300, seed=5, store=tmp_path)
    # as after a hard kill between writing chunk 2 and saving the manifest
    edit_manifest(first.path, lambda m: m["chunk_sha256"].pop("000002"))
    calls: list[int] = []
    again = run(COIN, CoinConfig(0.4), n=300, seed=5, store=tmp_path, on_chunk=calls.append)
    assert calls == [2]
    assert again.episodes.equals(first.episodes)
    assert "000002" in load_run(first.path).manifest["chunk_sha256"]


def test_manifest_without_hashes_is_refused_unless_trusted(tmp_path):
    result = run(COIN, CoinConfig(0.4), n=200, seed=5, store=tmp_path)
    edit_manifest(result.path, lambda m: m.pop("chunk_sha256"))
    stored = load_run(result.path)
    with pytest.raises(UserError, match="no recorded hash.*--trust-unhashed"):
        load_episodes(stored)
    assert load_episodes(stored, trust_unhashed=True).equals(result.episodes)
    assert stored.unverified == {0, 1}


@pytest.mark.parametrize(
    "change", [lambda m: m.pop("chunk_size"), lambda m: m.update(chunk_size="100"), lambda m: m.update(chunk_size=0)]
)
def test_manifest_without_a_chunk_size_is_named_not_its_chunks(tmp_path, change):
    """A manifest that lost its chunk size is the file blamed, by a run and by runs show."""
    result = run(COIN, CoinConfig(0.4), n=200, seed=5, store=tmp_path)
    edit_manifest(result.path, change)
    with pytest.raises(UserError, match=r"manifest\.json: no valid chunk_size"):
        run(COIN, CoinConfig(0.4), n=200, seed=5, store=tmp_path)
    shown = cardsim("runs", "show", result.path.name, "--store", str(tmp_path))
    assert shown.returncode == 2 and shown.stderr.count("\n") == 1
    assert "manifest.json: no valid chunk_size" in shown.stderr


def test_files_follow_the_umask(tmp_path):
    previous = os.umask(0o027)
    try:
        result = run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path / "store")
    finally:
        os.umask(previous)
    for path in (result.path / "manifest.json", result.path / "chunks" / "000000.parquet"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o640, path


def test_runs_list_skips_what_it_cannot_read_and_never_cuts_ids(tmp_path):
    result = run(COIN, CoinConfig(0.25), n=300, seed=3, store=tmp_path)
    (tmp_path / "README.txt").write_text("notes")
    broken = tmp_path / "gang-0123456789abcdef"
    broken.mkdir()
    (broken / "manifest.json").write_text("{ broken")
    listing = cardsim("runs", "list", "--store", str(tmp_path), env={**os.environ, "COLUMNS": "30"})
    assert listing.returncode == 0, listing.stderr
    skipped = listing.stderr.strip().splitlines()
    assert len(skipped) == 2
    assert any("README.txt" in line and "not a cardsim run folder" in line for line in skipped)
    assert any("gang-0123456789abcdef" in line and "not valid JSON" in line for line in skipped)
    header, row = listing.stdout.strip().splitlines()
    assert header.split() == ["id", "game", "n", "seed", "created", "stale", "config"]
    assert row.split()[:4] == [result.path.name, "coin", "300", "3"]
    assert row.split()[5:] == ["no", "p_heads=0.25"]
    assert (tmp_path / "README.txt").exists() and broken.exists()


def test_runs_list_marks_runs_of_changed_code_stale(tmp_path):
    result = run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    edit_manifest(result.path, lambda m: m["identity"].update(code="0" * 16))
    rows = json.loads(invoke("list", "--store", str(tmp_path), "--json").stdout)["tables"]["runs"]
    assert [(row["id"], row["stale"]) for row in rows] == [(result.path.name, True)]


def test_runs_list_works_on_a_read_only_store(tmp_path, monkeypatch):
    result = run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    real_access = os.access

    def no_mkdir(*args, **kwargs):
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr(os, "access", lambda path, mode: not mode & os.W_OK and real_access(path, mode))
    monkeypatch.setattr(Path, "mkdir", no_mkdir)
    tmp_path.chmod(0o555)  # effective when the tests do not run as root
    try:
        listing = invoke("list", "--store", str(tmp_path))
    finally:
        tmp_path.chmod(0o755)
    assert listing.exit_code == 0, listing.output
    assert result.path.name in listing.output


def test_scan_reads_only_run_folders(tmp_path):
    run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    (tmp_path / "coin-0123456789abcdef").symlink_to(tmp_path)
    runs, skipped = scan_runs(tmp_path)
    assert len(runs) == 1 and len(skipped) == 1 and "coin-0123456789abcdef" in skipped[0]


def make_runs(store: Path):
    """Three runs: one stale and old, one stale and new, one current and old."""
    old = (datetime.now(timezone.utc) - timedelta(days=10)).isoformat(timespec="seconds")
    made = [run(COIN, CoinConfig(), n=100, seed=seed, store=store).path for seed in (1, 2, 3)]
    edit_manifest(made[0], lambda m: m.update(created=old) or m["identity"].update(code="0" * 16))
    edit_manifest(made[1], lambda m: m["identity"].update(code="0" * 16))
    edit_manifest(made[2], lambda m: m.update(created=old))
    return made


def test_prune_without_terminal_or_yes_refuses_in_one_line(tmp_path):
    made = make_runs(tmp_path)
    result = cardsim("runs", "prune", "--stale", "--store", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: not deleting 2 run(s) without confirmation (no terminal to ask on); add --yes"
    ]
    assert all(path.exists() for path in made)


@pytest.mark.parametrize(
    "options, deleted",
    [
        (["--stale"], [0, 1]),
        (["--older-than", "7d"], [0, 2]),
        (["--stale", "--older-than", "1w"], [0]),
        (["--older-than", "30d"], []),
    ],
)
def test_prune_yes_deletes_the_runs_matching_every_filter(tmp_path, options, deleted):
    made = make_runs(tmp_path)
    (tmp_path / "README.txt").write_text("keep me")
    result = invoke("prune", *options, "--yes", "--store", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [i for i, path in enumerate(made) if not path.exists()] == deleted
    assert (tmp_path / "README.txt").read_text() == "keep me"


@pytest.mark.parametrize("answer, kept", [("y\n", False), ("n\n", True)])
def test_prune_asks_on_a_terminal(tmp_path, monkeypatch, answer, kept):
    made = make_runs(tmp_path)
    monkeypatch.setattr(runs_command, "stdin_is_terminal", lambda: True)
    result = invoke("prune", "--stale", "--store", str(tmp_path), answer=answer)
    assert result.exit_code == 0, result.output
    assert "delete 2 run(s)" in result.output
    assert made[0].exists() is kept and made[1].exists() is kept and made[2].exists()


def test_prune_never_deletes_a_run_folder_holding_foreign_files(tmp_path):
    made = make_runs(tmp_path)
    (made[0] / "my-notes.txt").write_text("mine")
    result = invoke("prune", "--stale", "--yes", "--store", str(tmp_path))
    assert result.exit_code == 2
    assert made[0].exists() and (made[0] / "my-notes.txt").exists()
    assert not made[1].exists()
    with pytest.raises(UserError, match="foreign file"):
        delete_run(load_run(made[0]))


@pytest.mark.parametrize(
    "args, message",
    [(["prune", "--older-than", "7 days"], "expected a duration like 12h"), (["prune"], "say which runs to delete")],
)
def test_prune_bad_input_is_one_line(tmp_path, args, message):
    result = cardsim("runs", *args, "--store", str(tmp_path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.stderr


def test_prune_stops_with_one_line_at_a_folder_it_cannot_delete(tmp_path, monkeypatch):
    made = make_runs(tmp_path)
    real_unlink = Path.unlink

    def unlink(path, missing_ok=False):
        if path.suffix == ".parquet":
            raise PermissionError(13, "Permission denied")
        real_unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", unlink)
    result = invoke("prune", "--stale", "--yes", "--store", str(tmp_path))
    assert isinstance(result.exception, UserError)
    assert str(result.exception).endswith("Permission denied; deleted 0 of 2 run(s)")
    assert all((path / "manifest.json").exists() for path in made)  # still runs


def test_chunk_hashes_reach_the_manifest_while_the_run_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr("cardsim.sims.core.runner.MANIFEST_SAVE_SECONDS", -1.0)  # every chunk
    on_disk: list[list[str]] = []

    def look(index: int) -> None:
        (folder,) = tmp_path.iterdir()
        on_disk.append(sorted(json.loads((folder / "manifest.json").read_text())["chunk_sha256"]))

    run(COIN, CoinConfig(), n=300, seed=1, store=tmp_path, on_chunk=look)
    assert on_disk == [["000000"], ["000000", "000001"], ["000000", "000001", "000002"]]


def test_runs_show_says_when_chunks_had_no_hash(tmp_path):
    from cardsim.sims.registry import get_simulator
    from cardsim.sims.thegame.config import TheGameConfig

    simulator = get_simulator("thegame")
    result = run(simulator, TheGameConfig(players=2, strategy="greedy"), n=20, seed=1, store=tmp_path, chunk_size=10)
    checked = invoke("show", result.path.name, "--store", str(tmp_path))
    assert checked.exit_code == 0 and "no recorded hash" not in checked.output
    edit_manifest(result.path, lambda m: m.pop("chunk_sha256"))  # as made before chunk hashes
    refused = cardsim("runs", "show", result.path.name, "--store", str(tmp_path))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "--trust-unhashed" in refused.stderr and "n=20" not in refused.stdout
    shown = invoke("show", result.path.name, "--store", str(tmp_path), "--trust-unhashed")
    assert shown.exit_code == 0, shown.output
    assert "note: 2 chunk(s) of" in shown.output and "no recorded hash" in shown.output
    assert "n=20" in shown.output


def test_record_folders_of_other_commands_are_not_foreign(tmp_path):
    """compare's and discover's record folders sit next to the runs without a 'skipped' note."""
    run(COIN, CoinConfig(), n=100, seed=1, store=tmp_path)
    (tmp_path / "bang_compare").mkdir()
    (tmp_path / "cashnguns_discover").mkdir()
    runs, skipped = scan_runs(tmp_path)
    assert len(runs) == 1 and skipped == []


def test_two_openers_of_one_new_run_never_see_it_without_its_manifest(tmp_path, monkeypatch):
    """Two processes opening the same new run at once (a report's scheduled tasks do): the
    second, arriving while the first writes the manifest, sees no folder or a whole one."""
    from cardsim.sims.core import store as store_module

    identity, extra = {"game": "coin", "chunk_size": 10}, {"game": "coin", "chunk_size": 10}
    real_replace, raced, seen = os.replace, [], []

    def replace_then_race(src, dst):
        if not raced:  # the first manifest write: the other process arrives now
            raced.append(True)
            seen.append(store_module.open_run(tmp_path, "coin", identity, extra))
        real_replace(src, dst)

    monkeypatch.setattr(store_module.os, "replace", replace_then_race)
    first = store_module.open_run(tmp_path, "coin", identity, extra)
    assert seen and seen[0].path == first.path
    assert first.manifest["identity"] == identity
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
