"""The Gang's run configuration: a frozen, self-validating dataclass of plain JSON values."""

from __future__ import annotations

from dataclasses import dataclass

from cardsim.errors import UserError
from cardsim.sims.gang.cards import SPECIALISTS, challenge_mask
from cardsim.sims.gang.models import MODEL_IDS

UNITS = ("heist", "game")
MODES = ("basic", "advanced", "professional", "master")
DECK_ORDERS = ("shuffled", "numbered")
SPECIALIST_ROUNDS = {"flop": 1, "river": 3}
BOOST_TARGETS = ("top", "bottom")
SPECIALIST_USES = ("helpful", "always")
JACK_READINGS = ("stay", "discard")
MIN_PLAYERS, MAX_PLAYERS = 3, 6
MAX_LEVELS = 1000


@dataclass(frozen=True)
class GangConfig:
    """What to simulate.

    Attributes:
        players: 3 to 6 (the chips go up to 6 stars; seed 000, "CHUẨN BỊ TRÒ CHƠI").
        model: player model, a name of :data:`~cardsim.sims.gang.models.PLAYER_MODELS`.
        levels: strength bands per chip a claim can express (models percentile, history, bayes).
        unit: "heist" (one row per heist) or "game" (one row per game of heists).
        mode: basic, advanced, professional or master (games only; heists are always basic plus
            the cards listed here).
        deck_order: order of the challenge and specialist piles in a game: "shuffled" (default)
            or "numbered" 1..10 as the rulebook asks for a first game.
        challenges: heist unit and basic games: challenge cards active on every heist;
            professional games: the permanent challenge (empty = drawn at random per game).
        specialist: heist unit only: the specialist card active on every heist ("" = none).
        specialist_round: when the group plays a specialist usable "at any time": "river" (the
            start of round 4, default) or "flop" (the start of round 2); the Informant is
            played in that round's chip dance, once the claims are on the table.
        boost: who gets Hacker and Jack: the latest "top" chip holder (default: a stronger top
            hand separates the team) or the latest "bottom" (1-star) holder.
        specialist_use: group-decided specialists (seed 000: "decide who among you ...") are
            used only when the group, on public information, expects them to raise success
            ("helpful", default) or always ("always", the earlier behaviour).
        jack: Jack reading: the added Jack must "stay" in the pocket (default; only the Hacker's
            text allows discarding the card just taken) or the holder may "discard" it.
    """

    players: int = 4
    model: str = "history"
    levels: int = 1
    unit: str = "heist"
    mode: str = "basic"
    deck_order: str = "shuffled"
    challenges: tuple[str, ...] = ()
    specialist: str = ""
    specialist_round: str = "river"
    boost: str = "top"
    specialist_use: str = "helpful"
    jack: str = "stay"

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise UserError(f"gang: players must be 3 to 6 (got {self.players!r})")
        if self.model not in MODEL_IDS:
            raise UserError(f"gang: unknown model {self.model!r}; choose from: {', '.join(MODEL_IDS)}")
        if not isinstance(self.levels, int) or not 1 <= self.levels <= MAX_LEVELS:
            raise UserError(f"gang: levels must be 1 to {MAX_LEVELS} (got {self.levels!r})")
        if self.unit not in UNITS:
            raise UserError(f"gang: unit must be heist or game (got {self.unit!r})")
        if self.mode not in MODES:
            raise UserError(f"gang: unknown mode {self.mode!r}; choose from: {', '.join(MODES)}")
        if self.deck_order not in DECK_ORDERS:
            raise UserError(f"gang: deck order must be shuffled or numbered (got {self.deck_order!r})")
        if self.specialist_round not in SPECIALIST_ROUNDS:
            raise UserError(f"gang: specialist round must be river or flop (got {self.specialist_round!r})")
        if self.boost not in BOOST_TARGETS:
            raise UserError(f"gang: boost must be top or bottom (got {self.boost!r})")
        if self.specialist_use not in SPECIALIST_USES:
            raise UserError(f"gang: specialist use must be helpful or always (got {self.specialist_use!r})")
        if self.jack not in JACK_READINGS:
            raise UserError(f"gang: Jack reading must be stay or discard (got {self.jack!r})")
        challenge_mask(self.challenges)
        if len(set(self.challenges)) != len(self.challenges):
            raise UserError("gang: a challenge card is listed twice")
        if self.specialist and self.specialist not in SPECIALISTS:
            raise UserError(f"gang: unknown specialist {self.specialist!r}; choose from: {', '.join(SPECIALISTS)}")
        if self.unit == "heist" and self.mode != "basic":
            raise UserError("gang: modes apply to games (unit game); heists take cards directly")
        if self.unit == "game" and self.specialist:
            raise UserError("gang: games draw specialists from the pile; --specialist is for heists")
        if self.unit == "game" and self.mode in ("advanced", "master") and self.challenges:
            raise UserError(f"gang: {self.mode} mode draws its challenges; do not list any")
        if self.unit == "game" and self.mode == "professional":
            if len(self.challenges) > 1:
                raise UserError("gang: professional mode has one permanent challenge")
            if self.challenges == ("quick-access",):
                raise UserError("gang: professional mode removes quick-access from the pile")

    @property
    def model_id(self) -> int:
        """Kernel id of the player model."""
        return MODEL_IDS[self.model]

    @property
    def challenge_bits(self) -> int:
        """Bit mask of the listed challenges (bit k = challenge number k)."""
        return challenge_mask(self.challenges)

    @property
    def specialist_id(self) -> int:
        """Number 1..10 of the listed specialist, 0 for none."""
        return SPECIALISTS[self.specialist] if self.specialist else 0

    @property
    def use_round(self) -> int:
        """Kernel round index at which group-decided specialists are played."""
        return SPECIALIST_ROUNDS[self.specialist_round]
