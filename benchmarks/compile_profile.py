"""Where a cold first run spends its time: numba's compile events, in every process.

Runs one ``cardsim`` command in a new process with an empty numba cache folder (a new
``NUMBA_CACHE_DIR``) and records numba's ``numba:compile`` events in that process and in every
worker process it starts, with the package's recorder and per-kernel costs
(:func:`cardsim.sims.core.compile_profile.compile_listener` and
:func:`~cardsim.sims.core.compile_profile.kernel_costs`, as ``cardsim bench compile --profile``
does for one process). What this script adds is the other processes: a ``sitecustomize``
module (written to a scratch folder put first on ``PYTHONPATH``) registers that recorder at
the start of every Python process that inherits the environment, and each process appends one
JSON line per compile to a shared log. For ``report`` it also times the report's phases
(compiling ahead, the chapters, the HTML and PDF writers) in the command's own process.

    python benchmarks/compile_profile.py [--top 40] [--json profile.json] -- \\
        report --quick --jobs 2 --no-store --out /tmp/r --quiet

The summary lists the phases, the compile seconds per process (wall and CPU: a compilation's
CPU seconds hardly depend on the machine's load), the kernels by own compile seconds, the
specialisations by inclusive seconds, and every specialisation compiled in more than one
process (work a cold run repeats).
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
from collections.abc import Sequence
from dataclasses import asdict, fields
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


def _append(log: str, entry: dict[str, Any]) -> None:
    with open(log, "a") as handle:
        handle.write(json.dumps(entry) + "\n")


def record_this_process() -> None:
    """Log every compile of this process (the package's recorder), its CPU seconds when it
    exits normally, and (in the command's own process when asked) the report's phases, to the
    file named by ``CARDSIM_COMPILE_LOG``."""
    from numba.core import event

    from cardsim.sims.core.compile_profile import compile_listener

    log = os.environ[LOG_VARIABLE]
    pid = os.getpid()
    event.register("numba:compile", compile_listener(
        lambda done: _append(log, {"kind": "compile", **asdict(done)})))
    atexit.register(lambda: _append(log, {"kind": "exit", "pid": pid, "cpu": _cpu_seconds(),
                                          "at": time.perf_counter()}))
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
                _append(log, {"kind": "phase", "pid": pid, "name": what, "start": start,
                              "seconds": time.perf_counter() - start,
                              "cpu": _cpu_seconds() - cpu})
        return wrapper

    build.compile_ahead = timed("compile ahead", build.compile_ahead)
    build.game_section = timed("section", build.game_section, lambda game, *a, **k: game)
    build._chapters_side_by_side = timed("chapters side by side", build._chapters_side_by_side)
    build.write_html = timed("write html", build.write_html)
    build.write_pdf = timed("write pdf", build.write_pdf)


def compile_events(entries: Sequence[dict[str, Any]]) -> list[Any]:
    """The logged compiles as the package's :class:`CompileEvent` records."""
    from cardsim.sims.core.compile_profile import CompileEvent

    names = {f.name for f in fields(CompileEvent)}
    return [CompileEvent(**{k: v for k, v in e.items() if k in names})
            for e in entries if e["kind"] == "compile"]


def summary(entries: list[dict[str, Any]], top: int, began: float) -> str:
    """Phases, compile seconds per process, top kernels and specialisations, repeats."""
    from cardsim.sims.core.compile_profile import kernel_costs, own_times

    events = compile_events(entries)
    own = own_times(events)
    exits = {e["pid"]: e for e in entries if e["kind"] == "exit"}
    lines = []
    for p in (e for e in entries if e["kind"] == "phase"):
        lines.append(f"phase {p['name']:<24} at {p['start'] - began:6.1f} s: "
                     f"{p['seconds']:6.1f} s wall, {p['cpu']:6.1f} CPU-s in the main process")
    per_pid: dict[int, list[Any]] = defaultdict(list)
    for e in events:
        per_pid[e.pid].append(e)
    lines.append(f"compiled {len(events)} specialisations, "
                 f"{sum(w for w, _ in own.values()):.1f} s, "
                 f"{sum(c for _, c in own.values()):.1f} CPU-s in all processes")
    for pid, group in per_pid.items():
        first = min(e.start for e in group) - began
        last = max(e.end for e in group) - began
        tops = sorted({e.name.rsplit(".", 1)[0] for e in group if e.depth == 0})
        ended = exits.get(pid)
        total = (f"{ended['cpu']:.0f} CPU-s in all, exit at {ended['at'] - began:.0f} s"
                 if ended else f"{max(e.cpu_end for e in group):.0f} CPU-s by the last")
        lines.append(f"  pid {pid}: {len(group)} compiles, "
                     f"{sum(own[id(e)][0] for e in group):6.1f} s, "
                     f"{sum(own[id(e)][1] for e in group):6.1f} CPU-s "
                     f"between {first:.0f} s and {last:.0f} s (process {total}); "
                     f"modules {', '.join(tops)[:150]}")
    lines.append(f"\ntop {top} kernels by own compile seconds (CPU-s, specialisations, "
                 "inclusive):")
    for row in kernel_costs(events)[:top]:
        lines.append(f"{row['self_s']:7.2f} s {row['self_cpu_s']:7.2f} CPU-s "
                     f"x{row['signatures']:<3} incl {row['inclusive_s']:6.2f}  {row['kernel']}")
    lines.append(f"\ntop {top} specialisations by inclusive seconds:")
    for e in sorted(events, key=lambda e: -(e.end - e.start))[:top]:
        lines.append(f"{e.end - e.start:7.2f} s incl {own[id(e)][0]:6.2f} own "
                     f"{e.cpu_end - e.cpu_start:6.2f} CPU-s incl  {e.name}({e.signature[:110]})")
    seen: dict[tuple[str, str], set[int]] = defaultdict(set)
    cost: dict[tuple[str, str], float] = defaultdict(float)
    for e in events:
        seen[(e.name, e.signature)].add(e.pid)
        cost[(e.name, e.signature)] += own[id(e)][1]
    repeated = [(k, pids) for k, pids in seen.items() if len(pids) > 1]
    wasted = sum(cost[k] * (len(p) - 1) / len(p) for k, p in repeated)
    lines.append(f"\ncompiled in more than one process: {len(repeated)} specialisations, "
                 f"about {wasted:.1f} CPU-s repeated")
    for (kernel, args), pids in sorted(repeated, key=lambda kp: -cost[kp[0]])[:top]:
        lines.append(f"{cost[(kernel, args)]:7.2f} CPU-s in {len(pids)} processes  "
                     f"{kernel}({args[:90]})")
    return "\n".join(lines)


def run_profiled(command: Sequence[str], cache: Path, scratch: Path, phases: bool = False,
                 ) -> tuple[list[dict[str, Any]], float, float, int]:
    """Run ``command`` (a full argv) with ``NUMBA_CACHE_DIR=cache`` and the recorder in every
    Python process it starts; returns (log entries, start ``perf_counter``, CPU seconds of the
    command and the workers it waited for, exit status)."""
    (scratch / "site").mkdir(exist_ok=True)
    (scratch / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    log = scratch / "compiles.jsonl"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), **{LOG_VARIABLE: str(log)})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(scratch / "site"), str(ROOT),
                                                      env.get("PYTHONPATH", "")]))
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
    parser.add_argument("--cache-dir", help="numba cache folder to use (default: a new empty "
                        "one, deleted afterwards); give an existing one to see a warm run")
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
            [sys.executable, "-m", "cardsim", *argv], cache, scratch, phases=argv[0] == "report")
        wall = time.perf_counter() - began
        print(summary(entries, options.top, began), file=sys.stderr)
        print(f"\nwhole command: {wall:.1f} s wall, {cpu:.1f} CPU-s (command and its workers), "
              f"exit {status}, load {load:.2f} before, {os.getloadavg()[0]:.2f} after",
              file=sys.stderr)
        if options.json:
            Path(options.json).write_text(json.dumps(
                {"command": argv, "wall": wall, "cpu": cpu, "began": began,
                 "entries": entries}, indent=1))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
