"""``cardsim.hilo.run(...)``: the analysis behind ``cardsim hilo run``, as a function."""

from __future__ import annotations

import polars as pl

from cardsim import __version__
from cardsim.api import Result, run_options
from cardsim.options import RunOptions, check_n, parse_choice, run_config
from cardsim.sims.core.runner import run_id
from cardsim.stats import proportion_table
from cardsim_hilo.simulator import SIMULATOR, STRATEGIES


class Hilo:
    """Higher or Lower: ``run`` (see ``cardsim hilo --help``)."""

    @staticmethod
    def run(strategy: str = "all", target: int = 5, n: int = 20_000, *, seed: int = 0,
            jobs: int | None = None, store: str | None = None, quiet: bool = False,
            options: RunOptions | None = None) -> Result:
        """Win rate per strategy with its 95% interval (``table``) and the episodes played."""
        options = options or run_options(seed=seed, jobs=jobs, store=store, quiet=quiet)
        names = parse_choice(strategy, list(STRATEGIES), name="strategy")
        results = [run_config("hilo", SIMULATOR.make_config(strategy=name, target=target),
                              n=check_n(n), options=options) for name in names]
        episodes = pl.concat([r.episodes for r in results])
        table = proportion_table(episodes, ["strategy", "target"], "won")
        manifest = {"command": "hilo run", "version": __version__, "seed": options.seed,
                    "stop_rule": options.stop_rule(n), "runs": [run_id(r) for r in results],
                    "manifests": [r.manifest for r in results]}
        return Result(table, episodes, manifest, {"wins": table})


hilo = Hilo()
