"""Record a benchmark of record: run ``cardsim bench TARGET`` and save its rows with the date,
the commit and the machine in ``benchmarks/results/DATE-TARGET.json``, which the documentation's
benchmarks page is generated from.

    python benchmarks/record.py poker gang thegame cashnguns bang [--quick]
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
TARGETS = ("poker", "gang", "thegame", "cashnguns", "bang", "compile", "report")


def git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip()


def machine() -> dict:
    """What the figures depend on: cores, processor, Python, and the load when the run began."""
    return {"machine": platform.machine(), "processor": platform.processor(),
            "cpus": os.cpu_count(), "python": platform.python_version(),
            "system": f"{platform.system()} {platform.release()}",
            "load_1min": round(os.getloadavg()[0], 2)}


def record(target: str, quick: bool) -> Path:
    argv = ["bench", target, *(["--quick"] if quick else []), "--json"]
    started = machine()
    done = subprocess.run([sys.executable, "-m", "cardsim", *argv], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode != 0:
        raise SystemExit(f"error: cardsim {' '.join(argv)} failed: {done.stderr.strip()[-500:]}")
    document = json.loads(done.stdout)
    rows = next(iter(document["tables"].values()))
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    entry = {"target": target, "command": "cardsim " + " ".join(argv[:-1]),
             "date": datetime.date.today().isoformat(),
             "commit": git("rev-parse", "HEAD") + ("+changes" if dirty else ""),
             "machine": started, "rows": rows}
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{entry['date']}-{target}.json"
    path.write_text(json.dumps(entry, indent=1) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    targets = [a for a in argv if a != "--quick"]
    unknown = [t for t in targets if t not in TARGETS]
    if not targets or unknown:
        print(f"usage: python benchmarks/record.py TARGET... [--quick]; targets: {', '.join(TARGETS)}",
              file=sys.stderr)
        return 2
    for target in targets:
        print(record(target, quick).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
