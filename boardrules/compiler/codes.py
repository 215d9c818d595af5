"""Diagnostic codes: one per kind of problem, stable when a message's wording changes.

Tests and tools match the code, not the text. Ranges: BR0xx reading and syntax,
BR1xx names, BR2xx types and values, BR3xx declarations and data, BR4xx the
rulebook, BR5xx scenarios, BR6xx limits. Warnings carry the name of their lint
check instead (`[unused-procedure]`), which a file can silence.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    id: str
    summary: str

    def __str__(self) -> str:
        return self.id


# ---- reading and syntax ---------------------------------------------------------------
SYNTAX = Code("BR001", "the text does not parse")
IMPORT = Code("BR002", "an import cannot be found or read")
# ---- names ------------------------------------------------------------------------------
UNKNOWN_NAME = Code("BR101", "a name that nothing declares")
UNKNOWN_MEMBER = Code("BR102", "an attribute, enum member or card that its owner lacks")
AMBIGUOUS_NAME = Code("BR103", "a name that means several things")
WRONG_KIND = Code("BR104", "a name of the wrong kind (a die as a value, a decision as a call)")
DUPLICATE = Code("BR105", "a name given twice")
# ---- types and values --------------------------------------------------------------------
TYPE_MISMATCH = Code("BR201", "a value of another type than expected")
ARITY = Code("BR202", "the wrong number of arguments")
NOT_A_VALUE = Code("BR203", "something that gives no value where one is needed")
NOT_ASSIGNABLE = Code("BR204", "an assignment to something that cannot change")
NOT_CONSTANT = Code("BR205", "a value that must be known when compiling")
INTEGER_RANGE = Code("BR206", "a constant outside the 32-bit integer range")
MISSING_RETURN = Code("BR207", "a procedure that can end without its value")
LIST_MISUSE = Code("BR208", "a list where one value is needed, or the reverse")
# ---- declarations and data -------------------------------------------------------------
EDITION = Code("BR301", "an edition header, board or game block that is incomplete or wrong")
DECLARATION = Code("BR302", "a field, counter, option, die, deck or handler declared wrongly")
CAPACITY = Code("BR303", "more than the kernel's fixed capacities")
# ---- the rulebook --------------------------------------------------------------------------
QUOTE = Code("BR401", "a quote or waiver not found in the rulebook")
RULEBOOK = Code("BR402", "a rulebook that is missing or outside the edition's folder")
# ---- scenarios ------------------------------------------------------------------------------
SCENARIO = Code("BR501", "a scenario that names what the edition lacks")
# ---- limits ---------------------------------------------------------------------------------
NESTING = Code("BR601", "expressions or blocks nested too deeply")
OTHER = Code("BR000", "a problem without a code of its own yet")

ALL: tuple[Code, ...] = tuple(v for v in globals().values() if isinstance(v, Code))
