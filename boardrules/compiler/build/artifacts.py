"""Pass 6: Cython + the C compiler, into a cache keyed by a content hash.

The key covers what goes into the module and nothing else: the generated code
(which embeds the kernel and everything the templates wrote), the versions of
boardrules, Cython and Python, and the C compiler and its flags. Never a path
or a source text: the same edition named another way, or checked out
elsewhere, finds the same artifact, and a comment that changes no generated
code rebuilds nothing.

A build happens in a private temporary folder and is moved into place with one
atomic rename, so two processes compiling the same ruleset cannot corrupt the
cache: the loser's copy is dropped, and a failed build never replaces a good
one. The C build also runs under an exclusive lock named after the artifact,
so concurrent processes build it once: the others wait, then find it.

Every published file has a `<file>.sum` beside it (size and SHA-256): a file
that does not match it (truncated, emptied, overwritten) is never imported,
but removed and built again. Temporary folders of builds that died are
removed by the next build.

This module is imported on the fast path of loading a cached edition, so it
imports nothing heavy at module level (no Cython, no compiler front end).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sysconfig
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..common.cache_folder import cache_root
from . import build_settings, profile_guided
from .build_settings import (
    CYTHON_DIRECTIVES,
    BuildError,
    c_compiler,
    c_compiler_found,
    c_flags,
    cold_functions_apart,
    cython_version,
    hot_calls_inline,
    opt_level,
    toolchain,
)
from .cold_code import mark_cold_functions
from .hot_inline import mark_hot_inline

if TYPE_CHECKING:
    from ..pipeline import Compilation

MODULE_STEM = 64  # characters of the edition's name in its module's (a file name's limit
# is 255 bytes, which the name, the hash and the extension's suffix must fit)
STALE_SECONDS = 3600  # a temporary build folder this old belongs to a build that died


@dataclass(frozen=True)
class Artifact:
    """One cache entry: a folder holding the generated module and its extension."""

    module_name: str
    directory: Path

    @property
    def source(self) -> Path:
        return self.directory / f"{self.module_name}.py"

    @property
    def extension(self) -> Path:
        return self.directory / f"{self.module_name}{sysconfig.get_config_var('EXT_SUFFIX')}"


def content_key(compilation: Compilation) -> str:
    """A hash of what goes into the module: the generated code and the toolchain.

    Comment lines are left out (not Cython's `# cython:` directives): they name rules-file
    lines, which move when a scenario above them grows, and a comment changes nothing that
    is built. (A cached module may then show an older line number in a comment.)"""
    code = "\n".join(line for line in compilation.code.splitlines()
                     if not line.lstrip().startswith("#") or line.startswith("# cython:"))
    digest = hashlib.sha256()
    for part in (*toolchain(), code):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def artifact_named(module_name: str) -> Artifact:
    """The cache entry of that name (it may not exist yet)."""
    return Artifact(module_name, cache_root() / module_name)


def artifact_for(compilation: Compilation) -> Artifact:
    """Where the compilation's module lives in the cache."""
    stem = re.sub(r"[^A-Za-z0-9_]", "_", compilation.edition)[:MODULE_STEM]
    return artifact_named(f"br_{stem}_{content_key(compilation)}")


def write_source(compilation: Compilation) -> Artifact:
    """Write the generated module into the cache (no C compiler needed)."""
    return publish_source(artifact_for(compilation), compilation.code)


def publish_source(artifact: Artifact, code: str) -> Artifact:
    """Put generated code into the cache under the artifact's name, unless it is there
    (also how a Ray worker receives a module generated on the driver's machine)."""
    if not verified(artifact.source):
        # an intact extension was built from this very code (the name is its hash): kept
        kept = [artifact.extension] if verified(artifact.extension) else []

        def write(tmp: Path) -> None:
            seal(tmp / artifact.source.name, code.encode())
            for path in kept:
                for part in (path, path.with_name(path.name + ".sum")):
                    shutil.copy2(part, tmp / part.name)
        discard(artifact.source, *([] if kept else [artifact.extension]))
        _publish(artifact, write, replace_existing_dir=True)
    return artifact


def seal(path: Path, content: bytes | None = None) -> None:
    """Write a file (or take it as it is) and record its size and hash beside it."""
    if content is not None:
        path.write_bytes(content)
    data = path.read_bytes()
    path.with_name(path.name + ".sum").write_text(
        f"{len(data)} {hashlib.sha256(data).hexdigest()}\n")


def verified(path: Path) -> bool:
    """Whether a cached file is there and exactly as it was published."""
    return verified_bytes(path) is not None


def verified_bytes(path: Path) -> bytes | None:
    """A cached file's bytes when they are exactly as published, else None: what is run is
    what was checked (read once, so a file replaced meanwhile cannot slip in)."""
    try:
        size, digest = path.with_name(path.name + ".sum").read_text().split()
        if path.stat().st_size != int(size):
            return None
        data = path.read_bytes()
    except (OSError, ValueError):
        return None
    return data if hashlib.sha256(data).hexdigest() == digest else None


def discard(*paths: Path) -> None:
    """Remove damaged cache files (and their sums) so they are built again."""
    for path in paths:
        for item in (path, path.with_name(path.name + ".sum")):
            try:
                item.unlink()
            except FileNotFoundError:
                pass


def build_extension(compilation: Compilation) -> Artifact:
    """Compile the module with Cython and the C compiler, unless the cache has it."""
    return ensure_extension(write_source(compilation))


def ensure_extension(artifact: Artifact) -> Artifact:
    """Build the extension of a cached source once, however many processes ask at once."""
    if verified(artifact.extension):
        return artifact

    def build(tmp: Path) -> None:
        shutil.copy2(artifact.source, tmp / artifact.source.name)
        _compile(tmp / artifact.source.name, tmp / artifact.extension.name)
        # Cython's C (megabytes for a full edition) served the C compiler only: not kept
        (tmp / artifact.source.name).with_suffix(".c").unlink(missing_ok=True)
        seal(tmp / artifact.extension.name)

    with _locked(artifact):
        if not verified(artifact.extension):  # another process may have built it meanwhile
            discard(artifact.extension)
            _publish(artifact, build, replace_existing_dir=True)
    return artifact


@contextmanager
def _locked(artifact: Artifact) -> Iterator[None]:
    """Hold an exclusive lock on <cache>/<artifact>.lock (left in place: deleting a lock
    file that another process is waiting on would let a third one in)."""
    import fcntl

    root = artifact.directory.parent
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f"{artifact.module_name}.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _publish(artifact: Artifact, make: Callable[[Path], object],
             replace_existing_dir: bool = False) -> None:
    import tempfile

    root = artifact.directory.parent
    root.mkdir(parents=True, exist_ok=True)
    _remove_stale(root)
    tmp = Path(tempfile.mkdtemp(prefix=f".{artifact.module_name}.{_owner()}.", dir=root))
    tmp.chmod(0o755)  # mkdtemp's 0700 would stay on the published folder
    try:
        make(tmp)
        if not artifact.directory.exists():
            try:
                os.rename(tmp, artifact.directory)
                return
            except OSError:
                pass  # another process published first
        if replace_existing_dir:
            for item in tmp.iterdir():
                target = artifact.directory / item.name
                if not target.exists():
                    os.replace(item, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _owner() -> str:
    """Who builds in a temporary folder: this machine and process (`host-pid`)."""
    import socket

    return f"{socket.gethostname()}-{os.getpid()}"


_OWNED = re.compile(r"^\.br_\w+\.(?P<host>.+)-(?P<pid>\d+)\.[^.]+$")


def _build_died(tmp: Path) -> bool:
    """Whether the temporary folder's build was this machine's and its process is gone (a
    killed compile); a folder of another machine sharing the cache is only old."""
    import socket

    owned = _OWNED.match(tmp.name)
    if owned is None or owned["host"] != socket.gethostname():
        return False
    try:
        os.kill(int(owned["pid"]), 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False


def _remove_stale(root: Path) -> None:
    """Remove the temporary folders of builds that died: at once when their process on this
    machine is gone, else once they are old (a live build is young)."""
    import time

    for tmp in root.glob(".br_*"):
        try:
            if _build_died(tmp) or time.time() - tmp.stat().st_mtime > STALE_SECONDS:
                shutil.rmtree(tmp, ignore_errors=True)
        except OSError:
            pass


def clean_cache(older_than: float | None = None) -> int:
    """Empty the cache, or remove what has been neither built nor loaded for `older_than`
    seconds (an entry's folder is touched when a process loads it); how many editions'
    entries were removed."""
    import time

    root = cache_root()
    if not root.is_dir():
        return 0

    def old(path: Path) -> bool:
        try:
            return older_than is None or time.time() - path.stat().st_mtime > older_than
        except OSError:
            return False

    entries = [p for p in root.iterdir()
               if p.is_dir() and p.name.startswith(("br_", ".br_")) and old(p)]
    for entry in entries:
        shutil.rmtree(entry, ignore_errors=True)
    from ..back import template_cache  # each names its folder
    from . import front_end_cache, source_index

    kept = [root / name for name in (source_index.FOLDER, front_end_cache.FOLDER,
                                     template_cache.FOLDER)]
    if older_than is not None:  # the entries in those folders, one by one
        kept = [item for folder in kept if folder.is_dir() for item in folder.iterdir()]
    locks = [lock for lock in root.glob("*.lock")
             if older_than is None or not (root / lock.stem).exists()]
    for other in (*locks, *kept):
        if not old(other):
            continue
        if other.is_dir():
            shutil.rmtree(other, ignore_errors=True)
        elif other.exists():
            other.unlink(missing_ok=True)
    return len(entries)


def touch(artifact: Artifact) -> None:
    """Note that the entry was used (what `cache clean --older-than` goes by); best effort,
    a read-only cache stays as it is."""
    try:
        os.utime(artifact.directory)
    except OSError:
        pass


# ---- progress: who watches the steps of a build (the command line, on a terminal) --------
StepWatcher = Callable[[str, int], AbstractContextManager[object]]
_watchers: list[StepWatcher] = []


@contextmanager
def watching(watcher: StepWatcher) -> Iterator[None]:
    """While in the block, `watcher(step, size)` wraps each step of a build: "front end",
    "Cython" and "C compiler", with the size in bytes of what the step reads."""
    _watchers.append(watcher)
    try:
        yield
    finally:
        _watchers.remove(watcher)


@contextmanager
def step(name: str, size: int = 0) -> Iterator[None]:
    """One step of a build, shown to whoever watches (nothing when nobody does)."""
    with ExitStack() as stack:
        for watcher in list(_watchers):
            stack.enter_context(watcher(name, size))
        yield


def _compile(source: Path, extension: Path) -> None:
    from . import cython_process

    if not cython_version():
        raise BuildError("Cython is not installed: install it (pip install cython), "
                         "or use --backend interpreted")
    # before Cython's seconds of work: without a C compiler they would be lost
    compiler_cmd = c_compiler()
    if not c_compiler_found():
        raise BuildError(
            f"no C compiler found ('{compiler_cmd[0]}'): install gcc, or use --backend interpreted"
        )
    c_file = source.with_suffix(".c")
    arguments = ["-3", "--fast-fail", *CYTHON_DIRECTIVES, "-o", str(c_file), str(source)]
    with step("Cython", source.stat().st_size):
        try:
            status, out, err = cython_process.run(arguments)
        except OSError as exc:
            raise BuildError(f"cannot run Cython: {exc}") from None
        _check(status, out, err, "Cython")
    level = opt_level()
    if cold_functions_apart(level):
        c_file.write_text(mark_cold_functions(c_file.read_text())[0])
    plain_c, hot = c_file.read_text(), 0
    if hot_calls_inline(level):
        marked, hot = mark_hot_inline(plain_c)
        c_file.write_text(marked)
    include = sysconfig.get_paths()["include"]
    command = [*compiler_cmd, *c_flags(), f"-I{include}", "-o", str(extension), str(c_file)]
    parallel = set(build_settings.parallel_codegen_flags(level))

    def compile_c(arguments: list[str]) -> None:
        try:
            _compile_marked(arguments)
        except BuildError:
            if not hot:
                raise
            # a gcc that will not inline a marked function (hot_inline.py): the module
            # as Cython wrote it, gcc left to choose
            c_file.write_text(plain_c)
            _compile_marked(arguments)

    def _compile_marked(arguments: list[str]) -> None:
        try:
            _run(arguments, "the C compiler")
        except BuildError:
            # a gcc without its link-time optimization plugin: the same module without it
            if not parallel:
                raise
            _run([arg for arg in arguments if arg not in parallel], "the C compiler")

    if level != profile_guided.LEVEL:
        with step("C compiler", c_file.stat().st_size):
            compile_c(command)
        return
    try:
        profile_guided.build(command, extension, compile_c,
                             lambda name: step(name, c_file.stat().st_size))
    except profile_guided.TrainingError as exc:
        raise BuildError(str(exc)) from None


def _run(command: list[str], what: str) -> None:
    import subprocess

    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as exc:
        raise BuildError(f"cannot run {what}: {exc}") from None
    _check(result.returncode, result.stdout, result.stderr, what)


def _check(status: int, out: str, err: str, what: str) -> None:
    """A failed step's error: the last lines of what it printed."""
    if status != 0:
        output = (err or out).strip().splitlines()
        tail = "\n".join(output[-15:])
        raise BuildError(f"{what} failed:\n{tail}")
