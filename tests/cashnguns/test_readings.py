"""The readings side by side: tables and plain-words conclusions from the readings' equilibria
and their outside checks."""

from __future__ import annotations

import pytest

from cardsim.reports.sections.cashnguns import (
    readings_blocks,
    readings_conclusions,
    readings_table,
    searched_sentence,
)

COWARD = "custom:bullet=random,target=random,lie=guns,guns=2"
SNIPER = "custom:bullet=late,target=leader,lie=never"
COUNTER = "custom:bullet=safe,target=clicks,lie=risk,safe=0,guns=1,risk=0.5,greed=0,care=0,endgame=0,count=1"
NAMES = {COWARD: "coward", SNIPER: "sniper", COUNTER: "d1"}


def entry(players, metric, shame, shares: dict[str, float], converged: bool = True) -> dict:
    return {
        "players": players,
        "metric": metric,
        "shame_value": shame,
        "converged": converged,
        "rounds": 5,
        "library": [{"name": name, "spec": spec} for spec, name in NAMES.items()],
        "equilibrium": {NAMES[s]: v for s, v in shares.items()},
        "exploitability_hi": 0.004,
        "command": f"cardsim cashnguns discover --players {players}",
        "date": "2026-12-01T03:00:00+00:00",
    }


def check(gain: float, seed: int = 1) -> dict:
    return {
        "gain": gain,
        "exploitability_hi": gain + 0.004,
        "validation_games": 100_000,
        "candidates": 200,
        "check": {"budget": 200, "search_games": 1_000, "validation_games": 100_000, "seed": seed},
    }


def test_conclusions_say_what_holds_and_what_flips():
    entries = {
        (4, "win", -5000): entry(4, "win", -5000, {COUNTER: 0.7, SNIPER: 0.3}),
        (4, "win", 5000): entry(4, "win", 5000, {COUNTER: 0.6, COWARD: 0.4}),
        (5, "score", -5000): entry(5, "score", -5000, {SNIPER: 0.8, COUNTER: 0.2}, converged=False),
    }
    checks = {(4, "win", -5000): check(0.004), (4, "win", 5000): check(0.004), (5, "score", -5000): check(900.0)}
    table = readings_table(entries, checks)
    assert table["exploitability"].to_list() == [0.4, 0.4, 900.0]  # points for win, dollars for score
    assert table["discover_hi"].to_list() == [0.4, 0.4, 0.004]
    text = " ".join(readings_conclusions(entries))
    assert (
        "Card order holds in all 3 runs: most of the searched mix (at least 60%) holds its loaded cards back." in text
    )
    assert (
        "Bullet policy flips: bullet=safe in 4p win, shame -5,000, 4p win, shame +5,000; bullet=late in 5p score, shame -5,000."
        in text
    )
    assert "Card counting flips" in text


def test_report_block_lists_missing_runs():
    entries = {(4, "win", -5000): entry(4, "win", -5000, {COUNTER: 1.0})}
    blocks = readings_blocks((4,), entries, {(4, "win", -5000): check(0.002)})
    text = str(blocks[-1])
    assert "cardsim cashnguns discover --players 4 --metric score --shame 5000" in text
    assert "--metric win --shame -5000" not in text


def test_key_sentence_gives_each_outside_bound_and_the_target_verdict():
    entries = {
        (4, "win", -5000): entry(4, "win", -5000, {COUNTER: 0.7, SNIPER: 0.3}),
        (5, "win", -5000): entry(5, "win", -5000, {COUNTER: 1.0}),
        (5, "score", 5000): entry(5, "score", 5000, {COUNTER: 1.0}),
    }
    checks = {
        (4, "win", -5000): check(0.002, seed=1),
        (5, "win", -5000): check(0.008, seed=1),
        (5, "score", 5000): check(50.0, seed=1),
    }
    text = searched_sentence(entries, checks)
    assert text.startswith(
        "Tried from outside, within the searched strategy space only (five fixed card "
        "orders: random, big pot, early, late, safe; targets and lie-down rules from the public "
        "record): with 4, 5 players (win probability, shame -$5,000), a fresh "
        "best-response search of 200 candidates (seed 1"
    )
    assert "+0.20 (95% <= 0.60) at 4; +0.80 (95% <= 1.20) at 5 points" in text
    assert "the 1-point target is missed at 5 players" in text
    assert "Card order holds in all 3 runs" in text
    checks[(5, "win", -5000)] = check(0.005)
    assert "within the 1-point target at every count" in searched_sentence(entries, checks)
    assert searched_sentence({}, {}) == ""


