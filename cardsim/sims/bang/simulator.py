"""Bang! as the runner sees it: a frozen config, ``run_batch`` and ``SIMULATOR``.

One row per game: ``players``, ``winner`` (0 sheriff side, 1 outlaws, 2 renegade, 3 none: the
turn cap was hit), ``turns`` (player turns taken), headline ``sheriff_won``, and per seat
(seat 0 is the Sheriff, seats clockwise = turn order; -1 for unused seats) ``role_i``,
``char_i`` (character index in ``cards.CHARACTER_NAMES``), ``alive_i`` and ``life_i`` at the end,
``killer_i`` (seat that eliminated it; -1 if alive or killed by Dynamite) and ``out_turn_i`` (turn
of its elimination, 0 if alive) so later analysis can ask who killed whom and when.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from cardsim.errors import UserError
from cardsim.sims.bang import engine, tuned
from cardsim.sims.bang.cards import (
    BOT_DESCRIPTIONS,
    BOT_NAMES,
    BOT_SEARCH,
    BOT_USER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROLE_NAMES,
    SIDE_LAW,
)
from cardsim.sims.bang.policies import (
    P_OUTLAW_LONG,
    P_REN_BASE,
    P_REN_LAW_LIFE,
    P_REN_REVENGE,
    P_REN_RULES,
    P_REN_WILD,
    P_TRUST,
    P_WOUNDED,
    with_structure,
)
from cardsim.sims.core.simulator import Simulator

DEFAULT_MAX_TURNS = 1000


def is_file_spec(spec: object) -> bool:
    """Whether ``spec`` names a strategy written in Python (``FILE.py:NAME``)."""
    if not isinstance(spec, str):
        return False
    path, colon, name = spec.rpartition(":")
    return bool(colon) and path.endswith(".py") and name.isidentifier()


def file_digest(spec: str) -> str:
    """The name and SHA-256 of the file of ``FILE.py:NAME`` (an unreadable file is a
    :class:`UserError` naming the spec)."""
    path = spec.rpartition(":")[0]
    try:
        with open(path, "rb") as handle:
            content = handle.read()
    except OSError as exc:
        raise UserError(f"bang: strategy {spec}: cannot read {path} ({exc.strerror or exc})") from None
    return f"{spec.rpartition(':')[2]}:{hashlib.sha256(content).hexdigest()[:16]}"


INVARIANT_MESSAGES: dict[int, str] = {
    1: "cards not all accounted for",
    2: "draw/discard piles disagree with card zones",
    3: "cards in play inconsistent",
    4: "life out of range or a dead player holds cards",
    5: "winner inconsistent with who is alive",
    6: "hand counts out of step with the cards",
}


@dataclass(frozen=True)
class BangConfig:
    """One Bang! table: player count (4-7), the bot seated for each role, and a turn cap
    after which the game is recorded as won by nobody.

    A role's bot is a built-in name or a strategy written in Python (``FILE.py:NAME``, see
    :mod:`cardsim.sims.bang.strategy`): every seat of that role is then played by it, in a
    process of its own that sees a copy of the seat's view
    (:mod:`cardsim.sims.core.isolation`); the decisions it leaves out are ``fallback_bot``'s.
    Several roles may be played by files at one table."""

    players: int = 7
    sheriff_bot: str = "role"
    deputy_bot: str = "role"
    outlaw_bot: str = "role"
    renegade_bot: str = "role"
    max_turns: int = DEFAULT_MAX_TURNS
    #: digest of the trained parameters seated (filled in; empty without ``tuned`` bots), so a
    #: stored run never outlives the parameter file it was played with
    tuned_params: str = ""
    #: the built-in bot that makes the decisions a Python strategy leaves out
    fallback_bot: str = "tuned"
    #: the SHA-256 of each Python file seated (filled in), so a stored run never outlives the
    #: file it was played with
    files: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise UserError(
                f"bang: players must be {MIN_PLAYERS}-{MAX_PLAYERS} (roles exist only for "
                f"those counts), got {self.players!r}"
            )
        for role in ROLE_NAMES:
            bot = getattr(self, f"{role}_bot")
            if not isinstance(bot, str) or (bot not in BOT_NAMES and not is_file_spec(bot)):
                raise UserError(
                    f"bang: unknown bot {bot!r} for {role}; choose from: {', '.join(BOT_NAMES)} or FILE.py:NAME"
                )
        specs = self.file_specs()
        if self.fallback_bot not in BOT_NAMES or self.fallback_bot == BOT_NAMES[BOT_SEARCH]:
            raise UserError(
                f"bang: fallback bot must be one of {', '.join(b for b in BOT_NAMES if b != 'search')}, "
                f"got {self.fallback_bot!r}"
            )
        if specs and any(getattr(self, f"{role}_bot") == "search" for role in ROLE_NAMES):
            raise UserError(
                "bang: the search bot cannot share a table with a Python strategy (its rollouts "
                "would play the strategy's seat); seat a built-in bot instead"
            )
        object.__setattr__(self, "files", tuple(file_digest(spec) for spec in dict.fromkeys(specs.values())))
        if not isinstance(self.max_turns, int) or not 10 <= self.max_turns <= 30000:
            raise UserError(f"bang: max_turns must be 10-30000, got {self.max_turns!r}")
        digest = ""
        if any(self.builtin_bot(role) in ("tuned", "tuned2") for role in ROLE_NAMES):
            table = self.params_by_role()
            if not table[:, tuned.TRAINED_PARAMS :].any():  # the digest of a table of the first 21
                table = np.ascontiguousarray(table[:, : tuned.TRAINED_PARAMS])
            digest = hashlib.sha256(table.tobytes()).hexdigest()[:16]
        object.__setattr__(self, "tuned_params", digest)

    def file_specs(self) -> dict[int, str]:
        """Role index -> ``FILE.py:NAME`` for each role played by a strategy written in Python."""
        return {
            i: getattr(self, f"{role}_bot")
            for i, role in enumerate(ROLE_NAMES)
            if is_file_spec(getattr(self, f"{role}_bot"))
        }

    def builtin_bot(self, role: str) -> str:
        """The built-in bot behind ``role``: its own, or the fallback of a Python strategy."""
        bot = getattr(self, f"{role}_bot")
        return self.fallback_bot if is_file_spec(bot) else bot

    def bots_by_role(self) -> np.ndarray:
        """Bot code per role index (sheriff, deputy, outlaw, renegade); a role played by a
        Python strategy has ``BOT_USER`` plus its fallback bot's code."""
        return np.array(
            [
                BOT_NAMES.index(self.builtin_bot(role))
                + (BOT_USER if is_file_spec(getattr(self, f"{role}_bot")) else 0)
                for role in ROLE_NAMES
            ],
            dtype=np.int64,
        )

    def params_by_role(self) -> np.ndarray:
        """Bot parameters per role (row = role index): :func:`bot_params` of each role's bot
        (of the fallback bot for a role played by a Python strategy)."""
        table = engine.DEFAULT_PARAMS.copy()
        for i, role in enumerate(ROLE_NAMES):
            bot = self.builtin_bot(role)
            if bot != "role":
                table[i] = bot_params(bot, self.players)[i]
        return table


