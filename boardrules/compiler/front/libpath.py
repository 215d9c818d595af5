"""Where `import NAME` finds `NAME.rules`: the library search path.

In order, the first folder holding `NAME.rules` wins:

1. the folders of `$BOARDRULES_PATH` (separated like `$PATH`); `--lib DIR` on the
   command line puts DIR in front of them;
2. the `lib` folder beside the edition's folder (`rulesets/lib` for
   `rulesets/<edition>/<edition>.rules`);
3. the bundled library: `rulesets/lib` as installed with boardrules (package data
   in a plain install, the checkout's `rulesets/` in an editable one).

Standard library only: the loader's fast path (compiler/build/source_index.py) uses it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

ENV = "BOARDRULES_PATH"
PACKAGE = Path(__file__).resolve().parents[2]


def bundled_rulesets() -> Path:
    """The bundled editions and library: package data when installed from a wheel or a
    plain `pip install .`, else the `rulesets/` folder of the source checkout."""
    installed = PACKAGE / "rulesets"
    return installed if installed.is_dir() else PACKAGE.parent / "rulesets"


def bundled_library() -> Path:
    return bundled_rulesets() / "lib"


def configured_dirs() -> list[Path]:
    """The folders of $BOARDRULES_PATH, in order (empty entries skipped)."""
    return [Path(part) for part in os.environ.get(ENV, "").split(os.pathsep) if part.strip()]


def search_path(rules_path: Path) -> list[Path]:
    """The folders `import` searches for a file at `rules_path`, first match wins, each
    folder once."""
    folders = [*configured_dirs(), rules_path.resolve().parent.parent / "lib",
               bundled_library()]
    seen: set[Path] = set()
    unique: list[Path] = []
    for folder in folders:
        key = folder.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(folder)
    return unique


# the folders beside an edition that hold its scenario files, each with the suite it marks
# their scenarios as ("": written with the rules; "conformance": from the rulebook alone)
SCENARIO_FOLDERS = (("scenarios", ""), ("conformance", "conformance"))


def scenario_paths(edition_path: Path) -> list[tuple[Path, str]]:
    """The edition's scenario files, with the suite of each, in a fixed order: scenarios/
    then conformance/, each sorted by name."""
    folder = edition_path.parent
    return [(path, suite) for name, suite in SCENARIO_FOLDERS
            for path in sorted((folder / name).glob("*.rules")) if path.is_file()]


def find_library(name: str, search: Iterable[Path]) -> Path | None:
    """`NAME.rules` in the first folder of the search path that has it, inside that folder:
    a link that leads elsewhere is not followed (it could name any file, whose first line
    a syntax error would print), as the rulebook is confined to its edition's folder."""
    for folder in search:
        candidate = folder / f"{name}.rules"
        if candidate.is_file() and inside(candidate, folder):
            return candidate
    return None


IMPORT_LINE = re.compile(rb"^[ \t]*import[ \t]+(\w+(?:\s*,\s*\w+)*)", re.M)


def source_size(edition_path: Path) -> int:
    """The bytes the front end reads for an edition: its file, the libraries it imports
    (found by their `import` lines as the loader finds them, each once) and its scenario
    files. A build's progress measures the front end by it, before anything is parsed; a
    file that cannot be read counts nothing (the front end then says why)."""
    search = search_path(edition_path)
    scenarios = [path for path, _ in scenario_paths(edition_path)]
    seen = {path.resolve() for path in (edition_path, *scenarios)}
    total, queue = sum(_size(path) for path in scenarios), [edition_path]
    while queue:
        try:
            data = queue.pop().read_bytes()
        except OSError:
            continue
        total += len(data)
        for names in IMPORT_LINE.findall(data):
            for name in re.split(r"[\s,]+", names.decode()):
                found = find_library(name, search)
                if found is not None and found.resolve() not in seen:
                    seen.add(found.resolve())
                    queue.append(found)
    return total


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def inside(path: Path, folder: Path) -> bool:
    """Whether the file, links resolved, is in the folder (links resolved)."""
    try:
        return path.resolve().parent == folder.resolve()
    except (OSError, RuntimeError):  # a loop of links
        return False


def available_libraries(search: Iterable[Path]) -> list[str]:
    """Every library name the search path offers, sorted."""
    names: set[str] = set()
    for folder in search:
        if folder.is_dir():
            names |= {p.stem for p in folder.glob("*.rules")
                      if p.is_file() and inside(p, folder)}
    return sorted(names)


@contextmanager
def library_dirs(dirs: Iterable[str | Path] | None) -> Iterator[None]:
    """Put `dirs` in front of $BOARDRULES_PATH while the block runs (so that worker
    processes see them too), then restore it."""
    extra = [str(Path(d).resolve()) for d in dirs or ()]
    if not extra:
        yield
        return
    before = os.environ.get(ENV)
    os.environ[ENV] = os.pathsep.join([*extra, *([before] if before else [])])
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before
