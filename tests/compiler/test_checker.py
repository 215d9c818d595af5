"""Pass 4 (checker.py): name resolution, types, narrowing, lowering to IR, constants."""

from __future__ import annotations

import pytest

from boardrules.compiler.common.diagnostics import CompileError
from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.front.expressions import fold
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.nodes import BOOL, INT, STR, Type
from boardrules.compiler.pipeline import compile_rules

PLAYER = Type("player")
SPACE = Type("space")

DATA = """enum color { red, blue }
field space.rent: money[4] = 7
field space.tone: color = blue
counter player.score: int = 0
counter space.owner: player? = none
counter pot: money = 0
die six faces 1 to 6
decision buy(p: player, s: space) by p -> bool { default true }
decision bid(p: player) by p -> int? from 1 to p.cash { default none }
decision site(p: player) by p -> space? where s: s.owner == p { default none }
decision target(p: player) by p -> player where q: q != p { }
proc need(q: player) { }
"""


def function(program: ir.Program, name: str) -> ir.Function:
    return next(f for f in program.functions if f.name == name)


# ---- expression types ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1 + 2 * 3", INT),
        ("7 / 2", INT),
        ("1 < 2 and not false", BOOL),
        ('"text"', STR),
        ("p.cash", INT),
        ("p.alive", BOOL),
        ("p.position", SPACE),
        ("p.position.track", INT),
        ("p.score", INT),
        ("s0.owner", Type("player", True)),
        ("s0.kind", Type("kind")),
        ("s0.name", STR),
        ("s0.rent[2]", INT),
        ("s0.tone", Type("color")),
        ("red", Type("color")),
        ("color.blue", Type("color")),
        ("current", PLAYER),
        ("turn", INT),
        ("players_count", INT),
        ("bank", Type("player", True)),
        ("none", Type("none", True)),
        ("pot", INT),
        ("s1", SPACE),
        ("if p.cash > 0 then 1 else none", Type("int", True)),
        ("if true then s0 else s1", SPACE),
        ("some(s0.owner)", PLAYER),
        ("roll(six)", INT),
        ("count(s in spaces where s.owner == p)", INT),
        ("sum(s.rent[0] for s in spaces)", INT),
        ("any(q in players where q.cash > 5)", BOOL),
        ("all(q.alive for q in players)", BOOL),
        ("max_of(s.rent[1] for s in spaces)", INT),
        ("best(s.rent[0] for s in spaces)", Type("space", True)),
        ("best(k for k in 1 to 3)", Type("int", True)),
        ("ask buy(p, s0)", BOOL),
        ("ask bid(p)", Type("int", True)),
        ("ask site(p)", Type("space", True)),
        ("ask target(p)", PLAYER),
        ("distance(s0, s2)", INT),
        ("min(1, p.cash)", INT),
    ],
)
def test_expression_types(editions, text, expected):
    lowered, reporter, _ = editions.lower(DATA, text, {"p": PLAYER})
    assert [d.message for d in reporter.errors] == []
    assert lowered.type == expected


def test_lowered_nodes(editions):
    lowered, _, _ = editions.lower(DATA, "p.cash + s1.rent[k] / 2", {"p": PLAYER, "k": INT})
    assert isinstance(lowered, ir.Binary) and lowered.op == "+"
    cash, quotient = lowered.left, lowered.right
    assert isinstance(cash, ir.State) and (cash.array, cash.checked) == ("player_cash", False)
    assert isinstance(quotient, ir.Binary) and quotient.op == "//"
    rent = quotient.left
    assert isinstance(rent, ir.Table)
    assert (rent.table, rent.stride, rent.length) == ("space_rent", 4, 3)
    assert rent.entity == ir.Const(SPACE, 1) and rent.element == ir.Local(INT, "k")
    roll, _, _ = editions.lower(DATA, "roll(six)")
    assert roll == ir.KernelCall(INT, "k_roll", (ir.Const(INT, 0),))
    member, _, _ = editions.lower(DATA, "blue")
    assert member == ir.Const(Type("color"), 1)


