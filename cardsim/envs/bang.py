"""Bang! as a PettingZoo AEC environment: ``cardsim.envs.bang_v0(players=5)``.

Agents ``player_0`` .. ``player_{P-1}`` are the seats (``player_0`` is the Sheriff, turn order
clockwise; the other roles are dealt at random, seed 003). Every decision of every seat is an
agent's (the seven decisions of :mod:`cardsim.sims.bang.strategy`: plays, discards, General
Store picks and the characters' choices); responses are automatic, as for the built-in bots.
The game is the compiled engine's (:mod:`cardsim.sims.bang.engine`, every seat a user seat):
it runs in a thread of its own and waits at each decision for the agent's action, so a deal
and play seed give the batch kernel's game. ``reset(seed=s)`` derives the deal and play seeds
from ``s`` (from the environment's own generator when ``s`` is None).

Actions are factored (``Discrete(N_ACTIONS)``, 116 actions): a choice is made in one to
three steps of the same agent, each a token, and the ``action_mask`` holds the tokens that can
follow the ones already given. Tokens: ``A_END`` ends the play phase, ``A_SID`` is Sid
Ketchum's ability, ``A_CARD + card`` names a card (0-79: the card played, discarded, picked,
returned, or one of Sid's two discards), ``A_TARGET + seat + 1`` a seat (0: no target; for
Jesse Jones, 0 is the deck) and ``A_SLOT + slot`` the card taken from the target (Panic!/Cat
Balou: the card in play of kind ``slot - 1``; 0: a blind hand card or none); ``A_PEDRO + take``
Pedro Ramirez's choice. A play is card, target, slot; Sid's discard two cards; the other
decisions one token. Once the tokens given leave one legal choice it is made at once (no
needless steps). :meth:`raw_env.actions_of` gives a choice's tokens. The observation is a
dict: ``action_mask`` (the legal next tokens of the agent to move, all 0 for the others) and
``observation``, the public view the built-in bots read (:mod:`cardsim.sims.bang.view`, the bot
slot replaced by the decision code; hand card ids past the hand -1) followed by the turn, 1 if
the agent is to move and the tokens of the choice given so far (-1: none yet). With
``encoding="features"`` the observation is instead numbers in [0, 1] a learner can read
(:meth:`raw_env.feature_fields`): seats, roles, characters, the decision and the tokens given as
one-hot, its cards as a set over the 80 cards, cards in play as present/absent, counts over
their most. An agent not to move sees its view as of its last decision
(the engine builds a seat's view only when it decides). :meth:`raw_env.view` gives the
:class:`~cardsim.sims.bang.strategy.View` a user strategy receives and :meth:`raw_env.action_of`
turns a strategy's choice into an action.

Rewards: at the end 1 for each agent whose side won (seed 003's goals), 0 otherwise; ``infos``
then hold ``winner`` (``cards.SIDE_NAMES``), ``won`` and ``role``. A game reaching the
simulator's turn cap is won by nobody.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardsim.envs.common import SEED_LIMIT, CardEnv, Field, wrap
from cardsim.errors import UserError
from cardsim.sims.bang import engine
from cardsim.sims.bang import view as V
from cardsim.sims.bang.cards import (
    BOT_ROLE,
    BOT_USER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_CARDS,
    N_CHARACTERS,
    N_KINDS,
    ROLE_NAMES,
    ROLE_SIDE,
    SIDE_NAMES,
)
from cardsim.sims.bang.policies import SID_ABILITY
from cardsim.sims.bang.state import DEFAULT_PARAMS
from cardsim.sims.bang.strategy import (
    DECISIONS,
    END,
    MAX_TURNS,
    Play,
    View,
    build_view,
    card_kind,
    encode,
    legal_choices,
)
from cardsim.sims.bang.usercall import install
from cardsim.sims.bang.view import MAX_SEATS, V_BOT, VIEW_SIZE

N_TARGETS = MAX_SEATS + 1
N_SLOTS = N_KINDS + 1
A_END, A_SID = 0, 1
A_CARD = 2
A_TARGET = A_CARD + N_CARDS
A_SLOT = A_TARGET + N_TARGETS
A_PEDRO = A_SLOT + N_SLOTS
N_ACTIONS = A_PEDRO + 2
MAX_TOKENS = 3  # the longest choice: card, target, slot
OBS_TURN = VIEW_SIZE
OBS_MY_TURN = VIEW_SIZE + 1
OBS_PREFIX = VIEW_SIZE + 2
OBS_SIZE = OBS_PREFIX + MAX_TOKENS
OBS_HIGH = 100_000  # above any count in the view (attacks, turns)
#: the least value the view holds: -1 marks "none", and a player killed at 1 life by an
#: exploding Dynamite (3 life, seed 003) is left at 1 - 3 = -2 life
OBS_LOW = 1 - 3


def bang_v0(players: int = 5, render_mode: str | None = None, encoding: str = "raw") -> AECEnv:
    """The wrapped environment (illegal or out-of-range actions are refused, the AEC order is
    enforced); ``encoding="features"`` for observations a learner reads (see the module)."""
    return wrap(raw_env(players=players, render_mode=render_mode, encoding=encoding))


def actions_of(decision: str, choice: Any) -> tuple[int, ...]:
    """The tokens of a legal ``choice`` of ``decision`` (see the module docstring)."""
    if decision == "play":
        if choice == END:
            return (A_END,)
        if choice.card == SID_ABILITY:
            return (A_SID,)
        slot = card_kind(choice.which) + 1 if choice.which >= 0 else 0
        return (A_CARD + choice.card, A_TARGET + choice.target + 1, A_SLOT + slot)
    if decision in ("discard", "store_pick", "kit_return"):
        return (A_CARD + choice,)
    if decision == "sid_discard":
        return (A_CARD + choice[0], A_CARD + choice[1])
    if decision == "jesse_source":
        return (A_TARGET + choice + 1,)
    return (A_PEDRO + int(choice),)


class _Abort(Exception):
    """Raised in the game thread to stop a game the environment no longer plays."""


class _Game(threading.Thread):
    """One game of the compiled engine with every seat asking the environment: each decision
    is put on ``requests`` and waits for its answer on ``replies``."""

    def __init__(self, players: int, deal_seed: int, play_seed: int) -> None:
        super().__init__(daemon=True)
        self.players, self.deal_seed, self.play_seed = players, deal_seed, play_seed
        self.requests: queue.Queue[Any] = queue.Queue()
        self.replies: queue.Queue[Any] = queue.Queue()

    def run(self) -> None:
        install(self.handle)
        table = np.ascontiguousarray(DEFAULT_PARAMS, np.float64)
        bots = np.full(4, BOT_USER + BOT_ROLE, dtype=np.int64)
        try:
            result = engine.play_focus_games(
                1,
                self.players,
                bots,
                table,
                -1,
                0,
                table[0],
                MAX_TURNS,
                np.random.default_rng(self.deal_seed),
                np.random.default_rng(self.play_seed),
                False,
            )
        except _Abort:
            return
        except BaseException as exc:  # surfaces in the environment's thread
            self.requests.put(("error", exc))
            return
        self.requests.put(("over", result))

    def handle(self, decision: int, v: np.ndarray, extra: np.ndarray, turn: int) -> int:
        view = build_view(v, turn)
        legal = legal_choices(decision, view, extra)
        self.requests.put(("decide", decision, view, legal, v.copy(), turn))
        choice = self.replies.get()
        if choice is _Abort:
            raise _Abort
        return encode(decision, choice, legal)


class raw_env(CardEnv):  # noqa: N801 - PettingZoo's naming
    """Bang! for 4-7 agents, one per seat (see the module docstring)."""

    metadata = {"name": "bang_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, players: int = 5, render_mode: str | None = None, encoding: str = "raw") -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise UserError(f"bang_v0: players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {players!r}")
        self._setup(players, render_mode, spaces.Box(OBS_LOW, OBS_HIGH, (OBS_SIZE,), np.int64), N_ACTIONS, encoding)
        self._game: _Game | None = None
        self._seen: dict[str, np.ndarray] = {}
        self._views: dict[str, View] = {}
        self._decision = ""
        self._legal: dict[tuple[int, ...], Any] = {}  # tokens -> choice, of the decision
        self._prefix: tuple[int, ...] = ()  # the tokens given so far
        self._legal_choices: tuple[Any, ...] = ()
        self.deal_seed = self.play_seed = 0

    def feature_fields(self) -> list[Field]:
        """The features of ``encoding="features"`` (see the module docstring)."""
        seats, kinds = MAX_SEATS, N_KINDS
        return [
            Field("seat", V.V_SEAT, 1, "onehot", seats),
            Field("players", V.V_PLAYERS, 1, "onehot", seats + 1),
            Field("players alive / 7", V.V_ALIVE_N, 1, "scale", seats),
            Field("outlaws alive / 3", V.V_OUTLAWS, 1, "scale", 3),
            Field("foes alive / 4", V.V_FOES, 1, "scale", 4),
            Field("may play a BANG!", V.V_MAY_BANG, 1, "scale", 1),
            Field("discard pile top", V.V_DISCARD_TOP, 1, "onehot", N_CARDS + 1, -1),
            Field("reach / 5", V.V_REACH, 1, "scale", 5),
            Field("hand size / 10", V.V_HAND_N, 1, "scale", 10),
            Field("the Sheriff's seat", V.V_SHERIFF, 1, "onehot", seats),
            Field("its role", V.V_MY_ROLE, 1, "onehot", len(ROLE_NAMES)),
            Field("decision", V_BOT, 1, "onehot", len(DECISIONS)),
            Field("roles shown", V.V_ROLE, seats, "onehot", len(ROLE_NAMES) + 1, -1),
            Field("characters", V.V_CHAR, seats, "onehot", N_CHARACTERS + 1, -1),
            Field("life / 5", V.V_LIFE, seats, "scale", 5),
            Field("most life / 5", V.V_MAX_LIFE, seats, "scale", 5),
            Field("alive", V.V_ALIVE, seats, "scale", 1),
            Field("hand sizes / 10", V.V_HAND_COUNT, seats, "scale", 10),
            Field("distances / 7", V.V_DIST, seats, "scale", seats),
            Field("cards in play / 6", V.V_TABLE_N, seats, "scale", 6),
            Field("cards in play by seat and kind", V.V_TABLE, seats * kinds, "present"),
            Field("attacks by seat on seat / 10", V.V_ATTACKS, seats * seats, "scale", 10),
            Field("its cards by kind / 5", V.V_MY_KINDS, kinds, "scale", 5),
            Field("its cards", V.V_MY_CARDS, N_CARDS, "multihot", N_CARDS),
            Field("turn / turn cap", OBS_TURN, 1, "scale", MAX_TURNS),
            Field("its turn", OBS_MY_TURN, 1, "scale", 1),
            Field("tokens given", OBS_PREFIX, MAX_TOKENS, "onehot", N_ACTIONS + 1, -1),
        ]

    # -- the public view ---------------------------------------------------------------
    def view(self, agent: str) -> View:
        """The agent's view as a user strategy receives it (its latest decision's)."""
        if agent not in self._views:
            raise RuntimeError(f"{agent} has not been asked a decision yet")
        return self._views[agent]

    @property
    def decision(self) -> str:
        """The decision the agent to move makes (a name of ``strategy.DECISIONS``)."""
        return self._decision

    def legal_choices(self) -> tuple[Any, ...]:
        """The mover's legal choices in the strategy interface's form."""
        return self._legal_choices

    def actions_of(self, choice: Any) -> tuple[int, ...]:
        """The tokens of a strategy's choice for the agent to move still to give (all of them
        before the first)."""
        return actions_of(self._decision, choice)[len(self._prefix) :]

    def action_of(self, choice: Any) -> int:
        """The next token of a strategy's choice for the agent to move."""
        return self.actions_of(choice)[0]

    @property
    def prefix(self) -> tuple[int, ...]:
        """The tokens the agent to move has given of its choice so far."""
        return self._prefix

    def _next_tokens(self) -> set[int]:
        depth = len(self._prefix)
        return {tokens[depth] for tokens in self._legal if len(tokens) > depth and tokens[:depth] == self._prefix}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self._seen.get(agent)
        obs = np.zeros(OBS_SIZE, np.int64) if obs is None else obs.copy()
        mask = np.zeros(N_ACTIONS, np.int8)
        mine = agent == self.agent_selection and bool(self._legal) and not self.terminations.get(agent)
        obs[OBS_PREFIX:] = -1
        if mine:
            mask[list(self._next_tokens())] = 1
            obs[OBS_PREFIX : OBS_PREFIX + len(self._prefix)] = self._prefix
        obs[OBS_MY_TURN] = int(mine)
        return {"observation": obs, "action_mask": mask}

    # -- playing ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.close()
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.deal_seed, self.play_seed = (int(x) for x in self._np_random.integers(0, SEED_LIMIT, 2))
        self._new_episode()
        self._seen, self._views = {}, {}
        self.agent_selection = self.possible_agents[0]
        self._game = _Game(self.players, self.deal_seed, self.play_seed)
        self._game.start()
        self._next()

    def _next(self) -> None:
        """Wait for the game's next decision (or its end) and set up the agent to move."""
        assert self._game is not None
        message = self._game.requests.get()
        self._legal, self._legal_choices, self._decision, self._prefix = {}, (), "", ()
        if message[0] == "error":
            self._game = None
            raise message[1]
        if message[0] == "over":
            self._game = None
            self._finish(message[1])
            return
        _, decision, view, legal, v, turn = message
        agent = self.possible_agents[view.seat]
        self._decision = DECISIONS[decision]
        self._legal_choices = legal
        self._legal = {actions_of(self._decision, choice): choice for choice in legal}
        obs = np.zeros(OBS_SIZE, np.int64)
        obs[:VIEW_SIZE] = v
        obs[V.V_MY_CARDS + int(v[V.V_HAND_N]) : VIEW_SIZE] = -1  # past the hand: no card
        obs[V_BOT] = decision
        obs[OBS_TURN] = turn
        self._seen[agent] = obs
        self._views[agent] = view
        self.agent_selection = agent

    def _finish(self, result: tuple[np.ndarray, ...]) -> None:
        winner = int(result[0][0])
        for agent in self.agents:
            role = int(result[2][0, self.agent_seat[agent]])
            won = bool(ROLE_SIDE[role] == winner)
            self.rewards[agent] = 1.0 if won else 0.0
            self.terminations[agent] = True
            self.infos[agent] = {"winner": SIDE_NAMES[winner], "won": won, "role": ROLE_NAMES[role]}
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self._acting_agent(action)
        if agent is None or action is None:
            return
        if int(action) not in self._next_tokens():
            raise ValueError(f"action {action} is not legal for {agent} now (see the observation's action_mask)")
        assert self._game is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: 0.0 for name in self.agents}
        self._prefix += (int(action),)
        depth = len(self._prefix)
        left = [tokens for tokens in self._legal if tokens[:depth] == self._prefix]
        if len(left) == 1:  # the tokens given leave one choice: it is made
            self._game.replies.put(self._legal[left[0]])
            self._next()
        self._end_step()

    def render(self) -> str | None:
        if self.render_mode is None or not self._decision:
            return None
        view = self._views[self.agent_selection]
        text = (
            f"turn {view.turn}: {self.agent_selection} ({ROLE_NAMES[view.role]}) decides "
            f"{self._decision}; life {list(view.life)}, hand {list(view.hand)}"
        )
        return self._show(text)

    def close(self) -> None:
        """Stop a game still running (its thread ends at the decision it waits on)."""
        game, self._game = self._game, None
        if game is not None and game.is_alive():
            game.replies.put(_Abort)
            game.join(timeout=10)


__all__ = ["bang_v0", "raw_env", "actions_of", "Play", "END", "N_ACTIONS"]
