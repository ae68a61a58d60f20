"""The Gang speed: heists per second on one core for 4 players and all four rounds (targets:
history >= 20,000/s, bayes >= 1,000/s), the ratio against a naive per-player enumeration
that plays the same heists, and the runner's time for 1M history heists on 2 cores (< 60 s).
Same rows as `cardsim bench gang`.

Usage: nice python benchmarks/bench_gang.py [--quick]
"""

from __future__ import annotations

import sys

from cardsim.sims.gang.bench import main

if __name__ == "__main__":
    for row in main(quick="--quick" in sys.argv[1:]):
        print("  ".join(f"{key}={value}" for key, value in row.items()))
