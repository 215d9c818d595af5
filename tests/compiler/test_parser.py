"""Pass 1 (parser.py): the AST's shapes and spans, precedence, strings, syntax errors."""

from __future__ import annotations

import pytest

from boardrules.compiler.common.diagnostics import CompileError, Span
from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.front import ast
from boardrules.compiler.front.parser import parse

PATH = "t.rules"


def decls(text: str) -> tuple[ast.Decl, ...]:
    return parse(text, PATH).decls


def one(text: str) -> ast.Decl:
    (decl,) = decls(text)
    return decl


def expr(text: str) -> ast.Expr:
    """The expression of `set x = <text>` (on line 1, starting at column 9)."""
    decl = one(f"set x = {text}\n")
    assert isinstance(decl, ast.SetParam)
    return decl.value


def stmts(body: str) -> tuple[ast.Stmt, ...]:
    proc = one(f"proc f() {{\n{body}\n}}\n")
    assert isinstance(proc, ast.ProcDecl)
    return proc.body


def shape(e: ast.Expr):
    """An expression as nested tuples, to compare tree shapes without spans."""
    match e:
        case ast.IntLit():
            return e.value
        case ast.StrLit():
            return repr(e.value)
        case ast.BoolLit():
            return e.value
        case ast.NoneLit():
            return None
        case ast.Name():
            return e.name
        case ast.BinOp():
            return (e.op, shape(e.left), shape(e.right))
        case ast.Not():
            return ("not", shape(e.operand))
        case ast.Neg():
            return ("neg", shape(e.operand))
        case ast.Attr():
            return (".", shape(e.target), e.name)
        case ast.Index():
            return ("[]", shape(e.target), shape(e.index))
        case ast.Call():
            return ("call", e.name, *map(shape, e.args))
        case ast.Ask():
            return ("ask", e.decision, *map(shape, e.args))
        case ast.Cond():
            return ("if", shape(e.test), shape(e.then), shape(e.otherwise))
        case ast.ListLit():
            return ["list", *map(shape, e.items)]
        case ast.Aggregate():
            return (e.kind, shape(e.value) if e.value else None, e.var, e.domain.kind,
                    e.domain.name, shape(e.where) if e.where else None)
    raise AssertionError(e)


def at(span: Span) -> tuple[int, int, int, int]:
    return (span.line, span.column, span.end_line, span.end_column)


# ---- declarations -------------------------------------------------------------------


def test_module_span_and_path():
    module = parse("import classic\n\nimport other\n", PATH)
    assert module.path == PATH
    assert [d.name for d in module.decls] == ["classic", "other"]
    assert all(isinstance(d, ast.Import) for d in module.decls)
    assert at(module.decls[1].span) == (3, 1, 3, 13)


def test_one_import_of_several_libraries():
    module = parse("import jail, dice,turn\nimport go\n", PATH)
    assert [d.name for d in module.decls] == ["jail", "dice", "turn", "go"]
    assert all(isinstance(d, ast.Import) for d in module.decls)
    assert [at(d.span) for d in module.decls[:3]] == [(1, 8, 1, 12), (1, 14, 1, 18),
                                                      (1, 19, 1, 23)]


def test_edition_header():
    edition = one('edition "My Game" {\n  rulebook "rb.txt"\n  players 2 to 6\n}\n')
    assert isinstance(edition, ast.Edition)
    assert edition.title == "My Game"
    assert at(edition.span) == (1, 1, 4, 2)
    (rb_name, rb_values, rb_span), (pl_name, pl_values, pl_span) = edition.props
    assert rb_name == "rulebook" and [v.value for v in rb_values] == ["rb.txt"]
    assert pl_name == "players" and [v.value for v in pl_values] == [2, 6]
    assert at(rb_span) == (2, 3, 2, 20)
    assert at(pl_span) == (3, 3, 3, 17)


def test_param_with_type_default_and_provenance():
    param = one('param fine: money? = 50 quote "Pay 50." assume "why"\n')
    assert isinstance(param, ast.ParamDecl)
    assert param.name == "fine"
    assert (param.type.name, param.type.optional, param.type.length) == ("money", True, 0)
    assert shape(param.value) == 50
    quote, assume = param.provenance
    assert isinstance(quote, ast.Quote) and quote.text == "Pay 50."
    assert isinstance(assume, ast.Assume) and assume.reason == "why"
    assert at(quote.span) == (1, 25, 1, 40)


def test_param_without_value():
    param = one("param start_cash: money\n")
    assert param.value is None and param.provenance == ()


