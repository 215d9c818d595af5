"""One source for the kernel's capacities: the CAP_ constants in kernel.py. Cython needs
literal sizes for C array attributes, so this test keeps those literals (and the lists the
interpreted backend starts with) equal to the constants code generation reads."""

from __future__ import annotations

import re

from boardrules.compiler.back.codegen import CAPACITY
from boardrules.compiler.common.kernel_facts import kernel_source

SIZE_OF = {
    "players": ("cash", "cash_lows", "cash_highs", "position", "alive", "policy",
                "held_first", "held_version", "out_order", "places"),
    "spaces": ("track_of", "space_at_track", "land_count", "rest_count", "pass_mask",
               "pass_gap"),
    "dice": ("die_size",),
    "decks": ("deck_first", "deck_size", "deck_head", "deck_count", "unrevealed"),
    "cards": ("queue", "card_deck", "card_holder", "held_next", "card_key"),
    "options": ("opts",),
    "rules": ("rule_fired",),
    "windows": ("window_closed", "window_seen", "window_moves", "window_turn"),
}


def _expected() -> dict[str, int]:
    expected = {name: CAPACITY[what] for what, names in SIZE_OF.items() for name in names}
    expected["held_key_version"] = CAPACITY["players"] * CAPACITY["card_keys"]
    expected["held_deck_version"] = CAPACITY["players"] * CAPACITY["decks"]
    return expected


def test_c_array_sizes_are_the_capacities():
    source = kernel_source()
    declared = dict(re.findall(r"^    (\w+): cython\.int\[(\d+)\]", source, re.MULTILINE))
    expected = _expected()
    expected["die_faces"] = CAPACITY["dice"] * CAPACITY["faces"]
    assert {name: int(size) for name, size in declared.items()} == expected


def test_every_seat_has_a_bit_of_the_seat_words():
    """The seats still in, those that have had their turn in the round, and those whose
    decisions take their defaults inline are kept as the bits of one C word each."""
    source = kernel_source()
    words = re.findall(r"^    (inline_seats|alive_seats|had_turn): cython\.uint\b", source,
                       re.MULTILINE)
    assert sorted(words) == ["alive_seats", "had_turn", "inline_seats"]
    assert CAPACITY["players"] <= 32


def test_interpreted_starting_lists_are_the_capacities():
    source = kernel_source()
    started = dict(re.findall(r"self\.(\w+) = \[-?\d+\] \* (\d+)", source))
    expected = _expected()
    assert started and all(int(size) == expected[name] for name, size in started.items())


def test_the_rare_error_value_is_the_kernels_constant():
    """Value-returning kernel methods signal an exception with ERROR_VALUE, written out."""
    from boardrules.compiler.back.codegen import ERROR_VALUE

    written = set(re.findall(r"exceptval\((-\d+), check=True\)", kernel_source()))
    assert written == {"-1", str(ERROR_VALUE)}
