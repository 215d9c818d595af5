"""Pass 5 (codegen.py): escaping helpers, and generated modules that are valid, inert Python."""

from __future__ import annotations

import ast as pyast
import dataclasses
import warnings
from pathlib import Path

import pytest

from boardrules.compiler.back.codegen import (
    CodegenError,
    check_capacity,
    comment,
    const,
    generate,
    generate_scenarios,
    ident,
    padded,
    pystr,
)
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.optimize.memo_versions import MemoVersions
from boardrules.compiler.pipeline import compile_rules
from boardrules.runtime.loader import load_module

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "fixtures" / "tiny" / "tiny.rules"
DISNEY = ROOT / "rulesets" / "disney_theme_park" / "disney_theme_park.rules"

NASTY = [
    "plain",
    "it's",
    'say "GO"',
    "'''",
    '"""',
    "back\\slash\\",
    "\\",
    "two\nlines",
    "cr\rlf\r\n",
    "tab\there",
    "nul\x00byte",
    "Résumé ® — “curly” ✓ 😀",
    "line\u2028separator",
    "form\x0cfeed",
    "{{ jinja }} {% if %}",
    "'); import os; os.system('echo pwned'); ('",
    '"""); INJECTED = 1 #',
    "\\'; INJECTED = 1 #",
]


@pytest.fixture(scope="module")
def tiny_program() -> ir.Program:
    return compile_rules(TINY, until="check").program


def run_module(code: str) -> dict:
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(code, "<generated>", "exec"), namespace)  # noqa: S102 - the point of the test
    return namespace


# ---- ident ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["x", "_x", "Go_2", "class", "self", "None", "A" * 200])
def test_ident_prefixes_valid_names(name):
    assert ident(name, "v_") == "v_" + name
    assert ("v_" + name).isidentifier()


@pytest.mark.parametrize(
    "name", ["", "1a", "a b", "a-b", "a.b", "é", "a;b", "a(", "x\ty", "\nx", "a'b"])
def test_ident_rejects_non_identifiers(name):
    with pytest.raises(CodegenError):
        ident(name, "v_")


def test_ident_rejects_a_trailing_newline():
    with pytest.raises(CodegenError):
        ident("x\n", "v_")


# ---- pystr, comment, const -----------------------------------------------------------------


@pytest.mark.parametrize("value", NASTY)
def test_pystr_is_an_ascii_literal_that_round_trips(value):
    literal = pystr(value)
    assert literal.isascii()
    assert "\n" not in literal and "\r" not in literal
    assert pyast.literal_eval(literal) == value
    tree = pyast.parse(f"X = {literal}")
    assert len(tree.body) == 1  # a single statement, nothing smuggled in


@pytest.mark.parametrize("value", NASTY)
def test_comment_is_one_printable_ascii_line(value):
    text = comment(value)
    assert text.isascii() and text.isprintable()
    tree = pyast.parse(f"X = 1  # {text}\n")
    assert len(tree.body) == 1


def test_const():
    assert [const(True), const(False), const(0), const(-3), const("a'b")] == [
        "True", "False", "0", "-3", pystr("a'b")]


def test_padded():
    assert padded([1, 2], 4) == [1, 2, 0, 0]
    assert padded([1, 2], 4, fill=-1) == [1, 2, -1, -1]
    assert padded([], 0) == []
    with pytest.raises(CodegenError):
        padded([1, 2, 3], 2)


# ---- generated modules ---------------------------------------------------------------------


def test_generated_module_is_valid_python_and_deterministic(tiny_program):
    code = generate(tiny_program, "tiny.rules")
    assert code == generate(tiny_program, "tiny.rules")
    tree = pyast.parse(code)
    classes = {n.name: n for n in tree.body if isinstance(n, pyast.ClassDef)}
    assert {"Rng", "Kernel", "Game"} <= set(classes)
    methods = {n.name for n in classes["Game"].body if isinstance(n, pyast.FunctionDef)}
    expected = {f.name for f in tiny_program.functions}
    expected |= {f"decide_{d.name}" for d in tiny_program.decisions}
    expected |= {f"draw_{d.name}" for d in tiny_program.decks}
    expected |= {f"event_{e}" for e in tiny_program.events}
    assert expected <= methods


