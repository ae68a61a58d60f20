"""Cash'n Guns's PettingZoo environment: PettingZoo's API test, the ``counter`` twin driving
every agent plays the kernel's games (so its win rate is the kernel's, inside its interval),
rewards add up to the final score, and the observations show only public information
(hidden-card swaps)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import cardsim.envs  # noqa: E402
from cardsim.errors import UserError  # noqa: E402
from cardsim.sims.cashnguns.rules import HAND_COUNTS, NOTES_PER_ROUND, UNIT_DOLLARS  # noqa: E402
from cardsim.sims.cashnguns.simulator import play_lineups, strategy_rows  # noqa: E402
from cardsim.sims.cashnguns.strategies import parse_strategy  # noqa: E402
from cardsim.sims.core.user_strategy import load_strategy  # noqa: E402
from cardsim.stats import wilson_interval  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "strategies"
COUNTER = f"{EXAMPLES / 'cashnguns_counter.py'}:Counter"


@pytest.mark.parametrize("players", [4, 5, 6])
def test_pettingzoo_api_test_passes(players):
    from pettingzoo.test import api_test

    api_test(cardsim.envs.cashnguns_v0(players=players), num_cycles=300)


def play_through_env(env, twin, seed: int, steps: int | None = None) -> tuple[dict, dict]:
    """One game of ``twin`` at every seat through the environment (``steps``: stop after that
    many decisions): every agent's last info and return."""
    env.reset(seed=seed)
    game = env.unwrapped
    returns = dict.fromkeys(game.possible_agents, 0.0)
    infos: dict = {}
    decided = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        returns[agent] += reward
        if termination or truncation:
            infos[agent] = info
            env.step(None)
            continue
        if decided == steps:
            break
        decision = game.decision()
        choice = getattr(twin, decision)(game.view(agent), game.legal_choices())
        action = game.action_of(choice)
        assert observation["action_mask"][action] == 1
        assert observation["observation"][game.layout["decision"][0] + ("aim", "card", "lie_down").index(decision)] == 1
        env.step(action)
        decided += 1
    return infos, returns


def test_the_counter_twin_through_the_env_plays_the_kernels_games():
    """1,000 games at 5 players, ``counter`` in every seat: the kernel's win rate of slot 0
    with its Wilson interval, and the twin's through the environment inside it (in fact the
    same games: every slot's money and win); every return is the final score in $1,000s."""
    players, n = 5, 1_000
    env = cardsim.envs.cashnguns_v0(players=players)
    twin = load_strategy(COUNTER)
    seeds = np.random.default_rng(33).integers(0, 2**63, n).astype(np.uint64)
    raw = play_lineups(seeds, np.zeros((n, players), np.int64), strategy_rows([parse_strategy("counter")]), -5000)
    money, winner = raw[0], raw[4]
    env_wins = []
    for game, seed in enumerate(seeds):
        infos, returns = play_through_env(env, twin, int(seed))
        slots = [infos[f"player_{slot}"] for slot in range(players)]
        assert [info["money"] for info in slots] == (money[game] * UNIT_DOLLARS).tolist()
        assert [info["winner"] for info in slots] == winner[game].tolist()
        assert [returns[f"player_{slot}"] for slot in range(players)] == pytest.approx(
            [info["score"] / 1000 for info in slots]
        )
        env_wins.append(slots[0]["winner"])
    wins = int(winner[:, 0].sum())
    (lo,), (hi,) = wilson_interval([wins], [n])
    assert 0 < wins < n and lo <= np.mean(env_wins) <= hi


class Reckless:
    """Random legal choices from each decision's ``u`` (so the game replays from its seed):
    many Bangs, few lie-downs, and so many deaths."""

    def aim(self, view, legal):
        return legal[int(view.u * len(legal))]

    def card(self, view, legal):
        return legal[int(view.u * len(legal))]

    def lie_down(self, view, legal):
        return view.u < 0.2


