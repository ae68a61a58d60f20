"""Run part of the test session in a second pytest process, on the second core.

One pytest process keeps one core busy, and with cold numba caches most of a run is compiling.
The session hands the tests under :data:`ASIDE` (The Gang's and The Game's, and the report tests
that share the tiny report: about half of the warm run and of the kernels to compile) to a
second ``pytest`` process started at the end of collection, and runs the rest itself
meanwhile. The aside tests stay in the session: they are moved to its end, and when the session
reaches one it takes that test's setup, call and teardown reports from the second process
(pytest's own ``pytest_report_to_serializable`` / ``pytest_report_from_serializable`` hooks)
and logs them as its own, so they count, fail and print as if run here. A test whose reports never come (the second process failed or was stopped) runs here
after all.

Off with ``CARDSIM_TEST_ASIDE=0``, on a single core, when the session is one side only (``-k``,
a file, a folder), and whenever it has an option beyond :data:`PLAIN` or ``PYTEST_ADDOPTS`` is
set: options such as ``-W``, ``-o``, ``-x``, ``-s``, ``--pdb``, ``--runxfail``, ``-v`` or
``--hypothesis-seed`` would not reach the second process (or, for ``-x``, would stop at another
first failure), so such a session runs in one process, as without this plugin. Tests that use
the ``cache`` fixture stay in the session (the second process runs without the cache
provider). Warnings raised in the second process are not relayed to the session's summary.
The second process compiles into the same on-disk numba cache, so a kernel one process has
compiled the other loads; it gets SIGTERM when the session's process ends.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

# Node-id prefixes of the tests run in the second process.
ASIDE = ("tests/gang/", "tests/thegame/", "tests/reports/test_browser.py", "tests/reports/test_pdf.py",
         "tests/reports/test_sections.py")
OUT = "CARDSIM_TEST_ASIDE_OUT"  # set in the second process: the file its reports go to
# The options a session may have and still hand tests aside: selection, reporting and output
# files, which mean the same whichever process runs a test (``-p`` only as ``-p no:cacheprovider``).
PLAIN = ("-q", "--quiet", "-r", "--tb", "--durations", "--junitxml", "--junit-xml", "-k", "-m",
         "--strict-markers", "--color")


def _plain_session(config: pytest.Config) -> bool:
    """Whether every option of the session is one of :data:`PLAIN`."""
    if os.environ.get("PYTEST_ADDOPTS"):
        return False
    args = list(config.invocation_params.args)
    for i, arg in enumerate(args):
        if arg == "-p":
            if i + 1 == len(args) or args[i + 1] != "no:cacheprovider":
                return False
        elif arg.startswith("-") and not arg.startswith(PLAIN) and args[i - 1:i] not in (["-k"], ["-m"]):
            return False
    return True


def _die_with_parent() -> None:
    """In the second process: SIGTERM when the session's process ends (Linux), so that a
    session stopped by a signal leaves nothing running."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Aside:
    """The second process and the reports it has written so far, by node id."""

    def __init__(self, config: pytest.Config, nodeids: list[str]) -> None:
        self.config = config
        self.folder = Path(tempfile.mkdtemp(prefix="cardsim-aside-"))
        self.out = self.folder / "reports.jsonl"
        self.out.touch()
        arguments = self.folder / "nodeids.txt"
        arguments.write_text("\n".join(nodeids) + "\n", encoding="utf-8")
        self.log = (self.folder / "pytest.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
             "--strict-markers", f"--tb={config.option.tbstyle}", f"@{arguments}"],
            cwd=config.rootpath, env={**os.environ, OUT: str(self.out)}, stdin=subprocess.DEVNULL,
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent)
        self.reading = self.out.open("r", encoding="utf-8")
        self.pending = ""
        self.reports: dict[str, list[pytest.TestReport]] = {}
        self.finished: set[str] = set()
        self.ran_here = 0  # aside tests run in the session after all
        self.exit_code: int | None = None
        self.last_output = ""

    def _read(self) -> bool:
        """Take in the complete lines written since the last read; whether there were any."""
        chunk = self.reading.read()
        if not chunk:
            return False
        lines = (self.pending + chunk).split("\n")
        self.pending = lines.pop()
        for line in lines:
            report = self.config.hook.pytest_report_from_serializable(config=self.config, data=json.loads(line))
            if isinstance(report.longrepr, list):  # a skip's (path, line, reason), a list in JSON
                report.longrepr = tuple(report.longrepr)
            self.reports.setdefault(report.nodeid, []).append(report)
            if report.when == "teardown":
                self.finished.add(report.nodeid)
        return True

    def reports_for(self, nodeid: str) -> list[pytest.TestReport] | None:
        """The test's setup, call and teardown reports, waiting while the second process
        runs; None if it ended without them."""
        while nodeid not in self.finished:
            if not self._read():
                if self.process.poll() is not None and not self._read():
                    return None
                time.sleep(0.05)
        return self.reports.pop(nodeid)

    def close(self) -> None:
        self.exit_code = self.process.poll()
        if self.exit_code is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait()
        self.reading.close()
        self.log.close()
        self.last_output = (self.folder / "pytest.log").read_text(encoding="utf-8", errors="replace").strip()[-500:]
        for path in self.folder.iterdir():
            path.unlink()
        self.folder.rmdir()


_aside: Aside | None = None
_aside_ids: set[str] = set()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """After selection: move the aside tests to the end and start the second process on them."""
    global _aside, _aside_ids
    if OUT in os.environ or os.environ.get("CARDSIM_TEST_ASIDE", "1") == "0" or (os.cpu_count() or 1) < 2 \
            or config.option.collectonly or not _plain_session(config):
        return

    def goes_aside(item: pytest.Item) -> bool:
        return item.nodeid.startswith(ASIDE) and "cache" not in getattr(item, "fixturenames", ())

    aside = [item for item in items if goes_aside(item)]
    here = [item for item in items if not goes_aside(item)]
    if not aside or not here:
        return
    items[:] = here + aside
    _aside_ids = {item.nodeid for item in aside}
    _aside = Aside(config, [item.nodeid for item in aside])


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """An aside test: log the second process's reports of it instead of running it here."""
    if _aside is None or item.nodeid not in _aside_ids:
        return None
    reports = _aside.reports_for(item.nodeid)
    if reports is None:
        _aside.ran_here += 1
        return None  # run here after all
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for report in reports:
        item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """In the second process: hand every test report to the session that started it."""
    out = os.environ.get(OUT)
    if out is None:
        return
    config: Any = _config
    data = config.hook.pytest_report_to_serializable(config=config, report=report)
    with open(out, "a", encoding="utf-8") as stream:
        stream.write(json.dumps(data) + "\n")


_config: pytest.Config | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _config
    _config = config


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say so when the second process ended early (its remaining tests then ran here)."""
    if _aside is not None and _aside.ran_here:
        terminalreporter.write_line(
            f"aside: the second pytest process ended (exit code {_aside.exit_code}) before "
            f"{_aside.ran_here} of its tests, which ran here; its last output:")
        for line in (_aside.last_output or "none").splitlines():
            terminalreporter.write_line(f"    | {line}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _aside is not None:
        _aside.close()
