"""Cross-play of the cooperative games: a team of A-players with one B-player."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardsim

EXAMPLES = Path(__file__).parents[2] / "examples" / "strategies"
PERCENTILE = f"{EXAMPLES / 'gang_percentile.py'}:Percentile"
PAIRS = f"{EXAMPLES / 'gang_pairs_high.py'}:PairsHigh"


def test_twins_give_equal_cells_and_the_matrix_is_complete() -> None:
    result = cardsim.gang.crossplay([PERCENTILE, f"twin={PERCENTILE}", PAIRS], players=4, n=12, seed=2)
    table = result.table
    assert table.height == 9 and (table["deals"] == 12).all()
    cell = {(row["team"], row["one"]): row["successes"] for row in table.iter_rows(named=True)}
    # Percentile and its twin are the same deterministic strategy on the same deals
    assert cell[("Percentile", "Percentile")] == cell[("Percentile", "twin")] == cell[("twin", "twin")]
    assert cell[("PairsHigh", "Percentile")] == cell[("PairsHigh", "twin")]


def test_thegame_crossplay_runs() -> None:
    closest, greedy = (f"{EXAMPLES / 'thegame_closest.py'}:Closest", f"{EXAMPLES / 'thegame_greedy.py'}:Greedy")
    table = cardsim.thegame.crossplay([closest, greedy], players=3, n=4).table
    assert table.height == 4 and set(table["team"]) == {"Closest", "Greedy"}


@pytest.mark.parametrize("entrants", [[PERCENTILE], [PERCENTILE, PERCENTILE], ["history", PERCENTILE]])
def test_bad_entrants_name_the_keyword(entrants: list[str]) -> None:
    with pytest.raises(cardsim.UserError, match="entrant"):
        cardsim.gang.crossplay(entrants, n=2)
