"""The same rules kernel interpreted by Python: the benchmark's reference and a cross-check.

:func:`interpreted_engine` loads ``engine.py`` a second time as a separate module with numba's
``kernel`` decorator replaced by the identity, so every rule runs as plain Python. Same source, same
Generator calls: the interpreted and compiled kernels play identical games from the same seed
(checked by the tests), and the speed ratio between them is what ``cardsim bench bang`` reports.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from types import ModuleType
from unittest import mock

from cardsim.sims.bang import engine
from cardsim.sims.core import jit


def _identity_kernel(*args, **kwargs):
    """Stand-in for :func:`cardsim.sims.core.jit.kernel`: return the function unchanged (with
    or without options)."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda function: function


@functools.cache
def interpreted_engine() -> ModuleType:
    """``cardsim.sims.bang.engine`` loaded again with every kernel left as plain Python."""
    name = "cardsim.sims.bang._engine_interpreted"
    spec = importlib.util.spec_from_file_location(name, engine.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with mock.patch.object(jit, "kernel", _identity_kernel):
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module
