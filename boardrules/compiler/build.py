"""Pass 6: Cython + the C compiler, into a cache keyed by a content hash.

The key covers the rules files, the rulebook, the templates, the kernel, and
the versions of boardrules and Cython. A build happens in a private temporary
folder and is moved into place with one atomic rename, so two processes
compiling the same ruleset cannot corrupt the cache: the loser's copy is
dropped, and a failed build never replaces a good one.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .. import __version__
from .pipeline import Compilation


class BuildError(Exception):
    """The C extension could not be built (no compiler, a compiler error)."""


@dataclass(frozen=True)
class Artifact:
    module_name: str
    directory: Path

    @property
    def source(self) -> Path:
        return self.directory / f"{self.module_name}.py"

    @property
    def extension(self) -> Path:
        return self.directory / f"{self.module_name}{sysconfig.get_config_var('EXT_SUFFIX')}"


def cache_root() -> Path:
    configured = os.environ.get("BOARDRULES_CACHE")
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "boardrules"


def content_key(compilation: Compilation) -> str:
    import Cython

    digest = hashlib.sha256()
    for part in (__version__, Cython.__version__, sys.version, compilation.code):
        digest.update(part.encode())
        digest.update(b"\0")
    for path, text in sorted((compilation.sources.texts if compilation.sources else {}).items()):
        digest.update(Path(path).name.encode() + b"\0" + text.encode() + b"\0")
    if compilation.rulebook is not None:
        digest.update(compilation.rulebook.text.encode())
    templates = resources.files("boardrules.compiler").joinpath("templates")
    for entry in sorted(templates.iterdir(), key=lambda e: e.name):
        digest.update(entry.read_bytes())
    return digest.hexdigest()[:16]


def artifact_for(compilation: Compilation) -> Artifact:
    stem = re.sub(r"[^A-Za-z0-9_]", "_", compilation.edition)
    name = f"br_{stem}_{content_key(compilation)}"
    return Artifact(name, cache_root() / name)


def write_source(compilation: Compilation) -> Artifact:
    """Write the generated module into the cache (no C compiler needed)."""
    artifact = artifact_for(compilation)
    if not artifact.source.is_file():
        _publish(artifact, lambda tmp: (tmp / artifact.source.name).write_text(compilation.code))
    return artifact


def build_extension(compilation: Compilation) -> Artifact:
    """Compile the module with Cython and the C compiler, unless the cache has it."""
    artifact = write_source(compilation)
    if artifact.extension.is_file():
        return artifact

    def build(tmp: Path) -> None:
        shutil.copy2(artifact.source, tmp / artifact.source.name)
        _compile(tmp / artifact.source.name, tmp / artifact.extension.name)

    _publish(artifact, build, replace_existing_dir=True)
    return artifact


def _publish(artifact: Artifact, make, replace_existing_dir: bool = False) -> None:
    root = artifact.directory.parent
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{artifact.module_name}.", dir=root))
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


def _compile(source: Path, extension: Path) -> None:
    c_file = source.with_suffix(".c")
    cython_cmd = [sys.executable, "-m", "cython", "-3", "--fast-fail", "-o", str(c_file),
                  str(source)]
    _run(cython_cmd, "Cython")
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "gcc"
    compiler_cmd = compiler.split()
    if shutil.which(compiler_cmd[0]) is None:
        raise BuildError(
            f"no C compiler found ('{compiler_cmd[0]}'): install gcc, or use --backend interpreted"
        )
    include = sysconfig.get_paths()["include"]
    # -O1: measured as fast as -O2 for whole games, and it halves the compile time
    flags = ["-shared", "-fPIC", "-O1", "-w", f"-I{include}"]
    _run([*compiler_cmd, *flags, "-o", str(extension), str(c_file)], "the C compiler")


def _run(command: list[str], what: str) -> None:
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as exc:
        raise BuildError(f"cannot run {what}: {exc}") from None
    if result.returncode != 0:
        output = (result.stderr or result.stdout).strip().splitlines()
        tail = "\n".join(output[-15:])
        raise BuildError(f"{what} failed:\n{tail}")
