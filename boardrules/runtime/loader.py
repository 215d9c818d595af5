"""Find an edition, ask the build for its artifact, and import it for a backend.

`interpreted` imports the generated .py with CPython; `compiled` imports the
Cython extension built from the very same file. Editions are named by a path
to a .rules file, by a path to a ruleset folder, or by a folder name under the
rulesets directory (the bundled editions).

How the artifact is found or made (the source index, the front end and its kept
results, Cython and the C compiler) is the build's business: this module asks its one
entry point (compiler/build/obtain.py) and imports what it gets, each module once per
process, an interpreted one only from its verified source. What it imports at module
level stays light (no Lark, Jinja2 or Cython), so a cached load costs little more than
the import of the module itself.
"""

from __future__ import annotations

import difflib
import importlib.machinery
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..compiler.build.obtain import (
    BACKENDS,
    Artifact,
    BuildError,
    artifact,
    check_backend,
    publish_compilation,
    published,
    received,
    touch,
    verified_bytes,
)
from ..compiler.front.libpath import bundled_rulesets

if TYPE_CHECKING:
    from ..compiler.pipeline import Compilation

__all__ = ["BACKENDS", "EditionNotFound", "VerifiedSourceLoader", "edition_in_folder",
           "generated_code", "import_compilation", "load_generated", "load_module",
           "load_published", "published_name", "resolve_edition", "rulesets_dir"]

_loaded: dict[tuple[str, str], ModuleType] = {}


class EditionNotFound(Exception):
    pass


def rulesets_dir() -> Path:
    """The bundled editions (package data once installed), or $BOARDRULES_RULESETS."""
    configured = os.environ.get("BOARDRULES_RULESETS")
    if configured:
        return Path(configured)
    return bundled_rulesets()


def edition_in_folder(folder: Path) -> Path | None:
    """A ruleset folder's edition: FOLDER/<folder name>.rules, else its only .rules file."""
    named = folder / f"{folder.resolve().name}.rules"
    if named.is_file():
        return named
    found = [p for p in folder.glob("*.rules") if p.is_file()]
    return found[0] if len(found) == 1 else None


def resolve_edition(name_or_path: str) -> Path:
    """A .rules path as given; a ruleset folder's edition (see edition_in_folder); or a
    bundled edition's name: rulesets/<name>/<name>.rules."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".rules":
        if not candidate.is_file():
            raise EditionNotFound(f"no such rules file: {candidate}")
        return candidate
    if candidate.is_dir():
        found = edition_in_folder(candidate)
        if found is not None:
            return found
        if len(candidate.parts) > 1 or candidate.is_absolute():  # a path, not a name
            raise EditionNotFound(f"no edition in {candidate}: expected "
                                  f"{candidate / (candidate.resolve().name + '.rules')}")
    path = rulesets_dir() / name_or_path / f"{name_or_path}.rules"
    if path.is_file():
        return path
    known = sorted(p.name for p in rulesets_dir().iterdir()
                   if (p / f"{p.name}.rules").is_file()) if rulesets_dir().is_dir() else []
    close = difflib.get_close_matches(name_or_path, known, n=1, cutoff=0.6)
    raise EditionNotFound(
        f"unknown edition '{name_or_path}' ("
        + (f"did you mean '{close[0]}'? " if close else "")
        + f"known: {', '.join(known) or 'none'}; "
        "or give a path to a ruleset folder or a .rules file)"
    )


def load_module(name_or_path: str, backend: str = "compiled",
                params: Sequence[str] = ()) -> ModuleType:
    """Import the edition's module for the backend, as the build hands it over
    (compiler/build/obtain.py: from the cache when the source index knows the edition's
    files, else compiled through the front end; with `params` (`NAME=VALUE`), the module
    built with those params set, or its ParamError)."""
    check_backend(backend)  # before the edition is looked for, as always
    return _import(artifact(resolve_edition(name_or_path), backend, params), backend)


def load_published(module_name: str, backend: str) -> ModuleType:
    """A module its driver published in the cache, by its name (published_name): how a
    worker process loads what the driver built, params and all."""
    return _import(published(module_name, backend), backend)


def published_name(module: ModuleType) -> str:
    """A loaded edition module's name in the cache (either backend)."""
    return module.__name__.removesuffix("_interpreted")


def load_generated(module_name: str, code: str, backend: str) -> ModuleType:
    """Import generated code sent from another machine (a Ray driver): published into this
    machine's cache under its name when missing, and built there for the compiled backend."""
    return _import(received(module_name, code, backend), backend)


def generated_code(module: ModuleType) -> tuple[str, str]:
    """A loaded edition module's cache name and generated code, to send elsewhere."""
    name = published_name(module)
    return name, published(name, "interpreted").source.read_text()


def import_compilation(compilation: Compilation, backend: str) -> ModuleType:
    """Import a compilation already in hand (the scenarios' production module, a test's
    program built with other passes): a thin name for importing what the build publishes
    for it, and its files indexed, so that a later load skips the front end."""
    return _import(publish_compilation(compilation, backend), backend)


class VerifiedSourceLoader(importlib.machinery.SourceFileLoader):
    """Runs a cached module's source only when it matches its published hash, compiled in
    memory: never a `__pycache__` file, which nothing checks (a truncated one would break
    every run, and one made from other code of the same size and time would play it)."""

    def get_code(self, fullname: str):  # noqa: ANN201 - a code object
        data = verified_bytes(Path(self.path))
        if data is None:
            raise BuildError(f"the cached module {self.path} changed since it was written: "
                             "run the command again (or boardrules cache clean)")
        return compile(data, self.path, "exec", dont_inherit=True)


def _import(found: Artifact, backend: str) -> ModuleType:
    """The artifact's module, imported once per process (the build made it ready)."""
    if backend == "compiled":
        path, name = found.extension, found.module_name
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    else:
        path, name = found.source, found.module_name + "_interpreted"
        loader = VerifiedSourceLoader(name, str(path))
    key = (str(path), backend)
    if key not in _loaded:
        spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        _loaded[key] = module
        touch(found)
    return _loaded[key]
