"""Run options shared by the command line and the Python API: defined once, checked once.

Everything here is checked before any episode is played, so a bad option never costs a
computation: list values are parsed with duplicates dropped (a duplicate would stack identical
seeded runs and overstate n), output paths are probed for writing, the dask scheduler address is
checked for its form and conflicting options are refused. Each problem is one
:class:`cardsim.errors.UserError` line.

The module is light (no numba, polars or typer at import), so ``import cardsim`` stays fast.
"""

from __future__ import annotations

import math
import os
import re
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardsim.errors import UserError

if TYPE_CHECKING:
    from cardsim.sims.core.runner import RunResult

DEFAULT_STORE = Path("results")
DEFAULT_MAX_N = 1_000_000  # the runner's bound on a --precision run without --max-n
BACKENDS = ("joblib", "dask")
PLOT_FORMATS = ("svg", "png")
OUTPUT_FORMATS = ("table", "csv", "json")

# A dask scheduler address: [protocol://]host:port (tcp, tls, ucx, ws, wss); dask needs the
# port (a bare tcp://host fails only once the client connects).
_SCHEDULER = re.compile(
    r"^(?:(?:tcp|tls|ucx|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)"
    r":(\d{1,5})$"
)
_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")

# Below this many estimated seconds of work one worker is faster than starting a pool. Each
# game declares its warm single-core speed (episodes per second, used only to pick the default
# --jobs) and its cold compile seconds (:class:`cardsim.sims.core.game.Game`).
SHORT_RUN_SECONDS = 10.0


def _declared(game: str) -> Any:
    """The game's declaration, or None for a simulator outside the registry (tests' toys)."""
    from cardsim.sims.registry import games

    return games().get(game)


def note(text: str) -> None:
    """One line for the user on stderr (never on stdout, which carries the results)."""
    print(f"note: {text}", file=sys.stderr, flush=True)


def unique(values: Iterable[Any], *, name: str) -> list[Any]:
    """``values`` without repeats, in first-seen order; a repeat is dropped with a note.

    Every list option goes through here: a repeated entry would run the same seeded
    configuration twice and count its episodes twice (n doubled, interval too narrow).
    """
    kept: list[Any] = []
    dropped: list[Any] = []
    for value in values:
        (dropped if value in kept else kept).append(value)
    if dropped:
        shown = ", ".join(dict.fromkeys(str(v) for v in dropped))
        note(f"{name}: repeated {shown} dropped (each configuration runs once)")
    return kept


def parse_range(value: str | int | Sequence[int], *, name: str = "players") -> list[int]:
    """'4' -> [4]; '3-6' -> [3, 4, 5, 6]; '3,5' -> [3, 5]; an int or a list of ints as is.

    Repeats ('3,3', '3-4,4') are dropped with a note.
    """
    if isinstance(value, bool):
        raise UserError(f"{name}: expected a number, got {value!r}")
    if isinstance(value, int):
        return [value]
    if not isinstance(value, (str, Sequence)):
        raise UserError(f"{name}: expected a whole number, a range like 3-6 or a list of whole numbers; got {value!r}")
    if not isinstance(value, str):
        listed = list(value)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in listed):
            raise UserError(f"{name}: expected whole numbers, got {value!r}")
        return unique(listed, name=name)
    values: list[int] = []
    for part in value.split(","):
        match = _RANGE.match(part)
        if not match:
            raise UserError(f"{name}: expected a number, a range like 3-6 or a list like 3,5; got {value!r}")
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if high < low:
            raise UserError(f"{name}: empty range {part.strip()!r}")
        values.extend(range(low, high + 1))
    return unique(values, name=name)


def split_names(value: str | Sequence[str] | None, *, name: str) -> list[str]:
    """'a,b' or ['a', 'b'] (or repeated flags, each possibly comma separated) -> ['a', 'b'],
    repeats dropped with a note."""
    if value is None:
        return []
    if not isinstance(value, (str, Sequence)) or not all(
        isinstance(part, str) for part in ([value] if isinstance(value, str) else value)
    ):
        raise UserError(f"{name}: expected a name, 'a,b' or a list of names; got {value!r}")
    parts = [value] if isinstance(value, str) else list(value)
    names = [item.strip() for part in parts for item in str(part).split(",") if item.strip()]
    return unique(names, name=name)


