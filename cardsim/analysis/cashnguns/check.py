"""The outside check: a finished library's mix tried afresh by a best-response search drawn
from streams discover never uses, and its record with the shipped entry."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from cardsim.analysis.cashnguns.discover import library_name
from cardsim.analysis.cashnguns.libraries import cashnguns_fingerprint, write_libraries
from cardsim.analysis.cashnguns.search import (
    DEFAULT_LOCAL,
    DEFAULT_TOLERANCE,
    OUTSIDE_CHECK,
    CashNGunsArena,
    Reply,
    find_reply,
    measure_gain,
)
from cardsim.analysis.cashnguns.sweep import sweep_schedules
from cardsim.errors import UserError
from cardsim.sims.cashnguns.rng import STREAMS
from cardsim.sims.cashnguns.search import BUDGET_RANGE, DEFAULT_BUDGET, SearchStrategy
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.core.store import atomic_write_bytes

#: Fresh paired games that measure the search player's gain (it plays some thousand times
#: slower than a built-in, so fewer than the searches' ``validation_games``).
DEFAULT_ORACLE_GAMES = 4_000


@dataclass(frozen=True)
class OutsideCheck:
    """How a finished equilibrium is tried from outside (:func:`check_equilibrium`): one
    best-response search of ``budget`` candidates (``search_games`` games each in the first
    stage) against the equilibrium mix as shipped, and the reply's gain on
    ``validation_games`` fresh paired games, all drawn from ``seed``'s outside-check streams,
    which discover never draws from; plus ``local`` local-search candidates (discover/5's
    :func:`local_search_steps`: neighbours of the library's members, compound moves, then a
    hill-climb); with ``oracle_games``, the search player as a reply measured on that many
    fresh paired games with ``oracle_budget`` worlds per decision (:func:`oracle_reply`; 0: none,
    as the report's own check; the command's default is ``DEFAULT_ORACLE_GAMES``); and with
    ``sweep``, the schedule sweep as a second search
    (:func:`sweep.sweep_schedules`: every card order and the opponent reading on top of every
    mix member, ``search_games`` games each first, its reply measured on ``validation_games``
    fresh paired games of its own)."""

    budget: int = 200
    search_games: int = 1_000
    validation_games: int = 100_000
    seed: int = 0
    local: int = DEFAULT_LOCAL
    sweep: bool = True
    oracle_games: int = 0
    oracle_budget: int = DEFAULT_BUDGET

    def check(self) -> None:
        """One-line errors for settings out of range."""
        if self.oracle_games < 0:
            raise UserError(f"--oracle-games must be at least 0 (0: no oracle), got {self.oracle_games}")
        low, high = BUDGET_RANGE
        if not low <= self.oracle_budget <= high:
            raise UserError(f"--oracle-budget must be {low}-{high}, got {self.oracle_budget}")
        # the command-line option that sets each field (search_games has none)
        for name, option in (("budget", "--budget"), ("search_games", "search_games"), ("validation_games", "--n")):
            if getattr(self, name) < 1:
                raise UserError(f"{option} must be at least 1, got {getattr(self, name)}")
        if self.local < 0:
            raise UserError(f"--local must be at least 0, got {self.local}")


def check_equilibrium(entry: dict, check: OutsideCheck, *, jobs: int = 1, store: Path | None = None) -> dict:
    """Try a finished equilibrium from outside: a fresh best-response search (:func:`find_reply`,
    its candidates proposed from the library, the named strategies, random strategies and
    mutations) against the mix as it was reported, not re-solved, and the reply's gain over
    the mix on fresh paired games (every game measured, no quick first look), with the current
    code; with ``check.oracle_games`` the search player (:func:`oracle_reply`) is a third reply. ``entry``: a shipped library (:func:`load_libraries`) or any dict with players,
    metric, shame_value, library ([{name, spec}]) and equilibrium ({name: share}).

    With ``check.sweep`` the schedule sweep (:func:`sweep.sweep_schedules`) is a second
    search; the figures are those of the search with the highest 95% upper bound
    (:func:`checked_replies`).

    Returns ``{players, metric, shame_value, equilibrium, check, best_response,
    best_response_name, description, candidates, search_payoff, gain, exploitability_lo,
    exploitability_hi, validation_games, exploitability_from, significant, searches,
    code_fingerprint}``; stored in
    ``store``/cashnguns_check under a name that hashes the entry's library and mix, the
    settings and the code fingerprint, so a rerun with the same code reuses it."""
    import hashlib
    import json

    check.check()
    specs = [item["spec"] for item in entry["library"]]
    names = {item["spec"]: item["name"] for item in entry["library"]}
    by_name = {item["name"]: item["spec"] for item in entry["library"]}
    unknown = sorted(set(entry["equilibrium"]) - set(by_name))
    if unknown:
        raise UserError(f"check: the equilibrium names strategies not in the library: {', '.join(unknown)}")
    shares = np.array([entry["equilibrium"].get(names[spec], 0.0) for spec in specs], np.float64)
    if not (np.all(shares >= 0) and shares.sum() > 0):
        raise UserError("check: the equilibrium has no positive share")
    mix = shares / shares.sum()
    fingerprint = cashnguns_fingerprint()
    key = json.dumps(
        [entry["players"], entry["metric"], entry["shame_value"], specs, mix.tolist(), asdict(check), fingerprint],
        sort_keys=True,
    )
    path = None
    if store is not None:
        path = Path(store) / "cashnguns_check" / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.json"
        if path.exists():
            try:
                return json.loads(path.read_text())
            except (OSError, ValueError):
                pass  # unreadable: computed again and rewritten
    arena = CashNGunsArena(entry["players"], entry["metric"], entry["shame_value"], jobs)
    library = [parse_strategy(spec) for spec in specs]
    replies = [
        (
            "search",
            find_reply(
                arena,
                library,
                mix,
                library,
                budget=check.budget,
                search_games=check.search_games,
                validation_games=check.validation_games,
                root=check.seed,
                key=0,
                streams=(OUTSIDE_CHECK,),
                quick=False,
                local=check.local,
            ),
        )
    ]
    if check.sweep:
        replies.append(
            (
                "schedule sweep",
                sweep_schedules(
                    arena,
                    library,
                    mix,
                    games=check.search_games,
                    validation_games=check.validation_games,
                    root=check.seed,
                    key=0,
                    streams=(OUTSIDE_CHECK, SWEEP_STREAM),
                ),
            )
        )
    if check.oracle_games:
        replies.append(("search player", oracle_reply(arena, specs, library, mix, check)))
    result = {
        "players": entry["players"],
        "metric": entry["metric"],
        "shame_value": entry["shame_value"],
        "equilibrium": {names[spec]: float(share) for spec, share in zip(specs, mix) if share > 0},
        "check": asdict(check),
        "code_fingerprint": fingerprint,
        **checked_replies(replies, names),
    }
    if path is not None:
        atomic_write_bytes(path, json.dumps(result).encode())
    return result


#: The spawn key under ``OUTSIDE_CHECK`` of the schedule sweep's streams.
SWEEP_STREAM = 1
#: ... and of the search player's (the oracle's).
ORACLE_STREAM = 2


def oracle_reply(arena: CashNGunsArena, specs: list[str], library: list, mix: np.ndarray, check: OutsideCheck) -> Reply:
    """The search player (:mod:`cardsim.sims.cashnguns.search`) as a reply to the mix: it reads
    each opponent with the checked mix's members (their shares its prior) and the presets, plans
    by rollouts under the check's metric with ``check.oracle_budget`` worlds per decision, and
    its gain over the mix is measured on ``check.oracle_games`` fresh paired games of its own
    streams (nothing is selected on them)."""
    members = tuple((spec, float(share)) for spec, share in zip(specs, mix) if share > 0)
    player = SearchStrategy(budget=check.oracle_budget, metric=arena.metric, population="presets", members=members)
    gain, low, high = measure_gain(
        arena, library, mix, player, check.oracle_games, check.seed, 0, 0, streams=(OUTSIDE_CHECK, ORACLE_STREAM)
    )
    return Reply(player, math.nan, gain, low, high, check.oracle_games, 1)


def checked_replies(replies: list[tuple[str, Reply]], names: dict[str, str]) -> dict:
    """The fields of a check from its searches' replies: each search's record (``searches``,
    with ``search`` naming it), the best response, gain and 95% interval of the search whose
    upper bound is highest (``exploitability_from`` names it), ``candidates`` over all
    searches, and ``significant``: whether any search's whole interval lies above zero."""
    records = []
    for label, reply in replies:
        name = names.get(reply.spec) or (
            "search" if reply.spec.startswith("search") else library_name(reply.strategy, names)
        )
        records.append(
            {"search": label, **reply.record({**names, reply.spec: name}), "search_payoff": reply.search_payoff}
        )
    worst = max(records, key=lambda record: record["exploitability_hi"])
    return {
        **{key: value for key, value in worst.items() if key != "search"},
        "exploitability_from": worst["search"],
        "candidates": sum(record["candidates"] for record in records),
        "significant": any(record["exploitability_lo"] > 0 for record in records),
        "searches": records,
    }


