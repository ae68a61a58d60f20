"""Bang!'s API: runs, bots, training, comparisons and the ladder (``cardsim.bang``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim import __version__
from cardsim.errors import UserError
from cardsim.options import (
    RunOptions,
    parse_range,
    split_names,
)

if TYPE_CHECKING:
    import polars as pl

from cardsim.api.common import Names, Players, Result, Runs, concat_rows, on_backend, run_options


def _bang_counts(players: Players) -> list[int]:
    """Bang!'s player counts, 4-7."""
    counts = parse_range(players)
    if any(c < 4 or c > 7 for c in counts):
        raise UserError(f"bang: players must be 4-7, got {players!r}")
    return counts


def _check_files(specs: Iterable[str], keyword: str) -> None:
    """Load each strategy file of ``specs`` in its own process before anything runs; a file
    that fails to load, or defines no decision, is a :class:`UserError` naming ``keyword``."""
    from cardsim.sims.bang.strategy import file_seats

    for spec in dict.fromkeys(specs):
        try:
            file_seats({0: spec})
        except UserError as exc:
            raise UserError(f"bang: --{keyword}: {exc}") from None


def _evaluation_others(against: str, others: str, role: int, players: int) -> dict[str, str]:
    """The ``BangConfig`` bot fields of the seats around an evaluated strategy: ``others`` (a
    bot, a file or ``role=bot`` pairs, roles not named playing ``against``). A
    :class:`UserError` names ``against`` or ``others`` for an unknown bot, a file that fails to
    load, or a file in the other seats of the evaluated role."""
    from cardsim.sims.bang.cards import ROLE_NAMES, roles_for
    from cardsim.sims.bang.simulator import is_file_spec, parse_bots
    from cardsim.sims.bang.strategy import AGAINST, file_seats

    def check(name: str, value: object) -> None:
        if not isinstance(value, str) or (value not in AGAINST and not is_file_spec(value)):
            raise UserError(f"bang evaluate: {name} must be one of {', '.join(AGAINST)} or FILE.py:NAME, got {value!r}")
        if is_file_spec(value):
            try:
                file_seats({0: value})
            except UserError as exc:
                raise UserError(f"bang evaluate: {name}: {exc}") from None

    check("against", against)
    if not isinstance(others, str):
        raise UserError(f"bang evaluate: others must be a bot, FILE.py:NAME or role=bot pairs, got {others!r}")
    if "=" in others:
        try:
            given = parse_bots(others)
        except UserError as exc:
            raise UserError(f"bang evaluate: others: {exc}") from None
    else:
        check("others", others)
        given = {f"{name}_bot": others for name in ROLE_NAMES}
    fields = {f"{name}_bot": given.get(f"{name}_bot", against) for name in ROLE_NAMES}
    for value in set(fields.values()):
        check("others", value)
    mine = fields[f"{ROLE_NAMES[role]}_bot"]
    if is_file_spec(mine) and list(roles_for(players)).count(role) > 1:
        raise UserError(
            f"bang evaluate: others: the other {ROLE_NAMES[role]} seats at {players} players must be "
            f"built-in bots, not {mine}"
        )
    return fields


