"""The recorded outside replies: the report names the player counts whose favoured side they flip."""

from __future__ import annotations

import json

from cardsim.reports.sections.bang import OUTSIDE_RECORD, outside_flips, outside_paragraph, outside_replies
from cardsim.sims.core.user_strategy import load_strategy


def _record(tmp_path, favoured_with_reply: str):
    document = json.loads(OUTSIDE_RECORD.read_text(encoding="utf-8"))
    for row in document["replies"][0]["sheriff_side"]:
        row["favoured_with_reply"] = row["favoured_tuned"]
    document["replies"][0]["sheriff_side"][1]["favoured_with_reply"] = favoured_with_reply
    path = tmp_path / "outside.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_flip_is_named_and_no_flip_is_not(tmp_path):
    flipped = outside_paragraph(outside_replies(_record(tmp_path, "outlaws")))
    assert "flips the favoured side at 5 players" in flipped and "depends on how the renegade plays" in flipped
    assert "flips" not in outside_paragraph(outside_replies(_record(tmp_path, "sheriff")))
    assert outside_replies(tmp_path / "missing.json") == [] and outside_paragraph([]) == ""


def test_every_recorded_strategy_loads_and_plays_its_role():
    for reply in outside_replies(OUTSIDE_RECORD):
        strategy = load_strategy(reply["strategy"])
        assert callable(getattr(strategy, "play", None)) or callable(getattr(strategy, "hostility", None))


def test_the_flipped_counts_are_the_ones_the_record_flips(tmp_path):
    assert outside_flips(outside_replies(_record(tmp_path, "outlaws"))) == {5: "Renegade"}
    assert outside_flips(outside_replies(_record(tmp_path, "sheriff"))) == {}
