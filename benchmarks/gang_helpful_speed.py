"""The Gang's helpful-use estimate (``--specialist-use helpful``): CPU seconds and a rows hash of
one 2,000-heist chunk per configuration (Hacker, Jack, Muscle on the river and the flop, for
history at 4 players and bayes at 3), after a warm-up chunk, so that two versions of the code
can be compared in alternation (``PYTHONPATH`` pointing at a checkout of the other version,
each with its own ``NUMBA_CACHE_DIR``) and shown to give the same rows.

Usage: PYTHONPATH=$PWD python benchmarks/gang_helpful_speed.py [--models history,bayes]
"""

from __future__ import annotations

import argparse
import time

from cardsim.sims.core.runner import run
from cardsim.sims.gang.simulator import SIMULATOR

PLAYERS = {"percentile": 5, "history": 4, "bayes": 3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="history,bayes")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    models = args.models.split(",")
    run(SIMULATOR, SIMULATOR.make_config(players=3, model=models[0], specialist="jack"), n=1, seed=args.seed + 1)
    total = 0.0
    for model in models:
        for card in ("hacker", "jack", "muscle"):
            for timing in ("river", "flop"):
                config = SIMULATOR.make_config(
                    players=PLAYERS[model], model=model, specialist=card, specialist_round=timing
                )
                started = time.process_time()
                rows = run(SIMULATOR, config, n=SIMULATOR.chunk_size, seed=args.seed).episodes
                seconds = time.process_time() - started
                total += seconds
                print(
                    f"{model:10s} {card:7s} {timing:6s} {rows.height:6,d} heists "
                    f"{seconds:7.2f} CPU-s  rows {rows.hash_rows().sum():>20d}",
                    flush=True,
                )
    print(f"total {total:.2f} CPU-s")


if __name__ == "__main__":
    main()
