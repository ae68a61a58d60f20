"""`cardsim bench poker`: evaluator speed against reference evaluators, measured in one process.

Rows (each a dict with the same keys):
- our batch evaluator on random 7-card hands (single thread, numba), best and median of repeats;
- phevaluator's Python API (``evaluate_cards``) and its ``evaluate_7cards``, and treys, on the
  same hands (if installed), with our speed as a ratio of each;
- the full enumeration of all 133,784,560 seven-card hands (and all five-card hands);
- exact percentiles on river boards (shared-board helper), boards per second.
Targets from issue 3: >= 80 M evals/s, >= 40x phevaluator's Python API, enumeration < 2 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from cardsim.sims.poker.cards import deal
from cardsim.sims.poker.evaluator import evaluate, score_histogram
from cardsim.sims.poker.strength import hand_percentiles

TARGET_EVALS_PER_SECOND = 80e6
TARGET_RATIO_VS_PHEVALUATOR = 40.0
TARGET_ENUMERATION_SECONDS = 2.0


def _timings(action: Callable[[], object], repeats: int) -> list[float]:
    """Wall-clock seconds of ``repeats`` runs of ``action`` (after one warm-up run)."""
    action()
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        seconds.append(time.perf_counter() - start)
    return seconds


def _row(what: str, n: int, seconds: list[float], reference: float | None = None,
         target: str = "", meets: bool | None = None) -> dict:
    """One benchmark row: speed of the median run (and of the best run, timeit's convention).

    ``x_phevaluator`` is the median speed over the median speed of phevaluator's Python API.
    """
    median = float(np.median(seconds))
    best = float(min(seconds))
    per_second = n / median
    return {
        "what": what,
        "n": n,
        "seconds": round(median, 4),
        "per_second": round(per_second),
        "best_per_second": round(n / best),
        "x_phevaluator": None if reference is None else round(per_second / reference, 1),
        "target": target,
        "met": meets,
    }


def _phevaluator_rows(hands: np.ndarray) -> list[tuple[str, int, list[float]]]:
    """Timings of phevaluator's public functions on the given hands (empty if not installed)."""
    try:
        from phevaluator import evaluate_7cards, evaluate_cards
    except ImportError:
        return []
    rows = hands.astype(int).tolist()

    def api() -> None:
        for row in rows:
            evaluate_cards(*row)

    def seven() -> None:
        for row in rows:
            evaluate_7cards(*row)

    return [
        ("phevaluator evaluate_cards", len(rows), _timings(api, 3)),
        ("phevaluator evaluate_7cards", len(rows), _timings(seven, 3)),
    ]


def _treys_row(hands: np.ndarray) -> list[tuple[str, int, list[float]]]:
    """Timings of treys' Evaluator.evaluate on the given hands (empty if not installed)."""
    try:
        from treys import Card, Evaluator
    except ImportError:
        return []
    from cardsim.sims.poker.cards import format_card

    evaluator = Evaluator()
    converted = [[Card.new(format_card(c)) for c in row] for row in hands.tolist()]

    def run() -> None:
        for row in converted:
            evaluator.evaluate(row[:5], row[5:])

    return [("treys evaluate", len(converted), _timings(run, 3))]


def main(quick: bool = False) -> list[dict]:
    """Run the poker benchmarks; ``quick`` uses fewer hands (for smoke tests)."""
    rng = np.random.default_rng(2024)
    n_ours = 1_000_000 if quick else 5_000_000
    n_reference = 5_000 if quick else 100_000
    hands = deal(rng, n_ours, 7)
    out = np.empty(n_ours, dtype=np.int32)

    def ours() -> None:
        out[:] = evaluate(hands, check=False)

    our_seconds = _timings(ours, 3 if quick else 7)
    reference_timings = _phevaluator_rows(hands[:n_reference])
    api_speed = (
        reference_timings[0][1] / float(np.median(reference_timings[0][2]))
        if reference_timings else None
    )
    our_speed = n_ours / float(np.median(our_seconds))
    rows = [
        _row(
            "cardsim evaluate 7-card (1 thread)", n_ours, our_seconds, api_speed,
            target=f">= {TARGET_EVALS_PER_SECOND / 1e6:.0f} M/s, >= "
            f"{TARGET_RATIO_VS_PHEVALUATOR:.0f}x phevaluator",
            meets=our_speed >= TARGET_EVALS_PER_SECOND
            and (api_speed is None or our_speed / api_speed >= TARGET_RATIO_VS_PHEVALUATOR),
        )
    ]
    for what, n, seconds in reference_timings + _treys_row(hands[:n_reference]):
        row = _row(what, n, seconds, api_speed)
        row["x_phevaluator"] = None if api_speed is None else round(
            (n / float(np.median(seconds))) / api_speed, 2
        )
        row["target"] = f"cardsim {our_speed / (n / float(np.median(seconds))):.0f}x faster"
        rows.append(row)

    enumeration = _timings(lambda: score_histogram(7), 1 if quick else 3)
    rows.append(_row(
        "enumerate 7-card (133,784,560)", 133_784_560, enumeration,
        target=f"< {TARGET_ENUMERATION_SECONDS:.0f} s",
        meets=float(np.median(enumeration)) < TARGET_ENUMERATION_SECONDS,
    ))
    rows.append(_row(
        "enumerate 5-card (2,598,960)", 2_598_960,
        _timings(lambda: score_histogram(5), 3),
    ))

    n_boards = 2_000 if quick else 20_000
    cards = deal(rng, n_boards, 5 + 6 * 2)
    boards, pockets = cards[:, :5], cards[:, 5:].reshape(n_boards, 6, 2)
    rows.append(_row(
        "river percentiles, 6 players (boards)", n_boards,
        _timings(lambda: hand_percentiles(boards, pockets), 3),
    ))
    return rows
