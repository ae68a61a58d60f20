"""The Game as the runner sees it: config type, batch function, headline, strategies."""

from __future__ import annotations

import numpy as np
import polars as pl

from cardsim.sims.core.simulator import Simulator
from cardsim.sims.thegame.batch import play_games
from cardsim.sims.thegame.config import STRATEGIES, TheGameConfig
from cardsim.sims.thegame.params import strategy_params
from cardsim.sims.thegame.rules import EXCELLENT_MAX_LEFT
from cardsim.sims.thegame.state import (
    S_CARDS_LEFT,
    S_DRAW_LEFT,
    S_EXTRA_PLAYS,
    S_FIRST_PLAYER,
    S_IN_HANDS,
    S_TRICKS,
    S_TURNS,
)

SEED_LIMIT = 2**63 - 1


def run_batch(config: TheGameConfig, rng: np.random.Generator, n: int) -> pl.DataFrame:
    """Play ``n`` games; one row each.

    Columns: the config (players, strategy, min_cards, hand_size, backwards_trick, rollouts),
    the outcome (won, excellent, cards_left = cards_in_hands + draw_left), the play (turns,
    extra_plays beyond the minimum, tricks, first_player chosen) and ``deal_seed``, from which
    :func:`cardsim.sims.thegame.state.deal_deck` regenerates the deal (the same seed gives the
    same deal under every strategy, so strategies can be compared game by game).
    """
    deal_seeds = rng.integers(0, SEED_LIMIT, size=n, dtype=np.int64)
    stats = play_games(
        deal_seeds,
        config.players,
        config.effective_hand_size,
        config.min_cards,
        config.backwards_trick,
        config.strategy_id,
        strategy_params(config.players, config.strategy, config.rollouts),
    )
    cards_left = stats[:, S_CARDS_LEFT].astype(np.int8)
    return pl.DataFrame(
        {
            "players": pl.Series(np.full(n, config.players, np.int8)),
            "strategy": pl.Series([config.strategy] * n, dtype=pl.String),
            "min_cards": pl.Series(np.full(n, config.min_cards, np.int8)),
            "hand_size": pl.Series(np.full(n, config.effective_hand_size, np.int8)),
            "backwards_trick": pl.Series(np.full(n, config.backwards_trick, np.bool_)),
            "rollouts": pl.Series(np.full(n, config.rollouts, np.int8)),
            "won": pl.Series(cards_left == 0),
            "excellent": pl.Series(cards_left <= EXCELLENT_MAX_LEFT),
            "cards_left": pl.Series(cards_left),
            "cards_in_hands": pl.Series(stats[:, S_IN_HANDS].astype(np.int8)),
            "draw_left": pl.Series(stats[:, S_DRAW_LEFT].astype(np.int8)),
            "turns": pl.Series(stats[:, S_TURNS].astype(np.int16)),
            "extra_plays": pl.Series(stats[:, S_EXTRA_PLAYS].astype(np.int16)),
            "tricks": pl.Series(stats[:, S_TRICKS].astype(np.int16)),
            "first_player": pl.Series(stats[:, S_FIRST_PLAYER].astype(np.int8)),
            "deal_seed": pl.Series(deal_seeds),
        }
    )


def warmup_configs() -> list[TheGameConfig]:
    """Configs that between them reach every batch kernel (one per strategy family, see
    :func:`cardsim.sims.thegame.batch.batch_kernel`): each strategy, and search with rollouts.
    Used by ``cardsim warmup``."""
    configs = [TheGameConfig(players=2, strategy=name) for name in STRATEGIES]
    return configs + [TheGameConfig(players=2, strategy="search", rollouts=1)]


SIMULATOR = Simulator(
    name="thegame",
    config_type=TheGameConfig,
    run_batch=run_batch,
    headline="won",
    policies={name: description for name, (_, description) in STRATEGIES.items()},
)
