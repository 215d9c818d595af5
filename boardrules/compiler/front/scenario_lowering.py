"""Lower a program's scenarios into the test layer's IR, apart from the production program.

A scenario's given blocks, the player each play step gives and its expectations
become functions of their own, and so do the aggregates lifted while lowering
them: none of it goes into `Program.functions` or `Program.aggregates`, so the
production module does not carry them and editing a scenario changes none of
the code that simulations run. `codegen.generate_scenarios` renders them into
the interpreted test layer that the harness runs.

Scripted dice and answers are checked here too: each `dice` value must be a face of a die
(a number of a numbered die, a named face of a die of that enum), each `answer` must be of
the decision's type (and a constant: true/false, a number, none, a space, card, group or
enum member, a seat p1.., `cell_at(x, y)`). Once the whole program is lowered,
`check_scenario_dice` checks the order of the dice each play step rolls against the order
the rules roll them in (`roll_order.py`). What depends on the game is checked when the
scenario runs (`harness/scenarios.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..common.diagnostics import Reporter, Span, did_you_mean
from ..common.error_codes import ErrorCode
from ..ir import nodes as ir
from ..ir.nodes import BOOL, INT, NONE, STR, VOID, Type
from . import ast
from .expressions import fold
from .primitives import ERROR, assignable
from .quotes import quoted_units
from .roll_order import RollOrder, may_roll, roll_order
from .scope import Scope, declared_locals
from .symbols import article, resolve_type

if TYPE_CHECKING:
    from .checker import Checker

CHECK = Type("check")  # an expectation's result: (holds, left value, right value)
AGGREGATE_PREFIX = "scenario_agg_"  # apart from the program's agg_<n>


@dataclass(frozen=True)
class LoweredScenarios:
    """The scenarios' metadata, and the step functions and aggregates they run."""

    scenarios: tuple[ir.Scenario, ...]
    functions: tuple[ir.Function, ...]
    aggregates: tuple[ir.Aggregate, ...]


def scenario_targets(checker: Checker) -> set[str]:
    """What a scenario may test: a rule, or any other definition that quotes the rulebook."""
    return set(checker.s.rules) | set(quoted_units(checker.s))


def lower_scenarios(checker: Checker, props: dict, dice: tuple[ir.Die, ...] = ()
                    ) -> LoweredScenarios:
    """Check and lower every scenario with the checker's name and type rules."""
    lowering = _ScenarioLowering(checker, props, dice)
    aggregates: list[ir.Aggregate] = []
    with checker.lifting_into(aggregates, AGGREGATE_PREFIX):
        scenarios = tuple(lowering.scenario(i, sc) for i, sc in enumerate(checker.s.scenarios))
    return LoweredScenarios(scenarios, tuple(lowering.functions), tuple(aggregates))


# what a `policy` step may give the seats: the default strategy, random legal answers, or
# doing nothing (`none`, false) where a decision allows it (docs/language.md, section 20)
SCENARIO_POLICIES = {"default": "", "random": "", "passive": ""}


