"""Pass `nesting` (limits.py) and the call depth bound: what used to crash compile, the
interpreter or the C stack is a located rules or compile error instead."""

from __future__ import annotations

import pytest

from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir.limits import BLOCK_DEPTH, EXPRESSION_DEPTH
from boardrules.runtime.loader import import_compilation, load_module, published_name

DATA = "counter pot: int = 0\n"


def test_an_expression_too_deep_is_a_compile_error(editions):
    sum_ = " + ".join(["p.cash"] * (EXPRESSION_DEPTH + 5))
    diagnostics = editions.diagnostics(
        DATA + f"rule r {{ on turn(p: player) {{\n  pot = {sum_}\n}} }}\n", until="nesting")
    assert [(d.code, d.span.line, d.span.column) for d in diagnostics] == [
        (E.TOO_DEEP.code, 15, 3)]  # `pot = ...`
    assert str(EXPRESSION_DEPTH) in diagnostics[0].message  # the limit, as the message says


def test_blocks_too_deep_are_a_compile_error(editions):
    depth = BLOCK_DEPTH + 5
    body = "".join("  " * i + "if pot >= 0 {\n" for i in range(depth))
    body += "pot += 1\n" + "}\n" * depth
    diagnostics = editions.diagnostics(
        DATA + f"rule r {{ on turn(p: player) {{\n{body}}} }}\n", until="nesting")
    assert [d.code for d in diagnostics] == [E.TOO_DEEP.code]
    assert str(BLOCK_DEPTH) in diagnostics[0].message  # the limit, as the message says


def test_constants_fold_before_codegen_sees_them(editions):
    sum_ = " + ".join(["1"] * 90)
    program = editions.compile(DATA + f"rule r {{ on turn(p: player) {{ pot = {sum_} }} }}\n",
                               until="fold-constants").program
    assert any("pot = 90" in line for f in program.functions for line in ir_text.block(f.body))


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_endless_recursion_is_a_located_rules_error_on_both_backends(editions, backend):
    compilation = editions.compile(DATA + (
        "proc rec(n: int) -> int { return rec(n + 1) + 1 }\n"
        "rule r { on turn(p: player) { pot = rec(0) } }\n"), until="codegen")
    module = import_compilation(compilation, backend)
    game = module.Game(2, seed=1)
    with pytest.raises(module.RuleError) as info:
        game.play(1)
    assert "proc rec at ed.rules:" in str(info.value)
    assert "more than 200 deep" in str(info.value)


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_a_rules_error_in_a_simulation_names_the_rules_line(editions, backend, monkeypatch,
                                                          tmp_path):
    from boardrules.harness import simulate as simulation

    # a let of another let keeps the procedure whole (lets-as-arguments takes only lets
    # of the parameters): the failure is then the procedure's own, not its caller's
    path = editions.write(DATA + (
        "counter space.owner: player? = none\n"
        "proc owner_of(s: space) -> player {\n  let o = s.owner\n  let seated = some(o)\n"
        "  return seated\n}\n"
        "rule r { on land(p: player, s: space) { pot = owner_of(s).seat } }\n"))
    with pytest.raises(simulation.SimulationError) as info:
        name = published_name(load_module(str(path), backend))  # what a worker is given
        simulation.play_chunk(name, backend, 2, 1, 0, 1, None, None)
    assert "in proc owner_of at ed.rules:" in str(info.value)
    assert "RuleError: some(x): x is none" in str(info.value)


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_a_rules_error_in_the_game_state_api_names_the_rules_line(editions, backend):
    from boardrules.runtime.state import GameState

    compilation = editions.compile(DATA + (
        "counter space.owner: player? = none\n"
        "proc owner_of(s: space) -> player {\n  let o = s.owner\n  let seated = some(o)\n"
        "  return seated\n}\n"
        "rule r { on land(p: player, s: space) { pot = owner_of(s).seat } }\n"),
        until="codegen")
    module = import_compilation(compilation, backend)
    with pytest.raises(module.RuleError) as info:
        GameState(module, 2, seed=1)
    assert str(info.value).startswith("in proc owner_of at ed.rules:")
    assert str(info.value).endswith(": some(x): x is none")


@pytest.mark.parametrize("failing", ["check", "hoist-invariants", "codegen"])
def test_a_pass_out_of_stack_is_a_located_error(editions, monkeypatch, failing):
    """Nesting within the limits can still exhaust Python's stack when the compiler is
    called from deep in another program's (a fuzzer's: scenario dice order, walked after
    check, once did): any pass's RecursionError is the edition's error, not a traceback."""
    from boardrules.compiler import pipeline
    from boardrules.compiler.common.diagnostics import CompileError

    def out_of_stack(c):
        raise RecursionError

    monkeypatch.setattr(pipeline, "PASSES", [(name, out_of_stack if name == failing else run,
                                              stop) for name, run, stop in pipeline.PASSES])
    with pytest.raises(CompileError) as info:
        editions.compile(DATA + "rule r { on turn(p: player) { pot = 1 } }\n", until="codegen")
    (d,) = info.value.diagnostics
    assert d.code == E.TOO_DEEP.code and d.span.line >= 1 and f"the {failing} pass" in d.hint


def test_running_out_of_stack_points_at_the_deepest_expression(editions):
    """3000 unary minus signs (the checker recurses once per operation): the error is at
    the innermost operand, not at the edition's header."""
    from boardrules.compiler.common.diagnostics import CompileError

    body = DATA + "rule r { on turn(p: player) {\n  pot = " + "-" * 3000 + "1\n} }\n"
    with pytest.raises(CompileError) as info:
        editions.compile(body)
    (d,) = info.value.diagnostics
    assert (d.code, d.span.line, d.span.column) == (E.TOO_DEEP.code, 15, 3009)


def test_an_else_if_chain_is_not_nesting(editions):
    """120 branches of `else if`, written flat, nest no deeper than their first `if`: the
    checker takes them (once 'blocks nested more than 50 deep') and the module writes them
    with `elif`, one level of indentation."""
    chain = "".join(f"  else if pot == {i} {{ pot = {i + 1} }}\n" for i in range(1, 120))
    body = DATA + ("rule r { on turn(p: player) {\n  if pot == 0 { pot = 1 }\n" + chain
                   + "  else { pot = -1 }\n} }\n")
    _, code, namespace = editions.module(body)
    assert code.count("elif (self.g_game_pot == ") == 119
    game = namespace["Game"](2, seed=1)
    game.play(130)
    assert game.state_get("g_game_pot", 0) == -1  # each turn took the next branch, then else
