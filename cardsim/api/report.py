"""The report's API (``cardsim.report``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim import __version__
from cardsim.errors import UserError
from cardsim.options import (
    split_names,
)

if TYPE_CHECKING:
    pass

from cardsim.api.common import Names, Result, on_backend, run_options


@on_backend
def report(
    game: Names = (),
    quick: bool = False,
    out: str | Path = "reports",
    *,
    seed: int = 0,
    jobs: int | None = None,
    store: str | Path | None = "results",
    verbose: bool = False,
    quiet: bool = False,
    backend: str = "joblib",
    scheduler: str | None = None,
) -> Result:
    """Run the default experiment suite (``quick``: small samples) and write
    ``<out>/cardsim-report.html`` and ``.pdf``, showing one progress bar over all experiments
    (done and time elapsed) on stderr (``verbose``: also a line per experiment; ``quiet``: neither).
    Unlike the analyses, the report keeps its runs in ``store`` by default (as ``cardsim
    report`` does), so a second call reuses them and only re-renders; ``store=None`` writes no
    runs. ``jobs`` defaults to every core. ``backend="dask"`` with ``scheduler``: every run's
    chunks on that dask cluster (the chapters are built and the store written here); the same
    files as with joblib.

    ``table`` (``experiments``): one row per experiment with its game, key, n, stop rule,
    run id and the CPU seconds spent on it (reading it back from the store when it was
    stored; not part of the report's files); ``files``: the HTML and PDF paths (and the PDF's pages). ``manifest`` adds
    ``html``, ``pdf``, ``pdf_pages``, ``findings`` (the headline figures as JSON, with n and
    95% intervals: :mod:`cardsim.reports.findings`), the ``games`` included, the ``skipped``
    notes and the ``seconds`` taken.

    >>> r = cardsim.report(game="gang", quick=True, out="reports")  # doctest: +SKIP
    >>> r.manifest["html"]  # doctest: +SKIP
    'reports/cardsim-report.html'
    """
    import os
    import time

    import polars as pl

    from cardsim.options import check_output_folder
    from cardsim.reports.build import all_games, write_report
    from cardsim.reports.suite import PROFILES

    out = check_output_folder(Path(out), what="--out")
    known = all_games()
    games = split_names(game, name="game") or list(known)
    unknown = [g for g in games if g not in known]
    if unknown:
        raise UserError(f"unknown game {', '.join(unknown)}; choose from: {', '.join(known)}")
    options = run_options(seed=seed, jobs=jobs, store=store, quiet=quiet)
    profile = PROFILES["quick" if quick else "default"]
    outcomes: list[dict[str, Any]] = []
    started = time.perf_counter()
    written = write_report(
        games,
        profile=profile,
        seed=options.seed,
        jobs=options.jobs or os.cpu_count() or 1,
        store=options.store,
        out_dir=out,
        progress=not quiet,
        verbose=verbose and not quiet,
        on_done=lambda o: outcomes.append(
            {
                "game": o.game,
                "experiment": o.experiment.key,
                "n": o.n,
                "stop_rule": o.stop_rule,
                "run": o.run_id,
                "cpu_s": round(o.cpu_seconds, 2),
            }
        ),
    )
    experiments = pl.DataFrame(
        outcomes,
        schema={
            "game": pl.String,
            "experiment": pl.String,
            "n": pl.Int64,
            "stop_rule": pl.String,
            "run": pl.String,
            "cpu_s": pl.Float64,
        },
    )
    files = pl.DataFrame(
        {"file": ["html", "pdf"], "path": [str(written.html), str(written.pdf)], "pages": [None, written.pdf_pages]}
    )
    manifest = {
        "command": "report",
        "version": __version__,
        "seed": options.seed,
        "stop_rule": profile.describe(),
        "runs": [r for r in dict.fromkeys(experiments["run"]) if r != "(memory)"],
        "html": str(written.html),
        "pdf": str(written.pdf),
        "pdf_pages": written.pdf_pages,
        "findings": str(written.findings),
        "games": list(written.games),
        "skipped": list(written.skipped),
        "seconds": round(time.perf_counter() - started, 1),
    }
    return Result(experiments, pl.DataFrame(), manifest, {"experiments": experiments, "files": files})
