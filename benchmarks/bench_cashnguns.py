"""Cash'n Guns speed: games per second for 5 players on one core, with ratios against the
plain-Python reference engine. Same as `cardsim bench cashnguns`.

Usage: nice python benchmarks/bench_cashnguns.py [--quick]
"""

from __future__ import annotations

import sys

from cardsim.sims.cashnguns.bench import main

if __name__ == "__main__":
    for row in main(quick="--quick" in sys.argv[1:]):
        print("  ".join(f"{key}={value}" for key, value in row.items()))