@pytest.mark.parametrize(
    "text, code, names, hint",
    [  # names: what the message must name (the code says the kind of mistake)
        ("1 + true", E.TYPE_MISMATCH, "expected int, got bool", ""),
        ("p == 1", E.TYPE_MISMATCH, "cannot compare player with int", ""),
        ("s0 == p", E.TYPE_MISMATCH, "cannot compare space with player", ""),
        ("p.csh", E.UNKNOWN_ATTRIBUTE, "a player has no attribute 'csh'", "did you mean 'cash'?"),
        ("colr.red", E.UNKNOWN_NAME, "'colr'", "did you mean 'color'?"),
        ("color.green", E.UNKNOWN_MEMBER, "enum 'color' has no member 'green'", ""),
        ("six", E.WRONG_KIND_OF_NAME, "'six' is a die", "write roll(six)"),
        ("p.cash[1]", E.LIST_MISUSE, "", ""),
        ("if true then 1 else s0", E.TYPE_MISMATCH, "int and space", ""),
        ("sum(s in spaces)", E.AGGREGATE_VALUE, "sum", ""),
        ("count(s.rent[0] for s in spaces)", E.AGGREGATE_VALUE, "count", ""),
        ("ask bid(p, p)", E.WRONG_ARGUMENTS, "'bid' takes 1 argument(s), got 2",
         "bid(p: player)"),
        ("s0.rent[0] == true", E.TYPE_MISMATCH, "cannot compare money with bool", ""),
        ("p.cash == s0", E.TYPE_MISMATCH, "cannot compare money with space", ""),
        ("s0.tone == s0", E.TYPE_MISMATCH, "cannot compare color with space", ""),
        ("ask nope(p)", E.UNKNOWN_DECISION, "'nope'", ""),
        ("buy(p, s0)", E.WRONG_KIND_OF_NAME, "'buy' is a decision", "write: ask buy(...)"),
    ],
)
def test_expression_errors(editions, text, code, names, hint):
    _, reporter, _ = editions.lower(DATA, text, {"p": PLAYER})
    assert reporter.errors, "no error reported"
    first = reporter.errors[0]
    assert first.code == code.code
    assert names in first.message
    assert first.hint == hint


# ---- narrowing ---------------------------------------------------------------------------


def proc_errors(editions, body: str) -> list[tuple[str, str]]:
    compilation_errors = editions.diagnostics(DATA + body)
    return [(d.message, d.hint) for d in compilation_errors]


def test_optional_cannot_be_used_as_a_value(editions):
    errors = proc_errors(editions, "proc f() { let o = s0.owner\n need(o) }\n")
    assert errors == [("argument 'q' of 'need': expected player, got player?",
                       "it may be none: test it with `if x != none` or write some(x)")]


@pytest.mark.parametrize(
    "body",
    [
        "if o != none { need(o) }",
        "if o == none { } else { need(o) }",
        "if o != none and o.cash > 0 { need(o) }",
        "if o != none and o != p { need(o) }",
        "while o != none { need(o)\n o = s1.owner }",
        "let x = if o != none then 1 else 0\n need(some(o))",
        "if o == none { return }\n need(o)",  # after an early return
        "if o == none { end turn }\n need(o)",
    ],
)
def test_narrowing(editions, body):
    compilation = editions.compile(
        DATA + f"proc f(p: player) {{\n let o = s0.owner\n {body}\n}}\n"
        "rule r { on turn(p: player) { f(p) } }\n")
    f = function(compilation.program, "proc_f")
    assert f.locals[0] == ("o", Type("player", True))


@pytest.mark.parametrize(
    "body",
    [
        "if o != none { }\n need(o)",  # narrowing ends with the block
        "if o == none { need(o) }",
        "if o != none or true { need(o) }",
        "if o != none { o = s1.owner\n need(o) }",  # an assignment ends the narrowing
        "if o == none { log(\"none\") }\n need(o)",  # the branch does not always return
        "while o != none { o = s1.owner\n need(o) }",
    ],
)
def test_no_narrowing(editions, body):
    errors = proc_errors(editions, f"proc f() {{\n let o = s0.owner\n {body}\n}}\n")
    assert errors[0][0] == "argument 'q' of 'need': expected player, got player?"


