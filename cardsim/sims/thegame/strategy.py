"""Write your own strategy for The Game: the view a seat sees, its decisions, and the engine.

The Game is cooperative, so every seat plays the same strategy object (rules digest:
``seeds/the_game.md``; source ``../shared/seeds/001_60c4279a89d01a35.txt``). A strategy is a
class (or an object) with the method ``play`` and, optionally, the two kinds of talk the rules
allow (LÀM VIỆC NHÓM LÀ CHÌA KHÓA, XÁC ĐỊNH NGƯỜI ĐI TRƯỚC): ``signal`` and ``opening``. A
strategy without them never talks: seat 0 starts and no pile is ever announced.

Decisions (each receives the seat's :class:`View` and the tuple of legal choices, and returns
one of them):

* ``play(view, legal)``: the next card of the turn, as ``(card, pile)`` (piles 0 and 1 go up
  from 1, piles 2 and 3 go down from 100; a backwards trick is an ordinary choice), or ``None``
  to end the turn. ``None`` is legal (and listed first) once the minimum is played
  (``view.to_play == 0``); a play is legal when the pile takes the card and the rest of the
  minimum can still be played afterwards in some order, so a turn never gets stuck halfway.
  When nothing is left to choose (the minimum is met and no card fits, or the hand is empty)
  the turn ends without asking.
* ``signal(view, legal)``: asked of every other seat holding cards at the start of each turn:
  the piles it says "I have something good for pile N" about, a sorted tuple of pile numbers
  (``()`` says nothing; all 16 subsets are legal). The player to move sees them in
  ``view.signals``. No numbers may be named, so this is all the talk there is during a turn.
* ``opening(view, legal)``: asked of every seat once, before the first turn: how good its start
  is, an integer 0 (excellent) to 1000 (hopeless). The lowest starts; ties go to the lower seat.

The :class:`View` holds only what the seat may know: its own hand, the pile tops, every card
played (public: all saw it go down), the sizes of the other hands and of the draw pile, the talk,
and the rule knobs. It never holds a hidden card. Example
(``examples/strategies/thegame_closest.py``: each card to the pile it fits most closely)::

    def gap(card, pile, top):
        # how far the card moves the pile; a backwards trick is -10 (it moves the pile back)
        return card - top if pile < 2 else top - card


    class Closest:
        def play(self, view, legal):
            if view.to_play == 0:
                return None  # the minimum is played: end the turn
            asked = {pile for piles in view.signals for pile in piles}
            return min(legal, key=lambda o: gap(*o, view.piles[o[1]]) + 3 * (o[1] in asked))

        def signal(self, view, legal):
            close = (-10, 1, 2)  # a trick, or one or two steps away
            return tuple(p for p in range(4)
                         if any(gap(c, p, view.piles[p]) in close for c in view.hand))

Run it: ``cardsim thegame evaluate --strategy examples/strategies/thegame_closest.py:Closest``.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardsim.sims.core.user_strategy import DEFAULT_TIME_LIMIT, DecisionClock, check_methods, decide, fresh_copy
from cardsim.sims.thegame.config import TheGameConfig
from cardsim.sims.thegame.rules import DECK_SIZE, HIGHEST_CARD, LOWEST_CARD, N_PILES
from cardsim.sims.thegame.state import (
    LOG_TURN_END,
    N_PARAMS,
    N_STATS,
    S_CARDS_LEFT,
    S_DRAW_LEFT,
    S_EXTRA_PLAYS,
    S_FIRST_PLAYER,
    S_IN_HANDS,
    S_TRICKS,
    S_TURNS,
    new_table,
    new_work,
    refill,
    setup_game,
)
from cardsim.sims.thegame.turn_search import completable_plays, play_and_list

#: The decisions a strategy may define; only ``play`` is required.
DECISIONS: tuple[str, ...] = ("play", "signal", "opening")
REQUIRED_DECISIONS: tuple[str, ...] = ("play",)
#: Legal choices of ``signal``: every subset of the four piles, as sorted tuples.
SIGNAL_CHOICES: tuple[tuple[int, ...], ...] = tuple(
    combo for size in range(N_PILES + 1) for combo in itertools.combinations(range(N_PILES), size)
)
#: Legal choices of ``opening``: 0 (excellent start) to 1000 (hopeless).
OPENING_CHOICES: tuple[int, ...] = tuple(range(1001))
END_TURN = None
# Every (card, pile) choice, built once: completable_plays writes card * 4 + pile.
_CHOICE: tuple[tuple[int, int], ...] = tuple((code >> 2, code & 3) for code in range(4 * 128))


@dataclass(frozen=True, slots=True)
class View:
    """What seat ``seat`` knows when it decides.

    Attributes:
        seat: the seat deciding; ``mover``: the seat whose turn it is (-1 before the first).
        players: seats at the table (1-5).
        turn: the turn being played, from 1 (0 during the opening talk).
        hand: the seat's own cards, in the order it holds them.
        piles: the four pile tops (0 and 1 ascend from 1, 2 and 3 descend from 100).
        played: every card on the piles as ``(seat, card, pile)``, in the order played.
        hand_counts: cards in each seat's hand.
        draw_left: cards in the draw pile.
        to_play: cards this turn must still play before it may end (0: the minimum is met).
        played_this_turn: cards the mover has played this turn.
        signals: per seat, the piles it announced at the start of this turn (see ``signal``).
        min_cards, hand_size, backwards_trick: the rules in force (2, 8/7/6 by players, True).
    """

    seat: int
    mover: int
    players: int
    turn: int
    hand: tuple[int, ...]
    piles: tuple[int, int, int, int]
    played: tuple[tuple[int, int, int], ...]
    hand_counts: tuple[int, ...]
    draw_left: int
    to_play: int
    played_this_turn: int
    signals: tuple[tuple[int, ...], ...]
    min_cards: int
    hand_size: int
    backwards_trick: bool

    @property
    def unplayed(self) -> frozenset[int]:
        """Cards not yet on a pile (in some hand or the draw pile): public, since played cards
        are."""
        down = {card for _, card, _ in self.played}
        return frozenset(c for c in range(LOWEST_CARD, HIGHEST_CARD + 1) if c not in down)


_SCRATCH = threading.local()


def _scratch() -> tuple[np.ndarray, ...]:
    """Work arrays of the compiled turn search, shared by every table of one thread (each
    thread its own: a table in another thread must not write into them between a search and
    the reading of its result)."""
    arrays: tuple[np.ndarray, ...] | None = getattr(_SCRATCH, "arrays", None)
    if arrays is None:
        W, F, C = new_work()
        arrays = _SCRATCH.arrays = (W, F, C, np.zeros(N_PARAMS), np.zeros(64, np.int64))
    return arrays


class Table:
    """One game of The Game played one decision at a time (the Python engine; also the state
    of the PettingZoo environment). The rules are the compiled ones of the batch kernel: the
    same deal for the same ``deal_seed`` (:func:`~cardsim.sims.thegame.state.setup_game`),
    the same plays and refills, and a turn may only start when its minimum can be played in
    some order (:func:`~cardsim.sims.thegame.turn_search.completable_plays`)."""

    def __init__(
        self,
        deal_seed: int,
        players: int,
        hand_size: int | None = None,
        min_cards: int = 2,
        backwards_trick: bool = True,
    ) -> None:
        config = TheGameConfig(
            players=players, min_cards=min_cards, hand_size=hand_size, backwards_trick=backwards_trick
        )
        self.players = players
        self.hand_size = config.effective_hand_size
        self.min_cards = min_cards
        self.trick_ok = backwards_trick
        self.deck, self.hands, self.counts, self.piles, self.below, rng = new_table()
        self.draw_pos = int(
            setup_game(
                int(deal_seed), players, self.hand_size, self.deck, self.hands, self.counts, self.piles, self.below, rng
            )
        )
        self.played: tuple[tuple[int, int, int], ...] = ()
        self.log: list[tuple[int, int, int]] = []  # as the kernel logs: (seat, 0, -1) ends a turn
        self.signals: tuple[tuple[int, ...], ...] = ((),) * players
        self.mover = -1
        self.first = 0
        self.turn = 0
        self.turns = 0
        self.tricks = 0
        self.extra = 0
        self.required = 0
        self.played_this_turn = 0
        self.over = False
        self.legal: tuple[Any, ...] = ()

    # -- reading -------------------------------------------------------------------------
    @property
    def draw_left(self) -> int:
        return DECK_SIZE - self.draw_pos

    def hand(self, seat: int) -> tuple[int, ...]:
        return tuple(self.hands[seat, : self.counts[seat]].tolist())

    def view(self, seat: int) -> View:
        """The public view of ``seat`` now (its own hand, nothing hidden)."""
        mover_turn = seat == self.mover
        return View(
            seat,
            self.mover,
            self.players,
            self.turn,
            self.hand(seat),
            tuple(self.piles.tolist()),
            self.played,
            tuple(self.counts[: self.players].tolist()),
            self.draw_left,
            max(self.required - self.played_this_turn, 0) if mover_turn else 0,
            self.played_this_turn,
            self.signals,
            self.min_cards,
            self.hand_size,
            self.trick_ok,
        )

    def cards_left(self) -> int:
        return int(self.counts[: self.players].sum()) + self.draw_left

    def stats_row(self) -> np.ndarray:
        """The episode statistics of the batch kernel's rows (``state.S_*`` columns)."""
        row = np.zeros(N_STATS, np.int16)
        in_hands = int(self.counts[: self.players].sum())
        row[S_CARDS_LEFT] = in_hands + self.draw_left
        row[S_IN_HANDS] = in_hands
        row[S_DRAW_LEFT] = self.draw_left
        row[S_TURNS] = self.turns
        row[S_FIRST_PLAYER] = self.first
        row[S_EXTRA_PLAYS] = self.extra
        row[S_TRICKS] = self.tricks
        return row

    # -- moving --------------------------------------------------------------------------
    def _plays(self, to_play: int) -> tuple[tuple[int, int], ...]:
        W, F, C, params, out = _scratch()
        seat = self.mover
        n = completable_plays(
            self.hands[seat],
            int(self.counts[seat]),
            self.piles,
            self.below,
            to_play,
            self.trick_ok,
            params,
            W,
            F,
            C,
            out,
        )
        return tuple(map(_CHOICE.__getitem__, out[:n].tolist()))

    def start(self, first: int) -> None:
        """Begin the game with ``first`` to move."""
        self.first = first
        self._begin_turn(first)

    def _begin_turn(self, seat: int) -> None:
        for _ in range(self.players):
            if self.counts[seat] > 0:
                break
            seat = (seat + 1) % self.players
        else:
            self.mover, self.over, self.legal = -1, True, ()  # every card is down: won
            return
        self.mover = seat
        self.turn = self.turns + 1
        self.required = self.min_cards if self.draw_pos < DECK_SIZE else 1
        self.played_this_turn = 0
        self.signals = ((),) * self.players
        self.legal = self._plays(self.required)
        if not self.legal:
            self.over = True  # the player to move cannot play the minimum: the game ends

    def play(self, choice: tuple[int, int] | None) -> bool:
        """Apply the mover's legal ``choice``; returns whether the turn ended."""
        seat = self.mover
        if choice is not END_TURN:
            card, pile = choice
            top = self.piles[pile]
            if (pile < 2 and card < top) or (pile >= 2 and card > top):
                self.tricks += 1
            self.played += ((seat, card, pile),)
            self.log.append((seat, card, pile))
            self.played_this_turn += 1
            to_play = self.required - self.played_this_turn
            W, F, C, params, out = _scratch()
            n = play_and_list(
                self.hands,
                self.counts,
                seat,
                card,
                pile,
                self.piles,
                self.below,
                max(to_play, 0),
                self.trick_ok,
                params,
                W,
                F,
                C,
                out,
            )
            if n:
                self.legal = tuple(map(_CHOICE.__getitem__, out[:n].tolist()))
                if to_play <= 0:
                    self.legal = (END_TURN, *self.legal)
                return False
        self.extra += self.played_this_turn - self.required
        self.turns += 1
        self.log.append((seat, 0, LOG_TURN_END))
        self.draw_pos = int(refill(self.hands, self.counts, seat, self.hand_size, self.deck, self.draw_pos))
        self._begin_turn((seat + 1) % self.players)
        return True


