"""One section builder per game; a game joins the report by adding its module here.

A section builder module defines:

- ``GAME`` (the registry name) and ``TITLE`` (the chapter title);
- ``QUESTION``: one paragraph, the question the chapter answers;
- ``plan(profile) -> list[Experiment]``: the runs the chapter needs (see
  :meth:`cardsim.reports.suite.Profile.experiment`);
- ``models(profile) -> list[tuple[str, str]]``: the player models/strategies compared, with one line each;
- ``results(outcomes, profile) -> tuple[Block, ...]``: headline tables (n and 95% intervals) and
  plots;
- ``recommendations(outcomes, profile) -> tuple[Block, ...]``: what a group should play,
  opening with a one-paragraph key result that the first page quotes;
- ``rerun(profile) -> str``: the ``cardsim`` command that re-runs one headline experiment by hand.

The framework (:mod:`cardsim.reports.build`) adds the rules version and readings from
``seeds/``, and the reproducibility box. A game whose simulator or builder has not landed is
skipped with a note on the first page.
"""

from __future__ import annotations

import importlib
from types import ModuleType

SECTION_MODULES: dict[str, str] = {
    "gang": "cardsim.reports.sections.gang",
    "thegame": "cardsim.reports.sections.thegame",
    "cashnguns": "cardsim.reports.sections.cashnguns",
    "bang": "cardsim.reports.sections.bang",
}
GAME_TITLES: dict[str, str] = {
    "gang": "The Gang",
    "thegame": "The Game",
    "cashnguns": "Cash'n Guns",
    "bang": "Bang!",
}


def _import_if_present(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None  # the module itself (or its package) is missing: not landed
        raise


def section_module(game: str) -> tuple[ModuleType | None, str]:
    """The section builder of ``game`` if the game has landed, else None and the reason why."""
    from cardsim.sims.registry import GAMES

    title = GAME_TITLES[game]
    if _import_if_present(GAMES[game]) is None:
        return None, f"{title}: its simulator has not landed yet, so it is not in this report."
    try:
        module = _import_if_present(SECTION_MODULES[game])
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("cardsim."):
            raise
        return None, f"{title}: skipped, its report section needs {exc.name}, which has not landed yet."
    if module is None:
        return None, f"{title}: the simulator exists but its report section is not written yet."
    return module, ""
