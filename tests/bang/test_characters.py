"""The 16 characters' abilities, one scenario each (plus the contrast case where useful)."""

from __future__ import annotations

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from tests.bang.scenario import (
    card,
    club,
    discard_pile,
    equip,
    give,
    hand,
    heart,
    rng,
    spade_low,
    stack,
    table,
    top_discard,
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


def test_black_jack_draws_again_on_a_diamond_not_on_a_spade() -> None:
    s = table([PLAIN, C.BLACK_JACK, PLAIN, PLAIN])
    stack(s, club(), card(C.BANG, "2D"), card(C.BANG, "3C"))
    E.draw_phase(s.state, rng(), 1)
    assert E.hand_count(s.state, 1) == 3
    s = table([PLAIN, C.BLACK_JACK, PLAIN, PLAIN])
    stack(s, heart(), card(C.BARREL, "QS"), card(C.BANG, "3C"))
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


def test_calamity_janet_missed_as_bang_in_a_duel() -> None:
    s = table([PLAIN, C.CALAMITY_JANET, PLAIN, PLAIN])
    give(s, 1, card(C.MISSED, "10C"))
    give(s, 0, card(C.BANG, "AS"))
    E.play_duel(s.state, rng(), 0, card(C.DUEL, "QD"), 1)
    # Janet answers with her Missed!, the Sheriff with his BANG!, then Janet has nothing left
    assert s.life[1] == 3 and s.life[0] == 5
    assert E.hand_count(s.state, 0) == 0 and E.hand_count(s.state, 1) == 0
    s = table([PLAIN, C.CALAMITY_JANET, PLAIN, PLAIN])
    duel = card(C.DUEL, "QD")
    give(s, 1, card(C.MISSED, "10C"), duel)
    give(s, 2, card(C.BANG, "AS"))
    E.apply_action(s.state, rng(), 1, duel, 2, -1)
    # her own Duel: seat 2 discards his BANG!, she her Missed!, seat 2 has nothing left
    assert s.life[2] == 3 and s.life[1] == 4 and E.hand_count(s.state, 1) == 0


def test_calamity_janet_missed_as_bang_against_indians() -> None:
    s = table([PLAIN, C.CALAMITY_JANET, PLAIN, PLAIN])
    missed = card(C.MISSED, "10C")
    give(s, 1, missed)
    give(s, 3, card(C.MISSED, "JC"))
    E.play_indians(s.state, rng(), 0, card(C.INDIANS, "KD"))
    assert list(s.life[:4]) == [5, 4, 3, 3]  # only Janet's Missed! counts as a BANG!
    assert E.hand_count(s.state, 1) == 0 and top_discard(s) == missed


def test_el_gringo_takes_a_card_from_who_hurt_him() -> None:
    s = table([PLAIN, C.EL_GRINGO, PLAIN, PLAIN])
    loot = card(C.BEER, "6H")
    give(s, 0, loot)
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 2 and hand(s, 1) == [loot] and E.hand_count(s.state, 0) == 0


def test_el_gringo_losing_his_own_duel_takes_a_card_from_the_opponent() -> None:
    """Reading (seeds/bang.md): the life lost in a Duel is caused by the other duellist, even
    when El Gringo started it, so he takes a blind card from that player's hand."""
    s = table([PLAIN, PLAIN, C.EL_GRINGO, PLAIN])
    duel = card(C.DUEL, "QD")
    give(s, 2, duel)
    loot = card(C.BEER, "6H")
    give(s, 3, card(C.BANG, "AS"), loot)
    E.apply_action(s.state, rng(), 2, duel, 3, -1)
    # seat 3 discards his BANG!, El Gringo has none: he loses 1 and takes seat 3's Beer
    assert s.life[2] == 2 and hand(s, 2) == [loot] and E.hand_count(s.state, 3) == 0


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


def test_slab_gatling_is_stopped_by_one_missed() -> None:
    s = table([C.SLAB_THE_KILLER, PLAIN, PLAIN, PLAIN])
    give(s, 1, card(C.MISSED, "10C"))
    give(s, 2, card(C.MISSED, "JC"), card(C.MISSED, "QC"))
    E.play_gatling(s.state, rng(), 0, card(C.GATLING))
    assert list(s.life[:4]) == [5, 4, 4, 3]
    assert E.hand_count(s.state, 1) == 0 and E.hand_count(s.state, 2) == 1  # one Missed! each


def test_slab_duel_needs_one_bang_per_round() -> None:
    s = table([C.SLAB_THE_KILLER, PLAIN, PLAIN, PLAIN])
    give(s, 2, card(C.BANG, "QH"))
    E.play_duel(s.state, rng(), 0, card(C.DUEL, "QD"), 2)
    # seat 2's single BANG! answers Slab's Duel; Slab has none and loses
    assert s.life[0] == 4 and s.life[2] == 4 and E.hand_count(s.state, 2) == 0


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


def test_vulture_sam_sheriff_killing_a_deputy_takes_then_discards_everything() -> None:
    """Reading (seeds/bang.md): Vulture Sam takes the dead Deputy's cards first; then, being
    the Sheriff, he discards all his cards, the inherited ones included."""
    s = table([C.VULTURE_SAM] + [PLAIN] * 4)  # 0 S, 1 R, 2 O, 3 O, 4 D
    s.life[4] = 1
    own_hand, own_table = card(C.MISSED, "10C"), card(C.BARREL, "QS")
    give(s, 0, own_hand)
    equip(s, 0, own_table)
    deputy = [card(C.PANIC, "JH"), card(C.MUSTANG, "8H")]
    give(s, 4, deputy[0])
    equip(s, 4, deputy[1])
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 4)
    assert s.alive[4] == 0 and s.g[E.G_WINNER] == -1
    assert E.hand_count(s.state, 0) == 0 and E.table_count(s.state, 0) == 0
    assert all(s.zone[c] == E.Z_DISCARD for c in [own_hand, own_table, *deputy])


def test_willy_the_kid_plays_any_number_of_bangs() -> None:
    s = table([C.WILLY_THE_KID, PLAIN, PLAIN, PLAIN])
    give(s, 0, card(C.BANG, "AS"), card(C.BANG, "QH"))
    E.apply_action(s.state, rng(), 0, card(C.BANG, "AS"), 1, -1)
    n = E.legal_actions(s.state, 0)
    assert any(C.CARD_KIND[s.acts[i, 0]] == C.BANG for i in range(n))