def test_disney_module_is_valid_python_with_no_dead_code():
    compilation = compile_rules(DISNEY)
    for code in (compilation.code,
                 generate_scenarios(compilation.program, DISNEY.name, compilation.effects)):
        tree = pyast.parse(code)
        compile(code, str(DISNEY), "exec")
        assert dead_code(tree) == []
    assert any(isinstance(n, pyast.ClassDef) and n.name == "Game"
               for n in pyast.parse(compilation.code).body)


def test_the_production_module_has_no_generator_or_closure(tiny_program):
    """One generator expression, in the kernel pasted into every module or in generated
    code, makes Cython add its coroutine support: about 3,800 lines of C (9% of a small
    edition's) compiled with each edition."""
    tree = pyast.parse(generate(tiny_program, "tiny.rules"))
    found = [f"line {n.lineno}: {type(n).__name__}" for n in pyast.walk(tree)
             if isinstance(n, pyast.GeneratorExp | pyast.Yield | pyast.YieldFrom | pyast.Lambda)]
    assert found == []


def test_every_function_of_the_generated_game_says_what_it_is(tiny_program):
    """A comment or docstring opens each method of Game (the rule, procedure, decision,
    aggregate, event or game property it comes from): generated code a person can read."""
    lines = generate(tiny_program, "tiny.rules").splitlines()
    game = next(n for n in pyast.parse("\n".join(lines)).body
                if isinstance(n, pyast.ClassDef) and n.name == "Game")
    def opening(f: pyast.FunctionDef) -> str:
        """The line after the signature (which may run over several lines)."""
        end = next(i for i in range(f.lineno - 1, len(lines)) if lines[i].rstrip().endswith(":"))
        return lines[end + 1].strip()

    silent = [f.name for f in game.body if isinstance(f, pyast.FunctionDef)
              and not opening(f).startswith(("#", '"""'))]
    assert silent == []


def dead_code(tree: pyast.AST) -> list[str]:
    """Tests of a constant (`if True:`, `1 if False else 0`) and statements after a return
    in the same block (a test of `unwinding` before the function returns 0 anyway too)."""
    found = []
    for node in pyast.walk(tree):
        if isinstance(node, pyast.If | pyast.IfExp | pyast.While) and isinstance(
                node.test, pyast.Constant):
            found.append(f"line {node.lineno}: a constant test")
        for block in (getattr(node, name, None) for name in ("body", "orelse")):
            if not isinstance(block, list):
                continue
            for before, after in zip(block, block[1:], strict=False):
                if isinstance(before, pyast.Return | pyast.Raise | pyast.Continue):
                    found.append(f"line {after.lineno}: after a return")
            if (isinstance(node, pyast.FunctionDef) and block is node.body and len(block) > 1
                    and _returns_zero(block[-1]) and _unwinding_check(block[-2])):
                found.append(f"line {block[-2].lineno}: a test of unwinding before return 0")
    return found


def _returns_zero(stmt: pyast.stmt) -> bool:
    return isinstance(stmt, pyast.Return) and isinstance(stmt.value, pyast.Constant) and (
        stmt.value.value == 0)


def _unwinding_check(stmt: pyast.stmt) -> bool:
    return isinstance(stmt, pyast.If) and pyast.unparse(stmt.test) == "self.unwinding" and (
        not stmt.orelse and len(stmt.body) == 1 and _returns_zero(stmt.body[0]))