def _talks(strategy: Any, name: str) -> bool:
    return callable(getattr(strategy, name, None))


def play_table(
    strategy: Any,
    spec: str,
    deal_seed: int,
    players: int,
    *,
    hand_size: int | None = None,
    min_cards: int = 2,
    backwards_trick: bool = True,
    time_limit: float = DEFAULT_TIME_LIMIT,
    clock: DecisionClock | None = None,
) -> Table:
    """One game with every seat played by ``strategy`` (every decision checked by
    :func:`~cardsim.sims.core.user_strategy.decide`); returns the finished table (its
    ``stats_row()`` and ``log``). A failing decision raises a ``StrategyError``. ``clock``: the
    entered decision clock of a batch of games (one is started for this game otherwise)."""
    if clock is None:
        with DecisionClock() as clock:
            return play_table(
                strategy,
                spec,
                deal_seed,
                players,
                hand_size=hand_size,
                min_cards=min_cards,
                backwards_trick=backwards_trick,
                time_limit=time_limit,
                clock=clock,
            )
    table = Table(deal_seed, players, hand_size, min_cards, backwards_trick)
    first = 0
    if _talks(strategy, "opening"):
        bids = [
            decide(
                strategy,
                "opening",
                table.view(seat),
                OPENING_CHOICES,
                spec=spec,
                seat=seat,
                turn=0,
                time_limit=time_limit,
                clock=clock,
            )
            for seat in range(players)
        ]
        first = bids.index(min(bids))
    signal = _talks(strategy, "signal") and players > 1
    table.start(first)
    while not table.over:
        seat = table.mover
        if signal and table.played_this_turn == 0:
            table.signals = tuple(
                decide(
                    strategy,
                    "signal",
                    table.view(q),
                    SIGNAL_CHOICES,
                    spec=spec,
                    seat=q,
                    turn=table.turn,
                    time_limit=time_limit,
                    clock=clock,
                )
                if q != seat and table.counts[q] > 0
                else ()
                for q in range(players)
            )
        choice = decide(
            strategy,
            "play",
            table.view(seat),
            table.legal,
            spec=spec,
            seat=seat,
            turn=table.turn,
            time_limit=time_limit,
            clock=clock,
        )
        table.play(choice)
    return table


