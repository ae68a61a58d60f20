"""The Gang's hidden-information check in the game contract (:mod:`cardsim.testing`): no player
model reads a hidden card. For a deal, change the cards a player cannot see while the public
record (every round's claims and chips, announcements, the shown card) stays fixed: that
player's decisions (the band they claim from their own hand, their vote in the private settle,
their own card choices) and the group's decisions (who uses a specialist and whether, the
Informant pair, the scan guess) must not change. Every check also reorders the cards not yet
shown (the board to come, later draws) with the public record fixed.

Replay is the kernel's own (``play_heist`` with ``replay_chips``): the first run records the
public record, the second forces it while other players' pockets are swapped after the
after-deal cards. ``tests/gang/test_hidden_swap.py`` runs it over every model, card, player
count and reading of the specialist rule, and catches the leaky estimates.
"""

from __future__ import annotations

import numpy as np

from cardsim.sims.core.game import HiddenInfoResult
from cardsim.sims.gang.cards import CHALLENGES, HACKER, JACK, SPECIALISTS, pocket_size
from cardsim.sims.gang.engine import SCAN_CHALLENGES, play_heist
from cardsim.sims.gang.estimate import HELPFUL
from cardsim.sims.gang.holdings import MAX_POCKET, PAIR_MASKS_WITH_JACK, PAIRS_WITH_JACK
from cardsim.sims.gang.models import LEAKY, MODEL_IDS, chip_likelihood

PLAYERS = 4
HEISTS = 4
CARDS = [("none", 0, 0)] + [(c, 1 << n, 0) for c, n in CHALLENGES.items()] + [(s, 0, n) for s, n in SPECIALISTS.items()]
#: every player model of the ladder (the models' table, so a new model is checked too)
MODELS = MODEL_IDS