def test_narrowed_local_drops_the_bounds_check(editions):
    compilation = editions.compile(
        DATA + "proc f() -> int {\n let o = s0.owner\n if o != none { return o.score }\n"
        " return o.score\n}\nrule r { on turn(p: player) { move(p, f()) } }\n")
    body = function(compilation.program, "proc_f").body
    narrowed = body[1].then[0].value
    unchecked = body[2].value
    assert isinstance(narrowed, ir.State) and narrowed.checked is False
    assert isinstance(unchecked, ir.State) and unchecked.checked is True


def test_assigning_a_narrowed_optional_parameter(editions):
    compilation = editions.compile(
        DATA + "proc f(c: player?) {\n if c != none {\n  c = s1.owner\n }\n}\n"
        "rule r { on turn(p: player) { f(p) } }\n")
    assert function(compilation.program, "proc_f")


# ---- aggregates ------------------------------------------------------------------------------


def test_aggregate_is_lifted_with_free_variables_as_params(editions):
    lowered, _, checker = editions.lower(
        DATA, "count(s in spaces where s.owner == p and s.rent[k] > k)",
        {"p": PLAYER, "k": INT, "unused": INT})
    (aggregate,) = checker.aggregates
    assert aggregate.kind == "count" and aggregate.var == "s"
    assert aggregate.params == (("k", INT), ("p", PLAYER))  # sorted, without `unused`
    assert aggregate.domain.kind == "range"
    assert (aggregate.domain.low, aggregate.domain.high) == (ir.Const(INT, 0), ir.Const(INT, 3))
    assert aggregate.type == INT
    assert lowered == ir.CallProc(INT, aggregate.name, (ir.Local(INT, "k"),
                                                        ir.Local(PLAYER, "p")))


def test_aggregate_over_players_and_ranges(editions):
    _, _, checker = editions.lower(DATA, "sum(k * n for k in 1 to n)", {"n": INT})
    (aggregate,) = checker.aggregates
    assert aggregate.params == (("n", INT),)
    assert aggregate.domain.high == ir.Binary(INT, "+", ir.Local(INT, "n"), ir.Const(INT, 1))
    _, _, checker = editions.lower(DATA, "count(q in players)")
    (aggregate,) = checker.aggregates
    assert aggregate.params == ()
    assert aggregate.domain.kind == "players"


def test_aggregate_takes_the_narrowed_type(editions):
    compilation = editions.compile(
        DATA + "proc f() -> int {\n let o = s0.owner\n if o != none {\n"
        "  return count(s in spaces where s.owner == o)\n }\n return 0\n}\n"
        "rule r { on turn(p: player) { move(p, f()) } }\n")
    (aggregate,) = compilation.program.aggregates
    assert aggregate.params == (("o", PLAYER),)


def test_nested_aggregates_get_distinct_names(editions):
    compilation = editions.compile(
        DATA + "proc f(p: player) -> int {\n"
        "  return count(s in spaces where any(t in spaces where t.owner == p and t == s))\n"
        "}\nrule r { on turn(p: player) { move(p, f(p)) } }\n")
    names = [a.name for a in compilation.program.aggregates]
    assert len(names) == 2
    assert len(set(names)) == 2


# ---- constants ---------------------------------------------------------------------------


def test_constants_are_folded(editions):
    compilation = editions.compile(
        "param base: int = 2 * 3 + 1\n"
        "param twice: int = base * 2 - -1\n"
        "param floor: int = -7 / 2\n"
        "param modulo: int = -7 % 3\n"
        "param later: int = 1\n"
        "set later = (base + 1) * 10\n"
        "param home: space = s2\n"
        "param flag: bool = true\n"
    )
    constants = compilation.program.constants
    assert constants["base"] == 7
    assert constants["twice"] == 15
    assert constants["floor"] == -4  # Python's floor division, as in the generated code
    assert constants["modulo"] == 2
    assert constants["later"] == 80  # the set wins over the default
    assert constants["home"] == 2
    assert constants["flag"] is True


def test_param_uses_become_constants(editions):
    compilation = editions.compile(
        "param steps: int = 3\nset steps = 5\n"
        "rule walk { on land(p: player, s: space) { move(p, steps + 1) } }\n")
    (handler,) = compilation.program.events["land"].handlers
    (statement,) = function(compilation.program, handler.function).body
    amount = statement.expr.args[1]
    assert amount == ir.Binary(INT, "+", ir.Const(INT, 5), ir.Const(INT, 1))
    assert fold(amount) == 6


