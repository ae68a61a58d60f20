"""The command-line contract: bad input is one line and exit 2 before any run, list
options never count a configuration twice, --json is one document, tables never cut a number,
options read alike everywhere.

Every case goes through ``cardsim.cli.main`` in this process, so the real error path is taken;
the runner is replaced by a tripwire, so a case that reached a computation fails loudly.
"""

from __future__ import annotations

import json
import os
import sys
import types

import polars as pl
import pytest

import cardsim.api  # noqa: F401  (imported before the tripwire replaces run_config)
import cardsim.commands.common  # noqa: F401
from cardsim import options
from cardsim.cli import main
from cardsim.commands.output import print_table
from cardsim.sims.core import jit


def cardsim(capsys, *args: str) -> tuple[int, str, str]:
    """Run the console entry point in this process: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


@pytest.fixture
def no_compute(monkeypatch):
    """Fail the test if a command reaches a simulation."""

    def tripwire(*args, **kwargs):
        raise AssertionError("a simulation ran although the input was bad")

    monkeypatch.setattr(options, "run_config", tripwire)
    monkeypatch.setattr("cardsim.commands.common.run_config", tripwire)
    monkeypatch.setattr("cardsim.api.common.run_config", tripwire)
    monkeypatch.setattr("cardsim.analysis.cashnguns.profile_payoffs", tripwire)


def _existing_file(tmp_path):
    path = tmp_path / "taken.txt"
    path.write_text("x")
    return path


BAD_INPUT = [
    # (arguments, a fragment of the one-line message); {file} is an existing file
    (["gang", "heist", "--plot", "out.svg"], "--plot takes a folder"),
    (["gang", "heist", "--plot", "{file}"], "is not a folder"),
    (["gang", "heist", "--plot", "plots", "--plot-format", "xyz"], "--plot-format must be"),
    (["gang", "cards", "--out", "/proc/x.parquet"], "cannot write in /proc"),
    (["gang", "cards", "--out", "effects.txt"], "must end in .parquet"),
    (["report", "--out", "{file}"], "exists and is not a folder"),
    (["gang", "heist", "--backend", "dask", "--scheduler", "nonsense"], "--scheduler: expected"),
    (["gang", "heist", "--backend", "dask"], "needs --scheduler"),
    (["gang", "heist", "--scheduler", "tcp://localhost:8786"], "--scheduler is for --backend dask"),
    (["gang", "heist", "--backend", "spark"], "unknown backend"),
    (["gang", "heist", "--store", "somewhere", "--no-store"], "--store and --no-store"),
    (["gang", "heist", "--store", "{file}"], "is not a folder"),
    (["gang", "heist", "--max-n", "5000"], "--max-n bounds a --precision run"),
    (["gang", "heist", "--precision", "2"], "--precision must be between"),
    (["gang", "heist", "--jobs", "0"], "--jobs must be a whole number of at least 1"),
    (["gang", "heist", "--n", "0"], "--n must be a positive whole number"),
    (["gang", "heist", "--n", "-5"], "--n must be a positive whole number"),
    (["gang", "heist", "--seed", "-1"], "--seed must be a non-negative"),
    (["gang", "heist", "--players", "9"], "players must be 3 to 6"),
    (["gang", "heist", "--players", "4-3"], "empty range"),
    (["gang", "heist", "--model", "oracle"], "unknown model"),
    (["gang", "heist", "--format", "xml"], "--format must be one of"),
    (["gang", "heist", "--json", "--format", "csv"], "--json and --format csv contradict"),
    (["gang", "heist", "--bogus"], "No such option"),
    (["gang", "game", "--mode", "expert"], "unknown mode"),
    (["gang", "cards", "--kind", "jokers"], "--kind must be"),
    (["thegame", "run", "--players", "0-2"], "players"),
    (["thegame", "run", "--strategy", "psychic"], "unknown strategy"),
    (["thegame", "run", "--plot", "/proc/plots"], "cannot write in /proc"),
    (["bang", "run", "--players", "3-5"], "4-7"),
    (["bang", "run", "--bots", "outlaw=genius"], "genius"),
    (["bang", "run", "--plot", "sides.png"], "--plot takes a folder"),
    (["cashnguns", "run", "--players", "7"], "players must be 4-6"),
    (["cashnguns", "payoff", "--profiles-csv", "/proc/p.csv"], "cannot write in /proc"),
    (["cashnguns", "payoff", "--plot", "cng.svg"], "--plot takes a folder"),
    (["cashnguns", "payoff", "--players", "4", "--max-n", "10"], "--max-n bounds"),
    (["cashnguns", "stage", "--players", "4-9"], "players"),
    (["tune", "gang", "--players", "9"], "players must be 3 to 6"),
    (["runs", "show", "nothing-like-this", "--store", "{tmp}"], "no run"),
    (["bench", "nothing"], "unknown benchmark"),
    # the dask backend
    (
        ["gang", "heist", "--backend", "dask", "--scheduler", "tcp://host"],
        "--scheduler: expected an address with a port",
    ),
    (
        ["gang", "heist", "--backend", "dask", "--scheduler", "tcp://host:99999"],
        "--scheduler: expected an address with a port",
    ),
    (["poker", "equity", "As Ah", "--seed", "-1"], "--seed must be a non-negative"),
    (
        ["runs", "prune", "--older-than", "99999999999d", "--yes"],
        "--older-than: 99999999999d is longer than any run can be old",
    ),
    (["bang", "run", "--bots", ""], "--bots is empty"),
    (["bang", "run", "--bots", " , "], "--bots is empty"),
    (["bang", "run", "--bots", "sheriff=role,sheriff=random"], "--bots names sheriff twice"),
    (["bang", "compare", "--store", "somewhere", "--no-store"], "--store and --no-store"),
    (["bang", "compare", "--seed", "-1", "--no-store"], "--seed must be a non-negative"),
    # one name per idea, texts that name the option given
    (["runs", "list", "--store", "/nonexistent/store"], "--store: no folder /nonexistent/store"),
    (["runs", "prune", "--stale", "--yes", "--store", "/nonexistent/store"], "--store: no folder"),
    (["gang", "models", "--format", "table", "--json"], "--json and --format table contradict"),
    (["cashnguns", "check", "--players", "4", "--n", "0"], "--n must be at least 1"),
    (["bang", "evaluate", "--strategy", "x.py:X", "--role", "captain"], "role must be one of"),
    (["bang", "stress", "--search-n", "1"], "--search-n"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_is_one_line_exit_2_before_any_run(capsys, tmp_path, monkeypatch, no_compute, args, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARDSIM_STORE", str(tmp_path / "store"))
    taken = _existing_file(tmp_path) if "{file}" in args else None
    filled = [a.format(file=taken, tmp=tmp_path) for a in args]
    code, out, err = cardsim(capsys, *filled)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and message in lines[0], err
    assert "Traceback" not in err and out == ""
    assert not (tmp_path / "store").exists()


def _heist_rows(capsys, *args: str) -> tuple[list[dict], str]:
    code, out, err = cardsim(capsys, "gang", "heist", *args, "--jobs", "1", "--no-store", "--json")
    assert code == 0, err
    return json.loads(out)["tables"]["heist_success"], err


def test_repeated_entries_run_once_and_n_counts_distinct_episodes(capsys):
    rows, err = _heist_rows(capsys, "--players", "3,3", "--model", "history,history", "--n", "200")
    assert len(rows) == 1 and rows[0]["n"] == 200
    assert "repeated 3 dropped" in err and "repeated history dropped" in err
    single, _ = _heist_rows(capsys, "--players", "3", "--model", "history", "--n", "200")
    assert rows == single


def test_repeated_entries_in_ranges_and_other_games(capsys):
    rows, _ = _heist_rows(capsys, "--players", "3-4,4", "--model", "random", "--n", "100")
    assert [(r["players"], r["n"]) for r in rows] == [(3, 100), (4, 100)]
    code, out, err = cardsim(
        capsys,
        "thegame",
        "run",
        "--players",
        "2,2",
        "--strategy",
        "greedy,greedy",
        "--n",
        "100",
        "--jobs",
        "1",
        "--no-store",
        "--json",
    )
    assert code == 0, err
    summary = json.loads(out)["tables"]["summary"]
    assert [(r["players"], r["strategy"], r["n"]) for r in summary] == [(2, "greedy", 100)]
    code, out, err = cardsim(
        capsys, "bang", "run", "--players", "4,4", "--n", "100", "--jobs", "1", "--no-store", "--json"
    )
    assert code == 0, err
    sides = json.loads(out)["tables"]["sides"]
    assert {r["n"] for r in sides} == {100} and {r["players"] for r in sides} == {4}


def test_list_parsers_drop_repeats_with_a_note(capsys):
    assert options.parse_range("3-5,4,5") == [3, 4, 5]
    assert options.parse_range([4, 4, 5]) == [4, 5]
    assert options.parse_choice("b,a,b", ["a", "b"], name="model") == ["b", "a"]
    assert options.split_names(["x,y", "x"], name="challenge") == ["x", "y"]
    notes = capsys.readouterr().err.strip().splitlines()
    assert len(notes) == 4 and all(line.startswith("note: ") for line in notes)


def test_json_is_one_document_with_seed_stop_rule_and_runs(capsys, tmp_path):
    code, out, err = cardsim(
        capsys,
        "thegame",
        "run",
        "--players",
        "1-2",
        "--strategy",
        "greedy",
        "--n",
        "50",
        "--seed",
        "7",
        "--jobs",
        "1",
        "--store",
        str(tmp_path),
        "--json",
    )
    assert code == 0, err
    document = json.loads(out)  # one document: json.loads rejects anything after it
    assert set(document) == {"command", "version", "seed", "stop_rule", "runs", "tables"}
    assert document["command"] == "thegame run" and document["seed"] == 7
    assert document["stop_rule"] == "fixed n=50"
    assert sorted(document["runs"]) == sorted(p.name for p in tmp_path.iterdir())
    assert set(document["tables"]) == {"summary", "cards_left_distribution"}


def test_search_commands_record_their_seed_and_stop_rule(capsys):
    """A search command's document names the seed it was given, not null."""
    code, out, err = cardsim(
        capsys,
        "cashnguns",
        "check",
        "--players",
        "4",
        "--budget",
        "2",
        "--local",
        "2",
        "--n",
        "200",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--no-sweep",
        "--oracle-games",
        "0",
        "--json",
    )
    assert code == 0, err
    document = json.loads(out)
    assert document["seed"] == 5
    assert document["stop_rule"] == "2 + 2 local candidates, 200 fresh paired games"


