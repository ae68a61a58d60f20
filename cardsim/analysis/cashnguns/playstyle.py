"""How the search player plays, in numbers from its own games.

The search player (:mod:`cardsim.sims.cashnguns.search`) is seated at two tables: in one slot
of a table of the shipped mix of the main reading (win probability, shame -$5,000; the other
slots drawn from the mix by its shares, game by game), and at a table of copies of itself.
Every decision of every search seat is recorded (:attr:`SearchPlayer.log`, read from its view
only) and turned into one row: the round, the choice, and what the public record said then
(the pot against the round's expected loot, the richest and most wounded opponents, the guns
aimed at it). :func:`playstyle_figures` turns the rows into shares: when it plays a loaded card
(Bang! or Bang!Bang!Bang!), when it lies down, whom it aims at, beside the share a random aim
would give, and its win rate at each table. The game is the unit of every interval: a share of
decisions pooled over games is a ratio estimate (decisions of one game are correlated) with a
delta-method interval over games.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import polars as pl

from cardsim import __version__
from cardsim.analysis.cashnguns.libraries import cashnguns_fingerprint, load_libraries
from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS, MAX_PLAYERS, MIN_PLAYERS, ROUNDS
from cardsim.sims.cashnguns.search import play_search_lineups
from cardsim.sims.cashnguns.strategies import parse_strategy
from cardsim.sims.core.store import atomic_write_bytes
from cardsim.stats import Z95, wilson_interval

#: The tables the search player is measured at: one search seat among the shipped mix, or
#: every seat a search player.
TABLES = ("mix", "self")
#: Folder of the store that keeps these games' records.
PLAYSTYLE_FOLDER = "cashnguns_playstyle"
#: Rounds 1 to EARLY_ROUNDS are "early", the rest "late" (the pooled loaded-card shares).
EARLY_ROUNDS = 5
#: The pot against the round's expected loot: below LOW_POT is a small pot, above HIGH_POT a big one.
LOW_POT, HIGH_POT = 0.9, 1.1


@dataclass(frozen=True)
class PlaystyleSettings:
    """Games of ``spec`` (a search spec) at ``players`` at the ``table`` (see :data:`TABLES`),
    from ``seed``, shame marker ``shame_value`` dollars."""

    players: int
    table: str
    games: int
    seed: int = 0
    spec: str = "search"
    shame_value: int = DEFAULT_SHAME_DOLLARS

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise UserError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS} (seed rules), got {self.players!r}")
        if self.table not in TABLES:
            raise UserError(f"table must be one of: {', '.join(TABLES)}, got {self.table!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 2:
            raise UserError(f"games must be an integer of at least 2, got {self.games!r}")


def _lineups(settings: PlaystyleSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(game seeds, lineups, strategy rows): row 0 the search player, the others the mix's
    members; the search player in slot 0 and mix members drawn by their shares in the other
    slots, or the search player in every slot."""
    rng = np.random.default_rng(
        np.random.SeedSequence([settings.seed, 47, settings.players, TABLES.index(settings.table)])
    )
    seeds = rng.integers(0, np.iinfo(np.int64).max, size=settings.games, dtype=np.int64).astype(np.uint64)
    rows = [parse_strategy(settings.spec).param_row()]
    lineups = np.zeros((settings.games, settings.players), np.int64)
    if settings.table == "mix":
        entry = load_libraries().get((settings.players, "win", settings.shame_value))
        if entry is None:
            raise UserError(f"no shipped mix for {settings.players} players, win, shame {settings.shame_value}")
        members = [(m["spec"], entry["equilibrium"].get(m["name"], 0.0)) for m in entry["library"]]
        members = [(spec, share) for spec, share in members if share > 0]
        rows += [parse_strategy(spec).param_row() for spec, _ in members]
        shares = np.array([share for _, share in members], np.float64)
        drawn = rng.choice(len(members), size=(settings.games, settings.players - 1), p=shares / shares.sum())
        lineups[:, 1:] = 1 + drawn
    return seeds, lineups, np.array(rows, np.float64)


