"""The group's estimate (:mod:`cardsim.sims.gang.estimate`): the bayes chip likelihood replays
the model's own claims and private settle, so a team's true holdings always explain the chips
the heist really handed out (probability 1 where no two keys are exactly equal); the clear-gain
rule counts a board completion once and needs enough effective teams; bayes reads the Muscle
holder's chips as claims of the raised hand."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.gang.beliefs import hand_posteriors, tie_bounds
from cardsim.sims.gang.engine import play_heist
from cardsim.sims.gang.estimate import ALWAYS, ESTIMATE_MIN_TEAMS, clear_gain
from cardsim.sims.gang.estimate_playout import bayes_playout_round, fill_playout_posterior
from cardsim.sims.gang.estimate_weights import bayes_round_likelihood, bayes_round_tables
from cardsim.sims.gang.holdings import (
    BOARD_SIZES,
    MAX_POCKET,
    N_PAIRS,
    PAIR_MASKS_WITH_JACK,
    PAIRS_WITH_JACK,
    hand_score,
    muscle_score,
    rank_holdings,
    score_holdings,
)
from cardsim.sims.gang.models import BAYES, chip_likelihood


def _heist(players: int, rng: np.random.Generator):
    """One bayes heist without cards: (pockets, board, chips)."""
    deck = rng.permutation(52).astype(np.int64)
    pockets = np.zeros((players, MAX_POCKET), dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    chips = np.zeros((4, players), dtype=np.int64)
    none = np.zeros((1, players + 1), dtype=np.int64)
    play_heist(
        deck,
        int(rng.integers(1 << 30)),
        0,
        0,
        players,
        BAYES,
        1,
        3,
        True,
        chip_likelihood(players, players),
        pockets,
        board,
        chips,
        np.zeros(players, dtype=np.int64),
        PAIRS_WITH_JACK.copy(),
        PAIR_MASKS_WITH_JACK.copy(),
        ALWAYS,
        True,
        none,
        none,
        np.zeros(players + 1, dtype=np.int64),
        np.full((players, MAX_POCKET), -1, dtype=np.int64),
        np.zeros((4, players, 4)),
        np.zeros(players + 1, dtype=np.int64),
    )
    return pockets, board, chips


def _holding(pocket) -> int:
    pair = sorted(int(c) for c in pocket[:2])
    return int(np.flatnonzero((PAIRS_WITH_JACK[:N_PAIRS] == pair).all(axis=1))[0])


def _round_chances(players: int, pockets, board, chips) -> list[float]:
    """The replayed likelihood of every round's real chips for the real team."""
    bands = players
    count = N_PAIRS
    likelihood = chip_likelihood(players, bands)
    held = np.array([_holding(pockets[p]) for p in range(players)], dtype=np.int64)
    hband = np.zeros((4, count), dtype=np.int64)
    public_ok = np.ones((players, count), dtype=np.bool_)
    evidence_from = np.zeros(players, dtype=np.int64)
    out = []
    for t in range(4):
        valid = np.zeros(count, dtype=np.bool_)
        scores = np.zeros(count, dtype=np.int64)
        pct = np.zeros(count)
        score_holdings(PAIRS_WITH_JACK, PAIR_MASKS_WITH_JACK, count, 2, board, BOARD_SIZES[t], valid, scores)
        index, values = rank_holdings(scores, valid, count, BOARD_SIZES[t], 2, pct)
        hband[t] = np.minimum((pct * bands).astype(np.int64), bands - 1)
        weights = np.zeros((players, count))
        hand_posteriors(
            chips,
            t,
            players,
            count,
            valid,
            hband,
            likelihood,
            evidence_from,
            public_ok,
            np.ones((players, 1)),
            False,
            weights,
            -1,
            4,
            hband,
        )
        pos = np.zeros(count, dtype=np.int64)
        rank = np.zeros(count)
        band = np.zeros(count, dtype=np.int64)
        start = np.zeros(bands, dtype=np.int64)
        end = np.zeros(bands, dtype=np.int64)
        belief = np.zeros((players, bands))
        bayes_round_tables(index, values, weights, count, players, bands, pos, rank, band, start, end, belief)
        sorted_masks = PAIR_MASKS_WITH_JACK[index]
        sorted_weights = weights[:, index]
        kept = np.zeros((players, count), dtype=np.bool_)
        chance = bayes_round_likelihood(
            held,
            chips[t],
            players,
            sorted_masks,
            values,
            sorted_weights,
            pos,
            rank,
            band,
            start,
            end,
            belief,
            PAIR_MASKS_WITH_JACK,
            kept,
            np.empty((players, count)),
            np.empty((players, count)),
        )
        out.append(chance)
    return out


