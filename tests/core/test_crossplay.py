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


STATEFUL = """
class Drifting:
    def __init__(self):
        self.calls = 0

    def take_chip(self, view, legal):
        self.calls += 1
        return legal[self.calls % len(legal)]
"""


def test_jobs_one_and_two_give_the_same_matrix(tmp_path: Path) -> None:
    # a strategy whose choices depend on every call it served: each chunk starts it again as
    # loaded, so which worker played which chunk before cannot change its numbers
    (tmp_path / "drifting.py").write_text(STATEFUL)
    entrants = [PERCENTILE, f"{tmp_path / 'drifting.py'}:Drifting"]
    one = cardsim.gang.crossplay(entrants, players=3, n=130, seed=4, jobs=1).table
    two = cardsim.gang.crossplay(entrants, players=3, n=130, seed=4, jobs=2).table
    assert one.equals(two)
    assert (one["deals"] == 130).all()


def test_a_stored_crossplay_resumes_after_an_interruption(tmp_path: Path) -> None:
    closest, greedy = (f"{EXAMPLES / 'thegame_closest.py'}:Closest", f"{EXAMPLES / 'thegame_greedy.py'}:Greedy")
    args = dict(players=3, n=120, seed=1)
    whole = cardsim.thegame.crossplay([closest, greedy], **args).table

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(cardsim.errors.Interrupted, match="3 of 8 chunk"):
        cardsim.thegame.crossplay([closest, greedy], **args, store=tmp_path, on_chunk=stop_after_three)
    seen: list[int] = []
    resumed = cardsim.thegame.crossplay(
        [closest, greedy], **args, store=tmp_path, on_chunk=lambda done, total: seen.append(done)
    )
    assert seen == [4, 5, 6, 7, 8]  # the three finished chunks were read back, not played again
    assert resumed.table.equals(whole)
    assert resumed.manifest["runs"] and (tmp_path / "crossplay" / resumed.manifest["runs"][0]).is_dir()


@pytest.mark.parametrize("keyword, value", [("jobs", 0), ("store", 3), ("seed", -1), ("backend", "spark")])
def test_bad_keywords_are_a_user_error_naming_them(keyword: str, value: object) -> None:
    with pytest.raises(cardsim.UserError, match=f"^(unknown )?{keyword} "):
        cardsim.gang.crossplay([PERCENTILE, PAIRS], n=2, **{keyword: value})
