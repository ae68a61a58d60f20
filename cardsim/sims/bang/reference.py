"""The same rules kernel interpreted by Python: the benchmark's reference and a cross-check.

:func:`interpreted_engine` loads ``engine.py`` a second time as a separate module with numba's
``kernel`` decorator replaced by the identity (the policies and the rule modules it imports
likewise), so every rule runs as plain Python. Same source, same Generator calls: the
interpreted and compiled kernels play identical games from the same seed (checked by the
tests), and the speed ratio between them is what ``cardsim bench bang`` reports.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from types import ModuleType
from unittest import mock

from cardsim.sims.bang import characters, decisions, engine, policies, rules, search, state
from cardsim.sims.core import jit

#: the kernel modules in import order (each imports only those before it)
KERNEL_MODULES = (policies, state, decisions, characters, rules, search, engine)


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
    """``cardsim.sims.bang.engine`` loaded again with every kernel, its policies' and rule
    modules' included, left as plain Python."""
    plain: dict[str, ModuleType] = {}
    with mock.patch.object(jit, "kernel", _identity_kernel), mock.patch.dict(sys.modules):
        for module in KERNEL_MODULES:
            short = module.__name__.rsplit(".", 1)[1]
            assert module.__file__ is not None
            copy = _load_plain(f"cardsim.sims.bang._{short}_interpreted", module.__file__)
            plain[module.__name__] = copy
            sys.modules[module.__name__] = copy
    return plain[engine.__name__]
