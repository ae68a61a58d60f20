"""The Python API: the command line's analyses as functions that return tables.

Each function has the names and defaults of its command (``cardsim gang heist`` is
:func:`gang.heist <Gang.heist>`), runs through the same code (the commands are thin wrappers
over these functions) and returns a :class:`Result`. Bad input raises
:class:`cardsim.UserError` with the command's one-line message, before anything runs.

Two differences from the command line, both for notebooks:

- ``store=None`` (the default) writes nothing; give a folder (``store="results"``) to keep and
  reuse runs as the command line does.
- lists are Python lists or the command line's strings: ``players=[3, 4]`` or ``"3-4"``.

Every function that plays episodes in parallel takes ``backend="joblib"|"dask"`` and
``scheduler="tcp://host:port"`` (a dask cluster; the same numbers as on joblib, see
``docs/cluster.md``).

>>> import cardsim
>>> r = cardsim.gang.heist(players=4, model="history", n=2000, jobs=1, quiet=True)
>>> r.table.select("players", "model", "n").rows()
[(4, 'history', 2000)]
>>> 0 < r.table["success_lo"][0] < r.table["success"][0] < r.table["success_hi"][0] < 1
True
"""

from __future__ import annotations

from collections.abc import Sequence

from cardsim.api.bang import Bang
from cardsim.api.cashnguns import CashNGuns, discover_document, evaluation_table, strategy_specs
from cardsim.api.common import Names, Players, Result, Runs, list_valid_names, run_options, with_keyword_errors
from cardsim.api.gang import GANG_MODES, Gang
from cardsim.api.report import report
from cardsim.api.thegame import TheGame
from cardsim.api.tune import Tune
from cardsim.errors import UserError

__all__ = [
    "Bang",
    "CashNGuns",
    "Gang",
    "Names",
    "Players",
    "Result",
    "TheGame",
    "Tune",
    "UserError",
    "Runs",
    "bang",
    "cashnguns",
    "discover_document",
    "evaluation_table",
    "gang",
    "report",
    "run_options",
    "strategy_specs",
    "thegame",
    "tune",
]


def _valid_names() -> dict[str, dict[str, Sequence[str]]]:
    """The names each API function accepts, per keyword, read from the games' own tables (so
    the docstrings list what the code accepts)."""
    from cardsim.analysis.tournament import DESIGNS
    from cardsim.sims.bang.cards import BOT_NAMES, ROLE_NAMES
    from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES
    from cardsim.sims.gang.cards import CHALLENGES, SPECIALISTS
    from cardsim.sims.gang.models import MODEL_IDS
    from cardsim.sims.thegame.config import STRATEGY_NAMES

    gang_cards: dict[str, Sequence[str]] = {
        "model": [*MODEL_IDS, "all"],
        "challenge": list(CHALLENGES),
        "specialist": list(SPECIALISTS),
    }
    return {
        "Gang.heist": gang_cards,
        "Gang.game": {"mode": [*GANG_MODES, "pro", "all"], **gang_cards},
        "Gang.cards": {"model": gang_cards["model"], "kind": ["challenges", "specialists", "all"]},
        "TheGame.run": {"strategy": [*STRATEGY_NAMES, "all"]},
        "Bang.run": {
            "bots (one for every seat, or role=bot pairs)": list(BOT_NAMES),
            "roles (in role=bot pairs)": list(ROLE_NAMES),
        },
        "Bang.tournament": {"entrants": [name for name in BOT_NAMES if name != "search"]},
        "CashNGuns.payoff": {
            "strategy (NAME or NAME:key=value,...)": list(NAMED_STRATEGIES),
            "metric": ["win", "score"],
        },
        "CashNGuns.tournament": {
            "entrants (also NAME:key=value,..., FILE.py:NAME, mix, library)": list(NAMED_STRATEGIES),
            "design": list(DESIGNS),
            "metric": ["win", "score"],
        },
        "Tune.gang": {"model": list(MODEL_IDS)},
        "Tune.thegame": {"strategy": list(STRATEGY_NAMES)},
    }


_VALID_NAMES = _valid_names()
for _owner, _names in (
    (Gang, ("heist", "game", "cards")),
    (TheGame, ("run",)),
    (Bang, ("run", "tournament")),
    (CashNGuns, ("payoff", "tournament")),
    (Tune, ("gang", "thegame")),
):
    for _name in _names:
        _function = _owner.__dict__[_name].__func__
        list_valid_names(_function, _VALID_NAMES[f"{_owner.__name__}.{_name}"])
        setattr(_owner, _name, staticmethod(with_keyword_errors(_function)))
report = with_keyword_errors(report)

gang = Gang()
thegame = TheGame()
bang = Bang()
cashnguns = CashNGuns()
tune = Tune()