def play_game(strategy: Any, spec: str, deal_seed: int, players: int, **rules: Any) -> np.ndarray:
    """:func:`play_table`'s row of episode statistics (the batch kernel's columns)."""
    return play_table(strategy, spec, deal_seed, players, **rules).stats_row()


def play_games(
    strategy: Any,
    spec: str,
    deal_seeds: np.ndarray,
    players: int,
    *,
    hand_size: int | None = None,
    min_cards: int = 2,
    backwards_trick: bool = True,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> np.ndarray:
    """One game per seed (see :func:`play_game`): an int16 array [n, N_STATS] like the batch
    kernel's :func:`~cardsim.sims.thegame.batch.play_games`."""
    check_methods(strategy, spec, REQUIRED_DECISIONS)
    out = np.zeros((len(deal_seeds), N_STATS), np.int16)
    with DecisionClock() as clock:  # one timer for the batch, not one per decision
        for g, seed in enumerate(np.asarray(deal_seeds).tolist()):
            out[g] = play_table(
                strategy,
                spec,
                seed,
                players,
                hand_size=hand_size,
                min_cards=min_cards,
                backwards_trick=backwards_trick,
                time_limit=time_limit,
                clock=clock,
            ).stats_row()
    return out


# -- evaluation: the user's strategy and a built-in on the same deals ------------------------

#: Games per chunk of an evaluation: fixed, so the deals do not depend on the worker count.
EVALUATE_CHUNK = 250
SEED_LIMIT = 2**63 - 1


def chunk_deal_seeds(seed: int, chunk: int, size: int) -> np.ndarray:
    """The deal seeds of chunk ``chunk`` of an evaluation with root ``seed``."""
    from cardsim.sims.core.seeds import chunk_generator

    return chunk_generator(seed, chunk).integers(0, SEED_LIMIT, size=size, dtype=np.int64)


def evaluate_chunk(
    spec: str,
    shown: str,
    against: str,
    players: int,
    seed: int,
    chunk: int,
    size: int,
    rules: dict[str, Any],
    time_limit: float,
) -> dict[str, Any]:
    """One chunk of an evaluation, in a worker: every deal played once by the strategy
    ``spec`` (loaded here, a fresh copy per chunk; ``shown`` is the spec as the user wrote it)
    and once by the built-in
    ``against`` (the batch kernel). Returns both row arrays, or the failure as plain data
    (``error``: the StrategyError's fields and the strategy's own traceback text), since the
    error itself need not survive pickling."""
    from cardsim.errors import UserError
    from cardsim.sims.core.user_strategy import StrategyError, load_strategy, strategy_traceback
    from cardsim.sims.thegame.batch import play_games as kernel_games
    from cardsim.sims.thegame.config import STRATEGIES
    from cardsim.sims.thegame.params import strategy_params

    deals = chunk_deal_seeds(seed, chunk, size)
    try:
        user = play_games(fresh_copy(load_strategy(spec)), shown, deals, players, time_limit=time_limit, **rules)
    except StrategyError as exc:
        return {
            "error": {
                "problem": exc.problem,
                "strategy": exc.strategy,
                "seat": exc.seat,
                "turn": exc.turn,
                "decision": exc.decision,
                "traceback": strategy_traceback(exc),
            }
        }
    except UserError as exc:
        return {"error": {"message": str(exc)}}
    config = TheGameConfig(players=players, strategy=against, **rules)
    builtin = kernel_games(
        deals,
        players,
        config.effective_hand_size,
        config.min_cards,
        config.backwards_trick,
        STRATEGIES[against][0],
        strategy_params(players, against),
    )
    return {"user": user, "builtin": builtin, "deals": deals}


def warm_up(players: int, against: str, rules: dict[str, Any]) -> None:
    """Compile (or load from numba's cache) the engine's kernels and the built-in's batch
    kernel in this process, so that workers started next load them instead of all compiling
    them at once. Plays no user code."""
    from cardsim.sims.thegame.batch import play_games as kernel_games
    from cardsim.sims.thegame.config import STRATEGIES
    from cardsim.sims.thegame.params import strategy_params

    table = Table(1, players, **rules)
    table.start(0)
    if table.legal:
        table.play(table.legal[-1])
    config = TheGameConfig(players=players, strategy=against, **rules)
    kernel_games(
        np.ones(1, np.int64),
        players,
        config.effective_hand_size,
        config.min_cards,
        config.backwards_trick,
        STRATEGIES[against][0],
        strategy_params(players, against),
    )


def evaluate_games(
    spec: str,
    shown: str,
    against: str,
    players: int,
    n: int,
    seed: int,
    jobs: int,
    rules: dict[str, Any],
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> dict[str, np.ndarray]:
    """``n`` deals, in chunks of :data:`EVALUATE_CHUNK` run by ``jobs`` joblib workers or the
    current dask cluster (:mod:`cardsim.sims.core.parallel`; each
    loads the strategy from ``spec``), played by the strategy and by the built-in: the rows of
    both (the batch kernel's columns) and the deal seeds, in chunk order, so the numbers are the
    same whatever ``jobs``. The first failing decision is raised as a ``StrategyError`` (its
    ``traceback_text`` holds the strategy's traceback)."""
    from cardsim.errors import UserError
    from cardsim.sims.core.user_strategy import StrategyError, run_chunks

    sizes = [min(EVALUATE_CHUNK, n - start) for start in range(0, n, EVALUATE_CHUNK)]
    warm_up(players, against, rules)
    work = [(spec, shown, against, players, seed, chunk, size, rules, time_limit) for chunk, size in enumerate(sizes)]
    results = run_chunks(evaluate_chunk, work, jobs)
    for result in results:
        error = result.get("error")
        if error is None:
            continue
        if "message" in error:
            raise UserError(error["message"])
        raise StrategyError(
            error["problem"],
            strategy=error["strategy"],
            seat=error["seat"],
            turn=error["turn"],
            decision=error["decision"],
            traceback_text=error["traceback"],
        )
    return {name: np.concatenate([result[name] for result in results]) for name in ("user", "builtin", "deals")}
