"""``kernel``: constants specialise only the arguments named in ``literals``; ``refcounts=False``
compiles without reference counting."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core import types
from numba.core.errors import TypingError

from cardsim.sims.core.jit import kernel


@kernel(literals=("flag",))
def pick(flag, value):
    if flag:
        return value + 1
    return value - 1


@kernel
def callers(value):
    return pick(True, 3) + pick(False, 4) + pick(True, value)


def test_only_named_arguments_get_a_copy_per_constant():
    assert callers(7) == 4 + 3 + 8
    for args in [(True, 3), (False, 4), (True, 5)]:  # how a compiled caller types pick(...)
        pick.get_call_template(tuple(types.literal(a) for a in args), {})
    pick.get_call_template((types.literal(True), types.int64), {})
    # flag True and flag False: two copies; the constants 3, 4 and 5 of `value` share them.
    assert set(pick.overloads) == {(types.literal(True), types.int64), (types.literal(False), types.int64)}


def test_an_unknown_literal_name_is_refused():
    def add(x):
        return x

    with pytest.raises(TypeError, match="no argument"):
        kernel(literals=("nope",))(add)


def test_cache_dropped_when_a_compiled_in_source_changes(tmp_path, monkeypatch):
    """numba checks only the file holding a kernel; an edit to a module it compiles in (same
    package) must delete the package's cache files, and an unchanged package keeps them."""
    from cardsim.sims.core import jit

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(jit, "_checked_caches", set())
    package = tmp_path / "game"
    package.mkdir()
    engine, beliefs = package / "engine.py", package / "beliefs.py"
    engine.write_text("x = 1\n")
    beliefs.write_text("y = 1\n")
    cache = package / "__pycache__"
    jit.drop_stale_cache(engine)
    cached = [cache / "engine.play-10.py311.nbi", cache / "engine.play-10.py311.1.nbc"]
    for path in cached:
        path.write_bytes(b"")
    jit._checked_caches.clear()
    jit.drop_stale_cache(engine)
    assert all(path.exists() for path in cached)
    beliefs.write_text("y = 2\n")
    jit._checked_caches.clear()
    jit.drop_stale_cache(engine)
    assert not any(path.exists() for path in cached)
    assert (cache / "cardsim-sources.stamp").exists()


def test_the_garbage_collector_pauses_while_numba_compiles_and_resumes_after():
    import gc

    from numba import njit
    from numba.core import event

    seen: list[bool] = []

    class Watch(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            seen.append(gc.isenabled())

        def on_end(self, ev: event.Event) -> None:
            pass

    def inner(x):
        return x + 1

    def outer(x):
        return inner_compiled(x) * 2

    inner_compiled = njit(inner)
    outer_compiled = njit(outer)
    assert gc.isenabled()
    with event.install_listener("numba:compile", Watch()):
        assert outer_compiled(3) == 8  # compiles outer, and inner inside it
    assert seen == [False, False]  # paused through the outer and the nested compilation
    assert gc.isenabled()
    gc.disable()
    try:
        assert njit(inner)(1) == 2
        assert not gc.isenabled()  # a collector the caller had paused stays paused
    finally:
        gc.enable()


@kernel(refcounts=False)
def count_up(values, start):
    for i in range(values.shape[0]):
        values[i] = start + i


@kernel
def counted(n):
    values = np.zeros(n, np.int64)
    count_up(values[1:], 10)  # a view of an array the counting caller owns
    return values


def test_a_kernel_without_refcounts_writes_into_its_callers_arrays():
    assert counted(4).tolist() == [0, 10, 11, 12]
    assert count_up.targetoptions["_nrt"] is False and "_nrt" not in counted.targetoptions


def test_a_kernel_without_refcounts_cannot_allocate():
    @kernel(refcounts=False)
    def allocates(n):
        return np.zeros(n).sum()

    @kernel
    def caller(n):
        return allocates(n)

    with pytest.raises(TypingError, match="zeros"):
        caller(3)


def test_kernels_fall_back_to_counting_ones_with_one_warning_where_numba_refuses(monkeypatch):
    """A numba without one of the internals (here: the dispatcher class swap fails for want of
    an attribute) gets ordinary counting kernels, the same results and one warning."""
    from cardsim.sims.core import jit

    def refused(*args, **kwargs):
        raise AttributeError("'CPUDispatcher' object has no attribute 'get_call_template'")

    monkeypatch.setattr(jit, "_private_options", [])
    monkeypatch.setattr(jit, "_private_kernel", refused)

    def add_one_everywhere(values, start):
        for i in range(values.shape[0]):
            values[i] = start + i
        return values

    with pytest.warns(RuntimeWarning, match="refuses the internals") as caught:
        first = kernel(refcounts=False)(add_one_everywhere)
        second = kernel(inline="always")(add_one_everywhere)
    assert len(caught) == 1
    for compiled in (first, second):
        assert not isinstance(compiled, jit.InnerKernel) and "_nrt" not in compiled.targetoptions
        assert compiled(np.zeros(3, np.int64), 5).tolist() == [5, 6, 7]
        assert jit.python_entry(compiled) is compiled


REFUSING_NUMBA = """
import json, sys, warnings
from numba.core import cpu
for klass in cpu.CPUTargetOptions.__mro__:  # a numba that no longer knows the option
    if {option!r} in vars(klass):
        delattr(klass, {option!r})
import cardsim
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    table = {call}
print(json.dumps({{"warnings": [str(w.message) for w in caught if w.category is RuntimeWarning],
                  "rows": table.to_dicts()}}, default=str))
"""

GAME_CALLS = {
    "cashnguns": "cardsim.cashnguns.run(players=[4], n=60, seed=3, jobs=1, quiet=True).table",
    "thegame": "cardsim.thegame.run(players=[2], strategy='greedy', n=60, seed=3, jobs=1, quiet=True).tables['summary']",
    "bang": "cardsim.bang.run(players=[4], n=60, seed=3, jobs=1, quiet=True).table",
    "gang": "cardsim.gang.heist(players=4, model='history', n=300, seed=3, jobs=1, quiet=True).table",
}


@pytest.mark.parametrize(
    ("game", "option"),
    [
        ("cashnguns", "_nrt"),
        pytest.param("cashnguns", "no_cfunc_wrapper", marks=pytest.mark.slow),
        pytest.param("thegame", "_nrt", marks=pytest.mark.slow),
        pytest.param("bang", "_nrt", marks=pytest.mark.slow),
        pytest.param("gang", "no_cfunc_wrapper", marks=pytest.mark.slow),
    ],
)
def test_a_game_plays_the_same_on_a_numba_that_refuses_a_private_option(game, option, tmp_path):
    """A fresh install (empty numba cache) on a numba release that dropped one of the options
    ``kernel`` passes (numba raises ``KeyError`` at the first compile): one warning, and the
    game's numbers equal those of the kernels compiled with the option."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import cardsim

    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
        "NUMBA_CACHE_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-c", REFUSING_NUMBA.format(option=option, call=GAME_CALLS[game])],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    fallback = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(fallback["warnings"]) == 1 and option in fallback["warnings"][0]
    assert "refuses the internals" in fallback["warnings"][0]
    expected = json.loads(json.dumps(eval(GAME_CALLS[game], {"cardsim": cardsim}).to_dicts(), default=str))
    assert fallback["rows"] == expected
