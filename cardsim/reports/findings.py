"""The report's headline figures as data: one JSON file beside the HTML, so that the README's
table and the documentation's figures are generated from what a report run measured and cannot
drift from it.

A section builder may define ``findings(outcomes, profile) -> list[Finding]``; a game whose
builder has none gets :data:`FALLBACKS`' extractor, if any. Every finding is a proportion with
its n, its unit (what n counts) and its 95% Wilson interval, and every setting has one finding
(its id, ``game:key``): the figure the chapter's tables show for it.

The file of record is the one the default profile writes (``findings.json``); a quick run
writes ``findings-quick.json``, marked ``"profile": "quick"``, which
:func:`read_findings` refuses as a source of shipped documents. The README's table
(:func:`replace_table`) and every figure in the guides' prose (:func:`fill_figures`: a figure
is a marker ``<!--f FORMAT ID-->...<!--/f-->`` whose text is generated) come from that file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl

from cardsim.reports.suite import Outcomes, Profile

FINDINGS_NAME = "findings.json"
OF_RECORD = "default"  # the profile whose findings file is the file of record
FORMAT = 2


def findings_name(profile: str) -> str:
    """The findings file a report of ``profile`` writes: the file of record for the default
    profile, a file of its own (never shipped) for any other."""
    return FINDINGS_NAME if profile == OF_RECORD else f"findings-{profile}.json"


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
        group: "headline" (the README's table), "pick" (a "pick your group" cell: the
            choice closest to the chapter's target for that player count and experience) or
            "table" (a row of a chapter's table, for the guides' prose).
        key: the setting, unique within the game (``game:key`` is the finding's id, which a
            guide's figure names).
        run: the stored run the figure reads (the largest run of its config; with ":side"
            where one run answers for several sides), so that two findings of one setting can
            be checked to agree.
        note: what the figure alone does not say (a pick whose target is out of reach).
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
    key: str = ""
    run: str = ""
    note: str = ""

    @property
    def id(self) -> str:
        return f"{self.game}:{self.key}"


def slug(text: str) -> str:
    """Lower-case words joined by hyphens: a readable piece of a finding's id."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def from_row(
    game: str,
    question: str,
    row: dict[str, Any],
    *,
    model: str,
    setting: str,
    unit: str,
    p: str = "p",
    lo: str = "lo",
    hi: str = "hi",
    key: str = "",
    run: str = "",
    group: str = "headline",
) -> Finding:
    """A finding from one row of a proportion table (columns ``n``, ``players`` and the named
    estimate and bounds)."""
    return Finding(
        game=game,
        question=question,
        players=int(row["players"]),
        model=model,
        setting=setting,
        n=int(row["n"]),
        unit=unit,
        p=float(row[p]),
        lo=float(row[lo]),
        hi=float(row[hi]),
        group=group,
        key=key,
        run=run,
    )


def run_of(outcomes: Outcomes, **labels: Any) -> str:
    """The stored run of the first experiment whose labels include ``labels`` ("" if none)."""
    found = outcomes.select(lambda e: all(e.labels.get(k) == v for k, v in labels.items()))
    return found[0].run_id if found else ""


OUT_OF_REACH = {"above": "target out of reach: easiest", "below": "target out of reach: hardest"}


def pick_findings(
    game: str, picks: dict, experiences: Sequence[tuple[str, str]], target: float, what: str
) -> list[Finding]:
    """The cells of a "pick your group" table (:func:`cardsim.reports.sections.common.pick_group`)
    as findings: per player count and experience, the ``what`` (mode, variant) closest to
    ``target`` and its win rate; n counts games; key ``pick:<players>p:<model>``."""
    names = dict((model, name) for name, model in experiences)
    return [
        Finding(
            game=game,
            question=f"{what} closest to a {target:.0%} win rate",
            players=players,
            model=f"{names[model]} ({model})",
            setting=answer.label,
            n=answer.n,
            unit="games",
            p=answer.p,
            lo=answer.lo,
            hi=answer.hi,
            group="pick",
            key=f"pick:{players}p:{model}",
            run=answer.run,
            note=OUT_OF_REACH.get(answer.reach, ""),
        )
        for (players, model), answer in sorted(
            picks.items(), key=lambda kv: (kv[0][0], [m for _, m in experiences].index(kv[0][1]))
        )
    ]