def test_constants_round_trip(tiny_program):
    namespace = run_module(generate(tiny_program, "tiny.rules"))
    assert namespace["EDITION"] == "Tiny"
    assert namespace["CURRENCY"] == "Beans"
    assert namespace["SPACE_IDS"] == tiny_program.space_ids
    assert namespace["SPACE_NAMES"] == tiny_program.space_names
    assert namespace["CARD_TEXTS"] == tiny_program.card_texts
    assert namespace["DECISION_NAMES"] == tuple(d.name for d in tiny_program.decisions)
    assert namespace["RULE_NAMES"] == tiny_program.rules
    assert namespace["ENUMS"] == dict(tiny_program.enums)
    assert namespace["TURN_LIMIT"] == 50


def test_nasty_strings_cannot_inject_code(tiny_program):
    n_spaces, n_cards = len(tiny_program.space_names), len(tiny_program.card_texts)
    space_names = tuple(NASTY[i % len(NASTY)] for i in range(n_spaces))
    card_texts = tuple(NASTY[-1 - i % len(NASTY)] for i in range(n_cards))
    program = dataclasses.replace(
        tiny_program,
        currency=NASTY[-2],
        space_names=space_names,
        card_texts=card_texts,
        enums={**tiny_program.enums, "kind": tuple(NASTY[:5])},
    )
    code = generate(program, "evil\n'\"\"\"name.rules")
    namespace = run_module(code)
    assert "INJECTED" not in namespace
    assert namespace["CURRENCY"] == NASTY[-2]
    assert namespace["SPACE_NAMES"] == space_names
    assert namespace["CARD_TEXTS"] == card_texts
    assert namespace["ENUMS"]["kind"] == tuple(NASTY[:5])
    game = namespace["Game"](2, 1)
    assert not hasattr(game, "INJECTED")


TITLES = [
    t
    if t in ('"""', '"""); INJECTED = 1 #', "back\\slash\\", "\\") else t
    for t in NASTY
] + [
    "C:\\New Game",  # \N{...} escape in the docstring
    "bad \\x escape",
]


@pytest.mark.parametrize("title", TITLES)
def test_edition_title_round_trips(tiny_program, title):
    code = generate(dataclasses.replace(tiny_program, title=title), "t.rules")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an invalid escape sequence is a warning, for now
        namespace = run_module(code)
    assert namespace["EDITION"] == title


def test_title_cannot_escape_the_class_docstring(tiny_program):
    title = 'X"""; INJECTED = 1 #'
    namespace = run_module(generate(dataclasses.replace(tiny_program, title=title), "t.rules"))
    assert not hasattr(namespace["Game"], "INJECTED")


def test_rules_strings_round_trip_through_the_pipeline(editions):
    path = editions.write(
        'deck luck(p: player) "Luck" {\n'
        '  card a "Say \\"GO\\" \\\\ twice\\nthen café ®"\n'
        "  card b \"It's 100%\"\n"
        "}\n"
        'group g "Grüne \\"Gruppe\\""\n'
    )
    compilation = compile_rules(path)
    namespace = run_module(compilation.code)
    assert namespace["CARD_TEXTS"] == ('Say "GO" \\ twice\nthen café ®', "It's 100%")
    assert namespace["CARD_IDS"] == ("a", "b")
    assert namespace["GROUP_NAMES"] == ("g",)


def test_names_are_prefixed_in_generated_code(editions):
    """Rules names that are Python keywords or kernel names become prefixed identifiers."""
    path = editions.write(
        "counter player.cash2: int = 0\ncounter pass: int = 0\n"
        "proc self(lambda: int) -> int { let class = lambda\n class += 1\n return class }\n"
        "rule r { on turn(p: player) { pass = self(2)\n p.cash2 = pass } }\n"
    )
    code = compile_rules(path).code
    pyast.parse(code)
    assert "def proc_self(self, v_lambda: cython.int)" in code
    assert "v_class = v_lambda" in code
    namespace = run_module(code)
    game = namespace["Game"](2, 7)
    game.rule_r_0(0)
    assert game.g_game_pass == 3 and game.c_player_cash2[0] == 3