@pytest.mark.parametrize(
    "expression, value",
    [
        (ir.Binary(INT, "*", ir.Const(INT, 6), ir.Unary(INT, "-", ir.Const(INT, 7))), -42),
        (ir.Binary(INT, "//", ir.Const(INT, 7), ir.Const(INT, 0)), None),
        (ir.Binary(INT, "%", ir.Const(INT, 7), ir.Const(INT, 0)), None),
        (ir.Binary(INT, "+", ir.Local(INT, "k"), ir.Const(INT, 1)), None),
        (ir.Builtin(INT, "turn"), None),
        (ir.Const(STR, "x"), None),
    ],
)
def test_fold(expression, value):
    assert fold(expression) == value


def test_constant_errors(editions):
    located = editions.located(
        "param a: int = b\nparam b: int = a\n"
        "param c: int = current.cash\n"
        "param d: money\n"
        "param e: int = true\n"
    )
    assert (E.CYCLIC_PARAM.code, 13, 1) in located
    assert (E.NOT_CONSTANT.code, 15, 16) in located
    assert (E.PARAM_WITHOUT_VALUE.code, 16, 1) in located
    assert (E.TYPE_MISMATCH.code, 17, 16) in located


def test_die_faces_are_constants(editions):
    compilation = editions.compile(
        "param top: int = 4\ndie odd faces [1, 1 + 2, top + 1]\ndie six faces 1 to 6\n")
    assert [(d.name, d.index, d.faces) for d in compilation.program.dice] == [
        ("odd", 0, (1, 3, 5)), ("six", 1, (1, 2, 3, 4, 5, 6))]


# ---- data tables ---------------------------------------------------------------------------


def test_list_fields_are_padded_with_the_default(editions):
    compilation = editions.compile(
        "field space.rent: money[4] = 7\n"
        "field space.price: money\n"
        "field space.tone: color\n"
        "enum color { red, blue }\n"
    )
    tables = {t.name: t for t in compilation.program.tables}
    assert tables["space_rent"].values == (7,) * 12
    assert tables["space_rent"].stride == 4
    assert tables["space_price"].values == (0, 0, 0)
    assert tables["space_tone"].values == (-1, -1, -1)  # an enum without default is none
    assert tables["space_kind"].values == (0, 1, 0)


def test_field_values_fill_the_tables(editions):
    path = editions.write(
        'edition "T" { rulebook "rulebook.txt" players 2 to 4 }\n'
        "enum kind { plain }\n"
        "field space.rent: money[4] = 7\nfield space.price: money = 0\n"
        "field group.size: int = 2\n"
        'group blue "Blue" { size = 3 }\ngroup red "Red"\n'
        "board {\n"
        '  space a "A" plain { rent = [1, 2], price = 9 }\n'
        '  space b "B" plain { rent = 5 }\n'
        '  space c "C" plain { rent = [1, 2, 3, 4] }\n'
        "}\n"
        "rule turn { on turn(p: player) { move(p, 1) } }\n",
        prelude=False,
    )
    tables = {t.name: t for t in compile_rules(path, until="check").program.tables}
    assert tables["space_rent"].values == (1, 2, 7, 7, 5, 7, 7, 7, 1, 2, 3, 4)
    assert tables["space_price"].values == (9, 0, 0)
    assert tables["group_size"].values == (3, 2)
    assert tables["group_size"].owner == "group"


def test_field_value_errors(editions):
    path = editions.write(
        'edition "T" { rulebook "rulebook.txt" players 2 to 4 }\n'
        "enum kind { plain }\n"
        "field space.rent: money[2]\nfield space.price: money = 0\n"
        "board {\n"
        '  space a "A" plain { rent = [1, 2, 3] }\n'
        '  space b "B" plain { price = [1, 2] }\n'
        '  space c "C" plane { prise = 3 }\n'
        "}\n"
        "rule turn { on turn(p: player) { move(p, 1) } }\n",
        prelude=False,
    )
    with pytest.raises(CompileError) as info:
        compile_rules(path, until="check")
    found = [(d.span.line, d.message, d.hint) for d in info.value.diagnostics]
    assert (6, "'rent' takes at most 2 values, got 3", "") in found
    assert (7, "'price' takes one value, not a list", "") in found
    assert (8, "no space field named 'prise'", "did you mean 'price'?") in found
    assert (8, "unknown space kind 'plane'", "did you mean 'plain'?") in found