def record_outside_check(path: Path, result: dict, command: str) -> dict:
    """Record an outside check (:func:`check_equilibrium`'s ``result``) with its reading's entry
    in the libraries file at ``path``, in ``outside_checks`` (command, gain, 95% interval, reply,
    games; a record with the same command is replaced), so that the report gives the highest
    recorded bound (:func:`outside_figures`). A check whose whole 95% interval lies above the
    tolerance refutes the mix (``refuted``, the highest such record kept; the entry is then not
    converged). A check with the schedule sweep replaces the ``beyond_space`` replies it
    reproduces (gain within its 95% upper bound). The file is rewritten atomically; a check of
    another mix than the entry's (the file changed since) is an error. Returns the entry."""
    import json

    shipped = json.loads(Path(path).read_text(encoding="utf-8"))
    key = (result["players"], result["metric"], result["shame_value"])
    entry = next(
        (e for e in shipped["readings"] if (e["players"], e["metric"], e["shame_value"]) == key), {"equilibrium": {}}
    )
    shares = {name: share for name, share in entry["equilibrium"].items() if share > 0}
    total = sum(shares.values())
    if set(shares) != set(result["equilibrium"]) or any(
        not math.isclose(share / total, result["equilibrium"][name], abs_tol=1e-12) for name, share in shares.items()
    ):
        raise UserError(f"check: the library in {path} changed during the check; nothing recorded")
    record = {
        "command": command,
        "gain": result["gain"],
        "interval": [result["exploitability_lo"], result["exploitability_hi"]],
        "reply": result["best_response"],
        "description": result["description"],
        "found_by": result.get("exploitability_from", "search"),
        "games": result["validation_games"],
        "random_streams": STREAMS,
    }
    tolerance = DEFAULT_TOLERANCE[result["metric"]]
    refuted = entry.get("refuted")
    if record["interval"][0] > tolerance:  # the whole interval above the tolerance: the mix is beaten
        if not refuted or refuted["command"] == command or refuted["interval"][1] < record["interval"][1]:
            entry["refuted"] = record
    elif refuted and refuted["command"] == command:
        del entry["refuted"]
    if record["interval"][0] <= tolerance or entry.get("refuted") is not record:
        entry["outside_checks"] = [r for r in entry.get("outside_checks", []) if r["command"] != command] + [record]
    if result.get("check", {}).get("sweep") and entry.get("beyond_space"):
        # the sweep searches the replies recorded from outside the old space: those it reproduces
        # (their gain within this check's 95% upper bound) are replaced by this record
        kept = [reply for reply in entry["beyond_space"] if reply["gain"] > record["interval"][1]]
        if kept:
            entry["beyond_space"] = kept
        else:
            del entry["beyond_space"]
    write_libraries(Path(path), shipped)
    return entry


def check_command_line(players: int, metric: str, shame_value: int, check: OutsideCheck) -> str:
    """The command that runs one outside check of a shipped library."""
    return (
        f"cardsim cashnguns check --players {players} --metric {metric} --shame {shame_value} "
        f"--budget {check.budget} --n {check.validation_games} --seed {check.seed}"
        + (f" --local {check.local}" if check.local != DEFAULT_LOCAL else "")
        + (f" --oracle-games {check.oracle_games}" if check.oracle_games != DEFAULT_ORACLE_GAMES else "")
        + (
            f" --oracle-budget {check.oracle_budget}"
            if check.oracle_games and check.oracle_budget != DEFAULT_BUDGET
            else ""
        )
        + ("" if check.sweep else " --no-sweep")
    )
