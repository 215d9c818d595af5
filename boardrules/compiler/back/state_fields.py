"""A game's C fields, read from its generated module, for the copy and serialization code.

A compiled game keeps its state in C fields (the kernel's, declared in boardrules/runtime,
and the edition's counters, indexes, memos and versions, declared by the template), which
Python can neither list nor reach by name. A copy or a serialization that named them by
hand would miss the next field someone declares, silently; so the module is rendered with
a marker where that code goes, and the code is written here from the fields declared in
the rendered text: every C field of the game's classes, whatever declared it. The game's
Python objects (its generators, scripts, forced answers, trace) are few and the kernel
copies them itself (KernelApi.copy_objects_into).
"""

from __future__ import annotations

import re

# the lines of module.py.j2 that field-by-field code replaces, and each field's line there
MARKS = {
    "# @copy-fields@": "other.{0} = self.{0}",
    "# @dump-fields@": "{0!r}: self.{0},",
    "# @load-fields@": "self.{0} = fields[{0!r}]",
}
LISTED = "STATE_FIELDS: tuple = ()  # (filled in by compiler/back/state_fields.py)"
# the classes a game is made of, in the order the kernel and the template declare them
GAME_CLASSES = ("Kernel", "Play", "Primitives", "Decks", "Decisions", "KernelApi", "Game")
_CLASS = re.compile(r"^class (\w+)\b", re.MULTILINE)
# `name: cython.TYPE` or `name: cython.TYPE[N]` or `name = cython.declare(cython.TYPE, ...)`
_FIELD = re.compile(r"^    (\w+)(?:: | = cython\.declare\()cython\.\w+", re.MULTILINE)


def c_fields(module_text: str) -> list[str]:
    """The C fields (numbers and arrays of numbers) of the game's classes, in order."""
    starts = [(m.start(), m.group(1)) for m in _CLASS.finditer(module_text)]
    fields: list[str] = []
    for i, (start, name) in enumerate(starts):
        if name not in GAME_CLASSES:
            continue
        end = starts[i + 1][0] if i + 1 < len(starts) else len(module_text)
        for m in _FIELD.finditer(module_text, start, end):
            if m.group(1) not in fields:
                fields.append(m.group(1))
    return fields


def fill_state_code(module_text: str) -> str:
    """The module with each marker replaced by a line per field (compiled: C assignments,
    one memcpy per array) and STATE_FIELDS listing them (for the interpreted backend)."""
    fields = c_fields(module_text)
    for mark, line in MARKS.items():
        at = module_text.index(mark)
        indent = module_text[module_text.rindex("\n", 0, at) + 1:at]
        code = f"\n{indent}".join(line.format(name) for name in fields)
        module_text = module_text[:at] + code + module_text[at + len(mark):]
    listed = "STATE_FIELDS: tuple = (" + "".join(f"{name!r}, " for name in fields) + ")"
    return module_text.replace(LISTED, listed)