def test_check_capacity(tiny_program):
    assert check_capacity(tiny_program) == []
    die = ir.Die("huge", 0, tuple(range(1, 34)))
    problems = check_capacity(dataclasses.replace(tiny_program, dice=(die,),
                                                  space_ids=("s",) * 257))
    assert problems == ["257 spaces exceed the kernel's capacity of 256",
                        "33 faces exceed the kernel's capacity of 32"]


def test_check_capacity_counts_window_sites(tiny_program):
    def site(k: int) -> ir.Function:
        close = ir.KernelCall(ir.VOID, "k_close_window", (ir.Const(ir.INT, k),))
        return ir.Function(f"proc_w{k}", (), ir.VOID, (ir.Evaluate(None, close),), (), "window")

    sites = tuple(site(k) for k in range(65)) + (site(0),)  # an inlined copy is one site
    problems = check_capacity(dataclasses.replace(tiny_program, functions=sites))
    assert problems == ["65 windows exceed the kernel's capacity of 64"]


C_LEVEL_RULES = """counter space.owner: player? = none
counter player.sold: int = 0
decision sell(p: player) by p -> bool {
  default p.sold < 2 and owned(p, 6 / (p.sold + 1)) < 9
}
decision site(p: player) by p -> space? where s: s.owner == p {
  default none
}
decision first(p: player) by p -> space where s: s.owner == none {
}
# called with an argument that may fail (a division), it stays a procedure
proc owned(p: player, k: int) -> int {
  return count(s in spaces where s.owner == p) + k
}
proc owned_twice(p: player) -> int {
  let n = owned(p, 6 / (p.sold + 1))
  return n + owned(p, 1)
}
proc tally(p: player) -> int {
  let n = 0
  for s in spaces where s.owner == p and s.owner != none {
    n += owned(p, 6 / (n + 1))
  }
  return n
}
rule offers { on turn(p: player) {
  window q from p rounds 3 {
    if ask sell(q) {
      q.sold += 1
    }
    if ask site(q) != none {
      let f = ask first(q)
      f.owner = q
    }
  }
  move(p, owned_twice(p) + tally(p) + 1)
} }
"""


def decorators_of(code: str, name: str) -> list[str]:
    """The decorators right above `def name(` in generated code."""
    lines = code.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith(f"def {name}("))
    above = []
    while lines[at - 1 - len(above)].strip().startswith("@"):
        above.append(lines[at - 1 - len(above)].strip())
    return above


def test_small_functions_are_inline_in_c(editions):
    """A small procedure that only computes a value and a memo's lookup are C `inline`
    (a question asked through them costs no call); one with a loop is not."""
    code = editions.compile(C_LEVEL_RULES, until="codegen").code
    assert "@cython.inline" in decorators_of(code, "proc_owned")
    # its leading let made an argument (lets-as-arguments): the variant that returns
    assert "@cython.inline" in decorators_of(code, "proc_owned_twice__given_n")
    assert "@cython.inline" not in decorators_of(code, "proc_tally")
    memoized = [line.split("def ")[1].split("(")[0] for line in code.splitlines()
                if line.strip().startswith("def agg_")]
    assert memoized and all("@cython.inline" in decorators_of(code, name) for name in memoized)
    computed = [line.split("def ")[1].split("(")[0] for line in code.splitlines()
                if line.strip().startswith("def compute_agg_")]
    assert computed and not any("@cython.inline" in decorators_of(code, name)
                                for name in computed)


def test_a_windows_own_variables_are_typed_c_locals(editions):
    """Untyped, Cython would keep a window's round counter and flag as Python objects."""
    code = editions.compile(C_LEVEL_RULES, until="codegen").code
    declared = {line.strip() for line in code.splitlines() if ": cython." in line}
    for local, ctype in (("done", "int"), ("acted", "bint"), ("before", "int"),
                         ("seat", "int"), ("rounds", "int"), ("from", "int")):
        assert any(line.startswith("v_window_") and line.endswith(f"_{local}: cython.{ctype}")
                   for line in declared), (local, sorted(declared))