def test_fields_are_read_only(editions):
    located = editions.located(
        "field space.price: money = 0\nrule r { on land(p: player, s: space) { s.price = 3 } }\n")
    assert located == [(E.READ_ONLY.code, 14, 41)]


# ---- decisions -------------------------------------------------------------------------------


def test_decision_kinds(editions):
    compilation = editions.compile(DATA + "rule r { on turn(p: player) { need(p) } }\n")
    decisions = {d.name: d for d in compilation.program.decisions}
    assert [d.index for d in compilation.program.decisions] == [0, 1, 2, 3]
    buy, bid, site, target = (decisions[n] for n in ("buy", "bid", "site", "target"))
    assert (buy.kind, buy.optional, buy.params) == ("bool", False, (("p", PLAYER), ("s", SPACE)))
    assert buy.default == ir.Const(BOOL, True)
    assert (bid.kind, bid.optional, bid.low, bid.default) == (
        "int", True, ir.Const(INT, 1), ir.Const(Type("none", True), -1))
    assert isinstance(bid.high, ir.State) and bid.high.array == "player_cash"
    assert (site.kind, site.optional, site.var, site.domain.kind) == (
        "entity", True, "s", "range")
    assert site.domain.high == ir.Const(INT, 3)
    assert isinstance(site.where, ir.Binary) and site.where.op == "=="
    assert (target.kind, target.optional, target.domain.kind, target.default) == (
        "entity", False, "players", None)
    assert buy.by == ir.Local(PLAYER, "p")


@pytest.mark.parametrize(
    "rest, code, column, names",
    [  # names: what the message must name (the code says the kind of mistake)
        ("p -> bool { default 5 }", E.TYPE_MISMATCH, 46, "expected bool, got int"),
        ("p -> int from 1 to 3 { default none }", E.TYPE_MISMATCH, 57, "expected int, got none?"),
        ("3 -> bool { }", E.TYPE_MISMATCH, 26, "expected player, got int"),
        ("p -> int from true to 3 { }", E.TYPE_MISMATCH, 40, "expected int, got bool"),
        ("p -> space where s: s { }", E.TYPE_MISMATCH, 46, "expected bool, got space"),
        ("p -> money where s: true { }", E.TYPE_NOT_ALLOWED, 1, "'money'"),
    ],
)
def test_decision_errors(editions, rest, code, column, names):
    (diagnostic,) = editions.diagnostics(f"decision d(p: player) by {rest}\n")
    assert (diagnostic.code, diagnostic.span.line, diagnostic.span.column) == (
        code.code, 13, column)
    assert names in diagnostic.message


def test_unused_decisions_and_procs_are_warnings(editions):
    compilation = editions.compile(
        "decision d(p: player) by p -> bool { }\nproc f() { }\nparam unused: int = 1\n",
        until="lint")
    assert sorted((w.message, w.code) for w in compilation.warnings) == [
        ("decision 'd' is never asked", "unused-decision"),
        ("param 'unused' is never used", "unused-param"),
        ("procedure 'f' is never called", "unused-procedure")]
    assert all(w.header.endswith(f" [{w.code}]") for w in compilation.warnings)


def test_a_rules_file_silences_a_lint_check_by_name(editions):
    compilation = editions.compile(
        "# boardrules: allow unused-procedure, unused-param\n"
        "decision d(p: player) by p -> bool { }\nproc f() { }\nparam unused: int = 1\n",
        until="lint")
    assert [(w.message, w.code) for w in compilation.warnings] == [
        ("decision 'd' is never asked", "unused-decision")]


# ---- handlers, procedures, the board ---------------------------------------------------------


