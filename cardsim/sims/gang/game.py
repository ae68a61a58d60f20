"""Games of heists: vaults and alarms, and the card flow of the Advanced, Professional and
Master Thief modes (seed 000, "KẾT THÚC TRÒ CHƠI", "CHẾ ĐỘ NÂNG CAO / CHUYÊN NGHIỆP / SIÊU TRỘM").

Games are played in lockstep: heist k of every unfinished game is one batch call of the heist
kernel, with each game's own active cards. The per-game card state is plain Python (a few
integers per game); all card play happens in the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cardsim.sims.gang.cards import CHALLENGES
from cardsim.sims.gang.config import GangConfig
from cardsim.sims.gang.engine import play_batch

VAULTS_TO_WIN = 3
ALARMS_TO_LOSE = 3
MASTER_ALARMS_TO_LOSE = 2
MAX_HEISTS = VAULTS_TO_WIN + ALARMS_TO_LOSE - 1
QUICK_ACCESS = CHALLENGES["quick-access"]


@dataclass
class GameState:
    """One game's progress and card piles (top of a pile = index 0)."""

    challenge_pile: list[int]
    specialist_pile: list[int]
    permanent: list[int] = field(default_factory=list)
    next_card: tuple[str, int] | None = None  # ("challenge"|"specialist", number) for one heist
    vaults: int = 0
    alarms: int = 0
    outcomes: str = ""

    def finished(self, alarms_to_lose: int) -> bool:
        """Three vaults win; three alarms (two in Master Thief) lose (seed 000 / seed 002)."""
        return self.vaults >= VAULTS_TO_WIN or self.alarms >= alarms_to_lose


def alarms_to_lose(mode: str) -> int:
    """Master Thief removes one alarm card: two alarms lose."""
    return MASTER_ALARMS_TO_LOSE if mode == "master" else ALARMS_TO_LOSE


def new_game(config: GangConfig, rng: np.random.Generator) -> GameState:
    """Set up the piles for one game of the configured mode."""
    challenges = list(range(1, 11))
    specialists = list(range(1, 11))
    if config.mode in ("professional", "master"):
        challenges.remove(QUICK_ACCESS)
    if config.deck_order == "shuffled":
        challenges = [int(c) for c in rng.permutation(challenges)]
        specialists = [int(s) for s in rng.permutation(specialists)]
    elif config.mode == "master":  # "flip two random challenge cards" whatever the pile order
        challenges = [int(c) for c in rng.permutation(challenges)]
    state = GameState(challenge_pile=challenges, specialist_pile=specialists)
    if config.mode == "basic":
        state.permanent = [CHALLENGES[name] for name in config.challenges]
    elif config.mode == "professional":
        if config.challenges:
            chosen = CHALLENGES[config.challenges[0]]
        else:
            chosen = int(rng.choice(challenges))
        state.challenge_pile.remove(chosen)
        state.permanent = [chosen]
    elif config.mode == "master":
        state.permanent = [state.challenge_pile.pop(0), state.challenge_pile.pop(0)]
    return state


def cards_for_next_heist(state: GameState, mode: str, heist_index: int) -> tuple[int, int]:
    """(challenge bit mask, specialist number) for the coming heist; advances Master Thief's
    rotation (the lowest-numbered active challenge leaves, the next one is revealed)."""
    if mode == "master" and heist_index > 0:
        state.permanent.remove(min(state.permanent))
        state.permanent.append(state.challenge_pile.pop(0))
    mask = 0
    for number in state.permanent:
        mask |= 1 << number
    specialist = 0
    if state.next_card is not None:
        kind, number = state.next_card
        if kind == "challenge":
            mask |= 1 << number
        else:
            specialist = number
    return mask, specialist


def record_outcome(state: GameState, mode: str, success: bool) -> None:
    """Flip a vault or an alarm; in Advanced and Professional the used card goes to the bottom
    of its pile and the next card is drawn: a challenge after a success, a specialist after a
    failure (Master Thief has no specialists and no extra cards)."""
    if success:
        state.vaults += 1
        state.outcomes += "S"
    else:
        state.alarms += 1
        state.outcomes += "F"
    if state.next_card is not None:
        kind, number = state.next_card
        (state.challenge_pile if kind == "challenge" else state.specialist_pile).append(number)
        state.next_card = None
    if mode in ("advanced", "professional"):
        if success:
            state.next_card = ("challenge", state.challenge_pile.pop(0))
        else:
            state.next_card = ("specialist", state.specialist_pile.pop(0))


def play_games(config: GangConfig, rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """Play ``n`` games; per game the outcome string, counts and each heist's cards."""
    states = [new_game(config, rng) for _ in range(n)]
    limit = alarms_to_lose(config.mode)
    heist_challenges = np.zeros((n, MAX_HEISTS), dtype=np.int16)
    heist_specialists = np.zeros((n, MAX_HEISTS), dtype=np.int8)
    for k in range(MAX_HEISTS):
        running = [g for g in range(n) if not states[g].finished(limit)]
        if not running:
            break
        masks = np.zeros(len(running), dtype=np.int64)
        specialists = np.zeros(len(running), dtype=np.int64)
        for i, g in enumerate(running):
            masks[i], specialists[i] = cards_for_next_heist(states[g], config.mode, k)
            heist_challenges[g, k] = masks[i]
            heist_specialists[g, k] = specialists[i]
        result = play_batch(
            rng,
            config.players,
            config.model_id,
            config.levels,
            masks,
            specialists,
            config.use_round,
            boost_top=config.boost == "top",
            helpful=config.specialist_use == "helpful",
            jack_stays=config.jack == "stay",
        )
        success = (result["flags"][:, 0] == 1) & (result["flags"][:, 1] == 1)
        for i, g in enumerate(running):
            record_outcome(states[g], config.mode, bool(success[i]))
    return {
        "won": np.array([s.vaults >= VAULTS_TO_WIN for s in states]),
        "vaults": np.array([s.vaults for s in states], dtype=np.int8),
        "alarms": np.array([s.alarms for s in states], dtype=np.int8),
        "outcomes": np.array([s.outcomes for s in states], dtype=object),
        "heist_challenges": heist_challenges,
        "heist_specialists": heist_specialists,
    }
