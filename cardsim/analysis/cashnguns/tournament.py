"""Cash'n Guns tournaments: built-in strategies, mix members and strategies written in Python
at one table, over the compositions of a stated design, on paired deals where they can be.

Each composition (which entrants sit, :func:`cardsim.analysis.tournament.compositions`) is
played on the same ``deals`` deals (common random numbers: deal ``j`` has the same seed in every
composition), its slots turned one place per deal. With fewer deals than seats the deals are not
paired: each composition gets deals of its own and its slots turned at random
(:func:`table_deals`), so that no one deal and no list order decides the standings. Games of built-in entrants only are played
by the kernel; a game with an entrant written in Python by the engine
(:func:`cardsim.sims.cashnguns.simulator.engine_lineups`), where each such entrant runs in its
own process and sees a copy of its view. Chunks of compositions are fixed by index, so the
tables are the same for any ``jobs`` and on a dask cluster
(:func:`cardsim.sims.core.parallel.iter_tasks`); with a store, finished chunks are kept and a rerun of the
same tournament resumes after them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl

from cardsim import __version__
from cardsim.analysis.cashnguns.libraries import load_libraries
from cardsim.analysis.cashnguns.tables import equilibrium_table, symmetric_game
from cardsim.analysis.equilibrium import symmetric_equilibrium
from cardsim.analysis.tournament import (
    DESIGNS,
    choose_design,
    composition_sums,
    compositions,
    head_to_head,
    payoff_table,
    profile_rows,
    rank_by_alpha,
    rotated_lineups,
    standings,
)
from cardsim.errors import Interrupted, UserError
from cardsim.sims.cashnguns.config import file_digest, is_file_spec
from cardsim.sims.cashnguns.rules import MAX_PLAYERS, MIN_PLAYERS, UNIT_DOLLARS
from cardsim.sims.cashnguns.simulator import engine_lineups, play_lineups
from cardsim.sims.cashnguns.strategies import N_PARAMS, NAMED_STRATEGIES, parse_strategy
from cardsim.sims.cashnguns.strategy import DECISIONS, PLAYERS
from cardsim.sims.core.fingerprint import code_fingerprint
from cardsim.sims.core.isolation import isolated_strategy
from cardsim.sims.core.parallel import iter_tasks
from cardsim.sims.core.store import open_run

#: Folder of the store that keeps tournaments (beside the runs, not a run).
TOURNAMENT_FOLDER = "cashnguns_tournament"
#: Games per stored chunk, about (a chunk holds whole compositions).
CHUNK_GAMES = 2_000


@dataclass(frozen=True)
class Entrant:
    """One entrant: the ``label`` tables show, the ``spec`` that plays (a built-in spec, a
    ``FILE.py:NAME`` or a registered player's name) and its ``kind`` (built-in, python,
    player)."""

    label: str
    spec: str
    kind: str


def _split_label(given: str) -> tuple[str | None, str]:
    """``LABEL=SPEC`` as (label, spec); a spec without a label as (None, spec)."""
    head, equals, tail = given.partition("=")
    if equals and head.isidentifier() and ":" not in head:
        return head, tail
    return None, given


def resolve_entrants(given: Sequence[str], players: int, metric: str, shame_value: int) -> list[Entrant]:
    """The entrants of ``given``: built-in names or specs, ``FILE.py:NAME`` (labelled NAME),
    a registered player's name, ``mix`` (the members of the shipped mix of the reading, by their
    library names) or ``library`` (every member of the shipped library), each optionally
    ``LABEL=SPEC``. A label given twice, a spec that does not parse or fewer than two entrants
    is a :class:`UserError` naming ``--entrant``."""
    entrants: list[Entrant] = []
    for item in given:
        label, spec = _split_label(item.strip())
        if spec in ("mix", "library"):
            entry = load_libraries().get((players, metric, shame_value))
            if entry is None:
                raise UserError(
                    f"--entrant {spec}: no shipped library for {players} players, "
                    f"--metric {metric} --shame {shame_value}"
                )
            members = [m for m in entry["library"] if spec == "library" or entry["equilibrium"].get(m["name"], 0.0) > 0]
            entrants += [Entrant(m["name"], parse_strategy(m["spec"]).spec(), "built-in") for m in members]
            continue
        if spec in PLAYERS:
            entrants.append(Entrant(label or spec, spec, "player"))
        elif is_file_spec(spec):
            entrants.append(Entrant(label or spec.rpartition(":")[2], spec, "python"))
        else:
            try:
                parsed = parse_strategy(spec)
            except UserError as exc:
                raise UserError(f"--entrant {spec}: {exc}") from None
            entrants.append(Entrant(label or spec, spec if spec in NAMED_STRATEGIES else parsed.spec(), "built-in"))
    labels = [e.label for e in entrants]
    for label in labels:
        if labels.count(label) > 1:
            raise UserError(f"--entrant: {label} given twice (name each one LABEL=SPEC to enter it twice)")
        if "+" in label:
            raise UserError(f"--entrant: a label may not hold '+', got {label!r} (name it LABEL=SPEC)")
    if len(entrants) < 2:
        raise UserError(f"--entrant: a tournament needs at least 2 entrants, got {len(entrants)}")
    return entrants


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament plays: entrants, table size, games (at least; every composition is
    played on the same number of deals), design, shame value, seed, the metric of the
    equilibrium and α-Rank, and α-Rank's selection intensity and population size."""

    entrants: tuple[Entrant, ...]
    players: int = 5
    games: int = 20_000
    design: str = "auto"
    shame_value: int = -5_000
    seed: int = 0
    metric: str = "win"
    alpha: float = 10.0
    population: int = 50
    chosen: str = field(default="", init=False)

    def __post_init__(self) -> None:
        if (
            isinstance(self.players, bool)
            or not isinstance(self.players, int)
            or not (MIN_PLAYERS <= self.players <= MAX_PLAYERS)
        ):
            raise UserError(f"--players must be {MIN_PLAYERS}-{MAX_PLAYERS} (seed rules), got {self.players!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise UserError(f"--n must be a positive integer, got {self.games!r}")
        if self.design not in DESIGNS:
            raise UserError(f"--design must be one of: {', '.join(DESIGNS)}, got {self.design!r}")
        if self.metric not in ("win", "score"):
            raise UserError(f"--metric must be one of: win, score, got {self.metric!r}")
        if not (isinstance(self.alpha, (int, float)) and self.alpha > 0 and math.isfinite(self.alpha)):
            raise UserError(f"--alpha must be a positive number, got {self.alpha!r}")
        if isinstance(self.population, bool) or not isinstance(self.population, int) or self.population < self.players:
            raise UserError(
                f"--population must be an integer of at least --players ({self.players}), got {self.population!r}"
            )
        chosen = choose_design(self.design, len(self.entrants), self.players, self.games)
        if chosen == "distinct" and len(self.entrants) < self.players:
            raise UserError(
                f"--entrant: the distinct design seats {self.players} different entrants, got {len(self.entrants)}"
            )
        object.__setattr__(self, "chosen", chosen)

    def plan(self) -> tuple[list[tuple[int, ...]], int]:
        """(the compositions played, deals per composition)."""
        count = len(self.entrants)
        per_deal = self.players if self.chosen == "sampled" else 1
        budget = max(1, self.games // per_deal)
        played = compositions(count, self.players, self.chosen, budget=budget, seed=self.seed)
        return played, max(1, math.ceil(self.games / len(played)))

    def deal_seeds(self, deals: int) -> np.ndarray:
        """The seeds of the paired deals, the same for every composition."""
        return _draw_seeds(np.random.default_rng(np.random.SeedSequence([self.seed, 48])), deals)

    def paired(self, deals: int) -> bool:
        """Whether every composition is played on the same deals: only when there are enough
        deals for every entrant to sit in every slot (``deals >= players``). With fewer, one
        shared deal would rank the entrants on that deal and their list order (who sits in
        which slot of it), so each composition gets deals of its own (:func:`table_deals`)."""
        return deals >= self.players


def table_deals(seed: int, composition: int, deals: int, players: int) -> tuple[np.ndarray, int]:
    """(the seeds of composition ``composition``'s own deals, the number of places its slots
    are turned on the first of them, drawn at random): the unpaired design's deals."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 48, composition]))
    seeds = _draw_seeds(rng, deals)
    return seeds, int(rng.integers(players))


def _draw_seeds(rng: np.random.Generator, deals: int) -> np.ndarray:
    """``deals`` game seeds (uint64 below 2**63) from ``rng``."""
    return rng.integers(0, np.iinfo(np.int64).max, size=deals, dtype=np.int64).astype(np.uint64)


def _block(
    specs: tuple[str, ...],
    kinds: tuple[str, ...],
    players: int,
    shame_value: int,
    block: list[tuple[int, int, tuple[int, ...]]],
    deals_of: list[tuple[np.ndarray, int]],
    chunk_rows: int,
) -> pl.DataFrame:
    """Play one chunk (in a worker): its compositions (index, position, members), each on its
    deals in ``deals_of`` (seeds, the places its slots are turned on the first deal; one more
    per deal after it); one row per composition slot of the chunk, wide (``e<k>`` entrant of
    the k-th member kind, -1 where none, then its sums), padded to ``chunk_rows`` rows with
    composition -1."""
    deals = deals_of[0][0].shape[0]
    rows = np.zeros((len(specs), N_PARAMS), np.float64)
    for index, (spec, kind) in enumerate(zip(specs, kinds, strict=True)):
        if kind == "built-in":
            rows[index] = parse_strategy(spec).param_row()
    lineups = np.concatenate(
        [rotated_lineups(members, deals, turn) for (_, _, members), (_, turn) in zip(block, deals_of, strict=True)]
    )
    game_seeds = np.concatenate([seeds for seeds, _ in deals_of])
    python = np.array([kind != "built-in" for kind in kinds])
    engine = python[lineups].any(axis=1)
    wins = np.zeros(lineups.shape, np.float64)
    scores = np.zeros(lineups.shape, np.float64)
    for mask, play in (
        (~engine, lambda s, ln: play_lineups(s, ln, rows, shame_value)),
        (engine, lambda s, ln: engine_lineups(s, ln, specs, shame_value)),
    ):
        if mask.any():
            money, _, shame, alive, winner = play(game_seeds[mask], np.ascontiguousarray(lineups[mask]))[:5]
            wins[mask] = winner
            scores[mask] = np.where(
                alive, money.astype(np.float64) * UNIT_DOLLARS + shame.astype(np.float64) * shame_value, 0.0
            )
    out: dict[str, list] = {"composition": []}
    for k in range(players):
        for name in ("e", "count", "w", "w2", "s", "s2"):
            out[f"{name}{k}"] = []
    for position, (index, _, _) in enumerate(block):
        part = slice(position * deals, (position + 1) * deals)
        found = composition_sums(index, lineups[part], wins[part], scores[part])
        out["composition"].append(index)
        for k in range(players):
            row = found[k] if k < len(found) else None
            out[f"e{k}"].append(row["entrant"] if row else -1)
            out[f"count{k}"].append(row["count"] if row else 0)
            for name in ("w", "w2", "s", "s2"):
                out[f"{name}{k}"].append(row[name] if row else 0.0)
    frame = pl.DataFrame(out, schema_overrides={"composition": pl.Int64})
    padding = chunk_rows - frame.height
    if padding:
        empty = pl.DataFrame(
            {c: [-1 if c == "composition" or c.startswith("e") else 0] * padding for c in frame.columns}
        ).cast(frame.schema)  # type: ignore[arg-type]
        frame = pl.concat([frame, empty])
    return frame


def _long(frame: pl.DataFrame, players: int, deals: int) -> pl.DataFrame:
    """The wide chunk rows as the per-(composition, entrant) sums of
    :mod:`cardsim.analysis.tournament`."""
    parts = []
    for k in range(players):
        part = frame.filter((pl.col("composition") >= 0) & (pl.col(f"e{k}") >= 0)).select(
            "composition",
            pl.col(f"e{k}").alias("entrant"),
            pl.col(f"count{k}").alias("count"),
            pl.lit(deals).alias("games"),
            *(pl.col(f"{n}{k}").alias(n) for n in ("w", "w2", "s", "s2")),
        )
        parts.append(part)
    return pl.concat(parts).sort("composition", "entrant")


def play_tournament(
    settings: TournamentSettings,
    *,
    jobs: int = 1,
    store: Path | None = None,
    on_chunk: Callable[[int, int], None] | None = None,
) -> dict:
    """Play (or resume) the tournament; the per-(composition, entrant) sums with the plan:
    ``{"sums", "compositions", "deals", "design"}``."""
    played, deals = settings.plan()
    paired = settings.paired(deals)
    shared = settings.deal_seeds(deals) if paired else None
    per_chunk = max(1, CHUNK_GAMES // deals)
    blocks = [
        [(i, i - start, played[i]) for i in range(start, min(start + per_chunk, len(played)))]
        for start in range(0, len(played), per_chunk)
    ]
    specs = tuple(e.spec for e in settings.entrants)
    kinds = tuple(e.kind for e in settings.entrants)
    stored = None
    if store is not None:
        identity = {
            "game": "cashnguns",
            "what": "tournament",
            "entrants": [
                [e.label, e.spec, e.kind, file_digest(e.spec) if e.kind == "python" else ""] for e in settings.entrants
            ],
            "players": settings.players,
            "design": settings.chosen,
            "deals": deals,
            "paired": paired,
            "compositions": len(played),
            "shame_value": settings.shame_value,
            "seed": settings.seed,
            "chunk_size": per_chunk,
            "version": __version__,
            "code": code_fingerprint("cardsim.sims.cashnguns.simulator"),
        }
        stored = open_run(
            Path(store) / TOURNAMENT_FOLDER,
            "tournament",
            identity,
            {
                "game": "cashnguns",
                "chunk_size": per_chunk,
                "code_module": "cardsim.sims.cashnguns.simulator",
                "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            },
        )
    frames: dict[int, pl.DataFrame] = {}
    if stored is not None:
        for index in stored.trusted_chunk_indices():
            if index < len(blocks):
                frames[index] = stored.read_chunk(index)
    todo = [index for index in range(len(blocks)) if index not in frames]
    if todo:  # a file that fails to load: an error before anything runs (nothing to run: no process)
        for entrant in settings.entrants:
            if entrant.kind == "python":
                isolated_strategy(entrant.spec, DECISIONS)

    def deals_of(block: list[tuple[int, int, tuple[int, ...]]]) -> list[tuple[np.ndarray, int]]:
        """Each composition's deals: the shared ones, or its own (:func:`table_deals`)."""
        if shared is not None:
            return [(shared, 0)] * len(block)
        return [table_deals(settings.seed, index, deals, settings.players) for index, _, _ in block]

    arguments = [
        (specs, kinds, settings.players, settings.shame_value, blocks[i], deals_of(blocks[i]), per_chunk) for i in todo
    ]
    results = iter_tasks(_block, arguments, jobs)
    try:
        for index, frame in zip(todo, results):
            frames[index] = frame
            if stored is not None:
                stored.write_chunk(index, frame)
                stored.save_manifest()
            if on_chunk is not None:
                on_chunk(len(frames), len(blocks))
    except KeyboardInterrupt:
        kept = (
            f"finished chunks kept in {store}; run the same command to resume"
            if store is not None
            else "nothing kept (no results store)"
        )
        raise Interrupted(f"interrupted: {len(frames)} of {len(blocks)} chunk(s) finished, {kept}") from None
    wide = pl.concat([frames[i] for i in range(len(blocks))])
    return {
        "sums": _long(wide, settings.players, deals),
        "compositions": played,
        "deals": deals,
        "paired": paired,
        "design": settings.chosen,
        "run": stored.run_id if stored is not None else None,
    }


def tournament_tables(settings: TournamentSettings, played: dict) -> dict:
    """Every table of a played tournament: ``standings``, ``head_to_head``, ``payoff_table``
    (the heuristic payoff table), ``equilibrium`` (None unless every composition was played),
    ``alpharank`` (None unless every table of one or two entrants was), and ``summary`` facts."""
    labels = [e.label for e in settings.entrants]
    sums, compositions_played = played["sums"], played["compositions"]
    tables: dict = {
        "standings": standings(sums, labels),
        "head_to_head": head_to_head(sums, labels),
        "payoff_table": payoff_table(sums, labels, settings.players),
    }
    equilibrium_facts = None
    if played["design"] == "all":
        game = symmetric_game(
            profile_rows(sums, labels, compositions_played), labels, settings.players, settings.metric
        )
        equilibrium = symmetric_equilibrium(game, seed=settings.seed)
        tables["equilibrium"] = equilibrium_table(equilibrium, game)
        equilibrium_facts = {
            "value": equilibrium.value,
            "regret": equilibrium.regret,
            "best_deviation": equilibrium.best_deviation,
        }
    else:
        tables["equilibrium"] = None
    tables["alpharank"] = rank_by_alpha(
        sums,
        labels,
        compositions_played,
        settings.players,
        settings.metric,
        alpha=settings.alpha,
        population=settings.population,
    )
    games = len(compositions_played) * played["deals"]
    tables["summary"] = {
        "players": settings.players,
        "design": played["design"],
        "compositions": len(compositions_played),
        "deals_per_composition": played["deals"],
        "paired": played["paired"],
        "games": games,
        "seed": settings.seed,
        "shame_value": settings.shame_value,
        "metric": settings.metric,
        "alpha": settings.alpha,
        "population": settings.population,
        "equilibrium": equilibrium_facts,
        "run": played["run"],
        "entrants": [{"label": e.label, "spec": e.spec, "kind": e.kind} for e in settings.entrants],
    }
    return tables


#: The benchmark's entrants: five built-in strategies and five written in Python.
BENCH_BUILT_IN = ("stubborn", "coward", "shark", "calculator", "bluffer")
BENCH_PYTHON = (
    "examples/strategies/cashnguns_patient.py:Patient",
    "examples/strategies/cashnguns_counter.py:Counter",
    "examples/strategies/cashnguns_reader_4p.py:Reader",
    "examples/strategies/cashnguns_aim_5p.py:Emu",
    "examples/strategies/cashnguns_shame_leader_6p.py:X6",
)
#: CPU-seconds the 10-entrant, 5-player, 20,000-game tournament with five Python entrants may take.
BENCH_TARGET_SECONDS = 120.0


def _cpu_seconds() -> float:
    """CPU time of this process and of its children that have been waited for."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bench_rows(quick: bool = False, root: Path | None = None) -> list[dict]:
    """``cardsim bench tournament``: a 10-entrant, 5-player tournament (20,000 games; 2,000
    with ``quick``) with five entrants written in Python, one worker, timed in CPU-seconds of
    this process and of the entrants' processes (started and stopped inside the timing); and
    the same tournament of ten built-in entrants in the same run, the reference."""
    from cardsim.sims.core.isolation import close_hosts

    games = 2_000 if quick else 20_000
    root = root or Path(__file__).resolve().parents[3]
    python = tuple(str(root / spec.rpartition(":")[0]) + ":" + spec.rpartition(":")[2] for spec in BENCH_PYTHON)
    reference = (*BENCH_BUILT_IN, "sniper", "hunter", "avenger", "vulture", "reader")
    rows = []
    for what, given in (
        ("5 built-in + 5 Python entrants", BENCH_BUILT_IN + python),
        ("10 built-in entrants (reference)", reference),
    ):
        close_hosts()
        entrants = resolve_entrants(list(given), 5, "win", -5_000)
        settings = TournamentSettings(tuple(entrants), players=5, games=games, design="all")
        started = _cpu_seconds()
        played = play_tournament(settings, jobs=1)
        tournament_tables(settings, played)
        close_hosts()
        seconds = _cpu_seconds() - started
        count = len(played["compositions"]) * played["deals"]
        rows.append(
            {
                "what": what,
                "entrants": len(entrants),
                "players": 5,
                "games": count,
                "compositions": len(played["compositions"]),
                "cpu_seconds": round(seconds, 2),
                "games_per_cpu_second": round(count / seconds),
            }
        )
    rows[0]["target_cpu_seconds"] = BENCH_TARGET_SECONDS * games / 20_000
    rows[0]["meets_target"] = bool(rows[0]["cpu_seconds"] <= rows[0]["target_cpu_seconds"])
    rows[0]["ratio_to_reference"] = round(rows[0]["cpu_seconds"] / rows[1]["cpu_seconds"], 2)
    return rows