def _bang(outcomes: Outcomes, profile: Profile) -> list[Finding]:
    """Bang!: the favoured side's win rate per player count, on the bot the chapter's headline
    uses (:data:`cardsim.reports.sections.bang.HEADLINE_BOT`, else the ladder's first), then
    every side's win rate per player count for every bot of the ladder (the chapter's side
    tables); n counts games; key ``side:<players>p:<bot>:<side>``. Then, per player count and
    side, its least and greatest win rate across the population of tables
    (:func:`_bang_population`)."""
    from cardsim.analysis.bang import side_win_table
    from cardsim.reports.sections.bang import HEADLINE_BOT

    runs = outcomes.select(lambda e: "bots" in e.labels)
    if not runs:
        return []
    labels = list(dict.fromkeys(run.experiment.labels.get("bots", "") for run in runs))
    bot = HEADLINE_BOT if HEADLINE_BOT in labels else labels[0]
    found: list[Finding] = []
    for each in [bot] + [b for b in labels if b != bot]:
        episodes = pl.concat(
            [o.episodes for o in runs if o.experiment.labels.get("bots") == each], how="vertical_relaxed"
        )
        sides = side_win_table(episodes).filter(pl.col("side") != "none")
        for players in sorted(set(sides["players"].to_list())):
            ranked = sides.filter(pl.col("players") == players).sort("p", descending=True)
            for rank, row in enumerate(ranked.iter_rows(named=True)):
                headline = each == bot and rank == 0
                found.append(
                    from_row(
                        "bang",
                        "favoured side's win rate" if headline else "side's win rate",
                        row,
                        model=f"{each} bots",
                        setting=str(row["side"]),
                        unit="games",
                        key=f"side:{players}p:{each}:{row['side']}",
                        run=f"{run_of(outcomes, players=players, bots=each)}:{row['side']}",
                        group="headline" if headline else "table",
                    )
                )
    return found + _bang_population(outcomes, profile)


def _bang_population(outcomes: Outcomes, profile: Profile) -> list[Finding]:
    """Bang!: per player count and side, the table of the population
    (:func:`cardsim.reports.sections.bang.population_results`) where the side wins least and
    the one where it wins most, each its win rate over that table's games (model: the table);
    key ``population:<players>p:<side>:least`` and ``...:greatest``."""
    from cardsim.reports.sections.bang import population_results

    found: list[Finding] = []
    for players, part in population_results(outcomes, profile).items():
        kinds = {label: kind for label, kind, _ in part["rows"]}
        for row in part["summary"].iter_rows(named=True):
            for end in ("least", "greatest"):
                table = row[f"{end}_table"]
                labels = {"bots": table} if kinds[table] == "uniform" else {"table": table}
                found.append(
                    Finding(
                        game="bang",
                        question=f"side's win rate at the population's {end} table",
                        players=players,
                        model=f"table: {table}",
                        setting=str(row["side"]),
                        n=int(row[f"{end}_n"]),
                        unit="games",
                        p=float(row[end]),
                        lo=float(row[f"{end}_lo"]),
                        hi=float(row[f"{end}_hi"]),
                        group="table",
                        key=f"population:{players}p:{row['side']}:{end}",
                        run=f"{run_of(outcomes, players=players, **labels)}:{row['side']}",
                    )
                )
    return found


FALLBACKS: dict[str, Callable[[Outcomes, Profile], list[Finding]]] = {"bang": _bang}


def chapter_findings(game: str, module: ModuleType, outcomes: Outcomes, profile: Profile) -> tuple[Finding, ...]:
    """The headline figures of one game's chapter (its builder's ``findings``, else the
    fallback for that game, else none)."""
    extract = getattr(module, "findings", None) or FALLBACKS.get(game)
    return tuple(extract(outcomes, profile)) if extract is not None else ()


