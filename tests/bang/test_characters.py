"""The 16 characters' abilities, one scenario each (plus the contrast case where useful)."""

from __future__ import annotations

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from tests.bang.scenario import (
    card, club, discard_pile, equip, give, hand, heart, rng, spade_low, stack, table,
)  # fmt: skip

PLAIN = C.KIT_CARLSON  # acts only in his own draw phase


def test_bart_cassidy_draws_a_card_per_life_lost() -> None:
    s = table([PLAIN, C.BART_CASSIDY, PLAIN, PLAIN])
    drawn = card(C.BEER, "6H")
    stack(s, drawn)
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 3 and hand(s, 1) == [drawn]


def test_bart_cassidy_dynamite_three_cards() -> None:
    s = table([PLAIN, C.BART_CASSIDY, PLAIN, PLAIN])
    equip(s, 1, card(C.DYNAMITE))
    stack(s, spade_low())
    E.resolve_dynamite(s.state, rng(), 1)
    assert s.life[1] == 1 and E.hand_count(s.state, 1) == 3


def test_black_jack_draws_third_card_on_red_second() -> None:
    s = table([PLAIN, C.BLACK_JACK, PLAIN, PLAIN])
    stack(s, club(), heart(), card(C.BANG, "3C"))
    E.draw_phase(s.state, rng(), 1)
    assert E.hand_count(s.state, 1) == 3
    s = table([PLAIN, C.BLACK_JACK, PLAIN, PLAIN])
    stack(s, heart(), club(), card(C.BANG, "3C"))
    E.draw_phase(s.state, rng(), 1)
    assert E.hand_count(s.state, 1) == 2


def test_calamity_janet_missed_as_bang_and_bang_as_missed() -> None:
    s = table([PLAIN, C.CALAMITY_JANET, PLAIN, PLAIN])
    missed = card(C.MISSED, "10C")
    give(s, 1, missed)
    n = E.legal_actions(s.state, 1)
    assert {int(s.acts[i, 1]) for i in range(n)} == {0, 2}
    E.apply_action(s.state, rng(), 1, missed, 2, -1)
    assert s.life[2] == 3 and s.g[E.G_BANGS] == 1  # counts as her BANG! of the turn
    give(s, 1, card(C.BANG, "AS"))
    E.play_bang(s.state, rng(), 0, card(C.BANG, "QH"), 1)
    assert s.life[1] == 4 and E.hand_count(s.state, 1) == 0


def test_el_gringo_takes_a_card_from_who_hurt_him() -> None:
    s = table([PLAIN, C.EL_GRINGO, PLAIN, PLAIN])
    loot = card(C.BEER, "6H")
    give(s, 0, loot)
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 2 and hand(s, 1) == [loot] and E.hand_count(s.state, 0) == 0


def test_el_gringo_takes_nothing_from_dynamite() -> None:
    s = table([PLAIN, C.EL_GRINGO, PLAIN, PLAIN])
    s.life[1] = 3
    s.max_life[1] = 3
    give(s, 0, card(C.BEER, "6H"))
    give(s, 1, card(C.BEER, "7H"), card(C.BEER, "8H"))
    equip(s, 1, card(C.DYNAMITE))
    stack(s, spade_low())
    E.resolve_dynamite(s.state, rng(), 1)
    # 3 -> 0, one Beer brings him back to 1; nothing taken from anyone
    assert s.alive[1] == 1 and s.life[1] == 1 and E.hand_count(s.state, 0) == 1


def test_jesse_jones_draws_first_card_from_a_hand() -> None:
    s = table([PLAIN, PLAIN, C.JESSE_JONES, PLAIN])  # seat 2 is an Outlaw: targets the Sheriff
    loot = card(C.MISSED, "10C")
    give(s, 0, loot)
    E.draw_phase(s.state, rng(), 2)
    assert loot in hand(s, 2) and E.hand_count(s.state, 2) == 2 and E.hand_count(s.state, 0) == 0


def test_jourdonnais_has_a_barrel_built_in() -> None:
    s = table([PLAIN, C.JOURDONNAIS, PLAIN, PLAIN])
    stack(s, heart())
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 4
    stack(s, club())
    E.play_bang(s.state, rng(), 0, card(C.BANG, "QH"), 1)
    assert s.life[1] == 3


def test_jourdonnais_with_barrel_draws_twice() -> None:
    s = table([PLAIN, C.JOURDONNAIS, PLAIN, PLAIN])
    equip(s, 1, card(C.BARREL, "QS"))
    stack(s, club(), heart())
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 4


def test_kit_carlson_keeps_two_of_three_and_puts_one_back() -> None:
    s = table([PLAIN, C.KIT_CARLSON, PLAIN, PLAIN])
    keep1, keep2, back = card(C.MISSED, "10C"), card(C.BANG, "AS"), card(C.DYNAMITE)
    stack(s, keep1, back, keep2)
    E.draw_phase(s.state, rng(), 1)
    assert sorted(hand(s, 1)) == sorted([keep1, keep2])
    assert s.deck[s.g[E.G_DECK_N] - 1] == back


