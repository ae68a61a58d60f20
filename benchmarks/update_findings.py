"""Ship the figures of a default ``cardsim report`` run: copy its ``findings.json`` (the file
of record) to ``docs/findings.json`` and regenerate every figure of the README and the
documentation pages from it (the README's table, and each figure marker
``<!--f FORMAT ID-->...<!--/f-->`` in the prose of the pages in :data:`PAGES`).

    cardsim report --out reports && python benchmarks/update_findings.py reports/findings.json

A quick run's file (``findings-quick.json``, profile "quick") is refused: shipped documents
come from the default profile only. The site's findings tables and pick grids are drawn from
``docs/findings.json`` when it is built (``docs_hooks.py``); tests fail when a figure of the
README or a page differs from that file, or when a page types a result by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cardsim.reports.findings import fill_figures, read_findings, replace_table, typed_figures, write_findings

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "docs" / "findings.json"
README = ROOT / "README.md"
# every page whose prose may quote a figure (the README also has the findings table)
PAGES: tuple[str, ...] = (
    "README.md",
    "docs/index.md",
    "docs/tuning.md",
    "docs/guides/the-gang.md",
    "docs/guides/the-game.md",
    "docs/guides/cash-n-guns.md",
    "docs/guides/bang.md",
)


def regenerate(document: dict, root: Path) -> dict[str, str]:
    """The pages' new texts (README with its table), every figure filled from ``document``;
    raises ValueError when a figure names no finding of the file."""
    texts = {}
    for name in PAGES:
        path = root / name
        if not path.exists():
            continue
        text = fill_figures(path.read_text(encoding="utf-8"), document)
        texts[name] = replace_table(text, document) if name == "README.md" else text
    return texts


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python benchmarks/update_findings.py REPORT_FOLDER/findings.json", file=sys.stderr)
        return 2
    try:
        document = read_findings(Path(argv[0]), of_record=True)
        texts = regenerate(document, ROOT)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    write_findings(document, SHIPPED)
    for name, text in texts.items():
        (ROOT / name).write_text(text, encoding="utf-8")
        for typed in typed_figures(text):
            print(f"warning: {name} {typed}: a result typed by hand (use a figure marker)", file=sys.stderr)
    print(
        f"{SHIPPED.relative_to(ROOT)}, the README's table and the figures of {len(texts)} pages: "
        f"{len(document['findings'])} findings from '{document['command']}'"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
