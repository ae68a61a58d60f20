"""What a Bang! bot may see: the layout of the public view a policy receives.

The engine (:func:`cardsim.sims.bang.engine.public_view`) fills one int64 array per decision
with the public record and the deciding player's own hand; the policies
(:mod:`cardsim.sims.bang.policies`) read nothing else. Public (seed 003 and the published
rules): the Sheriff's role, every dead player's role, role counts per player count, life
points, cards in play, hand sizes, the top of the discard pile, and every card played (who
attacked whom). Hidden: the other players' hands and roles, and the draw pile's order.

Plain integer offsets only (no compiled code), so editing this file never leaves a stale
numba cache behind (``engine`` drops its cache when this file changes, see there).
"""

from __future__ import annotations

from cardsim.sims.bang.cards import N_CARDS, N_KINDS

MAX_SEATS = 7

# scalars
V_SEAT = 0  # the deciding player
V_PLAYERS = 1  # seats at the table
V_ALIVE_N = 2  # players alive
V_OUTLAWS = 3  # Outlaws alive (role counts minus the revealed dead)
V_FOES = 4  # Outlaws + Renegade alive (same)
V_MAY_BANG = 5  # 1 if the decider may still play a BANG! this turn
V_DISCARD_TOP = 6  # card on top of the discard pile, -1 if empty
V_REACH = 7  # the decider's weapon reach
V_HAND_N = 8  # cards in the decider's hand
V_SHERIFF = 9  # the Sheriff's seat
V_MY_ROLE = 10  # the decider's own role
V_BOT = 11  # the decider's bot kind
V_HEADER = 12
# per seat (MAX_SEATS each)
V_ROLE = V_HEADER  # role if public (the Sheriff, the dead, oneself), else -1
V_CHAR = V_ROLE + MAX_SEATS
V_LIFE = V_CHAR + MAX_SEATS
V_MAX_LIFE = V_LIFE + MAX_SEATS
V_ALIVE = V_MAX_LIFE + MAX_SEATS
V_HAND_COUNT = V_ALIVE + MAX_SEATS
V_DIST = V_HAND_COUNT + MAX_SEATS  # distance from the decider to the seat
V_TABLE_N = V_DIST + MAX_SEATS  # cards in play in front of the seat
V_TABLE = V_TABLE_N + MAX_SEATS  # [seat * N_KINDS + kind]: card in play, -1 if none
V_ATTACKS = V_TABLE + MAX_SEATS * N_KINDS  # [a * MAX_SEATS + t]: attacks a made on t (public)
V_MY_KINDS = V_ATTACKS + MAX_SEATS * MAX_SEATS  # cards of each kind in the decider's hand
V_MY_CARDS = V_MY_KINDS + N_KINDS  # the decider's hand, card ids ascending (V_HAND_N of them)
VIEW_SIZE = V_MY_CARDS + N_CARDS
