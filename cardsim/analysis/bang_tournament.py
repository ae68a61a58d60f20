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
from collections.abc import Callable, Sequence
from pathlib import Path

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
    """The entrants, each a built-in bot once; at least two. A :class:`UserError` names
    ``--entrant``."""
    entrants = [name.strip() for part in given for name in part.split(",") if name.strip()]
    for name in entrants:
        if name not in ENTRANTS:
            raise UserError(f"--entrant: unknown Bang! bot {name!r}; choose from: {', '.join(ENTRANTS)}")
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
    entrants: Sequence[str], players: int, play: Callable[[dict[str, str]], pl.DataFrame]
) -> dict[str, pl.DataFrame]:
    """The tables of a tournament; ``play(assignment)`` gives the episodes of one assignment
    (a ``winner`` column of side codes)."""
    side_rows: list[dict] = []
    role_rows: dict[tuple[str, str], list[int]] = {}
    law, outlaws, renegade = SIDE_NAMES.index("sheriff"), SIDE_NAMES.index("outlaws"), SIDE_NAMES.index("renegade")
    side_of = {"sheriff": law, "deputy": law, "outlaw": outlaws, "renegade": renegade}
    for assignment in assignments(entrants, players):
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
        fields = {f"{role}_bot": bot for role, bot in assignment.items()}
        config = BangConfig(players=players, max_turns=max_turns, **fields)
        return run(simulator, config, n=n, seed=seed, jobs=jobs, store=store).episodes

    return play
