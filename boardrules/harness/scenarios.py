"""Run an edition's scenarios: given a state, forced dice, cards and answers, expect results.

A scenario's steps are rendered into the edition's test layer, a plain Python
module apart from the production one (`codegen.generate_scenarios`); this
module runs it in memory against a game of the production module on either
backend, plays the steps in order on a fresh game and explains a failure in the
game's terms: the rulebook sentences the tested rule quotes, the expectation,
and the expected against the actual values, with spaces, cards and players by
name.
"""

from __future__ import annotations

import linecache
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ..compiler import ir
from ..compiler.codegen import generate_scenarios
from ..compiler.pipeline import Compilation, compile_rules
from ..compiler.quotes import quoted_units
from ..runtime.errors import rules_location
from ..runtime.loader import import_compilation, resolve_edition
from ..runtime.values import named


@dataclass(frozen=True)
class Case:
    """One scenario of one edition, as a test: `edition::target::title`."""

    edition: str
    index: int
    target: str
    title: str

    @property
    def test_id(self) -> str:
        return f"{self.edition}::{self.target}::{self.title}"


@dataclass(frozen=True)
class Outcome:
    case: Case
    backend: str
    passed: bool
    message: str


def load_edition(edition: str) -> Compilation:
    return compile_rules(resolve_edition(edition))


def cases(compilation: Compilation) -> list[Case]:
    return [Case(compilation.edition, sc.index, sc.target, sc.title)
            for sc in compilation.program.scenarios]


def quotes_of(compilation: Compilation, target: str) -> list[str]:
    """The rulebook sentences a rule (or a quoted definition) implements."""
    return [quote.text for quote in quoted_units(compilation.symbols).get(target, [])]


# (id of the program, backend) -> (the program, its test layer bound to that backend's module)
_layers: dict[tuple[int, str], tuple[ir.Program, ModuleType]] = {}


def scenario_layer(compilation: Compilation, backend: str) -> ModuleType:
    """The edition's scenario steps, rendered and run in memory against the backend's module
    (once per compilation and backend): its `Steps(game)` has one method per step."""
    program = compilation.program
    key = (id(program), backend)
    if key not in _layers:
        source = generate_scenarios(program, compilation.path.name, compilation.effects)
        layer = ModuleType(f"{compilation.edition}_scenarios_{backend}")
        layer.production = import_compilation(compilation, backend)
        filename = f"<scenarios of {compilation.path.name}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(compile(source, filename, "exec"), layer.__dict__)  # tracebacks show its lines
        _layers[key] = (program, layer)  # the program stays alive, so its id stays its own
    return _layers[key][1]


def run_case(compilation: Compilation, case: Case, backend: str) -> Outcome:
    scenario = compilation.program.scenarios[case.index]
    passed, detail = play(scenario_layer(compilation, backend), scenario)
    if passed:
        return Outcome(case, backend, True, "")
    header = [f'scenario "{case.title}" ({Path(scenario.path).name}:{scenario.line}, {backend}) '
              f"tests {case.target}, which implements:"]
    header += [f'  "{quote}"' for quote in quotes_of(compilation, case.target)] or [
        "  (no quoted sentence)"]
    return Outcome(case, backend, False, "\n".join(header + detail))


def play(layer: ModuleType, scenario: ir.Scenario) -> tuple[bool, list[str]]:
    """Play a scenario with its test layer; (True, []) or (False, lines explaining the failure)."""
    module = layer.production
    options = {st.target: st.values[0] for st in scenario.steps if st.kind == "option"}
    game = module.Game(scenario.players, seed=0, trace=True, options=options)
    game.start()
    game.clear_ledger()
    steps = layer.Steps(game)
    seats = list(range(scenario.players))
    mark = len(game.trace())
    for st in scenario.steps:
        try:
            if st.kind == "given":
                getattr(steps, st.function)(*seats)
            elif st.kind == "dice":
                game.script_rolls(st.values)
            elif st.kind == "cards":
                game.stack_cards(module.DECK_NAMES.index(st.target), st.values)
            elif st.kind == "answer":
                game.force_answers(st.target, st.values)
            elif st.kind == "option":
                pass  # chosen when the game was created
            elif st.kind == "play":
                game.play_turn(getattr(steps, st.function)(*seats))
            elif st.kind == "expect":
                holds, left, right = getattr(steps, st.function)(*seats)
                if not holds:
                    return False, _explain(module, st, left, right) + _trace_tail(game, mark)
        except Exception as exc:  # a rule failed inside the scenario: report, do not crash
            where = rules_location(module, exc)
            return False, [f"step at line {st.line} ({st.kind}) failed"
                           f"{' in ' + where if where else ''}: "
                           f"{type(exc).__name__}: {exc}"] + _trace_tail(game, mark)
    return True, []


def _explain(module: ModuleType, st: ir.ScenarioStep, left, right) -> list[str]:
    """A failed expectation, with expected against actual when it compares two values."""
    lines = [f"expectation failed (line {st.line}): {st.text}"]
    if st.left_type:
        actual, other = show(module, st.left_type, left), show(module, st.right_type, right)
        found = f"{st.left_text or 'the left side'} is {actual}"
        if st.right_text != other:
            found += f", {st.right_text or 'the right side'} is {other}"
        lines += [f"  expected: {st.text}", f"  actual:   {found}"]
    return lines


def _trace_tail(game, mark: int, limit: int = 40) -> list[str]:
    lines = game.trace()[mark:]
    shown = lines[-limit:]
    prefix = [f"  ... ({len(lines) - limit} earlier lines)"] if len(lines) > limit else []
    return ["what happened:"] + prefix + [f"  {line.strip()}" for line in shown]


def show(module: ModuleType, type_name: str, value) -> str:
    """A value as a scenario message writes it: p1.., spaces and cards by id, true/false."""
    if type_name == "player" and value >= 0:
        return f"p{value + 1}"
    shown = named(module, type_name, value)
    if shown is None:
        return "none"
    if isinstance(shown, bool):
        return "true" if shown else "false"
    return str(shown)


def run_edition(edition: str, backends: tuple[str, ...] = ("interpreted", "compiled")
                ) -> tuple[Compilation, list[Outcome]]:
    """Compile an edition and run every scenario on each backend."""
    compilation = load_edition(edition)
    return compilation, [run_case(compilation, case, backend)
                         for backend in backends for case in cases(compilation)]
