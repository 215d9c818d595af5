"""What the compiler reads from the runtime kernel's source: its text and its C constants.

The kernel is written once (boardrules/runtime/kernel.py) and pasted into every
generated module; its capacities and limits are read from that same text, so the
compiler and the kernel cannot disagree on them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def kernel_source() -> str:
    return resources.files("boardrules.runtime").joinpath("kernel.py").read_text()


def kernel_constants(prefix: str) -> dict[str, int]:
    """The kernel's C constants of that prefix: a compiled module does not export them."""
    found = re.findall(rf"^({prefix}\w*) = cython\.declare\(cython\.int, (-?\d+)\)",
                       kernel_source(), re.MULTILINE)
    return {name: int(value) for name, value in found}
