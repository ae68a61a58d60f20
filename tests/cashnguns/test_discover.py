"""`discover`: the best-response oracle on a known game, the PSRO loop's store, resume and
reproducibility for any job count, and its bad input."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from typer.testing import CliRunner

from cardsim.analysis.cashnguns import (
    DiscoverSettings,
    discover,
    discover_path,
    measure_gain,
    search_best_response,
)
from cardsim.commands.cashnguns import app
from cardsim.errors import UserError

#: Win probability of the row strategy against the column strategy (a 2-player matrix game).
MATRIX = np.array(
    [
        [0.50, 0.30, 0.70, 0.45, 0.52],
        [0.80, 0.50, 0.20, 0.40, 0.50],
        [0.30, 0.80, 0.50, 0.60, 0.50],
        [0.75, 0.60, 0.40, 0.50, 0.50],
        [0.48, 0.50, 0.50, 0.50, 0.50],
    ]
)


class MatrixArena:
    """Two players; each game's win of slot 0 is one Bernoulli draw with the matrix's
    probability, made from the game's seed (same seed, same uniform: common random numbers)."""

    players = 2

    def play(self, strategies, lineups, seeds):
        uniform = (seeds % np.uint64(1_000_003)).astype(np.float64) / 1_000_003
        rows = np.array(strategies)[lineups[:, 0]]
        cols = np.array(strategies)[lineups[:, 1]]
        win = (uniform < MATRIX[rows, cols]).astype(np.float64)
        return np.column_stack([win, 1.0 - win])


def test_the_oracle_finds_the_known_best_response():
    """Against the pure mix 'strategy 0', strategy 1 wins 80% and the next best (3) 75%: the
    search finds 1, and the paired validation measures its gain of 30 points within the 95%
    interval."""
    arena = MatrixArena()
    found, mean = search_best_response(arena, [0], np.array([1.0]), [0, 2, 3, 1, 4], 400, 7, 0)
    assert found == 1
    gain, low, high = measure_gain(arena, [0], np.array([1.0]), found, 20_000, 7, 0)
    assert low < 0.30 < high and high - low < 0.03


def test_the_oracle_against_a_mixed_strategy():
    """Against the mix 1/2 strategy 1 + 1/2 strategy 2, strategy 3 wins (0.6 + 0.4)/2 = 0.5
    and strategy 2 (0.8 + 0.5)/2 = 0.65, the best; strategy 4 earns 0.5."""
    arena = MatrixArena()
    found, _ = search_best_response(arena, [1, 2], np.array([0.5, 0.5]), [4, 3, 0, 2], 400, 3, 1)
    assert found == 2


#: Cut-down settings: 8 grid/random and 8 local-search candidates per search (the default 100
#: local ones would be twelve times the budget).
#: A small run without the schedule sweep (its 336 candidates a round dominate a small run's time);
#: the job-count and resume test runs it with the sweep.
SMALL = DiscoverSettings(
    players=4,
    budget=8,
    local=8,
    rounds=2,
    start=("stubborn", "coward"),
    table_games=4_000,
    profile_min=40,
    search_games=100,
    validation_games=3_000,
    sweep=False,
)