def parse_choice(value: str | Sequence[str], choices: Sequence[str], *, name: str) -> list[str]:
    """'all' -> every choice; 'a,b' (or ['a', 'b']) -> [a, b], each checked against ``choices``;
    repeats dropped with a note."""
    if value is None:
        raise UserError(f"{name}: give one or more of: {', '.join(choices)}, all (got None)")
    picked = split_names(value, name=name)
    if picked == ["all"]:
        return list(choices)
    unknown = [item for item in picked if item not in choices]
    if unknown or not picked:
        raise UserError(f"unknown {name} {', '.join(unknown) or value!r}; choose from: {', '.join(choices)}, all")
    return picked


def check_scheduler(address: str) -> str:
    """A dask scheduler address must look like tcp://host:port (or host:port)."""
    match = _SCHEDULER.match(address.strip()) if isinstance(address, str) else None
    if not match or not 0 < int(match.group(1)) < 65536:
        raise UserError(f"--scheduler: expected an address with a port, like tcp://host:8786; got {address!r}")
    return address.strip()


def _nearest_existing(path: Path) -> Path:
    probe = path.absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe


def _probe_folder(folder: Path, what: str) -> None:
    """Raise unless a file can be created in ``folder`` (or in the folder that would hold it)."""
    base = _nearest_existing(folder)
    if not base.is_dir():
        raise UserError(f"{what}: {base} is not a folder")
    try:
        with tempfile.NamedTemporaryFile(dir=base, prefix=".cardsim-probe-"):
            pass
    except OSError as exc:
        raise UserError(f"{what}: cannot write in {base} ({exc.strerror or exc})") from None


def check_output_folder(folder: Path, *, what: str) -> Path:
    """A folder results will be written into: an existing folder, or one that can be created."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{what}: {folder} exists and is not a folder")
    _probe_folder(folder, what)
    return folder


def check_output_file(path: Path, *, what: str, suffixes: Sequence[str] = ()) -> Path:
    """A file results will be written to: right suffix, not a folder, its folder writable."""
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        raise UserError(f"{what}: {path} must end in {' or '.join(suffixes)}")
    if path.is_dir():
        raise UserError(f"{what}: {path} is a folder, expected a file name")
    _probe_folder(path.parent, what)
    return path


def check_plot_folder(folder: Path | None, plot_format: str = "svg") -> Path | None:
    """``--plot`` is always a folder; the image format is ``--plot-format`` (svg or png)."""
    if plot_format not in PLOT_FORMATS:
        raise UserError(f"--plot-format must be one of: {', '.join(PLOT_FORMATS)}; got {plot_format!r}")
    if folder is None:
        return None
    folder = Path(folder)
    if folder.suffix.lower() in (".svg", ".png", ".pdf", ".jpg", ".jpeg") and not folder.is_dir():
        raise UserError(
            f"--plot takes a folder, got the file name {folder}; choose the image type with --plot-format svg|png"
        )
    return check_output_folder(folder, what="--plot")


def resolve_store(store: Path | str | None, no_store: bool = False) -> Path | None:
    """The results folder: the option, else $CARDSIM_STORE, else ./results (None: no store)."""
    if no_store:
        if store is not None:
            raise UserError("--store and --no-store contradict each other; give one")
        return None
    if store is not None:
        return Path(store)
    env = os.environ.get("CARDSIM_STORE")
    return Path(env) if env else DEFAULT_STORE


def check_backend(backend: Any, scheduler: Any) -> str | None:
    """``backend`` and ``scheduler`` checked together (each problem one UserError line); the
    scheduler address as it will be used (None on joblib)."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise UserError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    if scheduler is not None and not isinstance(scheduler, str):
        raise UserError(f"--scheduler must be an address like tcp://host:8786, got {scheduler!r}")
    if backend == "dask":
        if not scheduler:
            raise UserError("--backend dask needs --scheduler tcp://host:port")
        return check_scheduler(scheduler)
    if scheduler is not None:
        raise UserError("--scheduler is for --backend dask; the joblib backend runs here")
    return None


