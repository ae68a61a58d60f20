"""The outside review of the helpful estimate: per group-decided specialist, the share of heists in which
the group plays it under --specialist-use helpful, and the paired-by-deal effect (points, 95%
interval) under helpful and always, against no card on the same deals (same seed).
Also counts heists where helpful declined but the outcome differs from no card (must be 0).

Run from a checkout root: PYTHONPATH=$PWD python benchmarks/gang_use_rates.py --players 4
  --model bayes --round river --boost top --n 4000 --seed 20261201
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from cardsim.sims.core.runner import run
from cardsim.sims.gang.simulator import SIMULATOR

CARDS = {
    "informant": ("informant", "stay"),
    "getaway-driver": ("getaway-driver", "stay"),
    "mastermind": ("mastermind", "stay"),
    "hacker": ("hacker", "stay"),
    "jack": ("jack", "stay"),
    "jack-discard": ("jack", "discard"),
    "muscle": ("muscle", "stay"),
}


def effect(diff: np.ndarray) -> str:
    """Mean paired difference in points with its normal 95% interval."""
    mean = diff.mean()
    half = 1.96 * diff.std(ddof=1) / math.sqrt(diff.size)
    return f"{100 * mean:+.2f} [{100 * (mean - half):+.2f},{100 * (mean + half):+.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--model", default="bayes")
    parser.add_argument("--round", default="river")
    parser.add_argument("--boost", default="top")
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cards", default=",".join(CARDS))
    parser.add_argument("--uses", default="helpful,always")
    args = parser.parse_args()
    common = dict(players=args.players, model=args.model, specialist_round=args.round, boost=args.boost)

    def rows(**fields):
        config = SIMULATOR.make_config(**common, **fields)
        return run(SIMULATOR, config, n=args.n, seed=args.seed, jobs=args.jobs).episodes

    base = rows()["success"].to_numpy().astype(float)
    print(f"# {common} n={args.n} seed={args.seed} base={base.mean():.4f}", flush=True)
    for name in args.cards.split(","):
        card, jack = CARDS[name]
        out = [f"{name:15s}"]
        for use in args.uses.split(","):
            episodes = rows(specialist=card, jack=jack, specialist_use=use)
            success = episodes["success"].to_numpy().astype(float)
            played = episodes["specialist_user"].to_numpy() >= 0
            diff = success - base
            declined_but_differs = int(((~played) & (diff != 0)).sum())
            out.append(f"{use}: use={played.mean():.3f} eff={effect(diff)} declined&differs={declined_but_differs}")
        print("  ".join(out), flush=True)


if __name__ == "__main__":
    main()
