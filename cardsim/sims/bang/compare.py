"""``cardsim bang compare``: one seat of a role plays another bot, paired with a baseline.

For each player count and role: the first seat dealt that role plays ``bot`` while every other
seat plays ``against``; the baseline replays the very same deals (common random numbers: one
deal stream and one play stream per chunk, equal for both runs) with that seat playing
``against`` too. Rows give both win rates (95% Wilson intervals), their paired difference and
its 95% normal interval. Chunk ``i`` draws from ``SeedSequence(seed, spawn_key=(players, role,
i, stream))``, so the figures are the same for any ``jobs``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from cardsim.errors import UserError
from cardsim.sims.bang import engine
from cardsim.sims.bang.cards import BOT_NAMES, BOT_USER, ROLE_NAMES, ROLE_SIDE, roles_for
from cardsim.sims.bang.policies import N_PARAMS, P_REN_BASE, P_REN_LAW_LIFE, P_REN_REVENGE
from cardsim.sims.bang.simulator import (
    DEFAULT_MAX_TURNS,
    POPULATION,
    bot_params,
    parse_population,
    population_tables,
)
from cardsim.sims.bang.state import SEARCH_BUDGET
from cardsim.sims.bang.training import Z95, stream
from cardsim.sims.core.parallel import map_tasks
from cardsim.stats import wilson_interval

CHUNK = 5_000


#: a baseline only (``--baseline``): the hand-written two-rule Renegade, role2
#: with the balancing rule off (the Sheriff spared while others live; the lawful-looking
#: players hit once living Deputies are at least as many as living Outlaws)
TWO_RULE = "two-rule"


#: the built-in bot that makes the decisions an outside strategy file leaves out, with its
#: parameters, when the file plays the other seats of a table (``--against FILE.py:NAME``)
FILE_FALLBACK = "tuned"


def is_strategy_file(bot: str) -> bool:
    """``FILE.py:NAME``: an outside strategy, not a built-in bot."""
    return ":" in bot and bot.rpartition(":")[0].endswith(".py")


def bot_table(bot: str, players: int, params_file: Path | None) -> tuple[int, np.ndarray]:
    """(bot code, parameters per role) for a bot name (or, as a baseline, ``TWO_RULE``; or
    an outside strategy ``FILE.py:NAME``, loaded here so a bad file fails before anything
    runs: ``BOT_USER`` + its fallback bot); UserError for an unknown name, a file that fails
    to load or a bad parameter file."""
    if is_strategy_file(bot):
        from cardsim.sims.bang.strategy import check_strategy
        from cardsim.sims.core.user_strategy import load_strategy

        try:
            check_strategy(load_strategy(bot), bot)
        except UserError as error:
            raise UserError(f"bang: --against {error}") from None
        code, table = bot_table(FILE_FALLBACK, players, params_file)
        return BOT_USER + code, table
    if bot == TWO_RULE:
        code, table = bot_table("role2", players, params_file)
        table[:, [P_REN_LAW_LIFE, P_REN_BASE, P_REN_REVENGE]] = 0.0
        return code, table
    if bot not in BOT_NAMES:
        raise UserError(f"bang: unknown bot {bot!r}; choose from: {', '.join(BOT_NAMES)}")
    return BOT_NAMES.index(bot), bot_params(bot, players, params_file)


def focus_chunk(
    players: int,
    role: int,
    bot: tuple[int, np.ndarray],
    against: tuple[int, np.ndarray],
    games: int,
    seed: int,
    chunk: int,
    budget: int = SEARCH_BUDGET,
    baseline: tuple[int, np.ndarray] | None = None,
    population: tuple[np.ndarray, ...] | None = None,
    strategy: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(wins with the focus seat on ``bot``, wins with it on ``baseline``, default
    ``against``) for one chunk, every other seat on ``against``. A ``search`` seat plans with
    its own table as the rollout policy and ``budget`` rollouts, and with ``population``
    (:func:`~cardsim.sims.bang.simulator.population_tables`) keeps a posterior over the other
    seats' policies. ``strategy``: the outside strategy (``FILE.py:NAME``) the user seats of
    ``against`` play."""
    bots = np.full(4, against[0], dtype=np.int64)
    results = []
    for code, table in (bot, against if baseline is None else baseline):
        key = (players, role, chunk)
        args = (
            players,
            bots,
            against[1],
            role,
            code,
            np.ascontiguousarray(table[role]),
            DEFAULT_MAX_TURNS,
            stream(seed, *key, 0),
            stream(seed, *key, 1),
            False,
        )
        options = {"rollout_params": table, "search_budget": budget, "population": population}
        if strategy is None:
            winner = engine.play_focus_games(games, *args, **options)[0]
        else:
            winner = table_games(strategy, games, args, options)
        results.append((winner == ROLE_SIDE[role]).astype(np.int8))
    return results[0], results[1]


