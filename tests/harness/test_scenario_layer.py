"""Scenarios live in an interpreted test layer, apart from the production module.

Editing a scenario must leave the production module byte-identical (so nothing
is rebuilt), and the layer must run the same on both backends through the
production module's reflection API.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from boardrules.compiler.back import codegen
from boardrules.compiler.back.codegen import generate_scenarios
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.scenarios import cases, run_case
from boardrules.runtime import reflection
from boardrules.runtime.loader import load_module

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# The tiny edition's toll rule: from c, a forced 1 lands on d, which asks `yes` and
# takes 1 bean. The steps use a loop, a counter, an aggregate and kernel primitives.
SCENARIO = """
scenario "paying the toll" for toll {
  players 3
  given {
    p1.position = c
    for q in players where q != p1 {
      q.passed = 2
    }
  }
  dice [1]
  answer yes [true]
  play p1
  expect p1.position == d
  expect p1.cash == 99
  expect paid(p1, bank) == 1
  expect p3.passed == 2 and not holds(p1, token)
  expect count(s in spaces where s.landings > 0) == 1
}
"""


def _edition(root: Path, scenario: str) -> Path:
    """A copy of the tiny edition (and its library) with `scenario` appended."""
    shutil.copytree(FIXTURES / "lib", root / "lib", dirs_exist_ok=True)
    shutil.copytree(FIXTURES / "tiny", root / "tiny", dirs_exist_ok=True)
    rules = root / "tiny" / "tiny.rules"
    rules.write_text((FIXTURES / "tiny" / "tiny.rules").read_text() + scenario)
    return rules


@pytest.fixture(scope="module")
def edition(tmp_path_factory) -> Path:
    return _edition(tmp_path_factory.mktemp("rulesets"), SCENARIO)


def test_editing_a_scenario_leaves_the_production_module_byte_identical(tmp_path):
    rules = _edition(tmp_path, SCENARIO)
    before = compile_rules(rules)
    rules.write_text(rules.read_text().replace("p1.cash == 99", "p1.cash == 98 + 1"))
    after = compile_rules(rules)
    assert after.code == before.code
    layers = [generate_scenarios(c.program, c.path.name) for c in (before, after)]
    assert layers[0] != layers[1] and "98 + 1" in layers[1]
    # no scenario at all gives the same production module too
    rules.write_text((FIXTURES / "tiny" / "tiny.rules").read_text())
    assert compile_rules(rules).code == before.code


def test_scenario_code_stays_out_of_the_production_program(edition):
    compilation = compile_rules(edition)
    program = compilation.program
    assert "SCENARIOS" not in compilation.code and "scenario_" not in compilation.code
    assert not any(f.name.startswith("scenario_") for f in program.functions)
    steps = {f.name for f in program.scenario_functions}
    assert {"scenario_0_1", "scenario_0_4", "scenario_0_9"} <= steps
    (aggregate,) = program.scenario_aggregates  # the count(...) of the last expectation
    assert aggregate.name.startswith("scenario_agg_")
    assert aggregate.name not in {a.name for a in program.aggregates}


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_the_layer_runs_a_scenario_on_each_backend(edition, backend):
    compilation = compile_rules(edition)
    (case,) = cases(compilation)
    outcome = run_case(compilation, case, backend)
    assert outcome.passed, outcome.message


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_a_failed_expectation_reads_as_before(tmp_path, backend):
    rules = _edition(tmp_path, SCENARIO.replace("p1.cash == 99", "p1.cash == 98"))
    compilation = compile_rules(rules)
    (case,) = cases(compilation)
    message = run_case(compilation, case, backend).message.splitlines()
    lines = rules.read_text().splitlines()
    start = next(i + 1 for i, text in enumerate(lines) if "paying the toll" in text)
    line = next(i + 1 for i, text in enumerate(lines) if "p1.cash == 98" in text)
    assert message[0] == (f'scenario "paying the toll" (tiny.rules:{start}, {backend}) '
                          "tests toll, which implements:")
    assert message[1] == '  "Whoever lands on D may pay a toll of 1 bean."'
    assert message[2:5] == [f"expectation failed (line {line}): p1.cash == 98",
                            "  expected: p1.cash == 98", "  actual:   p1.cash is 99"]
    assert message[5] == "what happened:"


# ---- the production module's reflection API and the proxy over it ---------------------------


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def tiny_module(request):
    return load_module(str(FIXTURES / "tiny" / "tiny.rules"), request.param)


@pytest.fixture
def tiny_game(tiny_module):
    """A started two-player game of the tiny edition (100 beans each)."""
    game = tiny_module.Game(2, seed=1, trace=True)
    game.start()
    return game


def test_state_get_and_set_reach_counters_tables_and_kernel_arrays(tiny_game):
    assert tiny_game.state_get("cash", 0) == 100
    tiny_game.state_set("cash", 1, 42)
    assert tiny_game.players_cash()[1] == 42
    tiny_game.state_set("c_space_landings", 4, 3)
    assert tiny_game.state_get("c_space_landings", 4) == 3
    assert tiny_game.state_get("t_space_price", 1) == 5
    with pytest.raises(IndexError):
        tiny_game.state_get("cash", 16)  # past the array: refused, not read
    with pytest.raises(IndexError):
        tiny_game.state_set("t_space_price", 1, 6)  # tables are read-only
    with pytest.raises(IndexError):
        tiny_game.state_get("c_nothing", 0)


def test_invoke_calls_rules_functions_and_kernel_primitives(tiny_game):
    tiny_game.invoke("k_pay", (0, -1, 5))
    assert tiny_game.invoke("k_paid", (0, -1)) >= 5
    assert tiny_game.invoke("k_distance", (0, 4)) == 4
    assert tiny_game.invoke("chk", (1, 2)) == 1
    with pytest.raises(AttributeError):
        tiny_game.invoke("proc_nothing", ())


def test_the_proxy_maps_the_macros_names(tiny_game):
    proxy = reflection.GameProxy(tiny_game)
    proxy.cash[0] = 70
    proxy.cash[0] += 5
    assert tiny_game.players_cash()[0] == 75
    assert proxy.t_space_price[1] == 5 and proxy.track_of[6] == 3
    assert proxy.n_players == 2
    assert proxy.k_space_at(2) == 2
    with pytest.raises(AttributeError):
        proxy.n_players = 3


def test_the_proxy_appends_to_the_trace_as_the_production_code_does(tiny_game):
    proxy = reflection.GameProxy(tiny_game)
    assert proxy.tracing
    proxy.trace_lines.append("  end game at tiny.rules:9")
    assert tiny_game.trace()[-1] == "  end game at tiny.rules:9"


def test_the_proxy_knows_every_kernel_array_the_macros_use():
    assert reflection.KERNEL_ARRAYS == (set(codegen.KERNEL_ARRAYS.values())
                                        | set(codegen.KERNEL_READ_ONLY))
    assert set(codegen.KERNEL_ARRAY_SIZE) == set(codegen.KERNEL_ARRAYS.values())


ENDING_GIVEN = """
proc count_and_rest(p: player, rest: bool) {
  p.passed += 1
  if rest {
    end turn
  }
}
scenario "a given block that ends the turn ends there, and the next steps run" for toll {
  players 3
  given {
    count_and_rest(p1, true)
    p2.passed = 5
  }
  given {
    count_and_rest(p3, false)
    p3.passed += 10
  }
  expect p1.passed == 1
  expect p2.passed == 0
  expect p3.passed == 11
}
"""


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_an_end_turn_in_a_given_block_ends_that_block_only(tmp_path, backend):
    compilation = compile_rules(_edition(tmp_path, ENDING_GIVEN))
    (case,) = [c for c in cases(compilation) if c.title.startswith("a given block")]
    outcome = run_case(compilation, case, backend)
    assert outcome.passed, outcome.message


WRITTEN_ENDS = """
scenario "an end turn written in a given block ends that block" for toll {
  players 2
  given {
    p1.passed = 1
    end turn
  }
  expect p1.passed == 1
  expect not game_over
}
scenario "an end game written in a given block ends the game" for toll {
  players 2
  given {
    end game
  }
  expect game_over
}
"""


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_an_end_written_in_a_given_block_is_traced_like_one_a_procedure_reaches(
        tmp_path, backend):
    """The block's own `end turn` or `end game` (not one in a procedure it calls) writes
    its trace line through the proxy, as the production code does."""
    compilation = compile_rules(_edition(tmp_path, WRITTEN_ENDS))
    for case in [c for c in cases(compilation) if "written in a given" in c.title]:
        outcome = run_case(compilation, case, backend)
        assert outcome.passed, outcome.message
        what = "turn" if "end turn" in case.title else "game"
        assert any(line.startswith(f"end {what} at tiny.rules:")
                   for line in outcome.trace), outcome.trace
