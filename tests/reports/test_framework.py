"""The report framework on a toy chapter: files written, sections, no URL, page count, determinism,
and the figures/tables in the report equal what the stored episodes give."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from cardsim.reports import html as html_mod
from cardsim.reports.build import build_report, write_report
from cardsim.reports.pdf import layout
from cardsim.reports.style import svg_text
from cardsim.reports.suite import Profile
from cardsim.sims.core.coin import SIMULATOR as COIN
from cardsim.sims.core.game import Game
from cardsim.sims.registry import register, unregister
from cardsim.stats import wilson_interval
from tests.reports import toy_section

TINY = Profile("quick", precision=0.2, max_n=300, tune_precision=0.2, tune_max_n=100)
PLUGINS = {"coin": (toy_section, COIN)}


def pdf_page_count(data: bytes) -> int:
    """Pages in a PDF, counted from its page objects (no PDF library needed)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", data))


def assert_pdf_structure(data: bytes) -> None:
    """What a reader needs to open the file: header, trailer, and a cross-reference table
    where ``startxref`` says it is, whose entries point at the objects they name."""
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    offset = int(re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", data).group(1))
    assert data[offset : offset + 4] == b"xref"
    header = re.match(rb"xref\s+(\d+)\s+(\d+)\s+", data[offset:])
    first, count = int(header.group(1)), int(header.group(2))
    entries = re.findall(rb"(\d{10}) (\d{5}) ([nf])", data[offset + header.end() : offset + header.end() + 20 * count])
    assert len(entries) == count
    for number, (where, _, kind) in enumerate(entries, start=first):
        if kind == b"n":
            assert data[int(where) :].startswith(f"{number} 0 obj".encode())


@pytest.fixture(scope="module", autouse=True)
def absent_game():
    """A registered game whose simulator module does not exist (a game not landed yet)."""
    register(
        Game(
            name="absent",
            title="Absent Game",
            simulator="cardsim.sims.absent.simulator:SIMULATOR",
            help="Not landed.",
            example="cardsim absent",
            report_section="cardsim.reports.sections.absent",
        )
    )
    yield
    unregister("absent")


@pytest.fixture(scope="module")
def written(tmp_path_factory, absent_game):
    base = tmp_path_factory.mktemp("report")
    result = write_report(
        ["coin", "absent"], profile=TINY, seed=7, jobs=1, store=base / "store", out_dir=base / "out", plugins=PLUGINS
    )
    return base, result


def test_both_files_written(written):
    _, result = written
    assert result.html.name == "cardsim-report.html" and result.html.stat().st_size > 1000
    assert result.pdf.name == "cardsim-report.pdf" and result.pdf.read_bytes().startswith(b"%PDF")


def test_html_has_every_section_and_no_url(written):
    _, result = written
    text = result.html.read_text()
    for heading in (
        "Coin (toy chapter)",
        "Rules version and readings chosen",
        "Player models compared",
        "Heads by bias",
        "Ladder",
        "Reproducibility",
        "Runs behind this chapter",
        "QUICK REPORT",
    ):
        assert heading in text, heading
    assert re.search(r"https?:|ftp:|//[a-z]|src=|@import", text, re.I) is None
    assert 'id="coin"' in text and 'href="#coin"' in text


def test_skipped_game_is_noted(written):
    _, result = written
    assert result.games == ("coin",)
    assert result.skipped == ("Absent Game: its simulator has not landed yet, so it is not in this report.",)
    assert result.skipped[0] in result.html.read_text()


def test_pdf_page_count_matches_layout(written):
    base, result = written
    report, _ = build_report(["coin"], profile=TINY, seed=7, jobs=1, store=base / "store", plugins=PLUGINS)
    pages = layout(report)
    data = result.pdf.read_bytes()
    assert_pdf_structure(data)
    assert pdf_page_count(data) == result.pdf_pages == len(pages)
    # title page, contents page, and the chapter
    assert len(pages) >= 3
    assert b"/CreationDate" not in data


def test_same_store_same_seed_byte_identical(written, tmp_path):
    base, result = written
    again = write_report(
        ["coin", "absent"], profile=TINY, seed=7, jobs=1, store=base / "store", out_dir=tmp_path, plugins=PLUGINS
    )
    assert again.html.read_bytes() == result.html.read_bytes()
    assert again.pdf.read_bytes() == result.pdf.read_bytes()


def stored_episodes(store: Path) -> pl.DataFrame:
    """Every stored coin run read straight from its parquet chunks, labelled with its bias."""
    import json

    frames = []
    for run_dir in sorted(store.iterdir()):
        manifest = json.loads((run_dir / "manifest.json").read_text())
        chunks = [pl.read_parquet(p) for p in sorted((run_dir / "chunks").glob("*.parquet"))]
        episodes = pl.concat(chunks).head(manifest["n"])
        frames.append(episodes.select(pl.lit(manifest["config"]["p_heads"]).alias("bias"), pl.all()))
    return pl.concat(frames)


def test_figures_and_numbers_equal_the_store(written):
    base, result = written
    text = result.html.read_text()
    episodes = stored_episodes(base / "store")
    svg = html_mod.inline_svg(svg_text(toy_section.heads_plot(episodes)), "coin-5")
    assert svg in text
    for _bias, group in episodes.group_by("bias"):
        heads = int(group["heads"].sum())
        lo, hi = wilson_interval(heads, group.height)
        assert f"{100 * heads / group.height:.1f}%" in text
        assert f"{100 * float(lo):.1f}\u2013{100 * float(hi):.1f}%" in text


def test_other_seed_other_figures(written, tmp_path):
    _, result = written
    other = write_report(["coin"], profile=TINY, seed=8, jobs=1, store=None, out_dir=tmp_path, plugins=PLUGINS)
    assert other.html.read_bytes() != result.html.read_bytes()