def _decision_row(game: int, slot: int, decision: str, choice, view) -> dict:
    """One decision as plain numbers from the view it was made on (public information only)."""
    me = view.seat
    others = [s for s in range(view.players) if s != me and view.alive[s]]
    row = {
        "game": game,
        "slot": slot,
        "round": view.round,
        "decision": decision,
        "choice": int(choice),
        "options": len(others),
        "richest": 0,
        "richest_count": 0,
        "wounded": 0,
        "wounded_count": 0,
        "pot_ratio": view.loot_value / view.expected_loot if view.expected_loot > 0 else 1.0,
        "guns": 0,
    }
    if decision == "aim" and others:
        top = max(view.money[s] for s in others)
        worst = max(view.wounds[s] for s in others)
        richest = [s for s in others if view.money[s] == top]
        wounded = [s for s in others if view.wounds[s] == worst]
        row.update(
            richest=int(choice in richest),
            richest_count=len(richest),
            wounded=int(choice in wounded),
            wounded_count=len(wounded),
        )
    if decision == "lie_down":
        row["guns"] = sum(1 for s, aim in enumerate(view.targets) if aim == me and s != me and view.alive[s])
    return row


def play_playstyle(settings: PlaystyleSettings) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Play the games; (one row per game and search slot: ``game``, ``slot``, ``win``; one row
    per decision of a search slot, :func:`_decision_row`)."""
    seeds, lineups, rows = _lineups(settings)
    log: list[tuple[int, int, list]] = []
    winner = play_search_lineups(seeds, lineups, rows, settings.shame_value, log=log)[4]
    search_slots = [(g, s) for g in range(settings.games) for s in range(settings.players) if lineups[g, s] == 0]
    games = pl.DataFrame(
        {
            "game": [g for g, _ in search_slots],
            "slot": [s for _, s in search_slots],
            "win": [bool(winner[g, s]) for g, s in search_slots],
        },
        schema={"game": pl.Int64, "slot": pl.Int64, "win": pl.Boolean},
    )
    decisions = pl.DataFrame(
        [_decision_row(game, slot, d, c, v) for game, slot, entries in log for d, c, v in entries],
        schema={
            "game": pl.Int64,
            "slot": pl.Int64,
            "round": pl.Int64,
            "decision": pl.Utf8,
            "choice": pl.Int64,
            "options": pl.Int64,
            "richest": pl.Int64,
            "richest_count": pl.Int64,
            "wounded": pl.Int64,
            "wounded_count": pl.Int64,
            "pot_ratio": pl.Float64,
            "guns": pl.Int64,
        },
    )
    return games, decisions


def _frame_bytes(frame: pl.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.write_parquet(buffer)
    return buffer.getvalue()


def playstyle_games(settings: PlaystyleSettings, store: Path | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`play_playstyle`, kept in ``store`` (under a name hashing the settings, the code
    fingerprint and the version) so that a second call with the same code reads them back."""
    if store is None:
        return play_playstyle(settings)
    key = json.dumps([asdict(settings), cashnguns_fingerprint(), __version__], sort_keys=True)
    folder = Path(store) / PLAYSTYLE_FOLDER
    name = hashlib.sha256(key.encode()).hexdigest()[:16]
    paths = folder / f"{name}.games.parquet", folder / f"{name}.decisions.parquet"
    if all(path.exists() for path in paths):
        return pl.read_parquet(paths[0]), pl.read_parquet(paths[1])
    games, decisions = play_playstyle(settings)
    atomic_write_bytes(paths[1], _frame_bytes(decisions))
    atomic_write_bytes(paths[0], _frame_bytes(games))  # last: its presence says both are whole
    return games, decisions


def ratio_over_games(frame: pl.DataFrame, value: str, weight: str | None = None) -> dict:
    """The pooled share ``sum(value) / sum(weight)`` (``weight`` None: one per row) over the
    frame's rows, with a 95% delta-method interval over games (the column ``game``, the unit:
    rows of one game are correlated); n counts the games with a row."""
    count = pl.col(weight).cast(pl.Float64).sum() if weight else pl.len().cast(pl.Float64)
    per_game = (  # in game order: the same sums, bit for bit, whatever order the groups come in
        frame.group_by("game").agg(pl.col(value).cast(pl.Float64).sum().alias("x"), count.alias("m")).sort("game")
    )
    n = per_game.height
    if n == 0:
        return {"p": math.nan, "lo": math.nan, "hi": math.nan, "n": 0, "decisions": 0}
    x, m = per_game["x"].to_numpy(), per_game["m"].to_numpy()
    p = float(x.sum() / m.sum())
    if n > 1:
        variance = float(((x - p * m) ** 2).sum()) / m.sum() ** 2 * n / (n - 1)
        half = Z95 * math.sqrt(variance)
    else:
        half = math.inf
    return {
        "p": p,
        "lo": max(0.0, p - half),
        "hi": min(1.0, p + half),
        "n": n,
        "decisions": int(m.sum()),
    }


