"""Validated configuration of one The Game experiment."""

from __future__ import annotations

from dataclasses import dataclass

from cardsim.errors import UserError
from cardsim.sims.thegame.rules import MAX_HAND, MAX_PLAYERS, MIN_PLAYERS, rules_hand_size

# Strategy ladder: name -> (kernel id, one-line description). Order is the ladder order.
STRATEGIES: dict[str, tuple[int, str]] = {
    "random": (0, "uniformly random legal plays, exactly the minimum count"),
    "greedy": (1, "each card to the pile with the smallest gap, tricks first, minimum count"),
    "planner": (
        2,
        "plans the whole turn (trick set-ups included) on gaps that skip only unplayed cards, "
        "extra cards within a phase-dependent reach, keeps the near card of a 10-apart pair",
    ),
    "signals": (
        3,
        "planner plus the seed's allowed talk: 'I have something good for pile N' reservations "
        "respected unless forced, and the team picks who starts",
    ),
    "search": (
        4,
        "signals plus a lookahead: each of the 8 cheapest turns is judged with the cheapest next "
        "turn its remaining hand allows (--rollouts N: alternatives are also tried by rollouts "
        "over sampled unseen cards and replace that choice only when clearly better)",
    ),
    "omniscient": (
        5,
        "sees every hand and the draw order: plays search's game improved by exact rollouts "
        "(a deviation is kept only if it leaves fewer cards), so it never does worse than "
        "search on a deal; a bound on what hidden information costs search, not perfect play",
    ),
}
STRATEGY_NAMES: tuple[str, ...] = tuple(STRATEGIES)
MAX_ROLLOUTS = 64


@dataclass(frozen=True)
class TheGameConfig:
    """One experiment: player count, strategy and the variant knobs a difficulty tuner searches.

    Attributes:
        players: 1 to 5 (seed: "Số Người Chơi: 1 – 5").
        strategy: a name from :data:`STRATEGIES`.
        min_cards: cards a turn must play while the draw pile has cards (rules: 2).
        hand_size: cards held after refilling; None = rules default (8/7/6 by player count).
        backwards_trick: whether the exactly-10-back play is allowed (rules: yes).
        rollouts: search only: sampled determinisations per candidate turn scored by rollouts on
            top of the lookahead (0 = lookahead only; each one costs about a millisecond per
            move).
    """

    players: int = 1
    strategy: str = "planner"
    min_cards: int = 2
    hand_size: int | None = None
    backwards_trick: bool = True
    rollouts: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise UserError(f"thegame: players must be an integer, got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise UserError(f"thegame: players must be {MIN_PLAYERS}-{MAX_PLAYERS} (seed rules), got {self.players}")
        if self.strategy not in STRATEGIES:
            raise UserError(f"thegame: unknown strategy {self.strategy!r}; choose one of: {', '.join(STRATEGY_NAMES)}")
        if self.hand_size is not None and (
            isinstance(self.hand_size, bool)
            or not isinstance(self.hand_size, int)
            or not 1 <= self.hand_size <= MAX_HAND
        ):
            raise UserError(f"thegame: hand_size must be 1-{MAX_HAND} or None, got {self.hand_size!r}")
        if isinstance(self.min_cards, bool) or not isinstance(self.min_cards, int):
            raise UserError(f"thegame: min_cards must be an integer, got {self.min_cards!r}")
        if not 1 <= self.min_cards <= self.effective_hand_size:
            raise UserError(
                f"thegame: min_cards must be 1-{self.effective_hand_size} (the hand size), got {self.min_cards}"
            )
        if not isinstance(self.backwards_trick, bool):
            raise UserError(f"thegame: backwards_trick must be true or false, got {self.backwards_trick!r}")

        if (
            isinstance(self.rollouts, bool)
            or not isinstance(self.rollouts, int)
            or not (0 <= self.rollouts <= MAX_ROLLOUTS)
        ):
            raise UserError(f"thegame: rollouts must be 0-{MAX_ROLLOUTS}, got {self.rollouts!r}")
        if self.rollouts and self.strategy != "search":
            raise UserError("thegame: rollouts apply to the search strategy only")

    @property
    def effective_hand_size(self) -> int:
        """The hand size in force: the knob if set, else the rules default for the player count."""
        if self.hand_size is None:
            return int(rules_hand_size(self.players))
        return self.hand_size

    @property
    def strategy_id(self) -> int:
        """The kernel's integer id of the strategy."""
        return STRATEGIES[self.strategy][0]
