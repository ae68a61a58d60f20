"""``kernel``: the one numba decorator every compiled rule uses.

``@kernel`` is ``numba.njit(cache=True)`` with one difference: when a compiled function calls
another with a constant argument (``find_in_hand(s, p, BANG)``), plain numba types the constant
as a literal and compiles a separate copy of the callee for every constant value it is ever
called with. A ``kernel`` is typed for its callers with such arguments as their plain type
(``int64``), so it compiles once per genuine argument type, which roughly halves a cold first
run's compile time with the same results (the tests compare compiled games with their
plain-Python references).

The results are cached on disk like ``njit(cache=True)``. numba's cache notices edits only in
the file that holds a function, not in the files of the functions it compiles in (a game's
beliefs, policies or the poker scorer), so a stale cache would silently run old code after an
upgrade or an edit. :func:`drop_stale_cache` guards against that: before the first kernel of a
module is declared, it compares a fingerprint of every source a kernel there can compile in
(its own package, ``sims/core`` and ``sims/poker``) with the one stamped beside the cache, and
deletes the cache files when they differ.

Every kernel is compiled for the kernels that call it, without numba's CPython wrapper
(:class:`InnerKernel`); Python's calls (a batch kernel, a test) go through a twin compiled with
the wrapper.

While numba compiles, Python's cyclic garbage collector is paused (:class:`PausedCollector`):
numba's compiler builds and drops millions of objects, and the collector's full passes over
them are a noticeable share of compile time. It resumes when the outermost compilation ends.

numba internals used, and why (none has a public equivalent of the same speed):

- ``_nrt=False`` (a private ``njit`` option): compiles a ``refcounts=False`` kernel without
  reference counting, whose atomic counts can outweigh a hot game loop's arithmetic.
- ``no_cpython_wrapper=True`` and ``no_cfunc_wrapper=True`` (undocumented ``njit`` options):
  skip compiling the wrappers for calls from Python and C, which a kernel called only by other
  kernels never uses.
- the dispatcher's class swapped for :class:`InnerKernel` (a ``CPUDispatcher`` subclass from
  ``numba.core.registry``), so a call from Python goes to the twin that has the wrapper.
- the dispatcher's ``get_call_template`` replaced, to type constant arguments plainly for
  compiled callers (one compiled copy instead of one per constant).
- ``numba.core.event`` (numba's documented event API) for the paused collector, and
  ``numba.core.types.unliteral`` for the plain argument types (not covered by the fallback).

A numba release may rename or drop any of the first four. Before the first kernel is declared,
:func:`private_options_work` compiles a tiny probe with all of them (loaded from numba's cache
when this numba version compiled it before); if numba refuses anything, every kernel is an
ordinary counting ``njit(cache=True)`` function instead, with one :class:`RuntimeWarning`:
the same results, slower to compile and to run.
"""

from __future__ import annotations

import gc
import hashlib
import inspect
import os
import types as pytypes
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, overload

import numba
from numba import njit
from numba.core import event, types
from numba.core.registry import CPUDispatcher

SIMS = Path(__file__).resolve().parent.parent
P = ParamSpec("P")
R = TypeVar("R")
# ``njit`` as numba declares it knows none of the private options passed below; numba's event
# and type helpers are unannotated.
_njit: Callable[..., Any] = njit
_register_listener: Callable[[str, event.Listener], None] = event.register
_unliteral: Callable[[Any], Any] = types.unliteral
_checked_caches: set[Path] = set()


def cache_folder(source: Path, cache_dir: str | None = None) -> Path:
    """Where numba keeps the on-disk cache of ``source``'s kernels: ``__pycache__`` beside it,
    or with NUMBA_CACHE_DIR the folder numba derives from the source folder's path."""
    if not cache_dir:
        return Path(source).parent / "__pycache__"
    folder = os.path.dirname(os.path.abspath(source))
    digest = hashlib.sha1(folder.encode()).hexdigest()
    return Path(cache_dir) / f"{os.path.basename(folder)}_{digest}"


def compiled_in_sources(source: Path) -> list[Path]:
    """Every source a kernel of ``source`` may compile in: its package's and the shared
    ``sims/core`` and ``sims/poker`` packages'."""
    folders = {Path(source).resolve().parent, SIMS / "core", SIMS / "poker"}
    return sorted(path for folder in folders for path in folder.glob("*.py"))


