"""Pass 5: render the IR into one self-contained Cython pure-Python-mode module.

The Jinja2 templates in `templates/` write the code; this module only prepares
their context and provides the escaping helpers through which every name and
string that came from a rules file passes: `ident` (a checked identifier with
a prefix, so a rules name can never be a Python keyword or clash with the
kernel) and `pystr` (an ASCII Python literal), plus `comment` for comments.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

import jinja2

from .. import __version__
from . import ir

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Kernel arrays the rules reach through built-in attributes, and their capacities.
KERNEL_ARRAYS = {"player_cash": "cash", "player_position": "position", "player_alive": "alive",
                 "card_holder": "card_holder"}
CAPACITY = {"players": 16, "spaces": 256, "cards": 512, "decks": 32, "dice": 8, "faces": 32,
            "rules": 512, "cells": 512}


class CodegenError(Exception):
    pass


def ident(name: str, prefix: str) -> str:
    """A rules-file name as a Python identifier: checked, then prefixed."""
    if not _IDENTIFIER.fullmatch(name):
        raise CodegenError(f"not an identifier: {name!r}")
    return prefix + name


def pystr(value: str) -> str:
    """Any string as a Python literal that cannot escape its quotes."""
    return ascii(str(value))


def comment(value: str) -> str:
    """Text for a `#` comment: one line, printable ASCII."""
    return ascii(str(value))[1:-1].replace("\\\\", "\\")


def const(value: int | bool | str) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    return pystr(value)


def _unknown_attribute(what: str) -> str:
    raise CodegenError(f"no code for the built-in attribute {what!r}")


def padded(values, size: int, fill: int = 0) -> list[int]:
    values = list(values)
    if len(values) > size:
        raise CodegenError(f"{len(values)} values exceed the kernel's capacity of {size}")
    return values + [fill] * (size - len(values))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("boardrules.compiler", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters.update(ident=ident, pystr=pystr, comment=comment, const=const)
    env.globals.update(KERNEL_ARRAYS=KERNEL_ARRAYS, raise_unknown=_unknown_attribute)
    return env


def kernel_source() -> str:
    return resources.files("boardrules.runtime").joinpath("kernel.py").read_text()


def check_capacity(program: ir.Program) -> list[str]:
    """What exceeds the kernel's fixed capacities (reported by the pipeline as errors)."""
    problems = []
    sizes = {
        "players": program.max_players, "spaces": len(program.space_ids),
        "cards": len(program.card_ids), "decks": len(program.decks), "dice": len(program.dice),
        "faces": max((len(d.faces) for d in program.dice), default=0),
        "rules": len(program.rules), "cells": program.cell_count,
    }
    for what, size in sizes.items():
        if size > CAPACITY[what]:
            problems.append(f"{size} {what} exceed the kernel's capacity of {CAPACITY[what]}")
    return problems


def generate(program: ir.Program, source_name: str) -> str:
    """The edition's module source."""
    die_faces: list[int] = []
    for die in program.dice:
        die_faces += padded(die.faces, CAPACITY["faces"])
    card_deck = [0] * len(program.card_ids)
    for d, deck in enumerate(program.decks):
        for card in deck.cards:
            card_deck[card] = d
    context = {
        "version": __version__,
        "source": source_name,
        "p": program,
        "kernel": kernel_source(),
        "track_of": padded(program.track, CAPACITY["spaces"]),
        "space_at_track": padded(program.space_of_track, CAPACITY["spaces"]),
        "die_faces": padded(die_faces, CAPACITY["dice"] * CAPACITY["faces"]),
        "die_size": padded([len(d.faces) for d in program.dice], CAPACITY["dice"]),
        "deck_first": padded([d.first_card for d in program.decks], CAPACITY["decks"]),
        "deck_size": padded([len(d.cards) for d in program.decks], CAPACITY["decks"]),
        "card_deck": padded(card_deck, CAPACITY["cards"]),
        "entity_count": {
            "player": "self.n_players", "space": len(program.space_ids),
            "group": len(program.group_ids), "card": len(program.card_ids),
            "cell": program.cell_count,
        },
        "counter_size": {
            "": 1, "player": CAPACITY["players"], "space": len(program.space_ids),
            "group": len(program.group_ids), "card": len(program.card_ids),
            "cell": program.cell_count,
        },
    }
    return environment().get_template("module.py.j2").render(context)