def test_handler_signature_and_guard(editions):
    compilation = editions.compile(
        "rule r { on land(p: player, s: space) when s == s1 { pay(bank, p, 5) } }\n")
    (ref,) = compilation.program.events["land"].handlers
    f = function(compilation.program, ref.function)
    assert f.params == (("p", PLAYER), ("s", SPACE))
    assert f.guard == ir.Binary(BOOL, "==", ir.Local(SPACE, "s"), ir.Const(SPACE, 1))
    assert f.rule_index == compilation.program.rules.index("r")
    errors = editions.errors("rule q { on land(p: player) { } on lnd(p: player) { } }\n")
    assert "a handler of 'land' takes (p: player, s: space)" in errors
    located = editions.located("rule q { on land(p: player) { } on lnd(p: player) { } }\n")
    assert located == [(E.WRONG_ARGUMENTS.code, 13, 10), (E.UNKNOWN_EVENT.code, 13, 33)]


def test_a_turn_rule_is_required(editions):
    path = editions.write(
        'edition "T" { rulebook "rulebook.txt" }\nenum kind { plain }\n'
        'board { space a "A" plain }\n', prelude=False)
    with pytest.raises(CompileError) as info:
        compile_rules(path, until="check")
    assert [(d.code, d.span.line, d.span.column) for d in info.value.diagnostics] == [
        (E.NO_TURN.code, 1, 1)]


def test_procedure_must_return_on_every_path(editions):
    located = editions.located("proc f(p: player) -> int { if p.cash > 0 { return 1 } }\n")
    assert located == [(E.RETURN_MISMATCH.code, 13, 1)]
    compilation = editions.compile(
        "proc f(p: player) -> int {\n if p.cash > 0 { return 1 } else { end turn }\n}\n"
        "rule r { on turn(p: player) { move(p, f(p)) } }\n")
    assert function(compilation.program, "proc_f").returns == INT


def test_board_track_with_an_offboard_space(editions):
    path = editions.write(
        'edition "T" { rulebook "rulebook.txt" players 2 to 5 }\nenum kind { plain }\n'
        "board {\n"
        '  space a "A" plain\n  space cell "Cell" plain offboard at b\n'
        '  space b "B" plain\n  space c "C" plain\n'
        "}\nrule turn { on turn(p: player) { move(p, 1) } }\n", prelude=False)
    program = compile_rules(path, until="check").program
    assert program.space_ids == ("a", "cell", "b", "c")
    assert program.track == (0, 1, 1, 2)
    assert program.track_length == 3
    assert program.space_of_track == (0, 2, 3)
    assert (program.min_players, program.max_players) == (2, 5)


def test_offboard_at_an_unknown_space(editions):
    path = editions.write(
        'edition "T" { rulebook "rulebook.txt" }\nenum kind { plain }\n'
        'board {\n  space a "A" plain\n  space cell "Cell" plain offboard at aa\n}\n'
        "rule turn { on turn(p: player) { move(p, 1) } }\n", prelude=False)
    with pytest.raises(CompileError) as info:
        compile_rules(path, until="check")
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.span.line, diag.span.column) == (E.UNKNOWN_SPACE.code, 5, 3)
    assert diag.hint == "did you mean 'a'?"


def test_edition_properties(editions):
    path = editions.write(
        'edition "T" { rulebook "rulebook.txt" players 3 to 2 colour "x" }\n'
        'enum kind { plain }\nboard { space a "A" plain }\n'
        "rule turn { on turn(p: player) { move(p, 1) } }\n", prelude=False)
    with pytest.raises(CompileError) as info:
        compile_rules(path, until="check")
    located = [(d.code, d.span.line, d.span.column) for d in info.value.diagnostics]
    assert located == [(E.BAD_EDITION_PROPERTY.code, 1, 39), (E.BAD_EDITION_PROPERTY.code, 1, 54)]


def test_statements_lower(editions):
    compilation = editions.compile(
        DATA + "rule r { on turn(p: player) {\n"
        "  let total = 0\n"
        "  for q in players where q != p { total += q.cash }\n"
        "  pot = total\n"
        "  p.score *= 2\n"
        "  if ask buy(p, s1) { end turn } else { end game }\n"
        "} }\n")
    f = function(compilation.program, "rule_r_0")
    declare, loop, assign_pot, assign_score, branch = f.body
    assert isinstance(declare, ir.Declare) and declare.type == INT
    assert isinstance(loop, ir.Loop) and loop.domain.kind == "players"
    assert isinstance(loop.body[0], ir.Assign) and loop.body[0].op == "+="
    assert assign_pot.target == ir.State(INT, "game_pot", None, False)
    assert assign_score.op == "*=" and assign_score.target.array == "player_score"
    assert branch.test == ir.CallProc(BOOL, "decide_buy", (ir.Local(PLAYER, "p"),
                                                           ir.Const(SPACE, 1)))
    assert branch.then[0] == ir.Raise(branch.then[0].span, "TurnOver")
    assert branch.otherwise[0].what == "GameOver"
    assert f.locals == (("total", INT), ("q", PLAYER))