def test_set_enum_field_and_counters():
    set_, enum, field, owned, glob = decls(
        "set salary = 200\n"
        "enum kind { go, street, }\n"
        "field space.rent: money[6] = 1\n"
        "counter player.jail_turns: int = 0\n"
        "counter houses_left: int\n"
    )
    assert isinstance(set_, ast.SetParam) and (set_.name, shape(set_.value)) == ("salary", 200)
    assert isinstance(enum, ast.EnumDecl) and enum.members == ("go", "street")
    assert isinstance(field, ast.FieldDecl)
    assert (field.owner, field.name, field.type.length, shape(field.default)) == (
        "space", "rent", 6, 1)
    assert isinstance(owned, ast.CounterDecl)
    assert (owned.owner, owned.name, shape(owned.initial)) == ("player", "jail_turns", 0)
    assert isinstance(glob, ast.CounterDecl)
    assert (glob.owner, glob.name, glob.initial) == ("", "houses_left", None)


def test_board_spaces_offboard_and_field_values():
    board = one(
        "board {\n"
        '  space go "GO" corner\n'
        '  space park "Park Lane" street { group = blue, rent = [1, 2], } quote "x"\n'
        '  space jail "Jail" cell offboard at go\n'
        "}\n"
    )
    assert isinstance(board, ast.Board)
    go, park, jail = board.spaces
    assert (go.name, go.title, go.kind, go.offboard_at, go.values) == (
        "go", "GO", "corner", "", ())
    assert [(v.name, shape(v.value)) for v in park.values] == [
        ("group", "blue"), ("rent", ["list", 1, 2])]
    assert [p.text for p in park.provenance] == ["x"]
    assert jail.offboard_at == "go"
    assert at(park.span) == (3, 3, 3, 75)
    assert at(park.values[1].span) == (3, 49, 3, 62)


def test_dice_faces_range_and_list():
    six, odd = decls("die six faces 1 to 6\ndie odd faces [1, 3, 5]\n")
    assert isinstance(six, ast.DieDecl)
    assert [f.value for f in six.faces] == [1, 2, 3, 4, 5, 6]
    assert [f.value for f in odd.faces] == [1, 3, 5]


def test_deck_and_cards():
    deck = one(
        'deck chance(p: player, n: int) "Chance" {\n'
        '  card a "Take 5." do { pay(bank, p, 5) }\n'
        '  card b "Keep me." keep\n'
        '  card c "Worth 3." { worth = 3 } assume "printed"\n'
        "}\n"
    )
    assert isinstance(deck, ast.DeckDecl)
    assert (deck.name, deck.title) == ("chance", "Chance")
    assert [(p.name, p.type.name) for p in deck.params] == [("p", "player"), ("n", "int")]
    a, b, c = deck.cards
    assert (a.name, a.text, a.keep, len(a.effect)) == ("a", "Take 5.", False, 1)
    assert isinstance(a.effect[0], ast.CallStmt)
    assert shape(a.effect[0].call) == ("call", "pay", "bank", "p", 5)
    assert (b.keep, b.effect, b.values) == (True, (), ())
    assert [(v.name, shape(v.value)) for v in c.values] == [("worth", 3)]
    assert [p.reason for p in c.provenance] == ["printed"]


def test_decisions_of_each_kind():
    yes, amount, pick = decls(
        'decision buy(p: player, s: space) by p -> bool {\n  prompt "Buy?"\n  default true\n}\n'
        "decision bid(p: player) by p -> int? from 1 to p.cash { }\n"
        "decision build(p: player) by p -> space? where s: s.owner == p { default none }\n"
    )
    assert isinstance(yes, ast.DecisionDecl)
    assert (yes.kind, yes.optional, yes.prompt, shape(yes.default)) == ("bool", False, "Buy?", True)
    assert shape(yes.by) == "p"
    assert (amount.kind, amount.optional, shape(amount.low), shape(amount.high)) == (
        "int", True, 1, (".", "p", "cash"))
    assert amount.default is None and amount.prompt == ""
    assert (pick.kind, pick.optional, pick.entity_type, pick.var) == ("entity", True, "space", "s")
    assert shape(pick.where) == ("==", (".", "s", "owner"), "p")
    assert pick.default is not None and shape(pick.default) is None


