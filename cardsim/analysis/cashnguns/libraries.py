"""The shipped libraries: each reading's final discover library with its provenance, exported
from stored discover runs and loaded back (package data ``sims/cashnguns/data/libraries.json``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cardsim.analysis.cashnguns.discover import (
    DISCOVER_METHOD,
    DISCOVER_METHOD_1,
    DiscoverSettings,
    discover_flags,
    reported_round,
    settings_from_key,
)
from cardsim.analysis.cashnguns.records import (
    READINGS,
    discover_command_line,
    gain_text,
    load_discover_documents,
    reading_label,
    reading_status,
    status_text,
)
from cardsim.analysis.cashnguns.tables import mix_text
from cardsim.errors import UserError
from cardsim.sims.cashnguns import SHIPPED_LIBRARIES
from cardsim.sims.cashnguns.rng import SHARED_STREAMS, STREAMS
from cardsim.sims.cashnguns.simulator import SIMULATOR
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.core.store import atomic_write_bytes

if TYPE_CHECKING:
    import polars as pl

LIBRARIES_FORMAT = "cardsim-cashnguns-libraries/2"
#: The first format: one code fingerprint for the whole file, no method per entry.
LIBRARIES_FORMAT_1 = "cardsim-cashnguns-libraries/1"


def cashnguns_fingerprint() -> str:
    """The runner's code fingerprint of the Cash'n Guns game (rules, kernel, strategy space)."""
    from cardsim.sims.core.fingerprint import code_fingerprint

    return code_fingerprint(SIMULATOR.run_batch.__module__)


def library_entry(document: dict, settings: DiscoverSettings, date: str) -> dict:
    """One reading's shipped entry from its stored discover ``document`` (run by the current
    code): the final library (names and specs), the run's last-round figures as it stored
    them, how to rerun it (with ``--rounds`` where the run played another number of rounds than
    the default limit and that limit would not stop it there), and its provenance (method, game code fingerprint, version)."""
    from cardsim import __version__

    last = reported_round(document)
    names = document["names"]
    specs = {name: spec for spec, name in names.items()}
    command = (
        f"{discover_command_line(settings.players, settings.metric, settings.shame_value)} {discover_flags(settings)}"
    )
    played = len(document["rounds"])
    if played > settings.rounds or (not document["converged"] and played < settings.rounds):
        command += f" --rounds {played}"  # a run cut short or run on: the command that stops there
    return {
        "players": settings.players,
        "metric": settings.metric,
        "shame_value": settings.shame_value,
        "command": command,
        "seed": settings.seed,
        "budget": settings.budget,
        "date": date,
        "method": DISCOVER_METHOD,
        "code_fingerprint": cashnguns_fingerprint(),
        "random_streams": STREAMS,
        "version": __version__,
        "settings": document["settings"],
        "rounds": len(document["rounds"]),
        "reported_round": last["round"],
        "converged": bool(document["converged"]),
        "library": [{"name": name, "spec": specs[name]} for name in last["library"]],
        "equilibrium": dict(last["equilibrium"]),
        "exploitability": last["gain"],
        "exploitability_hi": last["exploitability_hi"],
        "validation_games": last["validation_games"],
    }


def write_libraries(path: Path, shipped: dict) -> None:
    """Write a libraries document to ``path`` atomically, in the shipped file's layout (one
    space of indent, a final newline)."""
    import json

    atomic_write_bytes(path, (json.dumps(shipped, indent=1) + "\n").encode("utf-8"))


def record_entries(records: Sequence[Path]) -> dict[tuple[int, str, int], dict]:
    """Library entries from discover record files named by hand (any settings, e.g. a run that
    continues a shipped library with ``--start``), by reading; one-line errors for a file that
    is not a finished discover record and for two records of one reading."""
    import datetime
    import json

    found: dict[tuple[int, str, int], dict] = {}
    for record in records:
        try:
            document = json.loads(Path(record).read_text())
            settings = settings_from_key(document["settings"])
            rounds = document["rounds"]
        except (OSError, ValueError, KeyError, TypeError):
            raise UserError(f"libraries: {record} is not a readable discover record") from None
        if not rounds or not (document.get("converged") or len(rounds) >= settings.rounds):
            raise UserError(f"libraries: {record} is unfinished (rerun its discover command to resume it)")
        key = (settings.players, settings.metric, settings.shame_value)
        if key in found:
            raise UserError(f"libraries: two records for {settings.players} players, {reading_label(*key[1:])}")
        stamp = datetime.datetime.fromtimestamp(Path(record).stat().st_mtime, datetime.timezone.utc)
        found[key] = library_entry(document, settings, stamp.isoformat(timespec="seconds"))
    return found


def same_mix(shipped: dict, new: dict) -> bool:
    """Whether a stored run gives the mix already shipped (same library, same shares, same
    settings): re-exporting it keeps the shipped entry, the outside checks recorded with it
    included, instead of writing the same mix without them."""
    return all(shipped.get(field) == new[field] for field in ("library", "equilibrium", "settings"))


def export_libraries(
    store: Path, players: Sequence[int], path: Path, records: Sequence[Path] = ()
) -> tuple[dict, list]:
    """Write the libraries file at ``path`` (the command passes the shipped one,
    :data:`cardsim.sims.cashnguns.SHIPPED_LIBRARIES`, by default): every reading at ``players`` with a stored discover run
    (default settings but the reading), or with one of the discover ``records`` named (any
    settings; a record of another player count is an error), gets a new entry; a reading
    without one, or whose run gives the mix already shipped (:func:`same_mix`), keeps its entry
    of the file already at ``path`` (with that entry's own provenance and records); a reading with neither is an error (nothing written). Entries of other player
    counts are kept. The date of a new entry is its stored file's last change (UTC). Returns
    (the document, the kept readings)."""
    named = record_entries(records)
    stray = sorted({count for count, _, _ in named} - set(players))
    if stray:
        raise UserError(f"libraries: a --record is for {stray[0]} players, not among --players")
    stored = {**stored_entries(store, players), **named}
    try:
        existing = load_libraries(path)
    except UserError:
        existing = {}
    wanted = [(p, m, v) for p in players for m, v in READINGS]
    missing = [discover_command_line(*key) for key in wanted if key not in stored and key not in existing]
    if missing:
        raise UserError(f"libraries: no stored discover run for: {'; '.join(missing)} (store {store})")
    kept = sorted(key for key in existing if key not in stored or same_mix(existing[key], stored[key]))
    entries = {**stored, **{key: existing[key] for key in kept}}
    shipped = {"format": LIBRARIES_FORMAT, "readings": [entries[key] for key in sorted(entries)]}
    write_libraries(Path(path), shipped)
    return shipped, [key for key in kept if key in wanted]


def load_libraries(path: Path = SHIPPED_LIBRARIES) -> dict[tuple[int, str, int], dict]:
    """The shipped libraries by (players, metric, shame value), each entry with its provenance
    (``method``, ``code_fingerprint``, ``version``, ``random_streams``: the scheme its figures
    were measured under, ``rng.SHARED_STREAMS`` where the entry does not say; a first-format
    file's entries get the file's fingerprint and version and ``DISCOVER_METHOD_1``); one-line
    UserError when the file is
    missing, not a libraries document, or holds a spec that does not parse."""
    import json

    try:
        shipped = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UserError(
            f"libraries: {path} is missing or unreadable (write it with: cardsim cashnguns libraries)"
        ) from None
    if not isinstance(shipped, dict) or shipped.get("format") not in (LIBRARIES_FORMAT, LIBRARIES_FORMAT_1):
        raise UserError(f"libraries: {path} is not a {LIBRARIES_FORMAT} document")
    first = (
        {
            "method": DISCOVER_METHOD_1,
            "code_fingerprint": shipped.get("code_fingerprint"),
            "version": shipped.get("version"),
        }
        if shipped["format"] == LIBRARIES_FORMAT_1
        else {}
    )
    found = {}
    for entry in shipped.get("readings", []):
        for item in entry["library"]:
            parse_strategy(item["spec"])
        found[(entry["players"], entry["metric"], entry["shame_value"])] = {
            **first,
            "random_streams": SHARED_STREAMS,  # written before the field: the shared stream
            **entry,
        }
    return found


def stored_entries(store: Path, players: Sequence[int]) -> dict[tuple[int, str, int], dict]:
    """The stored discover runs of ``players`` as library entries (:func:`library_entry`)."""
    return {
        (count, metric, shame_value): library_entry(
            document, DiscoverSettings(players=count, metric=metric, shame_value=shame_value), document["date"]
        )
        for (count, metric, shame_value), document in load_discover_documents(store, players).items()
    }


def shipped_mixes_table(path: Path | None = None) -> pl.DataFrame:
    """One row per shipped reading: its mix, whether it holds (``holds``, ``status``: "not
    converged" or "converged within the searched space", from :func:`reading_status`), the
    best known reply's gain with its 95% interval (``best_known_reply``), what the reply does
    and where it was measured (``status_text``: the whole status in words). Read from the file
    (default: the shipped one) each call, so a new entry shows its own status; empty when the
    file cannot be read."""
    import polars as pl

    try:
        entries = load_libraries(SHIPPED_LIBRARIES if path is None else path)
    except UserError:
        return pl.DataFrame()
    rows = []
    for (players, metric, shame_value), entry in sorted(entries.items()):
        status = reading_status(entry)
        reply = status["reply"]
        rows.append(
            {
                "players": players,
                "metric": metric,
                "shame": shame_value,
                "mix": mix_text(entry["equilibrium"]),
                "holds": status["holds"],
                "status": status["label"],
                "best_known_reply": "" if reply is None else gain_text(metric, reply["gain"], reply["interval"]),
                "status_text": status_text(entry),
            }
        )
    return pl.DataFrame(rows)