def test_discover_is_the_same_for_any_job_count_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setattr("cardsim.analysis.cashnguns.search.DISCOVER_CHUNK", 1_000)  # several chunks per call
    one = discover(replace(SMALL, sweep=True), jobs=1)
    two = discover(replace(SMALL, sweep=True), jobs=2)
    assert one["rounds"][0]["sweep"] is not None
    assert one["rounds"] == two["rounds"]
    last = one["rounds"][-1]
    assert {"exploitability", "exploitability_hi", "equilibrium"} <= set(last)
    assert sum(last["equilibrium"].values()) == pytest.approx(1.0)
    assert last["exploitability_lo"] <= last["gain"] <= last["exploitability_hi"]
    # interrupted after one round: the rerun reuses it and finishes with the same numbers
    first = discover(replace(SMALL, rounds=1), store=tmp_path)
    path = discover_path(tmp_path, SMALL)
    assert len(json.loads(path.read_text())["rounds"]) == 1
    seen = []
    resumed = discover(SMALL, store=tmp_path, on_round=seen.append)
    assert seen[0] == first["rounds"][0]
    assert resumed["rounds"] == discover(SMALL)["rounds"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--budget", "0"], "--budget must be at least 1"),
        (["--metric", "money"], "--metric must be one of"),
        (["--players", "7"], "players must be 4-6"),
        (["--shame", "5000", "--rounds", "0"], "--rounds must be at least 1"),
        (["--local", "-1"], "--local must be at least 0"),
        (["--start", "nope"], "unknown strategy 'nope'"),
        (["--start", "coward:guns=9"], "guns"),
        (["--stop-checks", "-1"], "--stop-checks must be at least 0"),
    ],
)
def test_bad_discover_input_is_a_user_error_and_writes_nothing(tmp_path, args, message):
    result = CliRunner().invoke(app, ["discover", "--store", str(tmp_path / "store"), *args])
    assert isinstance(result.exception, UserError)
    assert message in str(result.exception)
    assert not (tmp_path / "store").exists()


def test_unknown_start_strategy_is_a_user_error():
    with pytest.raises(UserError, match="unknown strategy"):
        discover(replace(SMALL, start=("nope",)))


def test_discover_command_prints_each_round_and_one_json_document(tmp_path, monkeypatch):
    """Text: per round the equilibrium mix, the best reply with its plain-English description and
    the exploitability with its 95% interval; --json: one document whose last round (and top
    level) carries exploitability, exploitability_hi and the equilibrium. Small games via a
    wrapper so the test stays short."""
    import cardsim.analysis.cashnguns as analysis

    real = analysis.discover
    monkeypatch.setattr(
        analysis,
        "discover",
        lambda settings, **kw: real(
            replace(
                settings, start=SMALL.start, table_games=4_000, profile_min=40, search_games=100, validation_games=3_000
            ),
            **kw,
        ),
    )
    args = ["discover", "--players", "4", "--budget", "6", "--local", "4", "--rounds", "2", "--store", str(tmp_path)]
    text = CliRunner().invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "round 1: equilibrium of 2 strategies" in text.stdout
    assert "(discover/6: 6 grid/random + 4 local-search candidates per search, and the schedule sweep)" in text.stdout
    assert "discover's search, best of 10 candidates: custom:" in text.stdout and "exploitability" in text.stdout
    assert "[95% " in text.stdout and "reported: round " in text.stdout
    again = CliRunner().invoke(app, [*args, "--json"])  # resumed from the store: same rounds
    whole = json.loads(again.stdout)
    document = whole["details"]["discover"]
    assert document["method"] == "discover/6" and document["settings"]["local"] == 4
    assert whole["tables"]["discover"][0]["exploitability_hi"] == document["exploitability_hi"]
    last = document["rounds"][-1]
    assert {"exploitability", "exploitability_hi", "equilibrium"} <= set(last)
    reported = document["rounds"][document["reported_round"] - 1]
    assert document["exploitability_hi"] == reported["exploitability_hi"] >= reported["gain"]
    assert document["exploitability"] == reported["exploitability"] == max(reported["gain"], 0.0)
    assert document["equilibrium"] == reported["equilibrium"]
    assert [f"round {r['round']}:" in text.stdout for r in document["rounds"]] == [True] * len(document["rounds"])


