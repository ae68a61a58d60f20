"""The random streams of a game (SplitMix64), so every game replays from one 64-bit seed.

Each game's seed is drawn from the numpy Generator handed to ``run_batch``, so all randomness
still comes from that Generator; storing the seed in the episode row lets any game be replayed
move by move. The compiled and the plain-Python versions give the same streams (tested).

A game has one public-side stream and one private stream per player slot:

- the game's stream (seeded with the game seed) shuffles the seats and the loot deck, and
  nothing else;
- slot ``s``'s private stream, seeded with ``private_seeds(seed, players)[s]``, gives that
  player's decision numbers (``u``) and nothing else.

SplitMix64 is invertible: a player that sees raw outputs of a stream can rebuild the stream's
state. A player sees outputs of its own private stream only, and its private seed is a slice of
a BLAKE2b digest of the game seed (a cryptographic hash, :func:`private_seeds`), which tells it
neither the game seed (so neither the deck order) nor another slot's private seed.
"""

from __future__ import annotations

import hashlib

import numpy as np

from cardsim.sims.core.jit import kernel

#: The random-stream scheme the engine plays (recorded with measured figures): ``"private"``,
#: each seat's numbers from its own stream; ``"shared"`` was the scheme before, one stream for
#: the deal and every seat's numbers, through which a seat could rebuild the loot deck. The
#: built-in strategies read ``u`` only as a uniform number, so their figures under either
#: scheme estimate the same quantities, but a rerun gives other numbers.
STREAMS = "private"
SHARED_STREAMS = "shared"

_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_MASK = (1 << 64) - 1
#: the most player slots a game seed has private seeds for (the digest's 8-byte words)
MAX_PRIVATE_SLOTS = 8
#: BLAKE2b's personalization of the private-seed digest (names its use, not a secret)
_PERSON = b"cashnguns-seat"


@kernel(refcounts=False)
def next_uniform_at(states: np.ndarray, index: int) -> float:
    """Advance stream ``states[index]`` (a uint64 array of stream states) and return a float
    in [0, 1)."""
    states[index] += np.uint64(_GOLDEN)
    z = states[index]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel(refcounts=False)
def next_uniform(state: np.ndarray) -> float:
    """Advance ``state`` (a one-element uint64 array) and return a float in [0, 1)."""
    return next_uniform_at(state, 0)


def private_seeds(seeds: np.ndarray | list[int] | int, players: int) -> np.ndarray:
    """(games, players) uint64: the private-stream seed of each player slot of each game seed
    (one seed: (players,)). Word ``s`` of the BLAKE2b digest of the 8-byte game seed: learning
    one word (a player can rebuild its own private seed from its ``u``) reveals neither the game
    seed nor the other words."""
    if not 1 <= players <= MAX_PRIVATE_SLOTS:
        raise ValueError(f"private_seeds: players must be 1-{MAX_PRIVATE_SLOTS}, got {players}")
    if isinstance(seeds, (int, np.integer)):  # one game (the engine's path): no array round trip
        digest = hashlib.blake2b(
            (int(seeds) & _MASK).to_bytes(8, "little"), digest_size=8 * MAX_PRIVATE_SLOTS, person=_PERSON
        ).digest()
        return np.frombuffer(digest, "<u8", count=players).astype(np.uint64)
    single = np.ndim(seeds) == 0
    raw = np.atleast_1d(np.asarray(seeds).astype(np.uint64)).astype("<u8").tobytes()
    digests = b"".join(
        [
            hashlib.blake2b(raw[i : i + 8], digest_size=8 * MAX_PRIVATE_SLOTS, person=_PERSON).digest()
            for i in range(0, len(raw), 8)
        ]
    )
    words = np.frombuffer(digests, "<u8").reshape(-1, MAX_PRIVATE_SLOTS)[:, :players].astype(np.uint64)
    return words[0] if single else words


class PyStream:
    """The same SplitMix64 stream with Python integers (for the plain-Python reference)."""

    def __init__(self, seed: int) -> None:
        self.state = int(seed) & _MASK

    def uniform(self) -> float:
        """The next float in [0, 1), equal to :func:`next_uniform` for the same seed."""
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        z ^= z >> 31
        return (z >> 11) * (1.0 / 9007199254740992.0)
