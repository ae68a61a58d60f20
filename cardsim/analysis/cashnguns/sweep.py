"""The schedule sweep: every card order and the opponent reading on top of every mix member.

A best-response search that samples the strategy space can miss a reply that differs from a
member only in its card order: the orders are a discrete space of 168 (5 Clicks, 2 Bangs,
1 Bang!Bang!Bang!), and an outside check found such replies gaining up to 24.5 points against
mixes discover had called converged. The sweep tries them all: each member of the
mix with its own aiming and lie-down rules and each of the 168 orders (``bullet=schedule``),
with and without reading opponents who have shown only Clicks as playing Clicks first
(``read=1``), plus each member with that reading alone and with the reading and ``clicks``
aiming. Successive halving on common random numbers picks the best of them and its gain is
measured on fresh paired games (:func:`search.measure_gain`), like any other search's reply,
so the stop rule treats the sweep as one more search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from cardsim.analysis.cashnguns.search import Reply, measure_gain, search_best_response
from cardsim.sims.cashnguns.strategies import ALL_ORDERS, Strategy, parse_strategy


def reading_variants(member: Strategy) -> list[Strategy]:
    """The member reading opponents (``read=1``) with its own rules, and also aiming at the
    opponent read as most likely holding a Click (``target=clicks``)."""
    reading = replace(member, read=1)
    return [reading, replace(reading, target="clicks")]


def sweep_candidates(members: Sequence[Strategy]) -> list[Strategy]:
    """Every candidate of the sweep, distinct by spec, in a fixed order: for each member (in
    the order given), its reading variants (:func:`reading_variants`), then its own aiming and
    lie-down rules with each of the 168 card orders, without and with the reading."""
    seen = {member.spec() for member in members}
    out: list[Strategy] = []
    for member in members:
        options = reading_variants(member)
        for read in (0, 1):
            base = replace(member, bullet="schedule", read=read)
            options += [replace(base, order=order) for order in ALL_ORDERS]
        for option in options:
            spec = option.spec()
            if spec not in seen:
                seen.add(spec)
                out.append(parse_strategy(spec))
    return out


def sweep_members(library: Sequence[Strategy], mix: np.ndarray) -> list[Strategy]:
    """The members of ``mix`` (a share above zero) of the parameter space (not the search
    player), by decreasing share."""
    ranked = np.argsort(-np.asarray(mix), kind="stable")
    return [library[i] for i in ranked if mix[i] > 0 and isinstance(library[i], Strategy)]


def sweep_schedules(
    arena,
    library: Sequence[Strategy],
    mix: np.ndarray,
    *,
    games: int,
    validation_games: int,
    root: int,
    key: int,
    streams: tuple[int, ...],
) -> Reply:
    """The best sweep candidate against ``mix`` (successive halving, ``games`` games each in
    the first stage) and its gain over the mix on ``validation_games`` fresh paired games,
    every draw from ``streams`` keyed by (``root``, ``key``)."""
    candidates = sweep_candidates(sweep_members(library, mix))
    response, search_mean = search_best_response(arena, library, mix, candidates, games, root, key, streams=streams)
    gain, low, high = measure_gain(arena, library, mix, response, validation_games, root, key, 0, streams=streams)
    return Reply(response, search_mean, gain, low, high, validation_games, len(candidates))
