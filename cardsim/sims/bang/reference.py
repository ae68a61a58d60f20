"""The same rules kernel interpreted by Python: the benchmark's reference and a cross-check.

:func:`interpreted_engine` loads ``engine.py`` a second time as a separate module with numba's
``kernel`` decorator replaced by the identity (the policies it calls likewise), so every rule
runs as plain Python. Same source, same Generator calls: the interpreted and compiled kernels
play identical games from the same seed (checked by the tests), and the speed ratio between them
is what ``cardsim bench bang`` reports.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from types import ModuleType
from unittest import mock

import cardsim.sims.bang as bang_package
from cardsim.sims.bang import engine, policies
from cardsim.sims.core import jit


def _identity_kernel(*args, **kwargs):
    """Stand-in for :func:`cardsim.sims.core.jit.kernel`: return the function unchanged (with
    or without options)."""
    if len(args) == 1 and callable(args[0]):
        return args[0]
    return lambda function: function


def _load_plain(name: str, path: str) -> ModuleType:
    """Execute the source at ``path`` as a new module ``name`` (kernels must be patched)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@functools.cache
def interpreted_engine() -> ModuleType:
    """``cardsim.sims.bang.engine`` loaded again with every kernel, its policies' included,
    left as plain Python."""
    with mock.patch.object(jit, "kernel", _identity_kernel):
        plain_policies = _load_plain("cardsim.sims.bang._policies_interpreted", policies.__file__)
        with mock.patch.dict(sys.modules, {"cardsim.sims.bang.policies": plain_policies}), \
                mock.patch.object(bang_package, "policies", plain_policies):
            return _load_plain("cardsim.sims.bang._engine_interpreted", engine.__file__)
