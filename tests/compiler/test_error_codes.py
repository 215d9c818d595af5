"""Error codes (compiler/common/error_codes.py): every compile error carries the code of its kind.

Tests match the code and the position of an error, not its wording. This module checks
that the registry and the compiler's call sites agree (every call site names a code of
the registry, every code is reported somewhere), that a representative mistake of each
kind reports its code at its place, on both backends and through the command line, and
that docs/errors.md lists exactly the registry.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from boardrules.cli import main
from boardrules.compiler.common import error_codes
from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.common.error_codes import GROUPS, ErrorCode, by_code
from boardrules.compiler.pipeline import compile_rules
from boardrules.runtime.loader import load_module

COMPILER = Path(error_codes.__file__).resolve().parents[1]
ROOT = COMPILER.parents[1]
ERRORS_MD = ROOT / "docs" / "errors.md"

# ---- the registry ----------------------------------------------------------------------------


def test_codes_are_well_formed_and_grouped():
    for kind in ErrorCode:
        assert re.fullmatch(r"BR[1-9]\d\d", kind.code), kind
        assert kind.code[:3] in GROUPS, f"{kind.code}: no group {kind.code[:3]}xx"
        assert kind.title and kind.title == kind.title.strip() and not kind.title[0].isupper()
        assert kind.why and not kind.why.endswith("."), kind
        assert "|" not in kind.title + kind.why  # they are cells of the docs' table
        assert by_code(kind.code) is kind and str(kind) == kind.code
    assert len({k.title for k in ErrorCode}) == len(ErrorCode), "two kinds with one title"
    with pytest.raises(KeyError):
        by_code("BR999")


# ---- the call sites --------------------------------------------------------------------------


def _sources() -> list[Path]:
    return sorted(p for p in COMPILER.rglob("*.py") if p.name != "error_codes.py")


def _code_names(node: ast.AST) -> set[str]:
    """The registry members a piece of code names: ErrorCode.NAME."""
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "ErrorCode"}


def _error_calls(tree: ast.AST):
    """The calls that make an error: reporter.error(span, message, ...), error_at(...),
    the parser's SourceError(...), and Diagnostic("error", ...) (which should not be)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "error" and isinstance(func, ast.Attribute) and len(node.args) >= 2:
            yield node
        elif name in ("error_at", "SourceError"):
            yield node
        elif name == "Diagnostic" and node.args and isinstance(node.args[0], ast.Constant) \
                and node.args[0].value == "error":
            yield node


