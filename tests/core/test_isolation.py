"""Isolation in every game: a strategy from a file, run in its own process
(:mod:`cardsim.sims.core.isolation`), reaches nothing of the engine's hidden state through
frames, ``gc`` or ``.base``; the same probe run in the engine's process does (so it can fail)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardsim.sims.core.isolation import isolated_strategy
from cardsim.sims.core.user_strategy import load_strategy

PROBE = f"{Path(__file__).parents[1] / 'cashnguns' / 'isolation_probe.py'}:AnyGame"


def gang(strategy) -> None:
    from cardsim.sims.gang.strategy import draw_deals, play_heists

    decks, seeds = draw_deals(np.random.default_rng(1), 2)
    play_heists(strategy, PROBE, 3, decks, seeds)


def thegame(strategy) -> None:
    from cardsim.sims.thegame.strategy import play_games

    play_games(strategy, PROBE, np.array([11], np.int64), 2)


def bang(strategy) -> None:
    from cardsim.sims.bang.strategy import UserSeat, play_user_games

    play_user_games(UserSeat(strategy, PROBE, 3), 4, "role", "role", 5, 6, 1)


def decisions(game: str) -> tuple[str, ...]:
    from cardsim.sims.bang.strategy import DECISIONS as BANG
    from cardsim.sims.gang.strategy import DECISIONS as GANG
    from cardsim.sims.thegame.strategy import DECISIONS as THEGAME

    return {"gang": GANG, "thegame": THEGAME, "bang": BANG}[game]


@pytest.mark.parametrize("game", ["gang", "thegame", "bang"])
def test_probe_finds_nothing_in_its_own_process(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play = {"gang": gang, "thegame": thegame, "bang": bang}[game]
    isolated, inside = tmp_path / "isolated.jsonl", tmp_path / "inside.jsonl"
    monkeypatch.setenv("CARDSIM_PROBE_OUT", str(isolated))
    play(isolated_strategy(PROBE, decisions(game), require=False))
    seen = [json.loads(line) for line in isolated.read_text().splitlines()]
    assert len(seen) >= 5 and all(found == [] for found in seen), seen[:3]
    monkeypatch.setenv("CARDSIM_PROBE_OUT", str(inside))
    play(load_strategy(PROBE))
    leaked = {item for line in inside.read_text().splitlines() for item in json.loads(line)}
    assert leaked, "the probe found nothing even inside the engine's process"
