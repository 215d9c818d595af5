"""What the optimization tests (test_opt_*.py) share: the declarations most of their
small programs start from, the boards some of them replace the prelude's with, and
helpers that look into the IR a compilation produced.

Each test compiles a tiny edition up to the pass under test and looks at the IR it
produced; some run generated modules to check that what the passes change plays
exactly as before (the golden digests check the shipped editions)."""

from __future__ import annotations

from boardrules.compiler.back.codegen import generate
from boardrules.compiler.ir import nodes as ir

DATA = """enum color { red, blue }
group reds "Reds"
field space.price: money = 5
field space.tone: color = blue
field space.group: group? = none
field space.special: bool = false
counter space.owner: player? = none
counter space.level: int = 0
param generous: bool = false
"""


# an edition with two groups and who owns each space, before its board (count-queries,
# memoize-aggregates' per-owner versions)
TWO_GROUPS = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
group reds "Reds"
group blues "Blues"
field space.group: group? = none
counter space.owner: player? = none
"""


DATA_BOARD = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain }
board {
  space s0 "S0" plain { group = reds, special = true }
  space s1 "S1" plain
  space s2 "S2" plain { group = reds }
}
rule turn_rule { on turn(p: player) { move(p, 1) } }
"""


SMALL_GROUPS_BOARD = """edition "T" {
  rulebook "rulebook.txt"
  players 2 to 2
}
enum kind { plain }
group blues "Blues"
group greens "Greens"
group yellows "Yellows"
board {
  space s0 "S0" plain { group = reds }
  space s1 "S1" plain { group = reds }
  space s2 "S2" plain { group = blues }
  space s3 "S3" plain { group = greens }
  space s4 "S4" plain { group = yellows }
  space s5 "S5" plain
}
rule turn_rule { on turn(p: player) { move(p, 1) } }
"""


def grouped_board(groups: tuple[str | None, ...]) -> str:
    """A board of plain spaces s0, s1, ..., each in the group named (or in none)."""
    return "board {\n" + "".join(
        f'  space s{i} "S{i}" plain' + (f" {{ group = {g} }}" if g else "") + "\n"
        for i, g in enumerate(groups)) + "}\n"


def function(program: ir.Program, name: str) -> ir.Function:
    return next(f for f in program.functions if f.name == name)


def calls(node_source) -> set[str]:
    return {n.function for n in node_source if isinstance(n, ir.CallProc | ir.KernelCall)}


def module_namespace(program: ir.Program) -> dict:
    """The program's generated module run as Python: its namespace (`Game`, ...)."""
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(program, "ed.rules"), "<generated>", "exec"), namespace)  # noqa: S102
    return namespace


def random_traces(program: ir.Program, turns: int) -> list[list[str]]:
    """The traces of six seeded games of three players who all play the random policy
    (which lists every option of every decision)."""
    game_class = module_namespace(program)["Game"]
    played = []
    for seed in range(6):
        game = game_class(3, seed=seed, policies=["random"] * 3, trace=True)
        game.play(turns)
        played.append(game.trace())
    return played
