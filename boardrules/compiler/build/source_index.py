"""The source index: which cached artifact a set of source files compiles to.

Finding an edition's artifact by its content key needs the generated code, so
the whole front end (Lark, the checker, Jinja2). The index skips it for an
edition compiled before: an entry, named by a hash of the edition file (its
name and bytes) and of the toolchain, lists the other files that went into
the compilation (libraries, the rulebook: relative to the edition's folder, so
every clone agrees) and, for a hash of all their bytes, the artifact they made.
A load hashes the edition file, reads the entry's list, hashes those files and,
when the hash matches (and each library listed is still the one the library
search path finds first), imports the artifact directly.

The toolchain hash covers the compiler's own sources (front end, templates,
grammar, kernel) besides the versions, so editing boardrules without bumping
its version cannot serve a stale module. An unreadable or damaged entry is
only a miss: the front end runs and writes it again.

Imported on the fast path: standard library only, nothing heavy.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ... import __version__
from ..common.cache_folder import cache_root
from ..common.files import read_text
from ..common.kernel_facts import KERNEL_FILES
from ..front.libpath import find_library, scenario_paths, search_path
from .build_settings import toolchain

if TYPE_CHECKING:
    from ..pipeline import Compilation

PACKAGE = Path(__file__).resolve().parents[2]
# what decides the generated code, besides the rules files
TOOLCHAIN_SOURCES = ("compiler", "grammar", *(f"runtime/{name}" for name in KERNEL_FILES),
                     "__init__.py")
TOOLCHAIN_SUFFIXES = (".py", ".j2", ".lark")
KEPT = 8  # records per edition file: clones with different libraries, recent first
FOLDER = "index"  # under the cache root


@lru_cache(maxsize=4)
def _toolchain_digest(versions_and_flags: tuple[str, ...]) -> bytes:
    """The versions and C flags, and the bytes of every source of the compiler."""
    digest = hashlib.sha256("\0".join(versions_and_flags).encode())
    files: list[Path] = []
    for name in TOOLCHAIN_SOURCES:
        path = PACKAGE / name
        if path.is_dir():
            files += [p for p in path.rglob("*")
                      if p.suffix in TOOLCHAIN_SUFFIXES and "__pycache__" not in p.parts]
        elif path.is_file():
            files.append(path)
    for path in sorted(files):
        data = path.read_bytes()
        digest.update(f"\0{path.relative_to(PACKAGE).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.digest()


def front_end_digest() -> bytes:
    """A hash of what decides the front end's result besides the rules files: the
    compiler's sources and the versions (not the C flags, which only the build reads)."""
    return _toolchain_digest((__version__, sys.version))


def _entry_file(name: str, text: str) -> Path:
    """The entry of the edition file of that name (as given, it names the module) and text."""
    digest = hashlib.sha256(_toolchain_digest(toolchain()))
    digest.update(os.fsencode(f"{name}\0") + text.encode())  # any name a folder allows
    return cache_root() / FOLDER / f"{digest.hexdigest()[:24]}.json"


def _inputs_digest(texts: list[tuple[str, str]]) -> str:
    """A hash of the input files' texts (as the front end reads them), each under its
    path relative to the edition."""
    digest = hashlib.sha256()
    for name, text in texts:
        data = text.encode()
        digest.update(os.fsencode(f"{name}\0{len(data)}\0"))
        digest.update(data)
    return digest.hexdigest()


def _read(entry: Path) -> list[dict]:
    try:
        records = json.loads(entry.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return records if isinstance(records, list) else []


def lookup(edition: Path) -> str | None:
    """The name of the artifact the edition compiled to last time, if its files are
    unchanged since; None when the front end must run."""
    try:
        entry = _entry_file(edition.name, read_text(edition))
        edition = edition.resolve()
    except (OSError, UnicodeDecodeError):
        return None
    for record in _read(entry):
        try:
            if unchanged(edition, record["inputs"], record["digest"]):
                return str(record["artifact"])
        except (KeyError, TypeError):
            continue
    return None


def unchanged(edition: Path, inputs: list[str], digest: str) -> bool:
    """Whether the files besides the (resolved) edition that a compilation read, named
    relative to its folder, still hash to `digest`, each library being still the one the
    search path finds first."""
    try:
        texts = [(name, read_text(edition.parent / name)) for name in inputs]
        return _inputs_digest(texts) == digest and _same_libraries(edition, inputs)
    except (OSError, UnicodeDecodeError, TypeError):
        return False


def _same_libraries(edition: Path, inputs: list[str]) -> bool:
    """Whether each library the record lists is still what `import` finds first on the
    current search path ($BOARDRULES_PATH, --lib), so a library that another folder now
    shadows is a miss."""
    search = search_path(edition)
    for name in inputs:
        if name.endswith(".rules"):
            found = find_library(Path(name).stem, search)
            if found is None or found.resolve() != (edition.parent / name).resolve():
                return False
    return True


def input_texts(compilation: Compilation) -> list[tuple[str, str]]:
    """The files besides the edition that went into the production module, with their
    texts: the libraries it imports and its rulebook, named relative to the edition's
    folder. Not its scenario files: editing one changes nothing a simulation loads."""
    sources = compilation.sources
    edition = str(compilation.path)
    found = [(Path(p), text) for p, text in (sources.texts if sources else {}).items()
             if p != edition and not (sources and sources.is_scenario_file(p))]
    if compilation.rulebook is not None:
        found.append((compilation.rulebook.path, compilation.rulebook.text))
    return _relative(compilation.path, found)


def _relative(edition: Path, files: list[tuple[Path, str]]) -> list[tuple[str, str]]:
    folder = edition.resolve().parent
    return [(Path(os.path.relpath(p.resolve(), folder)).as_posix(), text) for p, text in files]


def scenario_inputs(edition: Path, files: list[tuple[Path, str]] | None = None) -> str:
    """A hash of the edition's scenario files, named relative to its folder: of `files`
    (a compilation's, with their texts), or of those on disk now."""
    if files is None:
        try:
            files = [(p, p.read_text(encoding="utf-8")) for p, _ in scenario_paths(edition)]
        except (OSError, UnicodeDecodeError):
            return ""
    return _inputs_digest(_relative(edition, files))


def inputs_of(compilation: Compilation) -> tuple[list[str], str]:
    """The names of the files besides the edition that went into the compilation, and a
    hash of their texts (what `unchanged` checks)."""
    texts = input_texts(compilation)
    return [name for name, _ in texts], _inputs_digest(texts)


def record(compilation: Compilation, artifact: str) -> None:
    """Remember that the compilation's files make `artifact` (best effort: the index
    only saves time, so a read-only cache or a race loses nothing)."""
    if compilation.sources is None:
        return
    try:
        entry = _entry_file(compilation.path.name,
                            compilation.sources.texts[str(compilation.path)])
        inputs, digest = inputs_of(compilation)
        new = {"inputs": inputs, "digest": digest, "artifact": artifact}
        records = [new, *(r for r in _read(entry) if r != new)][:KEPT]
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f".{entry.name}.{os.getpid()}")
        tmp.write_text(json.dumps(records, indent=1), encoding="utf-8")
        os.replace(tmp, entry)
    except (OSError, KeyError):
        pass
