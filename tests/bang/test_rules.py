"""Scenario tests with fixed cards: turn, draw! checks, distance, every card, elimination, end.

Seats: 0 Sheriff, then the default roles of ``scenario.table`` (4 players: 1 Renegade,
2 and 3 Outlaws; 5: +4 Deputy). Characters are chosen to have no effect unless tested:
Black Jack (1) only changes the draw phase, Willy the Kid only the BANG! limit, etc.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardsim.sims.bang import cards as C
from cardsim.sims.bang import engine as E
from tests.bang.scenario import (
    card,
    club,
    discard_pile,
    equip,
    give,
    hand,
    hand_kinds,
    heart,
    rng,
    spade_low,
    stack,
    table,
    top_discard,
)  # fmt: skip

# characters with no effect on the rule under test
PLAIN = C.VULTURE_SAM  # only acts on eliminations; use PLAIN2 when nobody must inherit
PLAIN2 = C.KIT_CARLSON  # only acts in his draw phase


def plain_table(n: int = 4, **kwargs) -> E.StateView:
    return table([PLAIN2] * n, **kwargs)


# ------------------------------------------------------------------------- turn structure


def test_turn_draws_two_then_discards_to_life() -> None:
    s = table([C.WILLY_THE_KID, PLAIN2, PLAIN2, PLAIN2])
    s.life[0] = 2
    give(s, 0, card(C.MISSED, "10C"), card(C.MISSED, "JC"))
    stack(s, card(C.MISSED, "QC"), card(C.MISSED, "KC"))
    E.take_turn(s.state, rng(), 0)
    assert E.hand_count(s.state, 0) == 2  # drew 2 (4 Missed!, not playable), hand limit = life 2
    assert s.g[E.G_DISCARD_N] == 2


def test_sheriff_starts_and_turns_go_clockwise_over_the_living() -> None:
    """The Sheriff (here at seat 2) plays first, then seats 3, 0, 1, ... clockwise; the dead
    seat 4 is skipped. Each turn draws two stacked Missed! (unplayable), so who holds which
    card tells the order of the turns."""
    s = table([C.WILLY_THE_KID] * 5, roles=[C.OUTLAW, C.RENEGADE, C.SHERIFF, C.OUTLAW, C.DEPUTY])
    s.alive[4] = 0
    s.life[4] = 0
    missed = [card(C.MISSED, skip=i) for i in range(12)]
    stack(s, *missed)
    s.g[E.G_MAX_TURNS] = 6
    assert E.play_game(s.state, rng(), True) == 0
    assert s.g[E.G_TURNS] == 6 and s.g[E.G_WINNER] == C.SIDE_NONE
    order = [int(s.holder[missed[2 * i]]) for i in range(6)]
    assert order == [2, 3, 0, 1, 2, 3]
    assert all(s.holder[missed[2 * i + 1]] == order[i] for i in range(6))


def test_dynamite_is_checked_before_jail() -> None:
    s = plain_table()
    dynamite, jail = card(C.DYNAMITE), card(C.JAIL, "JS")
    equip(s, 1, dynamite, jail)
    first, second = club(), heart()  # club: Dynamite passes; heart: out of Jail
    stack(s, first, second)
    E.take_turn(s.state, rng(), 1)
    assert s.table[2, C.DYNAMITE] == dynamite  # passed to the left
    assert s.table[1, C.JAIL] == -1
    assert list(s.discard[:3]) == [first, second, jail]
    assert s.life[1] == 4


def test_dynamite_explodes_on_spades_two_to_nine() -> None:
    s = plain_table()
    equip(s, 2, card(C.DYNAMITE))
    stack(s, spade_low())
    E.take_turn(s.state, rng(), 2)
    assert s.life[2] == 1
    assert s.table[2, C.DYNAMITE] == -1 and s.table[3, C.DYNAMITE] == -1
    assert C.CARD_KIND[s.discard[1]] == C.DYNAMITE


def test_dynamite_passes_on_ace_of_spades_and_other_suits() -> None:
    for flip in (card(C.SCOPE, "AS"), card(C.BANG, "9D"), card(C.VOLCANIC, "10S")):
        s = plain_table()
        equip(s, 3, card(C.DYNAMITE))
        stack(s, flip)
        E.resolve_dynamite(s.state, rng(), 3)
        assert s.table[0, C.DYNAMITE] >= 0 and s.life[3] == 4


def _card_coded(code: str) -> int:
    """The first card of the deck with this rank+suit code, whatever its name."""
    for c in range(C.N_CARDS):
        if (int(C.CARD_RANK[c]), int(C.CARD_SUIT[c])) == C.parse_card_code(code):
            return c
    raise KeyError(code)


@pytest.mark.parametrize("code", ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"])
def test_dynamite_explodes_on_every_spade_two_to_nine(code: str) -> None:
    s = plain_table()
    dyn = card(C.DYNAMITE)
    equip(s, 3, dyn)
    stack(s, _card_coded(code))
    E.resolve_dynamite(s.state, rng(), 3)
    assert s.life[3] == 1 and top_discard(s) == dyn and s.table[0, C.DYNAMITE] == -1


@pytest.mark.parametrize("code", ["10S", "JS", "QS", "2C", "3D", "4H", "5C", "6D", "7C", "8D", "9H", "9C", "8C"])
def test_dynamite_does_not_explode_on_ten_of_spades_or_other_suits(code: str) -> None:
    s = plain_table()
    dyn = card(C.DYNAMITE)
    equip(s, 3, dyn)
    stack(s, _card_coded(code))
    E.resolve_dynamite(s.state, rng(), 3)
    assert s.life[3] == 4 and s.table[0, C.DYNAMITE] == dyn


def test_dynamite_kill_gives_no_reward() -> None:
    s = table([PLAIN2] * 5)
    s.life[2] = 2
    equip(s, 2, card(C.DYNAMITE))
    stack(s, spade_low())
    E.take_turn(s.state, rng(), 2)
    assert s.alive[2] == 0 and s.killer[2] == -1
    assert sum(E.hand_count(s.state, p) for p in range(5)) == 0


def test_jail_heart_escapes_and_plays() -> None:
    s = plain_table()
    equip(s, 2, card(C.JAIL, "JS"))
    stack(s, heart(), club(), card(C.BANG, "3C"))
    E.take_turn(s.state, rng(), 2)
    assert s.table[2, C.JAIL] == -1
    assert E.hand_count(s.state, 2) == 2  # drew after escaping (the BANG!s may not reach a target)


def test_jail_other_suit_skips_the_turn() -> None:
    s = plain_table()
    equip(s, 2, card(C.JAIL, "JS"))
    stack(s, club())
    E.take_turn(s.state, rng(), 2)
    assert s.table[2, C.JAIL] == -1
    assert E.hand_count(s.state, 2) == 0


def test_jail_cannot_target_the_sheriff() -> None:
    s = plain_table()
    give(s, 1, card(C.JAIL, "JS"))
    n = E.legal_actions(s.state, 1)
    targets = {int(s.acts[i, 1]) for i in range(n)}
    assert targets == {2, 3}


def test_a_jailed_player_cannot_be_jailed_again() -> None:
    s = plain_table()
    equip(s, 2, card(C.JAIL, "10S"))
    give(s, 1, card(C.JAIL, "JS"))
    n = E.legal_actions(s.state, 1)
    assert {int(s.acts[i, 1]) for i in range(n)} == {3}  # seat 2 is already in Jail


# ------------------------------------------------------------------------- distance and reach


def test_distance_counts_living_players_only() -> None:
    s = table([PLAIN2] * 7)
    assert [E.distance(s.state, 0, t) for t in range(1, 7)] == [1, 2, 3, 3, 2, 1]
    s.alive[1] = s.alive[2] = 0
    assert [E.distance(s.state, 0, t) for t in range(3, 7)] == [1, 2, 2, 1]


def test_mustang_and_scope_change_distance() -> None:
    s = table([PLAIN2] * 7)
    equip(s, 3, card(C.MUSTANG, "8H"))
    assert E.distance(s.state, 0, 3) == 4 and E.distance(s.state, 3, 0) == 3
    equip(s, 0, card(C.SCOPE))
    assert E.distance(s.state, 0, 3) == 3 and E.distance(s.state, 0, 1) == 1  # never below 1


def test_weapon_reaches_up_to_its_range() -> None:
    s = table([PLAIN2] * 7)
    give(s, 0, card(C.BANG, "AS"))
    assert E.weapon_reach(s.state, 0) == 1
    equip(s, 0, card(C.SCHOFIELD, "JC"))
    n = E.legal_actions(s.state, 0)
    assert {int(s.acts[i, 1]) for i in range(n)} == {1, 2, 5, 6}  # distance 2 is in reach


# Two 7-player layouts seen from seat 0 (distances to seats 1..6): plain seats, and one with a
# Mustang on seat 3 and a Mustang + Paul Regret on seat 4. Together they put a target at every
# distance 1..5 (5 is the most the base game allows, so Winchester reaches everyone).
_PLAIN_DISTANCES = [1, 2, 3, 3, 2, 1]
_FAR_DISTANCES = [1, 2, 4, 5, 2, 1]


def _bang_targets(weapon: int, far: bool) -> set[int]:
    chars = [PLAIN2] * 7
    if far:
        chars[4] = C.PAUL_REGRET
    s = table(chars)
    if far:
        equip(s, 3, card(C.MUSTANG, "8H"))
        equip(s, 4, card(C.MUSTANG, "9H"))
    assert [E.distance(s.state, 0, t) for t in range(1, 7)] == (_FAR_DISTANCES if far else _PLAIN_DISTANCES)
    give(s, 0, card(C.BANG, "AS"))
    equip(s, 0, weapon)
    n = E.legal_actions(s.state, 0)
    return {int(s.acts[i, 1]) for i in range(n)}


@pytest.mark.parametrize(
    ("kind", "code", "reach"),
    [
        (C.VOLCANIC, "10S", 1),
        (C.SCHOFIELD, "JC", 2),
        (C.REMINGTON, "KC", 3),
        (C.CARABINE, "AC", 4),
        (C.WINCHESTER, "8S", 5),
    ],
)
def test_every_weapon_reaches_exactly_its_range(kind: int, code: str, reach: int) -> None:
    """A target at distance ``reach`` can be shot, one at ``reach + 1`` cannot."""
    for far, dists in ((False, _PLAIN_DISTANCES), (True, _FAR_DISTANCES)):
        expected = {seat for seat, d in enumerate(dists, start=1) if d <= reach}
        assert _bang_targets(card(kind, code), far) == expected
    reached = {d for dists in (_PLAIN_DISTANCES, _FAR_DISTANCES) for d in dists if d <= reach}
    assert max(reached) == reach  # the layouts do put a target at exactly the reach


def test_one_bang_per_turn() -> None:
    s = table([PLAIN2] * 4)
    give(s, 0, card(C.BANG, "AS"), card(C.BANG, "QH"))
    E.apply_action(s.state, rng(), 0, card(C.BANG, "AS"), 1, -1)
    n = E.legal_actions(s.state, 0)
    assert all(C.CARD_KIND[s.acts[i, 0]] != C.BANG for i in range(n))


def test_volcanic_allows_any_number_of_bangs() -> None:
    s = table([PLAIN2] * 4)
    give(s, 0, card(C.BANG, "AS"), card(C.BANG, "QH"))
    equip(s, 0, card(C.VOLCANIC, "10S"))
    E.apply_action(s.state, rng(), 0, card(C.BANG, "AS"), 1, -1)
    n = E.legal_actions(s.state, 0)
    assert any(C.CARD_KIND[s.acts[i, 0]] == C.BANG for i in range(n))
    assert E.weapon_reach(s.state, 0) == 1


def test_new_weapon_replaces_the_old_one() -> None:
    s = plain_table()
    old, new = card(C.SCHOFIELD, "JC"), card(C.WINCHESTER)
    equip(s, 0, old)
    give(s, 0, new)
    E.apply_action(s.state, rng(), 0, new, -1, -1)
    assert s.table[0, C.WINCHESTER] == new and s.table[0, C.SCHOFIELD] == -1
    assert top_discard(s) == old
    assert E.weapon_reach(s.state, 0) == 5


def test_no_two_cards_of_one_name_in_play() -> None:
    s = plain_table()
    equip(s, 0, card(C.BARREL, "QS"), card(C.SCHOFIELD, "JC"))
    give(s, 0, card(C.BARREL, "KS"), card(C.SCHOFIELD, "QC"), card(C.MUSTANG, "8H"))
    n = E.legal_actions(s.state, 0)
    assert {int(C.CARD_KIND[s.acts[i, 0]]) for i in range(n)} == {C.MUSTANG}


# ------------------------------------------------------------------------- brown cards


def test_bang_is_cancelled_by_missed() -> None:
    s = plain_table()
    give(s, 1, card(C.MISSED, "10C"))
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 4 and E.hand_count(s.state, 1) == 0


def test_bang_without_missed_costs_one_life() -> None:
    s = plain_table()
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 3
    assert s.g[E.G_BANGS] == 1


def test_barrel_heart_dodges_other_suit_does_not() -> None:
    s = plain_table()
    equip(s, 1, card(C.BARREL, "QS"))
    stack(s, heart(), club())
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.life[1] == 4
    E.play_bang(s.state, rng(), 0, card(C.BANG, "QH"), 1)
    assert s.life[1] == 3


def test_beer_heals_one_never_above_max() -> None:
    s = plain_table()
    s.life[1] = 2
    E.play_beer(s.state, 1, card(C.BEER, "6H"))
    assert s.life[1] == 3
    s.life[1] = 4
    give(s, 1, card(C.BEER, "7H"))
    assert E.legal_actions(s.state, 1) == 0  # no use at full life


def test_beer_has_no_effect_with_two_players_left() -> None:
    s = plain_table()
    s.alive[2] = s.alive[3] = 0
    s.life[1] = 2
    E.play_beer(s.state, 1, card(C.BEER, "6H"))
    assert s.life[1] == 2


def test_beer_saves_from_death_out_of_turn() -> None:
    s = plain_table()
    s.life[2] = 1
    give(s, 2, card(C.BEER, "6H"))
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 2)
    assert s.alive[2] == 1 and s.life[2] == 1 and E.hand_count(s.state, 2) == 0


def test_beer_cannot_save_with_two_players_left() -> None:
    s = plain_table()
    s.alive[2] = 0
    s.alive[3] = 0
    s.life[1] = 1
    give(s, 1, card(C.BEER, "6H"))
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 1)
    assert s.alive[1] == 0


def test_panic_takes_a_card_at_distance_one_only() -> None:
    s = table([PLAIN2] * 5)
    panic = card(C.PANIC, "JH")
    give(s, 0, panic)
    barrel = card(C.BARREL, "QS")
    equip(s, 1, barrel)
    give(s, 2, card(C.MISSED, "10C"))
    n = E.legal_actions(s.state, 0)
    assert {int(s.acts[i, 1]) for i in range(n)} == {1}  # seat 2 is at distance 2
    E.play_panic(s.state, rng(), 0, panic, 1, barrel)
    assert hand(s, 0) == [barrel] and s.table[1, C.BARREL] == -1


def test_panic_blind_hand_card() -> None:
    s = plain_table()
    missed = card(C.MISSED, "10C")
    give(s, 1, missed)
    E.play_panic(s.state, rng(), 0, card(C.PANIC, "JH"), 1, -1)
    assert hand(s, 0) == [missed]


def test_cat_balou_any_distance_discards() -> None:
    s = table([PLAIN2] * 7)
    cat = card(C.CAT_BALOU, "KH")
    give(s, 0, cat)
    mustang = card(C.MUSTANG, "8H")
    equip(s, 3, mustang)
    n = E.legal_actions(s.state, 0)
    assert {int(s.acts[i, 1]) for i in range(n)} == {3}  # only seat 3 has a card
    E.play_cat_balou(s.state, rng(), 0, cat, 3, mustang)
    assert top_discard(s) == mustang and s.table[3, C.MUSTANG] == -1


def test_duel_alternates_and_first_without_bang_loses() -> None:
    s = plain_table()
    give(s, 0, card(C.BANG, "AS"))
    give(s, 2, card(C.BANG, "QH"), card(C.BANG, "KH"))
    E.play_duel(s.state, rng(), 0, card(C.DUEL, "QD"), 2)
    # 2 discards, 0 discards, 2 discards, 0 has none -> 0 loses
    assert s.life[0] == 4 and s.life[2] == 4
    assert E.hand_count(s.state, 0) == 0 and E.hand_count(s.state, 2) == 0
    s2 = plain_table()
    E.play_duel(s2.state, rng(), 0, card(C.DUEL, "QD"), 2)
    assert s2.life[2] == 3 and s2.g[E.G_BANGS] == 0


def test_general_store_reveals_one_per_player_each_takes_one() -> None:
    s = plain_table(bots=[C.BOT_ROLE] * 4)
    shown = [card(C.BEER, "6H"), card(C.MISSED, "10C"), card(C.DYNAMITE), card(C.BANG, "2C")]
    stack(s, *shown)
    s.alive[3] = 0
    E.play_general_store(s.state, rng(), 1, card(C.GENERAL_STORE, "9C"))
    # 3 living players: 3 cards shown; seat 1 picks first (Missed! worth most), then 2, then 0
    assert hand(s, 1) == [shown[1]]
    assert hand(s, 2) == [shown[0]]
    assert hand(s, 0) == [shown[2]]
    assert s.zone[shown[3]] == E.Z_DECK


def test_gatling_shoots_everyone_else() -> None:
    s = plain_table()
    give(s, 2, card(C.MISSED, "10C"))
    E.play_gatling(s.state, rng(), 1, card(C.GATLING))
    assert list(s.life[:4]) == [4, 4, 4, 3]
    assert s.g[E.G_BANGS] == 0


def test_indians_discard_bang_or_lose_life() -> None:
    s = plain_table()
    give(s, 0, card(C.BANG, "AS"))
    give(s, 2, card(C.MISSED, "10C"))
    E.play_indians(s.state, rng(), 1, card(C.INDIANS, "KD"))
    assert list(s.life[:4]) == [5, 4, 3, 3]
    assert E.hand_count(s.state, 0) == 0 and E.hand_count(s.state, 2) == 1


def test_saloon_heals_every_living_player() -> None:
    s = plain_table()
    s.life[:4] = [5, 1, 4, 2]
    s.alive[3] = 0
    s.life[3] = 0
    E.play_saloon(s.state, card(C.SALOON))
    assert list(s.life[:4]) == [5, 2, 4, 0]


def test_stagecoach_draws_two_wells_fargo_three() -> None:
    s = plain_table()
    E.play_stagecoach(s.state, rng(), 1, card(C.STAGECOACH, "9S"))
    assert E.hand_count(s.state, 1) == 2
    E.play_wells_fargo(s.state, rng(), 1, card(C.WELLS_FARGO))
    assert E.hand_count(s.state, 1) == 5


def test_jail_goes_in_front_of_the_target() -> None:
    s = plain_table()
    jail = card(C.JAIL, "JS")
    give(s, 1, jail)
    E.apply_action(s.state, rng(), 1, jail, 3, -1)
    assert s.table[3, C.JAIL] == jail and s.holder[jail] == 3


def test_dynamite_goes_in_front_of_its_player() -> None:
    s = plain_table()
    dyn = card(C.DYNAMITE)
    give(s, 2, dyn)
    E.apply_action(s.state, rng(), 2, dyn, -1, -1)
    assert s.table[2, C.DYNAMITE] == dyn


# ------------------------------------------------------------------------- elimination


def test_killing_an_outlaw_draws_three_even_for_an_outlaw() -> None:
    s = table([PLAIN2] * 5)
    s.life[3] = 1
    s.g[E.G_TURNS] = 7
    E.play_bang(s.state, rng(), 2, card(C.BANG, "AS"), 3)  # outlaw kills outlaw
    assert s.alive[3] == 0 and E.hand_count(s.state, 2) == 3
    assert s.revealed[3] == 1
    assert (s.killer[3], s.out_turn[3]) == (2, 7)  # recorded for the episode table


def test_sheriff_killing_a_deputy_discards_all_his_cards() -> None:
    s = table([PLAIN2] * 5)
    s.life[4] = 1
    give(s, 0, card(C.MISSED, "10C"), card(C.BEER, "6H"))
    equip(s, 0, card(C.BARREL, "QS"))
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 4)
    assert s.alive[4] == 0 and s.g[E.G_WINNER] == -1
    assert E.hand_count(s.state, 0) == 0 and E.table_count(s.state, 0) == 0
    assert s.g[E.G_DISCARD_N] == 4  # the BANG! and his three cards


def test_deputy_killed_by_other_player_no_penalty() -> None:
    """An Outlaw or the Renegade who kills a Deputy keeps every card (hand and in play)."""
    for killer in (3, 1):  # 5 players: 0 S, 1 R, 2 O, 3 O, 4 D
        s = table([PLAIN2] * 5)
        s.life[4] = 1
        kept = [card(C.MISSED, "10C"), card(C.BEER, "6H")]
        give(s, killer, *kept)
        barrel = card(C.BARREL, "QS")
        equip(s, killer, barrel)
        give(s, 0, card(C.MISSED, "JC"))
        E.play_bang(s.state, rng(), killer, card(C.BANG, "AS"), 4)
        assert s.alive[4] == 0 and s.g[E.G_WINNER] == -1
        assert sorted(hand(s, killer)) == sorted(kept) and s.table[killer, C.BARREL] == barrel
        assert E.hand_count(s.state, 0) == 1


def test_eliminated_player_discards_hand_and_play() -> None:
    s = plain_table()
    s.life[1] = 1
    give(s, 1, card(C.MISSED, "10C"))
    equip(s, 1, card(C.MUSTANG, "8H"))
    E.lose_life(s.state, rng(), 1, 1, 0)
    assert s.alive[1] == 0 and s.g[E.G_DISCARD_N] == 2


# ------------------------------------------------------------------------- end of the game


def _kill(s: E.StateView, *seats: int) -> None:
    for p in seats:
        s.life[p] = 1
        E.lose_life(s.state, rng(), p, 1, -1)


def test_sheriff_dead_outlaws_win_even_if_dead() -> None:
    s = table([PLAIN2] * 5)  # 0 S, 1 R, 2 O, 3 O, 4 D
    _kill(s, 2, 3)
    assert s.g[E.G_WINNER] == -1
    _kill(s, 0)
    assert s.g[E.G_WINNER] == C.SIDE_OUTLAWS  # a Deputy and the Renegade still alive


def test_renegade_wins_only_as_last_one_alive() -> None:
    s = plain_table()  # 0 S, 1 R, 2 O, 3 O
    _kill(s, 2, 3)
    assert s.g[E.G_WINNER] == -1  # Outlaws dead, Renegade alive: play on
    _kill(s, 0)
    assert s.g[E.G_WINNER] == C.SIDE_RENEGADE


def test_renegade_not_alone_when_sheriff_dies_outlaws_win() -> None:
    s = plain_table()
    _kill(s, 2, 0)
    assert s.g[E.G_WINNER] == C.SIDE_OUTLAWS


def test_law_wins_when_outlaws_and_renegade_dead() -> None:
    s = table([PLAIN2] * 7)  # 0 S, 1 R, 2-4 O, 5-6 D
    _kill(s, 1, 2, 3, 5)
    assert s.g[E.G_WINNER] == -1
    _kill(s, 4)
    assert s.g[E.G_WINNER] == C.SIDE_LAW


def test_game_over_stops_rewards() -> None:
    s = plain_table()
    _kill(s, 1, 2)
    s.life[3] = 1
    E.play_bang(s.state, rng(), 0, card(C.BANG, "AS"), 3)
    assert s.g[E.G_WINNER] == C.SIDE_LAW and E.hand_count(s.state, 0) == 0


def test_turn_cap_gives_no_winner() -> None:
    """A cap of one turn ends the game after the Sheriff's turn with no winner (for these
    seeds nobody is eliminated in that turn, so no side has won)."""
    for seed in range(5):
        s = E.StateView(E.setup_game(4, np.array([1, 1, 1, 1]), E.DEFAULT_PARAMS, 1000, np.random.default_rng(seed)))
        s.g[E.G_MAX_TURNS] = 1
        assert E.play_game(s.state, np.random.default_rng(seed), True) == 0
        assert s.g[E.G_WINNER] == C.SIDE_NONE and s.g[E.G_TURNS] == 1
        assert s.alive[:4].all()


# ------------------------------------------------------------------------- discard pile refill


def test_empty_draw_pile_is_rebuilt_from_discards() -> None:
    s = plain_table()
    ids = [int(c) for c in s.deck[: s.g[E.G_DECK_N]]]
    give(s, 3, *ids[:78])
    discard_pile(s, ids[78])
    assert s.g[E.G_DECK_N] == 1
    E.draw_to_hand(s.state, rng(), 1, 2)
    assert E.hand_count(s.state, 1) == 2 and s.g[E.G_DECK_N] == 0 and s.g[E.G_RESHUFFLES] == 1
    assert hand_kinds(s, 1) == sorted(int(C.CARD_KIND[c]) for c in ids[78:])
