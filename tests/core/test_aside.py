"""The test session's second process (``tests/aside.py``): the tests it runs count, fail and
print in the session as if run there, and when it dies its tests run in the session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CONFTEST = """
import os

pytest_plugins = ("tests.aside",)


def pytest_configure(config):
    if os.environ.get("CARDSIM_TEST_ASIDE_OUT") and os.environ.get("ASIDE_DIES"):
        os._exit(3)  # the second process dies before running anything
"""

RECORD = """
import os


def record(name):
    with open(os.environ["PIDS"], "a") as out:
        out.write(f"{name} {os.getpid()}\\n")
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small suite: one test file the session keeps, one it hands aside (under tests/gang/)."""
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n")
    tests = tmp_path / "tests"
    (tests / "gang").mkdir(parents=True)
    (tests / "core").mkdir()
    (tests / "conftest.py").write_text(CONFTEST)
    (tests / "record.py").write_text(RECORD)
    (tests / "core" / "test_here.py").write_text(
        "from record import record\n\ndef test_here():\n    record('here')\n")
    (tests / "gang" / "test_away.py").write_text(
        "import pytest\nfrom record import record\n\n"
        "def test_away():\n    record('away')\n\n"
        "def test_away_fails():\n    print('said aside')\n    assert 1 + 1 == 3\n\n"
        "def test_away_skips():\n    pytest.skip('not today')\n")
    return tmp_path


def run(project: Path, *options: str, **env: str) -> tuple[subprocess.CompletedProcess, dict[str, str]]:
    pids = project / "pids.txt"
    pids.unlink(missing_ok=True)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider", *options], cwd=project,
        env={**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{project / 'tests'}", "PIDS": str(pids),
             "CARDSIM_TEST_ASIDE": "1", **env},
        capture_output=True, text=True, timeout=120)
    return result, dict(line.split() for line in pids.read_text().splitlines())


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the second process needs a second core")
@pytest.mark.parametrize("how", ["aside", "off", "aside dies", "an option it would not pass on"])
def test_aside_tests_count_and_fail_in_the_session(project, how):
    env = {"off": {"CARDSIM_TEST_ASIDE": "0"}, "aside dies": {"ASIDE_DIES": "1"}}.get(how, {})
    options = ("-W", "error::UserWarning") if how == "an option it would not pass on" else ()
    result, pids = run(project, *options, **env)
    out = result.stdout
    assert result.returncode == 1, out
    assert "1 failed, 2 passed, 1 skipped" in out, out
    assert "FAILED tests/gang/test_away.py::test_away_fails" in out and "said aside" in out, out
    assert "SKIPPED [1] tests/gang/test_away.py:12: not today" in out, out
    # where the aside tests ran: in a process of their own only when it lived
    assert (pids["away"] != pids["here"]) == (how == "aside"), (pids, out)
    assert ("aside: the second pytest process ended (exit code 3) before 3 of its tests" in out) == (how == "aside dies"), out
