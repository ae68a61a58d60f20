"""Hand-strength helpers for player models, all batched: percentiles and equity.

Percentile (exact)
    What one player can see is the board and their own pocket. Every other player's pocket is
    then one of the ``pocket_size``-card subsets of the unseen cards. A hand's percentile counts
    those holdings whose current best hand (holding + board) is below, tied with, or above the
    player's own. Work is shared per board: all holdings of the cards not on the board are scored
    once, and each player's counts are one pass over those scores minus a correction for the
    holdings that use one of the player's own cards (found through a card -> holdings index).
    The pieces are ``@kernel`` so other kernels can use them per board::

        combos, starts, members = holding_index(52 - board_size, pocket_size)    # once
        unseen, scores = board_holding_scores(board, combos)                     # per board
        # own_positions[:n_own]: where the player's real cards sit in ``unseen``
        below, tied = count_below_tied(scores, combos, starts, members,
                                       own_positions, n_own, own_score)          # per player

Equity (exact where cheap, sampled otherwise)
    Probability of finishing with the best hand (ties shared) against ``n_opponents`` random
    holdings when the board is completed at random from the unseen cards. Exact enumeration when
    one opponent and at most ``exact_limit`` scenarios per row; otherwise Monte Carlo with the
    given Generator. The method used is part of the result.

The suitless Jack (52) may be in a player's own pocket; opponents' holdings and board completions
come from the 52 real cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.core.jit import kernel
from cardsim.sims.poker.cards import DECK_SIZE, SUITLESS_JACK, uniform_below
from cardsim.sims.poker.evaluator import hand_key, score_extended, score_hand, suit_masks_into

BOARD_SIZE = 5


@kernel
def combinations_of_positions(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n) in lexicographic order, as an (C(n, k), k) int64 array."""
    total = 1
    for i in range(k):
        total = total * (n - i) // (i + 1)
    out = np.empty((total, k), dtype=np.int64)
    current = np.arange(k)
    for row in range(total):
        out[row] = current
        position = k - 1
        while position >= 0 and current[position] == n - k + position:
            position -= 1
        if position < 0:
            break
        current[position] += 1
        for j in range(position + 1, k):
            current[j] = current[j - 1] + 1
    return out


