"""Cold start: the compile benchmark's cache folder, its timing rows, and `cardsim warmup`."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from cardsim.coldstart import measure_cold, package_root


def test_kernel_cache_goes_to_numba_cache_dir(tmp_path):
    """A ``@kernel`` (cache=True) compiled with NUMBA_CACHE_DIR set writes its cache there and
    not beside its source: what lets `bench compile` start from an empty cache."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "tiny_kernel.py").write_text(
        textwrap.dedent("""
        from cardsim.sims.core.jit import kernel

        @kernel
        def add_one(x):
            return x + 1

        assert add_one(2) == 3
    """)
    )
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=os.pathsep.join([str(package_root()), str(source)]))
    subprocess.run([sys.executable, "-c", "import tiny_kernel"], check=True, env=env)
    assert list(cache.rglob("*.nbi")), "numba ignored NUMBA_CACHE_DIR"
    assert not list(source.rglob("*.nbi")), "the cache was also written beside the source"


def test_measure_cold_times_a_command_cold_and_warm():
    timing = measure_cold("version", ("version",), target=20.0)
    row = timing.row()
    assert row["cold_s"] > 0 and row["warm_s"] > 0
    # the child's CPU seconds: it imports Python and the package, so some, but never more than
    # the two cores could give it over the wall time
    assert 0 < timing.cold_cpu_seconds <= 2 * timing.cold_seconds + 0.1
    assert row["cache_files"] == 0  # `cardsim version` compiles nothing
    assert row["meets_target"] is (timing.cold_seconds <= 20.0)
    assert row["command"] == "cardsim version"


def test_warmup_rejects_an_unknown_game_in_one_line():
    done = subprocess.run([sys.executable, "-m", "cardsim", "warmup", "chess"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: unknown game chess; choose from: gang, thegame, cashnguns, bang")


def test_covering_keeps_configs_that_bring_a_new_value():
    from dataclasses import dataclass

    from cardsim.coldstart import covering

    @dataclass(frozen=True)
    class Config:
        players: int
        strategies: tuple[str, ...]

    configs = [
        Config(4, ("a", "b")),
        Config(4, ("b", "a")),
        Config(5, ("a", "a")),
        Config(4, ("c", "a")),
        Config(5, ("b", "c")),
    ]
    assert covering(configs) == [configs[0], configs[2], configs[3]]


def test_bench_report_times_each_step_of_the_readme_command_and_records_it(tmp_path, monkeypatch):
    """`cardsim bench report` (steps replaced: no clone or install here): one row per step of
    the README's main command and a total, with utilisation, targets only where they apply;
    --record writes them where benchmarks/record.py does."""
    from cardsim import coldstart
    from cardsim.commands import bench

    seen = []

    def step(argv, cwd):
        seen.append(argv)
        figures = {"git": (1.0, 0.5), "pip": (20.0, 15.0), "cardsim": (300.0, 540.0)}
        return figures.get(os.path.basename(argv[0]), (2.0, 1.0))

    rows = coldstart.report_benchmark(False, source=tmp_path, step=step)
    assert [r["step"] for r in rows] == ["clone", "venv", "install", "report", "total"]
    assert seen[0][:3] == ("git", "clone", "--quiet") and seen[3][1:] == ("report",)
    cores = os.cpu_count() or 1
    report, total = rows[3], rows[4]
    assert (report["wall_s"], report["cpu_s"]) == (300.0, 540.0)
    assert report["utilisation"] == round(540.0 / (300.0 * cores), 2)
    assert (total["wall_s"], total["cpu_s"]) == (1.0 + 2.0 + 20.0 + 300.0, 0.5 + 1.0 + 15.0 + 540.0)
    assert report["meets_target"] is True and total["meets_target"] is True
    assert rows[0]["meets_target"] is None and rows[0]["target_wall_s"] is None
    quick = coldstart.report_benchmark(True, source=tmp_path, step=step)
    assert seen[-1][1:] == ("report", "--quick") and quick[-1]["meets_target"] is None

    results = tmp_path / "checkout" / "benchmarks" / "results"
    results.mkdir(parents=True)
    path = bench.write_record(results, "report", False, rows, bench.machine())
    assert path.parent == results and path.name.endswith("-report.json")
    import json

    document = json.loads(path.read_text())
    assert document["command"] == "cardsim bench report" and document["rows"] == rows


def test_bench_long_runs_times_each_declared_run_as_a_first_run():
    """`cardsim bench long-runs` (the run replaced): one row per game that declares a long run,
    run in a scratch folder with an empty numba cache and a scratch --store, judged against
    the game's bound on wall seconds; games without one are left out; no --quick form."""
    from cardsim import coldstart
    from cardsim.commands import bench
    from cardsim.errors import UserError
    from cardsim.sims.registry import get_game, names

    declared = [name for name in names() if get_game(name).long_run]
    assert "cashnguns" in declared
    seen = []

    def run(argv, cache_dir, work_dir, root):
        seen.append((argv, cache_dir, work_dir))
        assert cache_dir.is_dir() and not any(cache_dir.iterdir())
        return (1000.0, 1500.0) if len(seen) == 1 else (100.0, 150.0)

    rows = coldstart.long_run_benchmark(["gang", "cashnguns"], run=run)
    game = get_game("cashnguns")
    assert not get_game("gang").long_run and [row["game"] for row in rows] == [game.title]
    argv, cache_dir, work_dir = seen[0]
    assert argv[: len(game.long_run)] == game.long_run
    assert argv[-2] == "--store" and argv[-1].startswith(str(work_dir))
    row = rows[0]
    assert (row["wall_s"], row["cpu_s"], row["target_wall_s"]) == (1000.0, 1500.0, game.long_run_wall_s)
    assert row["meets_target"] is (1000.0 <= game.long_run_wall_s)
    assert row["utilisation"] == round(1500.0 / (1000.0 * (os.cpu_count() or 1)), 2)
    assert not cache_dir.exists()  # the scratch folder is gone
    with pytest.raises(UserError, match="no --quick"):
        bench.long_runs_command(True, as_json=True)
