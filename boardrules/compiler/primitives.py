"""What the rules language gives every edition: the kernel primitives a rule may call, the
built-in attributes of entities, and the type compatibility the checker applies."""

from __future__ import annotations

from .ir import BOOL, INT, STR, VOID, Type

ERROR = Type("error")

# Kernel primitives callable from rules: parameter types and result type.
KERNEL_FUNCTIONS: dict[str, tuple[tuple[Type, ...], Type]] = {
    "pay": ((Type("player", True), Type("player", True), INT), VOID),
    "move": ((Type("player"), INT), VOID),
    "move_to": ((Type("player"), Type("space")), VOID),
    "place": ((Type("player"), Type("space")), VOID),
    "retire": ((Type("player"),), VOID),
    "declare_bankrupt": ((Type("player"),), VOID),
    "holds": ((Type("player"), Type("card")), BOOL),
    "return_card": ((Type("card"),), VOID),
    "give_card": ((Type("card"), Type("player")), VOID),
    "next_player": ((Type("player"),), Type("player")),
    "random": ((INT,), INT),
    "log": ((STR,), VOID),
    "distance": ((Type("space"), Type("space")), INT),
    "space_at": ((INT,), Type("space")),
    "adjacent": ((Type("cell"), Type("cell")), BOOL),
    "cell_at": ((INT, INT), Type("cell", True)),
    "paid": ((Type("player", True), Type("player", True)), INT),
    "min": ((INT, INT), INT),
    "max": ((INT, INT), INT),
    "abs": ((INT,), INT),
}
# Kernel primitives that take a deck's name: shuffle it, take its top card to the
# table (none when empty), count the cards left in it.
DECK_FUNCTIONS: dict[str, Type] = {
    "shuffle": VOID, "take_top": Type("card", True), "cards_left": INT,
}
# Built-in attributes of entities: (type, assignable).
BUILTIN_ATTRS: dict[tuple[str, str], tuple[Type, bool]] = {
    ("player", "cash"): (INT, True),
    ("player", "position"): (Type("space"), True),
    ("player", "alive"): (BOOL, False),
    ("player", "seat"): (INT, False),
    ("space", "track"): (INT, False),
    ("space", "name"): (STR, False),
    ("space", "kind"): (Type("kind"), False),
    ("card", "holder"): (Type("player", True), False),
    ("card", "text"): (STR, False),
    ("card", "deck"): (Type("deck"), False),
    ("group", "name"): (STR, False),
}
ARITHMETIC = {"+": "+", "-": "-", "*": "*", "/": "//", "%": "%"}


def assignable(source: Type, target: Type) -> bool:
    if source == ERROR or target == ERROR:
        return True
    if source.name == "none":
        return target.optional
    return source.name == target.name and (target.optional or not source.optional)
