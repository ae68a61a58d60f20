"""What every game's chapter shares: rules readings from ``seeds/``, tables, reproducibility."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

import cardsim
from cardsim.analysis.tuning import candidate_table, closest_answer, ladder
from cardsim.reports.content import (
    Block,
    Bullets,
    Table,
    interval_text,
    percent,
    proportion_columns,
    table_from_frame,
    text_column,
)
from cardsim.reports.findings import OUT_OF_REACH
from cardsim.reports.suite import Outcome, Outcomes, Profile
from cardsim.stats import proportion_table

READING_WORDS = ("reading", "silent", "disagree", "ambigu", "interpret", "choice", "chosen")


def repo_root() -> Path:
    """The checkout that holds the ``cardsim`` package and the ``seeds/`` digests."""
    return Path(cardsim.__file__).resolve().parents[1]


def checkout_roots() -> tuple[Path, Path]:
    """Where the repository's files are looked for: the checkout that holds the package (an
    editable install), then the working directory (a regular install run from the checkout,
    as the README's command does)."""
    return repo_root(), Path.cwd()


def checkout_path(relative: str) -> Path | None:
    """``relative`` (a path inside the repository, such as ``examples/strategies/x.py``) under
    the first of :func:`checkout_roots` that has it; None under neither."""
    for base in checkout_roots():
        if (base / relative).exists():
            return base / relative
    return None


def digest_path(game: str, root: Path | None = None) -> Path | None:
    """The rules digest of ``game`` in ``seeds/``: the ``.md`` file whose name, letters only,
    contains the game's name (``cash_n_guns.md`` for cashnguns, ``the_game.md`` for thegame).

    Looked for under ``root`` when given, otherwise under :func:`checkout_roots`.
    """
    roots = [root] if root is not None else list(checkout_roots())
    for folder in (base / "seeds" for base in roots):
        if not folder.is_dir():
            continue
        matches = [p for p in sorted(folder.glob("*.md")) if game in re.sub(r"[^a-z]", "", p.stem.lower())]
        if matches:
            return min(matches, key=lambda p: (len(p.stem), p.name))
    return None


def _plain(text: str) -> str:
    """Markdown inline markup removed: backticks, emphasis, links kept as their text, bare web
    addresses dropped."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(?:https?|ftp)://\S+", "(web address omitted)", text)  # the report links nowhere
    text = text.replace("`", "").replace("**", "").replace("__", "")
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class DigestFacts:
    """What the report quotes from a rules digest: where it is, its version and its readings."""

    path: str
    sha256: str
    version: str
    readings: tuple[str, ...]


def _cells(line: str) -> list[str]:
    """A Markdown table row's cells: split at the unescaped pipes, an escaped one (``\\|``, a
    pipe inside a cell such as "1 \\| 2 \\| 4") kept as a plain "|"."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [cell.replace("\\|", "|").strip() for cell in re.split(r"(?<!\\)\|", inner)]


def _is_empty_reading(text: str) -> bool:
    return _plain(text).strip(" -—–.") == ""


