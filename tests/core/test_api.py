"""The Python API: README example runs, docstring examples hold, nothing is written
without a store, errors are UserError, the CLI and the API give the same numbers."""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardsim
from cardsim.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_api_example_runs(tmp_path, monkeypatch):
    text = README.read_text()
    block = re.search(r"<!-- python-api -->\n```python\n(.*?)```", text, re.S)
    assert block, "README lost its Python API example"
    monkeypatch.chdir(tmp_path)
    env = {"PYTHONPATH": str(README.parent), "PATH": "/usr/bin:/bin"}
    if "NUMBA_CACHE_DIR" in os.environ:  # share the session's kernel cache (cold-run timing)
        env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
    done = subprocess.run([sys.executable, "-c", block.group(1)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "success_lo" in done.stdout and "win_lo" in done.stdout
    assert list(tmp_path.iterdir()) == []  # store=None: nothing written


def test_api_docstring_examples(monkeypatch, tmp_path):
    import importlib
    import pkgutil

    import cardsim.api

    monkeypatch.chdir(tmp_path)
    modules = [cardsim.api] + [
        importlib.import_module(f"cardsim.api.{info.name}") for info in pkgutil.iter_modules(cardsim.api.__path__)
    ]
    failures = tried = 0
    for module in modules:
        found = doctest.testmod(module, extraglobs={"cardsim": cardsim}, optionflags=doctest.NORMALIZE_WHITESPACE)
        failures, tried = failures + found.failed, tried + found.attempted
    assert tried >= 6 and failures == 0
    assert list(tmp_path.iterdir()) == []


def test_import_is_light():
    code = "import sys, cardsim; print(sorted(m for m in ('polars', 'numba', 'typer') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=README.parent)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_errors_are_user_errors_before_any_run():
    with pytest.raises(cardsim.UserError, match="players must be 3 to 6"):
        cardsim.gang.heist(players=9, n=10)
    with pytest.raises(cardsim.UserError, match="max_n bounds a precision run"):
        cardsim.thegame.run(players=2, n=10, max_n=100)
    with pytest.raises(cardsim.UserError, match="unknown strategy"):
        cardsim.thegame.run(players=2, strategy="psychic", n=10)


def test_store_keeps_runs_and_cli_gives_the_same_numbers(tmp_path, capsys):
    stored = cardsim.thegame.run(players=2, strategy="greedy", n=300, jobs=1, quiet=True, store=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == stored.manifest["runs"]
    with pytest.raises(SystemExit) as exit_info:
        main(
            [
                "thegame",
                "run",
                "--players",
                "2",
                "--strategy",
                "greedy",
                "--n",
                "300",
                "--jobs",
                "1",
                "--store",
                str(tmp_path),
                "--json",
                "-q",
            ]
        )
    assert exit_info.value.code == 0
    document = json.loads(capsys.readouterr().out)
    assert document["runs"] == stored.manifest["runs"]
    assert document["tables"]["summary"] == stored.table.to_dicts()


def test_to_pandas_names_the_extra_when_missing(monkeypatch):
    result = cardsim.bang.run(players=4, n=50, jobs=1, quiet=True)
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pytest.raises(cardsim.UserError, match=r"pip install 'cardsim\[pandas\]'"):
        result.to_pandas()


def test_to_pandas_with_the_extra():
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    frame = cardsim.thegame.run(players=[2, 3], strategy="greedy", n=100, jobs=1, quiet=True).to_pandas()
    assert list(frame["players"]) == [2, 3]


def test_one_configuration_is_never_counted_twice():
    from cardsim.api import Runs, run_options
    from cardsim.sims.thegame.simulator import SIMULATOR

    runs = Runs("thegame run", 20, run_options(quiet=True))
    config = SIMULATOR.make_config(players=2, strategy="greedy")
    runs.episodes("thegame", config)
    with pytest.raises(cardsim.UserError, match="counted twice"):
        runs.episodes("thegame", config)


BAD_CALLS = [  # (call, the keyword its one-line message names)
    (lambda: cardsim.gang.heist(jobs="2", n=10), "jobs"),
    (lambda: cardsim.gang.heist(precision="0.1", n=10), "precision"),
    (lambda: cardsim.gang.heist(store=123, n=10), "store"),
    (lambda: cardsim.gang.heist(players=3.5, n=10), "players"),
    (lambda: cardsim.gang.heist(model=None, n=10), "model"),
    (lambda: cardsim.gang.heist(levels=1.5, n=10), "levels"),
    (lambda: cardsim.gang.heist(challenge=3, n=10), "challenge"),
    (lambda: cardsim.gang.heist(n="5"), "n"),
    (lambda: cardsim.gang.heist(seed=-1, n=10), "seed"),
    (lambda: cardsim.gang.heist(backend="dask", scheduler="tcp://host", n=10), "scheduler"),
    (lambda: cardsim.gang.game(mode=None, n=10), "mode"),
    (lambda: cardsim.gang.cards(kind=None, n=10), "kind"),
    (lambda: cardsim.thegame.run(strategy=None, n=10), "strategy"),
    (lambda: cardsim.thegame.run(players=2, n=10, max_n=100), "max_n"),
    (lambda: cardsim.bang.run(bots=None, n=10), "bots"),
    (lambda: cardsim.bang.run(bots="", n=10), "bots"),
    (lambda: cardsim.bang.run(bots="sheriff=role,sheriff=random", n=10), "sheriff twice"),
    (lambda: cardsim.bang.run(players=None, n=10), "players"),
    (lambda: cardsim.cashnguns.payoff(strategy=5, n=10), "strategy"),
    (lambda: cardsim.cashnguns.payoff(metric=None, n=10), "metric"),
    (lambda: cardsim.tune.gang(target="x"), "target"),
    (lambda: cardsim.report(game=5), "game"),
]


@pytest.mark.parametrize("call, keyword", BAD_CALLS)
def test_bad_arguments_are_one_line_user_errors_naming_the_keyword(call, keyword, tmp_path, monkeypatch):
    """Wrong types and values never reach a run: one UserError line naming the keyword (not a
    command-line flag), and nothing written."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(cardsim.UserError) as caught:
        call()
    message = str(caught.value)
    assert keyword in message and "--" not in message and "\n" not in message, message
    assert list(tmp_path.iterdir()) == []


def test_dir_lists_the_games_and_docstrings_list_valid_names():
    from cardsim.sims.bang.cards import BOT_NAMES
    from cardsim.sims.gang.cards import SPECIALISTS
    from cardsim.sims.gang.models import MODEL_IDS
    from cardsim.sims.thegame.config import STRATEGY_NAMES

    assert {"gang", "thegame", "cashnguns", "bang", "tune", "report", "Result"} <= set(dir(cardsim))
    assert all(name in cardsim.gang.heist.__doc__ for name in [*MODEL_IDS, *SPECIALISTS])
    assert all(name in cardsim.thegame.run.__doc__ for name in STRATEGY_NAMES)
    assert all(name in cardsim.bang.run.__doc__ for name in BOT_NAMES)
    assert "Valid names" in cardsim.cashnguns.payoff.__doc__ and "stubborn" in cardsim.cashnguns.payoff.__doc__
