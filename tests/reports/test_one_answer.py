"""One answer per question, read off the rendered report: every table, pick cell and key
result that shows a setting shows the same n, estimate and interval for it (and the findings
file agrees), and every "pick your group" cell is the candidate closest to the target among
all the candidates the chapter's tables show for that group."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import pytest

from cardsim.reports.content import Paragraph, Section, Table
from cardsim.reports.findings import findings_document
from cardsim.reports.sections import gang, thegame

PERCENT = r"(\d+(?:\.\d+)?)%"
INTERVAL = re.compile(r"^(\d+(?:\.\d+)?)\u2013(\d+(?:\.\d+)?)%$")
CELL = re.compile(r"^(?P<label>.+?): " + PERCENT + r" \((?P<lo>[\d.]+)\u2013(?P<hi>[\d.]+)%, n=(?P<n>[\d,]+)\)")
SHORT = re.compile(r"^(?P<label>.+?): " + PERCENT + "$")
SENTENCE = re.compile(PERCENT + r" \(95% interval ([\d.]+)\u2013([\d.]+)%, n=([\d,]+) games\)")


@dataclass(frozen=True)
class Shown:
    """One setting's figure as a table or sentence shows it (percent points; ``decimals`` of
    the estimate as printed; n and interval None where not shown)."""

    where: str
    p: float
    decimals: int
    n: int | None = None
    interval: tuple[float, float] | None = None


def _shown(where: str, p: str, n: str | None = None, lo: str | None = None, hi: str | None = None) -> Shown:
    decimals = len(p.split(".")[1]) if "." in p else 0
    return Shown(
        where,
        float(p),
        decimals,
        int(n.replace(",", "")) if n else None,
        (float(lo), float(hi)) if lo is not None and hi is not None else None,
    )


def _interval(text: str) -> tuple[str, str]:
    match = INTERVAL.match(text)
    assert match, text
    return match.group(1), match.group(2)


def _pick_setting(game: str, label: str) -> str:
    """A pick cell's choice as the setting the other tables name: The Gang's plain modes by
    their mode, The Game's rules variant as the rules game."""
    if game == "gang":
        return gang.PICK_MODES.get(label, label)
    return "rules" if label == "the rules as printed" else label


def table_figures(section: Section) -> dict[tuple, list[Shown]]:
    """Every figure of a chapter's tables, by setting: (question, players, model, setting)."""
    shown: dict[tuple, list[Shown]] = {}

    def add(key: tuple, figure: Shown) -> None:
        shown.setdefault(key, []).append(figure)

    game = section.key
    for table in (b for b in section.blocks if isinstance(b, Table)):
        col = {name: i for i, name in enumerate(table.columns)}
        for row in table.rows:
            where = f"{table.title}: {row}"
            if table.title.startswith("Heist success by players"):
                lo, hi = _interval(row[col["95% interval"]])
                add(
                    ("heist", int(row[col["players"]]), row[col["model"]], "basic"),
                    _shown(where, row[col["success"]].rstrip("%"), row[col["n"]], lo, hi),
                )
            elif table.title.startswith("Game win rate per mode"):
                lo, hi = _interval(row[col["95% interval"]])
                add(
                    ("game", gang.FOCUS_PLAYERS, row[col["model"]], row[col["mode"]]),
                    _shown(where, row[col["win rate"]].rstrip("%"), row[col["n"]], lo, hi),
                )
            elif table.title.startswith("Win rate, excellent rate") or table.title.startswith("Best legal strategy"):
                column = "strategy" if "strategy" in col else "best legal strategy"
                lo, hi = _interval(row[col["95% interval"]])
                add(
                    ("game", int(row[col["players"]]), row[col[column]], "rules"),
                    _shown(where, row[col["win rate"]].rstrip("%"), row[col["n"]], lo, hi),
                )
            elif table.title.startswith("Pick your group"):
                for name, cell in zip(table.columns[1:], row[1:], strict=True):
                    match = CELL.match(cell)
                    if not match:
                        continue
                    model = name.rsplit("(", 1)[1].rstrip(")")
                    add(
                        ("game", int(row[0]), model, _pick_setting(game, match.group("label"))),
                        _shown(where, match.group(2), match.group("n"), match.group("lo"), match.group("hi")),
                    )
            elif table.title.startswith("Recommended") and game in ("gang", "thegame"):
                model = gang.TUNE_MODEL if game == "gang" else thegame.TUNE_STRATEGY
                lo, hi = _interval(row[col["95% interval"]])
                players = int(row[col["players"]])
                add(
                    ("game", players, model, _pick_setting(game, row[col["play"]])),
                    _shown(where, row[col["win rate"]].rstrip("%"), row[col["n"]], lo, hi),
                )
                for rung in table.columns[-2:]:
                    match = SHORT.match(row[col[rung]])
                    if match:
                        add(
                            ("game", players, model, _pick_setting(game, match.group("label"))),
                            _shown(where, match.group(2)),
                        )
            elif table.title.startswith("Win rate by side") or table.title.startswith("Recommended reading"):
                bots = re.search(r"\((\w+) bots\)", table.title).group(1)
                side = row[col["side"] if "side" in col else col["favoured side"]]
                lo, hi = _interval(row[col["95% interval"]])
                add(
                    ("side", int(row[col["players"]]), bots, side),
                    _shown(where, row[col["win rate"]].rstrip("%"), row[col["n"]], lo, hi),
                )
    return shown