class TableSeats:
    """The handler of a table whose seats an outside strategy plays (every seat with a user
    bot code): each seat's decisions go to a :class:`~cardsim.sims.bang.strategy.UserSeat`
    of its own, built at its first decision of the game."""

    def __init__(self, spec: str, game: int) -> None:
        from cardsim.sims.core.user_strategy import load_strategy

        self.spec, self.game, self.strategy = spec, game, load_strategy(spec)
        self.seats: dict[int, Callable[[int, np.ndarray, np.ndarray, int], int]] = {}

    def __call__(self, decision: int, v: np.ndarray, extra: np.ndarray, turn: int) -> int:
        from cardsim.sims.bang.strategy import UserSeat
        from cardsim.sims.bang.view import V_MY_ROLE, V_SEAT

        seat = int(v[V_SEAT])
        if seat not in self.seats:
            handler = UserSeat(self.strategy, self.spec, int(v[V_MY_ROLE]))
            handler.game = self.game
            self.seats[seat] = handler
        return self.seats[seat](decision, v, extra, turn)


def table_games(strategy: str, games: int, args: tuple, options: dict) -> np.ndarray:
    """Winners of ``games`` games of :func:`engine.play_focus_games` (``args``, ``options``)
    whose user seats play ``strategy``, one game per call with a fresh handler (the streams
    are drawn as one call of ``games`` would draw them). A failing decision is a one-line
    UserError naming the strategy."""
    from cardsim.sims.bang.usercall import install
    from cardsim.sims.core.user_strategy import StrategyError

    winners = []
    for i in range(games):
        previous = install(TableSeats(strategy, i + 1))
        try:
            winners.append(engine.play_focus_games(1, *args, **options)[0])
        except StrategyError as error:
            raise UserError(f"bang: --against {error}") from None
        finally:
            install(previous)
    return np.concatenate(winners)


def _stored_row(store: Path | None, key: dict) -> tuple[Path | None, dict | None]:
    """Where the row of ``key`` is kept in ``store`` (``bang_compare/<hash>.json``, the hash
    covering the settings, the parameter tables and the Bang! code) and the row if it is
    there already."""
    if store is None:
        return None, None
    from cardsim.sims.core.fingerprint import code_fingerprint

    text = json.dumps({**key, "code": code_fingerprint(__name__)}, sort_keys=True)
    path = Path(store) / "bang_compare" / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    if not path.is_file():
        return path, None
    try:
        kept = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        raise UserError(f"corrupt results file {path}: not a compare row; move it away to recompute") from None
    if not isinstance(kept, dict) or kept.get("key") != text or not isinstance(kept.get("row"), dict):
        raise UserError(f"corrupt results file {path}: not this comparison's row; move it away to recompute")
    return path, kept["row"]


def _record_id(path: Path | None) -> str | None:
    return f"{path.parent.name}/{path.stem}" if path is not None else None


def _keep_row(path: Path | None, key: dict, row: dict) -> None:
    if path is None:
        return
    from cardsim.sims.core.fingerprint import code_fingerprint
    from cardsim.sims.core.store import (
        StoreWriteError,
        atomic_write_bytes,
        describe_os_error,
    )

    text = json.dumps({**key, "code": code_fingerprint(__name__)}, sort_keys=True)
    try:
        atomic_write_bytes(path, json.dumps({"key": text, "row": row}).encode())
    except OSError as exc:
        raise StoreWriteError(f"cannot write {path}: {describe_os_error(exc)}") from None


