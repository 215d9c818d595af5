"""A counter or decision value in the edition's own terms (names, not indices)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

_NAMED = {"space": "SPACE_IDS", "card": "CARD_IDS", "group": "GROUP_NAMES",
          "deck": "DECK_NAMES"}


def named(module: ModuleType, type_name: str, value) -> Any:
    """None for none, a bool, an id for spaces, cards, groups and decks, an enum member's
    name, or the number itself (players stay seat numbers); lists element by element."""
    if isinstance(value, list):
        return [named(module, type_name, v) for v in value]
    if type_name == "bool":
        return bool(value)
    if type_name in ("player", "space", "group", "card", "cell", "deck") and value < 0:
        return None
    if type_name in _NAMED:
        return getattr(module, _NAMED[type_name])[value]
    if type_name in module.ENUMS:
        return module.ENUMS[type_name][value]
    return value
