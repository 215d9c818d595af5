"""The Python-facing part of a module's C, compiled without optimization.

Over half of a module's machine code is what Python calls once per game or per
question, never per turn: the argument parsing and bodies of its `def` methods
(`state_get`, `invoke`, the snapshot and the setters) and the module's
initialisation. Optimizing it is gcc's time spent for nothing: marked for `-O0`
with gcc's `optimize` pragma, the shipped edition's C compiled in 4.8 to 5.2 s
instead of 6.1 to 6.4 s (alternating runs), and played as fast (2026-12-03).

The C is Cython's: a definition starts at column 0 with `static`, its signature (some
lines of it under `#if`) ends with `{` before any `;`, and its body ends at the first
`}` at column 0. What does not read exactly so is left as it is: a missed function
costs time, never correctness.
"""

from __future__ import annotations

import re

# Cython's names for a def method's wrapper and body, and for the module's setup
COLD_FUNCTIONS = r"__pyx_pw_\w+|__pyx_pf_\w+|__pyx_pymod_exec_\w+|__Pyx_Init\w*Constants"
_DEFINITION = re.compile(rf"^static [\w\s*]*?\b(?:{COLD_FUNCTIONS})\(")
PUSH = ("#pragma GCC push_options", '#pragma GCC optimize ("O0")')
POP = "#pragma GCC pop_options"


def mark_cold_functions(c_code: str) -> tuple[str, int]:
    """The C with each cold function's definition compiled at -O0; how many were marked."""
    lines = c_code.split("\n")
    out: list[str] = []
    marked = 0
    at = 0
    while at < len(lines):
        end = _definition_end(lines, at) if _DEFINITION.match(lines[at]) else None
        if end is None:
            out.append(lines[at])
            at += 1
            continue
        out += [*PUSH, *lines[at:end + 1], POP]
        marked += 1
        at = end + 1
    return "\n".join(out), marked


def _definition_end(lines: list[str], start: int) -> int | None:
    """The line of the `}` that closes the definition starting at `start`, or None when
    the lines there are not one whole definition."""
    at = start
    while not lines[at].rstrip().endswith("{"):
        if ";" in lines[at]:
            return None  # a prototype
        at += 1
        if at == len(lines):
            return None
    for body in range(at + 1, len(lines)):
        if lines[body] == "}":
            return body
        if lines[body].startswith(("static ", "#pragma")):
            return None  # another definition began: not one function's body
    return None