def win_figure(games: pl.DataFrame) -> dict:
    """Win rate per search seat over games (Wilson interval when one seat per game, else the
    ratio estimate over games)."""
    if games.height and games["game"].n_unique() == games.height:
        wins = int(games["win"].sum())
        lo, hi = wilson_interval(np.array([wins]), np.array([games.height]))
        return {
            "p": wins / games.height,
            "lo": float(lo[0]),
            "hi": float(hi[0]),
            "n": games.height,
            "decisions": games.height,
        }
    return ratio_over_games(games, "win")


#: The pot bands of :func:`playstyle_figures`: (key, words, filter on ``pot_ratio``).
POT_BANDS = (
    ("small", f"a pot under {LOW_POT:g} x the round's expected loot", pl.col("pot_ratio") < LOW_POT),
    (
        "usual",
        f"a pot of {LOW_POT:g}-{HIGH_POT:g} x the expected loot",
        (pl.col("pot_ratio") >= LOW_POT) & (pl.col("pot_ratio") <= HIGH_POT),
    ),
    ("big", f"a pot over {HIGH_POT:g} x the expected loot", pl.col("pot_ratio") > HIGH_POT),
)


def playstyle_figures(games: pl.DataFrame, decisions: pl.DataFrame, players: int) -> list[dict]:
    """The figures of one table's games, each ``{"key", "what", "p", "lo", "hi", "n",
    "decisions"}`` (n counts games): the win rate; the share of loaded cards among the cards
    it played, per round, in the early and late rounds (:data:`EARLY_ROUNDS`) and per pot band
    (:data:`POT_BANDS`); the share of lie-downs when one
    gun and when two or more aim at it; the share of aims at a richest opponent and at a most
    wounded one, each beside the share a uniformly random aim would give on the same
    decisions (``random-*``, the mean of count/options)."""
    found = [{"key": "win", "what": "win rate per search seat", **win_figure(games)}]
    cards = decisions.filter(pl.col("decision") == "card").with_columns((pl.col("choice") > 0).alias("loaded"))
    for round_index in range(ROUNDS):
        part = cards.filter(pl.col("round") == round_index)
        found.append(
            {
                "key": f"loaded-round-{round_index + 1}",
                "what": f"share of loaded cards played in round {round_index + 1}",
                **ratio_over_games(part, "loaded"),
            }
        )
    for key, words, keep in (
        ("early", "rounds 1-5", pl.col("round") < EARLY_ROUNDS),
        ("late", f"rounds {EARLY_ROUNDS + 1}-{ROUNDS}", pl.col("round") >= EARLY_ROUNDS),
    ):
        found.append(
            {
                "key": f"loaded-{key}",
                "what": f"share of loaded cards among its cards of {words}",
                **ratio_over_games(cards.filter(keep), "loaded"),
            }
        )
    for key, words, keep in POT_BANDS:
        found.append(
            {
                "key": f"loaded-pot-{key}",
                "what": f"share of loaded cards played at {words}",
                **ratio_over_games(cards.filter(keep), "loaded"),
            }
        )
    lies = decisions.filter((pl.col("decision") == "lie_down") & (pl.col("guns") > 0))
    for key, words, keep in (
        ("lie-1-gun", "share of lie-downs with one gun aimed at it", pl.col("guns") == 1),
        ("lie-2-guns", "share of lie-downs with two or more guns aimed at it", pl.col("guns") >= 2),
    ):
        found.append({"key": key, "what": words, **ratio_over_games(lies.filter(keep), "choice")})
    aims = decisions.filter(pl.col("decision") == "aim")
    for key, words in (("richest", "a richest opponent"), ("wounded", "a most wounded opponent")):
        # only where the living opponents differ (not all richest or all most wounded)
        differ = aims.filter(pl.col(f"{key}_count") < pl.col("options")).with_columns(
            (pl.col(f"{key}_count") / pl.col("options")).alias(f"random_{key}")
        )
        found.append(
            {
                "key": f"aim-{key}",
                "what": f"share of aims at {words}, where the opponents differ",
                **ratio_over_games(differ, key),
            }
        )
        found.append(
            {
                "key": f"random-{key}",
                "what": f"share a uniformly random aim would put on {words} (same decisions)",
                **ratio_over_games(differ, f"random_{key}"),
            }
        )
    return [{"players": players, **figure} for figure in found]
