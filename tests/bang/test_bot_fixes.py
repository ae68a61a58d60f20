"""Role-bot fixes, each on a fixed-card scenario: a certain foe is always worth a
shot, Dynamite is played only by the side it helps, the Renegade turns on a leading Sheriff."""

from __future__ import annotations

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from cardsim.sims.bang.policies import NO_ACTION
from tests.bang.scenario import card, equip, give, rng, table


def kill(s: E.StateView, *seats: int) -> None:
    """Take seats out of the game (revealed, no cards) without playing the elimination."""
    for seat in seats:
        s.alive[seat] = 0
        s.life[seat] = 0
        s.revealed[seat] = 1


def test_sheriff_shoots_the_renegade_in_the_final_one_on_one() -> None:
    """The Renegade shot Outlaws (evidence says 'lawful'), but with the Outlaws dead every
    unknown player is a foe: the Sheriff must shoot him (the bot before this fix never did)."""
    s = table([C.KIT_CARLSON] * 4)  # seats: 0 Sheriff, 1 Renegade, 2-3 Outlaws
    E.record_attack(s.state, 2, 0)
    E.record_attack(s.state, 1, 2)
    E.record_attack(s.state, 1, 2)
    kill(s, 2, 3)
    give(s, 0, card(C.BANG, "AS"))
    c, t, _ = E.choose_action(s.state, rng(), 0)
    assert (C.CARD_KIND[c], t) == (C.BANG, 1)


def test_lone_deputy_shoots_a_renegade_who_shot_outlaws() -> None:
    s = table([C.KIT_CARLSON] * 5)  # 0 Sheriff, 1 Renegade, 2-3 Outlaws, 4 Deputy
    E.record_attack(s.state, 2, 0)
    E.record_attack(s.state, 1, 2)
    E.record_attack(s.state, 1, 2)
    kill(s, 2, 3)
    give(s, 4, card(C.BANG, "AS"))
    c, t, _ = E.choose_action(s.state, rng(), 4)
    assert (C.CARD_KIND[c], t) == (C.BANG, 1)


def test_last_outlaw_shoots_a_deputy_whatever_the_evidence() -> None:
    """As the last Outlaw every other living player but the Sheriff is a foe, even a Deputy
    whose record looks outlaw-like (he shot a 'lawful-looking' Renegade)."""
    s = table([C.KIT_CARLSON] * 5)
    E.record_attack(s.state, 2, 0)  # Outlaw 2 shoots the Sheriff
    E.record_attack(s.state, 1, 2)  # the Renegade shoots Outlaw 2: looks lawful
    E.record_attack(s.state, 4, 1)  # the Deputy shoots the Renegade twice: looks outlaw-like
    E.record_attack(s.state, 4, 1)
    kill(s, 1, 2)
    equip(s, 0, card(C.MUSTANG, "8H"))  # the Sheriff is out of the Outlaw's reach
    give(s, 3, card(C.BANG, "AS"))
    c, t, _ = E.choose_action(s.state, rng(), 3)
    assert (C.CARD_KIND[c], t) == (C.BANG, 4)


def test_only_outlaws_play_dynamite() -> None:
    """Dynamite hits whoever it explodes on: the law side and the Renegade keep it in hand
    (and throw it away first); an Outlaw plays it."""
    for seat, role in ((0, C.SHERIFF), (1, C.RENEGADE), (5, C.DEPUTY), (2, C.OUTLAW)):
        s = table([C.KIT_CARLSON] * 7)
        dynamite = card(C.DYNAMITE)
        give(s, seat, dynamite, card(C.MISSED, "10C"))
        assert s.role[seat] == role
        expected = (dynamite, -1, -1) if role == C.OUTLAW else NO_ACTION
        assert E.choose_action(s.state, rng(), seat) == expected
        if role != C.OUTLAW:
            assert E.choose_discard(s.state, rng(), seat) == dynamite


def test_naive_bot_still_plays_dynamite_whatever_its_role() -> None:
    s = table([C.KIT_CARLSON] * 7, bots=[C.BOT_NAIVE] * 7)
    dynamite = card(C.DYNAMITE)
    give(s, 0, dynamite)
    assert E.choose_action(s.state, rng(), 0) == (dynamite, -1, -1)


def test_renegade_turns_on_a_leading_sheriff_while_outlaws_live() -> None:
    """7 players, two Outlaws dead: the law side (Sheriff + 2 Deputies) outnumbers the last
    Outlaw, so the Renegade shoots the healthy Sheriff; at 2 life he holds fire on him."""
    s = table([C.KIT_CARLSON] * 7)  # 0 Sheriff, 1 Renegade, 2-4 Outlaws, 5-6 Deputies
    kill(s, 2, 3)
    give(s, 1, card(C.BANG, "AS"))
    c, t, _ = E.choose_action(s.state, rng(), 1)
    assert (C.CARD_KIND[c], t) == (C.BANG, 0)
    s.life[0] = 2
    assert E.choose_action(s.state, rng(), 1) == NO_ACTION
