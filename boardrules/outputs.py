"""The files a command writes: refused before any work when one would replace an input of
the run or another output of it, and each written atomically.

An output that is an input (the rules file, its rulebook, a library module on the
search path, a `--mutation` file) would destroy what the run reads; two outputs naming
one file would keep only the second. Both end with one line and exit status 2 before
anything runs. Writing goes to a temporary file in the same folder, renamed over the
target when complete: an interrupted or failed run leaves the old file or the new one,
never half of one.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from .cli_support import UsageError, check_output
from .compiler.front.libpath import search_path
from .runtime.loader import resolve_edition

RULEBOOK = re.compile(r'\brulebook\s+"((?:[^"\\\n]|\\.)*)"')
HEADER_BYTES = 1 << 20  # the edition header is near the top: no need to read further


def run_inputs(editions: Iterable[str], others: Iterable[tuple[str, str | None]] = ()
               ) -> list[tuple[str, Path]]:
    """What a run reads, each with what it is: every edition's rules file and rulebook,
    every library module on its search path, and the other input files given (by flag)."""
    found: list[tuple[str, Path]] = []
    for edition in editions:
        rules = resolve_edition(edition)
        found.append(("the rules file", rules))
        try:
            with rules.open("rb") as handle:
                head = handle.read(HEADER_BYTES).decode("utf-8", "replace")
        except OSError:
            head = ""
        found += [("its rulebook", rules.parent / name) for name in RULEBOOK.findall(head)]
        for folder in search_path(rules):
            with suppress(OSError):
                found += [("a library module", lib) for lib in sorted(folder.glob("*.rules"))]
    found += [(f"the {flag} file", Path(path)) for flag, path in others if path]
    return found


def _same(a: Path, b: Path) -> bool:
    """One file under two names (a link, a relative path, `..`), existing or not."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_outputs(outputs: Iterable[tuple[str, str | Path | None]],
                  inputs: list[tuple[str, Path]], folder: tuple[str, str | Path] | None = None,
                  writes_in_folder: Callable[[str], bool] | None = None) -> None:
    """Refuse (exit 2) an output file that cannot be written, that is an input of the run or
    that another output names too; `folder` (flag, path) is an output folder, in which the
    names `writes_in_folder` accepts are written."""
    outputs = list(outputs)
    given = [(flag, Path(path)) for flag, path in outputs if path is not None]
    if folder is not None:
        flag, out = folder[0], Path(folder[1])
        given += [(flag, item) for _, item in inputs
                  if item.name and (writes_in_folder is None or writes_in_folder(item.name))
                  and _same(item.parent, out)]
    for index, (flag, path) in enumerate(given):
        for what, item in inputs:
            if _same(path, item):
                raise UsageError(f"{flag} {path}: that is {what} of the run ({item}): "
                                 "choose another output file")
        for other_flag, other in given[index + 1:]:
            if other_flag != flag and _same(path, other):
                raise UsageError(f"{flag} and {other_flag} name the same file ({path}): "
                                 "give each output its own")
    for _, path in outputs:
        check_output(path)
    if folder is not None:
        check_output(folder[1], folder=True)


@contextmanager
def atomic_file(path: str | Path, mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """A file to write `path` through: a temporary file beside it, renamed over it once the
    block ends without an error (removed otherwise)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
        os.chmod(tmp, _mode_for(path))
        os.replace(tmp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write a whole file atomically (text as UTF-8)."""
    if isinstance(data, bytes):
        with atomic_file(path, "wb") as handle:
            handle.write(data)
    else:
        with atomic_file(path, "w", encoding="utf-8") as handle:
            handle.write(data)


def _mode_for(path: Path) -> int:
    """The permissions the file had, else what a plain open would give it (mkstemp's 0600
    would otherwise stay)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
