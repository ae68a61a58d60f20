"""Ship a re-discovered Cash'n Guns mix that started from a distilled search player, and record
its exploitability measured three ways.

``ship``: the discover record (any number of rounds: a run cut short is shipped as "stopped at
N rounds without converging") becomes its reading's entry of the shipped libraries file
(``library_entry``, as ``cardsim cashnguns libraries --record`` writes it), with ``start``
saying how the run started (the report shows it beside the method) and ``distilled``: the distilled start member, its agreement
with the search player's decisions and the command that distilled it
(``benchmarks/cashnguns_distill.py``'s JSON).

``check``: an outside check of the entry (``cardsim cashnguns check``, through the API, so that
every search's record is kept: JSON on stdout). ``measures``: the entry gets ``exploitability_three_ways``: each search of an outside check
(``cardsim cashnguns check --json``: the parameter search, the schedule sweep and the search
player), and each recorded outside reply measured as ``check --strategy FILE.py:NAME`` does
(``reply``: paired against the shipped mix), which also joins ``beyond_space`` (a reply from outside the searched space).

Run from a checkout root: PYTHONPATH=$PWD python benchmarks/cashnguns_rediscover.py ship
  --record results/cashnguns_discover/4p_....json --distilled distill_4.json
"""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path

from cardsim.analysis.cashnguns.discover import settings_from_key
from cardsim.analysis.cashnguns.libraries import library_entry, write_libraries
from cardsim.sims.cashnguns import SHIPPED_LIBRARIES
from cardsim.sims.cashnguns.rng import STREAMS


def _entry_index(shipped: dict, players: int, metric: str, shame_value: int) -> int:
    for index, entry in enumerate(shipped["readings"]):
        if (entry["players"], entry["metric"], entry["shame_value"]) == (players, metric, shame_value):
            return index
    raise SystemExit(f"no entry for {players} players, {metric}, shame {shame_value}")


def ship(record: Path, distilled_path: Path, path: Path) -> dict:
    document = json.loads(record.read_text())
    settings = settings_from_key(document["settings"])
    stamp = datetime.datetime.fromtimestamp(record.stat().st_mtime, datetime.timezone.utc)
    entry = library_entry(document, settings, stamp.isoformat(timespec="seconds"))
    distilled = json.loads(distilled_path.read_text())
    share = distilled["agreement"]["all"]
    entry["start"] = (
        "started from the shipped library of the reading and the search player "
        f"distilled into the parametric space (the strategy that makes the search player's choice on the "
        f"most of its {share['of']:,} logged decisions in {distilled['log_games']} games at a table of the "
        f"shipped mix: {100 * share['share']:.1f}%), run for {len(document['rounds'])} rounds"
    )
    entry["distilled"] = {
        "spec": distilled["spec"],
        "agreement": distilled["agreement"],
        "base_member": distilled["base_member"],
        "base_agreement": distilled["base_agreement"],
        "command": (
            f"PYTHONPATH=$PWD python benchmarks/cashnguns_distill.py --players {settings.players} "
            f"--games {distilled['log_games']} --seed {distilled['log_seed']}"
        ),
    }
    shipped = json.loads(path.read_text())
    index = _entry_index(shipped, settings.players, settings.metric, settings.shame_value)
    shipped["readings"][index] = entry
    write_libraries(path, shipped)
    return entry


def measures(players: int, check_path: Path, replies: list[tuple[str, Path]], path: Path) -> dict:
    """``replies``: (FILE.py:NAME, its ``reply`` output)."""
    shipped = json.loads(path.read_text())
    index = _entry_index(shipped, players, "win", -5000)
    entry = shipped["readings"][index]
    check = json.loads(check_path.read_text())
    ways: dict = {"check_command": check["command"], "searches": []}
    for search in check["searches"]:
        ways["searches"].append(
            {
                "search": search["search"],
                "reply": search["best_response"],
                "gain": search["gain"],
                "interval": [search["exploitability_lo"], search["exploitability_hi"]],
                "games": search["validation_games"],
                "random_streams": STREAMS,
            }
        )
    ways["outside_replies"] = []
    for strategy, output in replies:
        row = json.loads(output.read_text())
        record = {
            "reply": strategy,
            "gain": row["gain"],
            "interval": row["interval"],
            "games": row["games"],
            "source": f"{row['command']} (per-decision time limit {row['time_limit_s']:g} s)",
            "random_streams": STREAMS,
        }
        ways["outside_replies"].append(record)
        kept = [r for r in entry.get("beyond_space", []) if strategy not in r["reply"]]
        entry["beyond_space"] = kept + [{**record, "reply": f"a recorded outside reply ({strategy})"}]
    entry["exploitability_three_ways"] = ways
    write_libraries(path, shipped)
    return entry


