"""PettingZoo environments of the games (the ``cardsim[envs]`` extra: ``pip install
'cardsim[envs]'``), loaded on first use so ``import cardsim.envs`` needs no PettingZoo::

    import cardsim.envs
    env = cardsim.envs.thegame_v0(players=3)   # an AEC env with action masks

Each game adds its constructor to :data:`ENVS` (name -> module); the module defines a function
of that name returning the wrapped AEC environment.
"""

from __future__ import annotations

import importlib
from typing import Any

from cardsim.errors import UserError

#: Environment constructors by name, and the module that defines each.
ENVS: dict[str, str] = {
    "thegame_v0": "cardsim.envs.thegame",
    "gang_v0": "cardsim.envs.gang",
    "cashnguns_v0": "cardsim.envs.cashnguns",
    "bang_v0": "cardsim.envs.bang",
}
#: Parallel environments (every agent acts at once), where the game's decisions are
#: simultaneous: The Gang's chip rounds, Cash'n Guns' aims and cards, and its lying down. The
#: Game and Bang! are played in turns.
PARALLEL_ENVS: dict[str, str] = {
    "gang_parallel_v0": "cardsim.envs.gang",
    "cashnguns_parallel_v0": "cardsim.envs.cashnguns",
}
__all__ = [*ENVS, *PARALLEL_ENVS, "ENVS", "PARALLEL_ENVS", "require_pettingzoo"]


def require_pettingzoo() -> None:
    """Refuse with one line when PettingZoo is not installed."""
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        raise UserError("cardsim.envs needs PettingZoo: pip install 'cardsim[envs]'") from None


def __getattr__(name: str) -> Any:
    """Load an environment constructor on first use."""
    if name in ENVS or name in PARALLEL_ENVS:
        require_pettingzoo()
        return getattr(importlib.import_module({**ENVS, **PARALLEL_ENVS}[name]), name)
    raise AttributeError(f"module 'cardsim.envs' has no attribute {name!r}")
