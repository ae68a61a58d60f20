"""Cross-play of cooperative games (The Gang, The Game): a team of A-players with one B-player.

In a cooperative game the team's conventions are the strategy, so the question a population
asks is how well strategies play *together*: the cell (A, B) of the cross-play matrix is the
team's success when every seat but one plays A and one seat plays B (on the diagonal, the
team of A alone). Every cell plays the same ``n`` deals (paired); success rates have 95%
Wilson intervals over deals. Entrants are strategies written in Python (``FILE.py:NAME``,
each run in its own process, :mod:`cardsim.sims.core.isolation`); the built-in models take part
through their Python twins in ``examples/strategies``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import polars as pl

from cardsim.errors import UserError
from cardsim.sims.core.isolation import isolated_strategy
from cardsim.stats import wilson_interval

#: Seconds the engine allows a decision of the team (the strategy's own process keeps the
#: per-decision limit; this only catches a process that stopped answering).
ENGINE_LIMIT = 30.0


class OneDifferent:
    """A team in which seat ``odd_seat`` plays ``odd`` and every other seat ``team``; it offers
    only the decisions both define (a decision either leaves out is the engine's default for
    both)."""

    def __init__(self, team: Any, odd: Any, odd_seat: int = 0) -> None:
        self._team, self._odd, self._seat = team, odd, odd_seat

    def __getattr__(self, name: str) -> Callable[[Any, Sequence[Any]], Any]:
        if name.startswith("_"):
            raise AttributeError(name)
        team, odd = getattr(self._team, name, None), getattr(self._odd, name, None)
        if not (callable(team) and callable(odd)):
            raise AttributeError(name)

        def decision(view: Any, legal: Sequence[Any]) -> Any:
            return (odd if view.seat == self._seat else team)(view, legal)

        return decision


def labelled(given: Sequence[str]) -> list[tuple[str, str]]:
    """(label, spec) of each entrant ``FILE.py:NAME`` or ``LABEL=FILE.py:NAME``; a label given
    twice or fewer than two entrants is a :class:`UserError` naming ``--entrant``."""
    out = []
    for item in (piece.strip() for part in given for piece in part.split(",") if piece.strip()):
        head, equals, tail = item.partition("=")
        label, spec = (head, tail) if equals and head.isidentifier() else (item.rpartition(":")[2], item)
        if not spec.rpartition(":")[0].endswith(".py"):
            raise UserError(f"--entrant: give strategies written in Python as FILE.py:NAME, got {spec!r}")
        out.append((label, spec))
    labels = [label for label, _ in out]
    for label in labels:
        if labels.count(label) > 1:
            raise UserError(f"--entrant: {label} given twice (name each one LABEL=FILE.py:NAME)")
    if len(out) < 2:
        raise UserError(f"--entrant: a cross-play needs at least 2 entrants, got {len(out)}")
    return out


def cross_play(
    entrants: Sequence[tuple[str, str]], decisions: Sequence[str], play: Callable[[Any, str], np.ndarray]
) -> pl.DataFrame:
    """The matrix as rows (team, one, deals, successes, p_success, lo, hi); ``play(strategy,
    spec)`` gives 1/0 success per deal (the same deals every call)."""
    hosts = {spec: isolated_strategy(spec, decisions, require=False) for _, spec in entrants}
    rows = []
    for team_label, team_spec in entrants:
        for odd_label, odd_spec in entrants:
            strategy = hosts[team_spec] if team_spec == odd_spec else OneDifferent(hosts[team_spec], hosts[odd_spec])
            success = np.asarray(play(strategy, f"{team_label} team with one {odd_label}"), np.int64)
            lo, hi = wilson_interval(int(success.sum()), success.size)
            rows.append(
                {
                    "team": team_label,
                    "one": odd_label,
                    "deals": int(success.size),
                    "successes": int(success.sum()),
                    "p_success": float(success.mean()),
                    "lo": float(lo),
                    "hi": float(hi),
                }
            )
    return pl.DataFrame(rows)


def gang_play(players: int, n: int, seed: int) -> Callable[[Any, str], np.ndarray]:
    """Basic heists of The Gang on ``n`` deals from ``seed``."""
    from cardsim.sims.gang.strategy import draw_deals, play_heists

    decks, seeds = draw_deals(np.random.default_rng(np.random.SeedSequence([seed, 48])), n)

    def play(strategy: Any, spec: str) -> np.ndarray:
        return play_heists(strategy, spec, players, decks, seeds, time_limit=ENGINE_LIMIT)["success"]

    return play


def thegame_play(players: int, n: int, seed: int) -> Callable[[Any, str], np.ndarray]:
    """Games of The Game on ``n`` deals from ``seed``; success: every card played."""
    from cardsim.sims.thegame.state import S_CARDS_LEFT
    from cardsim.sims.thegame.strategy import chunk_deal_seeds, play_games

    deals = chunk_deal_seeds(seed, 0, n)

    def play(strategy: Any, spec: str) -> np.ndarray:
        return play_games(strategy, spec, deals, players, time_limit=ENGINE_LIMIT)[:, S_CARDS_LEFT] == 0

    return play
