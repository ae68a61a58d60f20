"""The structural rules of role2/tuned2, the tuned2 training and the recorded ladder
the report's Bang! verdict is written from."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardsim.errors import UserError
from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from cardsim.sims.bang import policies as P
from cardsim.sims.bang import tuned
from cardsim.sims.bang import view as V
from cardsim.sims.bang.compare import (
    LADDER_RECORD,
    compare_rows,
    read_ladder_record,
    tables_digest,
)
from cardsim.sims.bang.simulator import bot_params
from cardsim.sims.bang.training import searched_params, training_fingerprint


def test_training_searches_the_trained_width_for_tuned_and_all_but_the_switch_for_tuned2() -> None:
    assert searched_params("tuned").tolist() == list(range(tuned.TRAINED_PARAMS))
    wide = searched_params("tuned2").tolist()
    assert P.P_REN_RULES not in wide and len(wide) == P.N_PARAMS - 1
    assert not set(P.STYLE_SWITCHES) & set(wide)


def test_a_parameter_file_keeps_one_width(tmp_path: Path) -> None:
    path = tmp_path / "tuned.json"
    tuned.write_entry(path, 5, E.DEFAULT_PARAMS * 1.0, {"command": "test"}, width=21)
    assert np.array_equal(tuned.params_for(5, path), E.DEFAULT_PARAMS)
    with pytest.raises(UserError, match="21 parameters per role"):
        tuned.write_entry(path, 7, E.DEFAULT_PARAMS * 1.0, {"command": "test"})


def test_shipped_tuned2_parameters_are_trained_with_the_rules_on() -> None:
    document = json.loads(tuned.SHIPPED2.read_text())
    assert document["param_names"] == list(P.PARAM_NAMES)
    assert sorted(document["players"]) == ["4", "5", "6", "7"]
    for players, entry in document["players"].items():
        present = sorted(set(C.roles_for(int(players))))
        assert (bot_params("tuned2", int(players))[present, P.P_REN_RULES] == 1.0).all()
        provenance = entry["provenance"]
        assert provenance["command"].startswith(f"cardsim bang train --bot tuned2 --players {players} --seed 0")
        # trained by the bots and rules in this tree (retrain after changing them)
        assert provenance["code_fingerprint"] == training_fingerprint("tuned2")


def outlaw_view(kind: int) -> tuple[np.ndarray, int]:
    """A 7-player view of an Outlaw holding one card of ``kind`` and nothing else, the Sheriff
    (seat 0) out of his reach with one life, one card in hand, a Barrel and a Mustang."""
    s = E.setup_game(7, np.full(4, C.BOT_ROLE), E.DEFAULT_PARAMS, 1000, np.random.default_rng(3))
    p = int(np.flatnonzero(E.StateView(s).role[:7] == C.OUTLAW)[0])
    v = E.public_view(s, p).copy()
    sheriff = v[V.V_SHERIFF]
    card = int(np.flatnonzero(C.CARD_KIND == kind)[0])
    v[V.V_MY_KINDS : V.V_MY_KINDS + C.N_KINDS] = 0
    v[V.V_MY_KINDS + kind] = 1
    v[V.V_MY_CARDS] = card
    v[V.V_HAND_N] = 1
    v[V.V_LIFE + sheriff] = 1
    v[V.V_HAND_COUNT + sheriff] = 1
    v[V.V_REACH] = 1
    v[V.V_DIST + sheriff] = 3
    v[V.V_TABLE + sheriff * C.N_KINDS : V.V_TABLE + (sheriff + 1) * C.N_KINDS] = -1
    for blue in (C.BARREL, C.MUSTANG):
        v[V.V_TABLE + sheriff * C.N_KINDS + blue] = int(np.flatnonzero(C.CARD_KIND == blue)[0])
    v[V.V_TABLE_N + sheriff] = 2
    return v, card


def test_a_focused_outlaw_duels_a_one_life_sheriff_without_a_bang() -> None:
    v, duel = outlaw_view(C.DUEL)
    sheriff = v[V.V_SHERIFF]
    assert P.scripted_play(v, E.DEFAULT_PARAMS[C.OUTLAW])[0] != duel
    assert P.scripted_play(v, P.with_structure(E.DEFAULT_PARAMS)[C.OUTLAW]) == (duel, sheriff, -1)
    v[V.V_LIFE + sheriff] = 2  # not down to one life: no all-in Duel
    assert P.scripted_play(v, P.with_structure(E.DEFAULT_PARAMS)[C.OUTLAW])[0] != duel


def test_a_focused_outlaw_takes_the_mustang_that_keeps_the_sheriff_away() -> None:
    v, cat = outlaw_view(C.CAT_BALOU)
    sheriff = v[V.V_SHERIFF]
    barrel = v[V.V_TABLE + sheriff * C.N_KINDS + C.BARREL]
    mustang = v[V.V_TABLE + sheriff * C.N_KINDS + C.MUSTANG]
    assert P.scripted_play(v, E.DEFAULT_PARAMS[C.OUTLAW]) == (cat, sheriff, barrel)
    assert P.scripted_play(v, P.with_structure(E.DEFAULT_PARAMS)[C.OUTLAW]) == (cat, sheriff, mustang)
    v[V.V_DIST + sheriff] = 1  # in reach: the Barrel, as the role bot
    assert P.scripted_play(v, P.with_structure(E.DEFAULT_PARAMS)[C.OUTLAW]) == (cat, sheriff, barrel)


def test_the_careful_sheriff_holds_fire_on_players_with_no_hostile_record() -> None:
    s = E.setup_game(7, np.full(4, C.BOT_ROLE), E.DEFAULT_PARAMS, 1000, np.random.default_rng(4))
    v = E.public_view(s, 0).copy()
    v[V.V_ATTACKS + 2 * V.MAX_SEATS + 0] = 1  # seat 2 shot the Sheriff
    plain, careful = E.DEFAULT_PARAMS[C.SHERIFF], P.with_structure(E.DEFAULT_PARAMS)[C.SHERIFF]
    suspect = P.suspicion(v, plain)
    for t in range(1, 7):
        drop = P.hostility(v, plain, suspect, t) - P.hostility(v, careful, suspect, t)
        assert drop == pytest.approx(careful[P.P_SHERIFF_CAUTION] if suspect[t] <= 0 else 0.0)
    assert suspect[2] > 0 and careful[P.P_SHERIFF_CAUTION] > 0


def test_a_baseline_equal_to_against_is_the_plain_compare() -> None:
    plain = compare_rows([5], "role2", "role", ["renegade"], 300, 4, 1)
    (same,) = compare_rows([5], "role2", "role", ["renegade"], 300, 4, 1, baseline="role")
    assert same.pop("baseline_bot") == "role" and [same] == plain
    (other,) = compare_rows([5], "role2", "role", ["renegade"], 300, 4, 1, baseline="random")
    assert other["win"] == plain[0]["win"] and other["baseline"] != plain[0]["baseline"]


def _record(path: Path, tables: str) -> None:
    rows = [
        {
            "players": 5,
            "role": role,
            "bot": "tuned2",
            "against": "role2",
            "n": 100,
            "diff": d,
            "diff_lo": d - 0.02,
            "diff_hi": d + 0.02,
            "holds": d >= 0.03 and d - 0.02 > 0,
        }
        for role, d in (("sheriff", 0.06), ("outlaw", 0.01))
    ]
    checks = [
        {
            "players": 5,
            "role": "renegade",
            "bot": "search",
            "against": "tuned2",
            "baseline_bot": "role2",
            "n": 100,
            "diff": -0.01,
            "diff_lo": -0.04,
            "diff_hi": 0.02,
        }
    ]
    path.write_text(
        json.dumps(
            {
                "format": "cardsim-bang-ladder/1",
                "command": "cardsim bang ladder --n 100",
                "players": [5],
                "rungs": ["role2", "tuned2"],
                "n": 100,
                "seed": 0,
                "budget": 64,
                "tables": tables,
                "table_bots": ["role2", "tuned2"],
                "rows": rows,
                "search_checks": checks,
            }
        )
    )


def test_the_report_verdict_is_written_from_the_recorded_ladder(tmp_path: Path) -> None:
    from cardsim.reports.sections.bang import ladder_paragraph

    path = tmp_path / "ladder.json"
    _record(path, tables_digest(["role2", "tuned2"], [5]))
    text = ladder_paragraph(path)
    assert "1 of 2 cells: 5p outlaw +1.0 (-1.0..+3.0)" in text
    assert "not as good as the two-rule Renegade" in text and "n = 100 deals" in text
    assert "other bot parameters" not in text
    _record(path, "0123456789abcdef")
    assert "other bot parameters" in ladder_paragraph(path)
    path.write_text("{}")
    with pytest.raises(UserError, match="ladder record"):
        ladder_paragraph(path)


def test_the_shipped_ladder_was_recorded_with_the_shipped_bots() -> None:
    document = read_ladder_record(LADDER_RECORD)
    assert document["tables"] == tables_digest(document["table_bots"], document["players"])
    assert document["command"].startswith("cardsim bang ladder")
    cells = {(r["players"], r["role"], r["bot"]) for r in document["rows"]}
    assert len(cells) == len(document["rows"]) and {5, 7} <= set(document["players"])


def test_ladder_record_round_trip(tmp_path: Path) -> None:
    from cardsim.api import bang
    from cardsim.reports.sections.bang import ladder_paragraph

    path = tmp_path / "ladder.json"
    frame, verdict = bang.ladder("5", "random,role2", n=60, seed=1, jobs=1, record=path)
    document = read_ladder_record(path)
    assert document["rows"] == frame.to_dicts() and document["search_checks"] == []
    assert document["command"] == ("cardsim bang ladder --players 5 --rungs random,role2 --n 60 --seed 1 --budget 128")
    assert verdict in ladder_paragraph(path)


def renegade_view(sheriff_life: int) -> tuple[np.ndarray, int, int, int]:
    """A 5-player view of the Renegade with every other player alive (two Outlaws, one
    Deputy) and the Sheriff at ``sheriff_life``: (view, Renegade's seat, an outlaw-looking
    seat, a lawful-looking seat)."""
    s = E.setup_game(5, np.full(4, C.BOT_ROLE2), bot_params("role2", 5), 1000, np.random.default_rng(5))
    p = int(np.flatnonzero(E.StateView(s).role[:5] == C.RENEGADE)[0])
    v = E.public_view(s, p).copy()
    sheriff = v[V.V_SHERIFF]
    outlawish, lawful = [q for q in range(5) if q not in (p, sheriff)][:2]
    v[V.V_LIFE + sheriff] = sheriff_life
    return v, p, outlawish, lawful


def test_the_balancing_renegade_hits_the_side_that_is_ahead() -> None:
    """role2's Renegade (the outside Balancer's rule): the Sheriff never while others live; the
    lawful-looking players while the Sheriff has 3+ life, the outlaw-looking ones below; the
    two-rule Renegade (balancing off) reads the lead from the Deputy/Outlaw count instead."""
    w = bot_params("role2", 5)[C.RENEGADE]
    two_rule = w.copy()
    two_rule[[P.P_REN_LAW_LIFE, P.P_REN_BASE, P.P_REN_REVENGE]] = 0.0
    for life, law_ahead in ((4, True), (3, True), (2, False)):
        v, p, outlawish, lawful = renegade_view(life)
        suspect = np.zeros(V.MAX_SEATS)
        suspect[outlawish], suspect[lawful] = 2.0, -2.0
        h = [P.hostility(v, w, suspect, t) for t in (outlawish, lawful)]
        assert (h[1] > h[0]) == law_ahead, (life, h)
        assert P.hostility(v, w, suspect, v[V.V_SHERIFF]) == -1e9
        # one Deputy, two Outlaws alive: the two-rule Renegade sees the Outlaws ahead
        h2 = [P.hostility(v, two_rule, suspect, t) for t in (outlawish, lawful)]
        assert h2[0] > h2[1]
    v[V.V_ATTACKS + lawful * V.MAX_SEATS + p] += 2  # the lawful-looking one shot him twice
    answered = P.hostility(v, w, suspect, lawful)
    assert answered == pytest.approx(h[1] + 2 * w[P.P_REN_REVENGE])


def test_the_balancing_renegade_keeps_shooting() -> None:
    """With ``renegade_base`` the Renegade aims at someone with no record (the two-rule one
    holds fire at the role bot's threshold)."""
    v, p, _, _ = renegade_view(4)
    w = bot_params("role2", 5)[C.RENEGADE]
    zero = np.zeros(V.MAX_SEATS)
    assert P.best_target(v, w, zero, C.DUEL, w[P.P_SHOOT_MIN]) >= 0
    off = w.copy()
    off[P.P_REN_BASE] = 0.0
    assert P.best_target(v, off, zero, C.DUEL, off[P.P_SHOOT_MIN]) == -1


def test_the_two_rule_baseline_is_role2_without_the_balancing() -> None:
    from cardsim.sims.bang.compare import TWO_RULE, bot_table

    code, table = bot_table(TWO_RULE, 5, None)
    role2 = bot_params("role2", 5)
    assert code == C.BOT_ROLE2 and table[C.RENEGADE, P.P_REN_RULES] == 1.0
    balancing = [P.P_REN_LAW_LIFE, P.P_REN_BASE, P.P_REN_REVENGE]
    assert not table[:, balancing].any() and role2[C.RENEGADE, balancing].all()
    others = [i for i in range(P.N_PARAMS) if i not in balancing]
    assert np.array_equal(table[:, others], role2[:, others])
