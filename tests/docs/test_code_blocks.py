"""Every code block of the README and the documentation runs in the tests.

- ``python`` blocks run through pytest-markdown-docs, in a second pytest process over the
  Markdown files (a block fenced as ``python notest`` is a fragment that is not run).
- ``sh`` and ``console`` blocks: each line that starts with ``cardsim`` runs through the
  command-line entry point in a scratch folder with a scratch results store, ``--n`` cut to
  :data:`TINY_N` episodes. A block right after the marker ``<!-- docs-test: parse-only -->``
  (commands that take minutes: a full report, a discover search) is only parsed: its
  sub-command and every option must exist and take the value given.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer

try:  # typer may bring its own copy of click
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover
    from click import UsageError

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
PARSE_ONLY = "<!-- docs-test: parse-only -->"
TINY_N = 10
FENCE = re.compile(r"(?P<marker><!-- docs-test: [a-z-]+ -->\n)?```(?P<lang>[a-z]*)[^\n]*\n(?P<body>.*?)```", re.S)


def cli_lines(page: Path) -> list[tuple[str, list[str], bool]]:
    """The ``cardsim`` lines of a page's shell blocks: (where, arguments, parse only)."""
    found = []
    for block in FENCE.finditer(page.read_text(encoding="utf-8")):
        if block["lang"] not in ("sh", "console", "bash", "shell"):
            continue
        parse_only = (block["marker"] or "").strip() == PARSE_ONLY
        for line in block["body"].splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("cardsim "):
                found.append((f"{page.relative_to(ROOT)}: {line}", line.split()[1:], parse_only))
    return found


LINES = [line for page in PAGES for line in cli_lines(page)]


def tiny(args: list[str]) -> list[str]:
    """The arguments with every ``--n`` value cut to :data:`TINY_N`, and a ``--strategy`` file
    or tournament ``--entrant`` file of ``examples/`` found from the repository root (the pages
    run commands from there)."""
    out = list(args)
    for i, word in enumerate(out[:-1]):
        if word == "--n":
            out[i + 1] = str(min(int(out[i + 1]), TINY_N))
        if word == "--strategy" and out[i + 1].startswith("examples/"):
            out[i + 1] = str(ROOT / out[i + 1])
        if word in ("-e", "--entrant"):
            out[i + 1] = ",".join(
                str(ROOT / piece) if piece.startswith("examples/") else piece for piece in out[i + 1].split(",")
            )
    return out


def parse(args: list[str]) -> None:
    """Parse ``cardsim ARGS`` down to its sub-command without running it (click raises on an
    unknown command, option or a value of the wrong type)."""
    from cardsim.cli import build_app

    command = typer.main.get_command(build_app())
    context = command.make_context("cardsim", list(args))
    while hasattr(command, "resolve_command"):
        rest = [*getattr(context, "_protected_args", []), *context.args]
        name, command, rest = command.resolve_command(context, rest)
        context = command.make_context(name, rest, parent=context)


def test_the_pages_have_commands():
    assert any("README.md" in where for where, _, _ in LINES)
    assert len(LINES) >= 10


@pytest.mark.parametrize("where,args,parse_only", LINES, ids=[w for w, _, _ in LINES])
def test_cli_line(where, args, parse_only, tmp_path, monkeypatch, capsys):
    parse(args)
    if parse_only:
        return
    from cardsim.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARDSIM_STORE", str(tmp_path / "results"))
    with pytest.raises(SystemExit) as done:
        main([*tiny(args)])
    assert done.value.code == 0, capsys.readouterr().err


def test_parse_catches_a_wrong_option():
    """The parse-only check can fail."""
    with pytest.raises(UsageError):
        parse(["gang", "heist", "--no-such-option", "1"])
    with pytest.raises(UsageError):
        parse(["no-such-command"])


def test_python_blocks_run():
    """pytest-markdown-docs over the README and every page: each ``python`` block runs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--markdown-docs",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(ROOT),
            *(str(p) for p in PAGES),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"\d+ passed", done.stdout), done.stdout[-2000:]


def test_json_blocks_parse():
    """``json`` blocks (sample output) are valid JSON documents."""
    import json

    blocks = [
        (page, block["body"])
        for page in PAGES
        for block in FENCE.finditer(page.read_text(encoding="utf-8"))
        if block["lang"] == "json"
    ]
    assert blocks
    for page, body in blocks:
        assert isinstance(json.loads(body), dict), page
