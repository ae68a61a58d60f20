"""Record benchmarks of record: ``cardsim bench TARGET --record`` for each target, which saves
the rows with the date, the commit and the machine in ``benchmarks/results/DATE-TARGET.json``
(the documentation's benchmarks page is generated from them).

    python benchmarks/record.py poker gang thegame cashnguns bang strategies [--quick]
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def record(target: str, quick: bool) -> str:
    """Run ``cardsim bench TARGET --record`` on this checkout; the path it saved."""
    argv = ["bench", target, *(["--quick"] if quick else []), "--record", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "cardsim", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if done.returncode != 0:
        raise SystemExit(f"error: cardsim {' '.join(argv)} failed: {done.stderr.strip()[-500:]}")
    saved = [line for line in done.stderr.splitlines() if line.startswith("recorded ")]
    return saved[-1].removeprefix("recorded ") if saved else "(nothing recorded)"


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    targets = [a for a in argv if a != "--quick"]
    if not targets:
        print("usage: python benchmarks/record.py TARGET... [--quick] (targets: cardsim bench --help)", file=sys.stderr)
        return 2
    for target in targets:
        print(record(target, quick))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
