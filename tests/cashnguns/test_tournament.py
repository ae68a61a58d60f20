"""Tournaments: α-Rank against published numbers, the tournament's tables, isolation of
strategies written in Python, and bad input."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from cardsim.analysis.alpharank import alpha_rank, matrix_payoff
from cardsim.api import cashnguns
from cardsim.cli import app, main
from cardsim.errors import UserError
from cardsim.sims.cashnguns.simulator import engine_lineups
from cardsim.sims.core.user_strategy import StrategyError

HERE = Path(__file__).parent
PROBE = f"{HERE / 'isolation_probe.py'}:Probe"
PATIENT = f"{HERE.parents[1] / 'examples/strategies/cashnguns_patient.py'}:Patient"


def test_alpharank_reproduces_han_et_al_2013() -> None:
    """The commitment game of Han, Pereira, Santos & Lenaerts ("Good agreements make good
    friends", Sci. Rep. 3:2695, 2013; R=1, T=2, P=0, S=-1, delta=4, epsilon=0.25): the
    stationary distribution of the single-population Fermi process at population 20 and
    selection 0.1, as published there (and used as the reference example of α-Rank's
    implementation in OpenSpiel, egt/alpharank)."""
    r, t, p, s, delta, eps = 1.0, 2.0, 0.0, -1.0, 4.0, 0.25
    game = np.array(
        [
            [r - eps / 2, r - eps, 0, s + delta - eps, r - eps],
            [r, r, s, s, s],
            [0, t, p, p, p],
            [t - delta, t, p, p, p],
            [r, t, p, p, p],
        ]
    )
    result = alpha_rank(matrix_payoff(game), 5, 2, alpha=0.1, population=20)
    expected = [0.40966787, 0.07959841, 0.20506998, 0.08505983, 0.2206039]
    np.testing.assert_allclose(result.pi, expected, atol=1e-6)
    assert result.order.tolist() == [0, 4, 2, 3, 1]


def test_alpharank_rock_paper_scissors_and_closed_form() -> None:
    """Rock-paper-scissors ranks its three strategies equal (Omidshafiei et al. 2019, Fig. 2);
    with a constant fitness advantage d the two-strategy chain's masses are in the ratio
    exp(alpha (m - 1) d) (Traulsen, Nowak & Pacheco 2006)."""
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], np.float64)
    np.testing.assert_allclose(alpha_rank(matrix_payoff(rps), 3, 2, alpha=50, population=30).pi, [1 / 3] * 3)
    alpha, population, d = 0.3, 12, 0.5
    dominant = np.array([[d, d], [0.0, 0.0]])
    pi = alpha_rank(matrix_payoff(dominant), 2, 2, alpha=alpha, population=population).pi
    assert pi[0] / pi[1] == pytest.approx(math.exp(alpha * (population - 1) * d), rel=1e-9)


def test_two_identical_entrants_rate_equal_and_jobs_do_not_matter(tmp_path: Path) -> None:
    kwargs = dict(players=4, games=1_500, seed=3)
    one = cashnguns.tournament("a=stubborn,b=stubborn,coward,shark", jobs=1, **kwargs)
    two = cashnguns.tournament("a=stubborn,b=stubborn,coward,shark", jobs=2, store=tmp_path, **kwargs)
    for name in ("standings", "head_to_head", "payoff_table", "equilibrium", "alpharank"):
        assert one.tables[name].equals(two.tables[name]), name
    rows = {row["entrant"]: row for row in one.tables["standings"].iter_rows(named=True)}
    a, b = rows["a"], rows["b"]
    assert a["win_lo"] <= b["p_win"] <= a["win_hi"] and b["win_lo"] <= a["p_win"] <= b["win_hi"]
    assert a["score_lo"] <= b["mean_score"] <= a["score_hi"]
    assert one.manifest["design"] == "all" and one.manifest["games"] >= 1_500
    # resumed from the store: the same tables, every chunk read back
    again = cashnguns.tournament("a=stubborn,b=stubborn,coward,shark", jobs=1, store=tmp_path, **kwargs)
    assert again.tables["standings"].equals(one.tables["standings"])


def test_fewer_deals_than_seats_are_not_shared_between_tables() -> None:
    """With one deal per table, one shared deal would rank entrants on that deal and on the
    slot their list order gives them: each table gets its own deal and a random turn."""
    from cardsim.analysis.cashnguns.tournament import table_deals

    own = [table_deals(7, index, 1, 5) for index in range(40)]
    assert len({int(seeds[0]) for seeds, _ in own}) == 40
    assert {offset for _, offset in own} == set(range(5))
    assert table_deals(7, 3, 1, 5)[0].tolist() == own[3][0].tolist()
    one = cashnguns.tournament("stubborn,coward,shark,sniper,bully,vulture", players=5, games=6, seed=1)
    assert one.manifest["deals_per_composition"] == 1 and not one.manifest["paired"]
    paired = cashnguns.tournament("stubborn,coward", players=4, games=40, seed=1)
    assert paired.manifest["paired"]


def test_python_entrant_in_tournament_run_payoff_and_evaluate() -> None:
    found = cashnguns.tournament(["stubborn", "coward", PATIENT], players=4, games=60, design="sampled")
    assert set(found.table["entrant"]) == {"stubborn", "coward", "Patient"}
    assert found.manifest["design"] == "sampled" and "alpharank" in found.tables
    payoff = cashnguns.payoff(players=4, strategy=["stubborn", PATIENT], n=20, jobs=1, quiet=True)
    assert payoff.table.height == 4
    evaluated = cashnguns.evaluate(PATIENT, players=4, n=20, against=PATIENT)
    assert evaluated.manifest["details"]["against"] == PATIENT


def test_isolation_probe_finds_nothing_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe, run in its own process beside the engine, reaches no frame, array or state
    of the engine; the same probe called in the engine's process (evaluate) does, so it can
    fail."""
    isolated, inside = tmp_path / "isolated.jsonl", tmp_path / "inside.jsonl"
    monkeypatch.setenv("CARDSIM_PROBE_OUT", str(isolated))
    seeds = np.arange(1, 4, dtype=np.uint64)
    lineups = np.array([[0, 0, 1, 1], [0, 1, 0, 1], [1, 0, 0, 0]])
    engine_lineups(seeds, lineups, [PROBE, "stubborn"], -5_000)
    seen = [json.loads(line) for line in isolated.read_text().splitlines()]
    assert len(seen) > 20 and all(found == [] for found in seen)
    monkeypatch.setenv("CARDSIM_PROBE_OUT", str(inside))
    cashnguns.evaluate(PROBE, players=4, n=2, against="stubborn")
    leaked = {item for line in inside.read_text().splitlines() for item in json.loads(line)}
    assert "gc: GameState" in leaked


def test_time_limit_stays_for_isolated_strategies() -> None:
    slow = f"{HERE / 'slow_strategy.py'}:Slow"
    with pytest.raises(StrategyError, match="took longer than 2 s"):
        engine_lineups(np.array([7], np.uint64), np.array([[0, 1, 1, 1]]), [slow, "stubborn"], -5_000)


@pytest.mark.parametrize(
    ("entrants", "extra", "keyword"),
    [
        ("stubborn", {}, "--entrant"),  # too few entrants
        ("stubborn,coward,shark", {"design": "distinct", "players": 4}, "--entrant"),  # too few for the seats
        (f"stubborn,{HERE / 'broken_strategy.py'}:Nope", {}, "broken_strategy.py"),  # fails to load
        ("stubborn,coward,stubborn", {}, "--entrant"),  # a name given twice
        ("stubborn,coward", {"design": "round-robin"}, "--design"),  # unknown design
        ("stubborn,nosuch", {}, "--entrant"),
    ],
)
def test_bad_input_is_one_line_naming_the_keyword(
    capsys: pytest.CaptureFixture, entrants: str, extra: dict, keyword: str
) -> None:
    with pytest.raises(UserError) as raised:
        cashnguns.tournament(entrants, **{"players": 4, "games": 10, **extra})
    message = str(raised.value)
    api_keyword = keyword.removeprefix("--")
    assert keyword in message or api_keyword in message
    args = [
        "cashnguns",
        "tournament",
        "-e",
        entrants,
        "--players",
        str(extra.get("players", 4)),
        "--n",
        "10",
        "--no-store",
        *(["--design", extra["design"]] if "design" in extra else []),
    ]
    with pytest.raises(SystemExit) as exited:
        main(args)
    err = capsys.readouterr().err
    assert exited.value.code == 2, err
    assert len(err.strip().splitlines()) == 1 and keyword in err


def test_cli_json_is_one_document(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "cashnguns",
            "tournament",
            "-e",
            "stubborn,coward,shark",
            "--players",
            "4",
            "--n",
            "150",
            "--store",
            str(tmp_path),
            "--json",
            "--plot",
            str(tmp_path / "plots"),
        ],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert set(document["tables"]) >= {"standings", "head_to_head", "payoff_table", "equilibrium", "alpharank"}
    assert document["details"]["tournament"]["design"] == "all"
    assert pl.DataFrame(document["tables"]["standings"]).height == 3
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == [
        "cashnguns_tournament_4p_head_to_head.svg",
        "cashnguns_tournament_4p_ranking.svg",
    ]