def test_csv_format_prints_named_tables(capsys):
    code, out, err = cardsim(capsys, "gang", "models", "--format", "csv")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "# models" and lines[1] == "model,how it plays"
    assert len(lines) == 2 + 4


WIDE = pl.DataFrame(
    {
        "players": [3, 4],
        "strategy": ["a strategy with a long descriptive name", "short"],
        "n": [100_000, 2_000_000],
        "success % (95% CI)": ["72.28 (72.12-72.44)", "5.1 (4.98-5.22)"],
        "excellent % (95% CI)": ["15.5 (11.14-21.16)", "24.5 (19.06-30.9)"],
        "cards left": ["21.74 (20.32-23.15)", "20.27 (18.67-21.88)"],
        "p": [0.123456, 74.0],
    }
)


@pytest.mark.parametrize("width", [200, 120, 80, 60, 40, 20])
def test_tables_never_cut_a_number(capsys, width):
    print_table(WIDE, title="a title that is long enough to wrap at narrow widths", width=width)
    out = capsys.readouterr().out
    for column in ("n", "success % (95% CI)", "excellent % (95% CI)", "cards left"):
        for cell in WIDE[column].to_list():
            shown = f"{cell:,}" if isinstance(cell, int) else cell
            assert shown in out, (width, shown, out)
    assert "0.1235" in out and "74.0" in out
    assert "…" not in out


