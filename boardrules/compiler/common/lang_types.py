"""The language's types, shared by the symbol table (declared types) and the IR."""

from __future__ import annotations

from dataclasses import dataclass, field

ENTITY_TYPES = ("player", "space", "group", "card", "cell")
# the integers of the language: 32 bits, alike on both backends (docs/language.md, section 23)
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


@dataclass(frozen=True)
class Type:
    name: str  # int | bool | str | none | player | space | group | card | cell | <enum>
    optional: bool = False
    # the name it was declared with when that differs (`money` for an int); messages
    # show it, nothing else sees it
    label: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        return self.name + ("?" if self.optional else "")

    @property
    def declared(self) -> str:
        """The type as the rules wrote it: `money` where the checker reads an int."""
        return (self.label or self.name) + ("?" if self.optional else "")

    @property
    def is_entity(self) -> bool:
        return self.name in ENTITY_TYPES


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
NONE = Type("none", True)
VOID = Type("void")
