"""Validated configuration of one Cash'n Guns table."""

from __future__ import annotations

from dataclasses import dataclass

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS, MAX_PLAYERS, MIN_PLAYERS
from cardsim.sims.cashnguns.strategies import Strategy, parse_strategy


@dataclass(frozen=True)
class CashNGunsConfig:
    """One table: player count, the strategy of each player slot, and the shame value.

    Attributes:
        players: 4 to 6 (seed: "Người chơi: 4 - 6").
        strategies: strategy specs (``name`` or ``name:key=value,...``, see
            :func:`strategies.parse_strategy`) in one of three forms: one spec (every player
            uses it), two specs (slot 0, the focal player, uses the first; all others the
            second), or one spec per player slot.
        shame_value: dollars each shame marker adds to the final score. The seed says a marker
            is "worth $5,000"; the published rules make it a penalty, so the default is
            -5,000 (recorded in ``seeds/cash_n_guns.md``).
    """

    players: int = 5
    strategies: tuple[str, ...] = ("calculator", "stubborn")
    shame_value: int = DEFAULT_SHAME_DOLLARS

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise UserError(f"cashnguns: players must be an integer, got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise UserError(
                f"cashnguns: players must be {MIN_PLAYERS}-{MAX_PLAYERS} (seed rules), got {self.players}"
            )
        if isinstance(self.strategies, str) or not isinstance(self.strategies, tuple):
            raise UserError("cashnguns: strategies must be a tuple of strategy specs")
        if len(self.strategies) not in (1, 2, self.players):
            raise UserError(
                f"cashnguns: give 1 strategy (all players), 2 (focal, others) or {self.players} "
                f"(one per player), got {len(self.strategies)}"
            )
        if isinstance(self.shame_value, bool) or not isinstance(self.shame_value, int):
            raise UserError(f"cashnguns: shame_value must be whole dollars, got {self.shame_value!r}")
        self.slot_strategies()  # validates every spec

    def slot_strategies(self) -> tuple[Strategy, ...]:
        """The strategy of each player slot (slot 0 is the focal player)."""
        specs = self.slot_specs()
        return tuple(parse_strategy(spec) for spec in specs)

    def slot_specs(self) -> tuple[str, ...]:
        """The strategy spec of each player slot, expanded from the 1-, 2- or n-spec form."""
        if len(self.strategies) == self.players:
            return self.strategies
        if len(self.strategies) == 1:
            return self.strategies * self.players
        focal, others = self.strategies
        return (focal,) + (others,) * (self.players - 1)
