"""Deferred machine code (``cardsim.sims.core.machine_code``): an inner kernel gets none of its
own, goes to the disk cache as bitcode, and still gives the same values and exceptions (numba
builds an exception's arguments from the function's environment), compiled fresh, read back
from the cache by a new caller, and with the deferral off."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardsim.sims.core.machine_code import numba_checked

ROOT = Path(__file__).resolve().parents[2]
checked_numba_only = pytest.mark.skipif(
    not numba_checked(), reason="the deferral is off for numba versions it was not checked against")

KERNELS = '''
import numpy as np
from cardsim.sims.core.jit import kernel


@kernel
def zeros_plus(n):
    total = np.zeros(n).sum()  # a negative n raises numba's error with the shape in it
    if n == 3:
        raise ValueError("three is not allowed", n)  # arguments known only at run time
    return total + n


@kernel
def doubled(n):
    return zeros_plus(n) * 2


@kernel
def plus_one(n):
    return zeros_plus(n) + 1


@kernel
def doubled_plus_one(n):
    return doubled(n) + 1


STRIDED = (np.arange(40, dtype=np.int64) * 3)[::2]  # numba bakes its address into the code


@kernel
def strided_sum(k):
    return STRIDED[:k].sum()


@kernel
def strided_plus_one(k):
    return strided_sum(k) + 1
'''

PROBE = '''
import json, sys
import deferred_demo as demo
from cardsim.sims.core.machine_code import DeferredLibrary

entry = getattr(demo, sys.argv[1])
seen = {"value": entry(5), "errors": []}
for bad in (-1, 3):
    try:
        entry(bad)
        seen["errors"].append(None)
    except Exception as error:  # noqa: BLE001 - the test compares type and message
        seen["errors"].append([type(error).__name__, str(error)])
seen["inner_deferred"] = [isinstance(r.library, DeferredLibrary) and r.library._deferred
                          for r in demo.zeros_plus.overloads.values()]
print(json.dumps(seen))
'''


def demo_folder(tmp_path: Path) -> Path:
    """A folder holding the kernels above as module ``deferred_demo``."""
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "deferred_demo.py").write_text(textwrap.dedent(KERNELS))
    return folder


def run_python(folder: Path, cache: Path, script: str, *args: str, deferred: bool = True) -> str:
    """``python -c script args`` in a new process using ``cache`` as numba's cache; its stdout."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
               CARDSIM_DEFERRED_MACHINE_CODE="1" if deferred else "0",
               PYTHONPATH=os.pathsep.join([str(folder), str(ROOT)]))
    done = subprocess.run([sys.executable, "-c", script, *args], env=env, cwd=folder,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def probe(folder: Path, cache: Path, entry: str, deferred: bool = True) -> dict:
    return json.loads(run_python(folder, cache, PROBE, entry, deferred=deferred)
                      .strip().splitlines()[-1])


@checked_numba_only
def test_inner_kernels_get_no_machine_code_yet_give_the_same_values_and_exceptions(tmp_path):
    folder = demo_folder(tmp_path)
    errors = [["ValueError", "negative dimensions not allowed"],
              ["ValueError", "('three is not allowed', 3)"]]
    cache = tmp_path / "cache"

    fresh = probe(folder, cache, "plus_one")  # compiles everything
    assert fresh["value"] == 6 and fresh["errors"] == errors
    assert fresh["inner_deferred"] == [True]  # compiled, but no machine code of its own
    # a new caller in a new process reads zeros_plus back from the cache (bitcode, no machine
    # code) and links it
    later = probe(folder, cache, "doubled_plus_one")
    assert later["value"] == 11 and later["errors"] == errors
    assert later["inner_deferred"] == [True]
    assert list(cache.rglob("deferred_demo.zeros_plus-*.nbc"))
    again = probe(folder, cache, "plus_one")  # its caller read from the cache as a whole
    assert again["value"] == 6 and again["errors"] == errors

    # numba's own behaviour (deferral off) gives the same values and exceptions
    plain = probe(folder, tmp_path / "plain-cache", "doubled_plus_one", deferred=False)
    assert plain["value"] == 11 and plain["errors"] == errors
    assert plain["inner_deferred"] == [False]


@checked_numba_only
def test_a_kernel_holding_an_address_of_its_process_is_not_cached(tmp_path):
    """A global array numba cannot embed (strided) is compiled in as its address: numba does
    not cache such a kernel, deferred or not (read back by a new process, the address would
    point nowhere: an outside check crashed one that way)."""
    folder = demo_folder(tmp_path)
    cache = tmp_path / "cache"
    script = ("import deferred_demo as demo; "
              "print(demo.strided_plus_one(5), demo.strided_plus_one(20))")
    for _ in range(2):  # the second process would read what the first cached
        assert run_python(folder, cache, script).split() == ["61", "1141"]
    assert not list(cache.rglob("deferred_demo.strided_sum-*.nbc"))
