"""Every landed game's chapter on a tiny suite: it has the required parts, and its figures and
tables equal what the stored episodes give when read back from the store."""

from __future__ import annotations

import re

import polars as pl
import pytest

from cardsim.reports.build import game_section
from cardsim.reports.content import Bullets, Plot, Report, Table
from cardsim.reports.html import render_html
from cardsim.reports.sections import section_games, section_module
from cardsim.reports.style import svg_text
from cardsim.reports.suite import Outcome, Outcomes
from cardsim.sims.core.store import load_run
from cardsim.sims.registry import get_simulator
from tests.reports.conftest import TINY, TINY_SEED


@pytest.fixture(scope="module", params=sorted(section_games()))
def chapter(request, tiny_report):
    """The game's chapter rebuilt from the session report's store (its chunks are reused)."""
    game = request.param
    module, note = section_module(game)
    if module is None:
        pytest.skip(note)
    store = tiny_report.store
    section, outcomes, key = game_section(
        game, module, get_simulator(game), profile=TINY, seed=TINY_SEED, jobs=1, store=store
    )
    assert key  # every chapter opens its recommendations with a key result
    return game, module, section, outcomes, store


def test_chapter_has_required_parts(chapter):
    game, module, section, outcomes, _ = chapter
    headings = [b.heading for b in section.blocks if isinstance(b, Bullets)]
    assert "Rules version and readings chosen" in headings
    assert "Player models compared" in headings
    assert "Reproducibility" in headings
    tables = [b for b in section.blocks if isinstance(b, Table)]
    assert any("95% interval" in t.columns and "n" in t.columns for t in tables)
    assert any(isinstance(b, Plot) for b in section.blocks)
    assert any("recommend" in t.title.lower() for t in tables)
    page = render_html(Report("t", "s", (), (section,)))
    assert section.title in page
    assert re.search(r"https?:|ftp:|//[a-z]|src=|@import", page, re.I) is None


def test_chapter_figures_equal_the_store(chapter):
    game, module, section, outcomes, store = chapter
    reread = Outcomes(game=game, seed=outcomes.seed)
    for key, outcome in outcomes.by_key.items():
        # experiments with one config share one stored run, each using its first n episodes
        # (the manifest's n is the last one reported)
        run = load_run(store / outcome.run_id)
        chunks = -(-outcome.n // run.manifest["chunk_size"])
        episodes = pl.concat([run.read_chunk(i) for i in range(chunks)]).head(outcome.n)
        assert episodes.equals(outcome.episodes), key
        reread.by_key[key] = Outcome(outcome.experiment, episodes, outcome.stop_rule, outcome.run_id)
    again = [*module.results(reread, TINY), *module.recommendations(reread, TINY)]
    first = [b for b in section.blocks if isinstance(b, (Plot, Table))]
    rebuilt = [b for b in again if isinstance(b, (Plot, Table))]
    assert [b for b in first if isinstance(b, Table)][: len([b for b in rebuilt if isinstance(b, Table)])] == [
        b for b in rebuilt if isinstance(b, Table)
    ]
    plots_first = [svg_text(b.make()) for b in first if isinstance(b, Plot)]
    plots_again = [svg_text(b.make()) for b in rebuilt if isinstance(b, Plot)]
    assert plots_first == plots_again and plots_first


def test_gang_mode_table_in_difficulty_order(tiny_report):
    gang = next(s for s in tiny_report.report.sections if s.key == "gang")
    table = next(b for b in gang.blocks if isinstance(b, Table) and b.title.startswith("Game win rate per mode"))
    model, mode = table.columns.index("model"), table.columns.index("mode")
    by_model: dict[str, list[str]] = {}
    for row in table.rows:
        by_model.setdefault(row[model], []).append(row[mode])
    assert by_model and all(modes == ["basic", "advanced", "professional", "master"] for modes in by_model.values())
