"""Defects found by probing the compiler and runtime with hostile rules files: each is a
located error or works the same on both backends (issue: reliability)."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys

import pytest

from boardrules.compiler.back.codegen import generate
from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.runtime.loader import load_module

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


# The reproducers as it gives them: what crashed `compile` (or the interpreted
# backend) after `check` said ok, and scenario player counts that ran for minutes or out
# of memory. `boardrules check` reports each as a located error and stops.
CHECK_REJECTS = {
    "250 terms of 1 + 1": "rule r { on turn(p: player) { pot = "
                          + " + ".join(["1"] * 250) + " } }\n",
    "300 unary minus signs": "rule r { on turn(p: player) { pot = " + "-" * 300 + "1 } }\n",
    "300 nested if blocks": "rule r { on turn(p: player) {\n" + "if pot >= 0 {\n" * 300
                            + "pot += 1\n" + "}\n" * 300 + "} }\n",
    "100 nested if blocks": "rule r { on turn(p: player) {\n" + "if pot >= 0 {\n" * 100
                            + "pot += 1\n" + "}\n" * 100 + "} }\n",
    # Python converts no more than 4300 digits: a lark VisitError traceback, even for 0
    "5000 zeros": "rule r { on turn(p: player) { pot = " + "0" * 5000 + " } }\n",
    "5000 nines": "rule r { on turn(p: player) { pot = " + "9" * 5000 + " } }\n",
    "players 30000000": 'scenario "many" for turn {\n  players 30000000\n  play p1\n}\n',
    "players 99999999999999999999":
        'scenario "many" for turn {\n  players 99999999999999999999\n  play p1\n}\n',
}


@pytest.mark.parametrize("body", CHECK_REJECTS.values(), ids=CHECK_REJECTS)
def test_check_rejects_what_compile_could_not_take(editions, body, capsys):
    from boardrules.cli import main

    path = editions.write(DATA + body)
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert re.match(r".*ed\.rules:\d+:\d+: error: .* \[BR\d{3}\]$", err.splitlines()[0]), err
    assert "Traceback" not in err and err.count(": error: ") == 1, err


@pytest.mark.parametrize("workers", [1, 2])
def test_endless_recursion_in_a_simulation_is_one_located_error(editions, workers, capsys):
    """With worker processes it once ended in a BrokenProcessPool traceback."""
    from boardrules.cli import main

    path = editions.write(DATA + (
        "proc rec(n: int) -> int { return rec(n + 1) + 1 }\n"
        "rule r { on turn(p: player) { pot = rec(0) } }\n"))
    assert main(["simulate", str(path), "--games", "4", "--players", "2", "--backend",
                 "interpreted", "--workers", str(workers)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("boardrules: error: game ") and "\n" not in err, err
    assert "in proc rec at ed.rules:14" in err and "more than 200 deep" in err, err


@pytest.fixture(scope="module")
def both(module_editions):
    """test_integers.py's probe edition on each backend (the same text: the same build)."""
    from test_integers import PROBE

    path = module_editions.write(PROBE)
    return [load_module(str(path), backend) for backend in ("interpreted", "compiled")]


def test_a_copy_keeps_the_trace_and_the_ledger_on_both_backends(both):
    for module in both:
        game = module.Game(2, seed=1, trace=True)
        game.state_set("g_game_mode", 0, 1)  # two payments a turn
        game.state_set("g_game_arg1", 0, 5)
        game.play(3)
        copy = game.copy()
        assert copy.trace() == game.trace() and copy.payments() == game.payments()
        assert len(copy.payments()) == 6


def test_neither_backend_pickles_a_game(both):
    """The compiled game once pickled and the interpreted one did not: a game is copied
    with copy(), never pickled, on either backend, which say so alike."""
    for module in both:
        with pytest.raises(TypeError, match=r"^a Game cannot be pickled: copy it with copy\(\)$"):
            pickle.dumps(module.Game(2, seed=1))


def test_a_decision_too_wide_to_list_is_a_rules_error_on_both_backends(both):
    """2**32 answers: listed for a Python policy, they would exhaust memory."""
    for module in both:
        game = module.Game(2, seed=1, policies=[lambda *args: 0] * 2)
        game.state_set("g_game_mode", 0, 8)
        with pytest.raises(module.RuleError, match="too many to list"):
            game.play(1)


NESTED_LOOPS = ("rule r { on turn(p: player) {\n"
                "  pot = count(i in 0 to 999999\n"
                "              where count(j in 0 to 999999 where j > i + 1000000) > 0)\n"
                "} }\n")


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_nested_loops_share_one_round_budget(editions, backend):
    """Found by the long differential run (program 703): each loop under the guard of
    1,000,000 rounds, a nest of them ran 10**12 rounds and the turn never ended, on both
    backends. It must be a rules error instead (a game that hangs cannot be interrupted
    in C, so it plays in a process of its own)."""
    path = editions.write(DATA + NESTED_LOOPS)
    load_module(str(path), backend)  # built here: the time limit is the game's
    play = (f"from boardrules.runtime.loader import load_module\n"
            f"module = load_module({str(path)!r}, {backend!r})\n"
            f"try:\n    module.Game(2, seed=1).play(1)\n"
            f"except module.RuleError as error:\n    print(error)\n")
    try:
        result = subprocess.run([sys.executable, "-c", play], capture_output=True, text=True,
                                timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("no rules error after 30 s: the nested loops run on")
    assert "more than 1000000 rounds" in result.stdout, result.stdout + result.stderr