@dataclass(frozen=True)
class ClusterOptions:
    """Where a command's parallel work runs: ``joblib`` (this machine's cores) or ``dask`` (the
    cluster whose scheduler is at ``scheduler``). Same seed, same numbers on either."""

    backend: str = "joblib"
    scheduler: str | None = None

    def checked(self) -> ClusterOptions:
        """These options, validated together (each problem one UserError line)."""
        return replace(self, scheduler=check_backend(self.backend, self.scheduler))

    def keywords(self) -> dict[str, Any]:
        """``backend=`` and ``scheduler=`` for an API call."""
        return {"backend": self.backend, "scheduler": self.scheduler}


@dataclass(frozen=True)
class RunOptions:
    """How to run (never what to run): the options every simulation command shares.

    ``store`` is the resolved results folder (None: nothing written); ``jobs`` None picks one
    worker for a short run and all cores for a long one (:func:`choose_jobs`).
    """

    seed: int = 0
    jobs: int | None = None
    backend: str = "joblib"
    scheduler: str | None = None
    store: Path | None = None
    precision: float | None = None
    max_n: int | None = None
    quiet: bool = False

    def checked(self) -> RunOptions:
        """These options, validated together (each problem one UserError line)."""
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise UserError(f"--seed must be a non-negative whole number, got {self.seed!r}")
        if self.jobs is not None and (not _whole(self.jobs) or self.jobs < 1):
            raise UserError(f"--jobs must be a whole number of at least 1, got {self.jobs!r}")
        scheduler = check_backend(self.backend, self.scheduler)
        if self.store is not None and not isinstance(self.store, (str, os.PathLike)):
            raise UserError(f"--store must be a folder name, got {self.store!r}")
        if not isinstance(self.quiet, bool):
            raise UserError(f"--quiet must be True or False, got {self.quiet!r}")
        if self.precision is not None and (
            isinstance(self.precision, bool)
            or not isinstance(self.precision, (int, float))
            or math.isnan(self.precision)
        ):
            raise UserError(f"--precision must be a number between 0 and 0.5, got {self.precision!r}")
        if self.max_n is not None and not _whole(self.max_n):
            raise UserError(f"--max-n must be a whole number, got {self.max_n!r}")
        if self.precision is not None and not 0 < self.precision < 0.5:
            raise UserError(f"--precision must be between 0 and 0.5, got {self.precision}")
        if self.max_n is not None:
            if self.precision is None:
                raise UserError("--max-n bounds a --precision run; give --precision too (or use --n for a fixed size)")
            if self.max_n < 1:
                raise UserError(f"--max-n must be at least 1, got {self.max_n}")
        if self.store is not None and Path(self.store).exists() and not Path(self.store).is_dir():
            raise UserError(f"store {self.store} is not a folder")
        if self.jobs is not None and self.jobs > (os.cpu_count() or 1) and not self.quiet:
            note(
                f"--jobs {self.jobs} is more than this machine's {os.cpu_count()} cores; "
                "extra workers only add start-up time"
            )
        return replace(self, scheduler=scheduler)

    def stop_rule(self, n: int) -> str:
        """The stop rule asked for, in words (each run's own outcome is in its manifest)."""
        if self.precision is None:
            return f"fixed n={n:,}"
        bound = f", max-n {self.max_n:,}" if self.max_n is not None else ""
        return f"precision {self.precision} (n >= {n:,}{bound})"


def _whole(value: Any) -> bool:
    """A whole number (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_n(n: int, *, name: str = "--n") -> int:
    """Episodes asked for must be a positive whole number."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UserError(f"{name} must be a positive whole number, got {n!r}")
    return n


