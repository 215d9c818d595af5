"""Cython as a subprocess, started ahead of the build that needs it.

A Cython process spends a second or two before it reads its source (Python's start,
Cython's imports, its lexicon and utility code, about a fifth of its time on a shipped
edition's module); a build that will run the front end first starts one with `start_ahead()`,
which warms up on a tiny module and waits for its command line on stdin, so that
start overlaps the front end. It first compiles the code generator's templates into
their cache, on the other core, which code generation then reads (0.3 s of a cold
build's front end otherwise). `run()` gives the command line to that process, or runs
a fresh one when none was started (or it died). Both write the same C.
"""

from __future__ import annotations

import atexit
import subprocess
import sys

# Cython makes millions of objects and few cycles: without Python's cyclic collector, which
# would run thousands of times over them, a shipped edition's module took 4.3 s instead of
# 5.7 s (three alternating runs each), for 8 MB more memory (2026-12-03); the process ends
# with the compile.
NO_CYCLE_COLLECTION = "import gc\ngc.disable()\n"
FRESH = NO_CYCLE_COLLECTION + """
import sys
from Cython.Compiler.Main import main
sys.argv[0] = "cython"
main(command_line=1)
"""
WARM_UP = NO_CYCLE_COLLECTION + """
import os, sys, tempfile
try:  # the code generator's templates, compiled while the front end parses
    from boardrules.compiler.back.codegen import compile_templates
    compile_templates()
except Exception:  # noqa: BLE001 - the build compiles them itself
    pass
from Cython.Compiler.Main import CompilationOptions, default_options, main
from Cython.Compiler.Main import compile as cython_compile
with tempfile.TemporaryDirectory() as tmp:
    tiny = os.path.join(tmp, "warm_up.py")
    with open(tiny, "w") as handle:
        handle.write("import cython\\n@cython.cclass\\nclass A:\\n    x: cython.int\\n")
    cython_compile([tiny], CompilationOptions(default_options, language_level=3))
arguments = sys.stdin.read().split("\\0")
if arguments != [""]:  # an empty line: the build did not need it
    sys.argv = ["cython", *arguments]
    main(command_line=1)
"""

_ahead: list[subprocess.Popen] = []  # at most one, waiting for its command line


def start_ahead() -> None:
    """Start a Cython process that waits for a build's command line (none if one waits, or
    when the build will stop before Cython: no C compiler)."""
    from .build_settings import c_compiler_found

    if _ahead or not c_compiler_found():
        return
    try:
        process = subprocess.Popen([sys.executable, "-c", WARM_UP], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError:
        return  # the build starts Cython itself
    _ahead.append(process)


def run(arguments: list[str]) -> tuple[int, str, str]:
    """Cython with these arguments: its exit status, standard output and error."""
    process = _ahead.pop() if _ahead else None
    if process is not None:
        if process.poll() is None:
            try:
                out, err = process.communicate("\0".join(arguments))
            except BaseException:  # Ctrl-C: Cython does not go on compiling for nobody
                process.kill()
                process.communicate()
                raise
            return process.returncode, out, err
        process.communicate()  # it died before its command line: close its pipes
    result = subprocess.run([sys.executable, "-c", FRESH, *arguments],
                            capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


@atexit.register
def _stop_unused() -> None:
    """A process started ahead that no build needed ends with this one."""
    while _ahead:
        process = _ahead.pop()
        process.kill()
        process.communicate()