def test_the_env_plays_as_the_strategy_engine_with_deaths():
    """200 games of :class:`Reckless` at every seat, 4 to 6 players: the environment and
    :func:`~cardsim.sims.cashnguns.strategy.play_game` (itself tested against the kernel) end
    every game alike, slot by slot, including eliminations."""
    from cardsim.sims.cashnguns.strategy import Seat, play_game

    reckless = Reckless()
    deaths = 0
    for game in range(200):
        players = 4 + game % 3
        env = cardsim.envs.cashnguns_v0(players=players, shame_value=5000 if game % 2 else -5000)
        infos, returns = play_through_env(env, reckless, 1000 + game)
        engine = play_game(1000 + game, [Seat(reckless, "Reckless")] * players, env.unwrapped.shame_value)
        slots = [infos[f"player_{slot}"] for slot in range(players)]
        for key in ("money", "wounds", "shame", "alive", "winner", "score"):
            assert [info[key] for info in slots] == engine[key], (game, key)
        deaths += players - sum(engine["alive"])
    assert deaths > 100


def test_the_win_reward_pays_the_winners_once():
    env = cardsim.envs.cashnguns_v0(players=4, reward="win")
    twin = load_strategy(COUNTER)
    for seed in range(20):
        infos, returns = play_through_env(env, twin, seed)
        assert returns == {agent: float(info["winner"]) for agent, info in infos.items()}