def findings_document(
    findings: Sequence[Finding], *, seed: int, profile: str, version: str, titles: dict[str, str]
) -> dict[str, Any]:
    """The JSON document: how it was made (the command that remakes it, seed, profile,
    version, whether it is the file of record) and the findings in chapter order, each with
    its id. Two findings with one id are an error: one setting, one estimate."""
    quick = "" if profile == OF_RECORD else f" --{profile}"
    ids = [f.id for f in findings]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"findings with the same id (one setting, one estimate): {', '.join(twice)}")
    return {
        "format": FORMAT,
        "command": f"cardsim report{quick} --seed {seed}",
        "seed": seed,
        "profile": profile,
        "of_record": profile == OF_RECORD,
        "version": version,
        "interval": "95% Wilson score interval",
        "games": {game: titles.get(game, game) for game in dict.fromkeys(f.game for f in findings)},
        "findings": [{"id": f.id, **asdict(f)} for f in findings],
    }


def write_findings(document: dict[str, Any], path: Path) -> Path:
    """Write ``document`` as sorted, indented JSON (same report, same bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def read_findings(path: Path, *, of_record: bool = False) -> dict[str, Any]:
    """A findings document written by :func:`write_findings`; with ``of_record``, only the
    default report's (a quick run's file is never the source of shipped documents)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("format") != FORMAT or not isinstance(document.get("findings"), list):
        raise ValueError(f"{path} is not a cardsim findings file (format {FORMAT})")
    if of_record and (document.get("profile") != OF_RECORD or not document.get("of_record")):
        raise ValueError(
            f"{path} comes from '{document.get('command')}' (profile "
            f"'{document.get('profile')}'): only the default 'cardsim report' writes "
            "the file of record"
        )
    return document


