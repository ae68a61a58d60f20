"""Ship a report's headline figures: copy a ``findings.json`` written by ``cardsim report`` to
``docs/findings.json`` and regenerate the README's findings table from it.

    python benchmarks/update_findings.py reports/findings.json

The documentation site reads ``docs/findings.json`` when it is built; tests fail when the
README's table differs from that file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cardsim.reports.findings import read_findings, replace_table, write_findings

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "docs" / "findings.json"
README = ROOT / "README.md"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python benchmarks/update_findings.py REPORT_FOLDER/findings.json", file=sys.stderr)
        return 2
    try:
        document = read_findings(Path(argv[0]))
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    write_findings(document, SHIPPED)
    README.write_text(replace_table(README.read_text(encoding="utf-8"), document), encoding="utf-8")
    print(f"{SHIPPED.relative_to(ROOT)} and the README's table: {len(document['findings'])} findings "
          f"from '{document['command']}'")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
