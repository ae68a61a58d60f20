"""Distilling a player into the parametric space: a candidate's choice on a logged view is the
built-in's own (a seat played through it plays every game as the built-in does), and the log
of a parametric strategy distils back to a strategy that decides as it does."""

from __future__ import annotations

from cardsim.analysis.cashnguns.distill import PolicyPlayer, agreement, distill_log, prepare
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.cashnguns.strategy import Seat, play_games

OTHERS = ("bluffer", "custom:bullet=late,target=leader,lie=risk,guns=2,risk=0.6,greed=2,care=0.5,endgame=0,count=1")
KNOWN = (
    "custom:bullet=safe,target=clicks,lie=risk,safe=0.3095,guns=2,risk=0.7,greed=0.9,care=0.2,endgame=-0.4,count=1,read=1",
    "custom:bullet=schedule,target=retaliate,lie=threshold,order=CBCCXCBC,hit=0.3,wound=15000,count=0",
)


def _lineups(strategy, players: int, games: int, log: list | None = None):
    others = [parse_strategy(spec).param_row() for spec in OTHERS]
    mine = Seat(PolicyPlayer(strategy, log), "policy") if log is not None or strategy is None else strategy
    return [[mine] + [others[(g + k) % 2] for k in range(players - 1)] for g in range(games)]


def test_a_seat_played_through_policy_choice_plays_as_the_built_in():
    for spec in KNOWN:
        strategy = parse_strategy(spec)
        seeds = list(range(100, 130))
        built_in = play_games(seeds, _lineups(strategy.param_row(), 5, 30), -5000)
        through_views = play_games(seeds, _lineups(strategy, 5, 30, log=[]), -5000)
        assert built_in == through_views


def test_a_parametric_strategys_log_distils_to_a_strategy_that_decides_alike():
    for spec in KNOWN:
        strategy = parse_strategy(spec)
        log: list = []
        play_games(list(range(200, 240)), _lineups(strategy, 4, 40, log=log), -5000)
        assert {d for d, _, _ in log} == {"aim", "card", "lie_down"}
        found, shares = distill_log(log, population=OTHERS)
        assert shares["all"]["of"] == len(log)
        assert shares["all"]["share"] == 1.0, (spec, found.spec(), shares)
        # and a different strategy does not: the agreement measure can fail
        other = agreement(parse_strategy("stubborn"), [prepare(*entry) for entry in log])
        assert other["contested"]["share"] < 0.9
