"""Front-end results kept on disk: a command run again on unchanged files reads its
compilation back instead of parsing, checking and optimizing the rules again.

`boardrules test`, `coverage`, `mutate` and `compile`, and a build whose module is not
in the cache, need the whole compilation (the program and its scenarios, the
rulebook, the warnings), not only the built module the source index finds. For an
edition of a few thousand lines with its library the front end takes 1.5 to 3 s;
reading it back, about 0.2 s.

One entry per edition path (as given, since diagnostics name files the way the
user did, and as resolved): a later compilation of the same path replaces it, so
editing an edition does not pile up entries. It holds a hash of the compiler's
sources and versions, of the edition file, and of the other files the compilation
read (the source index's record of them), of the edition's scenario files (the
source index leaves them out: they never change the production module; here a
scenario file edited, added or removed is a miss), and the pickled compilation with
its SHA-256. Anything else (a changed file, another compiler, a damaged or unreadable
entry) is a miss: the front end runs and the entry is written again. Only
compilations without errors that reached code generation are kept.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from ..common.cache_folder import cache_root
from ..common.collector import cycle_collection_paused
from ..common.files import read_text
from . import source_index

if TYPE_CHECKING:
    from ..pipeline import Compilation

FOLDER = "front-end"


def _entry_file(path: Path) -> Path:
    named = os.fsencode(f"{path}\0{path.resolve()}")  # any name the file system allows
    return cache_root() / FOLDER / f"{hashlib.sha256(named).hexdigest()[:24]}.pickle"


def _edition_digest(text: str) -> str:
    """The compiler and the edition file's text: what an entry must have been made from."""
    digest = hashlib.sha256(source_index.front_end_digest())
    digest.update(text.encode())
    return digest.hexdigest()


def load(path: Path) -> Compilation | None:
    """The kept compilation of the edition at `path` when nothing it was made from has
    changed since; None when the front end must run."""
    try:
        entry = pickle.loads(_entry_file(path).read_bytes())
        if entry["edition"] != _edition_digest(read_text(path)) or not (
                source_index.unchanged(
                    path.resolve(), entry["inputs"], entry["inputs_digest"])) or (
                entry["scenarios"] != source_index.scenario_inputs(path)):
            return None
        data = entry["compilation"]
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            return None
        with cycle_collection_paused():
            return pickle.loads(data)
    except Exception:  # any entry that cannot be read back is only a miss
        return None


def keep(compilation: Compilation) -> None:
    """Write the compilation's entry (best effort: the entry only saves time, so a program
    nested too deeply to pickle, a read-only cache or a race loses nothing)."""
    if not compilation.code or compilation.reporter.errors or compilation.sources is None:
        return
    try:
        entry_file = _entry_file(compilation.path)
    except OSError:
        return
    tmp = entry_file.with_name(f".{entry_file.name}.{os.getpid()}")
    try:
        data = pickle.dumps(compilation, protocol=pickle.HIGHEST_PROTOCOL)
        inputs, inputs_digest = source_index.inputs_of(compilation)
        edition_text = compilation.sources.texts[str(compilation.path)]
        sources = compilation.sources
        scenario_files = [(Path(m.path), sources.texts[m.path]) for m in sources.scenario_files]
        entry = {"edition": _edition_digest(edition_text), "inputs": inputs,
                 "inputs_digest": inputs_digest, "sha256": hashlib.sha256(data).hexdigest(),
                 "scenarios": source_index.scenario_inputs(compilation.path, scenario_files),
                 "compilation": data}
        entry_file.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, entry_file)
    except (OSError, KeyError, RecursionError, pickle.PicklingError, TypeError,
            AttributeError):
        with suppress(OSError):  # on a read-only cache, removing raises too
            tmp.unlink(missing_ok=True)
