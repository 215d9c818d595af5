"""Each module of the library stands alone, and brings only what it uses.

For every module in rulesets/lib/, a minimal edition (a board, a turn, the params the
module and its imports leave to the edition) imports that module alone and compiles to
its Python module: a module declares or imports everything it uses. And every `import`
of a module is used by it (a name it reads, calls, handles or redefines is defined
there), so that importing one module does not drag in a mechanic it never touches: an
edition with its own turn may import rent (its claims listen to the turn's hooks only,
`turn_hooks`), an edition without rent may import mortgages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardrules.compiler.pipeline import compile_rules

LIB = Path(__file__).resolve().parents[1] / "rulesets" / "lib"
MODULES = sorted(p.stem for p in LIB.glob("*.rules"))

# What the modules leave to the edition, given on the minimal board below.
EDITION_SETS = {
    "house_supply": "32", "hotel_supply": "12", "start_cash": "1500", "salary": "200",
    "go_space": "start", "jail_space": "cell", "go_to_jail_space": "to_cell",
    "jail_fine": "50",
}
# Imports made for the order of loading, not for a name: kept, each with its reason.
ORDER_ONLY = {
    ("buying", "rent"): "rent is settled before the property is bought or auctioned",
}
UMBRELLAS = {"classic"}  # imports the classic game's modules for an edition, uses none


def _code(module: str) -> str:
    """The module's text without its comments."""
    text = (LIB / f"{module}.rules").read_text(encoding="utf-8")
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def imports_of(module: str) -> list[str]:
    return [name.strip() for line in re.findall(r"^import (.+)$", _code(module), re.M)
            for name in line.split(",")]


def closure(module: str) -> list[str]:
    """The module and every module it imports, directly or not."""
    seen: list[str] = []
    todo = [module]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.append(name)
            todo.extend(imports_of(name))
    return seen


DEFINITION = re.compile(
    r"^(?:param|proc|decision|event|counter|field|enum|die|deck|rule)\s+"
    r"(?:[a-z_]+\.)?([a-z_][a-z_0-9]*)", re.M)


def defined_in(module: str) -> set[str]:
    """The names a module defines: its declarations and its enums' members."""
    code = _code(module)
    names = set(DEFINITION.findall(code))
    for members in re.findall(r"^enum\s+\w+\s*\{([^}]*)\}", code, re.M):
        names |= {m.strip() for m in members.split(",") if m.strip()}
    return names


def minimal_edition(tmp_path: Path, module: str) -> Path:
    unset = {m.group(1) for name in closure(module)
             for m in re.finditer(r"^param ([a-z_]+): [a-z_?]+\s*$", _code(name), re.M)}
    assert unset <= EDITION_SETS.keys(), f"give the minimal board a value for {unset}"
    sets = "".join(f"set {name} = {EDITION_SETS[name]}\n" for name in sorted(unset))
    folder = tmp_path / "alone"
    folder.mkdir()
    (folder / "rulebook.txt").write_text("A game.\n", encoding="utf-8")
    path = folder / "alone.rules"
    path.write_text(
        'edition "Alone" {\n  rulebook "rulebook.txt"\n  players 2 to 4\n}\n'
        f"import {module}\n"
        "enum kind { plain, corner }\n"
        'board {\n  space start "Start" corner\n  space a "A" plain\n'
        '  space cell "Cell" corner\n  space to_cell "To Cell" corner\n}\n'
        f"{sets}"
        "rule walk { on turn(p: player) { move(p, 1) } }\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("module", MODULES)
def test_an_edition_importing_one_module_alone_compiles(tmp_path, module):
    compilation = compile_rules(minimal_edition(tmp_path, module), until="codegen")
    assert compilation.code


@pytest.mark.parametrize("module", sorted(set(MODULES) - UMBRELLAS))
def test_a_module_imports_only_modules_it_uses(module):
    code = re.sub(r"^import .*$", "", _code(module), flags=re.M)
    words = set(re.findall(r"[a-z_][a-z_0-9]*", code))
    unused = [name for name in imports_of(module)
              if not defined_in(name) & words and (module, name) not in ORDER_ONLY]
    assert not unused, f"{module} imports {unused} and uses nothing of it"


def test_the_rent_module_leaves_the_turn_to_the_edition():
    assert "turn" not in closure("rent") and "turn" not in closure("trades")


PROPERTY_GAME = {"property", "rent", "buying", "building", "mortgages"}


def test_trades_without_deeds_bring_nothing_of_the_property_game():
    """An edition whose players trade cards and cash (Animal Crossing's chips) imports
    trade_bundles, and with it no deed, rent, auction, building or mortgage; the trades
    module puts the deeds in those bundles."""
    assert not PROPERTY_GAME & set(closure("trade_bundles"))
    assert "trade_bundles" in closure("trades")
    edition = LIB.parent / "animal_crossing" / "animal_crossing.rules"
    imported = {name.strip() for line in re.findall(r"^import (.+)$",
                                                    edition.read_text(encoding="utf-8"), re.M)
                for name in line.split(",")}
    assert not PROPERTY_GAME & {m for name in imported for m in closure(name)}


REFERENCE = LIB.parents[1] / "benchmarks" / "editions" / "classic_reference"


def test_the_reference_edition_replaces_nothing_of_the_library():
    """The C simulator's rules as an edition: params, hooks and decision defaults only
    (`decision NAME default ...`), no procedure, rule or whole decision of its own in the
    place of the library's (the turn, the jail turn, send_to_jail...)."""
    text = (REFERENCE / "classic_reference.rules").read_text(encoding="utf-8")
    imported = {name for line in re.findall(r"^import (.+)$", text, re.M)
                for module in line.split(",") for name in closure(module.strip())}
    library = {m.group(2) for module in imported
               for m in re.finditer(r"^(proc|rule|decision)\s+(\w+)", _code(module), re.M)}
    own = set(re.findall(r"^(?:proc|rule)\s+(\w+)", text, re.M))
    own |= set(re.findall(r"^decision\s+(\w+)\s*\(", text, re.M))
    assert not own & library, f"the reference edition replaces {sorted(own & library)}"