def bot_params(bot: str, players: int, params_file=None) -> np.ndarray:
    """Parameters per role (row = role index) a bot plays with at ``players``: the trained
    ones for ``tuned`` (package data ``tuned.json`` or ``params_file``) and for ``tuned2`` and
    the ``search`` bot's rollouts (``tuned2.json``, trained with the structural rules on, or
    ``params_file``; parameters a file was not trained over get role2's values), the role
    bot's defaults with the structural rules on for ``role2``, the role bot's defaults
    otherwise."""
    if bot == "tuned":
        return tuned.params_for(players, params_file or tuned.SHIPPED)
    if bot in ("tuned2", "search"):
        path = params_file or tuned.SHIPPED2
        table = tuned.params_for(players, path)
        width = len(tuned.read_file(path)["param_names"])
        table[:, width:] = with_structure(table)[:, width:]
        return table
    table = engine.DEFAULT_PARAMS.copy()
    if bot == "role2":
        table = with_structure(table)
    return table


#: a population member that is a play style of a built-in bot, not a bot of its own: the tuned
#: bot whose Renegade plays the two structural rules of the outside
#: ``examples/strategies/bang_renegade.py:TwoRules`` (the Sheriff spared while anyone else lives;
#: the lawful-looking players hit once living Deputies are at least as many as living Outlaws,
#: the outlaw-looking ones before, the suspicion read at full weight), compiled as those rules'
#: parameters on the tuned table (:func:`tuned_two_rules_params`), so rollouts can play it
TUNED_TWO_RULES = "tuned-tworules"
#: a play style of the tuned bot as the outside ``examples/strategies/bang_styles.py`` plays
#: it: its Outlaws play ``LongOutlaw`` and its Renegade ``WildRenegade`` (each seat's posterior
#: is over member and role, so one member holds both styles), compiled as the style switches
#: (:func:`tuned_styles_params`)
TUNED_STYLES = "tuned-styles"
#: the search bot's default population of opponent policies (its posterior is over these)
POPULATION = ("random", "role", "role2", "tuned", "tuned2", "search", TUNED_TWO_RULES, TUNED_STYLES)
#: the names a population member may have: the built-in bots and the play styles above
MEMBER_NAMES = (*BOT_NAMES, TUNED_TWO_RULES, TUNED_STYLES)
#: chance a scripted member's aim is not its rule's (the likelihood's slack for what its view
#: reconstructed without the hand misses); the search bot leaves its rollout policy's aim
#: more often, so its member, played as that rollout policy, gets more slack
MEMBER_SLIP = 0.1
SEARCH_SLIP = 0.3


