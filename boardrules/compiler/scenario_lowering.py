"""Lower a program's scenarios into the test layer's IR, apart from the production program.

A scenario's given blocks, the player each play step gives and its expectations
become functions of their own, and so do the aggregates lifted while lowering
them: none of it goes into `Program.functions` or `Program.aggregates`, so the
production module does not carry them and editing a scenario changes none of
the code that simulations run. `codegen.generate_scenarios` renders them into
the interpreted test layer that the harness runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import ast, ir
from .diagnostics import did_you_mean
from .ir import BOOL, INT, STR, VOID, Type
from .quotes import quoted_units
from .scope import Scope, declared_locals
from .symbols import resolve_type

if TYPE_CHECKING:
    from .checker import Checker

CHECK = Type("check")  # an expectation's result: (holds, left value, right value)
COMPARISON = {"==", "!=", "<", "<=", ">", ">="}
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


def lower_scenarios(checker: Checker, props: dict) -> LoweredScenarios:
    """Check and lower every scenario with the checker's name and type rules."""
    lowering = _ScenarioLowering(checker, props)
    aggregates: list[ir.Aggregate] = []
    with checker.lifting_into(aggregates, AGGREGATE_PREFIX):
        scenarios = tuple(lowering.scenario(i, sc) for i, sc in enumerate(checker.s.scenarios))
    return LoweredScenarios(scenarios, tuple(lowering.functions), tuple(aggregates))


class _ScenarioLowering:
    def __init__(self, checker: Checker, props: dict):
        self.c = checker
        self.s = checker.s
        self.report = checker.report
        self.props = props
        self.targets = scenario_targets(checker)
        self.functions: list[ir.Function] = []

    def known(self, table: dict, what: str, st: ast.ScenarioStep) -> bool:
        """Whether the step names a known deck, decision or option (an error if not)."""
        if st.name in table:
            return True
        self.report.error(st.span, f"unknown {what} '{st.name}'", did_you_mean(st.name, set(table)))
        return False

    def scenario(self, index: int, sc: ast.Scenario) -> ir.Scenario:
        c, s = self.c, self.s
        if sc.rule not in self.targets:
            self.report.error(sc.span, f"scenario tests unknown rule '{sc.rule}'",
                              did_you_mean(sc.rule, self.targets))
        count = next((st.count for st in sc.steps if st.kind == "players"), 2)
        low, high = self.props.get("players", (2, 4))
        if not low <= count <= high:
            self.report.error(sc.span, f"the edition is for {low} to {high} players, not {count}")
            count = max(low, min(count, high))  # check the steps as if the count were right
        seats = tuple((f"p{i + 1}", Type("player")) for i in range(count))
        steps: list[ir.ScenarioStep] = []
        for k, st in enumerate(sc.steps):
            name = f"scenario_{index}_{k}"
            line = st.span.line
            scope = Scope(name, VOID, dict(seats))
            if st.kind == "given":
                body = c.block(st.body, scope)
                self.functions.append(ir.Function(name, seats, VOID, body,
                                                  declared_locals(scope, seats),
                                                  f"scenario {sc.title!r} given"))
                steps.append(ir.ScenarioStep("given", line, function=name))
            elif st.kind == "dice":
                steps.append(ir.ScenarioStep("dice", line, values=tuple(
                    c.constant(e)[0] for e in st.exprs)))
            elif st.kind == "cards":
                if not self.known(s.decks, "deck", st):
                    continue
                deck = s.decks[st.name]
                members = {card.name for card in deck.cards}
                for card in st.names:
                    if card not in members:
                        self.report.error(st.span, f"deck '{st.name}' has no card '{card}'",
                                          did_you_mean(card, members))
                steps.append(ir.ScenarioStep(
                    "cards", line, target=st.name,
                    values=tuple(c.card_index[n] for n in st.names if n in c.card_index)))
            elif st.kind == "answer":
                if not self.known(s.decisions, "decision", st):
                    continue
                c.used.add(f"decision:{st.name}")
                steps.append(ir.ScenarioStep("answer", line, target=st.name, values=tuple(
                    int(c.constant(e)[0]) for e in st.exprs)))
            elif st.kind == "option":
                if not self.known(s.options, "option", st):
                    continue
                option = s.options[st.name]
                otype = resolve_type(option.type, s, self.report)
                steps.append(ir.ScenarioStep("option", line, target=st.name, values=(
                    int(c.constant(st.exprs[0], otype)[0]),)))
            elif st.kind == "play":
                value = c.expr(st.exprs[0], scope)
                c._expect(value.type, Type("player"), st.exprs[0].span)
                self.functions.append(ir.Function(name, seats, Type("player"),
                                                  (ir.Return(st.span, value),), (),
                                                  f"scenario {sc.title!r} play"))
                steps.append(ir.ScenarioStep("play", line, function=name))
            elif st.kind == "expect":
                steps.append(self.expectation(name, st, scope, seats, line))
        return ir.Scenario(index, sc.title, sc.rule, count, tuple(steps), sc.span.path,
                           sc.span.line)

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
        if isinstance(value, ir.Binary) and value.op in COMPARISON and STR not in (
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
