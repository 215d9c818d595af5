"""The calls C inlines whatever its budget: a procedure's entry tests and the payment.

gcc declines a function declared inline once the module has grown by its
`inline-unit-growth` share (build_settings.py), and it spends that share in the order
its own estimates of size and benefit give, not by how often a call runs: a procedure's
inline test that every landing's payment goes through could stay a call from the land
event, and the payment a call from it. Two kinds of function are marked `always_inline`,
so that gcc inlines them wherever they are called, before its budget is counted:

- a procedure's entry tests (`back/entry_tests.py`): the function that the generated
  code splits from its `rest_` (a test or two, a plain payment, then the call of the
  rest), written to be inline in its callers: that is what it is for;
- the kernel's payment (`Primitives.k_pay`): a few additions, the 32-bit checks and a
  test of the ledger flag, whose traced half is a call of its own (`k_pay_noted`).

The C is Cython's: a cdef function's definition is one line at column 0, `static`, the
name, the parameters, `{`. A definition that does not read so is left as it is (it
costs time, never correctness), and so is one not declared inline. No function marked
can reach itself through marked functions alone: an entry's code calls its rest, which
is not marked, and the kernel calls (a payment calls only its ledger's), so gcc never
meets a cycle it must inline; a build that fails with the marks is built again without
them (artifacts.py).
"""

from __future__ import annotations

import re

# Cython's name of a Game method: __pyx_f_<module>_4Game_<name>
_REST = re.compile(r"^static [^;{]*?\b__pyx_f_\w+?_4Game_rest_(\w+)\(.*\{$", re.MULTILINE)
KERNEL_HOT = ("10Primitives_k_pay",)  # the kernel's methods marked: <class>_<name>
ALWAYS_INLINE = "__attribute__((always_inline)) "
MARKED = f"entry tests of rest_*; {', '.join(KERNEL_HOT)}"  # in the build's cache key


def mark_hot_inline(c_code: str) -> tuple[str, int]:
    """The C with each entry-test function and the kernel's payment marked always_inline
    (their definitions, declared inline); how many were marked."""
    names = [f"4Game_{name}" for name in _REST.findall(c_code)] + list(KERNEL_HOT)
    alternatives = "|".join(map(re.escape, names))
    hot = re.compile(rf"^static CYTHON_INLINE (?=[^;{{]*?\b__pyx_f_\w+?_(?:{alternatives})"
                     r"\(.*\{$)", re.MULTILINE)
    return hot.subn(f"static CYTHON_INLINE {ALWAYS_INLINE}", c_code)
