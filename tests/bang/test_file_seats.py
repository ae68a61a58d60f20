"""Bang! tables with several roles played by strategies written in Python, each in a process
of its own (the config's ``FILE.py:NAME`` bots)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.sims.bang.simulator import BangConfig, run_batch

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "strategies"
TWIN = f"{EXAMPLES / 'bang_role.py'}:RoleBot"
RENEGADE_RULES = f"{EXAMPLES / 'bang_renegade.py'}:TwoRules"


def test_twins_in_several_roles_play_the_kernels_games() -> None:
    kernel = run_batch(BangConfig(players=6), np.random.default_rng(5), 20)
    twins = BangConfig(players=6, sheriff_bot=TWIN, renegade_bot=TWIN, outlaw_bot=TWIN, fallback_bot="role")
    assert run_batch(twins, np.random.default_rng(5), 20).equals(kernel)


def test_a_file_seat_changes_the_games_and_its_digest_is_kept() -> None:
    plain = BangConfig(players=5, sheriff_bot="tuned", deputy_bot="tuned", outlaw_bot="tuned", renegade_bot="tuned")
    mixed = BangConfig(players=5, sheriff_bot=TWIN, deputy_bot="tuned", outlaw_bot="tuned", renegade_bot=RENEGADE_RULES)
    assert len(mixed.files) == 2 and not plain.files
    a = run_batch(plain, np.random.default_rng(1), 30)
    b = run_batch(mixed, np.random.default_rng(1), 30)
    assert not a.equals(b)


def test_run_takes_file_seats_per_role() -> None:
    r = cardsim.bang.run(players=5, bots=f"sheriff={TWIN},renegade={RENEGADE_RULES}", n=20, jobs=1, quiet=True)
    assert r.episodes.height == 20


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"renegade_bot": "nosuch.py:X"}, "cannot read"),
        ({"renegade_bot": "tuned3"}, "unknown bot"),
        ({"renegade_bot": TWIN, "sheriff_bot": "search"}, "search bot"),
        ({"renegade_bot": TWIN, "fallback_bot": "search"}, "fallback"),
    ],
)
def test_bad_tables_are_user_errors(fields: dict, words: str) -> None:
    with pytest.raises(cardsim.UserError, match=words):
        BangConfig(players=5, **fields)


def test_a_file_that_fails_to_load_is_a_user_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise ValueError('no')\n")
    config = BangConfig(players=4, renegade_bot=f"{broken}:Nope")
    with pytest.raises(cardsim.UserError, match="broken.py"):
        run_batch(config, np.random.default_rng(0), 2)


def test_evaluate_against_a_file_with_files_around_it() -> None:
    """The twin of the role bot against itself, a file Sheriff at the table: nothing differs."""
    result = cardsim.bang.evaluate(
        TWIN, role="renegade", players=5, n=30, against=TWIN, others=f"sheriff={TWIN},deputy=role,outlaw=role", jobs=1
    )
    diff = result.tables["paired_difference"].row(0, named=True)
    assert diff["difference"] == 0.0 and diff["n"] == 30


def test_evaluate_with_the_strategy_role_played_by_files_around_it_is_refused() -> None:
    with pytest.raises(cardsim.UserError, match="other outlaw seats"):
        cardsim.bang.evaluate(RENEGADE_RULES, role="outlaw", players=7, n=10, others=f"outlaw={TWIN}")


def test_a_bad_against_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    broken = tmp_path / "broken.py"
    broken.write_text("raise ValueError('no')\n")
    done = subprocess.run(
        [sys.executable, "-m", "cardsim", "bang", "evaluate", "--strategy", RENEGADE_RULES, "--role", "renegade"]
        + ["--against", f"{broken}:X", "--n", "10"],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2 and "against" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_isolation_probe_finds_nothing_in_several_roles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two roles played by the probe of the isolation tests (it walks frames, ``gc`` and
    ``.base`` at every decision): nothing of the engine reaches it, in either seat."""
    import json

    from cardsim.sims.core.isolation import close_hosts

    probe = f"{ROOT / 'tests' / 'cashnguns' / 'isolation_probe.py'}:AnyGame"
    out = tmp_path / "probe.jsonl"
    monkeypatch.setenv("CARDSIM_PROBE_OUT", str(out))
    close_hosts()  # a fresh host reads the variable
    try:
        run_batch(BangConfig(players=5, sheriff_bot=probe, renegade_bot=probe), np.random.default_rng(2), 2)
    finally:
        close_hosts()
    seen = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(seen) >= 10 and all(found == [] for found in seen), seen[:3]


def test_run_with_a_file_that_fails_to_load_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    broken = tmp_path / "broken.py"
    broken.write_text("raise ValueError('no')\n")
    done = subprocess.run(
        [sys.executable, "-m", "cardsim", "bang", "run", "--players", "5", "--n", "10", "--no-store"]
        + ["--bots", f"sheriff=tuned,renegade={broken}:X", "--jobs", "2"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2 and "--bots" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def plays_the_files_games(spec: str, table: np.ndarray, focus_roles: list[int], seed: int) -> None:
    """At 5 players, a tuned seat in each of ``focus_roles`` beside the outside file ``spec``
    and beside the tuned bot with parameters ``table`` plays the same games on the same deals,
    and beside the plain tuned bot other ones."""
    from cardsim.sims.bang.cards import BOT_NAMES
    from cardsim.sims.bang.compare import bot_table, focus_chunk

    players, games = 5, 16
    focus = plain = bot_table("tuned", players, None)
    compiled = (BOT_NAMES.index("tuned"), table)
    outside = bot_table(spec, players, None)
    same = differ = 0
    for role in focus_roles:
        by_file = focus_chunk(players, role, focus, outside, games, seed, 0, strategy=spec)[0]
        by_kernel = focus_chunk(players, role, focus, compiled, games, seed, 0)[0]
        by_tuned = focus_chunk(players, role, focus, plain, games, seed, 0)[0]
        same += int((by_file == by_kernel).all())
        differ += int((by_file != by_tuned).any())
    assert same == len(focus_roles)
    assert differ > 0


def test_the_tuned_two_rules_member_plays_the_outside_two_rules_games() -> None:
    """The search bot's compiled ``tuned-tworules`` population member is the outside TwoRules
    Renegade: the same deals give the same games (and the plain tuned Renegade other ones)."""
    from cardsim.sims.bang.simulator import tuned_two_rules_params

    # the Sheriff, an Outlaw in focus; the Renegade plays the rules
    plays_the_files_games(RENEGADE_RULES, tuned_two_rules_params(5), [0, 2], 11)


@pytest.mark.parametrize(("style", "role_name"), [("LongOutlaw", "outlaw"), ("WildRenegade", "renegade")])
def test_the_tuned_styles_member_plays_the_outside_styles_games(style: str, role_name: str) -> None:
    """Each role row of the compiled ``tuned-styles`` member is the outside style of that role
    (``bang_styles.py``): with that row on the tuned table, the same deals give the file's games
    (and the plain tuned table other ones), whichever other role the focus seat holds."""
    from cardsim.sims.bang.cards import ROLE_NAMES
    from cardsim.sims.bang.simulator import bot_params, tuned_styles_params

    row = ROLE_NAMES.index(role_name)
    table = bot_params("tuned", 5)
    table[row] = tuned_styles_params(5)[row]
    focus_roles = [role for role in (0, 1, 2, 3) if role != row][:2]
    plays_the_files_games(f"{EXAMPLES / 'bang_styles.py'}:{style}", table, focus_roles, 13)
