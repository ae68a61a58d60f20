"""The small surface through which a game plugs into the runner.

A game declares one :class:`Simulator` (OpenSpiel-style: a named game with its facts) in
``cardsim/sims/<game>/simulator.py`` as the module attribute ``SIMULATOR``. The runner knows
nothing else about the game; what the rest of the package knows (command line, API, report) is
the game's :class:`~cardsim.sims.core.game.Game` declaration, which names this simulator.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from cardsim.errors import UserError

RunBatch = Callable[[Any, np.random.Generator, int], pl.DataFrame]


@dataclass(frozen=True)
class Simulator:
    """A game as the runner sees it.

    Attributes:
        name: the CLI and store name ("gang", "thegame", "cashnguns", "bang").
        config_type: a frozen dataclass whose fields are plain JSON values (str, int, float,
            bool, or tuples of them); its ``__post_init__`` validates and raises
            :class:`cardsim.errors.UserError` with a one-line message.
        run_batch: ``run_batch(config, rng, n)`` plays ``n`` independent episodes with the numpy
            Generator ``rng`` and returns a polars DataFrame with exactly ``n`` rows, one per
            episode, deterministic given the generator's state.
        headline: name of the boolean column whose proportion the runner's precision stop uses.
        policies: registered player models/strategies, name -> one-line description.
        chunk_size: episodes per chunk by default (a chunk should take roughly 0.1-2 s), so that
            progress, resuming and the precision stop have a fine enough grain.
    """

    name: str
    config_type: type
    run_batch: RunBatch
    headline: str
    policies: Mapping[str, str]
    chunk_size: int = 1000

    def make_config(self, **fields: Any) -> Any:
        """Build a validated config from keyword fields (lists become tuples)."""
        known = {f.name for f in dataclasses.fields(self.config_type)}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise UserError(f"{self.name}: unknown config field(s): {', '.join(unknown)}")
        cleaned = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
        return self.config_type(**cleaned)


def config_to_dict(config: Any) -> dict[str, Any]:
    """A config as plain JSON-ready data (tuples become lists)."""
    plain: dict[str, Any] = json_ready(dataclasses.asdict(config))
    return plain


def json_ready(value: Any) -> Any:
    """Recursively turn tuples into lists so a value round-trips through JSON unchanged."""
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value


def config_summary(config: Any) -> str:
    """The config in a few words for listings: ``players`` (when the config has it) and every
    field that differs from its default, as ``name=value`` ('players=4 model=history')."""
    parts = []
    for spec in dataclasses.fields(config):
        value = getattr(config, spec.name)
        if spec.default is not dataclasses.MISSING:
            default = spec.default
        elif spec.default_factory is not dataclasses.MISSING:
            default = spec.default_factory()
        else:
            default = dataclasses.MISSING
        if spec.name != "players" and value == default:
            continue
        shown = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
        parts.append(f"{spec.name}={shown}")
    return " ".join(parts)
