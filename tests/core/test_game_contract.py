"""The contract every registered game keeps, checked the same way for each (and for the example
game of ``examples/hilo``, registered here from code: nothing is installed).

Per game: the same seed gives the same rows with one worker or two; a run interrupted after a
chunk and run again gives the same rows; its first command's ``--json`` output is one JSON
document; its hidden-information hook runs and finds no leak; its kernel agrees with its
plain-Python reference where it has one. Sizes are tiny: this is a contract, not a statistic.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cardsim
from cardsim.errors import Interrupted
from cardsim.sims.core.game import Game, resolve
from cardsim.sims.core.runner import run
from cardsim.sims.registry import games, get_game, names, register, unregister

EXAMPLE = "hilo"
EXAMPLE_DIR = Path(__file__).resolve().parents[2] / "examples" / EXAMPLE
# On the path from collection on, so that every worker process started later can import it.
if str(EXAMPLE_DIR) not in sys.path:
    sys.path.insert(0, str(EXAMPLE_DIR))

CHUNK = 8
SEED = 12


@pytest.fixture(scope="module", autouse=True)
def example_game():
    """The example game, registered as a plug-in's entry point would register it."""
    game = register(resolve("cardsim_hilo:GAME"))
    yield game
    unregister(game.name)


@pytest.fixture(params=list(dict.fromkeys([*names(), EXAMPLE])))
def game(request) -> Game:
    return get_game(request.param)


def _rows(game: Game, **options):
    simulator = game.load_simulator()
    return run(simulator, simulator.make_config(), n=3 * CHUNK, seed=SEED, chunk_size=CHUNK,
               **options).episodes


def test_same_seed_same_rows_with_one_or_two_workers(game):
    assert _rows(game, jobs=1).equals(_rows(game, jobs=2))


def test_an_interrupted_run_resumes_to_the_same_rows(game, tmp_path):
    def stop_after_one(index: int) -> None:
        if index == 1:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted):
        _rows(game, jobs=1, store=tmp_path, on_chunk=stop_after_one)
    computed: list[int] = []
    resumed = _rows(game, jobs=1, store=tmp_path, on_chunk=computed.append)
    assert 0 < len(computed) < 3  # the finished chunks were reused
    assert resumed.equals(_rows(game, jobs=1))


def test_first_command_json_is_one_document(game, capsys):
    from cardsim.cli import main

    argv = list(game.first_command)
    assert argv and argv[0] == game.name
    argv[argv.index("--n") + 1] = "40"
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--jobs", "1", "--no-store", "--quiet", "--json"])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 0, err
    document = json.loads(out)  # one document: json.loads rejects anything after it
    assert document["tables"] and document["seed"] == 0


def test_hidden_information_hook_runs(game):
    assert game.hidden_info_check, f"{game.name} declares no hidden-information check"
    assert resolve(game.hidden_info_check)(SEED) > 0


def test_kernel_matches_its_reference(game):
    package = Path(sys.modules[game.simulator_module.rpartition(".")[0]].__file__).parent
    if game.name != EXAMPLE:  # a built-in game with a reference.py must declare its check
        assert (game.reference_check is not None) == (package / "reference.py").exists()
    if game.reference_check is None:
        pytest.skip(f"{game.name} has no plain-Python reference")
    assert resolve(game.reference_check)(SEED) > 0


def test_the_declaration_resolves(game):
    simulator = game.load_simulator()
    assert simulator.name == game.name and simulator.policies
    config = simulator.make_config()
    assert all(hasattr(config, field) for field in game.policy_fields)
    for path in (game.cli, game.api, game.report_section, game.bench, game.strategy_bench,
                 game.warmup_configs):
        if path is not None:
            resolve(path)


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

    points = [EntryPoint("hilo", "cardsim_hilo:GAME", registry.ENTRY_POINT_GROUP),
              EntryPoint("broken", "cardsim_no_such_game:GAME", registry.ENTRY_POINT_GROUP),
              EntryPoint("gang", "cardsim_hilo:GAME", registry.ENTRY_POINT_GROUP)]
    seen_groups = []
    monkeypatch.setattr(registry, "entry_points",
                        lambda group: seen_groups.append(group) or [p for p in points if p.group == group])
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