def parse_population(text: str | list[str] | tuple[str, ...]) -> list[str]:
    """``"random,role,tuned2"`` -> member names; ``"none"`` or empty -> [] (no posterior).
    UserError naming ``--population`` for an unknown member or a repeated one."""
    names = text.split(",") if isinstance(text, str) else list(text)
    names = [name.strip() for name in names if name.strip()]
    if names == ["none"]:
        return []
    from cardsim.sims.bang.state import MAX_MEMBERS

    for name in names:
        if name.endswith(".py"):
            raise UserError(
                f"bang: --population member {name!r}: Python files cannot be "
                f"population members (their rollouts would run as Python); "
                f"choose from: {', '.join(MEMBER_NAMES)}"
            )
        if name not in MEMBER_NAMES:
            raise UserError(
                f"bang: unknown --population member {name!r}; choose from: {', '.join(MEMBER_NAMES)} (or none)"
            )
    if len(set(names)) != len(names):
        raise UserError(f"bang: --population names a member twice: {', '.join(names)}")
    if len(names) > MAX_MEMBERS:
        raise UserError(f"bang: --population has {len(names)} members, at most {MAX_MEMBERS}")
    return names


def population_tables(
    members: list[str], players: int, params_file=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The engine's population arrays (random flags, slips, log priors, parameters per member
    and role) for ``members`` at ``players``, equal priors; None for no members. The search
    bot's member plays as its rollout policy (tuned2) in rollouts."""
    if not members:
        return None
    flags = np.array([name == "random" for name in members], np.int64)
    slips = np.array([SEARCH_SLIP if name == "search" else MEMBER_SLIP for name in members])
    priors = np.zeros(len(members))
    params = np.stack([member_table(name, players, params_file) for name in members])
    return flags, slips, priors, params


def member_table(name: str, players: int, params_file=None) -> np.ndarray:
    """Parameters per role a population member plays with at ``players``: a built-in bot's
    (:func:`bot_params`) or a play style's (:data:`TUNED_TWO_RULES`, :data:`TUNED_STYLES`)."""
    if name == TUNED_TWO_RULES:
        return tuned_two_rules_params(players, params_file)
    if name == TUNED_STYLES:
        return tuned_styles_params(players, params_file)
    return bot_params(name, players, params_file)


def tuned_two_rules_params(players: int, params_file=None) -> np.ndarray:
    """The tuned table with the Renegade's two structural rules on as the outside ``TwoRules``
    plays them: ``renegade_rules`` on, the law counted ahead by the Deputies alive
    (``renegade_law_life`` 0), no added eagerness (``renegade_base``, ``renegade_revenge`` 0)
    and the suspicion at full weight (``trust`` 1); the other roles play tuned."""
    table = bot_params("tuned", players, params_file)
    renegade = ROLE_NAMES.index("renegade")
    table[renegade, [P_REN_LAW_LIFE, P_REN_BASE, P_REN_REVENGE]] = 0.0
    table[renegade, P_REN_RULES] = 1.0
    table[renegade, P_TRUST] = 1.0
    return table