@pytest.mark.parametrize("players", [3, 5, 6])
def test_the_real_team_explains_the_real_bayes_chips(players: int) -> None:
    """Replaying bayes's claims, contest beliefs and private settle on the true holdings gives
    the chips the heist handed out: never probability 0, and exactly 1 after the first round
    (the posteriors then differ, so no two keys are equal), in every round of 25 heists."""
    rng = np.random.default_rng(players)
    for _ in range(25):
        pockets, board, chips = _heist(players, rng)
        chances = _round_chances(players, pockets, board, chips)
        assert min(chances) > 0.0, chances
        assert sum(c == 1.0 for c in chances[1:]) >= 2, chances


def test_clear_gain_counts_a_board_completion_once() -> None:
    """Teams drawn on one completion of the board share its turn and river: 4 of 16 boards on
    which the card wins for every team, none on which it loses, is no clear gain (the boards
    are the draws), while the same gains on 512 teams of one board are."""
    boards = np.repeat(np.arange(16), 32)
    gain = np.where(boards < 3, 1.0, 0.0)
    weight = np.ones(512)
    assert not clear_gain(weight, gain, boards)
    assert clear_gain(weight, gain, np.zeros(512, dtype=np.int64))


def test_clear_gain_needs_enough_effective_teams() -> None:
    """All the weight on a few teams (Kong's effective sample size below
    ``ESTIMATE_MIN_TEAMS``) gives no reliable standard error: the card is not played."""
    gain = np.ones(512)
    weight = np.zeros(512)
    weight[: ESTIMATE_MIN_TEAMS - 1] = 1.0
    cluster = np.zeros(512, dtype=np.int64)
    assert not clear_gain(weight, gain, cluster)
    weight[:ESTIMATE_MIN_TEAMS] = 1.0
    assert clear_gain(weight, gain, cluster)


def test_bayes_reads_the_muscle_holders_chips_as_claims_of_the_raised_hand() -> None:
    """From the round the Muscle is taken, the holder's chips are evidence about the band of
    their holding raised by the Muscle (the hand they claim with), before it about the plain
    holding; the other players' evidence is unchanged."""
    players, count = 2, 3
    chips = np.array([[1, 2], [2, 1], [0, 0], [0, 0]], dtype=np.int64)  # rounds x seats
    hband = np.array([[0, 1, 1]] * 4, dtype=np.int64)
    raised = np.array([[1, 1, 1]] * 4, dtype=np.int64)
    likelihood = np.array([[0.8, 0.2], [0.2, 0.8]])
    ones = np.ones((players, count), dtype=np.bool_)
    plain = np.zeros((players, count))
    muscle = np.zeros((players, count))
    args = (
        chips,
        2,
        players,
        count,
        np.ones(count, dtype=np.bool_),
        hband,
        likelihood,
        np.zeros(players, dtype=np.int64),
        ones,
        np.ones((players, 1)),
        False,
    )
    hand_posteriors(*args, plain, -1, 4, raised)
    hand_posteriors(*args, muscle, 0, 1, raised)
    assert np.allclose(muscle[1], plain[1])
    # seat 0: chip 1 then 2; from round 2 (the Muscle) every holding claims in band 1
    assert np.allclose(plain[0], [0.8 * 0.2, 0.2 * 0.8, 0.2 * 0.8])
    assert np.allclose(muscle[0], [0.8 * 0.8, 0.2 * 0.8, 0.2 * 0.8])