def test_lucky_duke_flips_two_and_picks() -> None:
    s = table([PLAIN, C.LUCKY_DUKE, PLAIN, PLAIN])
    equip(s, 1, card(C.BARREL, "QS"))
    stack(s, club(), heart())
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 4 and s.g[E.G_DISCARD_N] == 3  # BANG!, and both flipped cards
    s = table([PLAIN, PLAIN, PLAIN, PLAIN])
    equip(s, 1, card(C.BARREL, "QS"))
    stack(s, club(), heart())
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 3


def test_lucky_duke_dynamite_needs_both_flips_bad() -> None:
    s = table([PLAIN, C.LUCKY_DUKE, PLAIN, PLAIN])
    equip(s, 1, card(C.DYNAMITE))
    stack(s, spade_low(), club())
    E.resolve_dynamite(s.state, rng(), 1)
    assert s.life[1] == 4 and s.table[2, C.DYNAMITE] >= 0


def test_paul_regret_is_seen_one_further() -> None:
    s = table([PLAIN, C.PAUL_REGRET, PLAIN, PLAIN])
    assert E.distance(s.state, 0, 1) == 2 and E.distance(s.state, 1, 0) == 1
    equip(s, 1, card(C.MUSTANG, "8H"))
    assert E.distance(s.state, 0, 1) == 3


def test_pedro_ramirez_may_take_top_of_discard() -> None:
    s = table([PLAIN, C.PEDRO_RAMIREZ, PLAIN, PLAIN])
    top = card(C.MISSED, "10C")
    discard_pile(s, card(C.DYNAMITE), top)
    E.draw_phase(s.state, rng(), 1)
    assert top in hand(s, 1) and E.hand_count(s.state, 1) == 2 and s.g[E.G_DISCARD_N] == 1


def test_rose_doolan_sees_others_one_closer() -> None:
    s = table([C.ROSE_DOOLAN] + [PLAIN] * 6)
    assert [E.distance(s.state, 0, t) for t in range(1, 7)] == [1, 1, 2, 2, 1, 1]
    equip(s, 0, card(C.SCOPE))
    assert E.distance(s.state, 0, 3) == 1


def test_sid_ketchum_discards_two_to_heal() -> None:
    s = table([PLAIN, C.SID_KETCHUM, PLAIN, PLAIN])
    s.life[1] = 2
    give(s, 1, card(C.DYNAMITE), card(C.BANG, "AS"), card(C.MISSED, "10C"))
    n = E.legal_actions(s.state, 1)
    assert any(s.acts[i, 0] == E.SID_ABILITY for i in range(n))
    E.apply_action(s.state, rng(), 1, E.SID_ABILITY, -1, -1)
    assert s.life[1] == 3 and hand(s, 1) == [card(C.MISSED, "10C")]  # the two least worth


def test_sid_ketchum_saves_himself_from_death() -> None:
    s = table([PLAIN, C.SID_KETCHUM, PLAIN, PLAIN])
    s.life[1] = 1
    give(s, 1, card(C.DYNAMITE), card(C.STAGECOACH, "9S"))
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.alive[1] == 1 and s.life[1] == 1 and E.hand_count(s.state, 1) == 0


def test_slab_the_killer_needs_two_missed() -> None:
    s = table([C.SLAB_THE_KILLER, PLAIN, PLAIN, PLAIN])
    lone = card(C.MISSED, "10C")
    give(s, 1, lone)
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 3 and hand(s, 1) == [lone]  # one Missed! is not enough (kept)
    give(s, 1, card(C.MISSED, "JC"))
    E.play_bang(s.state, rng(), 0, card(C.BANG, "QH"), 1)
    assert s.life[1] == 3 and E.hand_count(s.state, 1) == 0


def test_slab_barrel_counts_as_one_missed() -> None:
    s = table([C.SLAB_THE_KILLER, PLAIN, PLAIN, PLAIN])
    equip(s, 1, card(C.BARREL, "QS"))
    give(s, 1, card(C.MISSED, "10C"))
    stack(s, heart())
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 4 and E.hand_count(s.state, 1) == 0


def test_suzy_lafayette_draws_when_her_hand_empties() -> None:
    s = table([PLAIN, C.SUZY_LAFAYETTE, PLAIN, PLAIN])
    give(s, 1, card(C.MISSED, "10C"))
    refill = card(C.BEER, "6H")
    stack(s, refill)
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 4 and hand(s, 1) == [refill]


def test_vulture_sam_takes_the_dead_players_cards() -> None:
    s = table([PLAIN, PLAIN, PLAIN, C.VULTURE_SAM])
    s.life[1] = 1
    taken = [card(C.PANIC, "JH"), card(C.MUSTANG, "8H")]
    give(s, 1, taken[0])
    equip(s, 1, taken[1])
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.alive[1] == 0 and sorted(hand(s, 3)) == sorted(taken)
    assert s.table[1, C.MUSTANG] == -1


def test_willy_the_kid_plays_any_number_of_bangs() -> None:
    s = table([C.WILLY_THE_KID, PLAIN, PLAIN, PLAIN])
    give(s, 0, card(C.BANG, "AS"), card(C.BANG, "QH"))
    E.apply_action(s.state, rng(), 0, card(C.BANG, "AS"), 1, -1)
    n = E.legal_actions(s.state, 0)
    assert any(C.CARD_KIND[s.acts[i, 0]] == C.BANG for i in range(n))