def test_the_eliminated_are_terminated_when_they_die():
    """A game with a death (random legal actions): the dead agent leaves with score 0 before
    the game ends, its return the loss of what it had."""
    env = cardsim.envs.cashnguns_v0(players=6)
    rng = np.random.default_rng(0)
    for seed in range(50):
        env.reset(seed=seed)
        game = env.unwrapped
        returns = dict.fromkeys(game.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, termination, _, info = env.last()
            returns[agent] += reward
            if termination:
                if not game.table.over:
                    assert info["alive"] is False and info["score"] == 0 and info["winner"] is False
                    assert returns[agent] == 0.0
                    env.step(None)
                    assert agent not in game.agents and not game.table.over
                    return
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    pytest.fail("no death before the end in 50 games")


def redeal_hidden(table, me: int, rng: np.random.Generator) -> None:
    """Every card ``me`` cannot see dealt again: the other seats' hands and this round's
    unrevealed cards (from the cards each has not revealed), their secret aims (before the
    lying-down phase), and the order of the undrawn notes."""
    for seat in range(table.players):
        if seat == me or not table.alive[seat]:
            continue
        unseen = [k for k in range(3) for _ in range(HAND_COUNTS[k] - int(table.revealed[seat, k]))]
        carded = int(table.chosen[seat] == 2)
        cards = rng.permutation(unseen)[: int(table.hands[seat].sum()) + carded]
        table.hands[seat] = [int((cards[carded:] == k).sum()) for k in range(3)]
        if carded:
            table.bullets[seat] = int(cards[0])
        if table.chosen[seat] and not table.lie_phase():
            table.targets[seat] = int(rng.choice([s for s in range(table.players) if s != seat]))
    drawn = (table.round + 1) * NOTES_PER_ROUND
    table.deck[drawn:] = [int(k) for k in rng.permutation(table.deck[drawn:])]


def test_observations_do_not_change_when_hidden_cards_are_swapped():
    """From positions of real games (any round, any decision), everything an agent cannot see
    is dealt again (:func:`redeal_hidden`): its observation, mask and view stay the same.
    Changing its own hand does change them, so the check can fail."""
    import copy

    rng = np.random.default_rng(5)
    twin = load_strategy(COUNTER)
    checked = changed = 0
    for players in (4, 5, 6):
        env = cardsim.envs.cashnguns_v0(players=players)
        game = env.unwrapped
        for seed in range(10):
            play_through_env(env, twin, seed, steps=int(rng.integers(0, 60)))
            if game.table.over:
                continue
            for agent in game.agents:
                seat = game.seat(agent)
                before, view = env.observe(agent), game.view(agent)
                saved = game._table
                game._table = copy.deepcopy(saved)
                redeal_hidden(game.table, seat, rng)
                changed += not (
                    np.array_equal(saved.hands, game.table.hands) and np.array_equal(saved.deck, game.table.deck)
                )
                after = env.observe(agent)
                assert np.array_equal(before["observation"], after["observation"])
                assert np.array_equal(before["action_mask"], after["action_mask"])
                assert game.view(agent) == view
                hand = game.table.hands[seat]
                kind = int(np.flatnonzero(hand)[0])
                hand[kind] -= 1
                hand[(kind + 1) % 3] += 1
                assert not np.array_equal(before["observation"], env.observe(agent)["observation"])
                assert game.view(agent) != view
                game._table = saved
                checked += 1
    assert checked > 100 and changed > checked // 2


def test_the_observation_holds_the_view():
    """Field by field, the observation is the view a strategy receives (money in $1,000s)."""
    env = cardsim.envs.cashnguns_v0(players=5)
    play_through_env(env, load_strategy(COUNTER), 3, steps=37)
    game = env.unwrapped
    for agent in game.agents:
        view, obs = game.view(agent), env.observe(agent)["observation"]

        def field(name, obs=obs):
            at, length = game.layout[name]
            return obs[at : at + length].tolist()

        assert field("seat") == [view.seat] and field("round") == [view.round]
        assert field("hand") == list(view.hand) and field("my_target") == [view.target]
        assert field("money") == [m / 1000 for m in view.money] and field("wounds") == list(view.wounds)
        assert field("revealed") == [c for seat in view.revealed for c in seat]
        assert field("aims")[: 5 * view.round] == [a for row in view.aims for a in row]
        assert field("u") == pytest.approx([view.u])


def test_an_illegal_action_is_refused_and_bad_arguments_are_user_errors():
    env = cardsim.envs.cashnguns_v0(players=4)
    env.reset(seed=1)
    game = env.unwrapped
    with pytest.raises(ValueError, match="not legal"):
        env.step(game.seat(env.agent_selection))  # aiming at oneself
    with pytest.raises(ValueError, match="not legal"):
        env.step(4)  # a card while an aim is asked
    with pytest.raises(UserError, match="players must be 4-6"):
        cardsim.envs.cashnguns_v0(players=3)
    with pytest.raises(UserError, match="reward must be one of score, win"):
        cardsim.envs.cashnguns_v0(reward="money")


def test_render_shows_the_table():
    env = cardsim.envs.cashnguns_v0(players=4, render_mode="ansi")
    env.reset(seed=2)
    assert env.render().startswith("round 1, loot ")


class SearchTwin:
    """The search player in slot 0 and the counter twin elsewhere, through the environment."""

    def __init__(self, game) -> None:
        from cardsim.sims.cashnguns.search import SearchPlayer

        self.game = game
        self.search = SearchPlayer.from_spec("search:budget=8")
        self.counter = load_strategy(COUNTER)

    def _player(self, view):
        return self.search if int(self.game.table.slot_of_seat[view.seat]) == 0 else self.counter

    def aim(self, view, legal):
        return self._player(view).aim(view, legal)

    def card(self, view, legal):
        return self._player(view).card(view, legal)

    def lie_down(self, view, legal):
        return self._player(view).lie_down(view, legal)


def test_the_search_player_drives_an_agent_as_it_plays_in_the_engine():
    """``search`` in slot 0 through the environment plays the games the engine plays with the
    search row in slot 0 (the same seeds, every slot's money and win)."""
    players, n = 4, 3
    env = cardsim.envs.cashnguns_v0(players=players)
    twin = SearchTwin(env.unwrapped)
    seeds = np.random.default_rng(8).integers(0, 2**63, n).astype(np.uint64)
    rows = strategy_rows([parse_strategy("search:budget=8"), parse_strategy("counter")])
    lineups = np.array([[0] + [1] * (players - 1)] * n, np.int64)
    money, winner = (part for i, part in enumerate(play_lineups(seeds, lineups, rows, -5000)) if i in (0, 4))
    for game, seed in enumerate(seeds):
        infos, _ = play_through_env(env, twin, int(seed))
        slots = [infos[f"player_{slot}"] for slot in range(players)]
        assert [info["money"] for info in slots] == (money[game] * UNIT_DOLLARS).tolist()
        assert [info["winner"] for info in slots] == winner[game].tolist()
