"""Machine code only for kernels that Python calls: inner kernels stay optimised LLVM code.

numba turns every function it compiles into machine code straight away, including a kernel
that only other kernels call (an :class:`~cardsim.sims.core.jit.InnerKernel`, compiled without
the CPython wrapper). Its callers never run that machine code: each links the callee's
optimised LLVM module into its own and makes machine code for the whole. The first copy is
waste, and a cold first run pays it for every inner kernel (a cold `gang heist` with the Muscle
spent 12 of its 50 CPU seconds making machine code for about 150 libraries, 8 of them on
kernels that only other kernels call).

:func:`defer_inner_machine_code` changes three things in numba's JIT code libraries
(``numba.core.codegen.JITCodeLibrary``), for numba versions whose internals it was checked
against (:data:`CHECKED_NUMBA`; others keep numba's behaviour):

- a library whose function has no CPython wrapper is optimised and linked as before but not
  added to the execution engine, so no machine code is made for it; anything that asks for
  its machine code (a function pointer, its object code) makes it then;
- such a library goes to the disk cache as LLVM bitcode (what its callers link), and comes
  back from it the same way, without machine code (one holding an address from this process,
  numba's "dynamic globals", is not cached, as numba decides);
- an environment pointer (numba reads a function's environment to build an exception's
  arguments) whose symbol no machine code defines yet is written once some caller's machine
  code defines it, instead of through a null address.

The results are the ones numba gives without it (a cold `report --quick` wrote byte-identical
files with it on and off, and an outside check found each game's output, exceptions and cache
reuse across processes the same); ``CARDSIM_DEFERRED_MACHINE_CODE=0`` turns it off.
"""

from __future__ import annotations

import os
from typing import Any

import llvmlite.binding as llvm
import numba
from numba.core import codegen, cpu
from numba.core.compiler_lock import require_global_compiler_lock

# numba versions whose code-library internals this module was checked against
CHECKED_NUMBA = ("0.68",)

# environment pointers numba asked to write before any machine code defined their symbol
_waiting_environments: dict[str, Any] = {}

# numba's own methods, which the deferral wraps
_numba_set_env = codegen.JITCPUCodegen.set_env
_numba_get_executable = cpu.CPUContext.get_executable


def _write_environment(generator: codegen.JITCPUCodegen, name: str, environment: Any) -> None:
    """numba's ``set_env``, but a symbol no machine code defines yet waits (numba would write
    through its null address)."""
    if generator._engine.is_symbol_defined(name):
        _numba_set_env(generator, name, environment)
    else:
        _waiting_environments[name] = environment


class DeferredLibrary(codegen.JITCodeLibrary):
    """A JIT code library that makes machine code only when something needs it."""

    _deferred = False

    def finalize_without_machine_code(self) -> None:
        """numba's ``finalize`` (link the callees, optimise, verify) without adding the module
        to the execution engine."""
        require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        linked: set[int] = set()
        for library in self._linking_libraries:
            if id(library) not in linked:
                linked.add(id(library))
                self._reload_init.update(library._reload_init)
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._optimize_final_module()
        self._final_module.verify()
        # numba notes the addresses baked into the code (a large or strided global array)
        # here, so that such a library is never cached: an address from this process
        self._finalize_dynamic_globals()
        self._deferred = True
        self._finalized = True

    def _finalize_final_module(self) -> None:
        super()._finalize_final_module()
        engine = self._codegen._engine
        for name in [n for n in _waiting_environments if engine.is_symbol_defined(n)]:
            _numba_set_env(self._codegen, name, _waiting_environments.pop(name))

    def make_machine_code(self) -> None:
        """The machine code a deferred library skipped, made now."""
        if self._deferred:
            self._deferred = False
            self._finalize_final_module()

    def defines(self, name: str) -> bool:
        """Does this library's own module define the function ``name``?"""
        try:
            return not self._final_module.get_function(name).is_declaration
        except NameError:
            return False

    def get_pointer_to_function(self, name: str) -> int:
        if self._deferred and not self.defines(name):
            return 0  # numba's answer for a function the library lacks (no CPython wrapper)
        self.make_machine_code()
        return super().get_pointer_to_function(name)

    def _get_compiled_object(self) -> bytes:
        self.make_machine_code()
        return super()._get_compiled_object()

    def serialize_using_object_code(self) -> tuple:
        if self._deferred:
            return self.serialize_using_bitcode()
        return super().serialize_using_object_code()

    @classmethod
    def _unserialize(cls, generator: codegen.JITCPUCodegen, state: tuple) -> DeferredLibrary:
        name, kind, data = state
        if kind != "bitcode":
            return super()._unserialize(generator, state)
        library = generator.create_library(name)
        library._final_module = llvm.parse_bitcode(data)
        library._deferred = True
        library._finalized = True
        return library


def _get_executable(context: cpu.CPUContext, library: codegen.CodeLibrary, fndesc: Any,
                    environment: Any) -> Any:
    """numba's ``get_executable``, which finalizes the library first: one whose function has no
    CPython wrapper is finalized without machine code (its entry point is null, as numba gives
    it, and its environment waits for a caller's machine code)."""
    if isinstance(library, DeferredLibrary) and not library._finalized \
            and not library.defines(fndesc.llvm_cpython_wrapper_name):
        library.finalize_without_machine_code()
    return _numba_get_executable(context, library, fndesc, environment)


def numba_checked() -> bool:
    """Is the installed numba a version this module was checked against?"""
    return ".".join(numba.__version__.split(".")[:2]) in CHECKED_NUMBA


def defer_inner_machine_code() -> None:
    """Install the deferral (once; before numba compiles anything), unless
    ``CARDSIM_DEFERRED_MACHINE_CODE=0`` or the installed numba was not checked."""
    if codegen.JITCPUCodegen._library_class is DeferredLibrary:
        return
    if os.environ.get("CARDSIM_DEFERRED_MACHINE_CODE", "1") == "0" or not numba_checked():
        return
    codegen.JITCPUCodegen._library_class = DeferredLibrary
    codegen.JITCPUCodegen.set_env = _write_environment
    cpu.CPUContext.get_executable = _get_executable
