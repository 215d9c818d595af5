"""What the rules language gives every edition: the kernel primitives a rule may call, the
built-in attributes of entities, and the type compatibility the checker applies."""

from __future__ import annotations

from ..ir.nodes import BOOL, INT, STR, VOID, Type

ERROR = Type("error")
MONEY = Type("int", label="money")  # an int, named so in messages

# Kernel primitives callable from rules: parameter types and result type.
KERNEL_FUNCTIONS: dict[str, tuple[tuple[Type, ...], Type]] = {
    "pay": ((Type("player", True), Type("player", True), MONEY), VOID),
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
    "paid": ((Type("player", True), Type("player", True)), MONEY),
    "min": ((INT, INT), INT),
    "max": ((INT, INT), INT),
    "abs": ((INT,), INT),
}
# The names of their parameters, as the language reference writes them (for messages).
KERNEL_PARAMETER_NAMES: dict[str, tuple[str, ...]] = {
    "pay": ("from", "to", "amount"), "move": ("p", "steps"), "move_to": ("p", "s"),
    "place": ("p", "s"), "retire": ("p",), "declare_bankrupt": ("p",), "holds": ("p", "c"),
    "return_card": ("c",), "give_card": ("c", "p"), "next_player": ("p",), "random": ("n",),
    "log": ("text",), "distance": ("a", "b"), "space_at": ("t",), "adjacent": ("a", "b"),
    "cell_at": ("x", "y"), "paid": ("from", "to"), "min": ("a", "b"), "max": ("a", "b"),
    "abs": ("a",),
}
# Kernel primitives that take a deck's name: shuffle it, take its top card to the
# table (none when empty), count the cards left in it.
DECK_FUNCTIONS: dict[str, Type] = {
    "shuffle": VOID, "take_top": Type("card", True), "cards_left": INT,
}
# Built-in attributes of entities: (type, assignable).
BUILTIN_ATTRS: dict[tuple[str, str], tuple[Type, bool]] = {
    ("player", "cash"): (MONEY, True),
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