def compare_rows(
    players_list: list[int],
    bot: str,
    against: str,
    roles: list[str],
    n: int,
    seed: int,
    jobs: int,
    params_file: Path | None = None,
    budget: int = SEARCH_BUDGET,
    *,
    store: Path | None = None,
    on_row: Callable[[dict, str | None], None] | None = None,
    baseline: str | None = None,
    population: str | list[str] | None = None,
) -> list[dict]:
    """One row per (players, role): win, baseline, diff and intervals (see module doc);
    ``budget``: rollouts per decision of a ``search`` seat; ``baseline``: the bot the focus
    seat plays in the paired baseline (default ``against``), e.g. the two-rule Renegade
    (``role2``) among ``tuned2`` bots; ``population``: the members a search seat's
    posterior is over (default :data:`~cardsim.sims.bang.simulator.POPULATION`, ``"none"``:
    no posterior, every other seat is assumed to play the rollout policy).

    With a ``store`` folder each finished row is kept there and reused when the same
    comparison (players, role, bots, n, seed, budget, parameter tables, code) is asked again,
    so a Ctrl-C loses only the rows still running. ``on_row``: called with each row as it is
    ready and its record's id in the store (``bang_compare/<hash>``, None without a store)."""
    for role in roles:
        if role not in ROLE_NAMES:
            raise UserError(f"bang: unknown role {role!r}; choose from: {', '.join(ROLE_NAMES)}")
    if n < 2:
        raise UserError(f"bang: --n must be at least 2, got {n}")
    if not isinstance(budget, int) or not 1 <= budget <= 100_000:
        raise UserError(f"bang: --budget must be 1-100000 rollouts, got {budget!r}")
    for name, option in ((bot, "--bot"), (baseline, "--baseline")):
        if name is not None and is_strategy_file(name):
            raise UserError(
                f"bang: {option} takes a built-in bot, not {name!r}; a strategy "
                "file plays the other seats with --against (cardsim bang evaluate "
                "plays one in a seat)"
            )
    members = parse_population(POPULATION if population is None else population)
    searching = "search" in (bot, against, baseline)
    rows = []
    for players in players_list:
        tables = population_tables(members, players, params_file) if searching else None
        focus = bot_table(bot, players, params_file)
        base = bot_table(against, players, params_file)
        other = None if baseline is None else bot_table(baseline, players, params_file)
        present = sorted(set(roles_for(players)))
        chunks = [(i, min(CHUNK, n - i * CHUNK)) for i in range((n + CHUNK - 1) // CHUNK)]
        for role in present:
            if ROLE_NAMES[role] not in roles:
                continue
            key = {
                "players": players,
                "role": ROLE_NAMES[role],
                "bot": bot,
                "against": against,
                "n": n,
                "seed": seed,
                "chunk": CHUNK,
                "tables": [focus[1].tolist(), base[1].tolist()],
            }
            if is_strategy_file(against):
                key["strategy_sha256"] = hashlib.sha256(Path(against.rpartition(":")[0]).read_bytes()).hexdigest()
            if searching:
                key["budget"] = budget
                key["population"] = members
            if other is not None:
                key["baseline_bot"] = baseline
                key["tables"].append(other[1].tolist())
            path, kept = _stored_row(store, key)
            if kept is not None:
                rows.append(kept)
                if on_row is not None:
                    on_row(kept, _record_id(path))
                continue
            strategy = against if is_strategy_file(against) else None
            tasks = [(players, role, focus, base, size, seed, i, budget, other, tables, strategy) for i, size in chunks]
            parts = map_tasks(focus_chunk, tasks, jobs)
            win = np.concatenate([p[0] for p in parts])
            paired = np.concatenate([p[1] for p in parts])
            d = win.astype(np.float64) - paired
            half = Z95 * float(d.std(ddof=1)) / np.sqrt(d.size)
            win_lo, win_hi = wilson_interval(int(win.sum()), win.size)
            base_lo, base_hi = wilson_interval(int(paired.sum()), paired.size)
            rows.append(
                {
                    "players": players,
                    "role": ROLE_NAMES[role],
                    "bot": bot,
                    "against": against,
                    **({} if other is None else {"baseline_bot": baseline}),
                    **({"population": ",".join(members) or "none"} if searching else {}),
                    "n": int(win.size),
                    "win": round(float(win.mean()), 5),
                    "win_lo": round(float(win_lo), 5),
                    "win_hi": round(float(win_hi), 5),
                    "baseline": round(float(paired.mean()), 5),
                    "baseline_lo": round(float(base_lo), 5),
                    "baseline_hi": round(float(base_hi), 5),
                    "diff": round(float(d.mean()), 5),
                    "diff_lo": round(float(d.mean() - half), 5),
                    "diff_hi": round(float(d.mean() + half), 5),
                }
            )
            _keep_row(path, key, rows[-1])
            if on_row is not None:
                on_row(rows[-1], _record_id(path))
    return rows


#: how far a rung must beat the one below it, per role
LADDER_MARGIN = 0.03
#: the ladder's rungs, weakest first. ``tuned2`` (role2 with trained parameters) is left out:
#: in the recorded ladder it gains the margin over role2 in none of the cells, so it is no
#: rung of its own (it stays the search rung's rollout policy and a population member)
LADDER_RUNGS = ("random", "role2", "search")


def ladder_rows(
    players_list: list[int],
    rungs: list[str],
    n: int,
    seed: int,
    jobs: int,
    params_file: Path | None = None,
    budget: int = SEARCH_BUDGET,
    margin: float = LADDER_MARGIN,
    store: Path | None = None,
) -> list[dict]:
    """Each rung against the one below it (:func:`compare_rows`: one seat of each role on the
    upper rung, the others on the lower, paired with the lower rung in that seat), with
    ``holds``: the rung gains at least ``margin`` and the 95% interval of the gain lies above
    0. With a ``store`` folder finished rows are kept and reused (as compare)."""
    if len(rungs) < 2:
        raise UserError(f"bang: --rungs needs at least two bots, got {', '.join(rungs)}")
    rows = []
    for lower, upper in zip(rungs, rungs[1:]):
        for row in compare_rows(
            players_list, upper, lower, list(ROLE_NAMES), n, seed, jobs, params_file, budget, store=store
        ):
            row["holds"] = bool(row["diff"] >= margin and row["diff_lo"] > 0)
            rows.append(row)
    return rows


def ladder_verdict(rows: list[dict], margin: float = LADDER_MARGIN) -> str:
    """One sentence per rung pair: where it beats the rung below by ``margin`` for every role
    and player count, or the (players, role) cells where it does not."""
    lines = []
    pairs = dict.fromkeys((row["bot"], row["against"]) for row in rows)
    for upper, lower in pairs:
        part = [r for r in rows if (r["bot"], r["against"]) == (upper, lower)]
        misses = [
            f"{r['players']}p {r['role']} {100 * r['diff']:+.1f} ({100 * r['diff_lo']:+.1f}..{100 * r['diff_hi']:+.1f})"
            for r in part
            if not r["holds"]
        ]
        if len(misses) == len(part):
            best = max(part, key=lambda r: r["diff"])
            lines.append(
                f"{upper} over {lower}: by {100 * margin:.0f} points with the 95% lower "
                f"bound above 0 in none of the {len(part)} cells (largest gain "
                f"{100 * best['diff']:+.1f} points, {best['players']}p {best['role']}), "
                f"so {upper} is no rung above {lower}"
                + (
                    f" and the ladder leaves it out (its default rungs: {', '.join(LADDER_RUNGS)})"
                    if upper not in LADDER_RUNGS
                    else ""
                )
                + ": "
                + "; ".join(misses)
                + "."
            )
        elif misses:
            lines.append(
                f"{upper} over {lower}: not by {100 * margin:.0f} points with the 95% "
                f"lower bound above 0 in {len(misses)} of {len(part)} cells: " + "; ".join(misses) + "."
            )
        else:
            lines.append(
                f"{upper} over {lower}: by at least {100 * margin:.0f} points for every "
                f"role and player count measured (95% lower bound above 0)."
            )
    return " ".join(lines)


# ---------------------------------------------------------------- the recorded ladder

LADDER_FORMAT = "cardsim-bang-ladder/1"
#: the ladder measured on the shipped bots, with the search rung's own checks; the
#: report's Bang! verdict is written from it (``cardsim bang ladder --record``)
LADDER_RECORD = Path(__file__).parent / "data" / "ladder.json"


def tables_digest(bots: list[str], players_list: list[int], params_file: Path | None = None) -> str:
    """16 hex digits over the parameter tables the bots play with at these player counts: a
    recorded ladder is stale once a retraining changed any of them. Only the bot parameters
    count: no bot plays a play style (the style switches after them are population members')."""
    digest = hashlib.sha256()
    for bot in bots:
        for players in players_list:
            table = bot_table(bot, players, params_file)[1][:, :N_PARAMS]
            digest.update(np.ascontiguousarray(table).tobytes())
    return digest.hexdigest()[:16]


def search_checks(
    n: int, seed: int, jobs: int, params_file: Path | None = None, budget: int = SEARCH_BUDGET, players: int = 5
) -> list[dict]:
    """The search rung's targets at ``players`` beyond the ladder's rows: its
    Renegade paired with the hand-written two-rule Renegade (``TWO_RULE``), every other seat
    on ``tuned2``."""
    return compare_rows(
        [players], "search", "tuned2", ["renegade"], n, seed, jobs, params_file, budget, baseline=TWO_RULE
    )


def search_verdict(ladder: list[dict], checks: list[dict], players: int = 5) -> str:
    """The search rung's targets in words, from measured rows: it beats tuned2 in every role at
    ``players`` (95% lower bound above 0), and its Renegade is at least as good as the two-rule
    Renegade (paired difference >= 0, with its interval)."""
    upper = [r for r in ladder if r["bot"] == "search" and r["players"] == players]
    parts = []
    if upper:
        misses = [
            f"{r['role']} {100 * r['diff']:+.1f} ({100 * r['diff_lo']:+.1f}..{100 * r['diff_hi']:+.1f})"
            for r in upper
            if r["diff_lo"] <= 0
        ]
        if misses:
            parts.append(
                f"The search rung does not beat {upper[0]['against']} in every role at "
                f"{players} players (95% lower bound above 0): not for " + "; ".join(misses) + "."
            )
        else:
            parts.append(
                f"The search rung beats {upper[0]['against']} in every role at "
                f"{players} players (95% lower bound above 0)."
            )
    for r in checks:
        gap = (
            f"{100 * r['diff']:+.1f} points ({100 * r['diff_lo']:+.1f}.."
            f"{100 * r['diff_hi']:+.1f}, n={r['n']:,} paired deals)"
        )
        where = f"the two-rule Renegade at {r['players']} players among {r['against']} bots"
        if r["diff_lo"] > 0:
            parts.append(f"Its Renegade is better than {where}: {gap}.")
        elif r["diff"] >= 0:
            parts.append(
                f"Its Renegade is at least as good as {where} by the point estimate, not significantly better: {gap}."
            )
        else:
            parts.append(f"Its Renegade is not as good as {where}: {gap}.")
    return " ".join(parts)


def write_ladder_record(path: Path, rows: list[dict], checks: list[dict], settings: dict) -> None:
    """Write the measured ladder, the search checks and how they were made (``settings``:
    command, seed, n, budget, rungs, players, tables digest)."""
    document = {"format": LADDER_FORMAT, **settings, "rows": rows, "search_checks": checks}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def read_ladder_record(path: Path = LADDER_RECORD) -> dict:
    """The recorded ladder; a one-line UserError if missing or malformed."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(
            f"bang: ladder record {path} not found (record it with: cardsim bang ladder --record PATH)"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UserError(f"bang: ladder record {path}: unreadable ({type(error).__name__})") from None
    ok = isinstance(document, dict) and document.get("format") == LADDER_FORMAT
    if not ok or not isinstance(document.get("rows"), list):
        raise UserError(f"bang: ladder record {path}: not a {LADDER_FORMAT} document")
    return document