def test_a_mix_that_did_not_converge_is_labelled_and_left_out_of_the_conclusions():
    """The report calls a mix an equilibrium only when its run converged under the current stop
    rule: a run stopped at its round limit, or a first-method entry, is labelled as such in the
    table and left out of what holds and flips (named as left out)."""
    from cardsim.analysis.cashnguns import DISCOVER_METHOD_1, converged_entry
    from cardsim.reports.sections.cashnguns import conclusions_text, entry_status

    entries = {
        (4, "win", -5000): entry(4, "win", -5000, {COUNTER: 0.7, SNIPER: 0.3}),
        (4, "win", 5000): {**entry(4, "win", 5000, {COWARD: 1.0}), "method": DISCOVER_METHOD_1},
        (5, "score", -5000): {**entry(5, "score", -5000, {SNIPER: 1.0}, converged=False), "reported_round": 3},
    }
    assert [converged_entry(e) for e in entries.values()] == [True, False, False]
    assert entry_status(entries[(4, "win", -5000)]) == (
        "converged within the searched space only, not shown to be an equilibrium of the game"
    )
    assert (
        entry_status(entries[(4, "win", 5000)])
        == "not converged (stopped by the first method's rule, its own search alone)"
    )
    assert entry_status(entries[(5, "score", -5000)]) == (
        "not converged (its run stopped at 5 rounds without converging); shipped: round 3's mix of 5, the least exploitable"
    )
    table = readings_table(entries, {})
    assert table["status"].to_list() == [entry_status(e) for _, e in sorted(entries.items())]
    text = conclusions_text(entries)
    assert "Card order holds in all 1 runs: all of the searched mix holds its loaded cards back." in text
    assert text.endswith(
        "did not converge by the current rule or an outside check refuted them (not shown to "
        "be equilibria; the table's status says which and how far each mix is beaten): "
        "4p win, shame +5,000, 5p score, shame -5,000."
    )


def test_a_converged_mix_refuted_from_outside_is_not_called_an_equilibrium():
    """A run that converged by discover's own rule but whose mix an outside check beats beyond
    the tolerance (the whole 95% interval above it, recorded in the entry as ``refuted``) is
    labelled refuted, with the check's command and figures, and left out of the conclusions."""
    from cardsim.analysis.cashnguns import converged_entry
    from cardsim.reports.sections.cashnguns import conclusions_text, entry_status

    refuted = {
        "command": "cardsim cashnguns check --players 4 --metric score --shame -5000 --seed 13",
        "gain": 2176.75,
        "interval": [1809.95, 2543.55],
    }
    entries = {
        (4, "win", -5000): entry(4, "win", -5000, {COUNTER: 0.7, SNIPER: 0.3}),
        (4, "score", -5000): {**entry(4, "score", -5000, {SNIPER: 1.0}), "refuted": refuted},
    }
    assert [converged_entry(e) for e in entries.values()] == [True, False]
    status = entry_status(entries[(4, "score", -5000)])
    assert status == (
        "not converged (refuted by an outside check); best known reply gains +$2,177 (95% interval "
        "$1,810 to $2,544) (from `cardsim cashnguns check --players 4 --metric score --shame -5000 --seed 13`"
        # a record without ``random_streams`` was measured before each seat had its own stream
        "; measured when the seats' random numbers came from the game's shared stream)"
    )
    assert conclusions_text(entries).endswith("4p score, shame -5,000.")


