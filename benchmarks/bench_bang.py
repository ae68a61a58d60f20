"""Bang! speed: games per second on one core (target >= 2,000 for 7 players with `role` bots),
with ratios against the same rules interpreted by Python. Same rows as `cardsim bench bang`.

Usage: nice python benchmarks/bench_bang.py [--quick]
"""

from __future__ import annotations

import sys

from cardsim.sims.bang.bench import main

if __name__ == "__main__":
    for row in main(quick="--quick" in sys.argv[1:]):
        print("  ".join(f"{key}={value}" for key, value in row.items()))
