"""The language's types, shared by the symbol table (declared types) and the IR."""

from __future__ import annotations

from dataclasses import dataclass

ENTITY_TYPES = ("player", "space", "group", "card", "cell")


@dataclass(frozen=True)
class Type:
    name: str  # int | bool | str | none | player | space | group | card | cell | <enum>
    optional: bool = False

    def __str__(self) -> str:
        return self.name + ("?" if self.optional else "")

    @property
    def is_entity(self) -> bool:
        return self.name in ENTITY_TYPES


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
NONE = Type("none", True)
VOID = Type("void")