@kernel
def _holdings_touching(combos: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """CSR lists: for each position 0..n-1, the indices of the combos that contain it."""
    counts = np.zeros(n + 1, dtype=np.int64)
    for h in range(combos.shape[0]):
        for j in range(combos.shape[1]):
            counts[combos[h, j] + 1] += 1
    starts = np.cumsum(counts)
    fill = starts[:-1].copy()
    members = np.empty(starts[-1], dtype=np.int64)
    for h in range(combos.shape[0]):
        for j in range(combos.shape[1]):
            position = combos[h, j]
            members[fill[position]] = h
            fill[position] += 1
    return starts, members


@kernel
def _unseen_cards(seen: np.ndarray) -> np.ndarray:
    """The real cards (0..51) not in ``seen``, ascending (the suitless Jack is ignored)."""
    is_seen = np.zeros(DECK_SIZE, dtype=np.bool_)
    for card in seen:
        if card < DECK_SIZE:
            is_seen[card] = True
    return np.flatnonzero(~is_seen)


@kernel
def board_holding_scores(board: np.ndarray, combos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scores of every holding (a combo of unseen-card positions) on one board.

    Returns (unseen cards ascending, score of each combo row of ``combos`` as int32). ``combos``
    comes from ``combinations_of_positions(52 - len(board), pocket_size)``.
    """
    unseen = _unseen_cards(board)
    pocket_size = combos.shape[1]
    board_key = hand_key(board)
    board_masks = np.zeros(4, dtype=np.int64)
    suit_masks_into(board, board_masks)
    holding = np.empty(pocket_size, dtype=np.int8)
    scores = np.empty(combos.shape[0], dtype=np.int32)
    for h in range(combos.shape[0]):
        for j in range(pocket_size):
            holding[j] = unseen[combos[h, j]]
        scores[h] = score_extended(board_key, board_masks, board.shape[0], holding)
    return unseen, scores


@kernel
def holding_index(n_unseen: int, pocket_size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Everything a shared-board kernel needs about the holdings of ``n_unseen`` cards.

    Returns (combos, starts, members): the holdings as position combos (see
    :func:`combinations_of_positions`) and, for each position, the indices of the holdings that
    contain it (``members[starts[p]:starts[p + 1]]``). Build once per (board size, pocket size).
    """
    combos = combinations_of_positions(n_unseen, pocket_size)
    starts, members = _holdings_touching(combos, n_unseen)
    return combos, starts, members


@kernel
def count_below_tied(
    scores: np.ndarray,
    combos: np.ndarray,
    starts: np.ndarray,
    members: np.ndarray,
    own_positions: np.ndarray,
    n_own: int,
    own_score: int | np.int32,
) -> tuple[int, int]:
    """How many holdings that avoid the player's own cards score below / equal ``own_score``.

    ``scores`` are a board's holding scores (:func:`board_holding_scores`); ``own_positions[:n_own]``
    are the positions of the player's real pocket cards among the board's unseen cards. One pass
    over all scores, then the holdings using an own card are taken back out (each once).
    """
    n_below = 0
    n_tied = 0
    for h in range(scores.shape[0]):
        n_below += scores[h] < own_score
        n_tied += scores[h] == own_score
    pocket_size = combos.shape[1]
    for a in range(n_own):
        position = own_positions[a]
        for m in range(starts[position], starts[position + 1]):
            h = members[m]
            counted_before = False
            for b in range(a):
                for j in range(pocket_size):
                    if combos[h, j] == own_positions[b]:
                        counted_before = True
            if counted_before:
                continue
            if scores[h] < own_score:
                n_below -= 1
            elif scores[h] == own_score:
                n_tied -= 1
    return n_below, n_tied


@kernel
def _percentile_kernel(
    boards: np.ndarray,
    pockets: np.ndarray,
    combos: np.ndarray,
    starts: np.ndarray,
    members: np.ndarray,
    below: np.ndarray,
    tied: np.ndarray,
    total: np.ndarray,
) -> None:
    """Exact below/tied/total counts for every (board, player); see the module docstring."""
    n_players = pockets.shape[1]
    pocket_size = pockets.shape[2]
    n_unseen = DECK_SIZE - boards.shape[1]
    hand = np.empty(pocket_size + boards.shape[1], dtype=np.int8)
    position_of = np.full(DECK_SIZE, -1, dtype=np.int64)
    own_positions = np.empty(pocket_size, dtype=np.int64)
    for row in range(boards.shape[0]):
        board = boards[row]
        unseen, scores = board_holding_scores(board, combos)
        for i in range(unseen.shape[0]):
            position_of[unseen[i]] = i
        hand[pocket_size:] = board
        for p in range(n_players):
            n_own = 0
            for j in range(pocket_size):
                card = pockets[row, p, j]
                hand[j] = card
                if card < DECK_SIZE:
                    own_positions[n_own] = position_of[card]
                    n_own += 1
            n_below, n_tied = count_below_tied(scores, combos, starts, members, own_positions, n_own, score_hand(hand))
            available = n_unseen - n_own
            count = 1
            for i in range(pocket_size):
                count = count * (available - i) // (i + 1)
            below[row, p] = n_below
            tied[row, p] = n_tied
            total[row, p] = count


@dataclass(frozen=True)
class Percentiles:
    """Exact counts of opponent holdings below / tied with the player's hand, per (board, player).

    ``percentile = (below + tied / 2) / total`` (a hand tied with everyone is at 0.5).
    """

    below: np.ndarray
    tied: np.ndarray
    total: np.ndarray

    @property
    def above(self) -> np.ndarray:
        """Holdings that beat the player's hand."""
        return self.total - self.below - self.tied

    @property
    def percentile(self) -> np.ndarray:
        """Share of holdings beaten, counting ties as half (float64)."""
        return (self.below + 0.5 * self.tied) / self.total


def _check_board_and_pockets(boards: np.ndarray, pockets: np.ndarray) -> None:
    """Shared validation: codes in range, no card twice in a row, a full five-card hand."""
    if boards.shape[0] != pockets.shape[0]:
        raise UserError("boards and pockets need the same number of rows")
    cards = np.concatenate([boards, pockets.reshape(pockets.shape[0], -1)], axis=1)
    if cards.size and (cards.min() < 0 or cards.max() > SUITLESS_JACK):
        raise UserError("card codes must be 0..52 (52 is the suitless Jack)")
    ordered = np.sort(cards, axis=1)
    if (ordered[:, 1:] == ordered[:, :-1]).any():
        raise UserError("a card appears twice on one board (board plus all pockets)")
    if boards.shape[1] > BOARD_SIZE:
        raise UserError(f"a board has at most {BOARD_SIZE} cards, got {boards.shape[1]}")


def hand_percentiles(boards: np.ndarray, pockets: np.ndarray) -> Percentiles:
    """Exact percentile of each player's current hand on each board.

    Args:
        boards: (N, b) board cards, b = 3..5 (b + pocket size must reach five cards).
        pockets: (N, P, s) pocket cards of P players per board, s = 2 or 3 (Security Cameras).
            Holdings are s-card subsets of the cards unseen by that player.

    Returns:
        :class:`Percentiles` with (N, P) int64 arrays.
    """
    boards = np.atleast_2d(np.asarray(boards, dtype=np.int8))
    pockets = np.asarray(pockets, dtype=np.int8)
    if pockets.ndim == 2:
        pockets = pockets[:, None, :]
    if pockets.ndim != 3:
        raise UserError("pockets must have shape (boards, players, pocket cards)")
    _check_board_and_pockets(boards, pockets)
    pocket_size = pockets.shape[2]
    if not 5 <= boards.shape[1] + pocket_size <= 8:
        raise UserError("board plus pocket must make 5 to 8 cards")
    if (boards == SUITLESS_JACK).any():
        raise UserError("the suitless Jack cannot be on the board")
    combos, starts, members = holding_index(DECK_SIZE - boards.shape[1], pocket_size)
    shape = pockets.shape[:2]
    below = np.empty(shape, dtype=np.int64)
    tied = np.empty(shape, dtype=np.int64)
    total = np.empty(shape, dtype=np.int64)
    _percentile_kernel(boards, pockets, combos, starts, members, below, tied, total)
    return Percentiles(below=below, tied=tied, total=total)


# --- equity ----------------------------------------------------------------------------------


@kernel
def _showdown_share(hero: int | np.int32, opponents: np.ndarray, n_opponents: int) -> tuple[int, int, float]:
    """(won outright, tied for best, share of the pot) of the hero against opponent scores."""
    best_other = -1
    n_best = 0
    for i in range(n_opponents):
        if opponents[i] > best_other:
            best_other = opponents[i]
            n_best = 1
        elif opponents[i] == best_other:
            n_best += 1
    if hero > best_other:
        return 1, 0, 1.0
    if hero == best_other:
        return 0, 1, 1.0 / (n_best + 1)
    return 0, 0, 0.0


@kernel
def _exact_heads_up(
    pockets: np.ndarray,
    boards: np.ndarray,
    wins: np.ndarray,
    ties: np.ndarray,
    shares: np.ndarray,
    scenarios: np.ndarray,
) -> None:
    """Enumerate every board completion and every opponent holding (one opponent).

    Per completion the full board's key and suit masks are built once and each opponent holding
    only adds its own cards (:func:`score_extended`).
    """
    pocket_size = pockets.shape[1]
    n_known = boards.shape[1]
    n_missing = BOARD_SIZE - n_known
    full_board = np.empty(BOARD_SIZE, dtype=np.int8)
    seen = np.empty(pocket_size + n_known, dtype=np.int8)
    board_masks = np.zeros(4, dtype=np.int64)
    holding = np.empty(pocket_size, dtype=np.int8)
    for row in range(pockets.shape[0]):
        seen[:pocket_size] = pockets[row]
        seen[pocket_size:] = boards[row]
        unseen = _unseen_cards(seen)
        n_unseen = unseen.shape[0]
        full_board[:n_known] = boards[row]
        completions = combinations_of_positions(n_unseen, n_missing)
        rest_combos = combinations_of_positions(n_unseen - n_missing, pocket_size)
        rest = np.empty(n_unseen - n_missing, dtype=np.int8)
        taken = np.zeros(n_unseen, dtype=np.bool_)
        won = tied = 0
        for c in range(completions.shape[0]):
            taken[:] = False
            for j in range(n_missing):
                full_board[n_known + j] = unseen[completions[c, j]]
                taken[completions[c, j]] = True
            filled = 0
            for i in range(n_unseen):
                if not taken[i]:
                    rest[filled] = unseen[i]
                    filled += 1
            board_key = hand_key(full_board)
            suit_masks_into(full_board, board_masks)
            hero = score_extended(board_key, board_masks, BOARD_SIZE, pockets[row])
            for h in range(rest_combos.shape[0]):
                for j in range(pocket_size):
                    holding[j] = rest[rest_combos[h, j]]
                other = score_extended(board_key, board_masks, BOARD_SIZE, holding)
                if hero > other:
                    won += 1
                elif hero == other:
                    tied += 1
        wins[row] = won
        ties[row] = tied
        shares[row] = won + 0.5 * tied
        scenarios[row] = completions.shape[0] * rest_combos.shape[0]


@kernel
def _sampled(
    pockets: np.ndarray,
    boards: np.ndarray,
    n_opponents: int,
    n_samples: int,
    rng,
    wins: np.ndarray,
    ties: np.ndarray,
    shares: np.ndarray,
    scenarios: np.ndarray,
) -> None:
    """Monte Carlo: per sample, a partial shuffle of the unseen cards deals the rest."""
    pocket_size = pockets.shape[1]
    n_known = boards.shape[1]
    n_missing = BOARD_SIZE - n_known
    n_draw = n_missing + n_opponents * pocket_size
    hand = np.empty(pocket_size + BOARD_SIZE, dtype=np.int8)
    seen = np.empty(pocket_size + n_known, dtype=np.int8)
    opponent_scores = np.empty(n_opponents, dtype=np.int32)
    for row in range(pockets.shape[0]):
        seen[:pocket_size] = pockets[row]
        seen[pocket_size:] = boards[row]
        deck = _unseen_cards(seen)
        n_deck = deck.shape[0]
        hand[pocket_size : pocket_size + n_known] = boards[row]
        won = tied = 0
        share = 0.0
        for _ in range(n_samples):
            for i in range(n_draw):
                j = i + uniform_below(rng, n_deck - i)
                deck[i], deck[j] = deck[j], deck[i]
            for j in range(n_missing):
                hand[pocket_size + n_known + j] = deck[j]
            hand[:pocket_size] = pockets[row]
            hero = score_hand(hand)
            for o in range(n_opponents):
                for j in range(pocket_size):
                    hand[j] = deck[n_missing + o * pocket_size + j]
                opponent_scores[o] = score_hand(hand)
            w, t, s = _showdown_share(hero, opponent_scores, n_opponents)
            won += w
            tied += t
            share += s
        wins[row] = won
        ties[row] = tied
        shares[row] = share
        scenarios[row] = n_samples


@dataclass(frozen=True)
class Equity:
    """Equity of each row's pocket: counts over ``n`` scenarios and the method that made them.

    ``wins``: scenarios won outright; ``ties``: scenarios tied for the best hand; ``equity``:
    average pot share (a tie among k players gives 1/k). ``method`` is ``"exact"`` (every
    scenario enumerated, ``n`` = their number) or ``"sampled"`` (``n`` Monte Carlo deals).
    """

    wins: np.ndarray
    ties: np.ndarray
    equity: np.ndarray
    n: np.ndarray
    method: str

    @property
    def win_rate(self) -> np.ndarray:
        """Share of scenarios won outright."""
        return self.wins / self.n


def equity_scenarios(n_unseen: int, n_missing: int, pocket_size: int) -> int:
    """Number of (board completion, opponent holding) scenarios for one opponent."""
    return comb(n_unseen, n_missing) * comb(n_unseen - n_missing, pocket_size)


def equity(
    pockets: np.ndarray,
    boards: np.ndarray | None = None,
    *,
    n_opponents: int = 1,
    rng: np.random.Generator | None = None,
    n_samples: int = 10_000,
    exact_limit: int = 50_000,
) -> Equity:
    """Equity of each pocket against random opponent holdings and random remaining board cards.

    Args:
        pockets: (N, s) pocket cards, s = 2 or 3; the suitless Jack (52) is allowed.
        boards: (N, b) known board cards, b = 0..5 (None: pre-flop).
        n_opponents: opponents, each with an s-card holding from the unseen cards.
        rng: Generator for sampling (required unless the exact method is chosen).
        n_samples: Monte Carlo deals per row when sampling.
        exact_limit: enumerate exactly when one opponent and at most this many scenarios per row.
    """
    pockets = np.atleast_2d(np.asarray(pockets, dtype=np.int8))
    boards = (
        np.zeros((pockets.shape[0], 0), dtype=np.int8)
        if boards is None
        else np.atleast_2d(np.asarray(boards, dtype=np.int8)).reshape(pockets.shape[0], -1)
    )
    _check_board_and_pockets(boards, pockets[:, None, :])
    pocket_size = pockets.shape[1]
    if pocket_size not in (2, 3):
        raise UserError(f"a pocket has 2 or 3 cards, got {pocket_size}")
    if (boards == SUITLESS_JACK).any():
        raise UserError("the suitless Jack cannot be on the board")
    n_missing = BOARD_SIZE - boards.shape[1]
    n_unseen = DECK_SIZE - boards.shape[1] - pocket_size
    if n_opponents < 1 or n_missing + n_opponents * pocket_size > n_unseen:
        raise UserError(f"cannot deal {n_opponents} opponent(s) from the unseen cards")
    n_rows = pockets.shape[0]
    wins = np.zeros(n_rows, dtype=np.int64)
    ties = np.zeros(n_rows, dtype=np.int64)
    shares = np.zeros(n_rows, dtype=np.float64)
    scenarios = np.zeros(n_rows, dtype=np.int64)
    # A suitless Jack in the pocket leaves one more real card unseen, so exact counts can differ
    # by row; the limit uses the larger count.
    jack_extra = int((pockets == SUITLESS_JACK).any())
    exact = n_opponents == 1 and equity_scenarios(n_unseen + jack_extra, n_missing, pocket_size) <= exact_limit
    if exact:
        _exact_heads_up(pockets, boards, wins, ties, shares, scenarios)
        method = "exact"
    else:
        if rng is None:
            raise UserError("sampled equity needs a random Generator (rng=...)")
        if n_samples < 1:
            raise UserError(f"n_samples must be >= 1, got {n_samples}")
        _sampled(pockets, boards, n_opponents, n_samples, rng, wins, ties, shares, scenarios)
        method = "sampled"
    return Equity(wins=wins, ties=ties, equity=shares / scenarios, n=scenarios, method=method)