class _ScenarioLowering:
    def __init__(self, checker: Checker, props: dict, dice: tuple[ir.Die, ...]):
        self.c = checker
        self.s = checker.s
        self.report = checker.report
        self.props = props
        self.targets = scenario_targets(checker)
        self.functions: list[ir.Function] = []
        self.dice = dice
        self.face_types = {die.name: self._face_type(die.name) for die in dice}

    def _face_type(self, die: str) -> str:
        """`int` for a numbered die, the enum's name for a die of named faces."""
        faces = self.s.dice[die].faces
        if not faces:
            return INT.name
        saved, self.c.report = self.c.report, Reporter()  # the die's own errors are reported
        try:
            return self.c.expr(faces[0], Scope("", VOID)).type.name
        finally:
            self.c.report = saved

    def known(self, table: dict, what: str, st: ast.ScenarioStep) -> bool:
        """Whether the step names a known deck, decision, option or policy (an error if
        not)."""
        if st.name in table:
            return True
        self.report.error(st.span, f"unknown {what} '{st.name}'", did_you_mean(st.name, set(table)),
                          code=ErrorCode.SCENARIO_UNKNOWN)
        return False

    def check_exclusions(self, sc: ast.Scenario, steps: list[ir.ScenarioStep]) -> None:
        """A scenario plays one variant: no two options it chooses (other than their
        defaults) exclude each other. The error is at the step that chose the second."""
        c, s = self.c, self.s
        chosen: dict[str, int] = {}
        for st in steps:
            if st.kind != "option":
                continue
            option = s.options[st.target]
            if st.values[0] == c.constant(option.default, resolve_type(option.type, s,
                                                                        self.report))[0]:
                chosen.pop(st.target, None)
                continue
            chosen[st.target] = st.line
            for a, b in c.option_exclusions:
                other = b if a == st.target else a if b == st.target else ""
                if other in chosen:
                    step = next(x for x in sc.steps if x.kind == "option"
                                and x.span.line == st.line and self.file_of(sc, x) == st.file)
                    self.report.error(step.span, f"options '{other}' and '{st.target}' "
                                      "exclude each other", "a scenario plays one variant",
                                      code=ErrorCode.EXCLUDED_OPTIONS)

    def scenario(self, index: int, sc: ast.Scenario) -> ir.Scenario:
        if sc.rule not in self.targets:
            self.report.error(sc.span, f"scenario tests unknown rule '{sc.rule}'",
                              did_you_mean(sc.rule, self.targets), code=ErrorCode.SCENARIO_UNKNOWN)
        count = next((st.count for st in sc.steps if st.kind == "players"), 2)
        low, high = self.props.get("players", (2, 4))
        if not low <= count <= high:
            self.report.error(sc.span, f"the edition is for {low} to {high} players, not {count}",
                              code=ErrorCode.SCENARIO_PLAYERS)
            count = max(low, min(count, high))  # check the steps as if the count were right
        seats = tuple((f"p{i + 1}", Type("player")) for i in range(count))
        steps: list[ir.ScenarioStep] = []
        for k, st in enumerate(sc.steps):
            first = len(steps)
            self.step(sc, f"scenario_{index}_{k}", st, seats, steps)
            if self.file_of(sc, st):  # from a fixture of another file
                steps[first:] = [replace(x, file=self.file_of(sc, st)) for x in steps[first:]]
        self.check_exclusions(sc, steps)
        return ir.Scenario(index, sc.title, sc.rule, count, tuple(steps), sc.span.path,
                           sc.span.line, sc.suite)

    def file_of(self, sc: ast.Scenario, st: ast.ScenarioStep) -> str:
        """The file of a step from a fixture of another file, as a failure names it: from
        the edition's folder (`scenarios/fixtures.rules`), or its name when it lies
        elsewhere (a library); "" for a step of the scenario's own file."""
        path = Path(st.span.path)
        if st.span.path == sc.span.path:
            return ""
        edition = self.s.edition
        folder = Path(edition.span.path).parent if edition else path.parent
        return path.relative_to(folder).as_posix() if path.is_relative_to(folder) else path.name

    def step(self, sc: ast.Scenario, name: str, st: ast.ScenarioStep,
             seats: tuple[tuple[str, Type], ...], steps: list[ir.ScenarioStep]) -> None:
        """Lower one step of the scenario `sc` into `steps` (none when it is wrong)."""
        c, s = self.c, self.s
        line = st.span.line
        scope = Scope(name, VOID, dict(seats))
        if st.kind == "given":
            body = c.block(st.body, scope)
            self.functions.append(ir.Function(name, seats, VOID, body,
                                              declared_locals(scope, seats),
                                              f"scenario {sc.title!r} given"))
            steps.append(ir.ScenarioStep("given", line, function=name))
        elif st.kind == "dice":
            steps.append(self.dice_step(st, line))
        elif st.kind == "random":
            steps.append(self.random_step(st, line))
        elif st.kind == "cards":
            if not self.known(s.decks, "deck", st):
                return
            deck = s.decks[st.name]
            members = {card.name for card in deck.cards}
            for card in st.names:
                if card not in members:
                    self.report.error(st.span, f"deck '{st.name}' has no card '{card}'",
                                      did_you_mean(card, members),
                                      code=ErrorCode.SCENARIO_UNKNOWN)
            steps.append(ir.ScenarioStep(
                "cards", line, target=st.name,
                values=tuple(c.card_index[n] for n in st.names if n in c.card_index)))
        elif st.kind == "answer":
            if not self.known(s.decisions, "decision", st):
                return
            c.used.add(f"decision:{st.name}")
            steps.append(self.answer_step(st, scope, line))
        elif st.kind == "option":
            if not self.known(s.options, "option", st):
                return
            option = s.options[st.name]
            otype = resolve_type(option.type, s, self.report)
            value = int(c.constant(st.exprs[0], otype)[0])
            bounds = c.option_ranges.get(st.name)  # worked out with the counters
            if bounds and not bounds[0] <= value <= bounds[1]:
                self.report.error(st.exprs[0].span, f"option '{st.name}' takes {bounds[0]} "
                                  f"to {bounds[1]}, not {value}",
                                  code=ErrorCode.OPTION_RANGE)
            steps.append(ir.ScenarioStep("option", line, target=st.name, values=(value,)))
        elif st.kind == "policy":
            if self.known(SCENARIO_POLICIES, "policy", st):
                steps.append(ir.ScenarioStep("policy", line, target=st.name,
                                             seat=self.seat(st, scope)))
        elif st.kind == "play":
            value = c.expr(st.exprs[0], scope)
            c._expect(value.type, Type("player"), st.exprs[0].span)
            self.functions.append(ir.Function(name, seats, Type("player"),
                                              (ir.Return(st.span, value),), (),
                                              f"scenario {sc.title!r} play"))
            steps.append(ir.ScenarioStep("play", line, function=name))
        elif st.kind == "expect":
            steps.append(self.expectation(name, st, scope, seats, line))
        elif st.kind == "legal":
            steps.append(self.legal(name, st, scope, seats, line))
        elif st.kind == "not_asked" and self.known(s.decisions, "decision", st):
            steps.append(ir.ScenarioStep("not_asked", line, target=st.name,
                                         seat=self.seat(st, scope)))

    def expectation(self, name: str, st: ast.ScenarioStep, scope: Scope, seats, line: int
                    ) -> ir.ScenarioStep:
        """An expectation lowers to one function giving (holds, left value, right value):
        the operands of a comparison are kept to show expected against actual."""
        expr = st.exprs[0]
        value = self.c.expr(expr, scope)
        self.c._expect(value.type, BOOL, expr.span)
        zero = ir.Const(INT, 0)
        body: tuple[ir.Stmt, ...] = (ir.Return(st.span, ir.Check(CHECK, value, zero, zero)),)
        types, texts, declared = ["", ""], ["", ""], ()
        if isinstance(value, ir.Binary) and value.op in ir.COMPARISONS and STR not in (
            value.left.type, value.right.type
        ):
            types = [value.left.type.name, value.right.type.name]
            declared = tuple((side, Type(operand.type.name if operand.type.name != "none"
                                         else "int"))
                             for side, operand in (("left", value.left), ("right", value.right)))
            left, right = (ir.Local(t, n) for n, t in declared)
            body = (ir.Declare(st.span, "left", declared[0][1], value.left),
                    ir.Declare(st.span, "right", declared[1][1], value.right),
                    ir.Return(st.span, ir.Check(CHECK, ir.Binary(BOOL, value.op, left, right),
                                                left, right)))
            if isinstance(expr, ast.BinOp) and expr.span.line == expr.span.end_line:
                start = expr.span.column
                texts = [st.text[:expr.left.span.end_column - start].strip(),
                         st.text[expr.right.span.column - start:].strip()]
        self.functions.append(ir.Function(name, seats, CHECK, body, declared,
                                          f"expect {st.text}"))
        return ir.ScenarioStep("expect", line, function=name, text=st.text,
                               left_type=types[0], right_type=types[1],
                               left_text=texts[0], right_text=texts[1])

    # ---- scripted dice ------------------------------------------------------------------
    def dice_step(self, st: ast.ScenarioStep, line: int) -> ir.ScenarioStep:
        """The values, each with its type and the dice it is a face of (an error if none)."""
        values, types, masks = [], [], []
        for e in st.exprs:
            value, vtype = self.c.constant(e)
            values.append(int(value))
            types.append(vtype.name)
            masks.append(self.faces_of(int(value), vtype, e.span))
        return ir.ScenarioStep("dice", line, values=tuple(values), types=tuple(types),
                               masks=tuple(masks), spans=tuple(e.span for e in st.exprs))

    def random_step(self, st: ast.ScenarioStep, line: int) -> ir.ScenarioStep:
        """The values random(n) gives next: whole numbers from 0, known while compiling."""
        values = []
        for e in st.exprs:
            value = int(self.c.constant(e, INT)[0])
            if value < 0:
                self.report.error(e.span, f"random(n) gives a number from 0 to n - 1, not {value}",
                                  code=ErrorCode.BAD_RANDOM)
            values.append(max(0, value))
        return ir.ScenarioStep("random", line, values=tuple(values),
                               spans=tuple(e.span for e in st.exprs))

    def faces_of(self, value: int, vtype: Type, span: Span) -> int:
        """The dice (a bit per die) that have this value as a face."""
        if vtype == ERROR:
            return -1
        if vtype.optional or not (vtype == INT or vtype.name in self.s.enums):
            given = "none" if vtype == NONE else article(str(vtype))
            self.report.error(span, f"a die's face is a number or an enum member, not {given}",
                              _dice_hint(self.dice, self.face_types, self.s),
                              code=ErrorCode.NOT_A_FACE)
            return -1
        mask = 0
        for die in self.dice:
            if self.face_types[die.name] == vtype.name and value in die.faces:
                mask |= 1 << die.index
        if not mask:
            shown = _shown(self.s, vtype.name, value)
            self.report.error(span, f"{shown} is not a face of any die",
                              _dice_hint(self.dice, self.face_types, self.s),
                              code=ErrorCode.NOT_A_FACE)
            return -1
        return mask

    # ---- forced answers -----------------------------------------------------------------
    def answer_step(self, st: ast.ScenarioStep, scope: Scope, line: int) -> ir.ScenarioStep:
        decision = self.s.decisions[st.name]
        answer = self.c._decision_type(decision)
        values = tuple(self.answer(decision, answer, e, scope) for e in st.exprs)
        return ir.ScenarioStep("answer", line, target=st.name, values=values,
                               types=(answer.name,) * len(values), seat=self.seat(st, scope))

    def seat(self, st: ast.ScenarioStep, scope: Scope) -> int:
        """`answer D by p2 [...]`: the seat whose decisions take the answers (-1: anyone's)."""
        if not st.names:
            return -1
        name = st.names[0]
        local = scope.variables.get(name)
        if local is None or local != Type("player") or not name[1:].isdigit():
            seats = ", ".join(n for n, t in scope.variables.items() if t == Type("player"))
            self.report.error(st.seat_span or st.span, f"'{name}' is not a seat of this scenario",
                              f"the seats are {seats}", code=ErrorCode.SCENARIO_UNKNOWN)
            return -1
        return int(name[1:]) - 1

    def answer(self, decision: ast.DecisionDecl, answer: Type, e: ast.Expr, scope: Scope
               ) -> int:
        """One queued answer: of the decision's type, and known while compiling."""
        value = self.c.expr(e, scope)
        if isinstance(value, ir.KernelCall) and value.function == "k_cell_at":
            value = self.cell(value, e.span)
        if value.type == ERROR:
            return 0
        if not assignable(value.type, answer):
            self.report.error(e.span, _wrong_answer(decision.name, answer, value.type),
                              _answer_hint(decision, answer), code=ErrorCode.BAD_ANSWER)
            return 0
        if isinstance(value, ir.Local) and value.name in scope.variables:  # a seat, p1..
            return int(value.name[1:]) - 1
        known = fold(value)
        if known is None:
            self.report.error(e.span, "an answer must be a constant known when compiling",
                              _answer_hint(decision, answer), code=ErrorCode.NOT_CONSTANT)
            return 0
        if decision.kind == "int" and known != -1:
            self.check_bounds(decision, int(known), e.span)
        return int(known)

    def cell(self, call: ir.KernelCall, span: Span) -> ir.Expr:
        """`cell_at(x, y)` with constant x and y: that cell (it must be on the grid)."""
        x, y = (fold(a) for a in call.args)
        width, count = self.c.grid_width, self.c.cell_count
        if x is None or y is None:
            return call
        if not (0 <= x < width and 0 <= y < count // max(width, 1)):
            self.report.error(span, f"cell_at({x}, {y}) is not on the grid",
                              f"the grid is {width} x {count // max(width, 1)}, from "
                              f"cell_at(0, 0)", code=ErrorCode.OFF_GRID)
            return ir.Const(ERROR, 0)
        return ir.Const(Type("cell"), y * width + x)

    def check_bounds(self, decision: ast.DecisionDecl, value: int, span: Span) -> None:
        """An answer to an `int from A to B` decision, when A and B are constants."""
        saved, self.c.report = self.c.report, Reporter()  # the decision's own errors are its
        try:
            scope = Scope("", VOID, dict(self.c._params(decision.params)))
            low, high = (fold(self.c.expr(b, scope)) for b in (decision.low, decision.high))
        finally:
            self.c.report = saved
        if low is not None and value < low or high is not None and value > high:
            self.report.error(span, f"{value} is not an answer to '{decision.name}'",
                              f"its answers are from {_bound(low)} to {_bound(high)}",
                              code=ErrorCode.BAD_ANSWER)

    # ---- legal answers ------------------------------------------------------------------
    def legal(self, name: str, st: ast.ScenarioStep, scope: Scope, seats, line: int
              ) -> ir.ScenarioStep:
        """`expect legal(d(args), value)`: whether the rules accept that answer now. Lowers
        to (holds, value, 0); the test layer asks the decision with the answer forced."""
        ask, value_expr = st.exprs
        call = self.c.expr(ask, scope)
        value = self.c.expr(value_expr, scope)
        if not isinstance(call, ir.CallProc):
            return ir.ScenarioStep("legal", line, text=st.text)
        decision = self.s.decisions[st.name]
        if value.type != ERROR and not assignable(value.type, call.type):
            self.report.error(value_expr.span, _wrong_answer(st.name, call.type, value.type),
                              _answer_hint(decision, call.type), code=ErrorCode.BAD_ANSWER)
        kept = Type(call.type.name if call.type.name != "none" else "int")
        answer = ir.Local(kept, "left")
        holds: ir.Expr = ir.KernelCall(BOOL, "k_legal",
                                       (ir.Const(STR, st.name), answer, *call.args))
        if st.negated:
            holds = ir.Unary(BOOL, "not", holds)
        zero = ir.Const(INT, 0)
        body = (ir.Declare(st.span, "left", kept, value),
                ir.Return(st.span, ir.Check(CHECK, holds, answer, zero)))
        self.functions.append(ir.Function(name, seats, CHECK, body, (("left", kept),),
                                          f"expect {st.text}"))
        return ir.ScenarioStep("legal", line, function=name, target=st.name, text=st.text,
                               left_type=call.type.name, negated=st.negated)


def _shown(s, type_name: str, value: int) -> str:
    """A constant as written in the rules: a number, or an enum member's name."""
    if type_name in s.enums and 0 <= value < len(s.enums[type_name].members):
        return s.enums[type_name].members[value]
    return str(value)


def _faces(s, type_name: str, faces: tuple[int, ...]) -> str:
    if type_name == INT.name and faces and list(faces) == list(range(faces[0], faces[-1] + 1)):
        return f"{faces[0]} to {faces[-1]}"
    return ", ".join(dict.fromkeys(_shown(s, type_name, f) for f in faces))


def _dice_hint(dice: tuple[ir.Die, ...], face_types: dict[str, str], s) -> str:
    if not dice:
        return "the edition declares no die"
    return "faces: " + "; ".join(f"{die.name} {_faces(s, face_types[die.name], die.faces)}"
                                 for die in dice)


def _wrong_answer(decision: str, answer: Type, given: Type) -> str:
    if given == NONE:
        return f"'{decision}' cannot be answered none: it is not optional"
    return f"an answer to '{decision}' is {article(str(answer))}, not {article(str(given))}"


def _answer_hint(decision: ast.DecisionDecl, answer: Type) -> str:
    none = ", or none" if decision.optional else ""
    if decision.kind == "bool":
        return f"'{decision.name}' is a yes/no decision: answer true or false"
    if decision.kind == "int":
        return f"answer a number{none}"
    named = {"player": "a seat (p1, p2...)", "cell": "cell_at(x, y)"}
    return f"answer {named.get(answer.name, f'a {answer.name} by its name')}{none}"


def _bound(value: int | None) -> str:
    return "?" if value is None else str(value)


# ---- the order of the dice, once the program is lowered ------------------------------------

def check_scenario_dice(program: ir.Program, reporter: Reporter) -> None:
    """The dice each play step rolls, against the order the rules can roll them in.

    The dice scripted since the previous play are that play's (the harness fails a play
    that leaves some unrolled), rolled from its first roll on, so they must follow a path of
    the rules' roll automaton (`roll_order.py`) from a turn's first roll, and end where a
    turn may stop rolling. A value whose dice no rule rolls is an error too. Where a given
    or an expectation in between may roll, the segment is left to the run."""
    scripted = [st for sc in program.scenarios for st in sc.steps if st.kind == "dice"]
    if not scripted:
        return
    order = roll_order(program)
    rolled = {die for die in order.dice if die >= 0}
    names = [die.name for die in program.dice]
    for st in scripted:
        for value, vtype, mask, span in zip(st.values, st.types, st.masks, st.spans,
                                            strict=True):
            if mask != -1 and not any(mask >> die & 1 for die in rolled):
                dice = [names[d] for d in range(len(names)) if mask >> d & 1]
                reporter.error(span, f"{_named(program, vtype, value)} is a face of "
                               f"{_die_list(dice)}, which no rule rolls",
                               "script the dice the rules roll", code=ErrorCode.DICE_ORDER)
    steps = {f.name: f for f in program.scenario_functions}
    for sc in program.scenarios:
        segment: list[tuple[ir.ScenarioStep, int]] = []
        blind = False  # a step in between may roll some of the segment's dice
        for st in sc.steps:
            if st.kind == "dice":
                segment += [(st, i) for i in range(len(st.values))]
            elif st.kind == "play":
                if segment and not blind and all(s.masks[i] != -1 for s, i in segment):
                    _check_throw(program, order, segment, reporter)  # (-1: already an error)
                segment, blind = [], False
            elif st.function and segment and may_roll(order, steps[st.function]):
                blind = True
        if segment and not blind:
            st, i = segment[0]
            reporter.error(st.spans[i], "these dice are never rolled: no play step follows",
                           "script a play's dice before its play step", code=ErrorCode.DICE_ORDER)


def _check_throw(program: ir.Program, order: RollOrder,
                 segment: list[tuple[ir.ScenarioStep, int]], reporter: Reporter) -> None:
    names = [die.name for die in program.dice]
    current = order.turn.first
    matched: set[int] = set()
    previous = ""
    may_end = ""  # the last value after which the turn may end, if one came before the last
    for k, (st, i) in enumerate(segment):
        mask, shown = st.masks[i], _named(program, st.types[i], st.values[i])
        matched = {site for site in current
                   if order.dice[site] < 0 or mask >> order.dice[site] & 1}
        if not matched:
            if not current:
                reporter.error(st.spans[i], "one die too many: the turn rolls no die " + (
                    f"after {previous}" if previous else "at all"),
                    "script only the dice the play rolls", code=ErrorCode.DICE_ORDER)
                return
            expected = sorted({names[order.dice[site]] for site in current})
            when = "first" if k == 0 else f"after {previous}"
            its = [names[d] for d in range(len(names)) if mask >> d & 1]
            reporter.error(st.spans[i], f"{shown} is not a face of {_die_list(expected)}, "
                           f"which the turn rolls {when}",
                           f"{shown} is a face of {_die_list(its)}: script the dice in the "
                           f"order the rules roll them" if its else
                           "script the dice in the order the rules roll them",
                           code=ErrorCode.DICE_ORDER)
            return
        previous = shown
        if k < len(segment) - 1 and any(order.turn_ends_after(site) for site in matched):
            may_end = f"the {_ordinal(k + 1)} value ({shown})"
        current = frozenset(s for site in matched for s in order.follow.get(site, ()))
    if not any(order.turn_ends_after(site) for site in matched):
        st, i = segment[-1]
        expected = sorted({names[order.dice[site]] for site in current if order.dice[site] >= 0})
        reporter.error(st.spans[i], f"too few dice: after {previous} the turn goes on to "
                       f"roll {_die_list(expected)}",
                       "script every die the play rolls: the scenario must not depend on the "
                       "seed" + (f"; or, if the turn ends after {may_end}, drop the dice after "
                                 "it" if may_end else ""), code=ErrorCode.DICE_ORDER)


def _named(program: ir.Program, type_name: str, value: int) -> str:
    members = program.enums.get(type_name)
    return members[value] if members and 0 <= value < len(members) else str(value)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _die_list(dice: list[str]) -> str:
    if len(dice) == 1:
        return f"die {dice[0]}"
    return "dice " + ", ".join(dice[:-1]) + f" or {dice[-1]}"
