"""cardsim: Monte Carlo strategy analysis for tabletop card games.

The Python API (see :mod:`cardsim.api`), imported on first use so ``import cardsim`` stays
fast::

    import cardsim
    r = cardsim.gang.heist(players=4, model="history", n=2000, jobs=1)
    r.table            # the summary the command line prints (polars)
    r.to_pandas()      # with the cardsim[pandas] extra

Names: one per registered game (``gang``: heist, game, cards; ``thegame``: run; ``cashnguns``:
payoff; ``bang``: run; a plug-in game's own), ``tune`` (gang, thegame), ``report``, ``Result``
and ``UserError``.
"""

from __future__ import annotations

from typing import Any

from cardsim.errors import UserError as UserError  # re-exported

__version__ = "0.1.0"

_API_NAMES = ("tune", "report", "Result")  # besides one name per registered game


def __getattr__(name: str) -> Any:
    """Load the API on first use of one of its names: a registered game's declared API
    object (``cardsim.gang``), or one of :data:`_API_NAMES`."""
    if name in _API_NAMES:
        from cardsim import api

        return getattr(api, name)
    if name == "__all__":  # read by `from cardsim import *`: every game's name too
        return ["UserError", "__version__", *_game_apis(), *_API_NAMES]
    if not name.startswith("_"):
        from cardsim.sims.registry import games

        game = games().get(name)
        if game is not None and game.api is not None:
            from cardsim.sims.core.game import resolve

            return resolve(game.api)
    raise AttributeError(f"module 'cardsim' has no attribute {name!r}")


def _game_apis() -> list[str]:
    """The registered games that declare an API object, in the registry's order."""
    from cardsim.sims.registry import games

    return [name for name, game in games().items() if game.api is not None]


def __dir__() -> list[str]:
    """The module's names with the API's and every registered game's (loaded on first use),
    for completion in notebooks."""
    return sorted({*globals(), *_game_apis(), *_API_NAMES})
