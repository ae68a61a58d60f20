"""Status words match the records: no chapter says "equilibrium", "converged" or "holds"
where its records do not show it. An equilibrium of a game is never shown by a record (a
Cash'n Guns mix converges within its searched space at most), so every sentence with the word
is a negation; "converged" is said only of a shipped mix whose record holds; a Bang! ladder
conclusion that "holds" is separated at 95% on every rung it names, in the chapter's own
tables."""

from __future__ import annotations

import re
from dataclasses import replace

from cardsim.analysis.cashnguns import shipped_mixes_table
from cardsim.reports.content import Paragraph, Plot, Section, Table

STATUS = re.compile(r"equilibri|converge|: holds\b|\bholds? (?:on|in|for) (?:every|all)\b", re.I)
# a negation, or a condition stating a rule rather than a result
NEGATED = re.compile(r"\b(?:not|no|nor|never|without|cannot|none|nothing|only when|only if)\b", re.I)
DEFINED = re.compile(r"'[^']*(?:equilibri|converge)[^']*'", re.I)  # a status named in quotes
HOLDS = re.compile(
    r"(?P<players>\d+) players, (?P<what>favoured side|weakest role \(per seat\)): "
    r"(?P<name>\w+) on every rung \((?P<rungs>[^)]*)\), separated at 95%[^:]*: holds\."
)
INTERVAL = re.compile(r"^([\d.]+)\u2013([\d.]+)%$")


def sentences(section: Section) -> list[str]:
    """The chapter's own words: paragraphs, table titles, notes and cells, plot captions (not
    the rules digest's readings or the models' descriptions)."""
    texts: list[str] = []
    for block in section.blocks:
        if isinstance(block, Paragraph):
            texts.append(block.text)
        elif isinstance(block, Table):
            texts += [block.title, block.note, *(cell for row in block.rows for cell in row)]
        elif isinstance(block, Plot):
            texts.append(block.caption)
    return [s for text in texts for s in re.split(r"(?<=[.;])\s+", text or "") if s]


def claims(section: Section) -> list[str]:
    """Sentences that state a status: a status word, not negated, not a named definition."""
    return [s for s in sentences(section) if STATUS.search(DEFINED.sub("", s)) and not NEGATED.search(s)]


def unsupported(section: Section, mixes_hold: bool) -> list[str]:
    """Status claims the records do not support (``mixes_hold``: some shipped Cash'n Guns mix
    holds by its record)."""
    bad = []
    for claim in claims(section):
        if re.search(r"equilibri", claim, re.I):
            bad.append(f"equilibrium claimed: {claim}")
        elif re.search(r"converge", claim, re.I) and not (mixes_hold and "within the searched space" in claim):
            bad.append(f"converged claimed: {claim}")
        elif re.search(r"holds? in all", claim, re.I) and section.key == "cashnguns" and not mixes_hold:
            bad.append(f"holds claimed with no converged reading: {claim}")
    return bad + ladder_claims_off(section)


def _rates(section: Section, kind: str, bots: str, players: int) -> dict[str, tuple[float, float, float]]:
    title = {"favoured side": "Win rate by side", "weakest role (per seat)": "Win rate per seat by role"}[kind]
    table = next(
        (
            b
            for b in section.blocks
            if isinstance(b, Table)
            and b.title == f"{title} {'and player count ' if 'side' in title else ''}({bots} bots)"
        ),
        None,
    )
    if table is None:
        return {}
    col = {name: i for i, name in enumerate(table.columns)}
    key = "side" if "side" in col else "role"
    rates = {}
    for row in table.rows:
        if int(row[col["players"]]) == players and row[col[key]] != "none":
            lo, hi = INTERVAL.match(row[col["95% interval"]]).groups()
            rates[row[col[key]]] = (float(row[col["win rate"]].rstrip("%")), float(lo), float(hi))
    return rates


def ladder_claims_off(section: Section) -> list[str]:
    """Bang! ladder conclusions that say "holds" where a named rung's table does not separate
    the named side or role from every other at 95%."""
    bad = []
    for paragraph in (b for b in section.blocks if isinstance(b, Paragraph)):
        for m in HOLDS.finditer(paragraph.text):
            lowest = m.group("what").startswith("weakest")
            for bots in (r.strip() for r in m.group("rungs").split(",")):
                rates = _rates(section, m.group("what"), bots, int(m.group("players")))
                if m.group("name") not in rates:
                    bad.append(f"no table for: {m.group(0)} ({bots})")
                    continue
                p, lo, hi = rates.pop(m.group("name"))
                clear = all((olo >= hi) if lowest else (ohi <= lo) for _, olo, ohi in rates.values())
                leads = all((p <= op) if lowest else (p >= op) for op, _, _ in rates.values())
                if not (clear and leads):
                    bad.append(f"holds, but not with {bots} bots: {m.group(0)}")
    return bad


def mixes_hold() -> bool:
    table = shipped_mixes_table()
    return bool(table.height) and bool(table["holds"].any())


def test_every_chapters_status_words_match_the_records(tiny_report):
    hold = mixes_hold()
    sections = {s.key: s for s in tiny_report.report.sections}
    for section in sections.values():
        assert unsupported(section, hold) == [], section.key
    # the Cash'n Guns chapter speaks of the named strategies' mix and of its readings' status
    if "cashnguns" in sections:
        words = " ".join(sentences(sections["cashnguns"]))
        assert "equilibrium" in words and "converged" in words


def test_a_planted_status_claim_is_caught(tiny_report):
    section = next(s for s in tiny_report.report.sections if s.key == "cashnguns")
    planted = Paragraph(
        "With 5 players, self-interested players settle on everyone playing 'stubborn' "
        "(a pure symmetric equilibrium, regret at most 0.00 points)."
    )
    assert unsupported(replace(section, blocks=(*section.blocks, planted)), mixes_hold())
    converged = Paragraph("The 4-player mix converged.")
    assert unsupported(replace(section, blocks=(*section.blocks, converged)), False)
    bang = next(s for s in tiny_report.report.sections if s.key == "bang")
    table = next(b for b in bang.blocks if isinstance(b, Table) and b.title.startswith("Win rate by side"))
    bots = table.title.rsplit("(", 1)[1].split()[0]
    players = table.rows[0][0]
    worst = min((r for r in table.rows if r[0] == players and r[1] != "none"), key=lambda r: float(r[3].rstrip("%")))
    claim = Paragraph(
        f"{players} players, favoured side: {worst[1]} on every rung ({bots}), separated at "
        "95% on each (narrowest margin 1.0 points, x): holds."
    )
    assert ladder_claims_off(replace(bang, blocks=(*bang.blocks, claim)))
