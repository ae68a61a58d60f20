"""Patient (cashnguns_patient.py) written for the compiled engine: the same three decisions as
numba functions of the view's arrays (cardsim.sims.cashnguns.compiled), so it plays inside
compiled code and gives exactly Patient's games.

Use it from Python: cardsim.sims.cashnguns.compiled.play_compiled(PatientCompiled(), ...)
"""

from numba import njit


@njit
def aim(
    seat,
    round,
    hand,
    alive,
    money,
    wounds,
    shame,
    loot,
    drawn,
    revealed,
    aims,
    lay,
    expected_loot,
    target,
    targets,
    shame_value,
    u,
):
    best = -1
    for other in range(alive.shape[0]):
        if other != seat and alive[other] and (best < 0 or money[other] > money[best]):
            best = other
    return best


@njit
def card(
    seat,
    round,
    hand,
    alive,
    money,
    wounds,
    shame,
    loot,
    drawn,
    revealed,
    aims,
    lay,
    expected_loot,
    target,
    targets,
    shame_value,
    u,
):
    if hand[0] > 0 and round < 5:
        return 0
    for kind in (2, 1, 0):
        if hand[kind] > 0:
            return kind
    return 0


@njit
def lie_down(
    seat,
    round,
    hand,
    alive,
    money,
    wounds,
    shame,
    loot,
    drawn,
    revealed,
    aims,
    lay,
    expected_loot,
    target,
    targets,
    shame_value,
    u,
):
    guns = 0
    for aimed_at in targets:
        if aimed_at == seat:
            guns += 1
    return guns >= 2


class PatientCompiled:
    """Aims at the richest, plays Clicks until round 6, lies down under two guns."""

    aim = staticmethod(aim)
    card = staticmethod(card)
    lie_down = staticmethod(lie_down)