def test_proc_rule_handlers_use_waive_assumption():
    proc, rule, use, waive, assumption, event = decls(
        "proc rent(s: space) -> money { return 1 }\n"
        "rule go_salary {\n"
        '  quote "Collect 200."\n'
        "  on pass(p: player, s: space) when s == go { pay(bank, p, 200) }\n"
        "  on land(p: player, s: space) { }\n"
        "}\n"
        'use setup { quote "All to the Bank." }\n'
        'waive "Some text." because "not a rule"\n'
        'assumption dice "two dice"\n'
        "event bankrupt(p: player)\n"
    )
    assert isinstance(proc, ast.ProcDecl)
    assert proc.returns.name == "money" and isinstance(proc.body[0], ast.Return)
    assert isinstance(rule, ast.RuleDecl)
    assert [q.text for q in rule.provenance] == ["Collect 200."]
    on_pass, on_land = rule.handlers
    assert on_pass.event == "pass" and shape(on_pass.guard) == ("==", "s", "go")
    assert [p.name for p in on_pass.params] == ["p", "s"]
    assert on_land.guard is None and on_land.body == ()
    assert at(on_pass.span) == (4, 3, 4, 66)
    assert isinstance(use, ast.UseRule) and use.name == "setup"
    assert [q.text for q in use.provenance] == ["All to the Bank."]
    assert (waive.text, waive.reason) == ("Some text.", "not a rule")
    assert (assumption.name, assumption.reason) == ("dice", "two dice")
    assert isinstance(event, ast.EventDecl) and event.params[0].type.name == "player"


def test_game_properties():
    game = one(
        "game {\n"
        "  over when count(q in players) <= 1 quote \"Last one wins.\"\n"
        "  score(p: player) = p.cash\n"
        "  turn_limit 500\n"
        "  first 0\n"
        "}\n"
    )
    assert isinstance(game, ast.GameDecl)
    kinds = [p.kind for p in game.props]
    assert kinds == ["over", "score", "turn_limit", "first"]
    over, score, limit, _ = game.props
    assert shape(over.value) == ("<=", ("count", None, "q", "players", "", None), 1)
    assert [q.text for q in over.provenance] == ["Last one wins."]
    assert [p.name for p in score.params] == ["p"]
    assert shape(limit.value) == 500


def test_scenario_steps():
    scenario = one(
        'scenario "jail" for go_to_jail {\n'
        "  players 3\n"
        "  given { current.cash = 5 }\n"
        "  dice [1, 2]\n"
        "  cards luck [a, b]\n"
        "  answer buy [1, 0]\n"
        "  play 1\n"
        "  expect current.cash == 5\n"
        "}\n"
    )
    assert isinstance(scenario, ast.Scenario)
    assert (scenario.title, scenario.rule) == ("jail", "go_to_jail")
    steps = scenario.steps
    assert [s.kind for s in steps] == [
        "players", "given", "dice", "cards", "answer", "play", "expect"]
    assert steps[0].count == 3
    assert isinstance(steps[1].body[0], ast.Assign)
    assert [shape(e) for e in steps[2].exprs] == [1, 2]
    assert (steps[3].name, steps[3].names) == ("luck", ("a", "b"))
    assert (steps[4].name, [shape(e) for e in steps[4].exprs]) == ("buy", [1, 0])
    assert at(steps[6].span) == (8, 3, 8, 27)


def test_random_step_and_a_policy_named_random():
    scenario = one(
        'scenario "lot" for tokens {\n'
        "  policy p2 random\n"
        "  random [2, 0]\n"
        "  policy random\n"
        "  expect random(3) == 1\n"
        "}\n"
    )
    steps = scenario.steps
    assert [s.kind for s in steps] == ["policy", "random", "policy", "expect"]
    assert (steps[0].names, steps[0].name, steps[2].name) == (("p2",), "random", "random")
    assert [shape(e) for e in steps[1].exprs] == [2, 0]


# ---- statements -----------------------------------------------------------------------


def test_a_name_to_may_start_a_statement():
    """`to` is a range's keyword only before its upper bound: a parameter named `to` may
    start the statement after an expression, and `to_x` stays a name."""
    let, assign, ranged, call, reassign = stmts(
        "let x = to\n"
        "to.owner = p\n"
        "for k in 1 to(n) { }\n"
        "to_x(k)\n"
        "to = x\n"
    )
    assert shape(let.value) == "to" and shape(assign.target) == (".", "to", "owner")
    assert shape(ranged.domain.high) == "n"
    assert shape(call.call) == ("call", "to_x", "k") and shape(reassign.target) == "to"



