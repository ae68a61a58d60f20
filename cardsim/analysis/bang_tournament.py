"""Bang! tournaments: built-in bots per role, every assignment of the entrants to the roles on
the same deals, and how each side's chances move with the population.

Bang! is not symmetric: a bot plays a role (Sheriff, Deputy, Outlaw, Renegade) and its side
wins or loses. A tournament plays every *assignment* (one entrant per role the table size
holds; the seats of one role share its entrant) for ``n`` games each, every assignment on the
same deals (the runner's chunk seeds; deals and play come from separate streams). Per entrant
and role: the games its side won when it played that role, with a 95% Wilson interval (games
of different assignments share their deals, so the interval treats paired games as
independent, an approximation); per side: its win rate under each assignment and the spread
across the population (least, median, greatest).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from cardsim.errors import UserError
from cardsim.sims.bang.cards import BOT_NAMES, BOT_SEARCH, ROLE_NAMES, SIDE_NAMES, roles_for
from cardsim.stats import wilson_interval

#: Bots a Bang! tournament may enter (the search bot plans with the engine, far slower).
ENTRANTS = tuple(name for code, name in enumerate(BOT_NAMES) if code != BOT_SEARCH)


def role_names(players: int) -> list[str]:
    """The roles a table of ``players`` deals, in the order of :data:`ROLE_NAMES`."""
    present = set(roles_for(players))
    return [name for code, name in enumerate(ROLE_NAMES) if code in present]


def check_entrants(given: Sequence[str]) -> list[str]:
    """The entrants, each a built-in bot or a strategy written in Python (``FILE.py:NAME``,
    played in a process of its own in every role it is assigned) once; at least two. A
    :class:`UserError` names ``--entrant`` (a file that cannot be read or fails to load too)."""
    from cardsim.sims.bang.simulator import file_digest, is_file_spec
    from cardsim.sims.bang.strategy import file_seats

    entrants = [name.strip() for part in given for name in part.split(",") if name.strip()]
    for name in entrants:
        if is_file_spec(name):
            try:
                file_digest(name)
                file_seats({0: name})
            except UserError as exc:
                raise UserError(f"--entrant: {exc}") from None
        elif name not in ENTRANTS:
            raise UserError(
                f"--entrant: unknown Bang! bot {name!r}; choose from: {', '.join(ENTRANTS)} or FILE.py:NAME"
            )
        if entrants.count(name) > 1:
            raise UserError(f"--entrant: {name} given twice")
    if len(entrants) < 2:
        raise UserError(f"--entrant: a tournament needs at least 2 entrants, got {len(entrants)}")
    return entrants


def assignments(entrants: Sequence[str], players: int) -> list[dict[str, str]]:
    """Every assignment of an entrant to each role of the table."""
    roles = role_names(players)
    return [dict(zip(roles, chosen, strict=True)) for chosen in itertools.product(entrants, repeat=len(roles))]


def tournament_tables(
    entrants: Sequence[str],
    players: int,
    play: Callable[[dict[str, str]], pl.DataFrame],
    tables: Sequence[dict[str, str]] | None = None,
) -> dict[str, pl.DataFrame]:
    """The tables of a tournament; ``play(assignment)`` gives the episodes of one assignment
    (a ``winner`` column of side codes). ``tables``: the assignments played (default: every
    assignment of the ``entrants``, :func:`assignments`); a population of tables
    (:func:`population`) instead of the full product."""
    side_rows: list[dict] = []
    role_rows: dict[tuple[str, str], list[int]] = {}
    law, outlaws, renegade = SIDE_NAMES.index("sheriff"), SIDE_NAMES.index("outlaws"), SIDE_NAMES.index("renegade")
    side_of = {"sheriff": law, "deputy": law, "outlaw": outlaws, "renegade": renegade}
    for assignment in assignments(entrants, players) if tables is None else tables:
        winner = play(assignment)["winner"].to_numpy()
        games = winner.size
        row: dict = {**{f"{role}": bot for role, bot in assignment.items()}, "games": games}
        for code, side in enumerate(SIDE_NAMES):
            row[f"{side}_wins"] = int((winner == code).sum())
        side_rows.append(row)
        for role, bot in assignment.items():
            won = int((winner == side_of[role]).sum())
            total = role_rows.setdefault((bot, role), [0, 0])
            total[0] += won
            total[1] += games
    rows = []
    for (bot, role), (won, games) in sorted(role_rows.items(), key=lambda kv: (ROLE_NAMES.index(kv[0][1]), kv[0][0])):
        lo, hi = wilson_interval(won, games)
        rows.append(
            {
                "role": role,
                "entrant": bot,
                "games": games,
                "side_won": won,
                "p_win": won / games,
                "lo": float(lo),
                "hi": float(hi),
            }
        )
    sides = pl.DataFrame(side_rows)
    spread = []
    for side in SIDE_NAMES:
        rates = sides[f"{side}_wins"].to_numpy() / sides["games"].to_numpy()
        spread.append(
            {
                "side": side,
                "assignments": sides.height,
                "least": float(rates.min()),
                "median": float(np.median(rates)),
                "greatest": float(rates.max()),
                "mean": float(rates.mean()),
            }
        )
    return {"roles": pl.DataFrame(rows), "assignments": sides, "sides": pl.DataFrame(spread)}


def play_with_runner(
    players: int, n: int, seed: int, jobs: int, store: Path | None, max_turns: int = 1000
) -> Callable[[dict[str, str]], pl.DataFrame]:
    """``play(assignment)`` through the runner (stored, resumable, the same deals for every
    assignment from ``seed``)."""
    from cardsim.sims.bang.simulator import BangConfig
    from cardsim.sims.core.runner import run
    from cardsim.sims.registry import get_simulator

    simulator = get_simulator("bang")

    def play(assignment: dict[str, str]) -> pl.DataFrame:
        fields: dict[str, Any] = {f"{role}_bot": bot for role, bot in assignment.items()}
        config = BangConfig(players=players, max_turns=max_turns, **fields)
        return run(simulator, config, n=n, seed=seed, jobs=jobs, store=store).episodes

    return play


def population(
    bots: Sequence[str],
    players: int,
    base: str,
    outsiders: Mapping[str, Sequence[str]] | None = None,
    mixed: Sequence[str] | None = None,
) -> list[tuple[str, str, dict[str, str]]]:
    """A stated population of tables at ``players``, as (label, kind, assignment): each of
    ``bots`` in every seat ("uniform"); ``base`` in every seat but one role, which another of
    ``mixed`` (default ``bots``) plays ("one role"); and ``base`` in every seat but one role,
    which an outside strategy (``outsiders``: role -> ``FILE.py:NAME`` specs) plays
    ("outside")."""
    roles = role_names(players)
    found = [(bot, "uniform", dict.fromkeys(roles, bot)) for bot in bots]
    for role in roles:
        for bot in bots if mixed is None else mixed:
            if bot != base:
                found.append((f"{base}, {role}={bot}", "one role", {**dict.fromkeys(roles, base), role: bot}))
    for role, specs in (outsiders or {}).items():
        if role not in roles:
            continue
        for spec in specs:
            name = spec.rpartition(":")[2]
            found.append((f"{base}, {role}={name}", "outside", {**dict.fromkeys(roles, base), role: spec}))
    return found


def favoured_side(row: dict) -> str:
    """The side with the most wins in an ``assignments`` row of :func:`tournament_tables`."""
    return max(SIDE_NAMES[:3], key=lambda side: row[f"{side}_wins"])


def population_summary(assignments_table: pl.DataFrame, labels: Sequence[str]) -> pl.DataFrame:
    """Per side, across the population's tables (``assignments_table`` of
    :func:`tournament_tables`, one row per table in the order of ``labels``): the table where
    it does worst and best, each with its win rate, 95% Wilson interval over games and n, and
    the number of tables where it is the favoured side (wins most games)."""
    rows = [{**row, "table": label} for row, label in zip(assignments_table.iter_rows(named=True), labels, strict=True)]
    favoured = [favoured_side(row) for row in rows]
    summary = []
    for side in SIDE_NAMES[:3]:
        rates = [row[f"{side}_wins"] / row["games"] for row in rows]
        low, high = rows[int(np.argmin(rates))], rows[int(np.argmax(rates))]
        entry: dict = {"side": side, "tables": len(rows), "favoured_at": favoured.count(side)}
        for name, row in (("least", low), ("greatest", high)):
            lo, hi = wilson_interval(row[f"{side}_wins"], row["games"])
            entry.update(
                {
                    f"{name}_table": row["table"],
                    f"{name}_n": row["games"],
                    name: row[f"{side}_wins"] / row["games"],
                    f"{name}_lo": float(lo),
                    f"{name}_hi": float(hi),
                }
            )
        summary.append(entry)
    return pl.DataFrame(summary)


#: The sides in prose.
SIDE_WORDS = {"sheriff": "the Sheriff's", "outlaws": "the Outlaws'", "renegade": "the Renegade's"}


def separated(row: dict, side: str) -> bool:
    """Whether ``side``'s 95% Wilson interval in an ``assignments`` row lies above every other
    side's (the game is the unit)."""
    lo, _ = wilson_interval(row[f"{side}_wins"], row["games"])
    return all(
        float(lo) > float(wilson_interval(row[f"{other}_wins"], row["games"])[1])
        for other in SIDE_NAMES[:3]
        if other != side
    )