def test_a_decisions_default_is_taken_inline(editions):
    """Under the default policy (nothing scripted, forced or traced: the kernel's `plain`),
    a yes/no decision's default and an optional one's `none` are answered by an inline
    function; the enumeration and the other policies are in `ask_`, called otherwise. A
    decision whose answer is an option to check against its filter is not split."""
    code = editions.compile(C_LEVEL_RULES, until="codegen").code
    for name in ("sell", "site"):
        assert "@cython.inline" in decorators_of(code, f"decide_{name}")
        assert "@cython.inline" not in decorators_of(code, f"ask_{name}")
        fast = code.split(f"def decide_{name}(")[1].split("@cython.cfunc")[0]
        assert "if self.k_default_answers(v_p):" in fast
    # an option the inline part worked out goes on to be checked, not worked out again
    assert "return self.ask_sell(v_p)" in code and "return self.ask_site(v_p, default)" in code
    assert "default = known if known != -2 else " in code.split("def ask_site(")[1]
    assert "def ask_first(" not in code
    assert "@cython.inline" not in decorators_of(code, "decide_first")


# questions over every owner's spaces (one over p's alone is versioned per owner instead)
MEMO_RULES = """counter space.owner: player? = none
counter space.level: int = 0
proc owned(p: player) -> int {
  return count(s in spaces where s.owner != none and s.owner != p)
}
proc built(p: player) -> int {
  return sum(s.level for s in spaces where s.owner != none and s.owner != p)
}
proc raised(p: player) -> int {
  return max_of(s.level for s in spaces where s.owner != none and s.owner != p)
}
rule r { on turn(p: player) {
  if owned(p) + built(p) + raised(p) < 3 {
    for s in spaces where s.owner == none {
      s.owner = p
      s.level += 1
    }
  }
  move(p, 1)
} }
"""


def test_a_memo_stamp_is_one_version_field_per_set_of_counters(editions):
    """`built` and `raised` read the same two counters: they share one version field,
    which a write of either bumps, so their stamps add nothing up at each lookup."""
    compilation = editions.compile(MEMO_RULES, until="codegen")
    versions = MemoVersions.of(compilation.program)
    assert [counters for _, counters in versions.fields] == [
        ("space_owner",), ("space_level", "space_owner")]
    (pair, _), = [(field, c) for field, c in versions.fields if len(c) == 2]
    assert versions.bumped_by("space_level") == [pair]
    assert versions.bumped_by("space_owner") == ["mv_space_owner", pair]
    code = compilation.code
    stamps = [line.strip() for line in code.splitlines() if line.strip().startswith("stamp =")]
    assert sorted(stamps) == sorted([f"stamp = self.{pair}"] * 2
                                    + ["stamp = self.mv_space_owner"])
    writes = code[code.index("self.vxset_space_owner(v_p, v_s)"):].splitlines()[:5]
    assert [line.strip() for line in writes] == [
        "self.vxset_space_owner(v_p, v_s)", "self.mv_space_owner += 1", f"self.{pair} += 1",
        "self.c_space_level[v_s] = narrow((wide(self.c_space_level[v_s]) + 1))",
        f"self.{pair} += 1"]


ENTRY_RULES = """counter space.owner: player? = none
counter pot: int = 0
proc collect(p: player) {
  if pot == 0 {
    return
  }
  for s in spaces where s.owner == p {
    pot -= 1
  }
}
proc claim(p: player) {
  if p.cash > 10 {
    for s in spaces where s.owner == none {
      s.owner = p
    }
  }
}
proc risky(p: player, k: int) {
  if 6 / k > 1 {
    return
  }
  pot += 1
}
rule r { on turn(p: player) {
  collect(p)
  claim(p)
  risky(p, pot + 1)
  move(p, 1)
} }
"""


