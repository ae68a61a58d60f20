"""Where a cold first run spends its compile time: numba's compile events, kernel by kernel.

numba announces every compilation of a function for one argument signature as a
``numba:compile`` event (:mod:`numba.core.event`), with the dispatcher and argument types;
calls between compiled functions nest these events, since compiling a caller compiles its
callees. :func:`profile_command` runs ``cardsim argv`` in a fresh process with an empty
``NUMBA_CACHE_DIR`` (as :func:`cardsim.sims.core.coldstart.measure_cold` does) under a listener
that records each event's start and end; :func:`kernel_costs` turns them into per-kernel
seconds: ``self`` (the time not spent compiling a nested callee) and ``inclusive`` (with the
callees compiled for it), and how many signatures were compiled. numba's own library
functions (``np.argsort``'s quicksort, the shape-mismatch error of a slice assignment) are
compiled the same way and show under their implementation's name.

Each event also carries its process's id and CPU seconds (``time.process_time``) at its start
and end: a compilation runs on one thread, so its CPU seconds hardly depend on what else a
shared machine runs, unlike its wall seconds. :func:`compile_listener` is the recorder itself,
for any process (``benchmarks/compile_profile.py`` installs it in every worker process of a
command); :func:`kernel_costs` nests events within each process only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class CompileEvent:
    """One compilation: the function's qualified name, its signature, when it started and
    ended (``perf_counter`` seconds), how deep it nested in other compilations, and (when
    recorded) the process's id and CPU seconds at its start and end."""

    name: str
    signature: str
    start: float
    end: float
    depth: int
    pid: int = 0
    cpu_start: float = 0.0
    cpu_end: float = 0.0


def compile_listener(on_event: Callable[[CompileEvent], None]) -> Any:
    """A numba event listener that hands every finished compilation of this process to
    ``on_event`` (register it for ``"numba:compile"``)."""
    from numba.core import event

    pid = os.getpid()
    open_events: list[tuple[str, str, float, float]] = []

    class Recorder(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            function = getattr(ev.data["dispatcher"], "py_func", None)
            name = (f"{getattr(function, '__module__', '?')}.{function.__qualname__}"
                    if function is not None else repr(ev.data["dispatcher"]))
            open_events.append((name, ", ".join(map(str, ev.data["args"])),
                                time.perf_counter(), time.process_time()))

        def on_end(self, ev: event.Event) -> None:
            name, signature, start, cpu_start = open_events.pop()
            on_event(CompileEvent(name, signature, start, time.perf_counter(),
                                  len(open_events), pid, cpu_start, time.process_time()))

    return Recorder()


def record_compiles(argv: Sequence[str]) -> list[CompileEvent]:
    """Run ``cardsim argv`` in this process, recording every numba compile event (the
    command's exit status is ignored: a profile of a failing command is still a profile)."""
    from numba.core import event

    from cardsim import cli

    events: list[CompileEvent] = []
    with event.install_listener("numba:compile", compile_listener(events.append)):
        try:
            cli.main(list(argv))
        except SystemExit:
            pass
    return events


def own_times(events: Sequence[CompileEvent]) -> dict[int, tuple[float, float]]:
    """(self seconds, self CPU seconds) of each event, by ``id``: its own minus those of the
    compilations directly nested in it (in the same process)."""
    own: dict[int, tuple[float, float]] = {}
    by_process: dict[int, list[CompileEvent]] = {}
    for current in events:
        by_process.setdefault(current.pid, []).append(current)
    for group in by_process.values():
        ordered = sorted(group, key=lambda e: (e.start, e.depth))
        wall = {id(e): e.end - e.start for e in ordered}
        cpu = {id(e): e.cpu_end - e.cpu_start for e in ordered}
        stack: list[CompileEvent] = []
        for current in ordered:
            while stack and stack[-1].end <= current.start:
                stack.pop()
            if stack:
                wall[id(stack[-1])] -= current.end - current.start
                cpu[id(stack[-1])] -= current.cpu_end - current.cpu_start
            stack.append(current)
        own.update({key: (wall[key], cpu[key]) for key in wall})
    return own


def kernel_costs(events: Sequence[CompileEvent]) -> list[dict[str, Any]]:
    """Per function: signatures compiled, self seconds (inclusive minus the directly nested
    compilations of the same process), inclusive seconds (summed over its signatures and
    processes) and the same two in CPU seconds, most self time first."""
    own = own_times(events)
    rows: dict[str, dict[str, Any]] = {}
    for current in sorted(events, key=lambda e: (e.start, e.depth)):
        row = rows.setdefault(current.name, {"kernel": current.name, "signatures": 0,
                                             "self_s": 0.0, "inclusive_s": 0.0,
                                             "self_cpu_s": 0.0, "inclusive_cpu_s": 0.0})
        row["signatures"] += 1
        row["self_s"] += own[id(current)][0]
        row["inclusive_s"] += current.end - current.start
        row["self_cpu_s"] += own[id(current)][1]
        row["inclusive_cpu_s"] += current.cpu_end - current.cpu_start
    for row in rows.values():
        for column in ("self_s", "inclusive_s", "self_cpu_s", "inclusive_cpu_s"):
            row[column] = round(row[column], 3)
    return sorted(rows.values(), key=lambda r: -r["self_s"])


def profile_command(argv: Sequence[str], root: Path | None = None) -> dict[str, Any]:
    """Compile profile of ``cardsim argv`` run cold in a new process: its wall and CPU
    seconds, the number of compilations, the seconds spent compiling (outermost events) and
    the per-kernel rows of :func:`kernel_costs`."""
    from cardsim.sims.core.coldstart import package_root

    root = root or package_root()
    with tempfile.TemporaryDirectory(prefix="cardsim-profile-") as scratch:
        cache = Path(scratch) / "numba"
        cache.mkdir()
        out = Path(scratch) / "events.json"
        env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(root),
                                                            os.environ.get("PYTHONPATH", "")])))
        script = ("import json, sys, time; from dataclasses import asdict; "
                  "from cardsim.sims.core.compile_profile import record_compiles; "
                  "t = time.perf_counter(); c = time.process_time(); "
                  "events = record_compiles(sys.argv[2:]); "
                  "json.dump({'wall_s': time.perf_counter() - t, "
                  "'cpu_s': time.process_time() - c, "
                  "'events': [asdict(e) for e in events]}, open(sys.argv[1], 'w'))")
        done = subprocess.run([sys.executable, "-c", script, str(out), *argv], cwd=scratch,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True)
        if done.returncode != 0 or not out.exists():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"profiling 'cardsim {' '.join(argv)}' failed: {last}")
        recorded = json.loads(out.read_text())
    events = [CompileEvent(**e) for e in recorded["events"]]
    return {
        "command": "cardsim " + " ".join(argv),
        "wall_s": round(recorded["wall_s"], 2),
        "cpu_s": round(recorded["cpu_s"], 2),
        "compilations": len(events),
        "compile_s": round(sum(e.end - e.start for e in events if e.depth == 0), 2),
        "compile_cpu_s": round(sum(e.cpu_end - e.cpu_start for e in events if e.depth == 0), 2),
        "kernels": kernel_costs(events),
    }