def run_check(players: int, seed: int, games: int, oracle_games: int, jobs: int, path: Path, record: bool) -> dict:
    """One outside check of the reading's entry through the API (every search's record kept,
    which the command's table leaves out), with the command line that reruns it."""
    from cardsim.analysis.cashnguns import OutsideCheck, check_command_line
    from cardsim.api import cashnguns

    results = cashnguns.check(
        players,
        "win",
        -5000,
        games=games,
        seed=seed,
        libraries=path,
        record=record,
        jobs=jobs,
        oracle_games=oracle_games,
    )
    check = OutsideCheck(validation_games=games, seed=seed, oracle_games=oracle_games)
    command = check_command_line(players, "win", -5000, check) + (" --record" if record else "")
    return {"command": command, **results[0]}


def run_reply(strategy: str, players: int, n: int, seed: int, time_limit: float) -> dict:
    """``cardsim cashnguns check --strategy`` (the API's ``evaluate`` against the shipped mix,
    paired) with another per-decision time limit than the default: a slow planning reply on a
    loaded host may pass it; the games and figures do not depend on it."""
    from cardsim.api import cashnguns
    from cardsim.sims.core import isolation

    isolation.isolated_strategy.__defaults__ = (float(time_limit), True)
    result = cashnguns.evaluate(strategy, players=players, n=n, against="mix", metric="win", shame=-5000, seed=seed)
    found = result.manifest["details"]
    command = (
        f"cardsim cashnguns check --players {players} --metric win --shame -5000 --strategy {strategy} "
        f"--n {n} --seed {seed}"
    )
    difference = found["difference"]
    return {
        "command": command,
        "time_limit_s": time_limit,
        "players": players,
        "games": found["n"],
        "gain": difference["value"],
        "interval": [difference["lo"], difference["hi"]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("ship")
    one.add_argument("--record", type=Path, required=True)
    one.add_argument("--distilled", type=Path, required=True)
    one.add_argument("--libraries", type=Path, default=SHIPPED_LIBRARIES)
    two = sub.add_parser("measures")
    two.add_argument("--players", type=int, required=True)
    two.add_argument("--check", type=Path, required=True, help="check --json output")
    two.add_argument("--reply", nargs=2, action="append", default=[], metavar=("FILE:NAME", "JSON"))
    two.add_argument("--libraries", type=Path, default=SHIPPED_LIBRARIES)
    three = sub.add_parser("check")
    three.add_argument("--players", type=int, required=True)
    three.add_argument("--seed", type=int, required=True)
    three.add_argument("--n", type=int, default=100_000)
    three.add_argument("--oracle-games", type=int, default=4_000)
    three.add_argument("--jobs", type=int, default=2)
    three.add_argument("--record", action="store_true")
    three.add_argument("--libraries", type=Path, default=SHIPPED_LIBRARIES)
    four = sub.add_parser("reply")
    four.add_argument("--strategy", required=True)
    four.add_argument("--players", type=int, required=True)
    four.add_argument("--n", type=int, required=True)
    four.add_argument("--seed", type=int, required=True)
    four.add_argument("--time-limit", type=float, default=30.0)
    args = parser.parse_args()
    if args.what == "reply":
        print(json.dumps(run_reply(args.strategy, args.players, args.n, args.seed, args.time_limit), indent=1))
        return
    if args.what == "check":
        found = run_check(args.players, args.seed, args.n, args.oracle_games, args.jobs, args.libraries, args.record)
        print(json.dumps(found, indent=1, default=str))
        return
    if args.what == "ship":
        entry = ship(args.record, args.distilled, args.libraries)
    else:
        replies = [(name, Path(output)) for name, output in args.reply]
        entry = measures(args.players, args.check, replies, args.libraries)
    print(json.dumps({k: v for k, v in entry.items() if k not in ("settings",)}, indent=1))


if __name__ == "__main__":
    main()
