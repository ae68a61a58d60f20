"""``kernel``: constants specialise only the arguments named in ``literals``."""

from __future__ import annotations

import pytest
from numba.core import types

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
    assert set(pick.overloads) == {(types.literal(True), types.int64),
                                   (types.literal(False), types.int64)}


def test_an_unknown_literal_name_is_refused():
    def add(x):
        return x

    with pytest.raises(TypeError, match="no argument"):
        kernel(literals=("nope",))(add)
