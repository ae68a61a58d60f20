"""The trained bots' parameters: one JSON file per bot, one entry per player count, with
provenance.

Shipped as package data (``cardsim/sims/bang/data/tuned.json`` for ``tuned``,
``tuned2.json`` for ``tuned2``, the rollout policy of ``search``) and written by
``cardsim bang train`` (:mod:`cardsim.sims.bang.training`). Every entry holds, per role
present at that player count, one value per ``policies.PARAM_NAMES`` entry, and records the
command, seed, budget and code fingerprint that produced it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.bang.cards import ROLE_NAMES, roles_for
from cardsim.sims.bang.policies import PARAM_NAMES, default_params

FORMAT = "cardsim-bang-tuned/1"
SHIPPED = Path(__file__).parent / "data" / "tuned.json"
#: the ``tuned2`` bots' parameters: trained with the structural rules on
SHIPPED2 = Path(__file__).parent / "data" / "tuned2.json"
#: parameters the shipped file was trained over (the first ones of ``PARAM_NAMES``)
TRAINED_PARAMS = 21


def _bad(path: Path, why: str) -> UserError:
    return UserError(f"bang: parameter file {path}: {why}")


def read_file(path: Path) -> dict[str, Any]:
    """The parsed parameter file; a one-line UserError if missing or malformed."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _bad(path, "not found (train it with: cardsim bang train)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _bad(path, f"unreadable ({type(error).__name__})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _bad(path, f"not a {FORMAT} document")
    names = document.get("param_names")
    if not isinstance(names, list) or not names or names != list(PARAM_NAMES[: len(names)]):
        raise _bad(path, "its parameter names do not match this version of the bots")
    if not isinstance(document.get("players"), dict):
        raise _bad(path, "no 'players' table")
    return document


def params_for(players: int, path: Path = SHIPPED) -> np.ndarray:
    """Tuned parameters per role (row = role index) for ``players``; roles absent at that
    count keep the defaults, and so do parameters added after the file was trained (its
    ``param_names`` are a leading part of ``PARAM_NAMES``). UserError if the file has no valid
    entry for ``players``."""
    document = read_file(path)
    width = len(document["param_names"])
    entry = document["players"].get(str(players))
    if not isinstance(entry, dict) or not isinstance(entry.get("params"), dict):
        trained = ", ".join(sorted(document["players"])) or "none"
        raise _bad(path, f"no parameters for {players} players (trained for: {trained})")
    table = np.array([default_params(role) for role in range(len(ROLE_NAMES))])
    for role in sorted(set(roles_for(players))):
        values = entry["params"].get(ROLE_NAMES[role])
        ok = isinstance(values, list) and len(values) == width
        if not ok or not all(isinstance(x, (int, float)) and np.isfinite(x) for x in values):
            raise _bad(path, f"{players} players, {ROLE_NAMES[role]}: expected {width} finite numbers")
        table[role, :width] = values
    return table


def write_entry(
    path: Path, players: int, table: np.ndarray, provenance: dict[str, Any], width: int | None = None
) -> None:
    """Add or replace the entry for ``players`` (other player counts are kept), with the first
    ``width`` parameters (default: all); UserError if the file holds another width."""
    path = Path(path)
    width = len(PARAM_NAMES) if width is None else width
    names = list(PARAM_NAMES[:width])
    document: dict[str, Any] = {"format": FORMAT, "param_names": names, "players": {}}
    if path.exists():
        document = read_file(path)
        if document["param_names"] != names:
            raise _bad(
                path,
                f"holds {len(document['param_names'])} parameters per role, this "
                f"training {width}; write to another file",
            )
    document["players"][str(players)] = {
        "params": {
            ROLE_NAMES[role]: [round(float(x), 6) for x in table[role, :width]]
            for role in sorted(set(roles_for(players)))
        },
        "provenance": provenance,
    }
    document["players"] = dict(sorted(document["players"].items()))
    path.parent.mkdir(parents=True, exist_ok=True)
    text = (
        re.sub(
            r"\[\s+([-0-9.,e\s]*?)\s+\]",
            lambda m: "[" + " ".join(m.group(1).split()) + "]",
            json.dumps(document, indent=1),
        )
        + "\n"
    )
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
