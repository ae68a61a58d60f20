"""The compile profile of `cardsim bench compile --profile`: numba's compile events per kernel."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardsim.sims.core.compile_profile import CompileEvent, kernel_costs, profile_command


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


def test_profile_of_a_command_that_compiles_nothing():
    profile = profile_command(("version",))
    assert profile["compilations"] == 0 and profile["kernels"] == []
    assert profile["command"] == "cardsim version"


def test_profile_is_refused_for_a_speed_benchmark_in_one_line():
    done = subprocess.run([sys.executable, "-m", "cardsim", "bench", "poker", "--profile"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().startswith("error: --profile goes with the compile benchmark")
