"""What the compiler reads from the runtime kernel's source: its text and its C constants.

The kernel is written once, in seven files of boardrules/runtime (its module level,
the Kernel class with the game's state, the game loop and movement (Play), the
Primitives the rules call, the Decks, the Decisions that ask the policies, and the
Python-side KernelApi), each class derived from the one before, pasted in that order
into every generated module; its capacities and limits are read from that same text, so the
compiler and the kernel cannot disagree on them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

KERNEL_FILES = ("kernel_support.py", "kernel.py", "kernel_play.py", "kernel_primitives.py",
                "kernel_decks.py", "kernel_decisions.py", "kernel_api.py")
# each file imports the ones before it, to run alone; pasted together they are one text
_SIBLING_IMPORT = re.compile(r"^from \.kernel\w* import \*.*\n", re.MULTILINE)


@lru_cache(maxsize=1)
def kernel_source() -> str:
    runtime = resources.files("boardrules.runtime")
    texts = [runtime.joinpath(name).read_text() for name in KERNEL_FILES]
    return "\n\n".join(_SIBLING_IMPORT.sub("", text) for text in texts)


def kernel_constants(prefix: str) -> dict[str, int]:
    """The kernel's C constants of that prefix: a compiled module does not export them."""
    declared = r" = cython\.declare\(cython\.const\[cython\.int\], (-?\d+)\)"
    found = re.findall(rf"^({prefix}\w*){declared}", kernel_source(), re.MULTILINE)
    return {name: int(value) for name, value in found}