def test_stop_checks_and_the_outside_check_draw_from_streams_discover_never_uses():
    """Same root and key, other owner: other games (the spawn key separates them)."""
    from cardsim.analysis.cashnguns import OUTSIDE_CHECK, STOP_CHECK, keyed_seeds

    own = keyed_seeds(0, 0, 10, 1, size=50)
    others = [
        keyed_seeds(0, 0, 10, 1, size=50, streams=s) for s in ((STOP_CHECK, 0), (STOP_CHECK, 1), (OUTSIDE_CHECK,))
    ]
    assert not any(np.intersect1d(own, o).size for o in others)
    assert not np.intersect1d(others[0], others[1]).size
    assert np.array_equal(own, keyed_seeds(0, 0, 10, 1, size=50))  # discover's own numbers unchanged


def test_discover_stops_only_when_the_independent_searches_agree():
    """Every round runs the stop checks besides its own search; the round converges exactly
    when no search gains significantly and each bound is within the tolerance, and then the run
    ends and reports it. The new reply with the highest significant gain joins the library. The
    round's exploitability is the highest bound of its searches."""
    from cardsim.analysis.cashnguns import reported_round

    for settings in (
        replace(SMALL, rounds=3, stop_checks=1, tolerance=1e-6),
        replace(SMALL, rounds=4, stop_checks=2, tolerance=0.05),
    ):
        run = discover(settings)
        for record in run["rounds"]:
            searches = [record["search"], *record["stop_checks"]]
            assert len(searches) == 1 + settings.stop_checks
            assert record["converged"] == all(
                s["exploitability_lo"] <= 0 and s["exploitability_hi"] <= settings.tolerance for s in searches
            )
            new = [
                s for s in searches if s["exploitability_lo"] > 0 and s["best_response_name"] not in record["library"]
            ]
            if new:  # the best significant new reply joins, alone
                assert [a["name"] for a in record["added"]] == [max(new, key=lambda s: s["gain"])["best_response_name"]]
            assert len(record["added"]) <= 1
            assert record["exploitability_hi"] == max(s["exploitability_hi"] for s in searches)
        assert run["converged"] == run["rounds"][-1]["converged"]
        assert run["converged"] or len(run["rounds"]) == settings.rounds
        reported = reported_round(run)
        if run["converged"]:
            assert reported is run["rounds"][-1] and run["rounds"][-1]["added"] == []
        else:
            assert reported["exploitability_hi"] == min(r["exploitability_hi"] for r in run["rounds"])


def test_outside_check_finds_the_exploit_of_a_poor_equilibrium_and_is_stored(tmp_path):
    """Everyone playing 'stubborn' (never lies down, random cards) is beaten by far: the outside
    check's reply gains significantly. The result is kept in the store and reused."""
    from cardsim.analysis.cashnguns import OutsideCheck, check_equilibrium

    entry = {
        "players": 4,
        "metric": "win",
        "shame_value": -5000,
        "library": [{"name": "stubborn", "spec": "stubborn"}],
        "equilibrium": {"stubborn": 1.0},
    }
    check = OutsideCheck(budget=12, search_games=100, validation_games=3_000, seed=5, sweep=False)
    found = check_equilibrium(entry, check, store=tmp_path)
    assert (
        found["exploitability_lo"] > 0.03
        and found["candidates"] == 12 + check.local
        and found["validation_games"] == 3_000
    )
    assert found["equilibrium"] == {"stubborn": 1.0} and found["check"]["seed"] == 5
    assert len(list((tmp_path / "cashnguns_check").glob("*.json"))) == 1
    assert check_equilibrium(entry, check, store=tmp_path) == found
    with pytest.raises(UserError, match="not in the library: nobody"):
        check_equilibrium({**entry, "equilibrium": {"nobody": 1.0}}, check)
    with pytest.raises(UserError, match="--budget must be at least 1"):
        check_equilibrium(entry, replace(check, budget=0))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--budget", "0"], "--budget must be at least 1"),
        (["--n", "-3"], "--n must be at least 1"),
        (["--metric", "money"], "--metric must be one of"),
        (["--players", "7"], "players must be 4-6"),
        (["--libraries", "/nonexistent/libraries.json"], "missing or unreadable"),
        (["--local", "-5"], "--local must be at least 0"),
    ],
)
def test_bad_check_input_is_a_user_error(args, message):
    result = CliRunner().invoke(app, ["check", "--jobs", "1", *args])
    assert isinstance(result.exception, UserError)
    assert message in str(result.exception)


