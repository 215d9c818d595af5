"""Defects found by probing the compiler and runtime with hostile rules files: each is a
located error or works the same on both backends (issue: reliability)."""

from __future__ import annotations

import pytest

from boardrules.compiler.codegen import generate
from boardrules.compiler.error_codes import ErrorCode as E

DATA = "counter pot: int = 0\n"


def interpreted(editions, body: str) -> dict:
    """The generated module of an edition, run by CPython (no build needed)."""
    compilation = editions.compile(body, until="codegen")
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(generate(compilation.program, "ed.rules"), "<generated>", "exec"), namespace)
    return namespace


def test_a_logged_new_line_cannot_forge_trace_lines(editions):
    module = interpreted(editions, DATA + (
        'rule r { on turn(p: player) { log("fine\\n  pay bank->p1 1000") } }\n'))
    game = module["Game"](2, seed=1, trace=True)
    game.play(1)
    logged = [line for line in game.trace() if "fine" in line]
    assert logged == ["  fine\\n  pay bank->p1 1000"]
    assert not any(line.strip() == "pay bank->p1 1000" for line in game.trace())


def test_a_lone_surrogate_is_rejected_by_check(editions):
    located = editions.located(DATA + 'rule r { on turn(p: player) { log("\\ud83d!") } }\n')
    assert located == [(E.BAD_ESCAPE.code, 14, 35)]


def test_a_whole_character_from_a_surrogate_pair_is_fine(editions):
    editions.compile(DATA + 'rule r { on turn(p: player) { log("\\ud83d\\ude00") } }\n')


def test_the_rulebook_stays_in_the_editions_folder(editions, tmp_path):
    (tmp_path / "secret.txt").write_text("Each player starts with 100 beans.\n")
    prelude = 'edition "T" {\n  rulebook "../secret.txt"\n  players 2 to 4\n}\n'
    body = ('enum kind { plain }\nboard { space s0 "S0" plain }\n'
            'rule turn { on turn(p: player) { move(p, 1) } }\n'
            'param start: int = 1 quote "Each player starts with"\n')
    diagnostics = editions.diagnostics(prelude + body, prelude=False, until="check")
    assert [(d.code, d.span.line) for d in diagnostics] == [(E.RULEBOOK_FILE.code, 2)]
    assert "Each player" not in diagnostics[0].hint


def test_a_copy_keeps_the_trace_and_the_ledger(editions):
    module = interpreted(editions, DATA + (
        "rule r { on turn(p: player) { pay(bank, p, 5)\n move(p, 1) } }\n"))
    game = module["Game"](2, seed=1, trace=True)
    game.play(3)
    copy = game.copy()
    assert copy.trace() == game.trace() and copy.payments() == game.payments()
    assert len(copy.payments()) == 3


def test_a_decision_too_wide_to_list_is_a_rules_error(editions):
    module = interpreted(editions, DATA + (
        "decision pick(p: player) by p -> int from 0 to 300000000 { }\n"
        "rule r { on turn(p: player) { pot = ask pick(p) } }\n"))
    game = module["Game"](2, seed=1, policies=[lambda *args: 0, "default"])
    with pytest.raises(module["RuleError"], match="too many to list"):
        game.play(1)
