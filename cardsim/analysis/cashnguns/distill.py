"""Distil a player into the parametric strategy space: the strategy of
:class:`~cardsim.sims.cashnguns.strategies.Strategy` that makes the same choice as the player
on the most of its logged decisions.

A log is a list of (decision, choice, view) as :attr:`SearchPlayer.log` records it (the view
is what the seat saw, :class:`~cardsim.sims.cashnguns.strategy.View`). A candidate is judged on
the very same views: its choice is computed from the view by the compiled decision functions
the engine plays a built-in seat with (:func:`policy_choice`, fed the view's ``u`` for its
random draws), so agreement is decision by decision, not a match of summary statistics.

The three decisions depend on separate parts of a strategy given the ``read`` toggle (the aim
on the target policy, the card on the bullet policy and its ``pot``, ``safe`` or ``order``, the
lie-down on the lie-down policy and its parameters), so each part is searched on its own
decisions for each ``read``: every target policy; every bullet policy with its parameter on a
grid, every chance midpoint and every one of the 168 card orders; the lie-down rules
``never``, ``random`` and ``guns`` on their whole grids, ``threshold`` on a grid, and ``risk``
by hill-climbing from the population's members and seeded random draws
(:func:`distill_log`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS, UNIT_DOLLARS
from cardsim.sims.cashnguns.search import public_history
from cardsim.sims.cashnguns.space import SEARCH_RANGES, chance_midpoints, grid_values, parameter_steps
from cardsim.sims.cashnguns.strategies import (
    ALL_ORDERS,
    TARGET_POLICIES,
    Strategy,
    choose_bullet,
    choose_lie_down,
    choose_target,
    opponent_loaded,
    parse_strategy,
)
from cardsim.sims.core.jit import python_entry

#: The decisions of a log, in the order a round asks them.
DECISIONS = ("aim", "card", "lie_down")
#: Fields of the lie-down part a hill-climb moves (``count`` is toggled, the others stepped).
LIE_FIELDS = ("guns", "risk", "greed", "care", "endgame", "hit")
#: Random starting points of the ``risk`` hill-climb besides the population's members.
RISK_STARTS = 24


@dataclass(frozen=True)
class Decision:
    """One logged decision as the arrays the compiled decision functions read (money and loot
    in $5,000 units), its ``choice`` (an int; a lie-down 0 or 1) and whether more than one
    choice was legal (``contested``)."""

    decision: str
    choice: int
    contested: bool
    seat: int
    round: int
    u: float
    alive: np.ndarray
    cash: np.ndarray
    wounds: np.ndarray
    revealed: np.ndarray
    aims: np.ndarray
    lay: np.ndarray
    pot: float
    expected: float
    hand: np.ndarray
    target: int
    targets: np.ndarray
    shame_units: float


def prepare(decision: str, choice: Any, view: Any) -> Decision:
    """A logged (decision, choice, view) as a :class:`Decision` (public information only: the
    view is what the seat saw)."""
    players = view.players
    aims, lay = public_history(view)
    loot = view.loot
    hand = np.array(view.hand, np.int64)
    if decision == "aim":
        contested = sum(1 for s in range(players) if s != view.seat and view.alive[s]) > 1
    elif decision == "card":
        contested = int((hand > 0).sum()) > 1
    else:
        contested = any(aim == view.seat and s != view.seat and view.alive[s] for s, aim in enumerate(view.targets))
    return Decision(
        decision=decision,
        choice=int(choice),
        contested=bool(contested),
        seat=view.seat,
        round=view.round,
        u=float(view.u),
        alive=np.array(view.alive, np.bool_),
        cash=np.array(view.money, np.int64) // UNIT_DOLLARS,
        wounds=np.array(view.wounds, np.int64),
        revealed=np.array(view.revealed, np.int64).reshape(players, 3),
        aims=aims,
        lay=lay,
        pot=float(loot[0] + 2 * loot[1] + 4 * loot[2]),
        expected=view.expected_loot / UNIT_DOLLARS,
        hand=hand,
        target=int(view.target),
        targets=np.array(view.targets if view.targets else [-1] * players, np.int64),
        shame_units=view.shame_value / UNIT_DOLLARS,
    )


def policy_choice(row: np.ndarray, d: Decision) -> int:
    """The choice the built-in strategy ``row`` (:meth:`Strategy.param_row`) makes on decision
    ``d``: the compiled decision functions, called as the engine calls them for a built-in
    seat (a card at the target the view names, a lie-down knowing every aim)."""
    if d.decision == "aim":
        return int(
            python_entry(choose_target)(row, d.seat, d.alive, d.cash, d.wounds, d.revealed, d.aims, d.lay, d.round, d.u)
        )
    if d.decision == "card":
        loaded = python_entry(opponent_loaded)(row, d.revealed, d.aims, d.round, d.target)
        return int(python_entry(choose_bullet)(row, d.hand, d.pot, d.expected, loaded, d.u))
    return int(
        python_entry(choose_lie_down)(
            row,
            d.seat,
            d.targets,
            d.alive,
            d.revealed,
            d.aims,
            d.pot,
            d.expected,
            int(d.alive.sum()),
            int(d.wounds[d.seat]),
            int(d.cash[d.seat]),
            d.round,
            d.shame_units,
            d.u,
        )
    )


class PolicyPlayer:
    """A built-in strategy played as a Python seat through :func:`policy_choice` (it must play
    exactly as the built-in in the same seat: the test that :func:`policy_choice` reads a view
    as the engine does), logging its decisions like :attr:`SearchPlayer.log` when ``log`` is a
    list."""

    def __init__(self, strategy: Strategy, log: list | None = None) -> None:
        self.row = strategy.param_row()
        self.log = log

    def _decide(self, decision: str, view: Any) -> int:
        choice = policy_choice(self.row, prepare(decision, 0, view))
        if self.log is not None:
            self.log.append((decision, choice, view))
        return choice

    def aim(self, view: Any, legal: Any) -> int:
        return self._decide("aim", view)

    def card(self, view: Any, legal: Any) -> int:
        return self._decide("card", view)

    def lie_down(self, view: Any, legal: Any) -> bool:
        return bool(self._decide("lie_down", view))


def matches(strategy: Strategy, decisions: Sequence[Decision]) -> int:
    """How many of ``decisions`` the strategy decides as logged."""
    row = strategy.param_row()
    return sum(policy_choice(row, d) == d.choice for d in decisions)


def agreement(strategy: Strategy, decisions: Sequence[Decision]) -> dict:
    """The share of logged decisions the strategy makes alike: over all of them
    (``all``), over those with more than one legal choice (``contested``) and per decision
    (``aim``, ``card``, ``lie_down``), each ``{"agree", "of", "share"}``."""
    row = strategy.param_row()
    same = [policy_choice(row, d) == d.choice for d in decisions]
    groups = {
        "all": range(len(decisions)),
        "contested": [i for i, d in enumerate(decisions) if d.contested],
        **{name: [i for i, d in enumerate(decisions) if d.decision == name] for name in DECISIONS},
    }
    out = {}
    for name, indices in groups.items():
        agree = sum(same[i] for i in indices)
        out[name] = {"agree": agree, "of": len(indices), "share": agree / len(indices) if indices else float("nan")}
    return out


def _best(candidates: Iterable[Strategy], decisions: Sequence[Decision]) -> tuple[Strategy, int]:
    """The candidate with the most matches (the first of equals)."""
    best: tuple[Strategy, int] | None = None
    for candidate in candidates:
        score = matches(candidate, decisions)
        if best is None or score > best[1]:
            best = (candidate, score)
    assert best is not None
    return best


def bullet_candidates(base: Strategy) -> list[Strategy]:
    """Every bullet part: ``random``, ``early``, ``late``, ``bigpot`` at every ``pot`` of its
    search grid, ``safe`` at 0, 1 and every chance midpoint, and each of the 168 orders."""
    out = [replace(base, bullet=name) for name in ("random", "early", "late")]
    out += [replace(base, bullet="bigpot", pot=pot) for pot in grid_values("pot")]
    out += [replace(base, bullet="safe", safe=safe) for safe in (0.0, *chance_midpoints(), 1.0)]
    out += [replace(base, bullet="schedule", order=order) for order in ALL_ORDERS]
    return out


def lie_grid(base: Strategy) -> list[Strategy]:
    """The lie-down rules searched on grids: ``never``; ``random`` at every ``lie_p``;
    ``guns`` at 1-5; ``threshold`` counting cards at every ``wound``, and assuming ``hit``
    per gun at every ``hit`` x ``wound``."""
    out = [replace(base, lie="never")]
    out += [replace(base, lie="random", lie_p=p) for p in grid_values("lie_p")]
    out += [replace(base, lie="guns", guns=g) for g in range(1, 6)]
    out += [replace(base, lie="threshold", count=1, wound=w) for w in grid_values("wound")]
    out += [
        replace(base, lie="threshold", count=0, wound=w, hit=h)
        for w in grid_values("wound")
        for h in grid_values("hit")
    ]
    return out


def _lie_part(strategy: Strategy, base: Strategy) -> Strategy:
    """``base`` with the lie-down rule and parameters of ``strategy``."""
    fields = (*LIE_FIELDS, "lie_p", "wound")
    return replace(base, lie=strategy.lie, count=strategy.count, **{name: getattr(strategy, name) for name in fields})


def climb_risk(start: Strategy, decisions: Sequence[Decision]) -> tuple[Strategy, int]:
    """Hill-climb a ``risk`` lie-down rule from ``start``: each step tries every one-move
    change of a parameter it uses (:func:`space.parameter_steps` and the ends of its search
    range) and the ``count`` toggle, and takes the best strictly better one."""
    current, score = start, matches(start, decisions)
    while True:
        moves = [replace(current, count=1 - current.count)]
        for name in LIE_FIELDS:
            if name == "hit" and current.count:
                continue
            low, high = SEARCH_RANGES[name]
            values = parameter_steps(current, name) + [low, high]
            moves += [replace(current, **{name: v}) for v in dict.fromkeys(values) if v != getattr(current, name)]
        best, best_score = _best(moves, decisions)
        if best_score <= score:
            return current, score
        current, score = best, best_score


def _random_risk(base: Strategy, rng: np.random.Generator) -> Strategy:
    grids = {name: grid_values(name) for name in LIE_FIELDS}
    values = {name: grid[int(rng.integers(len(grid)))] for name, grid in grids.items()}
    return replace(base, lie="risk", count=int(rng.integers(2)), **values)


def distill_log(
    log: Iterable[tuple[str, Any, Any]], population: Sequence[str] = (), seed: int = 0
) -> tuple[Strategy, dict]:
    """The parametric strategy that agrees with the logged decisions most often, and its
    :func:`agreement`. ``log``: (decision, choice, view) entries (several games' logs joined);
    ``population``: specs whose ``risk`` rules start the hill-climb (besides
    :data:`RISK_STARTS` random draws of ``seed``); see the module text for the search."""
    decisions = [prepare(decision, choice, view) for decision, choice, view in log]
    parts = {name: [d for d in decisions if d.decision == name] for name in DECISIONS}
    starts = [parse_strategy(spec) for spec in population]
    rng = np.random.default_rng(np.random.SeedSequence([seed, 4747]))
    best: tuple[Strategy, int] | None = None
    for read in (0, 1):
        base = Strategy(read=read)
        aim, aim_score = _best((replace(base, target=t) for t in TARGET_POLICIES), parts["aim"])
        card, card_score = _best(bullet_candidates(base), parts["card"])
        lie, lie_score = _best(lie_grid(base), parts["lie_down"])
        risk_starts = [_lie_part(s, base) for s in starts if s.lie == "risk"]
        risk_starts += [replace(base, lie="risk")] + [_random_risk(base, rng) for _ in range(RISK_STARTS)]
        for start in risk_starts:
            climbed, climbed_score = climb_risk(start, parts["lie_down"])
            if climbed_score > lie_score:
                lie, lie_score = climbed, climbed_score
        whole = replace(
            _lie_part(lie, base),
            target=aim.target,
            bullet=card.bullet,
            pot=card.pot,
            safe=card.safe,
            order=card.order,
        )
        total = aim_score + card_score + lie_score
        if best is None or total > best[1]:
            best = (whole, total)
    assert best is not None
    strategy = parse_strategy(best[0].spec())  # the canonical form of its spec
    return strategy, agreement(strategy, decisions)


def search_log(
    players: int, games: int, seed: int = 0, spec: str = "search", shame_value: int = DEFAULT_SHAME_DOLLARS
) -> list[tuple[str, Any, Any]]:
    """The logged decisions of the player ``spec`` (a search spec) in one seat of ``games``
    games at a table of the shipped win mix of ``players`` (the other seats drawn from the mix
    by its shares, game by game, as :mod:`.playstyle` seats it), every game's log joined."""
    from cardsim.analysis.cashnguns.playstyle import PlaystyleSettings, _lineups
    from cardsim.sims.cashnguns.search import play_search_lineups

    settings = PlaystyleSettings(
        players=players, table="mix", games=games, seed=seed, spec=spec, shame_value=shame_value
    )
    seeds, lineups, rows = _lineups(settings)
    log: list[tuple[int, int, list]] = []
    play_search_lineups(seeds, lineups, rows, shame_value, log=log)
    return [entry for _, _, entries in log for entry in entries]
