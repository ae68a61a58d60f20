"""Where a cold first run spends its time: numba's compile events, in every process.

Runs one ``cardsim`` command in a new process with an empty numba cache folder (a new
``NUMBA_CACHE_DIR``) and records numba's ``numba:compile`` events in that process and in every
worker process it starts. numba announces every compilation of a function for one argument
signature as such an event (:mod:`numba.core.event`); compiling a caller compiles its callees,
so the events nest. A ``sitecustomize`` module (written to a scratch folder put first on
``PYTHONPATH``) registers the recorder :func:`compile_listener` at the start of every Python
process that inherits the environment, and each process appends one JSON line per compile to a
shared log. For ``report`` it also times the report's phases (compiling ahead, the chapters,
the HTML and PDF writers) in the command's own process.

    python benchmarks/compile_profile.py [--top 40] [--json profile.json] -- \\
        report --quick --jobs 2 --no-store --out /tmp/r --quiet

The summary lists the phases, the compile seconds per process (wall and CPU: a compilation
runs on one thread, so its CPU seconds hardly depend on the machine's load), the kernels by
own compile seconds (:func:`kernel_costs`: ``self`` leaves out the callees compiled inside,
``inclusive`` keeps them), the specialisations by inclusive seconds, and every specialisation
compiled in more than one process (work a cold run repeats). numba's own library functions
(``np.argsort``'s quicksort) show under their implementation's name.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOG_VARIABLE = "CARDSIM_COMPILE_LOG"
PHASES_VARIABLE = "CARDSIM_COMPILE_PHASES"

SITECUSTOMIZE = f"""\
import os
if os.environ.get({LOG_VARIABLE!r}):
    import sys
    sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
    import compile_profile
    compile_profile.record_this_process()