def drop_stale_cache(source: Path) -> None:
    """Delete the numba cache files of ``source``'s folder when any source its kernels may
    compile in changed since they were written (checked once per folder and process; a
    read-only install is left alone)."""
    cache = cache_folder(source, os.environ.get("NUMBA_CACHE_DIR"))
    if cache in _checked_caches:
        return
    _checked_caches.add(cache)
    digest = hashlib.sha256()
    for path in compiled_in_sources(source):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    current = digest.hexdigest()
    stamp = cache / "cardsim-sources.stamp"
    try:
        if stamp.read_text() == current:
            return
    except OSError:
        pass
    try:
        for stale in (*cache.glob("*.nbi"), *cache.glob("*.nbc")):
            stale.unlink(missing_ok=True)
        cache.mkdir(parents=True, exist_ok=True)
        stamp.write_text(current)
    except OSError:
        pass


class PausedCollector(event.Listener):
    """A ``numba:compile`` listener that pauses the cyclic garbage collector from the start
    of an outermost compilation to its end (compiling a caller compiles its callees inside
    it) and then restores the collector's state. Compiling gets cheaper; peak memory rises by
    the garbage of one compilation."""

    def __init__(self) -> None:
        self.depth = 0
        self.was_enabled = False

    def on_start(self, ev: event.Event) -> None:
        if self.depth == 0:
            self.was_enabled = gc.isenabled()
            gc.disable()
        self.depth += 1

    def on_end(self, ev: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0 and self.was_enabled:
            gc.enable()


_register_listener("numba:compile", PausedCollector())


def _plain(argument_type: Any) -> Any:
    """The argument type with any literal value dropped (``Literal[int](3)`` -> ``int64``)."""
    return _unliteral(argument_type)


class InnerKernel(CPUDispatcher):
    """A kernel compiled without numba's CPython wrapper, the code that unboxes Python
    arguments (arrays, a Generator) for a call from Python: compiled kernels call each other
    directly and never use it, yet numba optimises and compiles it with every kernel (about a
    tenth of a small kernel's compile time). A call from Python goes to a twin of the same function compiled with the wrapper
    (and cached apart, under its own name) the first time Python calls it; calls between
    kernels never compile the twin."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return python_entry(self)(*args, **kwargs)


class Kernel(Protocol, Generic[P, R]):
    """What :func:`kernel` returns, as type checkers see it: called like the function it
    compiles (so every call of a kernel is checked against that function's annotations), with
    the dispatcher attributes cardsim reads."""

    py_func: Callable[P, R]
    targetoptions: dict[str, Any]
    overloads: dict[Any, Any]

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R: ...

    def __hash__(self) -> int: ...

    def get_call_template(self, args: tuple[Any, ...], kws: dict[str, Any]) -> Any: ...


class KernelDecorator(Protocol):
    """``kernel(...)`` with options: compiles the function it decorates."""

    def __call__(self, function: Callable[P, R], /) -> Kernel[P, R]: ...


def python_entry(function: Callable[P, R]) -> Callable[P, R]:
    """What Python calls when it calls ``function``: a kernel's twin compiled with the CPython
    wrapper (made on first use), any other function itself. A Python loop that calls a kernel
    many times a game binds this once and skips :meth:`InnerKernel.__call__`'s forwarding."""
    if not isinstance(function, InnerKernel):
        return function
    twin = function.__dict__.get("python_twin")
    if twin is None:
        twin = function.__dict__["python_twin"] = njit(cache=True)(python_copy(function.py_func))
    return twin


def python_copy(function: Callable[P, R]) -> Callable[P, R]:
    """The same code as a new function named ``<name>__python`` (numba's cache files are
    named after the function, so the twin never reads or overwrites the inner kernel's)."""
    copy = pytypes.FunctionType(
        function.__code__, function.__globals__, function.__name__, function.__defaults__, function.__closure__
    )
    copy.__qualname__ = function.__qualname__ + "__python"
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    return copy


def _private_kernel(python_function: Callable[..., Any], inline: str, kept: set[str] | None, refcounts: bool) -> Any:
    """``python_function`` as an :class:`InnerKernel` (numba's private options; see the module
    note). ``kept`` names the arguments typed with their constant values; ``None`` keeps all."""
    options = {} if refcounts else {"_nrt": False}
    dispatcher = _njit(cache=True, inline=inline, no_cpython_wrapper=True, no_cfunc_wrapper=True, **options)(
        python_function
    )
    dispatcher.__class__ = InnerKernel
    if kept is None:
        return dispatcher
    names = list(inspect.signature(python_function).parameters)
    keep_position = [name in kept for name in names]
    typed_for_callers = dispatcher.get_call_template

    def get_call_template(args: tuple[Any, ...], kws: dict[str, Any]) -> Any:
        return typed_for_callers(
            tuple(a if i < len(keep_position) and keep_position[i] else _plain(a) for i, a in enumerate(args)),
            {k: v if k in kept else _plain(v) for k, v in kws.items()},
        )

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _counting_kernel(python_function: Callable[..., Any], inline: str) -> Any:
    """``python_function`` as an ordinary ``njit(cache=True)`` function: reference counted,
    with the wrapper for calls from Python, a copy per constant argument. Compiled as
    :func:`python_copy` so that its cache files never mix with an :class:`InnerKernel`'s."""
    return _njit(cache=True, inline=inline)(python_copy(python_function))


def _probe_callee(x: int) -> int:
    return x + 1


def _probe_caller(x: int) -> int:
    return _probe_kernel(x) + _probe_kernel(2)


_probe_kernel: Callable[[int], int] = _probe_callee  # the probe's compiled callee once tried
_private_options: list[bool] = []


def private_options_work() -> bool:
    """Whether numba accepts the internals :func:`kernel` uses (module note), tried once per
    process on a tiny kernel without reference counting called by a cached caller; when it
    refuses, one :class:`RuntimeWarning` says that kernels fall back to counting ones."""
    global _probe_kernel
    if not _private_options:
        try:
            drop_stale_cache(Path(__file__))
            _probe_kernel = _private_kernel(_probe_callee, "never", set(), refcounts=False)
            works = njit(cache=True)(_probe_caller)(3) == 7
            problem = "the probe computed a wrong value"
        except Exception as error:  # any refusal: KeyError for an unknown option, a missing attribute, ...
            works, problem = False, f"{type(error).__name__}: {error}"
        _private_options.append(works)
        if not works:
            warnings.warn(
                f"numba {numba.__version__} refuses the internals cardsim's kernels use ({problem}); "
                "compiling ordinary reference-counted kernels instead (same results, slower)",
                RuntimeWarning,
                stacklevel=2,
            )
    return _private_options[0]


@overload
def kernel(function: Callable[P, R], /) -> Kernel[P, R]: ...


@overload
def kernel(
    *, inline: str = "never", literals: bool | tuple[str, ...] = False, refcounts: bool = True
) -> KernelDecorator: ...


def kernel(
    function: Callable[..., Any] | None = None,
    /,
    *,
    inline: str = "never",
    literals: bool | tuple[str, ...] = False,
    refcounts: bool = True,
) -> Any:
    """Compile ``function`` in nopython mode with the on-disk cache, typed for its compiled
    callers without literal specialisation. Use as ``@kernel`` or ``@kernel(inline="always")``.

    ``literals`` names the arguments whose constant values select the code of a hot loop (a
    strategy flag, a sequence length): a caller passing a constant there gets a copy compiled
    for that value, worth its compile time where it matters (The Game's planner's hot loops). Every other argument is typed plainly, even when a caller happens to
    pass a constant (``n_cand = 0`` before a loop would otherwise compile one more copy).
    ``literals=True`` keeps numba's behaviour of a copy per constant of any argument.

    ``refcounts=False`` compiles without numba's reference counting of arrays (``_nrt=False``):
    numba counts every array a function takes or views, with an atomic add and subtract on the
    array's memory record, and in a hot game loop those counts can cost more than the game's
    own arithmetic. Such a kernel cannot allocate an array (numba refuses to compile it), so
    it writes into arrays its caller owns; a caller compiled with counting may pass it any array.

    Every kernel is an :class:`InnerKernel`: compiled for other kernels without a CPython
    wrapper (nor a C callback wrapper); a call from Python
    (a batch kernel, a test) goes through a twin compiled for it.

    Where numba refuses these internals (:func:`private_options_work`), every kernel is an
    ordinary counting ``njit(cache=True)`` function instead, with the same results.
    """

    def compile_later(python_function: Callable[..., Any]) -> Any:
        names = list(inspect.signature(python_function).parameters)
        kept = set(names) if literals is True else set(literals or ())
        unknown = kept - set(names)
        if unknown:
            raise TypeError(f"{python_function.__name__} has no argument {sorted(unknown)}")
        drop_stale_cache(Path(inspect.getfile(python_function)))
        if not private_options_work():
            return _counting_kernel(python_function, inline)
        return _private_kernel(python_function, inline, None if literals is True else kept, refcounts)

    if function is None:
        return compile_later
    return compile_later(function)