def search_jobs(jobs: int | None) -> int:
    """Workers for a search command (train, compare, discover), whose work is always long: the
    ``--jobs`` given (checked like the run option, with its warning above the core count), else
    every core."""
    return RunOptions(jobs=jobs).checked().jobs or (os.cpu_count() or 1)


def choose_jobs(game: str, n: int, options: RunOptions, runs: int = 1) -> int:
    """The worker count: as given, else one worker when the estimated work of ``runs`` runs of
    ``n`` episodes is short (a pool's start-up would cost more than it saves) and every core
    when it is long."""
    if options.jobs is not None:
        return options.jobs
    cores = os.cpu_count() or 1
    episodes = n
    if options.precision is not None:
        # the worst case (a rate near 1/2) needs 1.96^2 / (4 precision^2) episodes
        needed = math.ceil(0.9604 / options.precision**2)
        episodes = max(n, min(needed, options.max_n or DEFAULT_MAX_N))
    declared = _declared(game)
    speed = declared.episodes_per_second if declared is not None else 1_000
    seconds = runs * episodes / speed
    return 1 if seconds < SHORT_RUN_SECONDS or cores == 1 else cores


_announced: set[str] = set()


def kernels_cold(game: str) -> bool:
    """True when numba has no up-to-date on-disk cache for one of the kernel modules ``game``'s
    simulator imported (first run after install or after a code change), so the run will
    compile first. Call after the simulator is imported."""
    from cardsim.sims.core.jit import cache_folder

    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    declared = _declared(game)
    module = declared.simulator_module if declared else f"cardsim.sims.{game}.simulator"
    prefix = f"{module.rpartition('.')[0] or module}."
    for name, module in list(sys.modules.items()):
        source = Path(getattr(module, "__file__", None) or "")
        if not name.startswith(prefix) or source.suffix != ".py":
            continue
        text = source.read_text(encoding="utf-8", errors="replace")
        if "@kernel" not in text and "@njit" not in text:
            continue
        stamp = source.stat().st_mtime
        indexes = list(cache_folder(source, cache_dir).glob(f"{source.stem}.*.nbi"))
        if not any(index.stat().st_mtime >= stamp for index in indexes):
            return True
    return False


def announce_compile(game: str, quiet: bool = False) -> None:
    """Say once per process that ``game``'s kernels will compile, with the expected time."""
    declared = _declared(game)
    if quiet or game in _announced or declared is None or declared.compile_seconds is None:
        return
    _announced.add(game)
    if kernels_cold(game):
        seconds = declared.compile_seconds
        about = "about a minute" if 40 <= seconds <= 80 else f"about {seconds:g} s"
        note(
            f"compiling the {declared.running_title} kernels (first run after install or a code "
            f"change, {about}); later runs start at once"
        )


#: Episodes per chunk of a run whose table holds a strategy written in Python.
ENGINE_CHUNK = 500


def run_config(game: str, config: Any, *, n: int, options: RunOptions, runs: int = 1) -> RunResult:
    """Run one configuration of ``game`` through the runner (and the store, if any); ``runs``:
    how many such runs the command makes (the default worker count weighs their total work,
    since joblib keeps its workers between runs)."""
    from cardsim.sims.core.runner import run
    from cardsim.sims.registry import get_simulator

    simulator = get_simulator(game)
    announce_compile(game, options.quiet)
    # a table with strategies written in Python plays in the engine, far slower than the
    # kernel: smaller chunks, so a short run stays short and a long one resumes finely
    python = getattr(config, "python_slots", None)
    result = run(
        simulator,
        config,
        n=n,
        seed=options.seed,
        jobs=choose_jobs(game, n, options, runs),
        backend=options.backend,
        scheduler=options.scheduler,
        store=options.store,
        precision=options.precision,
        max_n=options.max_n,
        progress=not options.quiet,
        chunk_size=min(ENGINE_CHUNK, simulator.chunk_size) if python is not None and python() else None,
    )
    if not options.quiet:
        where = f" -> {result.path}" if result.path else ""
        print(f"[{game}] {result.stop_rule}{where}", file=sys.stderr, flush=True)
    return result
