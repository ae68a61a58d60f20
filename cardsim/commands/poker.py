"""`cardsim poker ...`: evaluate hands, equity, percentiles and the pre-flop table from the shell.

Parse and delegate only; every number comes from the engine.
"""

from __future__ import annotations

from typing import Annotated

import numpy as np
import polars as pl
import typer

from cardsim.commands.common import JsonOpt, command_app, show_table
from cardsim.errors import UserError
from cardsim.sims.poker.cards import format_cards, parse_cards
from cardsim.sims.poker.evaluator import evaluate
from cardsim.sims.poker.hands import CATEGORY_NAMES, category_of, describe
from cardsim.sims.poker.preflop import preflop_table
from cardsim.sims.poker.strength import equity, hand_percentiles
from cardsim.stats import wilson_interval

app = command_app(
    "poker",
    help="Poker engine: hand scores, equity, exact percentiles, the 169-hand pre-flop table.",
    example='cardsim poker equity "As Ah" --board "Kd 7c 2s"',
)

BoardOpt = Annotated[str, typer.Option("--board", help="Board cards, e.g. 'Kd 7c 2s'.")]


@app.command("eval")
def eval_command(
    hands: Annotated[list[str], typer.Argument(help="Hands of 5-8 cards, one per argument.")],
    as_json: JsonOpt = False,
) -> None:
    """Score, category and description of each hand (J* is the suitless Jack).

    Example: cardsim poker eval "As Ks 4c 4h Kd 9c 2d" "Jc Jd Jh Js J*"
    """
    rows = []
    for text in hands:
        cards = parse_cards(text)
        score = int(evaluate(cards))
        rows.append(
            {
                "hand": format_cards(cards),
                "score": score,
                "category": CATEGORY_NAMES[int(category_of(score))],
                "best five": describe(score),
            }
        )
    show_table(pl.DataFrame(rows), title="poker hands", name="hands", as_json=as_json)


@app.command("equity")
def equity_command(
    pocket: Annotated[str, typer.Argument(help="Pocket cards, e.g. 'As Ah' (2 or 3 cards).")],
    board: BoardOpt = "",
    opponents: Annotated[int, typer.Option("--opponents", help="Random opponents.")] = 1,
    samples: Annotated[int, typer.Option("--samples", help="Deals when sampling.")] = 200_000,
    exact_limit: Annotated[
        int, typer.Option("--exact-limit", help="Enumerate when at most this many scenarios.")
    ] = 2_000_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed for sampling.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Equity against random holdings over random remaining board cards (ties shared).

    Exact enumeration with one opponent when cheap, otherwise sampled; the method is printed.
    Example: cardsim poker equity "As Ah" --board "Kd 7c 2s"
    """
    if seed < 0:
        raise UserError(f"--seed must be a non-negative whole number, got {seed}")
    pockets = parse_cards(pocket)[None, :]
    boards = parse_cards(board)[None, :] if board.strip() else None
    result = equity(
        pockets,
        boards,
        n_opponents=opponents,
        rng=np.random.default_rng(seed),
        n_samples=samples,
        exact_limit=exact_limit,
    )
    n = int(result.n[0])
    share = float(result.equity[0])
    if result.method == "exact":
        lo = hi = share
    else:
        lo_arr, hi_arr = wilson_interval(share * n, n)
        lo, hi = float(lo_arr), float(hi_arr)
    row = {
        "pocket": format_cards(pockets[0]),
        "board": board.strip() or "-",
        "opponents": opponents,
        "method": result.method,
        "n": n,
        "win": float(result.win_rate[0]),
        "tie": float(result.ties[0]) / n,
        "equity": share,
        "lo": lo,
        "hi": hi,
    }
    show_table(pl.DataFrame([row]), title="equity (95% Wilson interval when sampled)", name="equity", as_json=as_json)


@app.command("percentile")
def percentile_command(
    pocket: Annotated[str, typer.Argument(help="Pocket cards (2 or 3).")],
    board: BoardOpt = "",
    as_json: JsonOpt = False,
) -> None:
    """Exact share of the holdings you cannot see that your current hand beats (ties half).

    Example: cardsim poker percentile "9c 9d" --board "Ks 7h 2c 4s"
    """
    if not board.strip():
        raise UserError("percentile needs --board (at least three cards); see 'preflop'")
    result = hand_percentiles(parse_cards(board)[None, :], parse_cards(pocket)[None, None, :])
    row = {
        "pocket": pocket,
        "board": board,
        "below": int(result.below[0, 0]),
        "tied": int(result.tied[0, 0]),
        "above": int(result.above[0, 0]),
        "holdings": int(result.total[0, 0]),
        "percentile": float(result.percentile[0, 0]),
    }
    show_table(pl.DataFrame([row]), title="exact percentile", name="percentile", as_json=as_json)


@app.command("preflop")
def preflop_command(
    top: Annotated[int, typer.Option("--top", help="Show this many classes (0: all 169).")] = 20,
    as_json: JsonOpt = False,
) -> None:
    """The 169 starting hands by heads-up equity against one random holding (sampled, with CI).

    Example: cardsim poker preflop --top 10
    """
    if top < 0:
        raise UserError(f"--top must be >= 0, got {top}")
    table = preflop_table().sort("equity", descending=True)
    table = table.select("hand", "combos", "n", "equity", "lo", "hi", "method")
    show_table(
        table.head(top) if top else table, title="pre-flop equity vs one random hand", name="preflop", as_json=as_json
    )
