"""Cross-play of cooperative games (The Gang, The Game): a team of A-players with one B-player.

In a cooperative game the team's conventions are the strategy, so the question a population
asks is how well strategies play *together*: the cell (A, B) of the cross-play matrix is the
team's success when every seat but one plays A and one seat plays B (on the diagonal, the
team of A alone). Every cell plays the same ``n`` deals (paired); success rates have 95%
Wilson intervals over deals. Entrants are strategies written in Python (``FILE.py:NAME``,
each run in its own process, :mod:`cardsim.sims.core.isolation`); the built-in models take part
through their Python twins in ``examples/strategies``.

Each cell's deals are cut into chunks of :data:`CHUNK_DEALS`, fixed by index, and every chunk
starts its strategies again as loaded, so a chunk's result depends only on its arguments: the
chunks run in parallel (:func:`cardsim.sims.core.parallel.iter_tasks`, joblib or dask) with
the same numbers for any ``jobs``; with a store, finished chunks are written atomically and a
rerun of the same cross-play resumes after them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from cardsim import __version__
from cardsim.errors import Interrupted, UserError
from cardsim.sims.cashnguns.config import file_digest
from cardsim.sims.core.fingerprint import code_fingerprint
from cardsim.sims.core.isolation import isolated_strategy
from cardsim.sims.core.parallel import iter_tasks
from cardsim.sims.core.store import open_run
from cardsim.stats import wilson_interval

#: Seconds the engine allows a decision of the team (the strategy's own process keeps the
#: per-decision limit; this only catches a process that stopped answering).
ENGINE_LIMIT = 30.0
#: Deals per chunk of a cell (a chunk is one parallel task and one stored file).
CHUNK_DEALS = 100
#: Folder of the store that keeps cross-plays (beside the runs, not a run).
CROSSPLAY_FOLDER = "crossplay"
#: The module whose code (with its package and what it imports) a stored cross-play depends on.
CODE_MODULES = {"gang": "cardsim.sims.gang.strategy", "thegame": "cardsim.sims.thegame.strategy"}


class OneDifferent:
    """A team in which seat ``odd_seat`` plays ``odd`` and every other seat ``team``; it offers
    only the decisions both define (a decision either leaves out is the engine's default for
    both)."""

    def __init__(self, team: Any, odd: Any, odd_seat: int = 0) -> None:
        self._team, self._odd, self._seat = team, odd, odd_seat

    def __getattr__(self, name: str) -> Callable[[Any, Sequence[Any]], Any]:
        if name.startswith("_"):
            raise AttributeError(name)
        team, odd = getattr(self._team, name, None), getattr(self._odd, name, None)
        if not (callable(team) and callable(odd)):
            raise AttributeError(name)

        def decision(view: Any, legal: Sequence[Any]) -> Any:
            return (odd if view.seat == self._seat else team)(view, legal)

        return decision


def labelled(given: Sequence[str]) -> list[tuple[str, str]]:
    """(label, spec) of each entrant ``FILE.py:NAME`` or ``LABEL=FILE.py:NAME``; a label given
    twice or fewer than two entrants is a :class:`UserError` naming ``--entrant``."""
    out = []
    for item in (piece.strip() for part in given for piece in part.split(",") if piece.strip()):
        head, equals, tail = item.partition("=")
        label, spec = (head, tail) if equals and head.isidentifier() else (item.rpartition(":")[2], item)
        if not spec.rpartition(":")[0].endswith(".py"):
            raise UserError(f"--entrant: give strategies written in Python as FILE.py:NAME, got {spec!r}")
        out.append((label, spec))
    labels = [label for label, _ in out]
    for label in labels:
        if labels.count(label) > 1:
            raise UserError(f"--entrant: {label} given twice (name each one LABEL=FILE.py:NAME)")
    if len(out) < 2:
        raise UserError(f"--entrant: a cross-play needs at least 2 entrants, got {len(out)}")
    return out


def _gang_deals(players: int, n: int, seed: int, start: int, stop: int) -> Callable[[Any, str], np.ndarray]:
    """Basic heists of The Gang on deals ``start:stop`` of the ``n`` drawn from ``seed``."""
    from cardsim.sims.gang.strategy import draw_deals, play_heists

    decks, seeds = draw_deals(np.random.default_rng(np.random.SeedSequence([seed, 48])), n)

    def play(strategy: Any, spec: str) -> np.ndarray:
        found = play_heists(
            strategy, spec, players, decks[start:stop], seeds[start:stop], first=start, time_limit=ENGINE_LIMIT
        )
        return np.asarray(found["success"])

    return play


def _thegame_deals(players: int, n: int, seed: int, start: int, stop: int) -> Callable[[Any, str], np.ndarray]:
    """Games of The Game on deals ``start:stop`` of the ``n`` from ``seed``; success: every
    card played."""
    from cardsim.sims.thegame.state import S_CARDS_LEFT
    from cardsim.sims.thegame.strategy import chunk_deal_seeds, play_games

    deals = chunk_deal_seeds(seed, 0, n)[start:stop]

    def play(strategy: Any, spec: str) -> np.ndarray:
        return np.asarray(play_games(strategy, spec, deals, players, time_limit=ENGINE_LIMIT)[:, S_CARDS_LEFT] == 0)

    return play


#: Each game's deals: ``deals(players, n, seed, start, stop)`` gives ``play(strategy, spec)``.
GAMES: dict[str, Callable[[int, int, int, int, int], Callable[[Any, str], np.ndarray]]] = {
    "gang": _gang_deals,
    "thegame": _thegame_deals,
}


def play_chunk(
    game: str,
    decisions: tuple[str, ...],
    team: tuple[str, str],
    odd: tuple[str, str],
    players: int,
    n: int,
    seed: int,
    start: int,
    stop: int,
) -> pl.DataFrame:
    """One chunk of the cell (``team``, ``odd``), each a (label, spec): success 1/0 of deals
    ``start:stop``, padded with -1 to :data:`CHUNK_DEALS` rows (a worker's task). The hosts
    start again as loaded first, whatever this process played before."""
    hosts = {spec: isolated_strategy(spec, decisions, require=False, fresh=True) for spec in (team[1], odd[1])}
    strategy = hosts[team[1]] if team[1] == odd[1] else OneDifferent(hosts[team[1]], hosts[odd[1]])
    success = GAMES[game](players, n, seed, start, stop)(strategy, f"{team[0]} team with one {odd[0]}")
    column = np.full(CHUNK_DEALS, -1, np.int8)
    column[: stop - start] = success
    return pl.DataFrame({"success": column})


def _open_store(store: Path, game: str, entrants: Sequence[tuple[str, str]], players: int, n: int, seed: int) -> Any:
    """The stored cross-play of these settings (created, or found to resume)."""
    identity = {
        "game": game,
        "what": "crossplay",
        "entrants": [[label, spec, file_digest(spec)] for label, spec in entrants],
        "players": players,
        "n": n,
        "seed": seed,
        "chunk_size": CHUNK_DEALS,
        "version": __version__,
        "code": code_fingerprint(CODE_MODULES[game]),
    }
    extra = {
        "game": game,
        "chunk_size": CHUNK_DEALS,
        "code_module": CODE_MODULES[game],
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    return open_run(store / CROSSPLAY_FOLDER, game, identity, extra)


def cross_play(
    game: str,
    entrants: Sequence[tuple[str, str]],
    decisions: Sequence[str],
    players: int,
    n: int,
    seed: int,
    *,
    jobs: int = 1,
    store: Path | None = None,
    on_chunk: Callable[[int, int], None] | None = None,
) -> tuple[pl.DataFrame, str | None]:
    """The matrix as rows (team, one, deals, successes, p_success, lo, hi), every cell on the
    same ``n`` deals of ``game`` from ``seed``, and the stored run's id (None without
    ``store``). Chunks run in ``jobs`` workers (or on the current dask cluster)."""
    if game not in GAMES:
        raise UserError(f"cross-play: unknown game {game!r}; choose from: {', '.join(GAMES)}")
    decisions = tuple(decisions)
    for _, spec in entrants:  # a file that fails to load: an error before anything runs
        isolated_strategy(spec, decisions, require=False)
    cells = [(team, odd) for team in entrants for odd in entrants]
    parts = [(start, min(start + CHUNK_DEALS, n)) for start in range(0, n, CHUNK_DEALS)]
    tasks = [
        (game, decisions, team, odd, players, n, seed, start, stop) for team, odd in cells for start, stop in parts
    ]
    stored = None if store is None else _open_store(Path(store), game, entrants, players, n, seed)
    frames: dict[int, pl.DataFrame] = {}
    if stored is not None:
        for index in stored.trusted_chunk_indices():
            if index < len(tasks):
                frames[index] = stored.read_chunk(index)
    todo = [index for index in range(len(tasks)) if index not in frames]
    try:
        for index, frame in zip(todo, iter_tasks(play_chunk, [tasks[i] for i in todo], jobs), strict=True):
            frames[index] = frame
            if stored is not None:
                stored.write_chunk(index, frame)
                stored.save_manifest()
            if on_chunk is not None:
                on_chunk(len(frames), len(tasks))
    except KeyboardInterrupt:
        kept = (
            f"finished chunks kept in {store}; run the same command to resume"
            if store is not None
            else "nothing kept (no results store)"
        )
        raise Interrupted(f"interrupted: {len(frames)} of {len(tasks)} chunk(s) finished, {kept}") from None
    rows = []
    for position, (team, odd) in enumerate(cells):
        column = np.concatenate(
            [frames[position * len(parts) + k]["success"].to_numpy() for k in range(len(parts))]
        ).astype(np.int64)
        success = column[column >= 0]
        lo, hi = wilson_interval(int(success.sum()), success.size)
        rows.append(
            {
                "team": team[0],
                "one": odd[0],
                "deals": int(success.size),
                "successes": int(success.sum()),
                "p_success": float(success.mean()),
                "lo": float(lo),
                "hi": float(hi),
            }
        )
    return pl.DataFrame(rows), None if stored is None else stored.run_id