def test_a_refutation_of_a_mix_that_did_not_converge_is_reported_as_missing_the_target():
    """A ``refuted`` record applies to an entry whose run did not converge too: its status says
    both, and where the refutation's 95% upper bound is above the outside check's, the table and
    the key sentence give the refuting gain, so the count misses the one-point target even though
    the package's own check is within it."""
    from cardsim.analysis.cashnguns import converged_entry
    from cardsim.reports.sections.cashnguns import entry_status

    command = "measure_gain(reviewer's reply, 200,000 paired games)"
    refuted = {"command": command, "gain": 0.0254, "interval": [0.0234, 0.0275]}
    entries = {
        (4, "win", -5000): entry(4, "win", -5000, {COUNTER: 0.7, SNIPER: 0.3}),
        (5, "win", -5000): {
            **entry(5, "win", -5000, {COUNTER: 1.0}, converged=False),
            "reported_round": 8,
            "refuted": refuted,
        },
    }
    checks = {(4, "win", -5000): check(0.002), (5, "win", -5000): check(0.005)}
    assert not converged_entry(entries[(5, "win", -5000)])
    assert entry_status(entries[(5, "win", -5000)]) == (
        "not converged (its run stopped at 5 rounds without converging; refuted by an outside check); best known "
        f"reply gains +2.54 points (95% interval 2.34 to 2.75) (from `{command}`; measured when the seats' random "
        "numbers came from the game's shared stream); shipped: round 8's mix of 5, "
        "the least exploitable"
    )
    table = readings_table(entries, checks)
    assert table["exploitability"].to_list() == pytest.approx([0.2, 2.54]) and table["refuted"].to_list() == [
        False,
        True,
    ]
    assert table["exploitability_hi"].to_list()[1] == pytest.approx(2.75)
    text = searched_sentence(entries, checks)
    assert f"+2.54 (95% <= 2.75) at 5 (an outside refutation, `{command}`; this report's check: +0.50, 95% <= " in text
    assert "the 1-point target is missed at 5 players" in text
    assert "Card order holds in all 1 runs" in text  # what holds: the converged, unrefuted run only
    weaker = {**refuted, "gain": 0.003, "interval": [0.001, 0.005]}  # below the check's bound: the check stands
    entries[(5, "win", -5000)]["refuted"] = weaker
    assert "within the 1-point target at every count" in searched_sentence(entries, checks)
    assert readings_table(entries, checks)["exploitability"].to_list() == pytest.approx([0.2, 0.5])


def test_another_recorded_outside_check_with_a_higher_bound_gives_the_figures():
    """An ``outside_checks`` record (another seed of ``cashnguns check``, not a refutation: its
    interval is not wholly above the tolerance) whose 95% upper bound is above this report's
    check gives the table's and the key sentence's figures, named as a recorded check; one below
    leaves the check's figures."""
    command = "cardsim cashnguns check --players 5 --seed 1 --jobs 1"
    recorded = {"command": command, "gain": 0.0083, "interval": [0.0053, 0.0113]}
    entries = {(5, "win", -5000): {**entry(5, "win", -5000, {COUNTER: 1.0}), "outside_checks": [recorded]}}
    checks = {(5, "win", -5000): check(0.002)}
    text = searched_sentence(entries, checks)
    assert f"+0.83 (95% <= 1.13) at 5 (a recorded outside check, `{command}`; this report's check: +0.20" in text
    assert "the 1-point target is missed at 5 players" in text
    table = readings_table(entries, checks)
    assert table["exploitability_hi"].to_list() == pytest.approx([1.13]) and table["refuted"].to_list() == [False]
    assert table["recorded_check"].to_list() == [command]
    entries[(5, "win", -5000)]["outside_checks"] = [{**recorded, "gain": 0.0, "interval": [-0.001, 0.001]}]
    assert "within the 1-point target at every count" in searched_sentence(entries, checks)
    assert readings_table(entries, checks)["recorded_check"].to_list() == [""]


def test_a_reply_from_outside_the_searched_space_is_named_and_the_mix_left_out():
    """A reply recorded with an entry from outside the searched space (``beyond_space``, e.g. a
    card order the space cannot express) that gains more than the tolerance is named in the
    status and the key sentence as the best known reply, labels the mix "not converged", and
    takes the entry out of what holds; one within the tolerance is named but leaves the entry in."""
    from cardsim.analysis.cashnguns import converged_entry
    from cardsim.reports.sections.cashnguns import conclusions_text, entry_status

    reply = {"reply": "card order C C C C C B X B", "gain": 0.245, "games": "200,000", "source": "an outside check"}
    entries = {
        (4, "win", -5000): {**entry(4, "win", -5000, {COUNTER: 1.0}), "beyond_space": [reply]},
        (5, "win", -5000): {
            **entry(5, "win", -5000, {COUNTER: 0.7, SNIPER: 0.3}),
            "beyond_space": [{**reply, "gain": 0.005}],
        },
    }
    assert [converged_entry(e) for e in entries.values()] == [False, True]
    assert entry_status(entries[(4, "win", -5000)]) == (
        "not converged (beaten by a reply outside the searched space); best known reply gains +24.50 points: "
        "card order C C C C C B X B (from an outside check; measured when the seats' random numbers came from "
        "the game's shared stream)"
    )
    text = searched_sentence(entries, {(4, "win", -5000): check(0.002), (5, "win", -5000): check(0.002)})
    assert (
        "replies from outside the searched space included: at 4 players not converged (beaten by a reply outside "
        "the searched space); best known reply gains +24.50 points: card order C C C C C B X B (from an outside "
        "check; measured when the seats' random numbers came from the game's shared stream); at 5 players "
        "converged within the searched space only, not shown to be an equilibrium of the game; best reply tried "
        "gains +0.50 points: card order C C C C C B X B (from an outside check; measured when the seats' random "
        "numbers came from the game's shared stream)."
    ) in text
    assert "equilibrium of the game:" not in text
    assert "Within the searched space only: Card order holds in all 1 runs" in text
    assert conclusions_text(entries).startswith("Within the searched space only")
    assert conclusions_text(entries).endswith("4p win, shame -5,000.")


