"""Findings generated, not typed: the shipped results file is well formed (every figure a
proportion with its n and a 95% interval around it), and the README's table is exactly what
that file generates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardsim.reports.findings import BEGIN, END, FINDINGS_NAME, markdown_table, read_findings, replace_table

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "docs" / FINDINGS_NAME


def test_shipped_findings_are_proportions_with_n_and_interval():
    document = read_findings(SHIPPED)
    assert document["findings"], "docs/findings.json holds no finding"
    assert {f["game"] for f in document["findings"]} >= {"gang", "thegame"}
    for f in document["findings"]:
        assert f["n"] > 0 and f["unit"] in ("heists", "games"), f
        assert 0.0 <= f["lo"] <= f["p"] <= f["hi"] <= 1.0, f
        assert f["model"] and f["setting"] and f["question"], f


def test_readme_table_is_generated_from_the_shipped_findings():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    document = read_findings(SHIPPED)
    between = readme[readme.index(BEGIN) + len(BEGIN): readme.index(END)]
    assert between.strip() == markdown_table(document).strip(), (
        "README findings table differs from docs/findings.json: run "
        "python benchmarks/update_findings.py docs/findings.json")


def test_a_changed_figure_is_caught(tmp_path):
    """The check above can fail: one changed estimate changes the generated table."""
    document = read_findings(SHIPPED)
    readme = replace_table(f"x\n{BEGIN}\n{END}\ny\n", document)
    changed = json.loads(json.dumps(document))
    changed["findings"][0]["p"] = min(1.0, changed["findings"][0]["p"] + 0.01)
    assert markdown_table(changed) not in readme and markdown_table(document) in readme


def test_update_script_rewrites_readme_and_copy(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("update_findings", ROOT / "benchmarks" / "update_findings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    readme = tmp_path / "README.md"
    readme.write_text(f"top\n{BEGIN}\nold table\n{END}\nbottom\n")
    monkeypatch.setattr(module, "README", readme)
    monkeypatch.setattr(module, "SHIPPED", tmp_path / "docs" / FINDINGS_NAME)
    monkeypatch.setattr(module, "ROOT", tmp_path)
    assert module.main([str(SHIPPED)]) == 0
    text = readme.read_text()
    assert "old table" not in text and markdown_table(read_findings(SHIPPED)) in text
    assert read_findings(tmp_path / "docs" / FINDINGS_NAME) == read_findings(SHIPPED)
    assert module.main([str(tmp_path / "missing.json")]) == 2


@pytest.mark.parametrize("text", ["no markers", f"{END} before {BEGIN}"])
def test_missing_markers_are_an_error(text):
    with pytest.raises(ValueError):
        replace_table(text, read_findings(SHIPPED))