def _matrix_game(strategies):
    """The symmetric two-player game of MATRIX restricted to ``strategies`` (indices)."""
    from cardsim.analysis.cashnguns import SymmetricGame

    count = len(strategies)
    payoff = MATRIX[np.ix_(strategies, strategies)]
    return SymmetricGame(
        tuple(str(s) for s in strategies),
        2,
        np.eye(count, dtype=np.int64),
        payoff,
        np.ones(count),
        np.zeros((count, count)),
        "win",
    )


def test_pruning_beyond_the_cap_drops_negligible_then_smallest_shares():
    """MATRIX's symmetric equilibrium puts 2/11, 19/77 and 4/7 on strategies 0, 2 and 3 and
    nothing on 1 and 4. Under the cap nothing leaves (the double oracle's memory); beyond it the
    negligible shares leave first, oldest first, then the smallest share, never the joining
    reply. Pruning down to the support keeps the equilibrium (up to the solver's iterations),
    and against it no pruned strategy gains, so the oracle, which still tries them, finds no
    reply beating the mix's own payoff."""
    from cardsim.analysis.cashnguns import evaluate_mix, next_library, symmetric_equilibrium

    full = symmetric_equilibrium(_matrix_game([0, 1, 2, 3, 4]))
    assert full.mix == pytest.approx([2 / 11, 0, 19 / 77, 4 / 7, 0], abs=1e-4)
    shares = {str(s): float(share) for s, share in enumerate(full.mix) if share > 0}
    library = ["0", "1", "2", "3", "4"]
    assert next_library(library, shares, [], cap=5, prune_share=0.02) == library
    assert next_library(library, shares, ["9"], cap=8, prune_share=0.02) == library + ["9"]
    assert next_library(library, shares, ["9"], cap=5, prune_share=0.02) == ["0", "2", "3", "4", "9"]
    assert next_library(library, shares, ["9"], cap=3, prune_share=0.02) == ["2", "3", "9"]  # then 0 (2/11)
    assert next_library(library, shares, ["9"], cap=2, prune_share=0.02) == ["3", "9"]
    small = {"a": 0.015, "b": 0.5, "c": 0.01, "d": 0.475}
    assert next_library(list(small), small, ["e"], cap=4, prune_share=0.02) == ["b", "c", "d", "e"]  # oldest negligible
    assert next_library(list(small), small, ["e"], cap=4, prune_share=0.0) == ["a", "b", "d", "e"]  # smallest share
    pruned = symmetric_equilibrium(_matrix_game([0, 2, 3]))
    assert pruned.mix == pytest.approx([2 / 11, 19 / 77, 4 / 7], abs=5e-3) and pruned.regret < 1e-3
    against = evaluate_mix(_matrix_game([0, 1, 2, 3, 4]), np.array([pruned.mix[0], 0, pruned.mix[1], pruned.mix[2], 0]))
    assert against.regret < 1e-3
    arena = MatrixArena()
    found, _ = search_best_response(arena, [0, 2, 3], pruned.mix, [1, 4, 0, 2, 3], 4_000, 11, 0)
    gain, low, high = measure_gain(arena, [0, 2, 3], pruned.mix, found, 40_000, 11, 0)
    assert found in (0, 2, 3) and low <= 0 <= high


