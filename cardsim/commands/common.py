"""Options and helpers shared by every command: one option vocabulary, one output contract.

A command module makes its sub-app with :func:`command_app` (a game's with :func:`game_app`,
which takes the help and example its declaration gives) and declares commands as usual::

    app = game_app("gang")

    @app.command("heist")
    def heist_command(players: PlayersOpt = "4", n: NOpt = 100_000, run: RunOpts = RunOptions(),
                      plot: PlotOpt = None, plot_format: PlotFormatOpt = "svg",
                      as_json: JsonOpt = False) -> None:
        ...
        result = execute("gang", config, n=n, run=run)
        show_table(summary, title="...", name="heist_success", as_json=as_json)

Every command of such an app gets, without declaring them:

- for a ``cluster: ClusterOpts = ClusterOptions()`` parameter, ``--backend joblib|dask`` and
  ``--scheduler tcp://host:port``, checked, handed over as one
  :class:`~cardsim.options.ClusterOptions` (pass ``**cluster.keywords()`` to the API call);
  the command body runs inside :func:`cardsim.sims.core.parallel.using`, so every parallel
  site below it (:func:`~cardsim.sims.core.parallel.map_tasks`, the runner) runs on that
  backend, and an unreachable scheduler fails before any work;

- for a ``run: RunOpts`` parameter, the shared runner options (``--seed --jobs --backend
  --scheduler --store/--no-store --precision --max-n --quiet``), checked together before the
  command body runs and handed over as one :class:`~cardsim.options.RunOptions` (the body
  runs on its backend, as with ``cluster``);
- for an ``as_json: JsonOpt`` parameter, ``--format table|csv|json`` next to ``--json``
  (``as_json`` is then True for any machine format: print raw columns, not formatted ones);
- one output document: all JSON output of the command is printed as a single document when the
  command ends (see :mod:`cardsim.commands.output`).
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from cardsim.commands.output import abandon, begin, finish, record_run, show_table, show_value
from cardsim.errors import COMMAND_LINE, UserError
from cardsim.options import (
    DEFAULT_STORE,
    ClusterOptions,
    RunOptions,
    check_n,
    check_output_file,
    check_output_folder,
    check_plot_folder,
    parse_choice,
    parse_range,
    resolve_store,
    run_config,
    search_jobs,
    split_names,
)
from cardsim.sims.core.parallel import using
from cardsim.sims.core.runner import run_id

__all__ = [
    "DEFAULT_STORE",
    "ClusterOptions",
    "ClusterOpts",
    "RunOptions",
    "RunOpts",
    "check_n",
    "check_output_file",
    "check_output_folder",
    "check_plot_folder",
    "command_app",
    "execute",
    "game_app",
    "parse_choice",
    "parse_range",
    "record_result",
    "resolve_store",
    "search_jobs",
    "show_table",
    "show_value",
    "split_names",
]

NOpt = Annotated[int, typer.Option("--n", help="Episodes to play (minimum when --precision is set).")]
DealsOpt = Annotated[int, typer.Option("--n", help="Deals, each played by your strategy and by the built-in.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Root seed: same seed, same numbers.")]
JobsOpt = Annotated[
    int | None,
    typer.Option("--jobs", help="Worker processes (default: one for a short run, all cores for a long one)."),
]
AllCoresJobsOpt = Annotated[int | None, typer.Option("--jobs", help="Worker processes (default: all cores).")]
BackendOpt = Annotated[
    str,
    typer.Option(
        "--backend",
        help="joblib (this machine's --jobs processes) or dask (the "
        "workers of the cluster at --scheduler); same numbers on both.",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option("--scheduler", help="Dask scheduler address, tcp://host:port (--backend dask)."),
]
StoreOpt = Annotated[
    Path | None,
    typer.Option("--store", help="Results folder (default $CARDSIM_STORE or ./results)."),
]
PrecisionOpt = Annotated[
    float | None,
    typer.Option("--precision", help="Stop when the headline's 95% Wilson half-width is below this."),
]
MaxNOpt = Annotated[int | None, typer.Option("--max-n", help="Upper bound on episodes with --precision.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or notes.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Same as --format json.")]
FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format", help="Output: table (readable, the default), csv or json (one document).", show_default=False
    ),
]
NoStoreOpt = Annotated[bool, typer.Option("--no-store", help="Keep results in memory only (nothing written).")]
PlotOpt = Annotated[Path | None, typer.Option("--plot", help="Folder to write the plots into (created if needed).")]
PlotFormatOpt = Annotated[str, typer.Option("--plot-format", help="Plot image type: svg or png.")]
# A command's ``run: RunOpts = RunOptions()`` parameter stands for every runner option.
RunOpts = RunOptions
# A command's ``cluster: ClusterOpts = ClusterOptions()`` parameter stands for --backend and
# --scheduler (for commands without the runner options whose work runs in parallel).
ClusterOpts = ClusterOptions

# The shared backend options, in help order: (parameter, annotation, default).
CLUSTER_PARAMETERS: tuple[tuple[str, Any, Any], ...] = (
    ("backend", BackendOpt, "joblib"),
    ("scheduler", SchedulerOpt, None),
)

# The shared runner options, in help order: (parameter, annotation, default).
RUN_PARAMETERS: tuple[tuple[str, Any, Any], ...] = (
    ("seed", SeedOpt, 0),
    ("jobs", JobsOpt, None),
    ("backend", BackendOpt, "joblib"),
    ("scheduler", SchedulerOpt, None),
    ("store", StoreOpt, None),
    ("no_store", NoStoreOpt, False),
    ("precision", PrecisionOpt, None),
    ("max_n", MaxNOpt, None),
    ("quiet", QuietOpt, False),
)


def run_options(
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "joblib",
    scheduler: str | None = None,
    store: Path | None = None,
    no_store: bool = False,
    precision: float | None = None,
    max_n: int | None = None,
    quiet: bool = False,
) -> RunOptions:
    """The checked run options from the command-line values (store resolved)."""
    return RunOptions(
        seed=seed,
        jobs=jobs,
        backend=backend,
        scheduler=scheduler,
        store=resolve_store(store, no_store),
        precision=precision,
        max_n=max_n,
        quiet=quiet,
    ).checked()


def _wrap_command(function: Callable[..., Any], command_name: str) -> Callable[..., Any]:
    """``function`` with the shared run options and ``--format`` spliced into its signature,
    run inside one output document."""
    hints = typing.get_type_hints(function, include_extras=True)
    signature = inspect.signature(function)
    own = set(signature.parameters)
    parameters: list[inspect.Parameter] = []
    injected_run: list[str] = []
    injected_cluster: list[str] = []
    has_format = "as_json" in own and "output_format" not in own
    for parameter in signature.parameters.values():
        annotation = hints.get(parameter.name, parameter.annotation)
        if parameter.name == "run" and annotation is RunOptions:
            for name, option, default in RUN_PARAMETERS:
                if name not in own:
                    injected_run.append(name)
                    parameters.append(
                        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=option)
                    )
            continue
        if parameter.name == "cluster" and annotation is ClusterOptions:
            for name, option, default in CLUSTER_PARAMETERS:
                injected_cluster.append(name)
                parameters.append(
                    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=option)
                )
            continue
        parameters.append(parameter.replace(annotation=annotation, kind=inspect.Parameter.KEYWORD_ONLY))
        if parameter.name == "as_json" and has_format:
            parameters.append(
                inspect.Parameter("output_format", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=FormatOpt)
            )

    @functools.wraps(function)
    def command(**values: Any) -> Any:
        output_format = values.pop("output_format", None)
        if values.get("as_json"):
            if output_format not in (None, "json"):
                raise UserError(f"--json and --format {output_format} contradict each other")
            output_format = "json"
        output_format = output_format or "table"
        begin(command_name, output_format)
        from_command_line = COMMAND_LINE.set(True)  # messages name flags, not keywords
        try:
            if "as_json" in values:
                values["as_json"] = output_format != "table"
            where = ClusterOptions()
            if injected_run or "run" in own:
                shared = {name: values.pop(name) for name in injected_run}
                values["run"] = run_options(**shared)
                where = ClusterOptions(values["run"].backend, values["run"].scheduler)
            if injected_cluster:
                where = ClusterOptions(**{name: values.pop(name) for name in injected_cluster})
                values["cluster"] = where = where.checked()
            with using(where.backend, where.scheduler):  # connects first: a bad address fails now
                result = function(**values)
        except BaseException:
            abandon()
            raise
        finally:
            COMMAND_LINE.reset(from_command_line)
        finish()
        return result

    del command.__wrapped__  # typer must read the spliced signature, not the original one
    command.__signature__ = signature.replace(parameters=parameters)
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    return command


class CommandApp(typer.Typer):
    """A command group whose commands share the run options and the output contract."""

    def __init__(self, group: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.group = group

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[Callable], Callable]:
        register = super().command(name, **kwargs)

        def decorator(function: Callable[..., Any]) -> Callable[..., Any]:
            shown = name or function.__name__.replace("_", "-")
            register(_wrap_command(function, f"{self.group} {shown}".strip()))
            return function

        return decorator


def command_app(group: str, *, help: str, example: str) -> CommandApp:
    """The sub-app of ``cardsim <group>``; its ``--help`` ends with ``example``."""
    return CommandApp(
        group,
        help=f"{help}\n\n\b\nExample: {example}",
        no_args_is_help=True,
        rich_markup_mode=None,
    )


def game_app(name: str) -> CommandApp:
    """The sub-app of ``cardsim <name>`` for a registered game: its declared help and example."""
    from cardsim.sims.registry import get_game

    game = get_game(name)
    return command_app(name, help=game.help, example=game.example)


def wrap_root_command(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """A top-level command (``report``, ``bench``) with the same options and output contract."""
    return _wrap_command(function, name)


def execute(
    game: str,
    config: Any,
    *,
    n: int,
    run: RunOptions | None = None,
    seed: int = 0,
    jobs: int | None = None,
    backend: str = "joblib",
    scheduler: str | None = None,
    store: Path | None = None,
    precision: float | None = None,
    max_n: int | None = None,
    quiet: bool = False,
    no_store: bool = False,
):
    """Run ``config`` of ``game`` through the runner and the store, with a progress bar; the
    run is recorded in the command's output document. Give ``run`` (the command's shared
    options) or the options one by one."""
    options = (
        run
        if run is not None
        else run_options(
            seed=seed,
            jobs=jobs,
            backend=backend,
            scheduler=scheduler,
            store=store,
            no_store=no_store,
            precision=precision,
            max_n=max_n,
            quiet=quiet,
        )
    )
    result = run_config(game, config, n=check_n(n), options=options)
    record_run(run_id(result), options.seed, options.stop_rule(n))
    return result


def deprecated_alias(value: Any, alias_value: Any, *, old: str, new: str) -> Any:
    """The value of an option given under its old, hidden name ``old`` (with a note to use
    ``new``), else ``value``. Old names stay accepted, hidden from the help, so that recorded
    commands (libraries files, notes) still run."""
    if alias_value is None:
        return value
    from cardsim.options import note

    note(f"{old} is deprecated; use {new}")
    return alias_value


def record_result(result: Any) -> None:
    """Put an API :class:`~cardsim.api.Result`'s seed, stop rule and runs in the output."""
    manifest = result.manifest
    for identifier in manifest.get("runs") or [None]:
        record_run(identifier, manifest["seed"], manifest["stop_rule"])


