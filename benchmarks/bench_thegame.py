"""The Game speed: games per CPU second per strategy on one core, with ratios against the
plain-Python greedy run in the same process. Same rows as `cardsim bench thegame`.

Usage: nice python benchmarks/bench_thegame.py [--quick]
"""

from __future__ import annotations

import sys

from cardsim.sims.thegame.bench import main

if __name__ == "__main__":
    for row in main(quick="--quick" in sys.argv[1:]):
        print("  ".join(f"{key}={value}" for key, value in row.items()))