def test_discover_keeps_the_cap_and_recognises_a_returning_strategy():
    """With a cap of 3 the library is pruned every round a reply joins; each round records what
    left (exactly what the cap rule drops), the next library is the kept ones plus the reply, a
    pruned strategy keeps its name, and one that joins again is flagged as returning."""
    from cardsim.analysis.cashnguns import next_library

    settings = replace(
        SMALL, rounds=4, start=("stubborn", "coward", "bluffer"), library_cap=3, stop_checks=1, tolerance=1e-6
    )
    run = discover(settings)
    specs = {name: spec for spec, name in run["names"].items()}
    dropped: list[str] = []
    rounds = run["rounds"]
    for record, following in zip(rounds, rounds[1:] + [None]):
        library = [specs[name] for name in record["library"]]
        added = [a["spec"] for a in record["added"]]
        expected = next_library(library, record["equilibrium_specs"], added, 3, settings.prune_share)
        assert [p["name"] for p in record["pruned"]] == [run["names"][s] for s in library if s not in expected]
        for a in record["added"]:
            assert a["returned"] == (a["spec"] in dropped)
        dropped += [s for s in library if s not in expected and s not in dropped]
        if following is not None:
            assert following["library"] == [run["names"][s] for s in expected] and len(expected) <= 3
    assert any(record["pruned"] for record in rounds)
    assert run["dropped"] == dropped


def test_bad_prune_share_is_a_user_error():
    with pytest.raises(UserError, match="--prune-share"):
        discover(replace(SMALL, prune_share=1.0))


def test_start_library_continues_the_shipped_library_with_its_names(tmp_path, monkeypatch):
    """--start library,SPEC: the shipped library of the reading (its specs in order, a repeat
    dropped) plus the reply; the shipped strategies keep their names and the new one is numbered
    on from the highest shipped dN; --stop-checks reaches the settings."""
    import cardsim.analysis.cashnguns as analysis
    from cardsim.analysis.cashnguns import load_libraries, start_names

    seen = []

    def capture(settings, **kw):
        seen.append(settings)
        raise UserError("captured")

    monkeypatch.setattr(analysis, "discover", capture)
    entry = load_libraries()[(5, "win", -5000)]
    shipped = [item["spec"] for item in entry["library"]]
    reply = "custom:bullet=late,target=leader,lie=risk,guns=2,risk=0.8,greed=0,care=0.1,endgame=-0.4,hit=0.225"
    result = CliRunner().invoke(
        app,
        [
            "discover",
            "--players",
            "5",
            "--start",
            f"library,{shipped[0]},{reply}",
            "--stop-checks",
            "4",
            "--store",
            str(tmp_path),
        ],
    )
    assert "captured" in str(result.exception)
    settings = seen[0]
    assert settings.stop_checks == 4
    assert list(settings.start) == shipped + [analysis.parse_strategy(reply).spec()]
    names = start_names(settings)
    assert [names[spec] for spec in shipped] == [item["name"] for item in entry["library"]]
    highest = max(int(item["name"][1:]) for item in entry["library"] if item["name"][1:].isdigit())
    assert names[settings.start[-1]] == f"d{highest + 1}"
    with pytest.raises(UserError, match="same strategy twice"):
        replace(settings, start=(shipped[0], shipped[0])).check()


def test_other_settings_keep_their_own_record(tmp_path):
    """A run with another start, stop-check count or local budget is stored apart from the
    default run of the reading (it never overwrites or resumes it); --rounds shares the record."""
    default = DiscoverSettings(players=4)
    path = discover_path(tmp_path, default)
    assert path.name == "4p_win_shamem5000_seed0_budget200.json"
    assert discover_path(tmp_path, replace(default, rounds=3)) == path
    others = {
        discover_path(tmp_path, replace(default, **change))
        for change in ({"local": 0}, {"stop_checks": 4}, {"start": ("coward", "sniper")})
    }
    assert len(others) == 3 and path not in others
    base = replace(SMALL, rounds=1, stop_checks=0)
    discover(base, store=tmp_path)
    first = discover_path(tmp_path, base).read_text()
    discover(replace(base, local=0), store=tmp_path)
    assert discover_path(tmp_path, base).read_text() == first
    assert discover_path(tmp_path, replace(base, local=0)).exists()
