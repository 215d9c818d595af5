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

from ..compiler.back.codegen import generate_scenarios
from ..compiler.build.obtain import compile_edition
from ..compiler.front.quotes import quoted_units
from ..compiler.ir import nodes as ir
from ..compiler.pipeline import Compilation
from ..runtime.errors import rules_location
from ..runtime.kernel_support import forced_key
from ..runtime.loader import import_compilation, resolve_edition
from ..runtime.values import named
from .failure_trace import TRACE_LINES, trace_tail


@dataclass(frozen=True)
class Case:
    """One scenario of one edition, as a test: `edition::target::title`, or for a scenario
    of a file beside the rules, `edition::folder/file::target::title`
    (`disney_theme_park::conformance/jail::go_to_jail::...`)."""

    edition: str
    index: int
    target: str
    title: str
    file: str = ""  # "conformance/jail" for rulesets/<edition>/conformance/jail.rules
    suite: str = ""  # "conformance" for a conformance suite's scenario

    @property
    def test_id(self) -> str:
        file = f"{self.file}::" if self.file else ""
        return f"{self.edition}::{file}{self.target}::{self.title}"


@dataclass(frozen=True)
class Outcome:
    case: Case
    backend: str
    passed: bool
    message: str
    trace: tuple[str, ...] = ()  # everything the game traced once the scenario began


def load_edition(edition: str) -> Compilation:
    return compile_edition(resolve_edition(edition))


def cases(compilation: Compilation) -> list[Case]:
    return [Case(compilation.edition, sc.index, sc.target, sc.title,
                 _file_label(compilation, sc.path), sc.suite)
            for sc in compilation.program.scenarios]


def _file_label(compilation: Compilation, path: str) -> str:
    """"" for the edition's rules file; "folder/name" for a scenario file beside it."""
    if path == str(compilation.path):
        return ""
    found = Path(path)
    return f"{found.parent.name}/{found.stem}"


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


def run_case(compilation: Compilation, case: Case, backend: str,
             trace_lines: int | None = TRACE_LINES) -> Outcome:
    """Run one scenario; a failure's message ends with the last `trace_lines` lines of the
    trace (all of them for None), and the outcome keeps the whole trace."""
    scenario = compilation.program.scenarios[case.index]
    passed, detail, trace = played(scenario_layer(compilation, backend), scenario)
    if passed:
        return Outcome(case, backend, True, "", tuple(trace))
    shown = f"{case.file}.rules" if case.file else Path(scenario.path).name
    header = [f'scenario "{case.title}" ({shown}:{scenario.line}, {backend}) '
              f"tests {case.target}, which implements:"]
    header += [f'  "{quote}"' for quote in quotes_of(compilation, case.target)] or [
        "  (no quoted sentence)"]
    detail += trace_tail(trace, trace_lines)
    return Outcome(case, backend, False, "\n".join(header + detail), tuple(trace))


def play(layer: ModuleType, scenario: ir.Scenario) -> tuple[bool, list[str]]:
    """Play a scenario with its test layer; (True, []) or (False, lines explaining the
    failure, the end of the trace included)."""
    passed, detail, trace = played(layer, scenario)
    return passed, (detail + trace_tail(trace, TRACE_LINES) if not passed else [])


