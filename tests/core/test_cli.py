"""The CLI frame: one-line errors with non-zero exits, runs list/show, help examples."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardsim.sims.core.coin import SIMULATOR as COIN
from cardsim.sims.core.coin import CoinConfig
from cardsim.sims.core.runner import run


def cardsim(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardsim.cli", *args], capture_output=True, text=True, env=env)


@pytest.mark.parametrize(
    "args, message",
    [
        (["runs", "lst"], "No such command"),
        (["bench", "nothing"], "unknown benchmark"),
        (["runs", "show"], "Missing argument"),
    ],
)
def test_bad_input_is_one_line_and_nonzero(args, message):
    result = cardsim(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert "Traceback" not in result.stderr


def test_store_that_is_a_file(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    result = cardsim("runs", "list", "--store", str(not_a_folder))
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: store {not_a_folder} is not a folder"


def test_runs_list_and_show(tmp_path):
    stored = run(COIN, CoinConfig(0.25), n=300, seed=3, store=tmp_path)
    listing = cardsim("runs", "list", "--store", str(tmp_path), "--json")
    assert listing.returncode == 0, listing.stderr
    rows = json.loads(listing.stdout)["tables"]["runs"]
    assert [row["id"] for row in rows] == [stored.path.name]
    assert rows[0]["n"] == 300
    shown = cardsim("runs", "show", stored.path.name[:8], "--store", str(tmp_path), "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["details"]["manifest"]["seed"] == 3


def test_foreign_file_in_store_is_named_and_skipped(tmp_path):
    (tmp_path / "holiday.jpg").write_bytes(b"\xff\xd8")
    result = cardsim("runs", "list", "--store", str(tmp_path))
    assert result.returncode == 0
    assert "holiday.jpg" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert (tmp_path / "holiday.jpg").read_bytes() == b"\xff\xd8"


def test_every_command_help_shows_an_example():
    import typer.main

    from cardsim.cli import build_app

    command = typer.main.get_command(build_app())
    missing = []

    def walk(group, path):
        for name, sub in getattr(group, "commands", {}).items():
            if hasattr(sub, "commands"):
                walk(sub, [*path, name])
            elif "Example" not in (sub.help or "") and name != "version":
                missing.append(" ".join([*path, name]))

    walk(command, [])
    assert missing == []
