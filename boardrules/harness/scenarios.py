"""Run an edition's scenarios: given a state, forced dice, cards and answers, expect results.

A scenario's steps were compiled into the edition's module; this module plays
them in order on a fresh game and explains a failure in the game's terms: the
rulebook sentences the tested rule quotes, the expectation, and the expected
against the actual values, with spaces, cards and players by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ..compiler.pipeline import Compilation, compile_rules
from ..compiler.quotes import quoted_units
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


def run_case(compilation: Compilation, case: Case, backend: str) -> Outcome:
    module = import_compilation(compilation, backend)
    passed, detail = play(module, case.index)
    if passed:
        return Outcome(case, backend, True, "")
    scenario = module.SCENARIOS[case.index]
    header = [f'scenario "{case.title}" ({Path(scenario[3]).name}:{scenario[4]}, {backend}) '
              f"tests {case.target}, which implements:"]
    header += [f'  "{quote}"' for quote in quotes_of(compilation, case.target)] or [
        "  (no quoted sentence)"]
    return Outcome(case, backend, False, "\n".join(header + detail))


def play(module: ModuleType, index: int) -> tuple[bool, list[str]]:
    """Play scenario `index`; (True, []) or (False, lines explaining the failure)."""
    title, _target, players, _path, _line, steps = module.SCENARIOS[index]
    options = {step[4]: step[3][0] for step in steps if step[0] == "option"}
    game = module.Game(players, seed=0, trace=True, options=options)
    game.start()
    game.clear_ledger()
    seats = list(range(players))
    mark = len(game.trace())
    for kind, line, function, values, target, text, ltype, rtype, ltext, rtext in steps:
        try:
            if kind == "given":
                getattr(game, function)(*seats)
            elif kind == "dice":
                game.script_rolls(values)
            elif kind == "cards":
                game.stack_cards(module.DECK_NAMES.index(target), values)
            elif kind == "answer":
                game.force_answers(target, values)
            elif kind == "option":
                pass  # chosen when the game was created
            elif kind == "play":
                game.play_turn(getattr(game, function)(*seats))
            elif kind == "expect":
                holds, left, right = getattr(game, function)(*seats)
                if not holds:
                    lines = [f"expectation failed (line {line}): {text}"]
                    if ltype:
                        actual, other = show(module, ltype, left), show(module, rtype, right)
                        found = f"{ltext or 'the left side'} is {actual}"
                        if rtext != other:
                            found += f", {rtext or 'the right side'} is {other}"
                        lines += [f"  expected: {text}", f"  actual:   {found}"]
                    return False, lines + _trace_tail(game, mark)
        except Exception as exc:  # a rule failed inside the scenario: report, do not crash
            return False, [f"step at line {line} ({kind}) failed: {type(exc).__name__}: {exc}"
                           ] + _trace_tail(game, mark)
    return True, []


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
