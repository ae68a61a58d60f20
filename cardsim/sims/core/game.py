"""A game's declaration: everything the package knows about one game, declared once.

Each game declares one :class:`Game` next to its simulator (``cardsim/sims/<game>/__init__.py``
for the built-in games, a third-party package's own module for a plug-in) and the registry
(:mod:`cardsim.sims.registry`) lists it. Everything above the simulators (the command line,
the Python API, the report, the benchmarks, the warm-up) loops over the registry instead of
naming games.

The declaration is light to import (no numpy, numba or polars): ``cardsim --help`` reads every
game's name and help line without importing any game's kernels. The simulator, the command
line's sub-app, the API object, the report section and the other hooks are named by dotted
paths (``"cardsim.commands.gang:app"``), resolved with :func:`resolve` only by the layer that
uses them, so ``cardsim.sims`` never imports ``commands``, ``api``, ``reports`` or ``analysis``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from cardsim.sims.core.simulator import Simulator


def resolve(path: str) -> Any:
    """``"package.module:attribute"`` -> that attribute; ``"package.module"`` -> the module."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    for part in filter(None, attribute.split(".")):
        module = getattr(module, part)
    return module


class HiddenInfoResult(NamedTuple):
    """What a hidden-information check found: of ``compared`` decisions, ``changed`` changed
    when everything hidden from the deciding player was dealt again (0 for an honest policy)."""

    compared: int
    changed: int


@dataclass(frozen=True)
class Game:
    """One game as the whole package sees it.

    Attributes:
        name: the registry, command line, API and store name ("gang").
        title: the game's full title, as the report's chapter heading ("The Gang").
        simulator: dotted path of its :class:`~cardsim.sims.core.simulator.Simulator`
            ("cardsim.sims.gang.simulator:SIMULATOR"); its players' models or strategies are
            the simulator's ``policies``.
        help: the one-line help of ``cardsim <name>``.
        example: one example command, shown under the help.
        cli: dotted path of the typer sub-app of ``cardsim <name>``.
        api: dotted path of the Python API object (``cardsim.<name>``).
        report_section: dotted path of the report's section builder module (see
            :mod:`cardsim.reports.sections`); None keeps the game out of the report.
        bench: dotted path of ``main(quick) -> list[dict]``, the rows of ``cardsim bench <name>``.
        strategy_bench: dotted path of ``strategy_rows(quick: bool = False) -> list[dict]``, the
            game's rows of ``cardsim bench strategies`` (its user-strategy engine's speed with a
            trivial strategy beside its kernel's, rows of
            :func:`cardsim.sims.core.strategy_bench.speed_row`); None: no user-strategy engine.
        first_command: the small first command (``cardsim`` arguments) whose cold start
            ``cardsim bench compile`` times.
        warmup_configs: dotted path of ``warmup_configs() -> list[config]``, the configs whose
            first episode reaches every kernel; None: one config per policy (through
            ``policy_fields``) plus the report's default plan.
        policy_fields: the config fields that take a policy name (warm-up's default configs).
        hidden_info_check: dotted path of ``check(seed, policy=None) -> HiddenInfoResult``:
            re-deals everything hidden from a deciding player in a few positions and counts the
            decisions compared and those that changed; ``policy=None`` checks the game's own
            policies, else the given one (in whatever form the check takes, as
            ``leaky_policy``). It lives in the package: ``cardsim.testing`` runs it.
        leaky_policy: dotted path of a deliberately leaky policy (it reads something hidden),
            in the form ``hidden_info_check`` takes: the check must catch it, or the kit
            (:func:`cardsim.testing.check_game`) fails the game.
        reference_check: dotted path of ``check(seed) -> int``: plays a few games with the
            compiled kernel and the plain-Python reference, asserts they agree and returns how
            many it compared; None when the game has no reference. Like the hidden-information
            check, it lives in the package.
        short_title: the title in running text ("compiling the Gang kernels"); default title.
        episodes_per_second: rough warm single-core speed (picks the default ``--jobs``).
        compile_seconds: rough cold compile seconds (the first-run note, and warm-up starts the
            longest first); None: the game compiles nothing worth a note.
        chapter_seconds: rough CPU seconds of its chapter in a first quick report (side by
            side, the longest starts first).
        long_run: the game's longest documented command (``cardsim`` arguments), which
            ``cardsim bench long-runs`` times whole, as a user's first run (empty numba cache,
            a scratch ``--store``); () for none.
        long_run_wall_s: the bound its issue set on that run's wall seconds on two cores.
    """

    name: str
    title: str
    simulator: str
    help: str
    example: str
    cli: str | None = None
    api: str | None = None
    report_section: str | None = None
    bench: str | None = None
    strategy_bench: str | None = None
    first_command: tuple[str, ...] = ()
    warmup_configs: str | None = None
    policy_fields: tuple[str, ...] = ()
    hidden_info_check: str | None = None
    leaky_policy: str | None = None
    reference_check: str | None = None
    short_title: str = ""
    episodes_per_second: float = 1_000.0
    compile_seconds: float | None = None
    chapter_seconds: float = 0.0
    long_run: tuple[str, ...] = ()
    long_run_wall_s: float | None = None

    @property
    def simulator_module(self) -> str:
        """The module that declares the simulator ("cardsim.sims.gang.simulator")."""
        return self.simulator.partition(":")[0]

    @property
    def running_title(self) -> str:
        return self.short_title or self.title

    def load_simulator(self) -> Simulator:
        """The game's simulator (imports its kernels)."""
        simulator: Simulator = resolve(self.simulator)
        return simulator