"""


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
            name = (
                f"{getattr(function, '__module__', '?')}.{function.__qualname__}"
                if function is not None
                else repr(ev.data["dispatcher"])
            )
            open_events.append((name, ", ".join(map(str, ev.data["args"])), time.perf_counter(), time.process_time()))

        def on_end(self, ev: event.Event) -> None:
            name, signature, start, cpu_start = open_events.pop()
            on_event(
                CompileEvent(
                    name, signature, start, time.perf_counter(), len(open_events), pid, cpu_start, time.process_time()
                )
            )

    return Recorder()


def _append(log: str, entry: dict[str, Any]) -> None:
    with open(log, "a") as handle:
        handle.write(json.dumps(entry) + "\n")


def record_this_process() -> None:
    """Log every compile of this process (:func:`compile_listener`), its CPU seconds when it
    exits normally, and (in the command's own process when asked) the report's phases, to the
    file named by ``CARDSIM_COMPILE_LOG``."""
    from numba.core import event

    log = os.environ[LOG_VARIABLE]
    pid = os.getpid()
    event.register("numba:compile", compile_listener(lambda done: _append(log, {"kind": "compile", **asdict(done)})))
    atexit.register(
        lambda: _append(log, {"kind": "exit", "pid": pid, "cpu": _cpu_seconds(), "at": time.perf_counter()})
    )
    if os.environ.pop(PHASES_VARIABLE, None):  # popped: worker processes do not time phases
        time_report_phases(log, pid)


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def time_report_phases(log: str, pid: int) -> None:
    """Wrap the report builder's steps so each one's wall time (and this process's CPU
    seconds) is logged."""
    from cardsim.reports import build

    def timed(name: str, function: Any, label: Any = None) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            what = name if label is None else f"{name} {label(*args, **kwargs)}"
            start, cpu = time.perf_counter(), _cpu_seconds()
            try:
                return function(*args, **kwargs)
            finally:
                _append(
                    log,
                    {
                        "kind": "phase",
                        "pid": pid,
                        "name": what,
                        "start": start,
                        "seconds": time.perf_counter() - start,
                        "cpu": _cpu_seconds() - cpu,
                    },
                )

        return wrapper

    build.game_section = timed("section", build.game_section, lambda game, *a, **k: game)
    build._chapters_scheduled = timed("chapters scheduled", build._chapters_scheduled)
    build.write_html = timed("write html", build.write_html)
    build.write_pdf = timed("write pdf", build.write_pdf)


def compile_events(entries: Sequence[dict[str, Any]]) -> list[Any]:
    """The logged compiles as :class:`CompileEvent` records."""
    names = {f.name for f in fields(CompileEvent)}
    return [CompileEvent(**{k: v for k, v in e.items() if k in names}) for e in entries if e["kind"] == "compile"]


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
        row = rows.setdefault(
            current.name,
            {
                "kernel": current.name,
                "signatures": 0,
                "self_s": 0.0,
                "inclusive_s": 0.0,
                "self_cpu_s": 0.0,
                "inclusive_cpu_s": 0.0,
            },
        )
        row["signatures"] += 1
        row["self_s"] += own[id(current)][0]
        row["inclusive_s"] += current.end - current.start
        row["self_cpu_s"] += own[id(current)][1]
        row["inclusive_cpu_s"] += current.cpu_end - current.cpu_start
    for row in rows.values():
        for column in ("self_s", "inclusive_s", "self_cpu_s", "inclusive_cpu_s"):
            row[column] = round(row[column], 3)
    return sorted(rows.values(), key=lambda r: -r["self_s"])


def summary(entries: list[dict[str, Any]], top: int, began: float) -> str:
    """Phases, compile seconds per process, top kernels and specialisations, repeats."""
    events = compile_events(entries)
    own = own_times(events)
    exits = {e["pid"]: e for e in entries if e["kind"] == "exit"}
    lines = []
    for p in (e for e in entries if e["kind"] == "phase"):
        lines.append(
            f"phase {p['name']:<24} at {p['start'] - began:6.1f} s: "
            f"{p['seconds']:6.1f} s wall, {p['cpu']:6.1f} CPU-s in the main process"
        )
    per_pid: dict[int, list[Any]] = defaultdict(list)
    for e in events:
        per_pid[e.pid].append(e)
    lines.append(
        f"compiled {len(events)} specialisations, "
        f"{sum(w for w, _ in own.values()):.1f} s, "
        f"{sum(c for _, c in own.values()):.1f} CPU-s in all processes"
    )
    for pid, group in per_pid.items():
        first = min(e.start for e in group) - began
        last = max(e.end for e in group) - began
        tops = sorted({e.name.rsplit(".", 1)[0] for e in group if e.depth == 0})
        ended = exits.get(pid)
        total = (
            f"{ended['cpu']:.0f} CPU-s in all, exit at {ended['at'] - began:.0f} s"
            if ended
            else f"{max(e.cpu_end for e in group):.0f} CPU-s by the last"
        )
        lines.append(
            f"  pid {pid}: {len(group)} compiles, "
            f"{sum(own[id(e)][0] for e in group):6.1f} s, "
            f"{sum(own[id(e)][1] for e in group):6.1f} CPU-s "
            f"between {first:.0f} s and {last:.0f} s (process {total}); "
            f"modules {', '.join(tops)[:150]}"
        )
    lines.append(f"\ntop {top} kernels by own compile seconds (CPU-s, specialisations, inclusive):")
    for row in kernel_costs(events)[:top]:
        lines.append(
            f"{row['self_s']:7.2f} s {row['self_cpu_s']:7.2f} CPU-s "
            f"x{row['signatures']:<3} incl {row['inclusive_s']:6.2f}  {row['kernel']}"
        )
    lines.append(f"\ntop {top} specialisations by inclusive seconds:")
    for e in sorted(events, key=lambda e: -(e.end - e.start))[:top]:
        lines.append(
            f"{e.end - e.start:7.2f} s incl {own[id(e)][0]:6.2f} own "
            f"{e.cpu_end - e.cpu_start:6.2f} CPU-s incl  {e.name}({e.signature[:110]})"
        )
    seen: dict[tuple[str, str], set[int]] = defaultdict(set)
    cost: dict[tuple[str, str], float] = defaultdict(float)
    for e in events:
        seen[(e.name, e.signature)].add(e.pid)
        cost[(e.name, e.signature)] += own[id(e)][1]
    repeated = [(k, pids) for k, pids in seen.items() if len(pids) > 1]
    wasted = sum(cost[k] * (len(p) - 1) / len(p) for k, p in repeated)
    lines.append(
        f"\ncompiled in more than one process: {len(repeated)} specialisations, about {wasted:.1f} CPU-s repeated"
    )
    for (kernel, args), pids in sorted(repeated, key=lambda kp: -cost[kp[0]])[:top]:
        lines.append(f"{cost[(kernel, args)]:7.2f} CPU-s in {len(pids)} processes  {kernel}({args[:90]})")
    return "\n".join(lines)


def run_profiled(
    command: Sequence[str],
    cache: Path,
    scratch: Path,
    phases: bool = False,
) -> tuple[list[dict[str, Any]], float, float, int]:
    """Run ``command`` (a full argv) with ``NUMBA_CACHE_DIR=cache`` and the recorder in every
    Python process it starts; returns (log entries, start ``perf_counter``, CPU seconds of the
    command and the workers it waited for, exit status)."""
    (scratch / "site").mkdir(exist_ok=True)
    (scratch / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    log = scratch / "compiles.jsonl"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), **{LOG_VARIABLE: str(log)})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(scratch / "site"), str(ROOT), env.get("PYTHONPATH", "")]))
    if phases:
        env[PHASES_VARIABLE] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(list(command), env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    entries = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return entries, began, cpu, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--json", help="write every compile and phase to this file")
    parser.add_argument(
        "--cache-dir",
        help="numba cache folder to use (default: a new empty "
        "one, deleted afterwards); give an existing one to see a warm run",
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- cardsim arguments")
    options = parser.parse_args()
    argv = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not argv:
        parser.error("give the cardsim command after --")
    scratch = Path(tempfile.mkdtemp(prefix="cardsim-profile-"))
    cache = Path(options.cache_dir) if options.cache_dir else scratch / "numba"
    cache.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    try:
        entries, began, cpu, status = run_profiled(
            [sys.executable, "-m", "cardsim", *argv], cache, scratch, phases=argv[0] == "report"
        )
        wall = time.perf_counter() - began
        print(summary(entries, options.top, began), file=sys.stderr)
        print(
            f"\nwhole command: {wall:.1f} s wall, {cpu:.1f} CPU-s (command and its workers), "
            f"exit {status}, load {load:.2f} before, {os.getloadavg()[0]:.2f} after",
            file=sys.stderr,
        )
        if options.json:
            Path(options.json).write_text(
                json.dumps({"command": argv, "wall": wall, "cpu": cpu, "began": began, "entries": entries}, indent=1)
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
