"""Deep and wide trees of calls: both backends play the same games, or stop with the same
located rules error, at any depth and size the language allows."""

from __future__ import annotations

import threading

import pytest

from boardrules.runtime.errors import rules_location
from boardrules.runtime.loader import load_module

BACKENDS = ("interpreted", "compiled")

# A turn moves by a die; landing moves back 3 and so lands again, `bound` times in a row
# (each level a land event, a counted rule and a move: several Python frames).
LANDINGS = """die six faces [1, 2, 3, 4, 5, 6]
counter player.depth: int = 0
counter bound: int = 199
rule walk { on turn(p: player) { move(p, roll(six)) } }
rule probe { on land(p: player, s: space) { if p.depth < bound { p.depth += 1
  move(p, -3) } } }
"""


def outcome(module, setup=None, turns: int = 40) -> tuple:
    """What a seeded game did: its trace, or its rules error's message and location."""
    game = module.Game(2, seed=3, trace=True)
    if setup:
        setup(game)
    try:
        game.play(turns)
    except module.RuleError as exc:
        return ("error", str(exc), rules_location(module, exc), len(game.trace()))
    return ("played", tuple(game.trace()))


@pytest.fixture(scope="module")
def landings(module_editions):
    path = module_editions.write(LANDINGS, name="landings")
    return [load_module(str(path), backend) for backend in BACKENDS]


def test_a_recursion_that_ends_by_itself_plays_alike(landings):
    """199 landings deep: within the rules' 200, past CPython's default recursion limit
    when interpreted (it raised RecursionError there)."""
    interpreted, compiled = (outcome(module) for module in landings)
    assert compiled[0] == "played" and any(line.count("at s") for line in compiled[1])
    assert interpreted == compiled


def test_an_endless_recursion_stops_alike(landings):
    """Unbounded: the same rules error in `probe` on both backends (interpreted once gave a
    RecursionError somewhere else)."""
    def unbounded(game):
        game.state_set("g_game_bound", 0, 1_000_000)

    interpreted, compiled = (outcome(module, unbounded) for module in landings)
    assert compiled[:2] == ("error", "rule probe at landings.rules:17: calls nested more "
                            "than 200 deep (endless recursion?)")
    assert interpreted == compiled


# 36 procedures, each calling the one below twice: 2**36 calls from one landing (check
# passed it, and both backends ran for hours); and a recursion that branches, within the
# depth limit (fib(60): about 2**42 calls). `mode` picks one.
TREES = ("die six faces [1, 2, 3, 4, 5, 6]\ncounter pot: int = 0\ncounter mode: int = 1\n"
         "proc f_0(n: int) -> int { return n }\n"
         + "".join(f"proc f_{i}(n: int) -> int {{ return max(f_{i - 1}(n), f_{i - 1}(n + 1)) }}\n"
                   for i in range(1, 37))
         + "proc fib(n: int) -> int { if n < 2 { return n }\n return fib(n - 1) + fib(n - 2) }\n"
         + "proc heavy(n: int) -> int { if n <= 0 { return 0 }\n"
         "  return heavy(n - 1) + f_11(n) + f_11(n + 1) }\n"
         "rule walk { on turn(p: player) { move(p, roll(six)) } }\n"
         "rule probe { on land(p: player, s: space) {\n"
         "  if mode == 1 { pot = f_36(0) }\n  if mode == 2 { pot = fib(60) } } }\n")


def within(seconds: float, run):
    """run() in a thread: its result, or a failure when it is still running after `seconds`
    (the thread, a daemon, is left behind)."""
    results: list = []
    worker = threading.Thread(target=lambda: results.append(run()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert results, f"still running after {seconds} s"
    return results[0]


@pytest.fixture(scope="module")
def trees(module_editions):
    """The edition interpreted, compiled, and interpreted without any optimization."""
    return module_editions.three_ways(TREES, "trees")


@pytest.mark.parametrize(("mode", "where"), [(1, "proc f_12 at trees.rules:28"),
                                             (2, "proc fib at trees.rules:53")],
                         ids=["exponential procedures", "branching recursion"])
def test_an_exponential_tree_of_calls_stops_alike(trees, mode, where):
    """The turn's budget counts calls too: the same located rules error on both backends
    and without the optimizations (inlining cannot move it)."""
    def pick(game):
        game.state_set("g_game_mode", 0, mode)

    interpreted = within(60, lambda: outcome(trees[0], pick))
    compiled = outcome(trees[1], pick)  # (C runs on: only once Python stopped in time)
    assert compiled[:3] == ("error", "loops and calls ran more than 1000000 rounds in one "
                            "turn", where)
    assert interpreted == compiled
    if mode == 1:  # (a recursion is never inlined; its million calls take seconds in Python)
        assert within(60, lambda: outcome(trees[2], pick)) == compiled


def test_a_function_is_charged_only_past_the_call_weight(editions):
    """The weight of a function is its calls as written, a counted callee weighing 1: the
    first of a chain of doublings past CALL_WEIGHT is charged, and those above it weigh
    little again."""
    from boardrules.compiler.ir.call_budget import CALL_WEIGHT, weights

    program = editions.compile(TREES, until="call-budget").program
    w = weights(program)
    first = next(i for i in range(37) if 2 ** (i + 1) - 1 > CALL_WEIGHT)
    assert [w[f"proc_f_{i}"] for i in range(first + 1)] == [2 ** (i + 1) - 1
                                                            for i in range(first + 1)]
    assert w[f"proc_f_{first + 1}"] == 3  # its two calls of a charged function, and itself
    charged = {f.name: f.body[0] for f in program.functions if f.body
               and getattr(getattr(f.body[0], "expr", None), "function", "") == "k_charge"}
    assert f"proc_f_{first}" in charged and f"proc_f_{first - 1}" not in charged
    assert charged[f"proc_f_{first}"].expr.args[0].value == w[f"proc_f_{first}"]
    assert "proc_fib" not in charged  # k_enter counts the calls of a recursion
    assert "proc_heavy" in charged and w["proc_heavy"] == 2 + 2 * w["proc_f_11"]