def population_verdict(players: int, assignments_table: pl.DataFrame, population_rows: Sequence[tuple]) -> str:
    """One sentence on the favoured side at ``players`` across the population: the same side at
    every table (and at how many it is separated at 95%), or the side most tables favour and,
    for every other, the tables that favour it: by the bots of every seat (a uniform table) or
    by how one role plays (that role's bot or outside strategy), and the roles whose play alone
    turns it. ``population_rows``: the (label, kind, assignment) of each row of
    ``assignments_table``."""
    rows = list(assignments_table.iter_rows(named=True))
    favoured = [favoured_side(row) for row in rows]
    count = {side: favoured.count(side) for side in SIDE_NAMES[:3] if side in favoured}
    main = max(count, key=lambda side: count[side])
    apart = sum(separated(row, main) for row, side in zip(rows, favoured, strict=True) if side == main)
    if len(count) == 1:
        return (
            f"{players} players: {SIDE_WORDS[main]} side is favoured at every one of the {len(rows)} tables "
            f"(separated from the other sides at 95% at {apart} of them)."
        )
    parts = []
    turning: set[str] = set()
    for side in count:
        if side == main:
            continue
        uniform = [
            label + _unseparated(row, won)
            for (label, kind, _), won, row in zip(population_rows, favoured, rows, strict=True)
            if won == side and kind == "uniform"
        ]
        by_role: dict[str, list[str]] = {}
        for (label, kind, assignment), won, row in zip(population_rows, favoured, rows, strict=True):
            if won == side and kind != "uniform":
                for role in _odd_roles(assignment):
                    by_role.setdefault(role, []).append(label.rpartition("=")[2] + _unseparated(row, won))
        turning |= set(by_role)
        where = ([f"with {_or(uniform)} bots in every seat"] if uniform else []) + [
            f"when the {role.capitalize()} is played by {_or(names)}" for role, names in by_role.items()
        ]
        parts.append(f"{SIDE_WORDS[side]} side at {count[side]} ({'; '.join(where)})")
    return (
        f"{players} players: the favoured side depends on the table: {SIDE_WORDS[main]} side at "
        f"{count[main]} of {len(rows)} tables, "
        + ", ".join(parts)
        + (
            f"; with the other seats unchanged, how the {' or the '.join(r.capitalize() for r in sorted(turning))} "
            "plays turns it."
            if turning
            else "; only a whole table of other bots turns it."
        )
    )


def never_favoured(found: Mapping[int, pl.DataFrame]) -> list[str]:
    """The sides favoured at no table of any player count (``found``: player count -> the
    ``assignments`` table of the population)."""
    seen = {favoured_side(row) for table in found.values() for row in table.iter_rows(named=True)}
    return [side for side in SIDE_NAMES[:3] if side not in seen]


def _or(names: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _unseparated(row: dict, side: str) -> str:
    """ " (not separated at 95%)" when ``side`` wins the most games at the table of ``row``
    without its interval lying above every other side's; else nothing."""
    return "" if separated(row, side) else " (not separated at 95%)"


def _odd_roles(assignment: dict[str, str]) -> list[str]:
    """The roles whose entrant differs from the most common one of ``assignment``."""
    bots = list(assignment.values())
    common = max(bots, key=bots.count)
    return [role for role, bot in assignment.items() if bot != common]
