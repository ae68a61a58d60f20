"""Bang! base game data: the 80 playing cards, the 16 characters and the roles per player count.

Sources: roles, life bonus, hand limit and card colours come from the seed
``../shared/seeds/003_b860e9a67841a34d.txt``; the seed does not list the individual cards or
characters, so the card list (name, suit, rank) and the characters (life points, ability) are
those of the published base game (dV Giochi). The digest ``seeds/bang.md`` records both.

Everything here is plain data (ints and numpy arrays) so the numba kernel in
:mod:`cardsim.sims.bang.engine` can read it as compile-time constants.
"""

from __future__ import annotations

import numpy as np

# --- suits and ranks -------------------------------------------------------------------------
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUIT_NAMES: tuple[str, ...] = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS: dict[str, int] = {"S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS}
RANK_SYMBOLS: dict[str, int] = {
    **{str(r): r for r in range(2, 11)},
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": 14,
}

# --- card kinds (one per card name) ----------------------------------------------------------
BANG, MISSED, BEER, PANIC, CAT_BALOU, DUEL, GENERAL_STORE, GATLING = 0, 1, 2, 3, 4, 5, 6, 7
INDIANS, SALOON, STAGECOACH, WELLS_FARGO = 8, 9, 10, 11
BARREL, DYNAMITE, JAIL, MUSTANG, SCOPE = 12, 13, 14, 15, 16
VOLCANIC, SCHOFIELD, REMINGTON, CARABINE, WINCHESTER = 17, 18, 19, 20, 21
N_KINDS = 22
FIRST_BLUE = BARREL  # kinds >= FIRST_BLUE are blue-bordered (stay in play)
FIRST_WEAPON = VOLCANIC  # kinds >= FIRST_WEAPON are weapons

KIND_NAMES: tuple[str, ...] = (
    "BANG!", "Missed!", "Beer", "Panic!", "Cat Balou", "Duel", "General Store", "Gatling",
    "Indians!", "Saloon", "Stagecoach", "Wells Fargo", "Barrel", "Dynamite", "Jail", "Mustang",
    "Scope", "Volcanic", "Schofield", "Remington", "Rev. Carabine", "Winchester",
)  # fmt: skip

#: Reach of each weapon kind (index = kind - FIRST_WEAPON); no weapon means the Colt .45, reach 1.
WEAPON_REACH = np.array([1, 2, 3, 4, 5], dtype=np.int64)
COLT_REACH = 1

#: The published base deck as (kind, "rank+suit" codes): 80 cards.
DECK_LIST: tuple[tuple[int, tuple[str, ...]], ...] = (
    (BANG, ("AS", "QH", "KH", "AH")
     + tuple(f"{r}D" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
     + tuple(f"{r}C" for r in range(2, 10))),
    (MISSED, ("10C", "JC", "QC", "KC", "AC") + tuple(f"{r}S" for r in range(2, 9))),
    (BEER, ("6H", "7H", "8H", "9H", "10H", "JH")),
    (PANIC, ("JH", "QH", "AH", "8D")),
    (CAT_BALOU, ("KH", "9D", "10D", "JD")),
    (DUEL, ("QD", "JS", "8C")),
    (GENERAL_STORE, ("9C", "QS")),
    (GATLING, ("10H",)),
    (INDIANS, ("KD", "AD")),
    (SALOON, ("5H",)),
    (STAGECOACH, ("9S", "9S")),
    (WELLS_FARGO, ("3H",)),
    (BARREL, ("QS", "KS")),
    (DYNAMITE, ("2H",)),
    (JAIL, ("JS", "10S", "4H")),
    (MUSTANG, ("8H", "9H")),
    (SCOPE, ("AS",)),
    (VOLCANIC, ("10S", "10C")),
    (SCHOFIELD, ("JC", "QC", "KS")),
    (REMINGTON, ("KC",)),
    (CARABINE, ("AC",)),
    (WINCHESTER, ("8S",)),
)  # fmt: skip

#: Published count of each kind (checked against DECK_LIST by the tests).
KIND_COUNTS: dict[int, int] = {
    BANG: 25, MISSED: 12, BEER: 6, PANIC: 4, CAT_BALOU: 4, DUEL: 3, GENERAL_STORE: 2,
    GATLING: 1, INDIANS: 2, SALOON: 1, STAGECOACH: 2, WELLS_FARGO: 1, BARREL: 2, DYNAMITE: 1,
    JAIL: 3, MUSTANG: 2, SCOPE: 1, VOLCANIC: 2, SCHOFIELD: 3, REMINGTON: 1, CARABINE: 1,
    WINCHESTER: 1,
}  # fmt: skip


def parse_card_code(code: str) -> tuple[int, int]:
    """``"10H"`` -> (rank 10, HEARTS); ranks run 2..14 with the ace as 14."""
    return RANK_SYMBOLS[code[:-1]], SUIT_SYMBOLS[code[-1]]


def build_deck() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kind, suit and rank of each of the 80 cards, indexed by card id 0..79."""
    kinds, suits, ranks = [], [], []
    for kind, codes in DECK_LIST:
        for code in codes:
            rank, suit = parse_card_code(code)
            kinds.append(kind)
            suits.append(suit)
            ranks.append(rank)
    return (
        np.array(kinds, dtype=np.int64),
        np.array(suits, dtype=np.int64),
        np.array(ranks, dtype=np.int64),
    )


CARD_KIND, CARD_SUIT, CARD_RANK = build_deck()
N_CARDS = len(CARD_KIND)

# --- characters ------------------------------------------------------------------------------
(
    BART_CASSIDY, BLACK_JACK, CALAMITY_JANET, EL_GRINGO, JESSE_JONES, JOURDONNAIS, KIT_CARLSON,
    LUCKY_DUKE, PAUL_REGRET, PEDRO_RAMIREZ, ROSE_DOOLAN, SID_KETCHUM, SLAB_THE_KILLER,
    SUZY_LAFAYETTE, VULTURE_SAM, WILLY_THE_KID,
) = range(16)  # fmt: skip
N_CHARACTERS = 16
CHARACTER_NAMES: tuple[str, ...] = (
    "Bart Cassidy", "Black Jack", "Calamity Janet", "El Gringo", "Jesse Jones", "Jourdonnais",
    "Kit Carlson", "Lucky Duke", "Paul Regret", "Pedro Ramirez", "Rose Doolan", "Sid Ketchum",
    "Slab the Killer", "Suzy Lafayette", "Vulture Sam", "Willy the Kid",
)  # fmt: skip
#: Printed life points (bullets); the Sheriff adds one.
CHARACTER_LIFE = np.array([4, 4, 4, 3, 4, 4, 4, 4, 3, 4, 4, 4, 4, 4, 4, 4], dtype=np.int64)

# --- roles -----------------------------------------------------------------------------------
SHERIFF, DEPUTY, OUTLAW, RENEGADE = 0, 1, 2, 3
ROLE_NAMES: tuple[str, ...] = ("sheriff", "deputy", "outlaw", "renegade")
#: Roles dealt for 4..7 players (seed 003, step 2), padded with -1 to 7 seats.
ROLES_BY_PLAYERS = np.array(
    [
        [SHERIFF, RENEGADE, OUTLAW, OUTLAW, -1, -1, -1],
        [SHERIFF, RENEGADE, OUTLAW, OUTLAW, DEPUTY, -1, -1],
        [SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, -1],
        [SHERIFF, RENEGADE, OUTLAW, OUTLAW, OUTLAW, DEPUTY, DEPUTY],
    ],
    dtype=np.int64,
)
MIN_PLAYERS, MAX_PLAYERS = 4, 7

# --- winning sides ---------------------------------------------------------------------------
SIDE_LAW, SIDE_OUTLAWS, SIDE_RENEGADE, SIDE_NONE = 0, 1, 2, 3
SIDE_NAMES: tuple[str, ...] = ("sheriff", "outlaws", "renegade", "none")
#: The side each role wins with.
ROLE_SIDE = np.array([SIDE_LAW, SIDE_LAW, SIDE_OUTLAWS, SIDE_RENEGADE], dtype=np.int64)

# --- bots ------------------------------------------------------------------------------------
BOT_RANDOM, BOT_ROLE, BOT_NAIVE, BOT_TUNED, BOT_ROLE2, BOT_TUNED2, BOT_SEARCH = range(7)
#: Bot code offset of a seat played by a Python strategy (:mod:`cardsim.sims.bang.strategy`):
#: ``BOT_USER + k`` asks the strategy and plays built-in bot ``k`` for decisions it leaves out.
#: Not a built-in bot, so not in ``BOT_NAMES``.
BOT_USER = 100
BOT_NAMES: tuple[str, ...] = ("random", "role", "naive", "tuned", "role2", "tuned2", "search")
BOT_DESCRIPTIONS: dict[str, str] = {
    "random": "uniformly random legal play each step of its turn (incl. ending it); "
    "always dodges/saves when it legally can",
    "role": "plays to its role's goal; targets chosen from public table events only "
    "(who attacked whom, revealed roles, role counts)",
    "naive": "the role bot's plays without the inference: attacks anyone its role does not "
    "rule out as a friend (Outlaws: the Sheriff first)",
    "tuned": "the role bot with parameters trained per role and player count by iterated "
    "best response (cardsim bang train)",
    "role2": "the role bot with structural rules: a Renegade who never aims at the Sheriff while "
    "others live and turns on the lawful-looking once Deputies match Outlaws, a Sheriff who "
    "holds fire on players with no hostile record, Outlaws who focus on the Sheriff (a Duel "
    "whatever their BANG!s once he is down to one life, his Mustang taken when it keeps him "
    "out of reach)",
    "tuned2": "role2 with its parameters trained per role and player count by iterated best "
    "response (cardsim bang train --bot tuned2)",
    "search": "plans each aimed play and mass attack with the engine: Monte Carlo rollouts (tuned2 bots "
    "everywhere) over hidden roles and hands sampled from the public record; tuned2 otherwise",
}


def roles_for(players: int) -> tuple[int, ...]:
    """Roles dealt for a table of ``players`` (4..7), seed 003 step 2."""
    row = ROLES_BY_PLAYERS[players - MIN_PLAYERS]
    return tuple(int(r) for r in row[:players])