def test_a_procedures_first_test_is_inline_and_the_rest_a_call(editions):
    """`collect` returns at once while the pot is empty, `claim` does everything under one
    test: each test is inline in the callers, the rest a call. A test that may fail (a
    division) stays in the procedure."""
    code = editions.compile(ENTRY_RULES, until="codegen").code
    for name, test in (("collect", "if (self.g_game_pot == 0):"),
                       ("claim", "if (self.cash[v_p] <= 10):")):
        assert "@cython.inline" in decorators_of(code, f"proc_{name}")
        assert "@cython.inline" not in decorators_of(code, f"rest_proc_{name}")
        entry = code.split(f"def proc_{name}(")[1].split("@cython.cfunc")[0].splitlines()
        assert [line.strip() for line in entry[2:5]] == [
            test, "return 0", f"return self.rest_proc_{name}(v_p)"]
    assert "def rest_proc_risky(" not in code


NONE_EXIT_RULES = """counter space.owner: player? = none
counter player.taken: int = 0
proc first_free(p: player) -> space? {
  if p.cash < 0 {
    return none
  }
  return best(0 for s in spaces where s.owner == none and s.kind == special)
}
decision pick(p: player) by p -> space? where s: s.owner == none {
  prompt "Take which space (or none)?"
  default first_free(p)
}
proc take(p: player) {
  let s = ask pick(p)
  if s == none {
    return
  }
  let t = some(s)
  t.owner = p
  p.taken += 1
}
rule r { on turn(p: player) {
  take(p)
  move(p, 1)
} }
"""


def test_a_question_whose_default_none_ends_the_procedure_is_tested_inline(editions):
    """`take` returns when `pick` gives none: when its asker takes the defaults, the
    default is worked out in the callers, which call the rest only for an answer."""
    code = editions.compile(NONE_EXIT_RULES, until="codegen").code
    entry = code.split("def proc_take(")[1].split("@cython.cfunc")[0].splitlines()
    assert [line.strip() for line in entry[2:5]] == [
        "if (self.k_default_answers(v_p) and ((-1 if (self.cash[v_p] < 0) else "
        "self.agg_0_in_proc_first_free()) == -1)):",
        "return 0", "return self.rest_proc_take(v_p)"]
    assert "v_s = self.decide_pick(v_p)" in code.split("def rest_proc_take(")[1]


@pytest.mark.parametrize("backend", ["interpreted", "compiled"])
def test_an_answer_other_than_the_default_still_runs_the_rest(module_editions, backend):
    """Under the default policy only s1 (special) is taken, once; with s1 gone the
    default is none, and a forced answer still takes s2, on both backends alike."""
    module = load_module(str(module_editions.write(NONE_EXIT_RULES)), backend)
    game = module.Game(2, seed=1)
    game.play(2)
    assert [game.state_get("c_space_owner", s) for s in range(3)] == [-1, 0, -1]
    assert game.state_get("c_player_taken", 0) == 1
    game = module.Game(2, seed=1)
    game.state_set("c_space_owner", 1, 1)
    game.force_answers("pick", [2])
    game.play(1)
    assert [game.state_get("c_space_owner", s) for s in range(3)] == [-1, 1, 0]


IDLE_EVENTS = """param delay: int = 0
  assume "no delay"
event rested(p: player)
event waited(p: player)
event skipped(p: player)
counter player.rests: int = 0
rule rest { on rested(p: player) { p.rests += 1 } }
rule wait { on waited(p: player) when delay > 0 { p.rests += 2 } }
rule tell { on land(p: player, s: space) {
  trigger rested(p)
  trigger waited(p)
  trigger skipped(p)
} }
"""


def test_an_event_no_handler_can_run_for_is_inline(editions):
    """C drops the calls of the rules' own events whose every handler's guard is constant
    false (a param's default) or that no rule handles; the kernel's events (but the land
    event, inline in the move: test_game_loop.py), and an event with a live handler, stay
    calls."""
    _, code, _ = editions.module(IDLE_EVENTS)

    def inline(event: str) -> bool:
        head = code[:code.index(f"    def event_{event}(")]
        return head.rstrip().endswith("@cython.inline")

    assert inline("waited") and inline("skipped")
    assert not inline("rested") and not inline("pass") and not inline("turn")
