"""Poker evaluator benchmark: same rows as `cardsim bench poker` (run: python benchmarks/bench_poker.py [--quick])."""

from __future__ import annotations

import sys

from cardsim.sims.poker.bench import main

if __name__ == "__main__":
    for row in main(quick="--quick" in sys.argv[1:]):
        print(row)
