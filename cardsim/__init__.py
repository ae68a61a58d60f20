"""cardsim: Monte Carlo strategy analysis for tabletop card games.

The Python API (see :mod:`cardsim.api`), imported on first use so ``import cardsim`` stays
fast::

    import cardsim
    r = cardsim.gang.heist(players=4, model="history", n=2000, jobs=1)
    r.table            # the summary the command line prints (polars)
    r.to_pandas()      # with the cardsim[pandas] extra

Names: ``gang`` (heist, game, cards), ``thegame`` (run), ``cashnguns`` (payoff), ``bang`` (run),
``tune`` (gang, thegame), ``report``, ``Result`` and ``UserError``.
"""

from __future__ import annotations

from typing import Any

from cardsim.errors import UserError

__version__ = "0.1.0"

_API_NAMES = ("gang", "thegame", "cashnguns", "bang", "tune", "report", "Result")
__all__ = ["UserError", "__version__", *_API_NAMES]


def __dir__() -> list[str]:
    """The module's names with the API's (loaded on first use), for completion in notebooks."""
    return sorted({*globals(), *_API_NAMES})


def __getattr__(name: str) -> Any:
    """Load the API on first use of one of its names."""
    if name in _API_NAMES:
        from cardsim import api

        return getattr(api, name)
    raise AttributeError(f"module 'cardsim' has no attribute {name!r}")
