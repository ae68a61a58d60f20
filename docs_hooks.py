"""mkdocs hooks: the pages generated when the documentation is built, so that no figure, option
or rule in the site is typed twice.

- ``rules/<digest>.md``: each rules digest in ``seeds/``, as written there;
- ``reference/cli.md``: every command and option of the typer app (its click tree);
- ``benchmarks.md``: the benchmark records in ``benchmarks/results/`` (figures of record, dated,
  with machine and commit), one table per target, then the history of every record;
- ``<!-- findings: GAME -->`` in a page: the table and plot of that game's headline figures in
  ``docs/findings.json``, the file ``cardsim report`` writes and the README's table comes from;
  ``<!-- findings: GAME pick -->``: its "pick your group" cells as a grid (players x
  experience); the figures in the pages' prose are generated into them from the same file by
  ``benchmarks/update_findings.py`` (figure markers ``<!--f FORMAT ID-->...<!--/f-->``);
- ``<!-- benchmark: TARGET -->`` in a page: the latest record of ``cardsim bench TARGET`` in
  ``benchmarks/results/`` (its command, date, machine and rows), as the benchmarks page shows it;
- ``<!-- cashnguns: status -->`` in a page (the Cash'n Guns guide, its rules digest): every
  shipped mix's status, read from the shipped ``libraries.json`` when the site is built
  (:func:`cardsim.analysis.cashnguns.reading_status`), never typed by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
SEEDS = ROOT / "seeds"
RESULTS = ROOT / "benchmarks" / "results"
FINDINGS = ROOT / "docs" / "findings.json"


def _cell(value: Any) -> str:
    if isinstance(value, float):
        text = f"{value:,.4g}" if abs(value) < 1000 else f"{value:,.0f}"
    else:
        text = str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_rows(rows: list[dict[str, Any]]) -> str:
    """Rows of dicts as one Markdown table (columns in first-seen order)."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(row.get(c, "")) for c in columns) + " |" for row in rows]
    return "\n".join(lines)


def rules_page(path: Path) -> str:
    title = path.stem.replace("_", " ")
    return (
        f"<!-- generated from seeds/{path.name} -->\n\n"
        f'!!! note "Rules digest, as kept in the repository"\n'
        f"    This page is the project's own digest `seeds/{path.name}` ({title}), shown as it "
        f"is. Each row gives the rule in our words, its source, the reading chosen where the "
        f"sources are silent or disagree, and the test that checks it.\n\n" + path.read_text(encoding="utf-8")
    )


def cli_page() -> str:
    """Every command of ``cardsim``: usage, help and options, from the click tree typer builds."""
    import typer

    from cardsim.cli import build_app

    root = typer.main.get_command(build_app())
    out = [
        "# Command-line reference",
        "",
        "Generated from the `cardsim` typer app when the site is built; `cardsim COMMAND --help` prints the same.",
        "",
    ]

    def walk(command: Any, path: list[str], context: Any) -> None:
        ctx = command.context_class(command, info_name=path[-1], parent=context)
        if path[1:]:
            out.append(f"{'#' * min(len(path), 4)} `{' '.join(path)}`")
            out.append("")
            out.append("```text")
            out.append(command.get_help(ctx).replace("```", "'''"))
            out.append("```")
            out.append("")
        if hasattr(command, "list_commands"):  # a group (typer may bring its own click)
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), [*path, name], ctx)

    walk(root, ["cardsim"], None)
    return "\n".join(out) + "\n"


def benchmark_records() -> list[dict[str, Any]]:
    """Every record in ``benchmarks/results/``, oldest first."""
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(RESULTS.glob("*.json"))]
    return sorted(records, key=lambda r: (r["date"], r["target"]))


def record_rows(record: dict[str, Any]) -> list[str]:
    """One benchmark record as Markdown: its command, date, commit and machine, then its rows."""
    machine = record["machine"]
    return [
        f"`{record['command']}` on {record['date']}, commit `{record['commit'][:12]}`; "
        f"{machine['cpus']} cores ({machine['processor'] or machine['machine']}), Python "
        f"{machine['python']}, load average {machine['load_1min']} when it started.",
        "",
        markdown_rows(record["rows"]),
        "",
    ]


def benchmark_table(target: str) -> str:
    """The latest record of ``target`` (``<!-- benchmark: TARGET -->``)."""
    found = [r for r in benchmark_records() if r["target"] == target]
    if not found:
        return f"*No record of `cardsim bench {target}` yet: run `python benchmarks/record.py {target}`.*"
    return "\n".join(record_rows(found[-1]))


def benchmarks_page() -> str:
    records = benchmark_records()
    out = [
        "# Benchmarks",
        "",
        "Generated from `benchmarks/results/` when the site is built. Each record is one run of "
        "`cardsim bench TARGET` (its command below), saved by `python benchmarks/record.py "
        "TARGET` with the date, the commit and the machine. Every row measures a kernel against "
        "a reference in the same process (a plain-Python version of the same rules, or a "
        "published library), so the ratio means more than the raw speed on a shared machine.",
        "",
    ]
    if not records:
        return "\n".join(out + ["No record yet: run `python benchmarks/record.py poker`."]) + "\n"
    latest: dict[str, dict[str, Any]] = {}
    for record in records:
        latest[record["target"]] = record
    out += ["## Figures of record", ""]
    for target, record in latest.items():
        out += [f"### {target}", "", *record_rows(record)]
    out += [
        "## History",
        "",
        "Every record kept, oldest first.",
        "",
        markdown_rows(
            [
                {
                    "date": r["date"],
                    "target": r["target"],
                    "commit": r["commit"][:12],
                    "command": f"`{r['command']}`",
                    "rows": len(r["rows"]),
                    "load": r["machine"]["load_1min"],
                }
                for r in records
            ]
        ),
        "",
    ]
    history = ROOT / "benchmarks" / "history.md"
    if history.exists():
        out += [history.read_text(encoding="utf-8")]
    return "\n".join(out) + "\n"


