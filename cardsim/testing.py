"""The game contract as a kit: :func:`check_game` checks that a game keeps the contract every
cardsim game keeps, the built-in ones and a plug-in alike.

A plug-in's own tests call it for their game::

    from cardsim.testing import check_game

    def test_the_contract():
        check_game(GAME)

Each clause (:data:`CLAUSES`) is one function of the game's declaration that returns a line of
what it measured or raises :class:`ContractError` naming the game and the clause:

- ``declaration``: every dotted path resolves; the simulator has policies and its config has
  the declared policy fields;
- ``workers``: the same seed gives the same rows with one worker or two;
- ``resume``: a run interrupted after a chunk and run again gives the same rows, reusing the
  finished chunks;
- ``first_command``: the first command's ``--json`` output is one JSON document;
- ``hidden_info``: the hidden-information check compares some decisions and none changes;
- ``leaky_mutant``: the same check catches the game's deliberately leaky policy (a check that
  checks nothing fails here);
- ``reference``: the kernel agrees with its plain-Python reference, where the game has one.

Sizes are tiny: a contract, not a statistic. The kit sits above every other layer (it drives
the command line as a user would) and nothing in cardsim imports it.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardsim.errors import Interrupted, UserError
from cardsim.sims.core.game import Game, HiddenInfoResult, resolve

#: the seed every clause uses
SEED = 12
#: episodes per chunk in the runner clauses (three chunks per run)
CHUNK = 8


class ContractError(AssertionError):
    """A game breaks a clause of the contract; the message names the game and the clause."""


def _fail_unless(condition: bool, game: Game, clause: str, why: str) -> None:
    if not condition:
        raise ContractError(f"{game.name}: {clause}: {why}")


def _rows(game: Game, **options: Any) -> Any:
    from cardsim.sims.core.runner import run

    simulator = game.load_simulator()
    return run(simulator, simulator.make_config(), n=3 * CHUNK, seed=SEED, chunk_size=CHUNK, **options).episodes


def check_declaration(game: Game) -> str:
    """Every dotted path of the declaration resolves; the simulator has the game's name and
    policies, and its default config has every declared policy field."""
    simulator = game.load_simulator()
    _fail_unless(simulator.name == game.name, game, "declaration", f"the simulator is named {simulator.name!r}")
    _fail_unless(bool(simulator.policies), game, "declaration", "the simulator declares no policies")
    config = simulator.make_config()
    missing = [field for field in game.policy_fields if not hasattr(config, field)]
    _fail_unless(not missing, game, "declaration", f"the config has no field {missing}")
    paths = [
        game.cli,
        game.api,
        game.report_section,
        game.bench,
        game.strategy_bench,
        game.warmup_configs,
        game.hidden_info_check,
        game.leaky_policy,
        game.reference_check,
    ]
    for path in filter(None, paths):
        try:
            resolve(path)
        except (ImportError, AttributeError) as exc:
            raise ContractError(f"{game.name}: declaration: {path!r} does not resolve ({exc})") from exc
    return f"{sum(path is not None for path in paths)} hooks resolve"


def check_workers(game: Game) -> str:
    """The same seed gives the same rows with one worker or two."""
    one = _rows(game, jobs=1)
    _fail_unless(one.equals(_rows(game, jobs=2)), game, "workers", "the same seed gave other rows with two workers")
    return f"{one.height} rows equal with 1 and 2 workers"


def check_resume(game: Game) -> str:
    """A run interrupted after its first chunk, run again into the same store, reuses the
    finished chunks and gives the rows of an uninterrupted run."""

    def stop_after_one(index: int) -> None:
        if index == 1:
            raise KeyboardInterrupt

    with tempfile.TemporaryDirectory(prefix="cardsim-contract-") as store:
        try:
            _rows(game, jobs=1, store=Path(store), on_chunk=stop_after_one)
        except Interrupted:
            pass
        else:
            raise ContractError(f"{game.name}: resume: an interrupted run did not raise Interrupted")
        computed: list[int] = []
        resumed = _rows(game, jobs=1, store=Path(store), on_chunk=computed.append)
    _fail_unless(0 < len(computed) < 3, game, "resume", f"the resumed run computed {len(computed)} of 3 chunks")
    _fail_unless(
        resumed.equals(_rows(game, jobs=1)), game, "resume", "the resumed rows differ from an uninterrupted run's"
    )
    return f"resumed computing {len(computed)} of 3 chunks, rows equal"


def check_first_command(game: Game) -> str:
    """The first command (at 40 episodes, one worker, no store) prints one JSON document with
    tables and the seed 0, and exits 0. The command line knows registered games only: an
    installed plug-in is registered through its entry point, a test registers its game with
    :func:`cardsim.sims.registry.register`."""
    from cardsim.cli import main
    from cardsim.sims.registry import names

    _fail_unless(
        game.name in names(),
        game,
        "first_command",
        "the game is not registered (cardsim.sims.registry.register(GAME) first)",
    )

    argv = list(game.first_command)
    _fail_unless(
        bool(argv) and argv[0] == game.name,
        game,
        "first_command",
        f"the first command {argv} does not start with {game.name!r}",
    )
    if "--n" in argv:
        argv[argv.index("--n") + 1] = "40"
    out, err = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([*argv, "--jobs", "1", "--no-store", "--quiet", "--json"])
        except SystemExit as exc:
            code = exc.code
    _fail_unless(code in (0, None), game, "first_command", f"exit {code}: {err.getvalue().strip()}")
    try:
        document = json.loads(out.getvalue())  # one document: json.loads rejects anything after it
    except json.JSONDecodeError as exc:
        raise ContractError(f"{game.name}: first_command: --json printed no single JSON document ({exc})") from exc
    _fail_unless(
        bool(document.get("tables")) and document.get("seed") == 0,
        game,
        "first_command",
        "the JSON document has no tables or not seed 0",
    )
    return f"`cardsim {' '.join(argv)} --json`: one document, {len(document['tables'])} tables"


def _hidden_info_result(game: Game, clause: str, *policy: Any) -> HiddenInfoResult:
    _fail_unless(game.hidden_info_check is not None, game, clause, "the game declares no hidden-information check")
    assert game.hidden_info_check is not None
    result = resolve(game.hidden_info_check)(SEED, *policy)
    _fail_unless(
        isinstance(result, tuple) and len(result) == 2,
        game,
        clause,
        f"the check returned {result!r}, not (compared, changed)",
    )
    return HiddenInfoResult(*result)


def check_hidden_info(game: Game) -> str:
    """The game's own policies: the check compares some decisions and none changes when what
    the deciding player cannot see is dealt again."""
    result = _hidden_info_result(game, "hidden_info")
    _fail_unless(result.compared > 0, game, "hidden_info", "the check compared no decision")
    _fail_unless(
        result.changed == 0,
        game,
        "hidden_info",
        f"{result.changed} of {result.compared} decisions read hidden information",
    )
    return f"0 of {result.compared} decisions changed"


def check_leaky_mutant(game: Game) -> str:
    """The game's deliberately leaky policy (``leaky_policy``): the same check must see some of
    its decisions change. A check that catches nothing cannot vouch for the honest policies."""
    _fail_unless(
        game.leaky_policy is not None,
        game,
        "leaky_mutant",
        "the game declares no leaky policy for its hidden-information check to catch",
    )
    assert game.leaky_policy is not None
    result = _hidden_info_result(game, "leaky_mutant", resolve(game.leaky_policy))
    _fail_unless(
        result.changed > 0,
        game,
        "leaky_mutant",
        f"the hidden-information check caught nothing: 0 of {result.compared} decisions "
        f"of the leaky policy {game.leaky_policy} changed",
    )
    return f"leaky policy caught: {result.changed} of {result.compared} decisions changed"


def check_reference(game: Game) -> str:
    """The kernel agrees with the game's plain-Python reference (nothing to check without one)."""
    if game.reference_check is None:
        return "no plain-Python reference"
    compared = resolve(game.reference_check)(SEED)
    _fail_unless(compared > 0, game, "reference", "the reference check compared no game")
    return f"{compared} games agree with the reference"


#: the contract's clauses in the order :func:`check_game` runs them
CLAUSES: dict[str, Callable[[Game], str]] = {
    "declaration": check_declaration,
    "workers": check_workers,
    "resume": check_resume,
    "first_command": check_first_command,
    "hidden_info": check_hidden_info,
    "leaky_mutant": check_leaky_mutant,
    "reference": check_reference,
}


def check_game(game: Game | str, clauses: tuple[str, ...] | None = None) -> dict[str, str]:
    """Check ``game`` (a declaration, or a registered game's name) against the contract: every
    clause of :data:`CLAUSES`, or the named ones; returns clause -> what it measured and raises
    :class:`ContractError` at the first clause broken."""
    if isinstance(game, str):
        from cardsim.sims.registry import get_game

        game = get_game(game)
    wanted = tuple(CLAUSES) if clauses is None else clauses
    unknown = [name for name in wanted if name not in CLAUSES]
    if unknown:
        raise UserError(f"clauses: unknown {', '.join(unknown)}; choose from: {', '.join(CLAUSES)}")
    return {name: CLAUSES[name](game) for name in wanted}