def test_key_advice_is_derived_from_the_recorded_card_order_replies():
    """The plain-words key result names the round of Bang!Bang!Bang!, the Bangs' rounds, the
    aim, the lie-down rule and the gain with its interval of each recorded card-order
    refutation of the main reading, scoped to the shipped mixes, and is empty without one."""
    from cardsim.reports.sections.cashnguns import advice_sentences

    entries = {
        (4, "win", -5000): entry(4, "win", -5000, {SNIPER: 1.0}),
        (5, "score", 5000): entry(5, "score", 5000, {COUNTER: 1.0}),
    }
    assert advice_sentences(entries) == ""
    reply = "custom:bullet=schedule,target=leader,lie=never,order=CCXCCBBC"
    entries[(4, "win", -5000)]["refuted"] = {"command": "c", "gain": 0.123, "interval": [0.1, 0.15], "reply": reply}
    text = advice_sentences(entries)
    assert text.startswith(
        "Against the shipped mixes only (win probability, a tie counting as a win for every tied player; shame -$5,000)"
    )
    assert (
        "at 4 players one who fires Bang!Bang!Bang! in round 3 and Bangs in rounds 6 and 7, Clicks otherwise, "
        "aiming at the richest living opponent, and never lies down (+12 points, 95% interval 10.0 to 15.0)"
    ) in text
    assert "not a way to play" in text
    assert text.startswith(
        "Against the shipped mixes only (win probability, a tie counting as a win for every tied "
        "player; shame -$5,000), the mix is not converged at 4 players, and a player who"
    )
    entries[(4, "win", -5000)]["refuted"]["interval"] = [0.001, 0.2]  # a refutation all the same: not converged
    assert "the mix is not converged at 4 players" in advice_sentences(entries)
    entries[(4, "win", -5000)]["outside_checks"] = [entries[(4, "win", -5000)].pop("refuted")]  # a check within it
    assert advice_sentences(entries).endswith(
        "no reply tried (every card order included) gains more than 20.0 "
        "points at 4 players (95% upper bound); that is all it shows, not "
        "that the mix is how to play."
    )
    entries[(4, "win", -5000)]["beyond_space"] = [
        {"reply": "one who counts cards (a file)", "gain": 0.3, "interval": [0.2, 0.4], "source": "s", "games": 10}
    ]
    text = advice_sentences(entries)  # a recorded reply from outside the space, in its own words
    assert "not converged at 4 players" in text
    assert "at 4 players one who counts cards (+30 points, 95% interval 20.0 to 40.0)" in text
    entries[(4, "win", -5000)]["refuted"] = {
        "command": "c",
        "gain": 0.05,
        "interval": [0.04, 0.06],
        "reply": "custom:bullet=late,target=clicks,lie=never,read=1",
    }
    del entries[(4, "win", -5000)]["beyond_space"], entries[(4, "win", -5000)]["outside_checks"]
    assert (
        "at 4 players one who plays the Clicks first, then the Bangs, Bang!Bang!Bang! last, reading an "
        "opponent who has shown only Clicks as holding Clicks, aiming at"
    ) in advice_sentences(entries)


def test_a_mix_the_search_player_refutes_says_so():
    from cardsim.reports.sections.cashnguns import advice_sentences, entry_status

    refuted = {
        "command": "cardsim cashnguns check --players 4 --metric win --shame -5000 --seed 4748",
        "gain": 0.395,
        "interval": [0.377, 0.413],
        "description": "reads each opponent's policy and plays every decision by sampled worlds",
        "found_by": "search player",
        "random_streams": "private",
        "reply": "search:budget=64,metric=win,population=mix+presets",
    }
    refuted_entry = {**entry(4, "win", -5000, {COUNTER: 1.0}), "refuted": refuted}
    status = entry_status(refuted_entry)
    assert status.startswith("not converged (refuted by the search player); best known reply gains +39.50 points")
    assert "at 4 players the search player, which reads each opponent's policy and plays" in advice_sentences(
        {(4, "win", -5000): refuted_entry}
    )