def played(layer: ModuleType, scenario: ir.Scenario) -> tuple[bool, list[str], list[str]]:
    """Play a scenario with its test layer: whether it passed, the lines explaining a
    failure, and the trace of what happened since it began.

    A scenario that scripts dice (has a `dice` step) scripts every roll: a roll with no
    scripted value left fails it, and so do dice a play leaves unrolled (the dice scripted
    since the previous play are that play's). An answer queued but never asked fails it too,
    so that a scenario cannot pass while testing nothing."""
    module = layer.production
    options = {st.target: st.values[0] for st in scenario.steps if st.kind == "option"}
    game = module.Game(scenario.players, seed=0, trace=True, options=options)
    script = _Script(module)
    game.strict_random(any(st.kind == "random" for st in scenario.steps))
    setup = _setup_randoms(scenario)
    for st in setup:
        game.script_random(st.values)
        script.randoms(st)
    try:
        game.start()
    except Exception as exc:  # a setup rule failed (a scripted random value, say): report it
        return False, [script.failed(game, None, exc)], _since(game, 0)
    game.clear_ledger()
    steps = layer.Steps(game)
    seats = list(range(scenario.players))
    policies = ["default"] * scenario.players  # until a `policy` step
    mark = len(game.trace())
    game.strict_rolls(any(st.kind == "dice" for st in scenario.steps))
    for st in scenario.steps:
        left = game.rolls_left()
        try:
            if st.kind == "random" and st not in setup:
                game.script_random(st.values)
                script.randoms(st)
            elif st.kind == "given":
                getattr(steps, st.function)(*seats)
                game.settle()  # an `end turn` reached there ends the block, not later steps
            elif st.kind == "dice":
                game.script_rolls(st.values, st.masks or None)
                script.dice(st)
            elif st.kind == "cards":
                game.stack_cards(module.DECK_NAMES.index(st.target), st.values)
            elif st.kind == "answer":
                game.force_answers(st.target, st.values, st.seat)
                script.answers(st)
            elif st.kind == "option":
                pass  # chosen when the game was created
            elif st.kind == "policy":
                for seat in (seats if st.seat < 0 else [st.seat]):
                    policies[seat] = st.target
                game.set_policies(policies)
            elif st.kind == "play":
                game.play_turn(getattr(steps, st.function)(*seats))
            elif st.kind == "not_asked":
                asked = _asked(game.trace()[mark:], st)
                if asked:
                    return False, [f"expect not asked {_decision(st)} ({_at(st)}): "
                                   f"{asked}"], _since(game, mark)
            elif st.kind in ("expect", "legal"):
                holds, value, other = getattr(steps, st.function)(*seats)
                if not holds:
                    script.rolled(left - game.rolls_left())
                    explained = (_explain(module, st, value, other) if st.kind == "expect"
                                 else _explain_legal(module, st, value))
                    return False, explained, _since(game, mark)
        except Exception as exc:  # a rule failed inside the scenario: report, do not crash
            script.rolled(left - game.rolls_left())
            return False, [script.failed(game, st, exc)], _since(game, mark)
        if st.kind != "dice":
            script.rolled(left - game.rolls_left())
        if st.kind == "play" and script.queued:
            return False, [script.unrolled(st)], _since(game, mark)
    unused = script.unused(game.answers_left()) + script.undrawn(game.random_left())
    if script.queued:
        unused.insert(0, script.unrolled(None))
    if unused:
        return False, unused, _since(game, mark)
    return True, [], _since(game, mark)


def _setup_randoms(scenario: ir.Scenario) -> list[ir.ScenarioStep]:
    """The `random` steps written first (only players, option and policy steps before them):
    the game's start (its setup rules) draws from them."""
    setup = []
    for st in scenario.steps:
        if st.kind not in ("players", "option", "policy", "random"):
            break
        if st.kind == "random":
            setup.append(st)
    return setup


def _decision(st: ir.ScenarioStep) -> str:
    """An answer's or `expect not asked` step's decision as written (`bid by p2`), which is
    also where the kernel queues the answers of that step."""
    return st.target if st.seat < 0 else forced_key(st.target, st.seat)


def _asked(trace: list[str], st: ir.ScenarioStep) -> str:
    """Who was asked the decision of a `expect not asked` step, from the trace; or ''."""
    for line in trace:
        who, _, rest = line.strip().partition(" decides ")
        if rest.split("=")[0] == st.target and (st.seat < 0 or who == f"p{st.seat + 1}"):
            return f"{who} was asked it"
    return ""


