"""Name -> simulator, imported lazily so one game's import cost never slows another."""

from __future__ import annotations

import importlib

from cardsim.errors import UserError
from cardsim.sims.core.simulator import Simulator

GAMES: dict[str, str] = {
    "gang": "cardsim.sims.gang.simulator",
    "thegame": "cardsim.sims.thegame.simulator",
    "cashnguns": "cardsim.sims.cashnguns.simulator",
    "bang": "cardsim.sims.bang.simulator",
}


def get_simulator(name: str) -> Simulator:
    """The declared simulator of game ``name``; a clear error for an unknown game."""
    if name not in GAMES:
        raise UserError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name]).SIMULATOR
