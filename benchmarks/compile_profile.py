"""Where a cold first run spends its time: numba's compile events, in every process.

Runs one ``cardsim`` command in a new process with an empty numba cache folder (a new
``NUMBA_CACHE_DIR``) and records numba's ``numba:compile`` events in that process and in every
worker process it starts: each kernel specialisation compiled, with its argument types, its
inclusive time (the kernels it compiles in included) and its own time (those excluded). The
own times add up to a process's compile time. For ``report`` it also times the report's
phases (compiling ahead, each game's section, the HTML and PDF writers).

How: a ``sitecustomize`` module (written to a scratch folder put first on ``PYTHONPATH``)
registers the listener at the start of every Python process that inherits the environment;
each process appends one JSON line per compile to a shared log.

    python benchmarks/compile_profile.py [--top 40] [--json profile.json] -- \\
        report --quick --jobs 2 --no-store --out /tmp/r --quiet

The summary lists the phases, the compile seconds per process, the kernels by own compile
seconds, the specialisations by inclusive seconds, and every specialisation compiled in more
than one process (work a cold run repeats).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
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


def kernel_name(dispatcher: Any) -> str:
    """module.qualname of the Python function behind a numba dispatcher."""
    function = getattr(dispatcher, "py_func", None)
    if function is None:
        return repr(dispatcher)
    return f"{function.__module__}.{function.__qualname__}"


def _append(log: str, entry: dict[str, Any]) -> None:
    with open(log, "a") as handle:
        handle.write(json.dumps(entry) + "\n")


def record_this_process() -> None:
    """Log every compile of this process (and, in the command's own process when asked, the
    report's phases) to the file named by ``CARDSIM_COMPILE_LOG``."""
    from numba.core import event

    log = os.environ[LOG_VARIABLE]
    pid = os.getpid()
    stack: list[dict[str, Any]] = []

    class CompileListener(event.Listener):
        def on_start(self, ev: Any) -> None:
            data = ev.data or {}
            stack.append({"kind": "compile", "pid": pid,
                          "kernel": kernel_name(data.get("dispatcher")),
                          "args": ", ".join(str(a) for a in data.get("args", ())),
                          "parent": stack[-1]["kernel"] if stack else "",
                          "start": time.time(), "depth": len(stack), "nested": 0.0})

        def on_end(self, ev: Any) -> None:
            done = stack.pop()
            done["seconds"] = time.time() - done["start"]
            done["own_seconds"] = done["seconds"] - done.pop("nested")
            done["process_cpu"] = time.process_time()  # this process's CPU seconds so far
            if stack:
                stack[-1]["nested"] += done["seconds"]
            _append(log, done)

    event.register("numba:compile", CompileListener())
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
            start, cpu = time.time(), _cpu_seconds()
            try:
                return function(*args, **kwargs)
            finally:
                _append(log, {"kind": "phase", "pid": pid, "name": what, "start": start,
                              "seconds": time.time() - start, "cpu": _cpu_seconds() - cpu})
        return wrapper

    build.compile_ahead = timed("compile ahead", build.compile_ahead)
    build.game_section = timed("section", build.game_section, lambda game, *a, **k: game)
    build._chapters_side_by_side = timed("chapters side by side", build._chapters_side_by_side)
    build.write_html = timed("write html", build.write_html)
    build.write_pdf = timed("write pdf", build.write_pdf)


def summary(entries: list[dict[str, Any]], top: int, began: float) -> str:
    """Phases, compile seconds per process, top kernels and specialisations, repeats."""
    phases = [e for e in entries if e["kind"] == "phase"]
    compiles = [e for e in entries if e["kind"] == "compile"]
    lines = []
    for p in phases:
        lines.append(f"phase {p['name']:<24} at {p['start'] - began:6.1f} s: "
                     f"{p['seconds']:6.1f} s wall, {p['cpu']:6.1f} CPU-s in the main process")
    per_pid: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for c in compiles:
        per_pid[c["pid"]].append(c)
    total = sum(c["own_seconds"] for c in compiles)
    lines.append(f"compiled {len(compiles)} specialisations, {total:.1f} s in all processes")
    for pid, group in per_pid.items():
        first = min(c["start"] for c in group) - began
        last = max(c["start"] + c["seconds"] for c in group) - began
        tops = sorted({c["kernel"].rsplit(".", 1)[0] for c in group if c["depth"] == 0})
        cpu = max(c["process_cpu"] for c in group)
        lines.append(f"  pid {pid}: {len(group)} compiles, {sum(c['own_seconds'] for c in group):6.1f} s "
                     f"between {first:.0f} s and {last:.0f} s (process at {cpu:.0f} CPU-s by the "
                     f"last); modules {', '.join(tops)[:150]}")
    by_kernel: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in compiles:
        by_kernel[c["kernel"]].append(c)
    lines.append(f"\ntop {top} kernels by own compile seconds (specialisations, largest inclusive):")
    ranked = sorted(by_kernel.items(), key=lambda kv: -sum(c["own_seconds"] for c in kv[1]))
    for name, group in ranked[:top]:
        own = sum(c["own_seconds"] for c in group)
        lines.append(f"{own:7.2f} s  x{len(group):<3} incl {max(c['seconds'] for c in group):6.2f}  {name}")
    lines.append(f"\ntop {top} specialisations by inclusive seconds:")
    for c in sorted(compiles, key=lambda c: -c["seconds"])[:top]:
        lines.append(f"{c['seconds']:7.2f} s incl {c['own_seconds']:6.2f} own  "
                     f"{c['kernel']}({c['args'][:110]})")
    seen: dict[tuple[str, str], set[int]] = defaultdict(set)
    cost: dict[tuple[str, str], float] = defaultdict(float)
    for c in compiles:
        seen[(c["kernel"], c["args"])].add(c["pid"])
        cost[(c["kernel"], c["args"])] += c["own_seconds"]
    repeated = [(k, pids) for k, pids in seen.items() if len(pids) > 1]
    wasted = sum(cost[k] * (len(p) - 1) / len(p) for k, p in repeated)
    lines.append(f"\ncompiled in more than one process: {len(repeated)} specialisations, "
                 f"about {wasted:.1f} s repeated")
    for (kernel, args), pids in sorted(repeated, key=lambda kp: -cost[kp[0]])[:top]:
        lines.append(f"{cost[(kernel, args)]:7.2f} s in {len(pids)} processes  {kernel}({args[:90]})")
    return "\n".join(lines)


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
    (scratch / "site").mkdir()
    (scratch / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    log = scratch / "compiles.jsonl"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), **{LOG_VARIABLE: str(log)})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(scratch / "site"), str(ROOT),
                                                      env.get("PYTHONPATH", "")]))
    if argv[0] == "report":
        env[PHASES_VARIABLE] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.time()
    try:
        done = subprocess.run([sys.executable, "-m", "cardsim", *argv], env=env)
        wall = time.time() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        entries = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        print(summary(entries, options.top, began), file=sys.stderr)
        print(f"\nwhole command: {wall:.1f} s wall, {cpu:.1f} CPU-s (command and its workers), "
              f"exit {done.returncode}, load {os.getloadavg()[0]:.2f}", file=sys.stderr)
        if options.json:
            Path(options.json).write_text(json.dumps(
                {"command": argv, "wall": wall, "cpu": cpu, "entries": entries}, indent=1))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
