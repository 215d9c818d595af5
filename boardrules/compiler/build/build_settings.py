"""The toolchain a build uses: the versions of boardrules, Cython and Python, the C
compiler and its flags. Everything that decides a built module besides its generated
code; the build and the caches below it read it from here, so that none of them imports
the build. (Where builds are kept is `common/cache_folder.py`.)

Imported on the fast path of loading a cached edition: nothing heavy at module level.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import sysconfig
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from ... import __version__
from . import profile_guided
from .cold_code import COLD_FUNCTIONS
from .hot_inline import MARKED as HOT_INLINE

# Plain methods instead of function objects, and no source comments in the C: less C to
# compile (the module's own comments stay in its .py).
CYTHON_DIRECTIVES = ("-X", "binding=False", "-X", "emit_code_comments=False")
C_FLAGS = ("-shared", "-fPIC", "-w")
# -O1: -O2 played 7 to 9% faster, but gcc took 6.1 s instead of 3.7 s for a 7,000-line
# module, which put a cold build over 10 s; with the inlining limit below, -O2 without its
# costliest passes (-fno-gcse -fno-tree-pre -fno-schedule-insns2) plays 4 to 5% faster in
# 4.5 s instead of 3.1 (2026-12-02): not worth a build near the limit. -O0 takes a third
# of -O1's time and plays slower (the test suite's setting: it checks what the modules do,
# not how fast). `pgo`: -O3 trained on seeded games (profile_guided.py), for long studies.
OPT_LEVEL_ENV = "BOARDRULES_OPT_LEVEL"
OPT_LEVELS = ("0", "1", "2", "3", profile_guided.LEVEL)
DEFAULT_OPT_LEVEL = "1"

class BuildError(Exception):
    """The C extension could not be built (no compiler, a compiler error)."""


@lru_cache(maxsize=1)
def cython_version() -> str:
    """Cython's version, read without importing Cython (it would slow a cached load); ""
    without Cython, which only a compiled build needs (it then says so)."""
    spec = find_spec("Cython")
    if spec is None:
        return ""
    if spec.submodule_search_locations:
        shadow = Path(next(iter(spec.submodule_search_locations))) / "Shadow.py"
        try:
            found = re.search(r'^__version__ = "([^"]+)"', shadow.read_text(), re.MULTILINE)
        except OSError:
            found = None
        if found:
            return found.group(1)
    import Cython

    return Cython.__version__


def c_compiler() -> list[str]:
    """The C compiler command: `$CC`, else the one Python was built with, else gcc."""
    return (os.environ.get("CC") or sysconfig.get_config_var("CC") or "gcc").split()


def c_compiler_found() -> bool:
    """Whether the C compiler command is there to run (a build without it stops at once)."""
    return shutil.which(c_compiler()[0]) is not None


def opt_level() -> str:
    """The C optimization level: `$BOARDRULES_OPT_LEVEL`, else the shipped one."""
    level = os.environ.get(OPT_LEVEL_ENV) or DEFAULT_OPT_LEVEL
    if level not in OPT_LEVELS:
        raise BuildError(f"${OPT_LEVEL_ENV} must be one of {', '.join(OPT_LEVELS)}, "
                         f"not {level!r}")
    if level == profile_guided.LEVEL and not _is_gcc():
        raise BuildError(f"${OPT_LEVEL_ENV}={level} needs gcc, not '{c_compiler()[0]}'")
    return level


def c_flags() -> tuple[str, ...]:
    """The C compiler's flags, with the optimization level of `$BOARDRULES_OPT_LEVEL` (a
    profile-guided build adds its profile's flags to these, build by build)."""
    level = opt_level()
    c_level = profile_guided.C_LEVEL if level == profile_guided.LEVEL else level
    return (*C_FLAGS, f"-O{c_level}", *inlining_flags(level), *parallel_codegen_flags(level))


# gcc inlines a function the code declares inline only up to this size (its default, 70 at
# -O2, leaves out a decision's default answer or a memo's lookup, which a window asks of
# every player): 4.5% fewer instructions a turn of the benchmark, no longer a compile
# (2026-12-02)
INLINE_INSNS = 400
# gcc stops inlining anywhere in a module once the module has grown by this share (its
# default, 40%, is spent before the turn's hot calls are reached: `charge` stayed a call in
# the land event, a payment's 32-bit check a call in the rent): 60% took the benchmark
# editions' turns 4% to 6% fewer instructions for about 7% more of the C compiler's time
# (80%: about 1% fewer again, for about 11%) (2026-12-07)
INLINE_UNIT_GROWTH = 60


def inlining_flags(level: str) -> tuple[str, ...]:
    """gcc's limits on the size of a function declared inline that it inlines and on the
    module's growth by inlining (not at -O0, which inlines nothing, nor for another
    compiler, which spells them differently)."""
    if level == "0" or not _is_gcc():
        return ()
    return (f"--param=max-inline-insns-single={INLINE_INSNS}",
            f"--param=inline-unit-growth={INLINE_UNIT_GROWTH}")


def _is_gcc() -> bool:
    return "gcc" in Path(c_compiler()[0]).name


def parallel_codegen_flags(level: str) -> tuple[str, ...]:
    """gcc's link-time optimization splits the one big translation unit's code generation
    over the machine's cores: measured on 2 cores, a 2.8 MB generated module's `-O1`
    compile takes 3.4 s instead of 4.9 s. Not at -O0, where it costs more than it saves,
    nor for another compiler (clang spells the flag differently)."""
    if level == "0" or (os.cpu_count() or 1) < 2 or not _is_gcc():
        return ()
    return ("-flto=auto",)


def cold_functions_apart(level: str) -> bool:
    """Whether the module's Python-facing functions are compiled at -O0 (cold_code.py):
    gcc's pragma, where the rest is optimized."""
    return level != "0" and _is_gcc()


def hot_calls_inline(level: str) -> bool:
    """Whether a procedure's entry tests and the payment are always inline (hot_inline.py):
    an optimized gcc build (at -O0 gcc would inline them all the same, for nothing)."""
    return level != "0" and _is_gcc()


def toolchain() -> tuple[str, ...]:
    """What besides the generated code decides the built module: versions and C flags."""
    level = opt_level()
    cold = (COLD_FUNCTIONS,) if cold_functions_apart(level) else ()
    cold += (HOT_INLINE,) if hot_calls_inline(level) else ()
    trained = (profile_guided.TRAINING,) if level == profile_guided.LEVEL else ()
    return (__version__, cython_version(), sys.version, " ".join(c_compiler()), *c_flags(),
            *CYTHON_DIRECTIVES, *cold, *trained)
