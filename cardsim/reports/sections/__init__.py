"""One section builder per game; a game joins the report by naming its module in its
declaration (``report_section`` of :class:`cardsim.sims.core.game.Game`).

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


def section_games() -> list[str]:
    """The registered games that declare a report section, in the registry's order."""
    from cardsim.sims.registry import games

    return [name for name, game in games().items() if game.report_section]


def game_title(game: str) -> str:
    """A game's chapter title (its name when the game is not registered)."""
    from cardsim.sims.registry import games

    declared = games().get(game)
    return declared.title if declared is not None else game


def _import_if_present(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None  # the module itself (or its package) is missing: not landed
        raise


def section_module(game: str) -> tuple[ModuleType | None, str]:
    """The section builder of ``game`` if the game has landed, else None and the reason why."""
    from cardsim.sims.registry import get_game

    declared = get_game(game)
    title = declared.title
    if _import_if_present(declared.simulator_module) is None:
        return None, f"{title}: its simulator has not landed yet, so it is not in this report."
    if declared.report_section is None:
        return None, f"{title}: the simulator exists but its report section is not written yet."
    try:
        module = _import_if_present(declared.report_section)
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("cardsim."):
            raise
        return None, f"{title}: skipped, its report section needs {exc.name}, which has not landed yet."
    if module is None:
        return None, f"{title}: the simulator exists but its report section is not written yet."
    return module, ""