def findings_table(game: str, group: str = "headline") -> str:
    """The findings of ``game`` in ``group`` as a Markdown table, with the run they come from;
    the "pick" group as a grid: a row per player count, a column per experience."""
    from cardsim.reports.findings import pick_grid

    document = json.loads(FINDINGS.read_text(encoding="utf-8"))
    source = (
        f"From `{document['command']}` (profile '{document['profile']}', cardsim "
        f"{document['version']}); the file is `docs/findings.json`."
    )
    if group == "pick":
        return f"{pick_grid(document, game)}\n\n{source}"
    rows = [f for f in document["findings"] if f["game"] == game and f.get("group", "headline") == group]
    if not rows:
        return f"*No figure for this game in `docs/findings.json` ({document['command']}).*"
    lines = ["| question | players | model | setting | estimate | 95% interval | n |", "|---|---|---|---|---|---|---|"]
    for f in rows:
        lines.append(
            f"| {f['question']} | {f['players']} | {f['model']} | {f['setting']} | "
            f"{100 * f['p']:.1f}% | {100 * f['lo']:.1f}-{100 * f['hi']:.1f}% | "
            f"{f['n']:,} {f['unit']} |"
        )
    lines += ["", source]
    return "\n".join(lines)


def cashnguns_status(path: Path | None = None) -> str:
    """Every shipped Cash'n Guns mix as one Markdown table: the reading, the mix, and its status
    in words (:func:`cardsim.analysis.cashnguns.status_text`: "not converged" and the best known
    reply with its gain, 95% interval and source where any recorded reply beats the mix), from
    the libraries file ``path`` (default: the shipped one)."""
    from cardsim.analysis.cashnguns import shipped_mixes_table

    table = shipped_mixes_table(path)
    if not table.height:
        return "*The shipped libraries file could not be read.*"
    rows = [
        {
            "players": r["players"],
            "reading": f"{r['metric']}, shame {r['shame']:+,}",
            "mix": r["mix"],
            "status (from the shipped records)": r["status_text"],
        }
        for r in table.iter_rows(named=True)
    ]
    return (
        markdown_rows(rows) + "\n\nFrom `cardsim/sims/cashnguns/data/libraries.json` as shipped with this "
        "version; `cardsim cashnguns strategies` prints the same table."
    )


def findings_plot(game: str) -> str | None:
    """An SVG of ``game``'s findings: each estimate with its 95% interval, one line each."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    document = json.loads(FINDINGS.read_text(encoding="utf-8"))
    rows = [f for f in document["findings"] if f["game"] == game and f.get("group", "headline") == "headline"]
    if not rows:
        return None
    labels = [f"{f['question']}, {f['players']}p, {f['model']}, {f['setting']}" for f in rows]
    figure = Figure(figsize=(7.5, 0.35 * len(rows) + 1.0))
    axes = figure.add_subplot()
    ys = list(range(len(rows)))[::-1]
    p = [100 * f["p"] for f in rows]
    errors = [[100 * (f["p"] - f["lo"]) for f in rows], [100 * (f["hi"] - f["p"]) for f in rows]]
    axes.errorbar(p, ys, xerr=errors, fmt="o", color="#1f5f99", capsize=3)
    axes.set_yticks(ys, labels, fontsize=8)
    axes.set_xlim(0, 100)
    axes.set_xlabel(f"estimate with its 95% interval (%), {document['command']}", fontsize=8)
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def on_files(files, config):
    from mkdocs.structure.files import File

    generated = {f"rules/{p.name}": rules_page(p) for p in sorted(SEEDS.glob("*.md"))}
    generated["reference/cli.md"] = cli_page()
    generated["benchmarks.md"] = benchmarks_page()
    document = json.loads(FINDINGS.read_text(encoding="utf-8"))
    for game in dict.fromkeys(f["game"] for f in document["findings"]):
        svg = findings_plot(game)
        if svg is not None:
            generated[f"img/findings-{game}.svg"] = svg
    for uri, content in generated.items():
        files.append(File.generated(config, uri, content=content))
    return files


def on_page_markdown(markdown, page, config, files):
    import re

    def table_and_plot(game: str, group: str | None) -> str:
        if group:
            return findings_table(game, group)
        table = findings_table(game)
        if "*No figure" in table:
            return table
        return f"{table}\n\n![{game}: headline figures with 95% intervals](../img/findings-{game}.svg)"

    markdown = re.sub(r"<!-- cashnguns: status -->", lambda m: cashnguns_status(), markdown)
    markdown = re.sub(r"<!-- benchmark: ([a-z-]+) -->", lambda m: benchmark_table(m.group(1)), markdown)
    return re.sub(
        r"<!-- findings: ([a-z]+)(?: ([a-z]+))? -->", lambda m: table_and_plot(m.group(1), m.group(2)), markdown
    )


class _IndexingNotAReference:
    """Docstring examples index frames (``r.tables["games"]["n"]``), which Markdown reads as a
    reference link; a target that is a quoted string or a number can never name an object, so
    autorefs' warning about it is dropped. Every other unresolved reference still fails the
    strict build."""

    PATTERN = __import__("re").compile(r"Could not find cross-reference target '(\"[^\"]*\"|\d+)'")

    def filter(self, record) -> bool:
        return not self.PATTERN.search(record.getMessage())


def on_config(config):
    import logging

    for name in ("mkdocs.plugins.mkdocs_autorefs._internal.plugin", "mkdocs.plugins.mkdocs_autorefs"):
        logging.getLogger(name).addFilter(_IndexingNotAReference())
    return config
