"""`cardsim bench cluster`: the same work on joblib and on a dask ``LocalCluster`` of one and two
worker processes, with the wall time, the CPU seconds of every process involved and whether
the numbers agree; and what one task costs on the cluster (scheduler round trip, bytes).

Two workloads, the two shapes of parallel work in cardsim: ``bang compare`` (fixed tasks of
5,000 paired deals, as the searches and evaluations cut their work) and ``gang heist`` through
the runner (chunks of 2,000 heists, as every run of the report). CPU seconds are summed over
this process and all its child processes (the joblib or dask workers, started and warmed up
before the clock starts), so the work of the workers is counted.
"""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Callable
from typing import Any

TRIVIAL_TASKS = 200


def _tree_cpu_seconds() -> float:
    """User + system CPU seconds of this process and every live descendant."""
    import psutil

    me = psutil.Process()
    total = 0.0
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def _timed(function: Callable[..., Any], *args: Any) -> tuple[Any, float, float]:
    """``function(*args)``, its wall seconds and the CPU seconds of the process tree meanwhile."""
    cpu, wall = _tree_cpu_seconds(), time.perf_counter()
    answer = function(*args)
    return answer, time.perf_counter() - wall, _tree_cpu_seconds() - cpu


def _noop(value: int) -> int:
    return value


def _round_trip(client: Any, tasks: list[tuple[int]]) -> list[int]:
    from cardsim.sims.core.parallel import submit_all

    return client.gather(submit_all(client, _noop, tasks))


def _workloads(quick: bool) -> list[tuple[str, int, Callable[[dict[str, Any]], Any]]]:
    """(description, tasks, run(backend keywords) -> comparable answer)."""
    import cardsim
    from cardsim.sims.bang.compare import CHUNK

    deals = 20_000 if quick else 40_000
    heists = 40_000 if quick else 100_000

    def compare(where: dict[str, Any]) -> Any:
        frame = cardsim.bang.compare(players=4, roles="outlaw", n=deals, seed=1, **where)
        return frame.rows()

    def heist(where: dict[str, Any]) -> Any:
        result = cardsim.gang.heist(players=4, model="history", n=heists, seed=1, quiet=True, **where)
        return result.table.rows()

    return [
        (
            f"bang compare, 4 players, outlaw, n={deals:,} (paired, {CHUNK:,} deals per task)",
            -(-deals // CHUNK),
            compare,
        ),
        (f"gang heist, 4 players, history, n={heists:,} (runner chunks of 2,000 heists)", -(-heists // 2_000), heist),
    ]


def _task_bytes() -> list[dict[str, Any]]:
    """What crosses the network for one task of each workload: the pickled call and answer."""
    import numpy as np

    from cardsim.sims.bang.compare import CHUNK, bot_table, focus_chunk
    from cardsim.sims.core.runner import play_chunk
    from cardsim.sims.registry import get_simulator

    bot, base = bot_table("tuned", 4, None), bot_table("role", 4, None)
    call: tuple[Any, ...] = (focus_chunk, (4, 2, bot, base, CHUNK, 1, 0), {})
    answer = focus_chunk(4, 2, bot, base, CHUNK, 1, 0)
    gang = get_simulator("gang")
    config = gang.make_config(players=4, model="history")
    chunk = play_chunk(gang, config, 1, 0, 2_000)
    sizes = [("bang compare", call, answer), ("gang heist", (play_chunk, (gang, config, 1, 0, 2_000), {}), chunk)]
    import cloudpickle

    return [
        {
            "what": f"{name}: bytes per task",
            "to_worker": len(cloudpickle.dumps(sent)),
            "to_client": len(pickle.dumps(back, protocol=5)),
            "note": "answer: "
            + (
                "two arrays"
                if isinstance(back, tuple) and isinstance(back[0], np.ndarray)
                else "a (chunk index, episode table) pair"
            ),
        }
        for name, sent, back in sizes
    ]


def main(quick: bool = False) -> list[dict[str, Any]]:
    """The rows of ``cardsim bench cluster`` (``quick``: half the work)."""
    from dask.distributed import LocalCluster

    from cardsim.sims.core import parallel
    from cardsim.sims.core.parallel import connect, submit_all

    rows: list[dict[str, Any]] = []
    workloads = _workloads(quick)
    reference: dict[str, tuple[Any, float, float]] = {}
    for jobs in (1, 2):
        for what, tasks, work in workloads:
            work({"jobs": jobs})  # warm: start the pool, load the kernels
            answer, wall, cpu = _timed(work, {"jobs": jobs})
            reference.setdefault(what, (answer, wall, cpu))
            rows.append(
                {
                    "what": what,
                    "tasks": tasks,
                    "backend": "joblib",
                    "workers": jobs,
                    "wall_s": round(wall, 2),
                    "cpu_s": round(cpu, 2),
                    "speedup": round(reference[what][1] / wall, 2),
                    "same_numbers": answer == reference[what][0],
                }
            )
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            where = {"backend": "dask", "scheduler": cluster.scheduler_address}
            for what, tasks, work in workloads:
                work(where)  # warm: connect, load the kernels in every worker
                answer, wall, cpu = _timed(work, where)
                rows.append(
                    {
                        "what": what,
                        "tasks": tasks,
                        "backend": "dask",
                        "workers": workers,
                        "wall_s": round(wall, 2),
                        "cpu_s": round(cpu, 2),
                        "speedup": round(reference[what][1] / wall, 2),
                        "same_numbers": answer == reference[what][0],
                    }
                )
            if workers == 1:
                client = connect(cluster.scheduler_address)
                client.gather(submit_all(client, _noop, [(i,) for i in range(20)]))
                trivial = [(i,) for i in range(TRIVIAL_TASKS)]
                _, wall, cpu = _timed(_round_trip, client, trivial)
                rows.append(
                    {
                        "what": f"{TRIVIAL_TASKS} empty tasks: round trip per task, ms",
                        "tasks": TRIVIAL_TASKS,
                        "backend": "dask",
                        "workers": 1,
                        "wall_s": round(wall, 2),
                        "cpu_s": round(cpu, 2),
                        "per_task_ms": round(1000 * wall / TRIVIAL_TASKS, 2),
                        "cpu_per_task_ms": round(1000 * cpu / TRIVIAL_TASKS, 2),
                    }
                )
            parallel.disconnect()
    rows.extend(_task_bytes())
    rows.append(
        {
            "what": "machine",
            "note": f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} "
            "at the end (shared with other jobs: compare CPU seconds)",
        }
    )
    return rows
