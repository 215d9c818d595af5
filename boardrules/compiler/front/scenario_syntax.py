"""Pass 1, scenarios: the parse tree of scenarios and fixtures -> frozen AST nodes.

The base of the parser's transformer (parser._ToAst), kept apart so that each stays a
module of one concern; it holds the file's path and text that every node's span needs.
"""

from __future__ import annotations

from lark import Token, v_args
from lark.visitors import Transformer_NonRecursive

from ..common.diagnostics import Span
from . import ast
from .literals import int_literal, token_span, unquote


@v_args(meta=True)
class ScenarioSyntax(Transformer_NonRecursive):
    """The scenario steps, `scenario` and `fixture`, as methods named after the grammar's
    rules."""

    def __init__(self, path: str, text: str = ""):
        super().__init__()
        self.path = path
        self.text = text

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.path, 0, 0, 0, 0)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _str(self, token: Token) -> str:
        return unquote(token, self.path)

    def sc_players(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "players", count=int_literal(c[0], self.path))

    def sc_given(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "given", body=c[0])

    def sc_dice(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "dice", exprs=tuple(c))

    def sc_random(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "random", exprs=tuple(c))

    def sc_cards(self, meta, c):
        return ast.ScenarioStep(
            self._span(meta), "cards", name=str(c[0]), names=tuple(str(t) for t in c[1:])
        )

    def sc_answer(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "answer", name=str(c[0]), exprs=tuple(c[1:]))

    def sc_answer_by(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "answer", name=str(c[0]), exprs=tuple(c[2:]),
                                names=(str(c[1]),), seat_span=token_span(self.path, c[1]))

    def sc_option(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "option", name=str(c[0]), exprs=(c[1],))

    def sc_policy(self, meta, c):
        """`policy passive` (every seat) or `policy p2 passive` (one seat)."""
        seat = (str(c[0]),) if len(c) > 1 else ()
        return ast.ScenarioStep(self._span(meta), "policy", name=str(c[-1]), names=seat,
                                seat_span=token_span(self.path, c[0]) if seat else None)

    def sc_play(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "play", exprs=(c[0],))

    def sc_expect(self, meta, c):
        source = self.text[meta.start_pos:meta.end_pos] if self.text else ""
        text = source.split("expect", 1)[-1].strip()
        return ast.ScenarioStep(self._span(meta), "expect", exprs=(c[0],), text=text)

    def ask_call(self, meta, c):
        return ast.Ask(self._span(meta), str(c[0]), c[1] if len(c) > 1 else ())

    def sc_not_asked(self, meta, c):
        seat = (str(c[1]),) if len(c) > 1 else ()
        return ast.ScenarioStep(self._span(meta), "not_asked", name=str(c[0]), names=seat,
                                seat_span=token_span(self.path, c[1]) if seat else None)

    def sc_legal(self, meta, c):
        return self._legal(meta, c, negated=False)

    def sc_not_legal(self, meta, c):
        return self._legal(meta, c, negated=True)

    def _legal(self, meta, c, negated: bool):
        source = self.text[meta.start_pos:meta.end_pos] if self.text else ""
        text = source.split("expect", 1)[-1].strip()
        return ast.ScenarioStep(self._span(meta), "legal", name=c[0].decision, exprs=(c[0], c[1]),
                                text=text, negated=negated)

    def sc_use(self, meta, c):
        return ast.ScenarioStep(self._span(meta), "use", name=str(c[0]))

    def scenario(self, meta, c):
        return ast.Scenario(self._span(meta), self._str(c[0]), str(c[1]), tuple(c[2:]))

    def fixture(self, meta, c):
        return ast.Fixture(self._span(meta), str(c[0]), tuple(c[1:]))
