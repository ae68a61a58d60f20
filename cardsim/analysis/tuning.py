"""Difficulty tuning: which configuration of a game gives a group a target win rate.

A tuner runs each candidate configuration (a mode, a permanent challenge, a variant knob...)
through the runner, estimates its win rate with a 95% Wilson interval, and ranks candidates by
their distance to the target. Candidates whose intervals overlap the best one's cannot be told
apart at this n and are flagged as such. The easy/medium/hard ladder picks the candidate closest
to the target (medium), one closest to halfway between the target and 1 among the clearly
easier ones (easy), and one closest to half the target among the clearly harder ones (hard).
A target beyond every candidate's interval is out of reach: :func:`closest_answer` says so and
names the closest reachable configuration. :func:`neighbour_rungs` gives the player models around
a group's model, so an answer can show how much the group's skill matters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from cardsim.errors import UserError
from cardsim.sims.core.runner import RunResult, run
from cardsim.sims.core.simulator import Simulator
from cardsim.stats import proportion_table

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Candidate:
    """One configuration to try: a readable label and the config fields it sets."""

    label: str
    config: dict[str, Any]


def check_target(target: float) -> float:
    """A target win rate strictly between 0 and 1 (else a one-line user error)."""
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not 0.0 < target < 1.0:
        raise UserError(f"target must be a win rate between 0 and 1 (e.g. 0.5), got {target!r}")
    return float(target)


def level_aims(target: float) -> dict[str, float]:
    """Win rate aimed at by each ladder level: easy halfway to 1, medium the target, hard half."""
    return {"easy": target + (1.0 - target) / 2.0, "medium": target, "hard": target / 2.0}


def candidate_table(frames: Sequence[tuple[str, pl.DataFrame]], column: str) -> pl.DataFrame:
    """Per candidate label: n, successes, p and 95% Wilson interval of boolean ``column``."""
    stacked = pl.concat(
        [frame.select(pl.lit(label).alias("label"), pl.col(column)) for label, frame in frames],
        how="vertical",
    )
    return proportion_table(stacked, ["label"], column)


def rank_candidates(table: pl.DataFrame, target: float) -> pl.DataFrame:
    """Candidates sorted by |p - target| (ties by label), with the rank and two flags.

    ``covers_target``: the 95% interval contains the target. ``tied_with_best``: the interval
    overlaps the closest candidate's, so this n cannot tell them apart.
    """
    ranked = (
        table.with_columns((pl.col("p") - target).abs().alias("distance"))
        .sort(["distance", "label"])
        .with_columns(
            pl.int_range(1, pl.len() + 1).alias("rank"),
            ((pl.col("lo") <= target) & (pl.col("hi") >= target)).alias("covers_target"),
        )
    )
    if ranked.height == 0:
        return ranked.with_columns(pl.lit(False).alias("tied_with_best"))
    best_lo, best_hi = ranked["lo"][0], ranked["hi"][0]
    return ranked.with_columns(((pl.col("lo") <= best_hi) & (pl.col("hi") >= best_lo)).alias("tied_with_best"))


@dataclass(frozen=True)
class Answer:
    """The configuration closest to a target and whether the target can be reached at all.

    ``reach`` is "reachable" when the target lies within the candidates' range (some interval
    reaches it on each side), "above" when even the easiest configuration's 95% interval ends
    below the target, "below" when even the hardest one's starts above it; out of reach, the
    closest configuration is the reachable one nearest the target.
    """

    label: str
    n: int
    p: float
    lo: float
    hi: float
    reach: str
    run: str = ""  # the stored run it reads, where the candidate table names one

    @property
    def reachable(self) -> bool:
        return self.reach == "reachable"

    def sentence(self, who: str, target: float) -> str:
        """One line a group can act on (rates as percentages with the interval and n)."""
        rate = f"{self.p:.1%} (95% interval {self.lo:.1%}-{self.hi:.1%}, n={self.n:,})"
        if self.reach == "above":
            return (
                f"A {target:.0%} win rate is out of reach for {who}: even the easiest configuration "
                f"stays below it. Closest reachable: {self.label}, {rate}."
            )
        if self.reach == "below":
            return (
                f"A {target:.0%} win rate is out of reach for {who}: even the hardest configuration "
                f"stays above it. Closest reachable: {self.label}, {rate}."
            )
        return f"For {who} aiming at a {target:.0%} win rate, play: {self.label}, {rate}."


def closest_answer(table: pl.DataFrame, target: float) -> Answer:
    """The candidate closest to ``target`` (:func:`rank_candidates` order) and its reach."""
    if table.height == 0:
        raise ValueError("no candidate to answer from")
    best = rank_candidates(table, target).row(0, named=True)
    if target > float(table["hi"].max()):
        reach = "above"
    elif target < float(table["lo"].min()):
        reach = "below"
    else:
        reach = "reachable"
    return Answer(
        best["label"],
        int(best["n"]),
        float(best["p"]),
        float(best["lo"]),
        float(best["hi"]),
        reach,
        str(best.get("run") or ""),
    )


def neighbour_rungs(ladder_names: Sequence[str], name: str) -> list[str]:
    """``name`` with the rung below and above it on a ladder of player models (weakest first),
    e.g. ('random', 'percentile', 'history', 'bayes') and 'percentile' -> random, percentile,
    history."""
    rungs = list(ladder_names)
    if name not in rungs:
        return [name]
    at = rungs.index(name)
    return rungs[max(0, at - 1) : at + 2]


def _closest(table: pl.DataFrame, aim: float) -> dict[str, Any] | None:
    if table.height == 0:
        return None
    return table.with_columns((pl.col("p") - aim).abs().alias("_d")).sort(["_d", "label"]).row(0, named=True)


def ladder(table: pl.DataFrame, target: float) -> pl.DataFrame:
    """The easy/medium/hard ladder: one row per level that has a candidate.

    Medium is the candidate closest to the target. Easy is the one closest to its aim among
    candidates clearly easier than medium (interval entirely above medium's), falling back to
    any candidate with a higher estimate; hard likewise below. A level with no candidate on its
    side is left out.
    """
    aims = level_aims(target)
    medium = _closest(table, target)
    rows: list[dict[str, Any]] = []
    if medium is None:
        return pl.DataFrame(
            schema={
                "level": pl.String,
                "aim": pl.Float64,
                "label": pl.String,
                "n": pl.UInt32,
                "p": pl.Float64,
                "lo": pl.Float64,
                "hi": pl.Float64,
            }
        )
    sides: dict[str, tuple[pl.Expr, pl.Expr]] = {
        "easy": (pl.col("lo") > medium["hi"], pl.col("p") > medium["p"]),
        "hard": (pl.col("hi") < medium["lo"], pl.col("p") < medium["p"]),
    }
    for level in LEVELS:
        if level == "medium":
            pick = medium
        else:
            clear, loose = sides[level]
            pick = _closest(table.filter(clear), aims[level]) or _closest(table.filter(loose), aims[level])
        if pick is not None:
            rows.append(
                {
                    "level": level,
                    "aim": aims[level],
                    "label": pick["label"],
                    "n": pick["n"],
                    "p": pick["p"],
                    "lo": pick["lo"],
                    "hi": pick["hi"],
                }
            )
    return pl.DataFrame(rows).with_columns(pl.col("n").cast(pl.UInt32))


def evaluate_candidates(
    simulator: Simulator,
    candidates: Sequence[Candidate],
    column: str,
    *,
    seed: int,
    jobs: int,
    store: Path | None,
    precision: float | None,
    max_n: int,
    on_start: Callable[[str], None] | None = None,
    on_chunk: Callable[[int], None] | None = None,
    on_done: Callable[[str, RunResult], None] | None = None,
) -> pl.DataFrame:
    """Run every candidate through the runner (and the store) and tabulate ``column``.

    With ``precision`` each run stops once the headline's 95% half-width is below it (or at
    ``max_n``); without, each plays exactly ``max_n`` episodes. The callbacks follow the work:
    ``on_start(label)``, ``on_chunk(most chunks the run may need)`` per computed chunk, and
    ``on_done(label, the run's result)``.
    """
    frames: list[tuple[str, pl.DataFrame]] = []
    size = min(simulator.chunk_size, max_n)
    most_chunks = -(-max_n // size)
    chunk_done = None if on_chunk is None else (lambda _index: on_chunk(most_chunks))
    for candidate in candidates:
        config = simulator.make_config(**candidate.config)
        if on_start is not None:
            on_start(candidate.label)
        if precision is None:
            result = run(
                simulator, config, n=max_n, seed=seed, jobs=jobs, store=store, chunk_size=size, on_chunk=chunk_done
            )
        else:
            result = run(
                simulator,
                config,
                n=size,
                seed=seed,
                jobs=jobs,
                store=store,
                precision=precision,
                max_n=max_n,
                chunk_size=size,
                on_chunk=chunk_done,
            )
        frames.append((candidate.label, result.episodes))
        if on_done is not None:
            on_done(candidate.label, result)
    return candidate_table(frames, column)


@dataclass(frozen=True)
class Tuned:
    """One player count and player model: the ranked candidates, the ladder and the answer
    (``chosen``: the group's own model, the others are the rungs either side)."""

    players: int
    model: str
    chosen: bool
    ranked: pl.DataFrame
    steps: pl.DataFrame
    answer: Answer


def tune_rungs(
    simulator: Simulator,
    candidates_for: Callable[[int, str], list[Candidate]],
    column: str,
    *,
    refine_for: Callable[[int, str], list[Candidate]] | None = None,
    players: Sequence[int],
    rungs: Sequence[str],
    chosen: str,
    target: float,
    seed: int,
    jobs: int,
    store: Path | None,
    precision: float | None,
    max_n: int,
    on_start: Callable[[str, str], None] | None = None,
    on_chunk: Callable[[int], None] | None = None,
    on_done: Callable[[str, RunResult], None] | None = None,
    on_refine: Callable[[int], None] | None = None,
) -> list[Tuned]:
    """Rank ``candidates_for(count, rung)`` against ``target`` for every player count and model
    rung (counts outer, rungs inner). Where no candidate's 95% interval covers the target,
    ``refine_for(count, rung)`` (finer configurations, e.g. challenge pairs) are tried too and
    ranked with the rest; ``on_refine(number of them)`` announces them. The other callbacks are
    :func:`evaluate_candidates`'s, with ``on_start`` also told where ("4 players, history")."""
    results: list[Tuned] = []
    for count in players:
        for rung in rungs:
            where = f"{count} players, {rung}"
            start = None if on_start is None else (lambda label, w=where: on_start(w, label))

            def evaluate(candidates: list[Candidate]) -> pl.DataFrame:
                return evaluate_candidates(
                    simulator,
                    candidates,
                    column,
                    seed=seed,
                    jobs=jobs,
                    store=store,
                    precision=precision,
                    max_n=max_n,
                    on_start=start,  # noqa: B023 - called in this iteration
                    on_chunk=on_chunk,
                    on_done=on_done,
                )

            table = evaluate(candidates_for(count, rung))
            covered = bool(((table["lo"] <= target) & (table["hi"] >= target)).any())
            finer = refine_for(count, rung) if refine_for is not None and not covered else []
            if finer:
                if on_refine is not None:
                    on_refine(len(finer))
                table = pl.concat([table, evaluate(finer)], how="vertical_relaxed")
            results.append(
                Tuned(
                    count,
                    rung,
                    rung == chosen,
                    rank_candidates(table, target),
                    ladder(table, target),
                    closest_answer(table, target),
                )
            )
    return results


def answers_table(results: Sequence[Tuned], column: str, who: Callable[[int, str], str], target: float) -> pl.DataFrame:
    """One row per player count and model rung (``column``: "model" or "strategy"): the
    configuration to play, its rate with the 95% interval and n, whether the target is in reach
    (``reach``: reachable, above or below, see :class:`Answer`), how many other configurations
    cannot be told apart from it (``tied``), and the answer as a sentence for ``who``."""
    return pl.DataFrame(
        [
            {
                "players": t.players,
                column: t.model,
                "chosen": t.chosen,
                "play": t.answer.label,
                "n": t.answer.n,
                "p": t.answer.p,
                "lo": t.answer.lo,
                "hi": t.answer.hi,
                "reach": t.answer.reach,
                "reachable": t.answer.reachable,
                "tied": int(t.ranked["tied_with_best"].sum()) - 1,
                "who": who(t.players, t.model),
                "answer": t.answer.sentence(who(t.players, t.model), target),
            }
            for t in results
        ]
    )


def _per_answer(results: Sequence[Tuned], column: str, frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """``frames`` (one per answer) stacked, each led by its player count and model rung."""
    return pl.concat(
        [
            frame.select(pl.lit(t.players).alias("players"), pl.lit(t.model).alias(column), pl.all()).rename(
                {"label": "configuration"}
            )
            for t, frame in zip(results, frames)
        ],
        how="vertical_relaxed",
    )


def closest_table(results: Sequence[Tuned], column: str, top: int) -> pl.DataFrame:
    """Per answer, its ``top`` closest configurations (:func:`rank_candidates` order)."""
    return _per_answer(
        results,
        column,
        [
            t.ranked.head(top).select("rank", "label", "n", "p", "lo", "hi", "covers_target", "tied_with_best")
            for t in results
        ],
    )


def ladder_table(results: Sequence[Tuned], column: str) -> pl.DataFrame:
    """Per answer, its easy/medium/hard :func:`ladder`."""
    return _per_answer(results, column, [t.steps for t in results])


def thegame_candidates(players: int) -> list[Candidate]:
    """The Game's variant knobs (seed 001): cards a turn must play (1, 2 = rules, 3), hand size
    (rules size for the player count, one less, one more, within 1-8) and the backwards trick
    (on = rules, off). Combinations where the minimum exceeds the hand are left out."""
    from cardsim.sims.thegame.rules import MAX_HAND, rules_hand_size

    rules_hand = int(rules_hand_size(players))
    hands = [h for h in (rules_hand - 1, rules_hand, rules_hand + 1) if 1 <= h <= MAX_HAND]
    candidates = []
    for min_cards in (1, 2, 3):
        for hand in hands:
            if min_cards > hand:
                continue
            for trick in (True, False):
                hand_text = f"hand {hand}" + (" (rules)" if hand == rules_hand else "")
                label = (
                    f"min {min_cards}{' (rules)' if min_cards == 2 else ''}, {hand_text}, "
                    f"trick {'on' if trick else 'off'}"
                )
                candidates.append(
                    Candidate(
                        label,
                        {
                            "min_cards": min_cards,
                            "hand_size": None if hand == rules_hand else hand,
                            "backwards_trick": trick,
                        },
                    )
                )
    return candidates


def gang_candidates() -> list[Candidate]:
    """The Gang's game configurations (seed 000, modes): Basic, Advanced, Professional with each
    permanent challenge (Quick Access is removed from that mode's pile, so it is not offered),
    and Master Thief."""
    from cardsim.sims.gang.cards import CHALLENGES

    candidates = [
        Candidate("Basic", {"unit": "game", "mode": "basic"}),
        Candidate("Advanced", {"unit": "game", "mode": "advanced"}),
    ]
    for name in CHALLENGES:
        if name == "quick-access":
            continue
        candidates.append(
            Candidate(
                f"Professional + {_challenge_title(name)}",
                {"unit": "game", "mode": "professional", "challenges": (name,)},
            )
        )
    candidates.append(Candidate("Master Thief", {"unit": "game", "mode": "master"}))
    return candidates


def _challenge_title(name: str) -> str:
    return name.replace("-", " ").title()


def gang_combinations(size: int) -> list[Candidate]:
    """Every mode with each set of ``size`` permanent challenges its config accepts, beyond
    :func:`gang_candidates` (the config decides, so the search follows the rules readings):
    Basic takes any (rules digest G6, a study option), Professional one only (G4, already in
    :func:`gang_candidates`), Advanced and Master Thief draw theirs."""
    from itertools import combinations

    from cardsim.errors import UserError as RejectedConfig
    from cardsim.sims.gang.cards import CHALLENGES
    from cardsim.sims.gang.config import MODES, GangConfig

    listed = {(c.config["mode"], c.config.get("challenges", ())) for c in gang_candidates()}
    candidates = []
    for mode in MODES:
        for chosen in combinations(CHALLENGES, size):
            if (mode, chosen) in listed:
                continue
            try:
                GangConfig(unit="game", mode=mode, challenges=chosen)
            except RejectedConfig:
                continue
            candidates.append(
                Candidate(
                    f"{mode.title()} + {' + '.join(map(_challenge_title, chosen))}",
                    {"unit": "game", "mode": mode, "challenges": chosen},
                )
            )
    return candidates