class _Script:
    """What a scenario scripted (dice and answers), in its own words, and what is left."""

    def __init__(self, module: ModuleType):
        self.module = module
        self.queued: list[tuple[ir.ScenarioStep, int]] = []  # dice not rolled yet
        self.rolls: list[tuple[ir.ScenarioStep, int]] = []  # and those rolled, in order
        self.asked: dict[str, list[tuple[ir.ScenarioStep, int]]] = {}
        self.random_values: list[tuple[ir.ScenarioStep, int]] = []  # random(n)'s, in order

    def dice(self, st: ir.ScenarioStep) -> None:
        self.queued += [(st, i) for i in range(len(st.values))]

    def answers(self, st: ir.ScenarioStep) -> None:
        self.asked.setdefault(_decision(st), []).extend((st, i) for i in range(len(st.values)))

    def randoms(self, st: ir.ScenarioStep) -> None:
        self.random_values += [(st, i) for i in range(len(st.values))]

    def rolled(self, count: int) -> None:
        self.rolls += self.queued[:count]
        del self.queued[:count]

    def value(self, st: ir.ScenarioStep, i: int) -> str:
        if st.kind == "answer" and st.values[i] == -1:
            return "none"
        return show(self.module, st.types[i] if st.types else "int", st.values[i])

    def step(self, st: ir.ScenarioStep) -> str:
        """`dice [2, fruit]` or `answer buy [true]`, as written (values by name)."""
        values = ", ".join(self.value(st, i) for i in range(len(st.values)))
        if st.kind != "answer":
            return f"{st.kind} [{values}]"
        return f"answer {_decision(st)} [{values}]"

    def failed(self, game, st: ir.ScenarioStep | None, exc: Exception) -> str:
        """A rule that failed at a step (or at the game's start, for None), in the
        scenario's words when a scripted roll or random value is the cause."""
        where = rules_location(self.module, exc)
        where = f" in {where}" if where else ""
        kind = type(exc).__name__
        if kind == "ScriptedRollError" and st is not None:
            return self.bad_roll(st, exc, where)
        at = f"step at {_at(st)} ({st.kind})" if st is not None else "the game's start"
        if kind == "ScriptedRandomError":
            bound = getattr(exc, "bound", 0)
            if getattr(exc, "value", None) is None:
                return (f"{at} drew random({bound}){where} with no scripted value left: the "
                        "scenario scripts random(n), so it must script every draw (the start "
                        "draws from the random steps written first, a play from those "
                        "before it)")
            drawn = len(self.random_values) - game.random_left()
            random_step, i = self.random_values[drawn - 1]
            return (f"{self.step(random_step)} ({_at(random_step)}): {random_step.values[i]} "
                    f"is not from 0 to {bound - 1}, which random({bound}){where} draws "
                    f"(at {at})")
        return f"{at} failed{where}: {kind}: {exc}"

    def undrawn(self, left: int) -> list[str]:
        """The scripted values of random(n) that no draw took, step by step."""
        return [self.left_over(st, indices, "drawn") for st, indices
                in _by_step(self.random_values[len(self.random_values) - left:] if left else ())]

    def left_over(self, st: ir.ScenarioStep, indices: list[int], verb: str,
                  partly: str = "") -> str:
        """A step whose values (these of them) the rules never took: `answer yes [true] (line
        12) was never asked`, or those values named, with `partly` after them."""
        if len(indices) == len(st.values):
            return f"{self.step(st)} ({_at(st)}) was never {verb}"
        return (f"{self.step(st)} ({_at(st)}): "
                f"{', '.join(self.value(st, i) for i in indices)} never {verb}{partly}")

    def bad_roll(self, st: ir.ScenarioStep, exc: Exception, where: str) -> str:
        """A scripted value that the die rolled cannot give, or a roll with none left."""
        die = self.module.DIE_NAMES[exc.die]  # type: ignore[attr-defined]
        if getattr(exc, "value", None) is None:
            return (f"{st.kind} at {_at(st)} rolled die {die}{where} with no scripted "
                    "roll left: the scenario scripts its dice, so it must script every roll "
                    "(a dice step before the play)")
        dice_step, i = self.rolls[-1]
        return (f"{self.step(dice_step)} ({_at(dice_step)}): {self.value(dice_step, i)} "
                f"is not a face of die {die}, which the rules rolled{where} "
                f"(at {_at(st)}, {st.kind})")

    def unrolled(self, play_step: ir.ScenarioStep | None) -> str:
        """Scripted dice left over after a play (or at the end): a mistake in the scenario."""
        parts = [f"{', '.join(self.value(st, i) for i in indices)} of {self.step(st)} "
                 f"({_at(st)})" for st, indices in _by_step(self.queued)]
        after = (f": the play at {_at(play_step)} did not roll them"
                 if play_step is not None else "")
        return f"scripted dice never rolled: {'; '.join(parts)}{after}"

    def unused(self, left: dict[str, list[int]]) -> list[str]:
        """The queued answers that no decision took, step by step."""
        lines = []
        for name, queue in self.asked.items():
            count = len(left.get(name, ()))
            if not count:
                continue
            lines += [self.left_over(st, indices, "asked",
                                     f" ({name} was asked {_times(len(queue) - count)})")
                      for st, indices in _by_step(queue[len(queue) - count:])]
        return lines


def _by_step(scripted) -> list[tuple[ir.ScenarioStep, list[int]]]:
    """Scripted values, as (step, index) pairs, grouped by the step that scripted them."""
    groups: dict[int, tuple[ir.ScenarioStep, list[int]]] = {}
    for st, i in scripted:
        groups.setdefault(id(st), (st, []))[1].append(i)
    return list(groups.values())


def _explain(module: ModuleType, st: ir.ScenarioStep, left, right) -> list[str]:
    """A failed expectation, with expected against actual when it compares two values."""
    lines = [f"expectation failed ({_at(st)}): {st.text}"]
    if st.left_type:
        actual, other = show(module, st.left_type, left), show(module, st.right_type, right)
        found = f"{st.left_text or 'the left side'} is {actual}"
        if st.right_text != other:
            found += f", {st.right_text or 'the right side'} is {other}"
        lines += [f"  expected: {st.text}", f"  actual:   {found}"]
    return lines


def _explain_legal(module: ModuleType, st: ir.ScenarioStep, value) -> list[str]:
    """A failed `expect legal(...)`: the rules refused the answer (or accepted it)."""
    shown = show(module, st.left_type, value)
    verdicts = ("refuse", "accept") if st.negated else ("accept", "refuse")
    return [f"expectation failed ({_at(st)}): {st.text}",
            f"  expected: the rules {verdicts[0]} {shown}",
            f"  actual:   they {verdicts[1]} it"]


def _at(st: ir.ScenarioStep) -> str:
    """Where a step is written: `line 12` of the scenario's file, or `scenarios/fixtures.rules:8`
    for a step from a fixture of another file."""
    return f"{st.file}:{st.line}" if st.file else f"line {st.line}"


def _since(game, mark: int) -> list[str]:
    return [line.strip() for line in game.trace()[mark:]]


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


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"