def disagreements(shown: dict[tuple, list[Shown]]) -> list[str]:
    """Settings shown with two different n, intervals or estimates (beyond the rounding of
    the coarser print)."""
    found = []
    for key, figures in shown.items():
        full = [f for f in figures if f.n is not None]
        if len({(f.n, f.interval) for f in full}) > 1:
            found.append(f"{key}: " + " | ".join(f"{f.where}" for f in full))
            continue
        for a in figures:
            for b in figures:
                if abs(a.p - b.p) > 0.5 * 10 ** -min(a.decimals, b.decimals) + 1e-9:
                    found.append(f"{key}: {a.where} | {b.where}")
    return found


def sentence_disagreements(section: Section, shown: dict[tuple, list[Shown]]) -> list[str]:
    """Figures in the chapter's sentences (estimate, interval, n) that no table shows."""
    figures = [f for group in shown.values() for f in group if f.n is not None]
    found = []
    for paragraph in (b for b in section.blocks if isinstance(b, Paragraph)):
        for m in SENTENCE.finditer(paragraph.text):
            p, lo, hi, n = float(m.group(1)), float(m.group(2)), float(m.group(3)), int(m.group(4).replace(",", ""))
            decimals = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
            if not any(
                f.n == n and f.interval == (lo, hi) and abs(f.p - p) <= 0.5 * 10**-decimals + 1e-9 for f in figures
            ):
                found.append(f"{section.key}: {m.group(0)!r} matches no table row")
    return found


def chapters(report) -> dict[str, Section]:
    return {s.key: s for s in report.sections}


def test_every_setting_shows_one_estimate(tiny_report):
    sections = chapters(tiny_report.report)
    for game in ("gang", "thegame", "bang"):
        if game not in sections:
            continue
        shown = table_figures(sections[game])
        assert len(shown) > 10, game  # the tables were read
        assert any(len(v) > 1 for v in shown.values()), game  # some setting is shown twice
        assert disagreements(shown) == [], game
        assert sentence_disagreements(sections[game], shown) == [], game


def test_a_planted_second_estimate_is_caught(tiny_report):
    """The check above can fail: one pick cell changed to another n and interval."""
    section = chapters(tiny_report.report)["gang"]
    table = next(b for b in section.blocks if isinstance(b, Table) and b.title.startswith("Pick your group"))
    row = table.rows[1]  # 4 players: its plain modes are also in the mode table
    cell = re.sub(r"n=([\d,]+)", lambda m: f"n={int(m.group(1).replace(',', '')) // 2:,}", row[2])
    planted = replace(table, rows=(table.rows[0], (*row[:2], cell, *row[3:]), *table.rows[2:]))
    changed = replace(section, blocks=tuple(planted if b is table else b for b in section.blocks))
    assert disagreements(table_figures(changed))
    paragraph = Paragraph("It wins 12% (95% interval 1.0\u201399.0%, n=7 games).")
    assert sentence_disagreements(replace(section, blocks=(*section.blocks, paragraph)), table_figures(section))