def _site(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{node.lineno}"


def test_every_call_site_names_a_code_of_the_registry():
    """Each error names its code as `code=ErrorCode.NAME`, a member of the registry, or
    passes on the code a `SourceError` was raised with (`code=self.code`). Not checked
    here: diagnostics.py, which defines the calls, and optimize/, whose passes get a
    reporter of one kind from the pipeline (next test)."""
    sites = 0
    for path in _sources():
        if path.name == "diagnostics.py" or "optimize" in path.relative_to(COMPILER).parts:
            continue
        for call in _error_calls(ast.parse(path.read_text(encoding="utf-8"))):
            site = _site(path, call)
            assert getattr(call.func, "id", "") != "Diagnostic", f"{site}: use error_at()"
            code = next((k.value for k in call.keywords if k.arg == "code"), None)
            assert code is not None, f"{site}: an error without code=ErrorCode.NAME"
            if ast.unparse(code) != "self.code":
                assert ast.unparse(code).startswith("ErrorCode."), site
                assert _code_names(code) <= set(ErrorCode.__members__), site
            sites += 1
    assert sites >= 110


def test_optimizations_report_through_a_reporter_of_one_kind():
    """The optimizations (optimize/, edited elsewhere) report without a code: the
    pipeline hands them a reporter whose errors are constants out of range."""
    uncoded = [_site(path, call) for path in _sources()
               if "optimize" in path.relative_to(COMPILER).parts
               for call in _error_calls(ast.parse(path.read_text(encoding="utf-8")))
               if not any(k.arg == "code" for k in call.keywords)]
    pipeline = ast.parse((COMPILER / "pipeline.py").read_text(encoding="utf-8"))
    given = {node for node in ast.walk(pipeline) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == "reporting"}
    assert uncoded == [] or {n for call in given for n in _code_names(call)} == {
        "CONSTANT_OUT_OF_RANGE"}, uncoded


def test_every_code_of_the_registry_is_reported_somewhere():
    named: set[str] = set()
    for path in _sources():
        named |= _code_names(ast.parse(path.read_text(encoding="utf-8")))
    assert set(ErrorCode.__members__) - named == set(), "codes no call site reports"
    assert named - set(ErrorCode.__members__) == set(), "names not in the registry"


# ---- a representative mistake of each kind: its code at its place ---------------------------
# The bodies follow the 12 lines of conftest's PRELUDE (so they start on line 13) unless
# prelude is False; `where` is (file, line, column) of the one error reported.

HEADER = 'edition "T" {\n  rulebook "rulebook.txt"\n  players 2 to 4\n}\n'
BOARD = 'enum kind { plain }\nboard {\n  space s0 "S0" plain\n}\n'
TURN = "rule turn { on turn(p: player) { move(p, 1) } }\n"
DIE = "die six faces 1 to 6\n"
ROLLING = "rule roller { on turn(p: player) { move(p, roll(six)) } }\n"
GRID = 'grid city 2 x 2 assume "small"\n'
ASK_BOOL = "decision d(p: player) by p -> bool { }\n"
ASK_CELL = "decision d(p: player) by p -> cell where c: true { }\n"


def scenario(target: str, *steps: str) -> str:
    return f'scenario "s" for {target} {{\n' + "".join(f"  {s}\n" for s in steps) + "}\n"


E = ErrorCode


def case(kind: ErrorCode, body: str, line: int, column: int, file: str = "ed.rules",
         **options):
    """A representative mistake of the kind: the one error is at file:line:column."""
    return pytest.param(kind, body, options, (file, line, column),
                        id=f"{kind.code}-{kind.name.lower()}")


CASES = [
    # BR1xx
    case(E.UNEXPECTED_TOKEN, "proc f() -> bool { return 1 < 2 < 3 }\n", 13, 33),
    case(E.UNEXPECTED_END, "proc f() {\n", 13, 11),
    case(E.UNEXPECTED_CHARACTER, 'proc f() { log("a"); }\n', 13, 20),
    case(E.UNTERMINATED_STRING, 'proc f() { log("abc) }\n', 13, 16),
    case(E.BAD_ESCAPE, 'proc f() { log("a\\qb") }\n', 13, 16),
    case(E.NUMBER_TOO_LARGE, "param big: int = 99999999999\n", 13, 18),
    case(E.BAD_COUNT, "die d faces 6 to 1\n", 13, 13),
    case(E.NUMBER_TOO_LONG, "param zero: int = " + "0" * 21 + "\n", 13, 19),
    case(E.DESC_WITHOUT_ORDER, "proc f() { for s in spaces desc { } }\n", 13, 28),
    # BR2xx
    case(E.UNKNOWN_NAME, "proc f() -> int { return zzz }\n", 13, 26),
    case(E.UNKNOWN_TYPE, "param x: intt = 1\n", 13, 10),
    case(E.UNKNOWN_PROCEDURE, "proc f() { g() }\n", 13, 12),
    case(E.UNKNOWN_EVENT, "rule q { on lnd(p: player) { } }\n", 13, 10),
    case(E.UNKNOWN_DECK, "proc f() -> int { return count(c in cards chance) }\n", 13, 37),
    case(E.UNKNOWN_ENUM, "proc f() -> int { return count(c in each colour) }\n", 13, 37),
    case(E.UNKNOWN_DECISION, "proc f(p: player) -> bool { return ask buy(p) }\n", 13, 36),
    case(E.UNKNOWN_ATTRIBUTE, "proc f(p: player) { p.coin += 1 }\n", 13, 21),
    case(E.UNKNOWN_MEMBER, "proc f() -> kind { return kind.corner }\n", 13, 27),
    case(E.UNKNOWN_RULE, 'use trun { quote "Whoever lands on a space pays its toll." }\n', 13, 1),
    case(E.UNKNOWN_PARAM, "set sped = 1\n", 13, 1),
    case(E.UNKNOWN_SPACE, HEADER + 'enum kind { plain }\nboard {\n  space a "A" plain\n'
     '  space cell "Cell" plain offboard at aa\n}\n' + TURN, 8, 3, prelude=False),
    case(E.UNKNOWN_LIBRARY, "import zzzzzz\n", 13, 1),
    case(E.IMPORT_CYCLE, "import a\n", 1, 1, file="b.rules",
         libs={"a": "import b\n", "b": "import a\n"}),
    case(E.DEFINED_TWICE, "proc f() { }\nproc f() { }\n", 14, 1),
    case(E.GIVEN_TWICE, "param x: int = 1\nset x = 2\nset x = 3\n", 15, 1),
    case(E.BUILTIN_REDEFINED, "counter rounds: int = 0\n", 13, 1),
    case(E.LOCAL_RETYPED, "proc f() {\n  let x = 1\n  let x = true\n}\n", 15, 3),
    case(E.LOCAL_REDECLARED, "proc f() {\n  for a in 1 to 2 { for a in 1 to 2 { } }\n}\n",
         14, 21),
    case(E.AMBIGUOUS_NAME, "enum a { red }\nenum b { red }\nproc f() -> a { return red }\n",
         15, 24),
    case(E.WRONG_KIND_OF_NAME, DIE + "proc f() -> int { return six }\n", 14, 26),
    # BR3xx
    case(E.TYPE_MISMATCH, "param x: int = true\n", 13, 16),
    case(E.NO_VALUE, "proc g() { }\nproc f() -> int { return g() }\n", 14, 26),
    case(E.RETURN_MISMATCH, "proc f(p: player) -> int { if p.cash > 0 { return 1 } }\n", 13, 1),
    case(E.UNKNOWN_LOCAL_TYPE, "proc f() { let x = none }\n", 13, 12),
    case(E.WRONG_ARGUMENTS, "proc g(a: int) { }\nproc f() { g() }\n", 14, 12),
    case(E.READ_ONLY, "field space.price: int = 0\nproc f(s: space) { s.price = 1 }\n", 14, 20),
    case(E.LIST_MISUSE, "proc f() { let x = [1, 2] }\n", 13, 20),
    case(E.SOME_NONE, "proc f() -> int { return some(none) }\n", 13, 26),
    case(E.TYPE_NOT_ALLOWED, 'option o: space = s0 "O"\n', 13, 11),
    case(E.AGGREGATE_VALUE, "proc f() -> int { return sum(p in players) }\n", 13, 26),
    case(E.ORDER_CHANGES_NOTHING, "proc f() -> int { return count(p in players by p.cash) }\n",
         13, 45),
    case(E.NOT_CONSTANT, "counter c: int = 0\nparam x: int = c\n", 14, 16),
    case(E.CONSTANT_OUT_OF_RANGE, "param big: int = 2000000000 * 2\n"
     "rule r { on turn(p: player) { pay(bank, p, big) } }\n", 13, 18),
    # BR4xx
    case(E.NO_EDITION, BOARD + TURN, 1, 1, prelude=False),
    case(E.BAD_EDITION_PROPERTY, 'edition "T" {\n  rulebook "rulebook.txt"\n  colour "red"\n}\n'
     + BOARD + TURN, 3, 3, prelude=False),
    case(E.NO_BOARD, HEADER + TURN, 1, 1, prelude=False),
    case(E.NO_TURN, HEADER + BOARD, 1, 1, prelude=False),
    case(E.PARAM_WITHOUT_VALUE, "param x: int\n", 13, 1),
    case(E.CYCLIC_PARAM, "param a: int = b\nparam b: int = a\n", 13, 1),
    case(E.MISPLACED_FIELD, "field player.x: int = 0\n", 13, 1),
    case(E.ONE_GRID, GRID + 'grid b 2 x 2 assume "x"\n', 14, 1),
    case(E.CAPACITY, "".join(f"die d{i} faces 1 to 2\n" for i in range(9)), 1, 1, until="capacity"),
    case(E.TOO_DEEP, "counter pot: int = 0\nrule r { on turn(p: player) {\n  pot = "
     + " + ".join(["p.cash"] * 300) + "\n} }\n", 15, 3, until="nesting"),
    case(E.BAD_EXCLUSION, 'option o: bool = false "O" excludes o\n', 13, 37),
    case(E.OPTION_RANGE, 'option o: int from 0 to 5 = 9 "O"\n', 13, 29),
    case(E.BREAK_OUTSIDE_LOOP, "rule r { on turn(p: player) { break } }\n", 13, 31),
    case(E.HANDLER_ORDER, "rule r { on turn(p: player) before r { } }\n", 13, 29),
    case(E.HIDDEN_NOT_KEPT, 'deck chips(p: player) "Chips" hidden {\n  card a "A" keep\n'
         '  card b "B"\n}\n', 15, 3),
    case(E.ORDERED_WALK_SIZE, "proc f(n: int) { for k in 1 to n by k { } }\n", 13, 27),
    # BR5xx
    case(E.SCENARIO_UNKNOWN, scenario("trun", "play p1"), 13, 1),
    case(E.SCENARIO_PLAYERS, scenario("turn", "players 9", "play p1"), 13, 1),
    case(E.NOT_A_FACE, DIE + ROLLING + scenario("roller", "dice [7]", "play p1"), 16, 9),
    case(E.BAD_ANSWER, ASK_BOOL + scenario("turn", "answer d [s0]", "play p1"), 15, 13),
    case(E.DICE_ORDER, DIE + ROLLING + scenario("roller", "dice [1, 2]", "play p1"), 16, 12),
    case(E.OFF_GRID, GRID + ASK_CELL + scenario("turn", "answer d [cell_at(5, 5)]", "play p1"),
         16, 13),
    case(E.NOT_A_SCENARIO, "", 4, 1, file="play.rules",
         files={"conformance/play.rules": scenario("turn", "play p1") + "proc f() { }\n"}),
    case(E.EXCLUDED_OPTIONS, 'option a: bool = false "A"\noption b: int = 0 "B" excludes a\n'
         + scenario("turn", "option a = true", "option b = 2", "play p1"), 17, 3),
    case(E.BAD_FIXTURE, "fixture f {\n  play p1\n}\n" + scenario("turn", "use f"), 14, 3),
    case(E.BAD_RANDOM, scenario("turn", "random [-1]", "play p1"), 14, 11),
    # BR6xx
    case(E.RULEBOOK_FILE, "", 2, 3, rulebook=None),
    case(E.NOT_IN_RULEBOOK, 'rule r {\n  quote "Nothing like this."\n  on turn(p: player) { }\n}\n',
         14, 3),
    case(E.MISSING_REASON, 'waive "The Test Game." because ""\n', 13, 1),
]


def located(diagnostics) -> list[tuple[str, str, int, int]]:
    return [(d.code, Path(d.span.path).name, d.span.line, d.span.column) for d in diagnostics]


@pytest.mark.parametrize(("kind", "body", "options", "where"), CASES)
def test_a_mistake_reports_its_code_at_its_place(editions, kind, body, options, where):
    options = dict(options)
    until = options.pop("until", "check")
    assert located(editions.diagnostics(body, until=until, **options)) == [(kind.code, *where)]


def test_an_unreadable_rules_file(tmp_path):
    with pytest.raises(CompileError) as info:
        compile_rules(tmp_path / "ed" / "ed.rules")
    assert located(info.value.diagnostics) == [(E.UNREADABLE_FILE.code, "ed.rules", 0, 0)]


def test_the_cases_cover_the_registry():
    covered = {case.values[0] for case in CASES} | {E.UNREADABLE_FILE}
    assert set(ErrorCode) - covered == set()


def test_an_error_line_ends_with_its_code(editions):
    (diagnostic,) = editions.diagnostics("proc f() -> int { return zzz }\n")
    first = diagnostic.render().splitlines()[0]
    assert re.fullmatch(r".*ed\.rules:13:26: error: .* \[BR201\]", first), first


# ---- both backends, and the command line -----------------------------------------------------
ON_BOTH = [E.UNEXPECTED_TOKEN, E.UNKNOWN_NAME, E.CONSTANT_OUT_OF_RANGE, E.DICE_ORDER]


@pytest.mark.parametrize("kind", ON_BOTH, ids=lambda k: k.code)
def test_both_backends_reject_a_program_with_the_same_located_error(editions, kind):
    _, body, options, where = next(case.values for case in CASES if case.values[0] is kind)
    options = {k: v for k, v in options.items() if k != "until"}
    path = editions.write(body, **options)
    found = []
    for backend in ("interpreted", "compiled"):
        with pytest.raises(CompileError) as info:
            load_module(str(path), backend)
        found.append(located(info.value.diagnostics))
    assert found[0] == found[1] == [(kind.code, *where)]


def test_check_prints_the_code(editions, capsys):
    path = editions.write("proc f() -> int { return zzz }\n")
    assert main(["check", str(path)]) == 1
    assert re.search(r"ed\.rules:13:26: error: unknown name 'zzz' \[BR201\]$",
                     capsys.readouterr().err, re.M)


# ---- the docs ----------------------------------------------------------------------------------


def test_the_docs_list_exactly_the_registry():
    text = ERRORS_MD.read_text(encoding="utf-8")
    start = text.index("<!-- generated from boardrules/compiler/common/error_codes.py")
    start = text.index("\n", start) + 1
    end = text.index("<!-- end of the generated table -->")
    assert text[start:end] == error_codes.table(), (
        "docs/errors.md differs from the registry: replace its table with the output of "
        "python -m boardrules.compiler.common.error_codes")
    assert "errors.md" in (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert "docs/errors.md" in (ROOT / "README.md").read_text(encoding="utf-8")
