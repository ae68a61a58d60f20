"""discover: a double-oracle / PSRO loop over the Cash'n Guns strategy space, stored round by
round so a run resumes where it stopped (its settings and records: :mod:`.discover`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from cardsim.analysis.cashnguns.discover import (
    DiscoverSettings,
    discover_path,
    library_name,
    settings_key,
    table_parts,
)
from cardsim.analysis.cashnguns.libraries import load_libraries
from cardsim.analysis.cashnguns.search import (
    STOP_CHECK,
    SWEEP_CHECK,
    CashNGunsArena,
    ProfileTable,
    fill_table,
    find_reply,
    keyed_seeds,
)
from cardsim.analysis.cashnguns.sweep import sweep_schedules
from cardsim.analysis.equilibrium import symmetric_equilibrium
from cardsim.errors import UserError
from cardsim.sims.cashnguns.strategies import NAMED_STRATEGIES, parse_strategy
from cardsim.sims.core.store import atomic_write_bytes


def discover(
    settings: DiscoverSettings,
    *,
    jobs: int = 1,
    store: Path | None = None,
    on_round: Callable[[dict], None] | None = None,
) -> dict:
    """The PSRO loop: solve the library's symmetric equilibrium, search the strategy space for
    a best response to it, add the response when its gain is significant (95% low bound > 0),
    repeat. Beyond ``library_cap`` strategies leave the library, negligible shares (below
    ``prune_share``) first, then the smallest (:func:`next_library`);
    every strategy ever in a library or chosen as a round's best reply (named ``dN`` when new)
    stays a candidate of every later search, and one that comes back is flagged ``returned``.
    Every round also runs ``stop_checks`` independent searches (:class:`DiscoverSettings`);
    the run converges when no search gains significantly and every bound is within the
    tolerance. The run reports the equilibrium of
    :func:`reported_round`. Each round is stored in ``store`` as soon as it ends; a run with
    the same settings resumes after its last stored round. Returns the whole document."""
    settings.check()
    arena = CashNGunsArena(settings.players, settings.metric, settings.shame_value, jobs)
    path = discover_path(store, settings) if store is not None else None
    document = _load_discover(path, settings)
    table = ProfileTable.from_json(settings.players, document.pop("table_rows", []))
    for done in document["rounds"]:
        if on_round is not None:
            on_round(done)
    dropped: list[str] = document.setdefault("dropped", [])  # every spec ever pruned, in order
    while len(document["rounds"]) < settings.rounds and not document["converged"]:
        index = len(document["rounds"])
        library: list[str] = list(document["library"])
        names: dict[str, str] = document["names"]
        strategies = [parse_strategy(spec) for spec in library]
        previous = document["rounds"][-1]["equilibrium_specs"] if index else {}
        mix = np.array([previous.get(spec, 0.0) for spec in library]) if previous else np.ones(len(library))
        mix = mix / mix.sum()
        for part, games in enumerate(table_parts(settings.table_games, settings.table_passes)):
            if part == 0:  # new profiles first get profile_min games
                seeds = keyed_seeds(settings.seed, index, 1, size=settings.profile_min + games)
            else:
                seeds = keyed_seeds(settings.seed, index, 2 if part == 1 else 30 + part, size=settings.table_games)
            fill_table(arena, table, library, mix, games, settings.profile_min if part == 0 else 0, seeds)
            equilibrium = symmetric_equilibrium(table.game(library, settings.metric), seed=settings.seed)
            mix = equilibrium.mix
        archive = [parse_strategy(spec) for spec in names]
        search = dict(
            budget=settings.budget,
            search_games=settings.search_games,
            validation_games=settings.validation_games,
            root=settings.seed,
            key=index,
            local=settings.local,
        )
        main = find_reply(arena, strategies, mix, archive, **search)
        replies = [main] + [
            find_reply(arena, strategies, mix, archive, **search, streams=(STOP_CHECK, check))
            for check in range(settings.stop_checks)
        ]
        if settings.sweep:
            replies.append(
                sweep_schedules(
                    arena,
                    strategies,
                    mix,
                    games=settings.search_games,
                    validation_games=settings.validation_games,
                    root=settings.seed,
                    key=index,
                    streams=(SWEEP_CHECK,),
                )
            )
        worst = max(replies, key=lambda reply: reply.high)
        for reply in replies:
            if reply.spec not in names:
                names[reply.spec] = library_name(reply.strategy, names)
        converged = all(reply.low <= 0 and reply.high <= settings.stop_tolerance() for reply in replies)
        new = sorted(
            (reply for reply in replies if reply.spec not in library and reply.gain > 0),
            key=lambda reply: (reply.low > 0, reply.gain),
            reverse=True,
        )
        if any(reply.low > 0 for reply in replies):  # the best significant new reply, if any
            chosen = [reply for reply in new if reply.low > 0][:1]
        else:  # nothing significant: the likeliest gain unless every bound is within the tolerance
            chosen = [] if converged else new[:1]
        spec = main.spec
        record = {
            "round": index + 1,
            "library": [names[s] for s in library],
            "equilibrium": {names[s]: float(share) for s, share in zip(library, mix) if share > 0},
            "equilibrium_specs": {s: float(share) for s, share in zip(library, mix) if share > 0},
            "table_regret": equilibrium.regret,
            "value": equilibrium.value,
            "best_response": spec,
            "best_response_name": names[spec],
            "description": main.strategy.describe(),
            "candidates": settings.budget + settings.local,
            "search_payoff": main.search_payoff,
            "search": main.record(names),
            "stop_checks": [reply.record(names) for reply in replies[1 : 1 + settings.stop_checks]],
            "sweep": replies[-1].record(names) if settings.sweep else None,
            "converged": converged,
            "exploitability": max(worst.gain, 0.0),
            "gain": worst.gain,
            "exploitability_lo": worst.low,
            "exploitability_hi": worst.high,
            "validation_games": worst.games,
            "exploitability_from": (
                "discover's search"
                if worst is main
                else "the schedule sweep"
                if settings.sweep and worst is replies[-1]
                else "an independent stop check"
            ),
            "added": [
                {
                    "name": names[reply.spec],
                    "spec": reply.spec,
                    "description": reply.strategy.describe(),
                    "returned": reply.spec in dropped,
                }
                for reply in chosen
            ],
        }
        document["library"] = next_library(
            library,
            record["equilibrium_specs"],
            [reply.spec for reply in chosen],
            settings.library_cap,
            settings.prune_share,
        )
        record["pruned"] = [
            {"name": names[s], "share": record["equilibrium_specs"].get(s, 0.0)}
            for s in library
            if s not in document["library"]
        ]
        dropped.extend(s for s in library if s not in document["library"] and s not in dropped)
        document["rounds"].append(record)
        document["converged"] = converged
        if path is not None:
            _save_discover(path, document, table)
        if on_round is not None:
            on_round(record)
    return document


def next_library(
    library: list[str], shares: dict[str, float], added: list[str], cap: int, prune_share: float = 0.0
) -> list[str]:
    """The next round's library: the library plus the added strategies; while that exceeds
    ``cap``, a strategy of the old library leaves (never an added one): the oldest whose share
    in the equilibrium ``shares`` is under ``prune_share`` (or zero), else the one with the
    smallest share (the oldest of equals)."""

    def share(spec: str) -> float:
        return shares.get(spec, 0.0)

    kept = [spec for spec in library if spec not in added]
    while kept and len(kept) + len(added) > cap:
        negligible = [spec for spec in kept if share(spec) < prune_share or share(spec) == 0.0]
        kept.remove(negligible[0] if negligible else min(kept, key=share))
    return kept + list(added)


def start_names(settings: DiscoverSettings) -> dict[str, str]:
    """{spec: name} of the starting library: a named strategy's name, the name a spec has in the
    shipped library of the same reading (so a run that continues it keeps d32 as d32), else
    ``dN`` numbered on from those (:func:`~cardsim.analysis.cashnguns.discover.library_name`)."""
    try:
        shipped = load_libraries().get((settings.players, settings.metric, settings.shame_value))
    except UserError:
        shipped = None
    known = {item["spec"]: item["name"] for item in (shipped or {}).get("library", [])}
    names: dict[str, str] = {}
    for given in settings.start:
        spec = parse_strategy(given).spec()
        names[spec] = given if given in NAMED_STRATEGIES else known.get(spec) or ""
    for spec, name in names.items():
        if not name:
            names[spec] = library_name(parse_strategy(spec), {**known, **{s: n for s, n in names.items() if n}})
    return names


def _load_discover(path: Path | None, settings: DiscoverSettings) -> dict:
    names = start_names(settings)
    fresh = {
        "settings": settings_key(settings),
        "rounds": [],
        "converged": False,
        "library": list(names),
        "names": names,
    }
    if path is None or not path.exists():
        return fresh
    import json

    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError):
        raise UserError(f"discover: {path} is not a readable discover record; move it away to start over") from None
    if stored.get("settings") != fresh["settings"]:
        return fresh
    return stored


def _save_discover(path: Path, document: dict, table: ProfileTable) -> None:
    import json

    atomic_write_bytes(path, json.dumps({**document, "table_rows": table.to_json()}).encode())