def test_findings_hold_one_estimate_per_run_and_match_the_tables(tiny_report):
    report = tiny_report.report
    findings = [f for s in report.sections for f in s.findings]
    document = findings_document(findings, seed=0, profile="quick", version="t", titles={})
    by_run: dict[tuple, set] = {}
    for f in document["findings"]:
        if f["run"] and f["run"] != "(memory)":
            by_run.setdefault((f["game"], f["run"], f["unit"]), set()).add((f["n"], f["p"], f["lo"], f["hi"]))
    assert by_run and all(len(values) == 1 for values in by_run.values()), by_run
    shown = {game: table_figures(s) for game, s in chapters(report).items()}
    checked = 0
    for f in document["findings"]:
        if f["game"] == "gang" and f["key"].startswith("game:"):
            key = ("game", f["players"], f["model"], f["setting"].split()[0])
        elif f["game"] == "thegame" and f["key"].startswith("win:"):
            key = ("game", f["players"], f["model"], "rules")
        elif f["group"] == "pick":
            key = (
                "game",
                f["players"],
                f["model"].rsplit("(", 1)[1].rstrip(")"),
                _pick_setting(f["game"], f["setting"]),
            )
        else:
            continue
        figures = [s for s in shown[f["game"]].get(key, []) if s.n is not None]
        assert figures, (f["id"], key)
        assert all(
            s.n == f["n"] and s.interval == (round(100 * f["lo"], 1), round(100 * f["hi"], 1)) for s in figures
        ), f["id"]
        checked += 1
    assert checked > 20


def misplaced_picks(section: Section, target: float) -> list[str]:
    """Pick cells with a candidate closer to the target anywhere in the chapter's tables (same
    player count and model), compared on the printed estimates."""
    shown = table_figures(section)
    table = next(b for b in section.blocks if isinstance(b, Table) and b.title.startswith("Pick your group"))
    found = []
    for row in table.rows:
        for name, cell in zip(table.columns[1:], row[1:], strict=True):
            match = CELL.match(cell)
            if not match:
                continue
            model = name.rsplit("(", 1)[1].rstrip(")")
            distance = abs(float(match.group(2)) - 100 * target)
            for key, figures in shown.items():
                if key[:3] == ("game", int(row[0]), model):
                    for figure in figures:
                        if abs(figure.p - 100 * target) < distance - 1e-9:
                            found.append(f"{row[0]}p {model}: {cell!r}, but {key[3]} at {figure.where}")
    return found


@pytest.mark.parametrize("game, target", [("gang", gang.TARGET), ("thegame", thegame.TARGET)])
def test_every_pick_is_the_closest_candidate_shown(tiny_report, game, target):
    section = chapters(tiny_report.report)[game]
    assert misplaced_picks(section, target) == []


def test_a_planted_closer_candidate_is_caught(tiny_report):
    """The scan can fail: a mode-table row exactly on target beats any pick at 4 players."""
    section = chapters(tiny_report.report)["gang"]
    table = next(b for b in section.blocks if isinstance(b, Table) and b.title.startswith("Game win rate per mode"))
    pick = next(b for b in section.blocks if isinstance(b, Table) and b.title.startswith("Pick your group"))
    four = next(r for r in pick.rows if r[0] == str(gang.FOCUS_PLAYERS))
    if all(CELL.match(c) and float(CELL.match(c).group(2)) == 100 * gang.TARGET for c in four[1:]):
        pytest.skip("every pick is exactly on target")
    columns = {name.rsplit("(", 1)[1].rstrip(")"): cell for name, cell in zip(pick.columns[1:], four[1:], strict=True)}
    model = next(m for m, c in columns.items() if CELL.match(c) and float(CELL.match(c).group(2)) != 100 * gang.TARGET)
    row = (model, "planted", "10", f"{100 * gang.TARGET:.1f}%", "40.0\u201360.0%", "1.00")
    planted = replace(table, rows=(*table.rows, row), sort_keys=(*table.sort_keys, row))
    changed = replace(section, blocks=tuple(planted if b is table else b for b in section.blocks))
    assert misplaced_picks(changed, gang.TARGET)