def by_id(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The document's findings by id."""
    return {f["id"]: f for f in document["findings"]}


def _percent(p: float) -> str:
    return f"{100 * p:.1f}%"


def markdown_table(document: dict[str, Any]) -> str:
    """The headline findings as a Markdown table (one row each), with a line naming the run."""
    lines = [
        "| game | question | players | model | setting | estimate | 95% interval | n |",
        "|---|---|---|---|---|---|---|---|",
    ]
    titles = document["games"]
    for f in document["findings"]:
        if f.get("group", "headline") != "headline":
            continue
        lines.append(
            f"| {titles.get(f['game'], f['game'])} | {f['question']} | {f['players']} | "
            f"{f['model']} | {f['setting']} | {_percent(f['p'])} | "
            f"{_percent(f['lo'])}-{_percent(f['hi'])} | {f['n']:,} {f['unit']} |"
        )
    lines.append("")
    lines.append(f"From `{document['command']}` (profile '{document['profile']}', cardsim {document['version']}).")
    return "\n".join(lines)


BEGIN = "<!-- findings:begin -->"
END = "<!-- findings:end -->"


def replace_table(text: str, document: dict[str, Any]) -> str:
    """``text`` with the part between the findings markers replaced by the generated table."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"no {BEGIN} ... {END} markers")
    return text[: start + len(BEGIN)] + "\n" + markdown_table(document) + "\n" + text[end:]


FIGURE = re.compile(r"<!--f ([a-z0-9]+) ([^\s>]+)-->(.*?)<!--/f-->", re.S)


def _interval(f: dict[str, Any]) -> str:
    return f"{_percent(f['lo'])}-{_percent(f['hi'])}"


FORMATS: dict[str, Callable[[dict[str, Any]], str]] = {
    # the estimate, to one decimal and to a whole percent
    "p": lambda f: _percent(f["p"]),
    "p0": lambda f: f"{100 * f['p']:.0f}%",
    # the estimate with its interval and n
    "ci": lambda f: f"{_percent(f['p'])} (95% interval {_interval(f)}, n = {f['n']:,} {f['unit']})",
    "n": lambda f: f"{f['n']:,}",
    "interval": _interval,
    # a pick: the setting chosen, and with its estimate; the model (or table) it holds for
    "setting": lambda f: str(f["setting"]),
    "model": lambda f: str(f["model"]),
    "pick": lambda f: (
        f"{f['setting']}, {_percent(f['p'])} ({_interval(f)}, n = {f['n']:,})"
        + (f" ({f['note']})" if f.get("note") else "")
    ),
}


def figure_text(document: dict[str, Any], form: str, ident: str) -> str:
    """The text of one figure: finding ``ident`` in format ``form`` (:data:`FORMATS`)."""
    found = by_id(document)
    if ident not in found:
        raise ValueError(f"no finding {ident!r} in the findings file ({document.get('command')})")
    if form not in FORMATS:
        raise ValueError(f"unknown figure format {form!r} (one of {', '.join(FORMATS)})")
    return FORMATS[form](found[ident])


def fill_figures(text: str, document: dict[str, Any]) -> str:
    """``text`` with every figure marker's text generated from ``document``."""
    return FIGURE.sub(
        lambda m: f"<!--f {m.group(1)} {m.group(2)}-->{figure_text(document, m.group(1), m.group(2))}<!--/f-->", text
    )


def figure_errors(text: str, document: dict[str, Any]) -> list[str]:
    """Every figure marker whose text differs from what ``document`` gives (or names no
    finding), as "ID: shown X, file of record Y"."""
    errors = []
    for m in FIGURE.finditer(text):
        try:
            wanted = figure_text(document, m.group(1), m.group(2))
        except ValueError as exc:
            errors.append(str(exc))
            continue
        if m.group(3) != wanted:
            errors.append(f"{m.group(2)}: shown {m.group(3)!r}, file of record {wanted!r}")
    return errors


# A result typed into prose: a percentage, a signed decimal (a difference in points) or a
# decimal number of points. Parameters (player counts, n, seeds, thresholds in whole points)
# are not results.
TYPED = re.compile(r"(?<![\w.])(?:[+-]?\d+(?:\.\d+)?\s?%|[+-]\d+\.\d+|\d+\.\d+ points)")
CITED = re.compile(r"<!--cited-->.*?<!--/cited-->", re.S)
# A percentage that is a setting, not a result: an interval's level ("95% interval") or a
# target win rate ("closest to 50%", "a 30% win rate").
LEVEL_AFTER = re.compile(r"\s*(?:interval|Wilson|confidence|lower|upper|half-width)")
TARGET_BEFORE = re.compile(r"(?:closest to|aim(?:s|ing)? at|target(?: of)?|an?)\s+$")


def typed_figures(text: str) -> list[str]:
    """Results typed into Markdown prose rather than generated: :data:`TYPED` matches outside
    figure markers, the README's generated table, code (fenced blocks and inline), HTML
    comments and the figures of other people's work marked ``<!--cited-->...<!--/cited-->``,
    other than an interval's level or a target; each as "line N: text"."""

    def blank(m: re.Match[str]) -> str:  # keep the line numbers
        return re.sub(r"[^\n]", " ", m.group(0))

    for pattern in (
        FIGURE,
        CITED,
        re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S),
        re.compile(r"^(```|~~~).*?^\1", re.S | re.M),
        re.compile(r"`[^`\n]*`"),
        re.compile(r"<!--.*?-->", re.S),
    ):
        text = pattern.sub(blank, text)
    found = []
    for m in TYPED.finditer(text):
        before, after = text[max(0, m.start() - 20) : m.start()], text[m.end() : m.end() + 20]
        if m.group(0).endswith("%") and (LEVEL_AFTER.match(after) or TARGET_BEFORE.search(before)):
            continue
        found.append(f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    return found


def pick_grid(document: dict[str, Any], game: str) -> str:
    """A game's "pick your group" cells as one Markdown grid: a row per player count, a column
    per experience; each cell the choice, its estimate, 95% interval and n."""
    picks = [f for f in document["findings"] if f["game"] == game and f.get("group") == "pick"]
    if not picks:
        return f"*No pick for this game in the findings file ({document['command']}).*"
    columns = list(dict.fromkeys(f["model"] for f in picks))
    players = sorted({f["players"] for f in picks})
    cell = {(f["players"], f["model"]): FORMATS["pick"](f) for f in picks}
    lines = ["| players | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    lines += [f"| {count} | " + " | ".join(cell.get((count, c), "-") for c in columns) + " |" for count in players]
    return "\n".join(lines)
