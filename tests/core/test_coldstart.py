"""Cold start: the compile benchmark's cache folder, its timing rows, and `cardsim warmup`."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from cardsim.coldstart import measure_cold, package_root


def test_kernel_cache_goes_to_numba_cache_dir(tmp_path):
    """A ``@kernel`` (cache=True) compiled with NUMBA_CACHE_DIR set writes its cache there and
    not beside its source: what lets `bench compile` start from an empty cache."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "tiny_kernel.py").write_text(textwrap.dedent("""
        from cardsim.sims.core.jit import kernel

        @kernel
        def add_one(x):
            return x + 1

        assert add_one(2) == 3
    """))
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join([str(package_root()), str(source)]))
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
    done = subprocess.run([sys.executable, "-m", "cardsim", "warmup", "chess"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: unknown game chess; choose from: "
                                   "gang, thegame, cashnguns, bang")


def test_covering_keeps_configs_that_bring_a_new_value():
    from dataclasses import dataclass

    from cardsim.coldstart import covering

    @dataclass(frozen=True)
    class Config:
        players: int
        strategies: tuple[str, ...]

    configs = [Config(4, ("a", "b")), Config(4, ("b", "a")), Config(5, ("a", "a")),
               Config(4, ("c", "a")), Config(5, ("b", "c"))]
    assert covering(configs) == [configs[0], configs[2], configs[3]]
