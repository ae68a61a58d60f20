"""Tournaments of a population of strategies at a symmetric table, from per-table sums.

A tournament plays *compositions* (which entrants sit at the table, a multiset of ``players``
entrant indices) on paired deals. For each composition and each entrant in it, a chunk records
the sums over its games of what the entrant's seats did in a game (``w``: seats that won,
``s``: their summed score) and of their squares. The game is the unit of every interval: an
entrant's seats at one table share its deal, so their outcomes are correlated; each game gives
one observation, and an entrant's rate over several compositions is a ratio estimate (wins per
seat) whose 95% interval comes from the per-game residuals (delta method, cluster = game).

From the same sums: the per-entrant standing, the head-to-head table (an entrant's rate at the
tables where another one sits), the heuristic payoff table (each composition's payoff per seat
of each entrant in it; Walsh, Das, Tesauro & Kephart 2002), the population's symmetric
equilibrium (:mod:`cardsim.analysis.equilibrium`) where the design covers every composition,
and α-Rank (:mod:`cardsim.analysis.alpharank`) where it covers every table of two entrants.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from cardsim.analysis.alpharank import alpha_rank
from cardsim.stats import Z95

#: Table designs: every composition (repeats allowed), every table of distinct entrants, or a
#: sample of compositions that always holds every table of one or two entrants; "auto" picks.
DESIGNS = ("auto", "all", "distinct", "sampled")
#: Columns of the per-composition sums a tournament stores (one row per composition and
#: entrant in it).
SUM_COLUMNS = ("composition", "entrant", "count", "games", "w", "w2", "s", "s2")


def compositions(entrants: int, players: int, design: str, *, budget: int, seed: int) -> list[tuple[int, ...]]:
    """The compositions a design plays, sorted: ``all`` every multiset; ``distinct`` every set
    of ``players`` different entrants; ``sampled`` every composition of at most two entrants
    (what α-Rank needs) plus others drawn without replacement, uniformly, from the rest until
    ``budget`` compositions."""
    if design == "all":
        return list(itertools.combinations_with_replacement(range(entrants), players))
    if design == "distinct":
        return list(itertools.combinations(range(entrants), players))
    if design != "sampled":
        raise ValueError(design)
    every = list(itertools.combinations_with_replacement(range(entrants), players))
    pairs = [c for c in every if len(set(c)) <= 2]
    rest = [c for c in every if len(set(c)) > 2]
    extra = max(0, min(len(rest), budget - len(pairs)))
    rng = np.random.default_rng(np.random.SeedSequence([seed, 48_000]))
    chosen = sorted(rng.choice(len(rest), size=extra, replace=False).tolist()) if extra else []
    return sorted(pairs + [rest[i] for i in chosen])


def choose_design(design: str, entrants: int, players: int, games: int) -> str:
    """``auto``: ``all`` when every composition can be played on at least ``players`` deals
    (one full turn of the seats) within ``games``, else ``sampled``."""
    if design != "auto":
        return design
    return "all" if math.comb(entrants + players - 1, players) * players <= games else "sampled"


def rotated_lineups(composition: Sequence[int], deals: int, offset: int = 0) -> np.ndarray:
    """(deals, players) lineups of a composition: on deal ``j`` the slots are turned
    ``offset + j`` places, so over ``players`` deals every entrant sits in every slot."""
    base = np.asarray(composition, np.int64)
    return np.stack([np.roll(base, -((offset + j) % base.size)) for j in range(deals)])


def composition_sums(composition_index: int, lineups: np.ndarray, wins: np.ndarray, scores: np.ndarray) -> list[dict]:
    """The stored sums of one composition from its games: ``lineups`` (games, players) entrant
    per slot, ``wins`` and ``scores`` per game and slot."""
    rows = []
    for entrant in sorted(set(lineups[0].tolist())):
        seats = lineups == entrant
        w = (wins * seats).sum(axis=1).astype(np.float64)
        s = (scores * seats).sum(axis=1).astype(np.float64)
        rows.append(
            {
                "composition": composition_index,
                "entrant": entrant,
                "count": int(seats[0].sum()),
                "games": int(lineups.shape[0]),
                "w": float(w.sum()),
                "w2": float((w**2).sum()),
                "s": float(s.sum()),
                "s2": float((s**2).sum()),
            }
        )
    return rows


def _ratio(frame: pl.DataFrame, value: str, square: str) -> tuple[float, float, float, int]:
    """Per-seat mean of ``value`` over the rows' games, its 95% half-width (game = unit,
    ratio estimator), the games and the seats. The per-game seats ``count`` are constant
    within a row, so the residual sum of squares follows from the row sums."""
    if frame.height == 0:
        return math.nan, math.nan, 0, 0
    count = frame["count"].to_numpy().astype(np.float64)
    games = frame["games"].to_numpy().astype(np.float64)
    total = frame[value].to_numpy()
    squares = frame[square].to_numpy()
    seats = float((count * games).sum())
    mean = float(total.sum()) / seats
    residual = float((squares - 2 * mean * count * total + mean**2 * count**2 * games).sum())
    n = float(games.sum())
    variance = max(residual, 0.0) / seats**2 * n / max(n - 1, 1)
    return mean, Z95 * math.sqrt(variance), int(n), int(seats)


def standings(sums: pl.DataFrame, labels: Sequence[str]) -> pl.DataFrame:
    """Per entrant over every game it played: games, seats, win rate per seat and mean score
    per seat with 95% intervals over games, best win rate first."""
    rows = []
    for index, label in enumerate(labels):
        own = sums.filter(pl.col("entrant") == index)
        win, win_half, games, seats = _ratio(own, "w", "w2")
        score, score_half, _, _ = _ratio(own, "s", "s2")
        rows.append(
            {
                "entrant": label,
                "games": games,
                "seats": seats,
                "p_win": win,
                "win_lo": max(0.0, win - win_half),
                "win_hi": min(1.0, win + win_half),
                "mean_score": score,
                "score_lo": score - score_half,
                "score_hi": score + score_half,
            }
        )
    return pl.DataFrame(rows).sort(["p_win", "entrant"], descending=[True, False])


def head_to_head(sums: pl.DataFrame, labels: Sequence[str]) -> pl.DataFrame:
    """Entrant ``entrant``'s win rate and mean score per seat at the tables where ``opponent``
    also sits (on the diagonal: where it sits at least twice), with 95% intervals over games;
    a pair that never met has no row."""
    members = sums.group_by("composition").agg(pl.col("entrant"), pl.col("count"))
    tables: dict[int, dict[int, int]] = {c: dict(zip(e, k, strict=True)) for c, e, k in members.iter_rows()}
    rows = []
    for i, label in enumerate(labels):
        own = sums.filter(pl.col("entrant") == i)
        for j, other in enumerate(labels):
            keep = [c for c in own["composition"].to_list() if (tables[c].get(j, 0) >= 2 if i == j else j in tables[c])]
            block = own.filter(pl.col("composition").is_in(keep))
            if block.height == 0:
                continue
            win, win_half, games, _ = _ratio(block, "w", "w2")
            score, score_half, _, _ = _ratio(block, "s", "s2")
            rows.append(
                {
                    "entrant": label,
                    "opponent": other,
                    "games": games,
                    "p_win": win,
                    "win_lo": max(0.0, win - win_half),
                    "win_hi": min(1.0, win + win_half),
                    "mean_score": score,
                    "score_lo": score - score_half,
                    "score_hi": score + score_half,
                }
            )
    return pl.DataFrame(rows)


def payoff_table(sums: pl.DataFrame, labels: Sequence[str], players: int) -> pl.DataFrame:
    """The heuristic payoff table: one row per composition, its seats per entrant
    (``n_<label>``), games, and each present entrant's win rate (``win_<label>``) and mean
    score (``score_<label>``) per seat; null where the entrant is absent."""
    rows: dict[int, dict] = {}
    for row in sums.iter_rows(named=True):
        out = rows.setdefault(
            row["composition"],
            {"composition": row["composition"], "games": row["games"], **{f"n_{name}": 0 for name in labels}},
        )
        label = labels[row["entrant"]]
        seats = row["count"] * row["games"]
        out[f"n_{label}"] = row["count"]
        out[f"win_{label}"] = row["w"] / seats
        out[f"score_{label}"] = row["s"] / seats
    columns = [
        "composition",
        "games",
        *(f"n_{n}" for n in labels),
        *(f"win_{n}" for n in labels),
        *(f"score_{n}" for n in labels),
    ]
    return pl.DataFrame(
        [rows[c] for c in sorted(rows)],
        schema_overrides={**{f"win_{n}": pl.Float64 for n in labels}, **{f"score_{n}": pl.Float64 for n in labels}},
    ).select(columns)


def profile_rows(
    sums: pl.DataFrame, labels: Sequence[str], compositions_played: Sequence[tuple[int, ...]]
) -> pl.DataFrame:
    """The sums as the profile table :func:`cardsim.analysis.cashnguns.symmetric_game` reads:
    per composition and entrant, its per-seat win rate and mean score with 95% intervals
    (each game one observation of its seats' mean)."""
    rows = []
    for row in sums.iter_rows(named=True):
        count, games = row["count"], row["games"]
        profile = "+".join(labels[i] for i in compositions_played[row["composition"]])
        out = {"profile": profile, "strategy": labels[row["entrant"]], "n": games}
        for value, square, name, lo, hi in (
            ("w", "w2", "p_win", "win_lo", "win_hi"),
            ("s", "s2", "mean_score", "score_lo", "score_hi"),
        ):
            mean = row[value] / (count * games)
            variance = max(row[square] / count**2 / games - mean**2, 0.0) * games / max(games - 1, 1)
            half = Z95 * math.sqrt(variance / games)
            out.update({name: mean, lo: mean - half, hi: mean + half})
        rows.append(out)
    return pl.DataFrame(rows)


def rank_by_alpha(
    sums: pl.DataFrame,
    labels: Sequence[str],
    compositions_played: Sequence[tuple[int, ...]],
    players: int,
    metric: str,
    *,
    alpha: float,
    population: int,
) -> pl.DataFrame | None:
    """α-Rank of the entrants from the tables of one or two entrants (None when the design
    lacks one): payoffs per seat in ``metric``, rescaled to [0, 1] by the least and greatest
    payoff among those tables, so ``alpha`` is unitless. One row per entrant: its stationary
    mass ``pi`` and ``rank`` (1 best)."""
    value = "w" if metric == "win" else "s"
    lookup: dict[tuple[int, ...], dict[int, float]] = {}
    for row in sums.iter_rows(named=True):
        composition = compositions_played[row["composition"]]
        if len(set(composition)) <= 2:
            lookup.setdefault(composition, {})[row["entrant"]] = row[value] / (row["count"] * row["games"])
    count = len(labels)
    needed = [
        tuple(sorted([a] * k + [b] * (players - k)))
        for a in range(count)
        for b in range(count)
        for k in range(players + 1)
    ]
    if any(c not in lookup for c in needed):
        return None
    values = [v for table in lookup.values() for v in table.values()]
    low, span = min(values), (max(values) - min(values)) or 1.0

    def payoff(strategy: int, own: int, other: int, other_strategy: int) -> float:
        table = tuple(sorted([strategy] * own + [other_strategy] * other))
        return (lookup[table][strategy] - low) / span

    result = alpha_rank(payoff, count, players, alpha=alpha, population=population)
    # entrants whose masses differ by less than the solver's accuracy share a rank
    rank = np.array([1 + int((result.pi > pi + 1e-9).sum()) for pi in result.pi], np.int64)
    return pl.DataFrame({"entrant": list(labels), "pi": result.pi, "rank": rank}).sort(["rank", "entrant"])