def evaluation_progress(label: str | None) -> Any:
    """A block in which an evaluation of a user strategy shows a progress bar labelled
    ``label`` (None: ``--quiet``, no bar); see :func:`cardsim.sims.core.user_strategy.run_chunks`."""
    from cardsim.sims.core.user_strategy import evaluation_progress as progress

    return progress(label)


def run_user_strategy(call: Callable[[], Any], traceback: bool) -> Any:
    """``call()``, with a failing user strategy's own traceback printed when ``--traceback`` was
    given (the error itself stays one line, exit 2)."""
    from cardsim.sims.core.user_strategy import StrategyError, report_traceback_if_asked

    try:
        return call()
    except StrategyError as err:
        report_traceback_if_asked(err, traceback)
        raise


def run_crossplay(
    crossplay: Callable[..., Any],
    command: str,
    entrants: list[str],
    *,
    players: int,
    n: int,
    seed: int,
    jobs: int | None,
    cluster: ClusterOptions,
    store: Path | None,
    no_store: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """The body of a ``crossplay`` command (The Gang, The Game): the game's API ``crossplay``
    with a chunk progress bar labelled ``command`` (none with ``--quiet`` or ``--json``), then
    its matrix (:func:`cardsim.commands.output.show_crossplay`)."""
    from cardsim.commands.output import show_crossplay, with_chunk_progress

    folder = resolve_store(store, no_store)
    workers = RunOptions(jobs=jobs).checked().jobs or 1
    result = with_chunk_progress(
        lambda report: crossplay(
            entrants,
            players=players,
            n=n,
            seed=seed,
            jobs=workers,
            store=folder,
            on_chunk=report,
            **cluster.keywords(),
        ),
        command,
        quiet or as_json,
    )
    show_crossplay(result, players, n, seed, as_json)
