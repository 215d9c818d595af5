"""Find, compile (through the cache) and import an edition's module for a backend.

`interpreted` imports the generated .py with CPython; `compiled` imports the
Cython extension built from the very same file. Editions are named either by a
path to a .rules file or by a folder name under the rulesets directory.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
from pathlib import Path
from types import ModuleType

from ..compiler.build import build_extension, write_source
from ..compiler.pipeline import Compilation, compile_rules

BACKENDS = ("compiled", "interpreted")
_loaded: dict[tuple[str, str], ModuleType] = {}


class EditionNotFound(Exception):
    pass


def rulesets_dir() -> Path:
    configured = os.environ.get("BOARDRULES_RULESETS")
    if configured:
        return Path(configured)
    return Path(__file__).resolve().parents[2] / "rulesets"


def resolve_edition(name_or_path: str) -> Path:
    """A .rules path as given, or rulesets/<name>/<name>.rules."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".rules":
        if not candidate.is_file():
            raise EditionNotFound(f"no such rules file: {candidate}")
        return candidate
    path = rulesets_dir() / name_or_path / f"{name_or_path}.rules"
    if path.is_file():
        return path
    known = sorted(p.name for p in rulesets_dir().iterdir()
                   if (p / f"{p.name}.rules").is_file()) if rulesets_dir().is_dir() else []
    raise EditionNotFound(
        f"unknown edition '{name_or_path}' (known: {', '.join(known) or 'none'}; "
        "or give a path to a .rules file)"
    )


def load_module(name_or_path: str, backend: str = "compiled") -> ModuleType:
    """Compile (cached) and import the edition's module for the backend."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}': choose {' or '.join(BACKENDS)}")
    compilation = compile_rules(resolve_edition(name_or_path))
    return import_compilation(compilation, backend)


def import_compilation(compilation: Compilation, backend: str) -> ModuleType:
    if backend == "compiled":
        artifact = build_extension(compilation)
        path, name = artifact.extension, artifact.module_name
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    else:
        artifact = write_source(compilation)
        path, name = artifact.source, artifact.module_name + "_interpreted"
        loader = importlib.machinery.SourceFileLoader(name, str(path))
    key = (str(path), backend)
    if key not in _loaded:
        spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        _loaded[key] = module
    return _loaded[key]
