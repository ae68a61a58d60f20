"""Distil the Cash'n Guns search player into the parametric strategy space: its decisions in
one seat at a table of the shipped win / -$5,000 mix (the other seats drawn from the mix),
then the parametric strategy that agrees with the most of them (decision by decision, on the
same views: ``cardsim.analysis.cashnguns.distill``), beside the agreement of the mix member the
search player plays itself in its rollouts (its base) and of every library member, and the
decisions where it leaves its base (``departures``) with the parametric strategy closest to it
on those alone.

Run from a checkout root: PYTHONPATH=$PWD python benchmarks/cashnguns_distill.py --players 4
  --games 400 --seed 4747 (prints one JSON document)
"""

from __future__ import annotations

import argparse
import json
import time

from cardsim.analysis.cashnguns.distill import DECISIONS, agreement, distill_log, policy_choice, prepare, search_log
from cardsim.analysis.cashnguns.libraries import load_libraries
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES, parse_strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=4747)
    parser.add_argument("--shame", type=int, default=-5000)
    args = parser.parse_args()
    wall, cpu = time.time(), time.process_time()
    log = search_log(args.players, args.games, seed=args.seed, shame_value=args.shame)
    log_wall, log_cpu = time.time() - wall, time.process_time() - cpu
    entry = load_libraries()[(args.players, "win", args.shame)]
    specs = {item["name"]: item["spec"] for item in entry["library"]}
    population = list(specs.values()) + [strategy.spec() for _, strategy in NAMED_STRATEGIES.values()]
    wall, cpu = time.time(), time.process_time()
    found, shares = distill_log(log, population, seed=args.players)
    decisions = [prepare(*item) for item in log]
    base = max(entry["equilibrium"], key=entry["equilibrium"].get)
    # where the search player leaves its base, and the parametric strategy closest to it there
    base_row = parse_strategy(specs[base]).param_row()
    departures = [item for item, d in zip(log, decisions) if policy_choice(base_row, d) != d.choice]
    departed, departed_shares = distill_log(departures, (), seed=args.players)
    print(
        json.dumps(
            {
                "players": args.players,
                "log_games": args.games,
                "log_seed": args.seed,
                "decisions": len(log),
                "spec": found.spec(),
                "describe": found.describe(),
                "agreement": shares,
                "base_member": base,
                "base_spec": specs[base],
                "base_agreement": agreement(parse_strategy(specs[base]), decisions),
                "members": {name: agreement(parse_strategy(spec), decisions)["all"] for name, spec in specs.items()},
                "departures": {
                    "decisions": len(departures),
                    "by_decision": {name: sum(1 for d, _, _ in departures if d == name) for name in DECISIONS},
                    "fit": departed.spec(),
                    "fit_agreement": {name: share["share"] for name, share in departed_shares.items()},
                },
                "log_wall_s": round(log_wall, 1),
                "log_cpu_s": round(log_cpu, 1),
                "distill_wall_s": round(time.time() - wall, 1),
                "distill_cpu_s": round(time.process_time() - cpu, 1),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