def _playout_chips(players: int, pockets, board, chips, user: int, r: int = 1):
    """The bayes play-out (:func:`estimate_playout.bayes_playout_round`) of the real team on the real
    board from the use round ``r``'s public posteriors, its posteriors updated with its own
    chips after every round; ``user`` holds the Muscle from round ``r`` (-1: no card). Each
    round is played on the game's chips of the rounds before it (so that a true tie the game
    broke at random does not carry over). Returns, per round ``r`` .. 3, the hand scores in the
    play-out's chip order and in the game's."""
    bands = players
    count = N_PAIRS
    likelihood = chip_likelihood(players, bands)
    held = np.array([_holding(pockets[p]) for p in range(players)], dtype=np.int64)
    hband = np.zeros((4, count), dtype=np.int64)
    mband = np.zeros((4, count), dtype=np.int64)
    tables = {}
    for t in range(4):
        valid = np.zeros(count, dtype=np.bool_)
        scores = np.zeros(count, dtype=np.int64)
        pct = np.zeros(count)
        score_holdings(PAIRS_WITH_JACK, PAIR_MASKS_WITH_JACK, count, 2, board, BOARD_SIZES[t], valid, scores)
        index, values = rank_holdings(scores, valid, count, BOARD_SIZES[t], 2, pct)
        hband[t] = np.minimum((pct * bands).astype(np.int64), bands - 1)
        for k, h in enumerate(index):
            below = np.searchsorted(values, muscle_score(values[k]), side="left")
            mband[t, h] = min(int(below / len(values) * bands), bands - 1)
        tables[t] = (valid, index, values) + tie_bounds(values)
    weights = np.zeros((players, count))
    hand_posteriors(
        chips,
        r,
        players,
        count,
        tables[r][0],
        hband,
        likelihood,
        np.zeros(players, dtype=np.int64),
        np.ones((players, count), dtype=np.bool_),
        np.ones((players, 1)),
        False,
        weights,
        -1,
        4,
        hband,
    )
    variant = 1 if user >= 0 else 0
    hands = np.zeros((2, 4, players), dtype=np.int64)
    for t in range(4):
        for j in range(players):
            hands[:, t, j] = hand_score(pockets[j], 2, board, BOARD_SIZES[t])
        if user >= 0:
            hands[1, t, user] = muscle_score(hands[0, t, user])
    played = chips.copy()
    played[r:] = 0
    base = players + 1
    out = []
    for t in range(r, 4):
        valid, index, values, lo, hi = tables[t]
        n_t = len(values)
        w_sorted = np.zeros((players + 1, 1, count))
        cum = np.zeros((players + 1, 1, count + 1))
        slots = np.zeros(players, dtype=np.int64)
        for j in range(players):
            slot = players if j == user else j
            code = sum(int(played[u, j]) * base ** (u - r) for u in range(r, t))
            fill_playout_posterior(
                weights[user if slot == players else j],
                index,
                n_t,
                r,
                t,
                code,
                base,
                likelihood,
                mband if slot == players else hband,
                w_sorted[slot, 0],
                cum[slot, 0],
            )
            slots[j] = slot
        order = np.zeros(players, dtype=np.int64)
        round_values = np.zeros((4, n_t), dtype=np.int64)  # row t: this round's sorted scores
        round_values[t] = values
        bayes_playout_round(
            t,
            variant,
            user,
            10,
            players,
            bands,
            hands,
            held,
            pockets[max(user, 0)].copy(),
            2,
            np.full((4, players), 0.5),
            round_values,
            n_t,
            lo,
            hi,
            w_sorted,
            cum,
            slots,
            np.zeros(players, dtype=np.int64),
            index,
            PAIR_MASKS_WITH_JACK,
            order,
            np.empty(n_t),
            np.zeros(n_t, dtype=np.int64),
            1,
        )
        out.append((hands[variant, t, order].tolist(), hands[variant, t, np.argsort(chips[t])].tolist()))
        played[t] = chips[t]
    return out


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("muscle", [False, True], ids=["no-card", "muscle"])
def test_bayes_playout_predicts_the_games_chips_from_the_use_round(players: int, muscle: bool) -> None:
    """The estimate plays the rounds after the use round as the game does: given the real team
    and board, the play-out from the flop's public posteriors (updated with its own chips after
    every round, as the game's are; with the Muscle, the holder's chips read as claims of the
    raised hand and every other hand counted as the floor of its ranking against the holder)
    orders the hands as the game does in every round from the flop to the river, up to true
    ties (equal hands with equal claims and beliefs, which the game orders at random). (Before,
    with the flop's posteriors kept for the turn and river and no Muscle floor in the claims,
    it did not.)"""
    rng = np.random.default_rng(100 + players)
    for _ in range(20):
        deck = rng.permutation(52).astype(np.int64)
        pockets = np.zeros((players, MAX_POCKET), dtype=np.int64)
        board = np.zeros(5, dtype=np.int64)
        chips = np.zeros((4, players), dtype=np.int64)
        none = np.zeros((1, players + 1), dtype=np.int64)
        flags = play_heist(
            deck,
            int(rng.integers(1 << 30)),
            0,
            10 if muscle else 0,
            players,
            BAYES,
            1,
            1,
            True,
            chip_likelihood(players, players),
            pockets,
            board,
            chips,
            np.zeros(players, dtype=np.int64),
            PAIRS_WITH_JACK.copy(),
            PAIR_MASKS_WITH_JACK.copy(),
            ALWAYS,
            True,
            none,
            none,
            np.zeros(players + 1, dtype=np.int64),
            np.full((players, MAX_POCKET), -1, dtype=np.int64),
            np.zeros((4, players, 4)),
            np.zeros(players + 1, dtype=np.int64),
        )
        user = int(flags[3]) if muscle else -1
        assert (user >= 0) == muscle
        for played, game in _playout_chips(players, pockets, board, chips, user):
            assert played == game, (players, muscle)
