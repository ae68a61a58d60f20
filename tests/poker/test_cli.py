"""The `cardsim poker` sub-app (parse and delegate): output and error handling."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cardsim.commands.poker import app
from cardsim.errors import UserError

runner = CliRunner()


def run_json(*args: str) -> list[dict]:
    """Invoke the sub-app with --json and return its rows."""
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    (rows,) = json.loads(result.output)["tables"].values()
    return rows


def test_eval_prints_category_and_description() -> None:
    rows = run_json("eval", "Ks Kd 4c 4h As 9c 2d", "Jc Jd Jh Js J*")
    assert rows[0]["category"] == "two pair"
    assert rows[0]["best five"] == "two pair, kings and fours, ace kicker"
    assert rows[1]["best five"] == "four of a kind, jacks, jack kicker"


def test_equity_names_its_method() -> None:
    exact = run_json("equity", "As Ah", "--board", "Kd 7c 2s 9h")[0]
    assert exact["n"] == 46 * (45 * 44 // 2)  # river cards x opponent holdings
    assert exact["method"] == "exact" and exact["lo"] == exact["hi"] == exact["equity"]
    sampled = run_json("equity", "As Ah", "--samples", "2000", "--seed", "3")[0]
    assert sampled["method"] == "sampled" and sampled["n"] == 2000
    assert sampled["lo"] < sampled["equity"] < sampled["hi"]


def test_percentile_and_preflop() -> None:
    row = run_json("percentile", "9c 9d", "--board", "Ks 7h 2c 4s")[0]
    assert row["below"] + row["tied"] + row["above"] == row["holdings"] == 46 * 45 // 2
    top = run_json("preflop", "--top", "3")
    assert [r["hand"] for r in top] == ["AA", "KK", "QQ"]


def test_bad_input_is_a_user_error() -> None:
    result = runner.invoke(app, ["eval", "As Ks Qx Jc 9h"])
    assert isinstance(result.exception, UserError)
    result = runner.invoke(app, ["percentile", "As Ks"])
    assert isinstance(result.exception, UserError)