def tuned_styles_params(players: int, params_file=None) -> np.ndarray:
    """The tuned table with the outside review's styles on: the Outlaws play long
    (``outlaw_long``), the Renegade plays as an Outlaw (``renegade_wild``), both leaning 0.3
    per lost life toward the wounded (``wounded``) as the file does; the Sheriff and the
    Deputies play tuned."""
    table = bot_params("tuned", players, params_file)
    outlaw, renegade = ROLE_NAMES.index("outlaw"), ROLE_NAMES.index("renegade")
    table[outlaw, P_OUTLAW_LONG] = 1.0
    table[renegade, P_REN_WILD] = 1.0
    table[[outlaw, renegade], P_WOUNDED] = 0.3
    return table


def parse_bots(text: str) -> dict[str, Any]:
    """``"sheriff=role,outlaw=random"`` -> config fields; ``"random"`` seats it everywhere.

    An empty value and a role named twice are refused (neither has one meaning)."""
    if not isinstance(text, str):
        raise UserError(f"bang: --bots must be a bot name or role=bot pairs, got {text!r}")
    text = text.strip()
    if not text:
        raise UserError(f"bang: --bots is empty; give a bot ({', '.join(BOT_NAMES)}) or role=bot pairs")
    if text in BOT_NAMES or (is_file_spec(text) and "=" not in text):
        return {f"{role}_bot": text for role in ROLE_NAMES}
    fields: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        role, sep, bot = (x.strip() for x in part.partition("="))
        if not sep or role not in ROLE_NAMES:
            raise UserError(f"bang: --bots expects role=bot pairs with roles {', '.join(ROLE_NAMES)}; got {part!r}")
        if bot not in BOT_NAMES and not is_file_spec(bot):
            raise UserError(f"bang: unknown bot {bot!r}; choose from: {', '.join(BOT_NAMES)} or FILE.py:NAME")
        if f"{role}_bot" in fields:
            raise UserError(
                f"bang: --bots names {role} twice ({role}={fields[f'{role}_bot']}, {role}={bot}); give each role once"
            )
        fields[f"{role}_bot"] = bot
    if not fields:
        raise UserError(f"bang: --bots is empty; give a bot ({', '.join(BOT_NAMES)}) or role=bot pairs")
    return fields


def play_arrays(config: BangConfig, rng: np.random.Generator, n: int, *, strict: bool = False):
    """Run the kernel; raises RuntimeError if any game broke an invariant."""
    result = engine.play_games(
        n,
        config.players,
        config.bots_by_role(),
        config.params_by_role(),
        config.max_turns,
        rng,
        strict,
    )
    errors = result[-1]
    if n and errors.max() > 0:
        code = int(errors.max())
        raise RuntimeError(f"bang: invariant broken in a game: {INVARIANT_MESSAGES[code]}")
    return result


def run_batch(config: BangConfig, rng: np.random.Generator, n: int) -> pl.DataFrame:
    """Play ``n`` games; one compact row per game (see the module docstring)."""
    if config.file_specs():
        from cardsim.sims.bang.strategy import play_file_games

        winner, turns, roles, chars, alive, life, killer, out_turn, _ = play_file_games(config, rng, n)
    else:
        winner, turns, roles, chars, alive, life, killer, out_turn, _ = play_arrays(config, rng, n)
    columns: dict[str, object] = {
        "players": np.full(n, config.players, dtype=np.int8),
        "winner": winner,
        "turns": turns,
        "sheriff_won": winner == SIDE_LAW,
    }
    for seat in range(engine.MAX_SEATS):
        columns[f"role_{seat}"] = roles[:, seat]
        columns[f"char_{seat}"] = chars[:, seat]
        columns[f"alive_{seat}"] = alive[:, seat]
        columns[f"life_{seat}"] = life[:, seat]
        columns[f"killer_{seat}"] = killer[:, seat]
        columns[f"out_turn_{seat}"] = out_turn[:, seat]
    return pl.DataFrame(columns)


SIMULATOR = Simulator(
    name="bang",
    config_type=BangConfig,
    run_batch=run_batch,
    headline="sheriff_won",
    policies=BOT_DESCRIPTIONS,
)