def test_let_and_assignments():
    let, typed, assign, plus, minus, times, attr, index = stmts(
        "let a = 1\n"
        "let b: space? = none\n"
        "a = 2\n"
        "a += 3\n"
        "a -= 4\n"
        "a *= 5\n"
        "p.cash = 6\n"
        "p.rent[1] = 7\n"
    )
    assert isinstance(let, ast.Let) and (let.name, let.type, shape(let.value)) == ("a", None, 1)
    assert (typed.type.name, typed.type.optional) == ("space", True)
    assert [s.op for s in (assign, plus, minus, times)] == ["=", "+=", "-=", "*="]
    assert shape(attr.target) == (".", "p", "cash")
    assert shape(index.target) == ("[]", (".", "p", "rent"), 1)
    assert at(let.span) == (2, 1, 2, 10)
    assert at(plus.span) == (5, 1, 5, 7)


def test_if_else_if_chain():
    (chain,) = stmts("if a { x() } else if b { y() } else { z() }")
    assert isinstance(chain, ast.If) and shape(chain.test) == "a"
    (inner,) = chain.otherwise
    assert isinstance(inner, ast.If) and shape(inner.test) == "b"
    assert shape(inner.otherwise[0].call) == ("call", "z")
    (plain,) = stmts("if a { x() }")
    assert plain.otherwise == ()


def test_loops_and_control_flow():
    loop, ranged, cards, each, wh, ret, bare, trig, drw, et, eg = stmts(
        "for s in spaces where s.price > 0 { f(s) }\n"
        "for k in 1 to n + 1 { }\n"
        "for c in cards luck { }\n"
        "for m in each kind { }\n"
        "while x < 3 { x += 1 }\n"
        "return x\n"
        "return\n"
        "trigger bankrupt(p)\n"
        "draw luck(p)\n"
        "end turn\n"
        "end game\n"
    )
    assert isinstance(loop, ast.For) and (loop.var, loop.domain.kind) == ("s", "spaces")
    assert shape(loop.where) == (">", (".", "s", "price"), 0)
    assert ranged.domain.kind == "range" and ranged.where is None
    assert (shape(ranged.domain.low), shape(ranged.domain.high)) == (1, ("+", "n", 1))
    assert (cards.domain.kind, cards.domain.name) == ("cards", "luck")
    assert (each.domain.kind, each.domain.name) == ("enum", "kind")
    assert isinstance(wh, ast.While) and isinstance(wh.body[0], ast.Assign)
    assert isinstance(ret, ast.Return) and shape(ret.value) == "x"
    assert isinstance(bare, ast.Return) and bare.value is None
    assert isinstance(trig, ast.Trigger) and (trig.event, len(trig.args)) == ("bankrupt", 1)
    assert isinstance(drw, ast.Draw) and drw.deck == "luck"
    assert isinstance(et, ast.EndTurn) and isinstance(eg, ast.EndGame)


def test_multiline_statement_span():
    (stmt,) = stmts("if a {\n  x()\n}")
    assert at(stmt.span) == (2, 1, 4, 2)
    assert at(stmt.then[0].span) == (3, 3, 3, 6)


# ---- expressions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1 + 2 * 3 - 4", ("-", ("+", 1, ("*", 2, 3)), 4)),
        ("10 - 3 - 2", ("-", ("-", 10, 3), 2)),
        ("8 / 4 % 3 * 2", ("*", ("%", ("/", 8, 4), 3), 2)),
        ("(1 + 2) * 3", ("*", ("+", 1, 2), 3)),
        ("1-2", ("-", 1, 2)),
        ("- -x", ("neg", ("neg", "x"))),
        ("-a.b[0] + 1", ("+", ("neg", ("[]", (".", "a", "b"), 0)), 1)),
        ("a + 1 < b * 2", ("<", ("+", "a", 1), ("*", "b", 2))),
        ("not a == b or c and d", ("or", ("not", ("==", "a", "b")), ("and", "c", "d"))),
        ("a or b or c", ("or", ("or", "a", "b"), "c")),
        ("a and not b", ("and", "a", ("not", "b"))),
        ("x.owner != none", ("!=", (".", "x", "owner"), None)),
        ("if a then 1 else if b then 2 else 3", ("if", "a", 1, ("if", "b", 2, 3))),
        ("f(1, g(2)) + ask buy(p, s)", ("+", ("call", "f", 1, ("call", "g", 2)),
                                        ("ask", "buy", "p", "s"))),
        ("f()", ("call", "f")),
        ("[1, 2, 3]", ["list", 1, 2, 3]),
        ("true and false", ("and", True, False)),
    ],
)
def test_operator_precedence(text, expected):
    assert shape(expr(text)) == expected


