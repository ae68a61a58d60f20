"""The readings of the rules side by side: which stored discover runs exist, whether an entry's
mix still holds (:func:`converged_entry`), and the highest outside measure recorded with it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from cardsim.analysis.cashnguns.discover import (
    DISCOVER_METHOD_1,
    DiscoverSettings,
    _settings_key,
    discover_path,
)
from cardsim.analysis.cashnguns.search import DEFAULT_TOLERANCE

#: The rules readings the report compares: payoff metric x shame marker value (dollars).
READINGS: tuple[tuple[str, int], ...] = (("win", -5_000), ("win", 5_000), ("score", -5_000), ("score", 5_000))


def reading_label(metric: str, shame_value: int) -> str:
    return f"{metric}, shame {shame_value:+,}"


def discover_command_line(players: int, metric: str, shame_value: int) -> str:
    """The command that produces (or resumes) one stored discover run of the report."""
    return f"cardsim cashnguns discover --players {players} --metric {metric} --shame {shame_value}"


def load_discover_documents(store: Path, players: Sequence[int]) -> dict[tuple[int, str, int], dict]:
    """The stored discover runs (the current default settings but the reading) of every reading
    and player count, each with ``date``: its file's last change (UTC). A file at the same path
    with other settings (an older method's run) is skipped, and so is an unfinished run (not
    converged and fewer than the default rounds: still running or interrupted)."""
    import datetime
    import json

    found = {}
    for count in players:
        for metric, shame_value in READINGS:
            settings = DiscoverSettings(players=count, metric=metric, shame_value=shame_value)
            path = discover_path(store, settings)
            if path.exists():
                try:
                    document = json.loads(path.read_text())
                except (OSError, ValueError):
                    continue
                if document.get("settings") != _settings_key(settings) or not document.get("rounds"):
                    continue  # another method's or settings' run at the same path
                if not document.get("converged") and len(document["rounds"]) < settings.rounds:
                    continue  # unfinished: still running or interrupted (rerun the command to resume)
                stamp = datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.timezone.utc)
                found[(count, metric, shame_value)] = {**document, "date": stamp.isoformat(timespec="seconds")}
    return found





def converged_entry(entry: dict) -> bool:
    """Whether an entry's mix is a searched equilibrium under the current stop rule: its run
    converged (no search gained significantly and every 95% bound was within the tolerance)
    and no outside check recorded with it (``refuted``) found a reply whose whole 95%
    interval lies above the tolerance, nor a reply from outside the searched space
    (``beyond_space``) gains more than the tolerance. Even then it is a mix of the searched
    space, not shown to be an equilibrium of the game. A first-method entry ("discover/1") never is: it
    stopped when its own search alone found nothing."""
    tolerance = DEFAULT_TOLERANCE[entry.get("metric", "win")]
    beaten_outside = any(reply["gain"] > tolerance for reply in entry.get("beyond_space", []))
    return (bool(entry["converged"]) and entry.get("method") != DISCOVER_METHOD_1
            and not entry.get("refuted") and not beaten_outside)

def outside_figures(entry: dict, check: dict) -> dict:
    """What the report gives as a reading's outside measure: the outside check's ``gain`` and
    ``exploitability_hi`` (``check``, possibly empty), or, when its 95% upper bound is higher
    (or there is no check), the entry's recorded refutation (``refuted``) or the highest of its
    other recorded outside checks (``outside_checks``: the same record, the command, gain and
    95% interval, for checks whose interval is not wholly above the tolerance, such as other
    seeds of ``cardsim cashnguns check``); ``refuted`` says whether a refutation gave the
    figures and ``command`` names the record that did (None for this check)."""
    records = [(True, entry["refuted"])] if entry.get("refuted") else []
    records += [(False, record) for record in entry.get("outside_checks", [])]
    best_hi = check.get("exploitability_hi", -math.inf)
    found = {"gain": check.get("gain", math.nan), "exploitability_hi": check.get("exploitability_hi", math.nan),
             "refuted": False, "command": None}
    for refutation, record in records:
        if record["interval"][1] > best_hi:
            best_hi = record["interval"][1]
            found = {"gain": record["gain"], "exploitability_hi": best_hi, "refuted": refutation,
                     "command": record["command"]}
    return found


TARGET_POINTS = 1.0
