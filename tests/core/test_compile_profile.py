"""The compile profile of ``benchmarks/compile_profile.py``: numba's compile events per kernel."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest


def _benchmark_module():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "compile_profile.py"
    spec = importlib.util.spec_from_file_location("benchmark_compile_profile", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


benchmark = _benchmark_module()
CompileEvent, kernel_costs = benchmark.CompileEvent, benchmark.kernel_costs


def test_self_time_leaves_out_the_compilations_nested_inside():
    """A caller compiled for 10 s that compiled two callees (3 s and 2 s, one of which compiled
    a leaf for 1 s inside it) spent 5 s on itself; the second signature of the leaf adds up."""
    events = [
        CompileEvent("root", "a", 0.0, 10.0, 0),
        CompileEvent("mid", "a", 1.0, 4.0, 1),
        CompileEvent("leaf", "a", 2.0, 3.0, 2),
        CompileEvent("other", "a", 5.0, 7.0, 1),
        CompileEvent("leaf", "b", 11.0, 11.5, 0),
    ]
    rows = {row["kernel"]: row for row in kernel_costs(events)}
    assert rows["root"]["self_s"] == pytest.approx(5.0)
    assert rows["root"]["inclusive_s"] == pytest.approx(10.0)
    assert rows["mid"]["self_s"] == pytest.approx(2.0)
    assert rows["other"]["self_s"] == pytest.approx(2.0)
    assert rows["leaf"]["signatures"] == 2
    assert rows["leaf"]["self_s"] == pytest.approx(1.5)
    assert [row["kernel"] for row in kernel_costs(events)][0] == "root"


def test_compilations_nest_only_within_their_own_process():
    """Two worker processes compiling at the same time: neither's compile is counted as
    nested in the other's, and the CPU seconds are kept apart from the wall seconds."""
    events = [
        CompileEvent("a", "x", 0.0, 10.0, 0, pid=1, cpu_start=0.0, cpu_end=4.0),
        CompileEvent("b", "x", 1.0, 3.0, 0, pid=2, cpu_start=0.0, cpu_end=1.0),
        CompileEvent("c", "x", 2.0, 4.0, 1, pid=1, cpu_start=1.0, cpu_end=2.0),
    ]
    rows = {row["kernel"]: row for row in kernel_costs(events)}
    assert rows["a"]["self_s"] == pytest.approx(8.0)
    assert rows["a"]["self_cpu_s"] == pytest.approx(3.0)
    assert rows["b"]["self_s"] == pytest.approx(2.0)
    assert rows["c"]["inclusive_cpu_s"] == pytest.approx(1.0)


def test_benchmark_records_the_compiles_of_every_process(tmp_path):
    """benchmarks/compile_profile.py: the recorder runs in the command's process and
    in a process it starts; the summary counts both, with their kernels."""
    compile_here = "from numba import njit\n@njit(cache=False)\ndef {name}(x):\n    return x + 1\n{name}(1)\n"
    script = (
        compile_here.format(name="in_parent")
        + "import subprocess, sys\n"
        + f"subprocess.run([sys.executable, '-c', {compile_here.format(name='in_child')!r}],"
        " check=True)\n"
    )
    cache = tmp_path / "numba"
    cache.mkdir()
    entries, began, cpu, status = benchmark.run_profiled([sys.executable, "-c", script], cache, tmp_path)
    assert status == 0 and cpu > 0
    events = benchmark.compile_events(entries)
    names = {e.name.rsplit(".", 1)[-1]: e for e in events}
    assert {"in_parent", "in_child"} <= set(names)
    assert names["in_parent"].pid != names["in_child"].pid
    assert all(e.cpu_end >= e.cpu_start for e in events)
    exited = {e["pid"] for e in entries if e["kind"] == "exit"}
    assert {names["in_parent"].pid, names["in_child"].pid} <= exited
    text = benchmark.summary(entries, 5, began)
    assert f"pid {names['in_child'].pid}:" in text and "in_parent" in text
