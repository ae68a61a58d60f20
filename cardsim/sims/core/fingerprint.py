"""A fingerprint of the code that plays a game, so stored results never outlive their code.

The runner puts it in a run's identity: after any change to a game's rules or policies (its
sub-package of ``cardsim/sims``, any other simulator package it imports, such as the poker
engine, and ``cardsim/sims/core``), the same config and seed map to a new run folder instead of
reusing chunks computed by the old code.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from functools import cache
from pathlib import Path

_SIMS_IMPORT = re.compile(r"^\s*(?:from|import)\s+cardsim\.sims\.(\w+)", re.MULTILINE)
SIMS_ROOT = Path(__file__).resolve().parent.parent


def _package_of(module_name: str) -> str:
    """'cardsim.sims.gang.simulator' -> 'gang'; a module directly under sims -> its own name."""
    parts = module_name.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["cardsim", "sims"] else ""


def _source_files(package: str) -> list[Path]:
    folder = SIMS_ROOT / package
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


@cache
def code_fingerprint(module_name: str) -> str:
    """16 hex digits hashing the sources of the module's simulator package and what it imports."""
    package = _package_of(module_name)
    todo = [package, "core"] if package else ["core"]
    seen: set[str] = set()
    # a game outside cardsim.sims: its own module file (imported only then, so that listing
    # the store's runs never imports a game's kernels)
    files: list[Path] = [] if package else [Path(str(importlib.import_module(module_name).__file__))]
    while todo:
        package = todo.pop()
        if package in seen:
            continue
        seen.add(package)
        for path in _source_files(package):
            files.append(path)
            todo.extend(_SIMS_IMPORT.findall(path.read_text(encoding="utf-8")))
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        inside = path.is_relative_to(SIMS_ROOT)
        digest.update((path.relative_to(SIMS_ROOT).as_posix() if inside else path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
