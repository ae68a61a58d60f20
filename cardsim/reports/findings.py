"""The report's headline figures as data: one JSON file beside the HTML, so that the README's
table and the documentation's figures are generated from what a report run measured and cannot
drift from it.

A section builder may define ``findings(outcomes, profile) -> list[Finding]``; a game whose
builder has none gets :data:`FALLBACKS`' extractor, if any. Every finding is a proportion with
its n, its unit (what n counts) and its 95% Wilson interval.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl

from cardsim.reports.suite import Outcomes, Profile

FINDINGS_NAME = "findings.json"
FORMAT = 1


@dataclass(frozen=True)
class Finding:
    """One headline figure.

    Attributes:
        game: registry name (``gang``, ``thegame``...).
        question: what is estimated, in a few words ("heist success").
        players: player count.
        model: the player model, strategy or bots it holds for.
        setting: the mode, variant or side it is measured in.
        n: episodes behind it, counted in ``unit``.
        unit: what one episode is ("heists", "games").
        p: the estimate; lo, hi: its 95% Wilson interval.
        group: "headline" (the README's table) or "pick" (a "pick your group" cell: the
            choice closest to the chapter's target for that player count and experience).
    """

    game: str
    question: str
    players: int
    model: str
    setting: str
    n: int
    unit: str
    p: float
    lo: float
    hi: float
    group: str = "headline"


def from_row(game: str, question: str, row: dict[str, Any], *, model: str, setting: str, unit: str,
             p: str = "p", lo: str = "lo", hi: str = "hi") -> Finding:
    """A finding from one row of a proportion table (columns ``n``, ``players`` and the named
    estimate and bounds)."""
    return Finding(game=game, question=question, players=int(row["players"]), model=model,
                   setting=setting, n=int(row["n"]), unit=unit, p=float(row[p]), lo=float(row[lo]),
                   hi=float(row[hi]))


def pick_findings(game: str, picks: dict, experiences: Sequence[tuple[str, str]], target: float,
                  what: str) -> list[Finding]:
    """The cells of a "pick your group" table (:func:`cardsim.reports.sections.common.pick_group`)
    as findings: per player count and experience, the ``what`` (mode, variant) closest to
    ``target`` and its win rate; n counts games."""
    names = dict((model, name) for name, model in experiences)
    return [Finding(game=game, question=f"{what} closest to a {target:.0%} win rate", players=players,
                    model=f"{names[model]} ({model})", setting=answer.label, n=answer.n, unit="games",
                    p=answer.p, lo=answer.lo, hi=answer.hi, group="pick")
            for (players, model), answer in sorted(picks.items(), key=lambda kv: (
                kv[0][0], [m for _, m in experiences].index(kv[0][1])))]


def _bang(outcomes: Outcomes, profile: Profile) -> list[Finding]:
    """Bang!: the favoured side's win rate per player count, on the bot the chapter's headline
    uses (:data:`cardsim.reports.sections.bang.HEADLINE_BOT`, else the ladder's first); n
    counts games."""
    from cardsim.analysis.bang import side_win_table
    from cardsim.reports.sections.bang import HEADLINE_BOT

    runs = outcomes.select(lambda e: True)
    if not runs:
        return []
    labels = [run.experiment.labels.get("bots", "") for run in runs]
    bot = HEADLINE_BOT if HEADLINE_BOT in labels else labels[0]
    episodes = pl.concat([o.episodes for o in runs if o.experiment.labels.get("bots") == bot],
                         how="vertical_relaxed")
    sides = side_win_table(episodes).filter(pl.col("side") != "none")
    found = []
    for players in sorted(set(sides["players"].to_list())):
        best = sides.filter(pl.col("players") == players).sort("p", descending=True).row(0, named=True)
        found.append(from_row("bang", "favoured side's win rate", best, model=f"{bot} bots",
                              setting=str(best["side"]), unit="games"))
    return found


FALLBACKS: dict[str, Callable[[Outcomes, Profile], list[Finding]]] = {"bang": _bang}


def chapter_findings(game: str, module: ModuleType, outcomes: Outcomes, profile: Profile
                     ) -> tuple[Finding, ...]:
    """The headline figures of one game's chapter (its builder's ``findings``, else the
    fallback for that game, else none)."""
    extract = getattr(module, "findings", None) or FALLBACKS.get(game)
    return tuple(extract(outcomes, profile)) if extract is not None else ()


def findings_document(findings: Sequence[Finding], *, seed: int, profile: str, version: str,
                      titles: dict[str, str]) -> dict[str, Any]:
    """The JSON document: how it was made (the command that remakes it, seed, profile,
    version) and the findings in chapter order."""
    quick = " --quick" if profile == "quick" else ""
    return {
        "format": FORMAT,
        "command": f"cardsim report{quick} --seed {seed}",
        "seed": seed,
        "profile": profile,
        "version": version,
        "interval": "95% Wilson score interval",
        "games": {game: titles.get(game, game) for game in dict.fromkeys(f.game for f in findings)},
        "findings": [asdict(f) for f in findings],
    }


def write_findings(document: dict[str, Any], path: Path) -> Path:
    """Write ``document`` as sorted, indented JSON (same report, same bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def read_findings(path: Path) -> dict[str, Any]:
    """A findings document written by :func:`write_findings`."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("format") != FORMAT or not isinstance(document.get("findings"), list):
        raise ValueError(f"{path} is not a cardsim findings file (format {FORMAT})")
    return document


def _percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def markdown_table(document: dict[str, Any]) -> str:
    """The headline findings as a Markdown table (one row each), with a line naming the run."""
    lines = ["| game | question | players | model | setting | estimate | 95% interval | n |",
             "|---|---|---|---|---|---|---|---|"]
    titles = document["games"]
    for f in document["findings"]:
        if f.get("group", "headline") != "headline":
            continue
        lines.append(f"| {titles.get(f['game'], f['game'])} | {f['question']} | {f['players']} | "
                     f"{f['model']} | {f['setting']} | {_percent(f['p'])} | "
                     f"{_percent(f['lo'])}-{_percent(f['hi'])} | {f['n']:,} {f['unit']} |")
    lines.append("")
    lines.append(f"From `{document['command']}` (profile '{document['profile']}', cardsim "
                 f"{document['version']}).")
    return "\n".join(lines)


BEGIN = "<!-- findings:begin -->"
END = "<!-- findings:end -->"


def replace_table(text: str, document: dict[str, Any]) -> str:
    """``text`` with the part between the findings markers replaced by the generated table."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"no {BEGIN} ... {END} markers")
    return text[: start + len(BEGIN)] + "\n" + markdown_table(document) + "\n" + text[end:]
