"""The readings of the rules side by side: which stored discover runs exist, whether an entry's
mix still holds (:func:`converged_entry`), and the highest outside measure recorded with it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from cardsim.analysis.cashnguns.discover import (
    DISCOVER_METHOD_1,
    DiscoverSettings,
    discover_path,
    settings_key,
)
from cardsim.analysis.cashnguns.search import DEFAULT_TOLERANCE
from cardsim.sims.cashnguns.rng import SHARED_STREAMS, STREAMS

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
                if document.get("settings") != settings_key(settings) or not document.get("rounds"):
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
    return (
        bool(entry["converged"])
        and entry.get("method") != DISCOVER_METHOD_1
        and not entry.get("refuted")
        and not beaten_outside
    )


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
    found = {
        "gain": check.get("gain", math.nan),
        "exploitability_hi": check.get("exploitability_hi", math.nan),
        "refuted": False,
        "command": None,
    }
    for refutation, record in records:
        if record["interval"][1] > best_hi:
            best_hi = record["interval"][1]
            found = {
                "gain": record["gain"],
                "exploitability_hi": best_hi,
                "refuted": refutation,
                "command": record["command"],
            }
    return found


TARGET_POINTS = 1.0
#: How a figure measured under the old random-stream scheme (``rng.SHARED_STREAMS``) is labelled.
SHARED_STREAMS_NOTE = "measured when the seats' random numbers came from the game's shared stream"


def gain_text(metric: str, gain: float, interval: Sequence[float] | None = None) -> str:
    """A reply's gain in the reading's unit with its 95% interval when recorded:
    ``+14.09 points (95% interval 13.58 to 14.61)`` or ``+$9,432 (95% interval $9,159 to $9,706)``."""

    def amount(value: float, sign: bool) -> str:
        if metric == "score":
            return f"{'-' if value < 0 else '+' if sign else ''}${abs(value):,.0f}"
        return f"{100 * value:{'+' if sign else ''}.2f}"

    text = amount(gain, True) + ("" if metric == "score" else " points")
    if interval:
        text += f" (95% interval {amount(interval[0], False)} to {amount(interval[1], False)})"
    return text


def reading_status(entry: dict) -> dict:
    """Whether a shipped reading's mix holds, and the best known reply to it: the one decision
    every place that shows a shipped mix (report, CLI, API, docs) takes its label from, read
    from the entry as the libraries file has it. ``holds``: :func:`converged_entry`; ``label``:
    "converged within the searched space" (never more: not shown to be an equilibrium of the
    game) or "not converged"; ``why``: what stops it holding (empty when it holds); ``reply``:
    the recorded reply with the highest gain (``refuted``, ``outside_checks``, ``beyond_space``)
    as ``what`` it does (None when not recorded), ``spec`` (a reply of the searched space, else None), ``gain``,
    ``interval`` (95%, None when not recorded), ``source`` (the command or who measured it) and
    ``streams`` (the random-stream scheme it was measured under, ``rng.STREAMS``; a record
    that does not say is older than the field: ``rng.SHARED_STREAMS``),
    or, for a mix that does not hold and has no record, discover's own last search (gain and
    its 95% upper bound); None when nothing is known."""
    tolerance = DEFAULT_TOLERANCE[entry.get("metric", "win")]
    holds = converged_entry(entry)
    why = []
    if not holds:
        if entry.get("method") == DISCOVER_METHOD_1:
            why.append("stopped by the first method's rule, its own search alone")
        elif not entry.get("converged"):
            why.append(f"its run stopped at {entry.get('rounds', '?')} rounds without converging")
        if entry.get("refuted"):
            found_by = entry["refuted"].get("found_by")
            why.append(
                "refuted by "
                + {
                    "schedule sweep": "the schedule sweep",
                    "search": "an outside search",
                    "search player": "the search player",
                }.get(found_by, found_by or "an outside check")
            )
        if any(reply["gain"] > tolerance for reply in entry.get("beyond_space", [])):
            why.append("beaten by a reply outside the searched space")
    records = ([entry["refuted"]] if entry.get("refuted") else []) + list(entry.get("outside_checks", []))
    replies = [
        {
            "what": record.get("description") or record.get("reply"),
            "spec": record.get("reply"),
            "gain": record["gain"],
            "interval": record.get("interval"),
            "source": f"`{record['command']}`" if record.get("command") else "an outside check",
            "streams": record.get("random_streams", SHARED_STREAMS),
        }
        for record in records
    ]
    replies += [
        {
            "what": reply["reply"],
            "spec": None,
            "gain": reply["gain"],
            "interval": reply.get("interval"),
            "source": reply.get("source", "an outside check"),
            "streams": reply.get("random_streams", SHARED_STREAMS),
        }
        for reply in entry.get("beyond_space", [])
    ]
    best = max(replies, key=lambda reply: reply["gain"], default=None)
    if best is None and not holds and "exploitability" in entry and "exploitability_hi" in entry:
        best = {
            "what": "discover's own last search",
            "spec": None,
            "gain": entry["exploitability"],
            "interval": None,
            "hi": entry["exploitability_hi"],
            "source": f"`{entry.get('command', 'discover')}`",
            "streams": entry.get("random_streams", SHARED_STREAMS),
        }
    return {
        "holds": holds,
        "label": "converged within the searched space" if holds else "not converged",
        "why": "; ".join(why),
        "reply": best,
    }


def status_text(entry: dict, sources: bool = True) -> str:
    """:func:`reading_status` in words: "not converged (why); best known reply gains +G (95%
    interval L to H): what it does (from source)", or "converged within the searched space only,
    not shown to be an equilibrium of the game; best reply tried gains ..." (``sources``: with
    the command or who measured the reply), and :data:`SHARED_STREAMS_NOTE` where the reply
    was measured under the old shared random stream."""
    status = reading_status(entry)
    if status["holds"]:
        text = "converged within the searched space only, not shown to be an equilibrium of the game"
        lead = "best reply tried"
    else:
        text = f"not converged ({status['why']})" if status["why"] else "not converged"
        lead = "best known reply"
    reply = status["reply"]
    if reply is None:
        return text
    metric = entry.get("metric", "win")
    gain = gain_text(metric, reply["gain"], reply["interval"])
    if "hi" in reply:
        gain += f" (95% upper bound {gain_text(metric, reply['hi']).lstrip('+')})"
    text += f"; {lead} gains {gain}" + (f": {reply['what']}" if reply["what"] else "")
    scheme = "" if reply.get("streams", STREAMS) == STREAMS else SHARED_STREAMS_NOTE
    if sources:
        return f"{text} (from {reply['source']}{'; ' + scheme if scheme else ''})"
    return f"{text} ({scheme})" if scheme else text
