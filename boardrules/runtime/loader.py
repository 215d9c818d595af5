"""Find, compile (through the cache) and import an edition's module for a backend.

`interpreted` imports the generated .py with CPython; `compiled` imports the
Cython extension built from the very same file. Editions are named by a path
to a .rules file, by a path to a ruleset folder, or by a folder name under the
rulesets directory (the bundled editions).

An edition compiled before loads through the source index (compiler/build/source_index.py)
without running the front end: this module and what it imports at module level
stay light (no Lark, Jinja2 or Cython), so a cached load costs little more
than the import of the module itself.
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

from ..compiler.build import source_index
from ..compiler.build.artifacts import (
    Artifact,
    artifact_named,
    build_extension,
    content_key,
    ensure_extension,
    publish_source,
    step,
    touch,
    verified,
    verified_bytes,
    write_source,
)
from ..compiler.build.build_settings import BuildError
from ..compiler.front.libpath import bundled_rulesets, source_size

if TYPE_CHECKING:
    from ..compiler.pipeline import Compilation

BACKENDS = ("compiled", "interpreted")
_loaded: dict[tuple[str, str], ModuleType] = {}
# the artifact of an edition built with params set, by (the edition's own module, settings,
# backend): checked and generated once per process (a command checks, then simulates)
_param_builds: dict[tuple[str, tuple[str, ...], str], Artifact] = {}


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
    """Import the edition's module for the backend: straight from the cache when the
    source index knows its files, else compiled (cached) through the front end. With
    `params` (`NAME=VALUE`), the module built with those params set
    (compiler/param_settings.py; raises its ParamError)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}': choose {' or '.join(BACKENDS)}")
    path = resolve_edition(name_or_path)
    if params:
        return _with_params(path, backend, tuple(params))
    artifact = indexed_artifact(path)
    if artifact is not None:
        return _import(artifact, backend)
    if backend == "compiled":
        from ..compiler.build import cython_process

        cython_process.start_ahead()  # its start overlaps the front end
    return import_compilation(compile_edition(path), backend)


def _with_params(path: Path, backend: str, params: tuple[str, ...]) -> ModuleType:
    """The edition built with params set: in the cache under its own content's name, and
    never in the source index, which names the edition's own module."""
    from ..compiler.param_settings import with_params

    edition = compile_edition(path)
    key = (content_key(edition), params, backend)
    if key not in _param_builds:
        _param_builds[key] = _published(with_params(edition, params), backend)
    return _import(_param_builds[key], backend)


def load_published(module_name: str, backend: str) -> ModuleType:
    """A module its driver published in the cache, by its name (published_name): how a
    worker process loads what the driver built, params and all."""
    return _import(artifact_named(module_name), backend)


def published_name(module: ModuleType) -> str:
    """A loaded edition module's name in the cache (either backend)."""
    return module.__name__.removesuffix("_interpreted")


def indexed_artifact(path: Path) -> Artifact | None:
    """The cached artifact the edition's unchanged files made last time, by the source
    index; None when the front end must run (a damaged source goes through it again)."""
    cached = source_index.lookup(path)
    if cached is None:
        return None
    artifact = artifact_named(cached)
    return artifact if verified(artifact.source) else None


def compile_edition(path: Path, until: str = "codegen") -> Compilation:
    """The front end's result for a rules file, up to the pass `until`: read back when its
    files are unchanged since it last ran (compiler/build/front_end_cache.py; a kept compilation
    went through every pass, so it serves code generation and check's last pass alike),
    else run (a build step a progress display can show) and kept."""
    from ..compiler.build import front_end_cache
    from ..compiler.pipeline import LAST_CHECKING_PASS, compile_rules

    if until in ("codegen", LAST_CHECKING_PASS):
        kept = front_end_cache.load(path)
        if kept is not None:
            return kept
    with step("front end", source_size(path)):
        compilation = compile_rules(path, until=until)
    front_end_cache.keep(compilation)  # only one that reached code generation is kept
    return compilation


def load_generated(module_name: str, code: str, backend: str) -> ModuleType:
    """Import generated code sent from another machine (a Ray driver): published into this
    machine's cache under its name when missing, and built there for the compiled backend."""
    return _import(publish_source(artifact_named(module_name), code), backend)


def generated_code(module: ModuleType) -> tuple[str, str]:
    """A loaded edition module's cache name and generated code, to send elsewhere."""
    name = published_name(module)
    return name, artifact_named(name).source.read_text()


def import_compilation(compilation: Compilation, backend: str) -> ModuleType:
    """Import a compilation's module (building it when needed) and index its files."""
    return _import(publish_compilation(compilation, backend), backend)


def publish_compilation(compilation: Compilation, backend: str) -> Artifact:
    """The compilation's module in the cache, built for the compiled backend, and its
    files in the source index, so that a later load skips the front end."""
    artifact = _published(compilation, backend)
    source_index.record(compilation, artifact.module_name)
    return artifact


def _published(compilation: Compilation, backend: str) -> Artifact:
    """The compilation's module in the cache, built for the compiled backend."""
    return build_extension(compilation) if backend == "compiled" else write_source(compilation)


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


def _import(artifact: Artifact, backend: str) -> ModuleType:
    if backend == "compiled":
        ensure_extension(artifact)
        path, name = artifact.extension, artifact.module_name
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    else:
        path, name = artifact.source, artifact.module_name + "_interpreted"
        loader = VerifiedSourceLoader(name, str(path))
    key = (str(path), backend)
    if key not in _loaded:
        spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        _loaded[key] = module
        touch(artifact)
    return _loaded[key]
