"""The report's Higher or Lower chapter (see :mod:`cardsim.reports.sections`)."""

from __future__ import annotations

from cardsim.reports.content import Block, Paragraph
from cardsim.reports.sections.common import proportion_block
from cardsim.reports.suite import Experiment, Outcomes, Profile
from cardsim_hilo.simulator import STRATEGIES

GAME = "hilo"
TITLE = "Higher or Lower"
QUESTION = "How often does each way of calling make five right calls in a row?"


def plan(profile: Profile) -> list[Experiment]:
    return [profile.experiment(s, {"strategy": s}, {"strategy": s}, scale=4.0) for s in STRATEGIES]


def models(profile: Profile) -> list[tuple[str, str]]:
    return list(STRATEGIES.items())


def results(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    return (proportion_block(outcomes.combined(), ["strategy"], "won", title="Wins by strategy"),)


def recommendations(outcomes: Outcomes, profile: Profile) -> tuple[Block, ...]:
    return (Paragraph("Call from the shown card (higher on an 8 or below): it beats guessing by "
                      "far; counting the cards seen adds little over five calls."),)


def rerun(profile: Profile) -> str:
    return "cardsim hilo run --strategy all --n 20000"