# ---- windows ---------------------------------------------------------------------------------


def test_a_window_runs_its_body_for_every_seat_from_its_start_in_rounds(editions):
    program = editions.compile(DATA + "proc f(p: player) {\n  window q from p rounds 2 {\n"
                               "    need(q)\n  }\n}\n").program
    body = function(program, "proc_f").body
    place = body[0].name.removesuffix("_from")  # named after the window's line and column
    assert place.startswith("window_") and place.endswith("_3")
    declared = {s.name.removeprefix(place): s.value for s in body if isinstance(s, ir.Declare)}
    assert declared == {"_from": ir.Local(PLAYER, "p"), "_rounds": ir.Const(INT, 2),
                        "_done": ir.Const(INT, 0),  # window number 0, the program's first:
                        "_acted": ir.KernelCall(BOOL, "k_window_open", (ir.Const(INT, 0),))}
    rounds, close = body[-2:]
    assert close.then[0].expr == ir.KernelCall(ir.VOID, "k_close_window", (ir.Const(INT, 0),))
    assert isinstance(rounds, ir.While)
    seats = rounds.body[1]
    assert isinstance(seats, ir.Loop) and seats.domain.high == ir.Builtin(INT, "players_count")
    seat, alive = seats.body
    assert seat.value == ir.KernelCall(PLAYER, "k_seat_from", (
        ir.Local(PLAYER, f"{place}_from"), ir.Local(INT, f"{place}_seat")))
    assert alive.test == ir.Derived(BOOL, "player_alive", ir.Local(PLAYER, "q"))
    assert rounds.body[2] == ir.Assign(rounds.body[2].span, ir.Local(BOOL, f"{place}_acted"), "=",
                                       ir.Binary(BOOL, "!=", ir.KernelCall(INT, "k_changes", ()),
                                                 ir.Local(INT, f"{place}_before")))


@pytest.mark.parametrize("header, message", [
    ("window q from 3", "expected player, got int"),
    ("window q from p rounds true", "expected int, got bool"),
])
def test_window_errors(editions, header, message):
    errors = proc_errors(editions, f"proc f(p: player) {{\n  {header} {{ need(q) }}\n}}\n")
    assert [m for m, _ in errors] == [message]


def test_a_list_counter_indexed_by_player_holds_one_value_per_seat(editions):
    """`money[player]`: one value per seat the edition allows (players 2 to 4 here), read
    and written with a player as the index; an int is not a player."""
    compilation = editions.compile(
        "counter space.owed: money[player] = 0\n"
        "proc owe(s: space, p: player) { s.owed[p] += 1 }\n"
        "proc owed(s: space, p: player) -> money { return s.owed[p] }\n"
    )
    counters = {c.name: c for c in compilation.program.counters}
    assert counters["space_owed"].stride == 4
    found = editions.errors(
        "counter space.owed: money[player] = 0\n"
        "proc owed(s: space) -> money { return s.owed[1] }\n"
    )
    assert any("expected player, got int" in m for m in found), found


def test_a_list_counter_indexed_by_player_keeps_each_seat_apart(editions):
    """Each turn moves one space and lands once: after six turns of three players each
    seat has landed twice, and the fourth seat the edition allows never."""
    _, _, namespace = editions.module(
        "counter space.landed: int[player] = 0\n"
        "rule count_landings { on land(p: player, s: space) { s.landed[p] += 1 } }\n"
    )
    game = namespace["Game"](3, seed=1)
    game.play(6)
    names = [label for label, _, _ in namespace["COUNTERS"]]
    per_space = game.counter_values()[names.index("space.landed")]
    assert [sum(seats[k] for seats in per_space) for k in range(4)] == [2, 2, 2, 0]
