"""Bang! tournaments: every assignment of bots to roles on the same deals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def _table(rates: list[tuple[int, int, int]]) -> Any:
    import polars as pl

    return pl.DataFrame(
        [{"games": 100, "sheriff_wins": s, "outlaws_wins": o, "renegade_wins": r, "none_wins": 0} for s, o, r in rates]
    )


def test_the_population_is_the_stated_design() -> None:
    from cardsim.analysis.bang_tournament import population

    tables = population(["tuned", "role", "random"], 5, "tuned", {"renegade": ["x/r.py:R"]})
    kinds = [kind for _, kind, _ in tables]
    assert kinds.count("uniform") == 3 and kinds.count("one role") == 4 * 2 and kinds.count("outside") == 1
    label, _, outside = tables[-1]
    assert outside == {"sheriff": "tuned", "deputy": "tuned", "outlaw": "tuned", "renegade": "x/r.py:R"}
    assert label == "tuned, renegade=R"
    assert all("deputy" not in a for _, _, a in population(["tuned", "role"], 4, "tuned"))
    mixed = population(["tuned", "role", "random"], 5, "tuned", mixed=["tuned", "role"])
    assert [label for label, kind, _ in mixed if kind == "one role"] == [
        f"tuned, {r}=role" for r in ("sheriff", "deputy", "outlaw", "renegade")
    ]


def test_the_verdict_names_the_role_that_turns_the_balance() -> None:
    from cardsim.analysis.bang_tournament import never_favoured, population, population_summary, population_verdict

    rows = population(["tuned", "role"], 4, "tuned", {"renegade": ["r.py:R"]})
    same = _table([(60, 30, 10)] * len(rows))
    assert "favoured at every one" in population_verdict(4, same, rows)
    flipped = _table([(60, 30, 10)] * (len(rows) - 1) + [(30, 60, 10)])
    verdict = population_verdict(4, flipped, rows)
    assert "depends on the table" in verdict and "when the Renegade is played by R" in verdict
    assert "how the Renegade plays turns it" in verdict
    summary = {r["side"]: r for r in population_summary(flipped, [label for label, _, _ in rows]).iter_rows(named=True)}
    assert summary["sheriff"]["least"] == 0.3 and summary["sheriff"]["least_table"] == "tuned, renegade=R"
    assert summary["sheriff"]["favoured_at"] == len(rows) - 1 and summary["outlaws"]["favoured_at"] == 1
    assert summary["sheriff"]["least_lo"] < 0.3 < summary["sheriff"]["least_hi"]
    assert "not separated" not in verdict
    close = _table([(60, 30, 10)] * (len(rows) - 1) + [(44, 46, 10)])
    assert "when the Renegade is played by R (not separated at 95%)" in population_verdict(4, close, rows)
    uniform = _table([(30, 60, 10)] + [(60, 30, 10)] * (len(rows) - 1))
    verdict = population_verdict(4, uniform, rows)
    assert "with tuned bots in every seat" in verdict and "only a whole table of other bots turns it" in verdict
    assert never_favoured({4: flipped}) == ["renegade"]


def test_a_file_entrant_twin_of_a_bot_rates_equal_to_it() -> None:
    twin = f"{Path(__file__).resolve().parents[2] / 'examples' / 'strategies' / 'bang_role.py'}:RoleBot"
    roles = cardsim.bang.tournament(["role", twin], players=4, n=20, jobs=1).tables["roles"]
    for role in ("sheriff", "outlaw", "renegade"):
        part = {row["entrant"]: row["p_win"] for row in roles.filter(roles["role"] == role).iter_rows(named=True)}
        assert part["role"] == part[twin], role


def test_a_file_entrant_that_fails_to_load_names_the_keyword(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise ValueError('no')\n")
    with pytest.raises(cardsim.UserError, match="entrant"):
        cardsim.bang.tournament(["role", f"{broken}:X"], players=4, n=5)
