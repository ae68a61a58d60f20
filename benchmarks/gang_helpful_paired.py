"""The Gang, the helpful-use target: the effect of each group-decided hand card (Hacker,
Jack, Jack under the "may discard" reading, Muscle) against no card, paired by deal.

Every configuration runs through the runner with the same seed, so chunk k of every card plays
the same deals and heist seeds as chunk k without a card; a declined card gives exactly the
no-card heist. The difference of the two success columns, heist by heist, gives the effect and
its 95% interval (mean +- 1.96 standard errors of the paired differences, in points). The
target holds where every upper bound is >= 0.

Usage: python benchmarks/gang_helpful_paired.py --players 3-6 --model history --n 20000
       [--specialist-round flop] [--boost bottom] [--cards hacker,jack,jack-discard,muscle]
       [--jobs 2] [--seed 0]
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from cardsim.sims.core.runner import run
from cardsim.sims.gang.simulator import SIMULATOR

CARDS = {
    "hacker": ("hacker", "stay"),
    "jack": ("jack", "stay"),
    "jack-discard": ("jack", "discard"),
    "muscle": ("muscle", "stay"),
}


def paired_rows(players: int, model: str, n: int, seed: int, jobs: int, cards: list[str], **reading) -> list[dict]:
    """One row per card: effect (points), 95% interval, share of heists it was played in."""

    def success(**fields) -> tuple[np.ndarray, np.ndarray]:
        config = SIMULATOR.make_config(players=players, model=model, **reading, **fields)
        rows = run(SIMULATOR, config, n=n, seed=seed, jobs=jobs).episodes
        return rows["success"].to_numpy().astype(float), rows["specialist_user"].to_numpy()

    base, _ = success()
    out = []
    for card, jack in (CARDS[name] for name in cards):
        with_card, user = success(specialist=card, jack=jack)
        diff = with_card - base
        mean = diff.mean()
        half = 1.96 * diff.std(ddof=1) / math.sqrt(n)
        out.append(
            {
                "players": players,
                "model": model,
                **reading,
                "card": card if jack == "stay" else "jack (may discard)",
                "n": n,
                "effect": round(100 * mean, 2),
                "lo": round(100 * (mean - half), 2),
                "hi": round(100 * (mean + half), 2),
                "played": round(float((user >= 0).mean()), 3),
                "won": int((diff > 0).sum()),
                "lost": int((diff < 0).sum()),
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="3-6")
    parser.add_argument("--model", default="history")
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--specialist-round", default="river")
    parser.add_argument("--boost", default="top")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cards", default=",".join(CARDS), help="of: " + ", ".join(CARDS))
    args = parser.parse_args()
    low, _, high = args.players.partition("-")
    for players in range(int(low), int(high or low) + 1):
        for row in paired_rows(
            players,
            args.model,
            args.n,
            args.seed,
            args.jobs,
            args.cards.split(","),
            specialist_round=args.specialist_round,
            boost=args.boost,
        ):
            print("  ".join(f"{key}={value}" for key, value in row.items()), flush=True)


if __name__ == "__main__":
    main()
