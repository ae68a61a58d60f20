"""`cardsim bang ...`: commands run, print rates with intervals, and fail in one line."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from cardsim.commands.bang import app

runner = CliRunner()


def test_bots_lists_every_bot() -> None:
    result = runner.invoke(app, ["bots", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["tables"]["bots"]
    assert {row["bot"] for row in rows} == {"random", "role", "naive", "tuned", "role2", "tuned2", "search"}


def test_run_prints_sides_roles_characters_and_length(tmp_path) -> None:
    plot = tmp_path / "plots"
    args = [
        "run",
        "--players",
        "4-5",
        "--n",
        "300",
        "--bots",
        "sheriff=role,outlaw=random",
        "--jobs",
        "1",
        "--no-store",
        "-q",
        "--json",
        "--plot",
        str(plot),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    tables = json.loads(result.stdout)["tables"]
    sides, roles, characters, lengths = (tables[name] for name in ("sides", "roles", "characters", "length"))
    assert len(sides) == 8  # 2 player counts x 4 sides
    for counts in (4, 5):
        rows = [r for r in sides if r["players"] == counts]
        assert sum(r["successes"] for r in rows) == 300
        assert all(r["lo"] - 1e-12 <= r["p"] <= r["hi"] + 1e-12 and r["n"] == 300 for r in rows)
    deputies = [r for r in roles if r["role"] == "deputy"]
    assert [r["players"] for r in deputies] == [5]
    assert sum(r["n"] for r in characters) == 300 * (4 + 5)
    assert [r["players"] for r in lengths] == [4, 5]
    written = (plot / "bang_side_win.svg").read_text()
    assert written.startswith("<?xml") or "<svg" in written[:500]


def test_bad_player_count_is_one_line_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardsim.cli", "bang", "run", "--players", "3-5", "--n", "10"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "4-7" in done.stderr


def test_bad_bot_is_one_line_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cardsim.cli", "bang", "run", "--bots", "outlaw=genius", "--n", "10"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "genius" in done.stderr


def test_run_kills_table() -> None:
    args = ["run", "--players", "7", "--n", "200", "--jobs", "1", "--no-store", "-q", "--json", "--kills"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    kills = json.loads(result.stdout)["tables"]["eliminations"]
    victims = {row["victim"] for row in kills}
    assert victims <= {"sheriff", "deputy", "outlaw", "renegade"} and "outlaw" in victims


def test_compare_takes_the_shared_store_options_and_reuses_rows(tmp_path, monkeypatch) -> None:
    """compare speaks the run options' vocabulary (--store, --no-store, --quiet): its finished
    rows are kept in the store and the same comparison is read back, not played again."""
    import cardsim.sims.bang.compare as compare

    args = [
        "compare",
        "--players",
        "4",
        "--roles",
        "sheriff",
        "--n",
        "200",
        "--jobs",
        "1",
        "--store",
        str(tmp_path),
        "--json",
    ]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert len(list((tmp_path / "bang_compare").iterdir())) == 1

    def tripwire(*args, **kwargs):
        raise AssertionError("a kept row was played again")

    monkeypatch.setattr(compare, "focus_chunk", tripwire)
    again = runner.invoke(app, [*args, "--quiet"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["tables"] == json.loads(first.stdout)["tables"]
    (kept,) = (tmp_path / "bang_compare").iterdir()
    assert json.loads(again.stdout)["runs"] == [f"bang_compare/{kept.stem}"]
    clash = runner.invoke(app, [*args, "--no-store"])
    assert clash.exit_code != 0 and "--store and --no-store" in str(clash.exception)


def one_line_error(*args: str) -> str:
    """stderr of a ``cardsim bang ...`` run that must fail with exit 2 in one line."""
    done = subprocess.run(
        [sys.executable, "-m", "cardsim.cli", "bang", *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    return done.stderr


def test_bad_population_member_is_one_line_exit_2() -> None:
    compare = ["compare", "--players", "5", "--bot", "search", "--against", "tuned", "--n", "10", "--no-store"]
    assert "--population member 'genius'" in one_line_error(*compare, "--population", "role,genius")
    assert "--population member 'mine.py'" in one_line_error(*compare, "--population", "role,mine.py")
    assert "twice" in one_line_error(*compare, "--population", "role,role")


def test_a_table_file_that_fails_to_load_is_one_line_exit_2(tmp_path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no luck')\n")
    compare = ["compare", "--players", "5", "--bot", "tuned", "--n", "10", "--no-store"]
    error = one_line_error(*compare, "--against", f"{broken}:Bot")
    assert "--against" in error and "broken.py" in error and "no luck" in error
    assert "no file" in one_line_error(*compare, "--against", f"{tmp_path / 'gone.py'}:Bot")
    seat = ["compare", "--players", "5", "--bot", f"{broken}:Bot", "--n", "10", "--no-store"]
    assert "--bot takes a built-in bot" in one_line_error(*seat)


def test_compare_against_an_outside_file_table() -> None:
    """A table whose other seats an outside file plays: the role bot in plain Python plays
    the kernel role bot's games, so the tuned seat's rows are the same as against role."""
    from cardsim.api import bang

    args = {"players": "5", "bot": "tuned", "roles": "outlaw", "n": 40, "seed": 3, "jobs": 1}
    spec = "examples/strategies/bang_role.py:RoleBot"
    outside = bang.compare(against=spec, **args).to_dicts()[0]
    assert outside["against"] == spec and outside["n"] == 40
    builtin = bang.compare(against="role", **args).to_dicts()[0]
    assert abs(outside["win"] - builtin["win"]) < 1e-12
    assert abs(outside["baseline"] - builtin["baseline"]) < 1e-12