def test_comparisons_do_not_chain():
    with pytest.raises(CompileError) as info:
        parse("set x = 1 < 2 < 3\n", PATH)
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.span.line, diag.span.column) == (E.UNEXPECTED_TOKEN.code, 1, 15)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("count(q in players)", ("count", None, "q", "players", "", None)),
        ("sum(s.price for s in spaces where s.owner == p)",
         ("sum", (".", "s", "price"), "s", "spaces", "", ("==", (".", "s", "owner"), "p"))),
        ("any(c in cards luck)", ("any", None, "c", "cards", "luck", None)),
        ("best(0 - k for k in 1 to 6)", ("best", ("-", 0, "k"), "k", "range", "", None)),
        ("max_of(g.size for g in groups)", ("max_of", (".", "g", "size"), "g", "groups", "",
                                            None)),
        ("all(m != a for m in each kind)", ("all", ("!=", "m", "a"), "m", "enum", "kind", None)),
    ],
)
def test_aggregates(text, expected):
    assert shape(expr(text)) == expected


def test_expression_spans():
    e = expr("a + b * c")
    assert at(e.span) == (1, 9, 1, 18)
    assert at(e.left.span) == (1, 9, 1, 10)
    assert at(e.right.span) == (1, 13, 1, 18)
    assert at(e.right.right.span) == (1, 17, 1, 18)
    call = expr("f(x.y, 2)")
    assert at(call.span) == (1, 9, 1, 18)
    assert at(call.args[0].span) == (1, 11, 1, 14)


def test_inner_operation_of_a_chain_has_its_own_span():
    outer = expr("1 + 2 + 3")
    assert at(outer.span) == (1, 9, 1, 18)
    assert at(outer.left.span) == (1, 9, 1, 14)


# ---- strings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "literal, value",
    [
        (r'"plain"', "plain"),
        (r'"say \"GO\""', 'say "GO"'),
        (r'"back\\slash"', "back\\slash"),
        (r'"two\nlines"', "two\nlines"),
        (r'"caf\u00e9"', "café"),
        ('"Disneyland® Résort"', "Disneyland® Résort"),
        (r'""', ""),
    ],
)
def test_string_escapes(literal, value):
    assert one(f"waive {literal} because \"r\"\n").text == value


def test_string_cannot_span_lines():
    with pytest.raises(CompileError):
        parse('waive "two\nlines" because "r"\n', PATH)


def test_bad_escape_is_a_compile_error():
    try:
        parse('edition "T" {}\nwaive "a \\x41" because "r"\n', PATH)
    except CompileError as exc:
        (diag,) = exc.diagnostics
        assert (diag.code, diag.span.line, diag.span.column) == (E.BAD_ESCAPE.code, 2, 7)
    except Exception as exc:  # noqa: BLE001 - the bug: any other exception type
        pytest.fail(f"{type(exc).__name__} instead of CompileError: {exc}")
    else:
        pytest.fail("a bad escape was accepted")


def test_raw_tab_inside_a_string_is_kept():
    try:
        decl = one('waive "a\tb" because "r"\n')
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"{type(exc).__name__}: {exc}")
    assert decl.text == "a\tb"


# ---- syntax errors ------------------------------------------------------------------------


def test_syntax_error_position_and_expectation():
    with pytest.raises(CompileError) as info:
        parse("rule r {\n  on turn(p: player) {\n    let = 3\n  }\n}\n", PATH)
    (diag,) = info.value.diagnostics
    assert (diag.span.path, diag.span.line, diag.span.column) == (PATH, 3, 9)
    assert diag.code == E.UNEXPECTED_TOKEN.code
    assert diag.hint == "expected a name"
    assert str(info.value).startswith("t.rules:3:9: error: unexpected '=' [BR101]\n")


def test_single_quotes_get_a_hint():
    with pytest.raises(CompileError) as info:
        parse("edition 'T' {}\n", PATH)
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.span.line, diag.span.column) == (E.UNEXPECTED_CHARACTER.code, 1, 9)
    assert diag.hint == "strings use double quotes"


def test_unexpected_end_of_file():
    with pytest.raises(CompileError) as info:
        parse("board {\n  space go \"GO\" corner\n", PATH)
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.span.line, diag.span.column) == (E.UNEXPECTED_END.code, 2, 23)
    assert "'}'" in diag.hint


def test_comments_are_ignored():
    module = parse("# a comment\nimport x # trailing\n# end", PATH)
    assert [d.name for d in module.decls] == ["x"]
    assert module.decls[0].span.line == 2


def test_ast_is_frozen():
    decl = one("import x\n")
    with pytest.raises(AttributeError):
        decl.name = "y"
