"""Findings generated, not typed: the shipped results file is the default report's (the file of
record), well formed (every figure a proportion with its n and a 95% interval around it, one
per setting), and every figure of the README and the guides, prose included, is exactly what
that file generates; no page types a result by hand."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from cardsim.reports.findings import (
    BEGIN,
    END,
    FINDINGS_NAME,
    figure_errors,
    fill_figures,
    markdown_table,
    pick_grid,
    read_findings,
    replace_table,
    typed_figures,
)

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "docs" / FINDINGS_NAME


def update_module():
    spec = importlib.util.spec_from_file_location("update_findings", ROOT / "benchmarks" / "update_findings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PAGES = update_module().PAGES


def test_shipped_findings_are_the_default_reports_proportions():
    document = read_findings(SHIPPED, of_record=True)
    assert document["profile"] == "default" and "--quick" not in document["command"]
    assert document["findings"], "docs/findings.json holds no finding"
    assert {f["game"] for f in document["findings"]} >= {"gang", "thegame"}
    assert len({f["id"] for f in document["findings"]}) == len(document["findings"])
    for f in document["findings"]:
        assert f["n"] > 0 and f["unit"] in ("heists", "games"), f
        assert 0.0 <= f["lo"] <= f["p"] <= f["hi"] <= 1.0, f
        assert f["model"] and f["setting"] and f["question"], f
    by_run: dict[tuple, set] = {}
    for f in document["findings"]:
        by_run.setdefault((f["game"], f["run"], f["unit"]), set()).add((f["n"], f["p"], f["lo"], f["hi"]))
    assert all(len(values) == 1 for values in by_run.values()), "one run, two estimates"


def test_readme_table_is_generated_from_the_shipped_findings():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    document = read_findings(SHIPPED)
    between = readme[readme.index(BEGIN) + len(BEGIN) : readme.index(END)]
    assert between.strip() == markdown_table(document).strip(), (
        "README findings table differs from docs/findings.json: run "
        "python benchmarks/update_findings.py docs/findings.json"
    )


@pytest.mark.parametrize("page", PAGES)
def test_every_figure_of_a_page_is_the_file_of_records(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    document = read_findings(SHIPPED)
    assert figure_errors(text, document) == [], (
        f"{page}: a figure differs from docs/findings.json: run python benchmarks/update_findings.py docs/findings.json"
    )
    assert typed_figures(text) == [], f"{page}: results typed by hand; use a figure marker"


def test_the_guides_quote_figures_from_the_file():
    texts = "".join((ROOT / page).read_text(encoding="utf-8") for page in PAGES)
    assert texts.count("<!--f ") >= 30


def test_a_planted_disagreement_is_caught():
    """The checks above can fail: a figure edited by hand, a figure typed into prose, a README
    table row edited by hand."""
    document = read_findings(SHIPPED)
    ident = next(f["id"] for f in document["findings"] if f["id"].startswith("gang:game:4p:history:master"))
    page = fill_figures(f"Master Thief: <!--f p {ident}--><!--/f-->, about 33% in prose.\n", document)
    assert figure_errors(page, document) == []
    assert typed_figures(page) == ["line 1: 33%"]
    edited = page.replace(
        f"-->{100 * by_p(document, ident):.1f}%<!--", f"-->{100 * by_p(document, ident) + 1:.1f}%<!--"
    )
    assert edited != page and figure_errors(edited, document)
    assert figure_errors("<!--f p gang:no-such-figure--><!--/f-->", document)
    readme = replace_table(f"x\n{BEGIN}\n{END}\ny\n", document)
    changed = json.loads(json.dumps(document))
    changed["findings"][0]["p"] = min(1.0, changed["findings"][0]["p"] + 0.01)
    assert markdown_table(changed) not in readme and markdown_table(document) in readme


def by_p(document: dict, ident: str) -> float:
    return next(f["p"] for f in document["findings"] if f["id"] == ident)


@pytest.mark.parametrize(
    "text, typed",
    [
        ("a 50% win rate, the 95% interval, closest to 30%", []),
        ("wins 61% of games, +5.2 points, 1.3 points", ["line 1: 61%", "line 1: +5.2", "line 1: 1.3 points"]),
        ("`cardsim x --p 40%` and\n```\n12.5%\n```\n<!--cited-->11.8%<!--/cited-->", []),
    ],
)
def test_typed_figures(text, typed):
    assert typed_figures(text) == typed


def test_pick_grid_is_players_by_experience():
    document = read_findings(SHIPPED)
    grid = pick_grid(document, "gang").splitlines()
    picks = [f for f in document["findings"] if f["game"] == "gang" and f["group"] == "pick"]
    experiences = list(dict.fromkeys(f["model"] for f in picks))
    assert grid[0] == "| players | " + " | ".join(experiences) + " |"
    assert len(grid) == 2 + len({f["players"] for f in picks})


def test_update_script_rewrites_the_pages_and_refuses_a_quick_run(tmp_path, monkeypatch):
    module = update_module()
    document = read_findings(SHIPPED)
    ident = document["findings"][0]["id"]
    (tmp_path / "docs").mkdir()
    readme = tmp_path / "README.md"
    readme.write_text(f"top\n{BEGIN}\nold table\n{END}\nbottom\n")
    (tmp_path / "docs" / "tuning.md").write_text(f"it wins <!--f p {ident}-->0.0%<!--/f--> of games\n")
    monkeypatch.setattr(module, "README", readme)
    monkeypatch.setattr(module, "SHIPPED", tmp_path / "docs" / FINDINGS_NAME)
    monkeypatch.setattr(module, "ROOT", tmp_path)
    assert module.main([str(SHIPPED)]) == 0
    text = readme.read_text()
    assert "old table" not in text and markdown_table(document) in text
    assert figure_errors((tmp_path / "docs" / "tuning.md").read_text(), document) == []
    assert read_findings(tmp_path / "docs" / FINDINGS_NAME) == document
    assert module.main([str(tmp_path / "missing.json")]) == 2
    quick = json.loads(json.dumps(document))
    quick.update(profile="quick", of_record=False, command="cardsim report --quick --seed 0")
    (tmp_path / "findings-quick.json").write_text(json.dumps(quick))
    assert module.main([str(tmp_path / "findings-quick.json")]) == 2
    with pytest.raises(ValueError, match="only the default"):
        read_findings(tmp_path / "findings-quick.json", of_record=True)


@pytest.mark.parametrize("text", ["no markers", f"{END} before {BEGIN}"])
def test_missing_markers_are_an_error(text):
    with pytest.raises(ValueError):
        replace_table(text, read_findings(SHIPPED))
