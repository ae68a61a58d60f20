"""The registry of games: name -> :class:`~cardsim.sims.core.game.Game` declaration.

:data:`BUILTIN` is the one list of the built-in games, in the order the command line and the
report show them. Third-party games join through the ``cardsim.games`` entry-point group (each
entry point names a :class:`Game`, e.g. ``war = "cardsim_war:GAME"`` in the package's
``pyproject.toml``) and come after them; :func:`register` adds one from code (tests, notebooks).
Declarations are light; a game's simulator and kernels are imported only when asked for.
"""

from __future__ import annotations

import warnings
from importlib.metadata import entry_points
from typing import TYPE_CHECKING

from cardsim.errors import UserError
from cardsim.sims.core.game import Game, resolve

if TYPE_CHECKING:
    from cardsim.sims.core.simulator import Simulator

ENTRY_POINT_GROUP = "cardsim.games"
BUILTIN: tuple[str, ...] = (
    "cardsim.sims.gang:GAME",
    "cardsim.sims.thegame:GAME",
    "cardsim.sims.cashnguns:GAME",
    "cardsim.sims.bang:GAME",
)

_added: dict[str, Game] = {}
_found: dict[str, Game] | None = None


def _discovered() -> dict[str, Game]:
    """Built-in games, then those of installed packages' entry points (read once)."""
    global _found
    if _found is None:
        found = {game.name: game for game in map(resolve, BUILTIN)}
        for point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                game = point.load()
            except Exception as exc:  # noqa: BLE001 - a broken plug-in must not break cardsim
                warnings.warn(f"cardsim: game plug-in {point.name!r} failed to load: {exc}", stacklevel=2)
                continue
            if not isinstance(game, Game) or game.name in found:
                warnings.warn(
                    f"cardsim: game plug-in {point.name!r} skipped (not a Game, or its name is taken)", stacklevel=2
                )
                continue
            found[game.name] = game
        _found = found
    return _found


def games() -> dict[str, Game]:
    """Every registered game by name, in order: built-in, installed plug-ins, registered."""
    return {**_discovered(), **_added}


def names() -> list[str]:
    """The registered games' names, in order."""
    return list(games())


def get_game(name: str) -> Game:
    """The declaration of game ``name``; a clear error for an unknown game."""
    registered = games()
    if name not in registered:
        raise UserError(f"unknown game {name!r}; choose one of: {', '.join(registered)}")
    return registered[name]


def get_simulator(name: str) -> Simulator:
    """The declared simulator of game ``name``; a clear error for an unknown game."""
    return get_game(name).load_simulator()


def register(game: Game) -> Game:
    """Add (or replace) a game from code, after every installed one; returns it."""
    if not isinstance(game, Game):
        raise TypeError(f"register() takes a Game declaration, got {type(game).__name__}")
    _added[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game added by :func:`register` (unknown names are ignored)."""
    _added.pop(name, None)


def refresh() -> None:
    """Read the installed packages' entry points again (after installing a plug-in)."""
    global _found
    _found = None
