"""The build's entry point: an edition's artifact for a backend, ready to import.

The runtime's loader asks `artifact(path, backend, params)` and imports what it gets;
how the artifact is found or made is decided here, in the build stage, which may run
the front end (it sits above the pipeline): the source index first (no front end for an
edition whose files are unchanged), else the front end's kept result or a run of it,
then the module published into the cache (Cython and the C compiler for the compiled
backend, Cython's process started ahead so that its start overlaps the front end).

The runtime imports nothing else of the build (tests/test_import_graph.py), so what it
needs to import an artifact safely (its type, the verified bytes of a cached file, the
note that an entry was used, the error a damaged one raises) is named here too.

Imported on the fast path of loading a cached edition: at module level only what the
source index and the cache need (no Lark, Jinja2 or Cython); the front end is imported
when it must run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..front.libpath import source_size
from . import source_index
from .artifacts import (
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
from .build_settings import BuildError

if TYPE_CHECKING:
    from ..pipeline import Compilation

__all__ = ["BACKENDS", "Artifact", "BuildError", "artifact", "check_backend",
           "compile_edition", "indexed_artifact", "publish_compilation", "published",
           "received", "touch", "verified_bytes"]

BACKENDS = ("compiled", "interpreted")
# the artifact of an edition built with params set, by (the edition's own module, settings,
# backend): checked and generated once per process (a command checks, then simulates)
_param_builds: dict[tuple[str, tuple[str, ...], str], Artifact] = {}


def check_backend(backend: str) -> None:
    """Refuse a backend that is neither (before anything is looked up or built)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}': choose {' or '.join(BACKENDS)}")


def artifact(path: Path, backend: str, params: Sequence[str] = ()) -> Artifact:
    """The edition's module in the cache, ready for the backend: straight from the source
    index when it knows the edition's files, else compiled (cached) through the front end.
    With `params` (`NAME=VALUE`), the module built with those params set
    (compiler/param_settings.py; raises its ParamError)."""
    check_backend(backend)
    if params:
        return _with_params(path, backend, tuple(params))
    found = indexed_artifact(path)
    if found is not None:
        return _ready(found, backend)
    if backend == "compiled":
        from . import cython_process

        cython_process.start_ahead()  # its start overlaps the front end
    return publish_compilation(compile_edition(path), backend)


def _with_params(path: Path, backend: str, params: tuple[str, ...]) -> Artifact:
    """The edition built with params set: in the cache under its own content's name, and
    never in the source index, which names the edition's own module."""
    from ..param_settings import with_params

    edition = compile_edition(path)
    key = (content_key(edition), params, backend)
    if key not in _param_builds:
        _param_builds[key] = _published(with_params(edition, params), backend)
    return _ready(_param_builds[key], backend)


def indexed_artifact(path: Path) -> Artifact | None:
    """The cached artifact the edition's unchanged files made last time, by the source
    index; None when the front end must run (a damaged source goes through it again)."""
    cached = source_index.lookup(path)
    if cached is None:
        return None
    found = artifact_named(cached)
    return found if verified(found.source) else None


def compile_edition(path: Path, until: str = "codegen") -> Compilation:
    """The front end's result for a rules file, up to the pass `until`: read back when its
    files are unchanged since it last ran (front_end_cache.py; a kept compilation went
    through every pass, so it serves code generation and check's last pass alike), else
    run (a build step a progress display can show) and kept."""
    from ..pipeline import LAST_CHECKING_PASS, compile_rules
    from . import front_end_cache

    if until in ("codegen", LAST_CHECKING_PASS):
        kept = front_end_cache.load(path)
        if kept is not None:
            return kept
    with step("front end", source_size(path)):
        compilation = compile_rules(path, until=until)
    front_end_cache.keep(compilation)  # only one that reached code generation is kept
    return compilation


def publish_compilation(compilation: Compilation, backend: str) -> Artifact:
    """The compilation's module in the cache, built for the compiled backend, and its
    files in the source index, so that a later load skips the front end."""
    check_backend(backend)
    found = _published(compilation, backend)
    source_index.record(compilation, found.module_name)
    return found


def published(module_name: str, backend: str) -> Artifact:
    """A module its driver published in the cache, by its name: how a worker process
    finds what the driver built, params and all."""
    check_backend(backend)
    return _ready(artifact_named(module_name), backend)


def received(module_name: str, code: str, backend: str) -> Artifact:
    """Generated code sent from another machine (a Ray driver): published into this
    machine's cache under its name when missing, and built there for the compiled backend."""
    check_backend(backend)
    return _ready(publish_source(artifact_named(module_name), code), backend)


def _published(compilation: Compilation, backend: str) -> Artifact:
    """The compilation's module in the cache, built for the compiled backend."""
    return build_extension(compilation) if backend == "compiled" else write_source(compilation)


def _ready(found: Artifact, backend: str) -> Artifact:
    """The artifact with what the backend imports: the extension built once (however many
    processes ask at once) for the compiled backend; the verified source otherwise."""
    return ensure_extension(found) if backend == "compiled" else found
