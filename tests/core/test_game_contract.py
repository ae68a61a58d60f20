"""The contract every registered game keeps, checked the same way for each (and for the example
game of ``examples/hilo``, registered here from code: nothing is installed) by the installed kit,
:func:`cardsim.testing.check_game`, one clause per test: the declaration resolves; the same seed
gives the same rows with one worker or two; a run interrupted after a chunk and run again gives
the same rows; its first command's ``--json`` output is one JSON document; its
hidden-information check finds no leak in its own policies and catches its leaky mutant; its
kernel agrees with its plain-Python reference where it has one. The kit itself is tested here
too: it fails a game whose hidden-information check catches nothing.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardsim
from cardsim.errors import UserError
from cardsim.sims.core.game import Game, HiddenInfoResult, resolve
from cardsim.sims.registry import games, get_game, names, register, unregister
from cardsim.testing import CLAUSES, ContractError, check_game

EXAMPLE = "hilo"
EXAMPLE_DIR = Path(__file__).resolve().parents[2] / "examples" / EXAMPLE
# On the path from collection on, so that every worker process started later can import it.
if str(EXAMPLE_DIR) not in sys.path:
    sys.path.insert(0, str(EXAMPLE_DIR))


@pytest.fixture(scope="module", autouse=True)
def example_game():
    """The example game, registered as a plug-in's entry point would register it."""
    game = register(resolve("cardsim_hilo:GAME"))
    yield game
    unregister(game.name)


@pytest.fixture(params=list(dict.fromkeys([*names(), EXAMPLE])))
def game(request) -> Game:
    return get_game(request.param)


@pytest.mark.parametrize("clause", list(CLAUSES))
def test_the_game_keeps_the_contract(game, clause):
    """Each clause of the kit (:mod:`cardsim.testing`) for each game, one test apiece."""
    measured = check_game(game, clauses=(clause,))[clause]
    assert measured


def test_a_builtin_game_with_a_reference_declares_its_check(game):
    if game.name == EXAMPLE:
        pytest.skip("a plug-in may keep its reference where it likes")
    package = Path(sys.modules[game.simulator_module.rpartition(".")[0]].__file__).parent
    assert (game.reference_check is not None) == (package / "reference.py").exists()


def test_builtin_checks_live_in_the_package():
    """An installed cardsim has no ``tests`` package: every built-in hook is in ``cardsim``."""
    for name in names():
        declared = get_game(name)
        if name == EXAMPLE:
            continue
        for path in (declared.hidden_info_check, declared.leaky_policy, declared.reference_check):
            assert path is None or path.startswith("cardsim."), (name, path)


def check_nothing(seed: int, policy: object = None) -> HiddenInfoResult:
    """A hidden-information check that checks nothing: it compares "ten decisions" and never
    sees a change, whatever the policy."""
    return HiddenInfoResult(10, 0)


def old_style_check(seed: int, policy: object = None) -> int:
    """A check in the old form: asserts and returns a count."""
    return 10


def test_the_kit_fails_a_check_that_catches_nothing(example_game):
    """The honest clause alone cannot tell a check that checks nothing from a sound one; the
    leaky mutant clause can: the kit fails the game."""
    hollow = replace(example_game, hidden_info_check=f"{__name__}:check_nothing")
    assert check_game(hollow, clauses=("hidden_info",))["hidden_info"] == "0 of 10 decisions changed"
    with pytest.raises(ContractError, match="hilo: leaky_mutant: the hidden-information check caught nothing"):
        check_game(hollow)
    with pytest.raises(ContractError, match="declares no leaky policy"):
        check_game(replace(example_game, leaky_policy=None), clauses=("leaky_mutant",))
    with pytest.raises(ContractError, match="not \\(compared, changed\\)"):
        check_game(replace(example_game, hidden_info_check=f"{__name__}:old_style_check"), clauses=("hidden_info",))


def test_the_kit_names_a_broken_clause(example_game):
    """A declaration whose hook does not resolve fails the declaration clause, naming it; an
    unknown clause is a user error naming the keyword."""
    broken = replace(example_game, reference_check="cardsim_hilo.simulator:no_such_check")
    with pytest.raises(ContractError, match="hilo: declaration: .*no_such_check"):
        check_game(broken)
    with pytest.raises(UserError, match="clauses: unknown speed"):
        check_game(example_game, clauses=("speed",))
    with pytest.raises(ContractError, match="not registered"):
        check_game(replace(example_game, name="hilo2", first_command=("hilo2", "run")), clauses=("first_command",))


def test_the_example_game_is_everywhere(example_game):
    """Registered from code, the example is a game like the built-in ones: in the registry
    (after them), the command line's help, the API and the report's games."""
    from cardsim.cli import build_app
    from cardsim.reports.build import all_games

    assert names()[-1] == EXAMPLE and list(games())[:4] == ["gang", "thegame", "cashnguns", "bang"]
    result = CliRunner().invoke(build_app(), ["--help"])
    shown = " ".join(result.output.split())
    assert result.exit_code == 0 and example_game.help in shown
    assert "for The Gang, The Game, Cash'n Guns, Bang! and Higher or Lower" in shown
    assert EXAMPLE in dir(cardsim) and EXAMPLE in cardsim.__all__
    assert cardsim.hilo.run(n=50, jobs=1, quiet=True).table.height == 3
    assert all_games()[-1] == EXAMPLE
    unregister(EXAMPLE)
    try:
        assert EXAMPLE not in CliRunner().invoke(build_app(), ["--help"]).output
        with pytest.raises(AttributeError):
            cardsim.hilo  # noqa: B018
    finally:
        register(example_game)


def test_games_come_in_through_the_entry_point_group(monkeypatch, example_game):
    """An installed plug-in's entry point (here a stand-in, nothing is installed) adds its game
    after the built-in ones; one that fails to load or takes a used name is skipped with a
    warning, and cardsim keeps working."""
    from importlib.metadata import EntryPoint

    from cardsim.sims import registry

    points = [
        EntryPoint("hilo", "cardsim_hilo:GAME", registry.ENTRY_POINT_GROUP),
        EntryPoint("broken", "cardsim_no_such_game:GAME", registry.ENTRY_POINT_GROUP),
        EntryPoint("gang", "cardsim_hilo:GAME", registry.ENTRY_POINT_GROUP),
    ]
    seen_groups = []
    monkeypatch.setattr(
        registry, "entry_points", lambda group: seen_groups.append(group) or [p for p in points if p.group == group]
    )
    unregister(EXAMPLE)
    registry.refresh()
    try:
        with pytest.warns(UserWarning) as caught:
            found = names()
        assert seen_groups == ["cardsim.games"]
        assert found == ["gang", "thegame", "cashnguns", "bang", EXAMPLE]
        assert get_game(EXAMPLE) == example_game and get_game("gang").title == "The Gang"
        assert len(caught) == 2 and "broken" in str(caught[0].message)
    finally:
        monkeypatch.undo()
        registry.refresh()
        register(example_game)