class Bang:
    """Bang!: ``run``, ``bots``, ``train``, ``compare`` and ``stress`` (see ``cardsim bang
    --help``)."""

    @staticmethod
    def run(
        players: Players = "4-7",
        bots: str = "role",
        n: int = 50_000,
        max_turns: int = 1000,
        kills: bool = False,
        *,
        seed: int = 0,
        jobs: int | None = None,
        backend: str = "joblib",
        scheduler: str | None = None,
        store: str | Path | None = None,
        precision: float | None = None,
        max_n: int | None = None,
        quiet: bool = False,
        options: RunOptions | None = None,
    ) -> Result:
        """Games won per side (``sides``), per role (``roles``) and per character
        (``characters``) with 95% intervals, game length (``length``) and, with ``kills``,
        eliminations by role (``eliminations``).

        >>> r = cardsim.bang.run(players=4, n=200, jobs=1, quiet=True)
        >>> int(r.table["successes"].sum()), r.episodes.height
        (200, 200)
        """
        from cardsim.analysis.bang import (
            character_win_table,
            elimination_table,
            length_table,
            role_win_table,
            side_win_table,
        )
        from cardsim.sims.bang.simulator import BangConfig, parse_bots

        options = options or run_options(
            seed=seed,
            jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            store=store,
            precision=precision,
            max_n=max_n,
            quiet=quiet,
        )
        counts = _bang_counts(players)
        bot_fields = parse_bots(bots)
        configs = [BangConfig(players=count, max_turns=max_turns, **bot_fields) for count in counts]
        _check_files(configs[0].file_specs().values(), "bots")
        runs = Runs("bang run", n, options, len(configs))
        episodes = concat_rows([runs.episodes("bang", config) for config in configs])
        tables = {
            "sides": side_win_table(episodes),
            "roles": role_win_table(episodes),
            "characters": character_win_table(episodes),
            "length": length_table(episodes),
        }
        if kills:
            tables["eliminations"] = elimination_table(episodes)
        return runs.result(tables, episodes)

    @staticmethod
    @on_backend
    def tournament(
        entrants: Names,
        players: int = 4,
        n: int = 500,
        *,
        seed: int = 0,
        jobs: int | None = 1,
        backend: str = "joblib",
        scheduler: str | None = None,
        store: str | Path | None = None,
    ) -> Result:
        """Bots per role (see :mod:`cardsim.analysis.bang_tournament`): every assignment of the
        ``entrants`` (built-in bots, or Python strategies ``FILE.py:NAME``, each in a process of
        its own; decisions a file leaves out are ``tuned``'s) to the roles of a ``players`` table, ``n`` games each on the same
        deals. Tables: ``roles`` (per role and entrant, the games its side won, 95% Wilson),
        ``assignments`` (each side's wins under each assignment) and ``sides`` (each side's win
        rate across the assignments: least, median, greatest). Each assignment's games run
        through the runner, in ``jobs`` processes or on the dask cluster at ``scheduler``, the
        same numbers on either. With ``store``, each assignment's run is kept and the same call
        resumes. Bad input is a ``UserError`` naming the keyword.

        >>> r = cardsim.bang.tournament("role,random", players=4, n=50)
        >>> r.tables["assignments"].height
        8
        """
        from cardsim.analysis.bang_tournament import assignments, check_entrants, play_with_runner, tournament_tables

        if isinstance(players, bool) or not isinstance(players, int) or not 4 <= players <= 7:
            raise UserError(f"--players must be one integer 4-7, got {players!r}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise UserError(f"--n must be a positive integer, got {n!r}")
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise UserError(f"--jobs must be a positive integer, got {jobs!r}")
        if store is not None and not isinstance(store, (str, Path)):
            raise UserError(f"--store must be a folder name or None, got {store!r}")
        names = check_entrants([entrants] if isinstance(entrants, str) else list(entrants))
        play = play_with_runner(players, n, seed, jobs or 1, None if store is None else Path(store))
        tables = tournament_tables(names, players, play)
        manifest = {
            "command": "bang tournament",
            "version": __version__,
            "seed": seed,
            "runs": [],
            "players": players,
            "n": n,
            "entrants": names,
            "assignments": len(assignments(names, players)),
        }
        return Result(tables["roles"], tables["assignments"], manifest, tables)

    @staticmethod
    def bot_label(bots: str = "role") -> str:
        """How a ``bots`` setting reads in a title: the one bot every role plays, or the
        ``role=bot`` pairs."""
        from cardsim.sims.bang.simulator import parse_bots

        fields = parse_bots(bots)
        if len(fields) == 4 and len(set(fields.values())) == 1:
            return str(next(iter(fields.values())))
        return ", ".join(f"{k.removesuffix('_bot')}={v}" for k, v in fields.items()) or "role"

    @staticmethod
    def bots() -> pl.DataFrame:
        """The bots that can be seated per role, with how each plays."""
        import polars as pl

        from cardsim.sims.bang.cards import BOT_DESCRIPTIONS

        return pl.DataFrame([{"bot": name, "plays": text} for name, text in BOT_DESCRIPTIONS.items()])

    @staticmethod
    @on_backend
    def train(
        players: Players = "4-7",
        seed: int = 0,
        jobs: int | None = None,
        budget: int = 1_200_000,
        rounds: int = 3,
        out: str | Path | None = None,
        log: Callable[[str], None] | None = None,
        bot: str = "tuned",
        *,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> None:
        """Train the ``tuned`` (or, with ``bot="tuned2"``, the structural ``tuned2``) bots by
        iterated best response and write their parameters to ``out`` (default
        ``results/bang/<bot>.json``; entries of other player counts kept); ``log`` hears the
        progress lines."""
        from cardsim.options import check_output_file, search_jobs
        from cardsim.sims.bang.training import train_and_save

        if bot not in ("tuned", "tuned2"):
            raise UserError(f"bang: --bot must be tuned or tuned2 to train, got {bot!r}")
        out = Path(f"results/bang/{bot}.json") if out is None else Path(out)
        counts = _bang_counts(players)
        check_output_file(Path(out), what="--out")
        if budget < 10_000 or rounds < 1:
            raise UserError(f"bang: --budget must be >= 10000 and --rounds >= 1, got {budget}, {rounds}")
        workers = search_jobs(jobs)
        for count in counts:
            train_and_save(count, seed, budget, rounds, workers, Path(out), log=log or (lambda line: None), bot=bot)

    @staticmethod
    @on_backend
    def ladder(
        players: Players = "5,7",
        rungs: Names = "random,role2,search",
        n: int = 2_000,
        seed: int = 0,
        jobs: int | None = None,
        params: str | Path | None = None,
        budget: int = 128,
        store: str | Path | None = None,
        record: str | Path | None = None,
        *,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> tuple[pl.DataFrame, str]:
        """Each rung of the bot ladder against the rung below, for every role (as
        :meth:`compare`, paired on the same deals), and the verdict sentence naming every cell
        where a rung does not gain 3 points with its 95% lower bound above 0; with a
        ``search`` rung also its targets at 5 players (every role over the rung below, its
        Renegade against the two-rule Renegade). ``store``: keep and reuse finished rows;
        ``record``: also write everything measured to that JSON file (the shipped one,
        ``cardsim/sims/bang/data/ladder.json``, feeds the report's verdict)."""
        import polars as pl

        from cardsim.options import search_jobs
        from cardsim.sims.bang.compare import (
            ladder_rows,
            ladder_verdict,
            search_checks,
            search_verdict,
            tables_digest,
            write_ladder_record,
        )
        from cardsim.sims.core.seeds import validate_root_seed

        counts = _bang_counts(players)
        validate_root_seed(seed)
        names = split_names(rungs, name="--rungs")
        params_file = None if params is None else Path(params)
        folder = None if store is None else Path(store)
        workers = search_jobs(jobs)
        rows = ladder_rows(counts, names, n, seed, workers, params_file, budget, store=folder)
        checks = []
        if "search" in names and 5 in counts:
            checks = search_checks(n, seed, workers, params_file, budget)
        verdict = " ".join(filter(None, [ladder_verdict(rows), search_verdict(rows, checks)]))
        if record is not None:
            bots = sorted(set(names) | ({"role2", "tuned2"} if checks else set()))
            write_ladder_record(
                Path(record),
                rows,
                checks,
                {
                    "command": f"cardsim bang ladder --players {','.join(map(str, counts))} "
                    f"--rungs {','.join(names)} --n {n} --seed {seed} --budget {budget}"
                    + ("" if params is None else f" --params {params}"),
                    "players": counts,
                    "rungs": names,
                    "n": n,
                    "seed": seed,
                    "budget": budget,
                    "tables": tables_digest(bots, counts, params_file),
                    "table_bots": bots,
                },
            )
        return pl.DataFrame(rows), verdict

    @staticmethod
    @on_backend
    def compare(
        players: Players = "4-7",
        bot: str = "tuned",
        against: str = "role",
        roles: Names = "sheriff,deputy,outlaw,renegade",
        n: int = 20_000,
        seed: int = 0,
        jobs: int | None = None,
        params: str | Path | None = None,
        budget: int = 128,
        store: str | Path | None = None,
        on_row: Callable[[dict[str, Any], str | None], None] | None = None,
        baseline: str | None = None,
        population: str | None = None,
        *,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> pl.DataFrame:
        """Win rate of one seat of each role playing ``bot`` while the others play
        ``against``, the paired baseline on the same deals (that seat on ``baseline``, default
        ``against``), and the difference with its 95% interval, one row per player count and
        role (``budget``: rollouts per decision of a ``search`` seat). With a ``store`` folder
        each finished
        row is kept there and reused by the same comparison; ``on_row`` is called with each
        row and its record's id as it is ready. ``population``: the members a ``search``
        seat's posterior over the other seats' policies is over, comma-separated (default
        random,role,role2,tuned,tuned2,search,tuned-tworules,tuned-styles, the last two
        the tuned bot with the outside TwoRules Renegade and with the outside review's
        Outlaw and Renegade styles; ``none``: no posterior)."""
        import polars as pl

        from cardsim.options import search_jobs
        from cardsim.sims.bang.compare import compare_rows
        from cardsim.sims.core.seeds import validate_root_seed

        counts = _bang_counts(players)
        validate_root_seed(seed)
        rows = compare_rows(
            counts,
            bot,
            against,
            split_names(roles, name="--roles"),
            n,
            seed,
            search_jobs(jobs),
            None if params is None else Path(params),
            budget,
            store=None if store is None else Path(store),
            on_row=on_row,
            baseline=baseline,
            population=population,
        )
        return pl.DataFrame(rows)

    @staticmethod
    @on_backend
    def stress(
        players: Players = "5-7",
        roles: Names = "renegade",
        against: str = "tuned",
        games: int = 3_000,
        steps: int = 8,
        validation: int = 20_000,
        trials: int = 12,
        sigma: float = 0.1,
        n: int = 4_000,
        seed: int = 0,
        jobs: int | None = None,
        *,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> dict[str, pl.DataFrame]:
        """Try to overturn the ladder's balance conclusions on the tuned rung: the best
        response of each named role (``best_response``) and the side win rates of randomly
        perturbed tuned tables (``perturbation``); a part with 0 steps or 0 trials is left
        out."""
        import polars as pl

        from cardsim.options import search_jobs
        from cardsim.sims.bang.cards import ROLE_NAMES, roles_for
        from cardsim.sims.bang.stress import best_response, mapper, perturbed_side_rates

        counts = _bang_counts(players)
        wanted = split_names(roles, name="--roles")
        for role in wanted:
            if role not in ROLE_NAMES:
                raise UserError(f"bang: unknown role {role!r}; choose from: {', '.join(ROLE_NAMES)}")
        if against not in ("tuned", "role"):
            raise UserError(f"bang: --against must be tuned or role, got {against!r}")
        if min(games, validation, n) < 2 or min(steps, trials) < 0 or not 0 <= sigma <= 1:
            raise UserError(
                "bang: --search-n, --validation and --n must be >= 2, --steps and --trials "
                f">= 0, --sigma in [0, 1]; got {games}, {validation}, {n}, {steps}, "
                f"{trials}, {sigma}"
            )
        map_calls = mapper(search_jobs(jobs))
        found, shaken = [], []
        for count in counts:
            present = set(roles_for(count))
            for role in wanted:
                if steps and ROLE_NAMES.index(role) in present:
                    found.append(
                        best_response(count, ROLE_NAMES.index(role), against, games, steps, validation, seed, map_calls)
                    )
            if trials:
                shaken.extend(perturbed_side_rates(count, sigma, trials, n, seed, map_calls))
        tables = {}
        if found:
            tables["best_response"] = pl.DataFrame(found)
        if shaken:
            tables["perturbation"] = pl.DataFrame(shaken)
        return tables

    @staticmethod
    @on_backend
    def evaluate(
        strategy: str,
        seat: str | None = None,
        players: int | str = 5,
        n: int = 2_000,
        against: str = "tuned",
        others: str | None = None,
        *,
        role: str | None = None,
        seed: int = 0,
        jobs: int | None = None,
        backend: str = "joblib",
        scheduler: str | None = None,
    ) -> Result:
        """A user strategy (``FILE.py:NAME``, see :mod:`cardsim.sims.bang.strategy`) playing
        the first seat of ``role`` (default outlaw; ``seat`` is its older name) while built-in
        ``others`` (default: ``against``) play every other seat; the same deals are played again with built-in ``against`` in that
        seat (common random numbers), and decisions the strategy leaves out are ``against``'s.

        ``table``: one row for the strategy and one for the built-in: n games, wins of the
        seat's side and the win rate with its 95% Wilson interval (the game is the unit).
        ``tables["paired_difference"]``: the mean per-game difference (strategy minus
        built-in) with its 95% interval. A failing strategy raises
        :class:`cardsim.sims.core.user_strategy.StrategyError` (one line naming the seat, the
        game and turn, the decision and the strategy's message); a bad keyword, file or name a
        :class:`UserError`.

        >>> from pathlib import Path
        >>> twin = Path(cardsim.__file__).parents[1] / "examples/strategies/bang_role.py"
        >>> r = cardsim.bang.evaluate(f"{twin}:RoleBot", role="renegade", n=100,
        ...                           against="role", jobs=1)
        >>> r.tables["paired_difference"]["difference"].to_list()
        [0.0]

        ``against`` may be another strategy file, and ``others`` a bot, a file or ``role=bot``
        pairs (roles not named play ``against``), so several Python seats meet at one table;
        each file runs in a process of its own and sees a copy of its seat's view (decisions a
        file in ``against`` or ``others`` leaves out are ``tuned``'s). The other seats of the
        strategy's own role (7 players: the other Outlaws) must be built-in bots.
        """
        import numpy as np
        import polars as pl

        from cardsim import __version__
        from cardsim.sims.bang.cards import ROLE_NAMES, roles_for
        from cardsim.sims.bang.strategy import EVALUATE_CHUNK, check_strategy, evaluate_chunk
        from cardsim.sims.core.seeds import chunk_generator, validate_root_seed
        from cardsim.sims.core.user_strategy import (
            StrategyError,
            load_strategy,
            paired_difference,
            run_chunks,
        )
        from cardsim.stats import wilson_interval

        count = parse_range(players)
        if len(count) != 1 or not 4 <= count[0] <= 7:
            raise UserError(f"bang evaluate: players must be one count of 4-7, got {players!r}")
        if role is not None and seat is not None and role != seat:
            raise UserError(
                f"bang evaluate: role {role!r} and its older name seat {seat!r} contradict each other; give role"
            )
        if seat is not None and role is None and seat not in ROLE_NAMES:
            raise UserError(f"bang evaluate: seat must be a role ({', '.join(ROLE_NAMES)}), got {seat!r}")
        seat = role or seat or "outlaw"
        if seat not in ROLE_NAMES:
            raise UserError(f"bang evaluate: role must be one of {', '.join(ROLE_NAMES)}, got {seat!r}")
        role_id = ROLE_NAMES.index(seat)
        if role_id not in roles_for(count[0]):
            raise UserError(f"bang evaluate: no {seat} at {count[0]} players")
        others = against if others is None else others
        fields = _evaluation_others(against, others, role_id, count[0])
        if isinstance(n, bool) or not isinstance(n, int) or n < 2:
            raise UserError(f"bang evaluate: n must be an integer of at least 2, got {n!r}")
        validate_root_seed(seed)
        if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
            raise UserError(f"--jobs must be at least 1, got {jobs!r}")
        check_strategy(load_strategy(strategy), strategy)
        chunks = -(-n // EVALUATE_CHUNK)
        tasks = [
            (
                strategy,
                count[0],
                role_id,
                against,
                fields,
                chunk_generator(seed, i),
                min(EVALUATE_CHUNK, n - i * EVALUATE_CHUNK),
                i * EVALUATE_CHUNK,
            )
            for i in range(chunks)
        ]
        parts = run_chunks(evaluate_chunk, tasks, jobs or 1)
        for part in parts:  # the first failure in game order, whichever worker met it
            if "error" in part:
                raise StrategyError(**part["error"], traceback_text=part["traceback"])
        user = np.concatenate([part["user"] for part in parts])
        builtin = np.concatenate([part["builtin"] for part in parts])
        wins = [int(user.sum()), int(builtin.sum())]
        lo, hi = wilson_interval(wins, [n, n])
        table = pl.DataFrame(
            {
                "strategy": [strategy, against],
                "seat": [seat] * 2,
                "players": [count[0]] * 2,
                "others": [others] * 2,
                "n": [n, n],
                "wins": wins,
                "win": [w / n for w in wins],
                "win_lo": lo.tolist(),
                "win_hi": hi.tolist(),
            }
        )
        diff = paired_difference(user, builtin)
        difference = pl.DataFrame(
            {
                "strategy": [strategy],
                "against": [against],
                "seat": [seat],
                "players": [count[0]],
                "n": [n],
                "difference": [diff["difference"]],
                "difference_lo": [diff["lo"]],
                "difference_hi": [diff["hi"]],
            }
        )
        episodes = pl.DataFrame({"game": np.arange(1, n + 1), "win": user, "builtin_win": builtin})
        manifest = {
            "command": "bang evaluate",
            "version": __version__,
            "seed": seed,
            "strategy": strategy,
            "seat": seat,
            "against": against,
            "others": others,
            "players": count[0],
            "n": n,
            "chunk": EVALUATE_CHUNK,
            "stop_rule": f"fixed n={n}",
            "runs": [],
        }
        return Result(table, episodes, manifest, {"evaluate": table, "paired_difference": difference})
