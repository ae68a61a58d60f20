"""Validated configuration of one Cash'n Guns table."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from cardsim.errors import UserError
from cardsim.sims.cashnguns.rules import DEFAULT_SHAME_DOLLARS, MAX_PLAYERS, MIN_PLAYERS
from cardsim.sims.cashnguns.strategies import Strategy, parse_strategy


@dataclass(frozen=True)
class CashNGunsConfig:
    """One table: player count, the strategy of each player slot, and the shame value.

    Attributes:
        players: 4 to 6 (seed: "Người chơi: 4 - 6").
        strategies: strategy specs (``name`` or ``name:key=value,...``, see
            :func:`strategies.parse_strategy`) or strategies written in Python
            (``FILE.py:NAME``, see :mod:`strategy`), in one of three forms: one spec (every
            player uses it), two specs (slot 0, the focal player, uses the first; all others
            the second), or one spec per player slot.
        shame_value: dollars each shame marker adds to the final score. The seed says a marker
            is "worth $5,000"; the published rules make it a penalty, so the default is
            -5,000 (recorded in ``seeds/cash_n_guns.md``).
        files: the SHA-256 of each Python file among the specs, set when the config is made
            (a run's stored games are reused only while its files are unchanged).
    """

    players: int = 5
    strategies: tuple[str, ...] = ("calculator", "stubborn")
    shame_value: int = DEFAULT_SHAME_DOLLARS
    files: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise UserError(f"cashnguns: players must be an integer, got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise UserError(f"cashnguns: players must be {MIN_PLAYERS}-{MAX_PLAYERS} (seed rules), got {self.players}")
        if isinstance(self.strategies, str) or not isinstance(self.strategies, tuple):
            raise UserError("cashnguns: strategies must be a tuple of strategy specs")
        if len(self.strategies) not in (1, 2, self.players):
            raise UserError(
                f"cashnguns: give 1 strategy (all players), 2 (focal, others) or {self.players} "
                f"(one per player), got {len(self.strategies)}"
            )
        if isinstance(self.shame_value, bool) or not isinstance(self.shame_value, int):
            raise UserError(f"cashnguns: shame_value must be whole dollars, got {self.shame_value!r}")
        for spec in self.strategies:  # validates every spec
            if not is_file_spec(spec):
                parse_strategy(spec)
        object.__setattr__(
            self, "files", tuple(file_digest(spec) for spec in dict.fromkeys(self.strategies) if is_file_spec(spec))
        )

    def python_slots(self) -> tuple[int, ...]:
        """The player slots played by a strategy written in Python."""
        return tuple(slot for slot, spec in enumerate(self.slot_specs()) if is_file_spec(spec))

    def slot_strategies(self) -> tuple[Strategy, ...]:
        """The strategy of each player slot (slot 0 is the focal player); every slot built in."""
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


def is_file_spec(spec: str) -> bool:
    """Whether ``spec`` names a strategy written in Python (``FILE.py:NAME``)."""
    path, colon, name = spec.rpartition(":")
    return bool(colon) and path.endswith(".py") and name.isidentifier()


def file_digest(spec: str) -> str:
    """SHA-256 of the Python file of ``FILE.py:NAME`` with the name (a missing file is a
    :class:`UserError` naming the spec), so a run's identity changes with the file."""
    path = spec.rpartition(":")[0]
    try:
        with open(path, "rb") as handle:
            content = handle.read()
    except OSError as exc:
        raise UserError(f"strategy {spec}: cannot read {path} ({exc.strerror or exc})") from None
    return f"{spec.rpartition(':')[2]}:{hashlib.sha256(content).hexdigest()[:16]}"
