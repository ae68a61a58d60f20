"""The Cash'n Guns search player against each member of the shipped win mix, in its seat: for
every member with a share, ``--games`` deals with slot 0 played by the search player and the
same deals with slot 0 played by the member, the other slots drawn from the mix by its shares;
the paired difference of slot 0's win (a tie counts as a win for each tied player) with its
95% normal interval over deals.

Run from a checkout root: PYTHONPATH=$PWD python benchmarks/cashnguns_search_members.py
  --players 5 --games 600 --seed 4799 (prints one JSON line per member)
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from cardsim.analysis.cashnguns.libraries import load_libraries
from cardsim.sims.cashnguns.search import play_search_lineups
from cardsim.sims.cashnguns.strategies import parse_strategy

Z95 = 1.959964


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=4799)
    parser.add_argument("--shame", type=int, default=-5000)
    parser.add_argument("--spec", default="search")
    args = parser.parse_args()
    entry = load_libraries()[(args.players, "win", args.shame)]
    members = [(m["name"], m["spec"], entry["equilibrium"].get(m["name"], 0.0)) for m in entry["library"]]
    members = [member for member in members if member[2] > 0]
    rows = np.array(
        [parse_strategy(args.spec).param_row()] + [parse_strategy(spec).param_row() for _, spec, _ in members]
    )
    shares = np.array([share for _, _, share in members])
    shares /= shares.sum()
    for k, (name, _, share) in enumerate(members):
        rng = np.random.default_rng(np.random.SeedSequence([args.seed, args.players, k]))
        seeds = rng.integers(0, np.iinfo(np.int64).max, size=args.games, dtype=np.int64).astype(np.uint64)
        lineups = np.zeros((args.games, args.players), np.int64)
        lineups[:, 1:] = 1 + rng.choice(len(members), size=(args.games, args.players - 1), p=shares)
        searched = play_search_lineups(seeds, lineups, rows, args.shame)[4][:, 0].astype(float)
        lineups[:, 0] = 1 + k
        member = play_search_lineups(seeds, lineups, rows, args.shame)[4][:, 0].astype(float)
        diff = searched - member
        half = Z95 * diff.std(ddof=1) / np.sqrt(args.games)
        row = {
            "players": args.players,
            "member": name,
            "share": round(share, 4),
            "n": args.games,
            "seed": args.seed,
            "search_win": round(float(searched.mean()), 5),
            "member_win": round(float(member.mean()), 5),
            "diff": round(float(diff.mean()), 5),
            "diff_lo": round(float(diff.mean() - half), 5),
            "diff_hi": round(float(diff.mean() + half), 5),
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
