"""Bang! tournaments: every assignment of bots to roles on the same deals."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardsim
from cardsim.analysis.bang_tournament import assignments


def test_tables_cover_every_assignment_and_jobs_do_not_matter(tmp_path: Path) -> None:
    one = cardsim.bang.tournament("role,random", players=4, n=60, jobs=1)
    two = cardsim.bang.tournament(["role", "random"], players=4, n=60, jobs=2, store=tmp_path)
    for name in ("roles", "assignments", "sides"):
        assert one.tables[name].equals(two.tables[name]), name
    assert one.tables["assignments"].height == 2**3 == len(assignments(["role", "random"], 4))
    roles = one.tables["roles"]
    assert set(roles["role"]) == {"sheriff", "outlaw", "renegade"}  # no deputy at 4 players
    assert (roles["games"] == 4 * 60).all()
    sides = {row["side"]: row for row in one.tables["sides"].iter_rows(named=True)}
    assert sides["sheriff"]["least"] <= sides["sheriff"]["median"] <= sides["sheriff"]["greatest"]


@pytest.mark.parametrize(
    ("entrants", "keyword"),
    [("role", "entrant"), ("role,role", "entrant"), ("role,search", "entrant"), ("role,nobot", "entrant")],
)
def test_bad_entrants_name_the_keyword(entrants: str, keyword: str) -> None:
    with pytest.raises(cardsim.UserError, match=keyword):
        cardsim.bang.tournament(entrants, players=4, n=5)
