"""The Gang, the helpful-use target on fresh seeds: the paired-by-deal effect of one
group-decided card against no card, pooled over blocks of heists with consecutive seeds (the
pairing of ``gang_use_rates.py``: in each block the card's run and the no-card run share the
seed, so the same deals and heist seeds; the outside review's 200-heist blocks).

Usage: PYTHONPATH=$PWD python benchmarks/gang_helpful_blocks.py --players 3 --model bayes
       --round flop --card muscle --first-seed 960001 --blocks 20 --block 200 [--always]
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from cardsim.sims.core.runner import run
from cardsim.sims.gang.simulator import SIMULATOR


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--model", default="bayes")
    parser.add_argument("--round", default="flop")
    parser.add_argument("--boost", default="top")
    parser.add_argument("--card", default="muscle")
    parser.add_argument("--jack", default="stay")
    parser.add_argument("--first-seed", type=int, default=960001)
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--block", type=int, default=200)
    parser.add_argument("--always", action="store_true", help="also the always column")
    args = parser.parse_args()
    common = dict(players=args.players, model=args.model, specialist_round=args.round, boost=args.boost)
    uses = ["helpful"] + (["always"] if args.always else [])
    diffs: dict[str, list] = {use: [] for use in uses}
    played: list = []
    for seed in range(args.first_seed, args.first_seed + args.blocks):

        def success(**fields):
            config = SIMULATOR.make_config(**common, **fields)
            return run(SIMULATOR, config, n=args.block, seed=seed, jobs=1).episodes  # noqa: B023 - called in this iteration

        base = success()["success"].to_numpy().astype(float)
        for use in uses:
            rows = success(specialist=args.card, jack=args.jack, specialist_use=use)
            diffs[use].append(rows["success"].to_numpy().astype(float) - base)
            if use == "helpful":
                played.append(rows["specialist_user"].to_numpy() >= 0)
    for use in uses:
        diff = np.concatenate(diffs[use])
        mean = diff.mean()
        half = 1.96 * diff.std(ddof=1) / math.sqrt(diff.size)
        extra = ""
        if use == "helpful":
            extra = f"  played={np.concatenate(played).mean():.3f}"
        print(
            f"{common} card={args.card} seeds={args.first_seed}..{seed} n={diff.size} "
            f"{use}: effect={100 * mean:+.2f} ({100 * (mean - half):+.2f}..{100 * (mean + half):+.2f})"
            f"{extra}  won={int((diff > 0).sum())}  lost={int((diff < 0).sum())}",
            flush=True,
        )


if __name__ == "__main__":
    main()