def play_recorded(
    deck,
    seed,
    challenges,
    specialist,
    model,
    replay=None,
    swap=None,
    players=PLAYERS,
    use_round=3,
    boost_top=True,
    use_rule=HELPFUL,
):
    """One heist; returns (flags, chips, record, info, pockets). ``replay`` = (chips, bands,
    info) forces the public record; ``swap`` (players x 3, -1 = keep) changes pockets."""
    pockets = np.zeros((players, MAX_POCKET), dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    chips = np.zeros((4, players), dtype=np.int64)
    finals = np.zeros(players, dtype=np.int64)
    record = np.zeros((4, players, 4))
    info = np.zeros(players + 1, dtype=np.int64)
    if replay is None:
        forced = np.zeros((1, players + 1), dtype=np.int64)
        replay = (forced, forced, np.zeros(players + 1, dtype=np.int64))
    if swap is None:
        swap = np.full((players, MAX_POCKET), -1, dtype=np.int64)
    flags = play_heist(
        deck.copy(),
        seed,
        challenges,
        specialist,
        players,
        model,
        1,
        use_round,
        boost_top,
        chip_likelihood(players, players),
        pockets,
        board,
        chips,
        finals,
        PAIRS_WITH_JACK.copy(),
        PAIR_MASKS_WITH_JACK.copy(),
        use_rule,
        True,
        replay[0],
        replay[1],
        replay[2],
        swap,
        record,
        info,
    )
    return flags, chips.copy(), record.copy(), info.copy(), pockets.copy()


def public_bands(record):
    """The public claims of every round and, last column, the private settle's swaps."""
    return np.concatenate([record[:, :, 0], record[:, :1, 3]], axis=1).astype(np.int64)


def swap_for(deck, challenges, hidden_from: list[int], players=PLAYERS):
    """Replacement cards for the pockets of ``hidden_from``: taken from the end of the deck
    (never dealt, drawn or on the board)."""
    size = pocket_size(challenges)
    swap = np.full((players, MAX_POCKET), -1, dtype=np.int64)
    spare = list(deck[-12:])
    for p in hidden_from:
        for s in range(size):
            swap[p, s] = spare.pop()
    return swap


SHOWN_AT = {0: 0, 1: 3, 2: 4, 3: 5}  # community cards shown in each round (pre-flop .. river)


def undealt_reordered(deck, challenges, players, use_round):
    """The same deal with every card not yet shown at ``use_round`` in reverse order: the
    pockets and the shown board stay, the board still to come and every later draw change."""
    first_hidden = players * pocket_size(challenges) + SHOWN_AT[use_round]
    reordered = deck.copy()
    reordered[first_hidden:] = deck[first_hidden:][::-1]
    return reordered


def leaks(
    model: int,
    name: str,
    challenges: int,
    specialist: int,
    players: int = PLAYERS,
    use_round: int = 3,
    boost_top: bool = True,
    use_rule: int = HELPFUL,
    heists: int = HEISTS,
    uses: list | None = None,
    deals: list | None = None,
    pockets: bool = True,
) -> list[str]:
    """Every decision that changed when hidden cards changed, over a few deals (``uses``, if
    given, collects whether the specialist was played in each original heist; ``deals``, if
    given, are the (deck, heist seed) pairs to play instead of random ones; ``pockets=False``
    reorders only the cards not yet shown, for a check of the undealt board alone). The scan
    guess is replayed only under a scan challenge: without one it is -1 in every heist."""
    rng = np.random.default_rng(11)
    found = []
    setup = {"players": players, "use_round": use_round, "boost_top": boost_top, "use_rule": use_rule}
    for heist in range(heists if deals is None else len(deals)):
        if deals is None:
            deck = rng.permutation(52).astype(np.int64)
            seed = int(rng.integers(1 << 30))
        else:
            deck = np.array(deals[heist][0], dtype=np.int64)
            seed = int(deals[heist][1])
        flags, chips, record, info, _ = play_recorded(deck, seed, challenges, specialist, model, **setup)
        if uses is not None:
            uses.append(flags[3] >= 0)
        public = (np.ascontiguousarray(chips), public_bands(record), info)
        for me in range(players if pockets else 0):
            others = [p for p in range(players) if p != me]
            swap = swap_for(deck, challenges, others, players)
            flags2, chips2, record2, info2, pockets2 = play_recorded(
                deck, seed, challenges, specialist, model, public, swap, **setup
            )
            where = f"{name} heist {heist} seat {me}"
            if (record2[:, me, :3] != record[:, me, :3]).any():
                found.append(f"{where}: own claims/votes")
            if flags2[3] != flags[3] or flags2[7] != flags[7]:
                found.append(f"{where}: who uses the specialist")
            if flags[3] == me and flags2[4] != flags[4] and specialist in (HACKER, JACK):
                found.append(f"{where}: the user's own discard")
        future = undealt_reordered(deck, challenges, players, use_round)
        flags2 = play_recorded(future, seed, challenges, specialist, model, public, **setup)[0]
        if flags2[3] != flags[3] or flags2[7] != flags[7]:
            found.append(f"{name} heist {heist}: who uses the specialist (undealt cards)")
        if not pockets or not challenges & SCAN_CHALLENGES:
            continue
        top = int(np.flatnonzero(chips[3] == players)[0])
        swap = swap_for(deck, challenges, [top], players)
        flags2 = play_recorded(deck, seed, challenges, specialist, model, public, swap, **setup)[0]
        if flags2[5] != flags[5]:
            found.append(f"{name} heist {heist}: the scan guess")
    return found


def hidden_info_check(seed: int, policy: int | None = None) -> HiddenInfoResult:
    """The game declaration's hidden-information hook: every model (``policy``: one model id
    instead), one heist without cards, every seat's hidden cards swapped; counts the seats
    compared and the decisions that changed (the deals come from :func:`leaks`' own fixed
    stream, so ``seed`` is not used)."""
    models = list(MODELS.values()) if policy is None else [policy]
    changed = sum(len(leaks(model, "none", 0, 0, heists=1)) for model in models)
    return HiddenInfoResult(len(models) * PLAYERS, changed)


#: the declared leaky model the check must catch: it claims its true rank in the team (it
#: reads the others' hands)
LEAKY_POLICY = LEAKY
