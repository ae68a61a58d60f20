"""How the search player plays: the record of its decisions changes no game and holds every
decision it made; the figures pool decisions with intervals over games."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from cardsim.analysis.cashnguns.playstyle import (
    PlaystyleSettings,
    play_playstyle,
    playstyle_figures,
    playstyle_games,
    ratio_over_games,
)
from cardsim.errors import UserError
from cardsim.sims.cashnguns.search import play_search_lineups
from cardsim.sims.cashnguns.simulator import strategy_rows
from cardsim.sims.cashnguns.strategies import parse_strategy

SPEC = "search:budget=8"
MEMBER = "custom:bullet=late,target=random,lie=guns,guns=3"


def test_the_record_changes_no_game_and_holds_every_decision():
    rows = strategy_rows([parse_strategy(SPEC), parse_strategy(MEMBER)])
    seeds = np.arange(5, 11, dtype=np.uint64)
    lineups = np.array([[0, 1, 1, 1], [1, 0, 0, 1]] * 3, np.int64)
    plain = play_search_lineups(seeds, lineups, rows, -5000)
    log: list = []
    recorded = play_search_lineups(seeds, lineups, rows, -5000, log=log)
    for a, b in zip(plain, recorded, strict=True):
        assert np.array_equal(a, b)
    cards = recorded[6]
    assert sorted((game, slot) for game, slot, _ in log) == [
        (g, s) for g in range(6) for s in range(4) if lineups[g, s] == 0
    ]
    for game, slot, entries in log:
        kinds = [decision for decision, _, _ in entries]
        assert kinds.count("card") == int(cards[game, slot].sum())  # one record per card played
        assert kinds.count("aim") == kinds.count("card")
        assert kinds.count("lie_down") >= 1
        assert all(view.seat == entries[0][2].seat for _, _, view in entries)


def test_ratio_over_games_pools_decisions_and_counts_games():
    frame = pl.DataFrame({"game": [0, 0, 0, 1, 2, 2], "x": [1, 1, 0, 0, 1, 0]})
    found = ratio_over_games(frame, "x")
    assert found["p"] == pytest.approx(3 / 6) and found["n"] == 3 and found["decisions"] == 6
    # per game (x, m) = (2, 3), (0, 1), (1, 2); residuals x - p m = 0.5, -0.5, 0
    half = 1.959963984540054 * math.sqrt((0.25 + 0.25) / 36 * 3 / 2)
    assert found["lo"] == pytest.approx(0.5 - half) and found["hi"] == pytest.approx(0.5 + half)
    assert ratio_over_games(frame.filter(pl.col("game") > 5), "x")["n"] == 0


def test_figures_read_the_decisions():
    decisions = pl.DataFrame(
        {
            "game": [0, 0, 1, 0, 1, 0, 1],
            "slot": [0] * 7,
            "round": [0, 5, 5, 0, 0, 2, 2],
            "decision": ["card", "card", "card", "aim", "aim", "lie_down", "lie_down"],
            "choice": [0, 2, 1, 1, 2, 1, 0],
            "options": [3, 3, 3, 3, 3, 3, 3],
            "richest": [0, 0, 0, 1, 0, 0, 0],
            "richest_count": [0, 0, 0, 1, 3, 0, 0],
            "wounded": [0, 0, 0, 0, 1, 0, 0],
            "wounded_count": [0, 0, 0, 3, 3, 0, 0],
            "pot_ratio": [1.0, 1.3, 0.5, 1.0, 1.0, 1.0, 1.0],
            "guns": [0, 0, 0, 0, 0, 1, 2],
        }
    )
    games = pl.DataFrame({"game": [0, 1], "slot": [0, 0], "win": [True, False]})
    found = {f["key"]: f for f in playstyle_figures(games, decisions, 4)}
    assert found["win"]["p"] == 0.5 and found["win"]["n"] == 2
    assert found["loaded-round-1"]["p"] == 0.0 and found["loaded-round-6"]["p"] == 1.0
    assert found["loaded-early"]["p"] == 0.0 and found["loaded-late"]["p"] == 1.0
    assert found["loaded-late"]["decisions"] == 2 and found["loaded-late"]["n"] == 2
    assert found["loaded-pot-big"]["p"] == 1.0 and found["loaded-pot-small"]["p"] == 1.0
    assert found["loaded-pot-usual"]["p"] == 0.0
    assert found["lie-1-gun"]["p"] == 1.0 and found["lie-2-guns"]["p"] == 0.0
    # aims where every opponent ties are left out: one aim at a richest of three
    assert found["aim-richest"]["decisions"] == 1 and found["aim-richest"]["p"] == 1.0
    assert found["random-richest"]["p"] == pytest.approx(1 / 3)
    assert found["aim-wounded"]["n"] == 0 and math.isnan(found["aim-wounded"]["p"])


def test_the_games_are_kept_and_read_back(tmp_path):
    settings = PlaystyleSettings(players=4, table="self", games=2, seed=3, spec=SPEC)
    first = playstyle_games(settings, tmp_path)
    again = playstyle_games(settings, tmp_path)
    for a, b in zip(first, again, strict=True):
        assert a.equals(b)
    played = play_playstyle(settings)
    assert played[0].equals(first[0]) and played[0].height == 8  # every seat of the two games
    assert set(first[1]["decision"].unique()) == {"aim", "card", "lie_down"}


@pytest.mark.parametrize(
    "keywords, word",
    [({"players": 3}, "players"), ({"table": "x"}, "table"), ({"games": 1}, "games")],
)
def test_bad_settings_name_the_keyword(keywords, word):
    with pytest.raises(UserError, match=word):
        PlaystyleSettings(**{"players": 4, "table": "mix", "games": 10, **keywords})