def digest_facts(text: str, path: str) -> DigestFacts:
    """The version line and every reading a digest records.

    Readings are (a) the list items under a heading that speaks of readings, silent or
    disagreeing sources, and (b) every table row with a non-empty "Reading" column, given as
    "rule: reading". A line naming a "version" gives the rules version.
    """
    version = ""
    readings: list[str] = []
    in_reading_section = False
    header: list[str] | None = None
    current: list[str] = []

    def flush() -> None:
        if current and in_reading_section:
            item = _plain(" ".join(current))
            if item not in readings:
                readings.append(item)
        current.clear()

    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not version and re.search(r"\bversion\b", stripped, re.I):
            version = _plain(stripped.lstrip("-*> ").strip())
        if stripped.startswith("#"):
            flush()
            heading = stripped.lstrip("#").strip().lower()
            in_reading_section = any(word in heading for word in READING_WORDS)
            header = None
            continue
        if stripped.startswith("|"):
            flush()
            cells = _cells(stripped)
            if header is None:
                header = [c.lower() for c in cells]
            elif not all(set(c) <= set(":- ") for c in cells):
                reading_col = next((i for i, h in enumerate(header) if "reading" in h), None)
                if reading_col is not None and (reading_col >= len(cells) or _is_empty_reading(cells[reading_col])):
                    reading_col = None
                # a row where one source overrides another counts too (its source cell says so)
                override_col = next((i for i, c in enumerate(cells) if "over seed" in c.lower()), None)
                parts = [cells[i] for i in dict.fromkeys((override_col, reading_col)) if i is not None]
                if parts:
                    rule_col = next((i for i, h in enumerate(header) if h.startswith(("rule", "card"))), 0)
                    rule = _plain(cells[rule_col]) if rule_col not in (reading_col, override_col) else ""
                    text = "; ".join(_plain(part) for part in parts)
                    item = f"{rule} \u2014 {text}" if rule else text
                    if item not in readings:
                        readings.append(item)
            continue
        header = None
        item = re.match(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$", line)
        if item:
            flush()
            current.append(item.group(1))
        elif stripped and current and (line.startswith("  ") or line.startswith("\t")):
            current.append(stripped)
        else:
            flush()
    flush()
    sha = hashlib.sha256(text.encode()).hexdigest()[:12]
    return DigestFacts(path=path, sha256=sha, version=version, readings=tuple(readings))


def rules_blocks(game: str, title: str, root: Path | None = None) -> tuple[Block, ...]:
    """The chapter's rules block: digest file, version, and every reading it records."""
    path = digest_path(game, root)
    if path is None:
        return (
            Bullets(
                (
                    f"No rules digest seeds/{game}.md was found, so the readings chosen "
                    f"for {title} cannot be listed here.",
                ),
                heading="Rules version and readings chosen",
            ),
        )
    facts = digest_facts(path.read_text(encoding="utf-8"), f"seeds/{path.name}")
    head = f"Rules digest {facts.path} (content hash {facts.sha256})"
    head += f"; {facts.version}" if facts.version else "."
    items = [head]
    if facts.readings:
        items += list(facts.readings)
    else:
        items.append("The digest records no reading where the sources were silent or disagreed.")
    return (Bullets(tuple(items), heading="Rules version and readings chosen"),)


def models_block(models: Sequence[tuple[str, str]]) -> Bullets:
    """The player models/strategies compared, one line each."""
    return Bullets(tuple(f"{name}: {text}" for name, text in models), heading="Player models compared")


def proportion_block(
    frame: pl.DataFrame,
    by: Sequence[str],
    column: str,
    *,
    title: str,
    label: str = "win rate",
    headers: dict[str, str] | None = None,
    note: str = "",
) -> Table:
    """A proportion per group as a table: the group columns, n, the rate and its 95% interval."""
    table = proportion_table(frame, list(by), column).sort(list(by))
    names = headers or {}
    columns = [text_column(names.get(c, c), c) for c in by] + proportion_columns(label)
    return table_from_frame(
        table, title=title, columns=columns, note=note or "95% Wilson score intervals; n = episodes played."
    )


def reproducibility_blocks(outcomes: Outcomes, profile: Profile, game: str, rerun: str) -> tuple[Block, ...]:
    """The reproducibility box and the table of every run behind the chapter."""
    all_runs = list(outcomes.by_key.values())
    total = sum(o.n for o in all_runs)
    stops = [o.stop_rule.split(":")[0].split(" ")[0] for o in all_runs]
    stop_text = (
        f"{stops.count('precision')} run(s) stopped when the headline's 95% Wilson half-width fell "
        f"below the target, {stops.count('max-n')} at their episode bound before reaching it, "
        f"{stops.count('fixed')} played a fixed n (chunks are always played and used in order)."
    )
    quick = " --quick" if profile.name == "quick" else ""
    items = (
        f"Root seed {outcomes.seed}; cardsim version {cardsim.__version__}; profile '{profile.name}'.",
        f"{len(all_runs)} runs, {total:,} episodes in all (n per run from "
        f"{min((o.n for o in all_runs), default=0):,} to {max((o.n for o in all_runs), default=0):,}).",
        f"Stopping rule: {stop_text}",
        f"Re-run this chapter: cardsim report --game {game} --seed {outcomes.seed}{quick} "
        f"(stored chunks in the results folder are reused; same store and seed give identical files).",
        f"Re-run one experiment by hand (reuses the same stored chunks): {rerun} --seed {outcomes.seed}",
    )
    return (Bullets(items, heading="Reproducibility"), runs_table(all_runs))


MAX_RUN_ROWS = 40


def runs_table(runs: Sequence[Outcome]) -> Table:
    """One row per run (its stored folder name), or, for a large suite, one row per value of the
    first label (how many runs, their n and how they stopped)."""
    if len(runs) <= MAX_RUN_ROWS:
        rows, keys = [], []
        for o in runs:
            labels = ", ".join(f"{k}={v}" for k, v in o.experiment.labels.items())
            rule = o.stop_rule.split(":")[0]
            rows.append((labels, f"{o.n:,}", rule, o.run_id))
            keys.append((labels, float(o.n), rule, o.run_id))
        return Table(
            title="Runs behind this chapter",
            columns=("experiment", "n", "stopped by", "stored run"),
            rows=tuple(rows),
            sort_keys=tuple(keys),
            note="Each stored run is a folder of that name in the results store ('cardsim runs show NAME').",
        )
    first = next(iter(runs[0].experiment.labels), "")
    groups: dict[str, list[Outcome]] = {}
    for o in runs:
        groups.setdefault(f"{first}={o.experiment.labels.get(first, '')}", []).append(o)
    rows, keys = [], []
    for name, members in groups.items():
        rules = sorted({o.stop_rule.split(":")[0] for o in members})
        n_low, n_high = min(o.n for o in members), max(o.n for o in members)
        n_text = f"{n_low:,}" if n_low == n_high else f"{n_low:,}-{n_high:,}"
        rows.append((name, f"{len(members):,}", n_text, "; ".join(rules)))
        keys.append((name, float(len(members)), float(n_low), "; ".join(rules)))
    return Table(
        title="Runs behind this chapter (grouped)",
        columns=("group", "runs", "n per run", "stopped by"),
        rows=tuple(rows),
        sort_keys=tuple(keys),
        note=f"{len(runs):,} runs, each a folder in the results store (list them with 'cardsim runs list').",
    )


def on_target(row: dict, target: float) -> str:
    """'yes' when the row's 95% interval holds the target, else how far its estimate is off."""
    if row["lo"] <= target <= row["hi"]:
        return "yes"
    return f"no, {100 * abs(row['p'] - target):.1f} pts off"


CANDIDATE_PARTS = ("tune", "pick")


def group_candidates(outcomes: Outcomes, players: int, who: str, model: str, column: str) -> pl.DataFrame:
    """Every candidate the chapter shows for one group (``players``, label ``who`` = ``model``):
    its tuning runs and its "pick your group" runs (labels ``part`` in CANDIDATE_PARTS and
    ``candidate``), one row per config (label, n, successes, p, lo, hi). A config both parts
    run is one candidate, under the "pick your group" label (the players' words), with the
    episodes of its largest run (:func:`cardsim.reports.suite.largest_runs`)."""
    runs: dict[str, tuple[str, Outcome]] = {}
    for o in outcomes.select(
        lambda e: e.labels["part"] in CANDIDATE_PARTS and e.labels["players"] == players and e.labels[who] == model
    ):
        config = repr(sorted(o.experiment.config.items()))
        label = o.experiment.labels["candidate"]
        if config in runs:
            named, known = runs[config]
            label = label if o.experiment.labels["part"] == "pick" else named
            o = o if o.n > known.n else known
        runs[config] = (label, o)
    if not runs:
        return pl.DataFrame()
    table = candidate_table([(label, o.episodes) for label, o in runs.values()], column)
    return table.join(
        pl.DataFrame({"label": [label for label, _ in runs.values()], "run": [o.run_id for _, o in runs.values()]}),
        on="label",
        how="left",
        maintain_order="left",
    )


def tuning_tables(
    outcomes: Outcomes, players: Sequence[int], column: str, who: str, model: str
) -> dict[int, pl.DataFrame]:
    """Per player count: the candidate table of ``model``'s group (:func:`group_candidates`:
    the tuning grid and the "pick your group" choices together)."""
    return {count: group_candidates(outcomes, count, who, model, column) for count in players}


def recommendation_frame(tables: dict[int, pl.DataFrame], target: float) -> pl.DataFrame:
    """Per player count: the ladder's medium pick (with n and interval) and its easy/hard rungs."""
    rows = []
    for players, table in tables.items():
        steps = {r["level"]: r for r in ladder(table, target).iter_rows(named=True)}
        best = steps["medium"]

        def cell(level: str) -> str:
            step = steps.get(level)  # noqa: B023 - called in this iteration
            return f"{step['label']}: {percent(step['p'])}" if step else "-"

        rows.append(
            {
                "players": players,
                "play": best["label"],
                "n": best["n"],
                "p": best["p"],
                "lo": best["lo"],
                "hi": best["hi"],
                "easier": cell("easy"),
                "harder": cell("hard"),
            }
        )
    return pl.DataFrame(rows)


def recommendation_columns(target: float, easier: str = "easier", harder: str = "harder") -> list:
    """The columns of a recommendation table built from :func:`recommendation_frame`."""
    return [
        text_column("players", "players"),
        text_column("play", "play"),
        ("n", "n", lambda r: f"{int(r['n']):,}", lambda r: float(r["n"])),
        ("win rate", "p", lambda r: percent(r["p"]), lambda r: float(r["p"])),
        ("95% interval", "lo", lambda r: interval_text(r["lo"], r["hi"]), lambda r: float(r["lo"])),
        ("target in interval", "p", lambda r: on_target(r, target), lambda r: abs(float(r["p"]) - target)),
        text_column(easier, "easier"),
        text_column(harder, "harder"),
    ]


def pick_group(
    outcomes: Outcomes,
    players: Sequence[int],
    experiences: Sequence[tuple[str, str]],
    who: str,
    column: str,
    target: float,
) -> dict[tuple[int, str], Any]:
    """Per (player count, model): the candidate closest to ``target`` among every candidate the
    chapter shows for that group (:func:`group_candidates`: the "pick" runs, labels ``part`` =
    "pick", ``players``, ``who`` = the model and ``candidate`` = the choice, and the tuning
    grid's where the model is tuned), as an :class:`cardsim.analysis.tuning.Answer` (label, n,
    p, interval, reach)."""
    picks = {}
    for count in players:
        for _, model in experiences:
            table = group_candidates(outcomes, count, who, model, column)
            if table.height:
                picks[(count, model)] = closest_answer(table, target)
    return picks


def pick_cell(answer: Any) -> str:
    """One cell of a "pick your group" table: the choice, its win rate, interval and n, and
    whether the target was out of reach."""
    reach = OUT_OF_REACH.get(answer.reach, "")
    return f"{answer.label}: {percent(answer.p)} ({interval_text(answer.lo, answer.hi)}, n={answer.n:,})" + (
        f" ({reach})" if reach else ""
    )


def pick_group_table(
    picks: dict[tuple[int, str], Any],
    players: Sequence[int],
    experiences: Sequence[tuple[str, str]],
    *,
    title: str,
    unit: str,
    note: str,
) -> Table:
    """The "pick your group" table: a row per player count, a column per experience."""
    shown = [(name, model) for name, model in experiences if any(k[1] == model for k in picks)]
    rows, keys = [], []
    for count in players:
        if not any((count, model) in picks for _, model in shown):
            continue
        cells = [pick_cell(picks[(count, m)]) if (count, m) in picks else "-" for _, m in shown]
        rows.append((str(count), *cells))
        keys.append((float(count), *cells))
    return Table(
        title=title,
        columns=("players", *(f"{name} ({model})" for name, model in shown)),
        rows=tuple(rows),
        sort_keys=tuple(keys),
        note=f"{note} Each cell: the choice whose win rate is closest to the target, its win "
        f"rate, 95% Wilson interval and n ({unit}).",
    )