def test_columns_with_one_value_move_under_the_title(capsys):
    frame = pl.DataFrame(
        {
            "players": [4, 4],
            "model": ["history", "history"],
            "card": ["muscle", "none"],
            "success % (95% CI)": ["73.0 (66.46-78.68)", "76.0 (69.63-81.39)"],
            "vs none, points": ["-3.0 (-11.48-5.53)", "0.0 (-8.35-8.35)"],
        }
    )
    print_table(frame, title="cards", width=60)
    out = capsys.readouterr().out
    assert "players 4 · model history" in out and "[1/2]" not in out
    assert "-3.0 (-11.48-5.53)" in out


def test_piped_output_is_readable(capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    print_table(WIDE, title="piped")  # capsys is not a terminal: rich uses 80 columns
    out = capsys.readouterr().out
    assert "72.28 (72.12-72.44)" in out and "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_help_shows_switches_as_switches_and_groups_show_an_example(capsys):
    code, out, _ = cardsim(capsys, "gang", "heist", "--help")
    assert code == 0
    assert "<bool>" not in out and "--quiet" in out and "--no-store" in out
    assert "--format" in out and "--plot-format" in out
    for group in ("gang", "thegame", "cashnguns", "bang", "poker", "runs", "tune"):
        code, out, _ = cardsim(capsys, group, "--help")
        assert code == 0 and "Example: cardsim " in out, group


def test_runner_options_are_declared_once():
    """Every simulation command offers the same runner options, from one definition."""
    import typer.main

    from cardsim.cli import build_app
    from cardsim.commands.common import RUN_PARAMETERS

    shared = {name for name, _, _ in RUN_PARAMETERS}
    root = typer.main.get_command(build_app())
    commands = {
        ("gang", "heist"),
        ("gang", "game"),
        ("gang", "cards"),
        ("thegame", "run"),
        ("bang", "run"),
        ("cashnguns", "run"),
        ("cashnguns", "payoff"),
    }
    for group, name in commands:
        params = {p.name for p in root.commands[group].commands[name].params}
        assert shared <= params, (group, name, shared - params)


def test_gang_heist_plot_with_one_player_count_writes_a_plot(capsys, tmp_path):
    code, _, err = cardsim(
        capsys,
        "gang",
        "heist",
        "--players",
        "4",
        "--n",
        "200",
        "--jobs",
        "1",
        "--no-store",
        "--plot",
        str(tmp_path / "plots"),
    )
    assert code == 0, err
    assert [p.name for p in (tmp_path / "plots").iterdir()] == ["gang_success_by_players.svg"]
    assert "plots: " in err


def test_players_take_ranges_everywhere(capsys):
    code, out, err = cardsim(capsys, "cashnguns", "stage", "--players", "4-5", "--json")
    assert code == 0, err
    assert {row["players"] for row in json.loads(out)["tables"]["stage"]} == {4, 5}


def test_default_jobs_one_worker_for_short_work_all_cores_for_long(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    quick = options.RunOptions()
    assert options.choose_jobs("thegame", 2_000, quick) == 1
    assert options.choose_jobs("thegame", 1_000_000, quick) == 8
    assert options.choose_jobs("gang", 1_000_000, quick) == 8
    assert options.choose_jobs("gang", 1_000_000, options.RunOptions(jobs=3)) == 3
    assert options.choose_jobs("gang", 2_000, options.RunOptions(precision=0.001)) == 8
    assert options.choose_jobs("gang", 2_000, options.RunOptions(precision=0.05)) == 1
    assert options.choose_jobs("gang", 20_000, quick) == 1
    assert options.choose_jobs("gang", 20_000, quick, runs=21) == 8  # gang cards: 21 runs


def test_more_jobs_than_cores_gets_a_warning(capsys, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    options.RunOptions(jobs=64).checked()
    err = capsys.readouterr().err
    assert "--jobs 64 is more than this machine's 2 cores" in err


def test_compile_notice_only_when_the_cache_is_cold(tmp_path, monkeypatch, capsys):
    source = tmp_path / "engine.py"
    source.write_text("@kernel\ndef f(): pass\n")
    module = types.ModuleType("cardsim.sims.fakegame.engine")
    module.__file__ = str(source)
    monkeypatch.setitem(sys.modules, "cardsim.sims.fakegame.engine", module)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert options.kernels_cold("fakegame")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    index = cache / "engine.f-1.py311.nbi"
    index.write_bytes(b"")
    os.utime(index, (source.stat().st_mtime + 1,) * 2)
    assert not options.kernels_cold("fakegame")
    os.utime(source, (index.stat().st_mtime + 1,) * 2)  # edited after the cache: cold again
    assert options.kernels_cold("fakegame")
    numba_cache = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(numba_cache))
    assert options.kernels_cold("fakegame")
    folder = jit.cache_folder(source, str(numba_cache))
    folder.mkdir(parents=True)
    (folder / "engine.f-1.py311.nbi").write_bytes(b"")
    os.utime(folder / "engine.f-1.py311.nbi", (source.stat().st_mtime + 1,) * 2)
    assert not options.kernels_cold("fakegame")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    from cardsim.sims.core.game import Game
    from cardsim.sims.registry import register, unregister

    register(
        Game(
            name="fakegame",
            title="Fake",
            simulator="cardsim.sims.fakegame.simulator:SIMULATOR",
            help="Fake.",
            example="cardsim fakegame",
            compile_seconds=46,
        )
    )
    monkeypatch.setattr(options, "_announced", set())
    try:
        options.announce_compile("fakegame")
        options.announce_compile("fakegame")
    finally:
        unregister("fakegame")
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [
        "note: compiling the Fake kernels (first run after install or a code "
        "change, about a minute); later runs start at once"
    ]


def test_an_unforeseen_disk_error_is_one_line(capsys, monkeypatch):
    import errno

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "results/chunk.parquet")

    monkeypatch.setattr("cardsim.commands.output.print_table", disk_full)
    code, _, err = cardsim(capsys, "gang", "models")
    assert code == 1
    assert err.strip() == "error: No space left on device: results/chunk.parquet"


def test_bare_cardsim_prints_help_and_exits_0(capsys):
    for args in ([], ["gang"], ["runs"]):
        code, out, err = cardsim(capsys, *args)
        assert code == 0 and err == "", args
        assert out.startswith("Usage: cardsim") and "Commands:" in out, args


def test_version_flag_and_shell_completion(capsys, monkeypatch):
    from cardsim import __version__

    code, out, _ = cardsim(capsys, "--version")
    assert code == 0 and out.strip() == __version__
    code, out, _ = cardsim(capsys, "--help")
    assert "--install-completion" in out and "--show-completion" in out
    monkeypatch.setenv("_CARDSIM_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "cardsim gang heist --pl")
    monkeypatch.setenv("COMP_CWORD", "3")
    code, out, _ = cardsim(capsys)
    assert code == 0 and out.split() == ["--players", "--plot", "--plot-format"]


def test_help_names_only_options_the_command_has(capsys):
    """No command's help names a run option it does not take (gang evaluate's --n once named
    --precision); deprecated old names are hidden from the help."""
    import typer.main

    from cardsim.cli import build_app

    root = typer.main.get_command(build_app())
    wrong = []
    for group_name, group in root.commands.items():
        for name, command in getattr(group, "commands", {group_name: group}).items():
            flags = {flag for param in command.params for flag in param.opts + param.secondary_opts}
            text = " ".join([command.help or ""] + [getattr(p, "help", "") or "" for p in command.params])
            wrong += [
                (group_name, name, flag)
                for flag in ("--precision", "--max-n", "--quiet")
                if flag in text and flag not in flags
            ]
            hidden = [p.opts[0] for p in command.params if getattr(p, "hidden", False)]
            if hidden:
                code, out, _ = cardsim(capsys, group_name, name, "--help")
                assert code == 0 and not any(flag in out.split() for flag in hidden), (name, hidden)
    assert wrong == []


def test_old_option_names_still_run_with_a_note(capsys, no_compute):
    code, out, err = cardsim(capsys, "cashnguns", "check", "--players", "4", "--games", "0")
    assert code == 2 and "note: --games is deprecated; use --n" in err
    assert err.strip().splitlines()[-1] == "error: --n must be at least 1, got 0"
