"""One event's handlers: file order unless `before`/`after` says otherwise; cycles fail;
unordered handlers that share what one of them changes are warned about."""

from __future__ import annotations

from boardrules.compiler.common.error_codes import ErrorCode as E

COUNTERS = "counter player.score: int = 0\nevent hit(p: player)\n"


def handlers(compilation, event: str = "hit") -> list[str]:
    return [h.rule for h in compilation.program.events[event].handlers]


def test_without_declared_order_handlers_run_in_file_order(editions):
    c = editions.compile(COUNTERS + """
rule a { on hit(p: player) { p.score += 1 } }
rule b { on hit(p: player) { p.cash += 1 } }
""")
    assert handlers(c) == ["a", "b"]


def test_after_moves_a_handler_behind_a_later_one(editions):
    c = editions.compile(COUNTERS + """
rule a { on hit(p: player) after b { p.score += 1 } }
rule b { on hit(p: player) { p.score *= 2 } }
rule c { on hit(p: player) { p.cash += 1 } }
""")
    assert handlers(c) == ["b", "a", "c"]


def test_before_moves_a_handler_ahead_with_a_guard(editions):
    c = editions.compile(COUNTERS + """
rule a { on hit(p: player) { p.score += 1 } }
rule b { on hit(p: player) { p.cash += 1 } }
rule c { on hit(p: player) before a when p.score > 0 { p.score *= 2 } }
""")
    # the first handler in file order whose predecessors have run comes next
    assert handlers(c) == ["b", "c", "a"]


def test_the_order_is_played(editions):
    _, _, namespace = editions.module(COUNTERS + """
rule a { on hit(p: player) after b { p.score += 1 } }
rule b { on hit(p: player) { p.score *= 2 } }
rule go { on start() { trigger hit(current) } }
""")
    game = namespace["Game"](2, seed=1)
    game.play(1)
    names = [label for label, _, _ in namespace["COUNTERS"]]
    scores = game.counter_values()[names.index("player.score")]
    assert scores[0] == 1  # doubled first (0), then one added; file order would give 2


def test_a_cycle_is_an_error(editions):
    located = editions.located(COUNTERS + """
rule a { on hit(p: player) after b { p.score += 1 } }
rule b { on hit(p: player) after a { p.score *= 2 } }
""")
    assert [code for code, _, _ in located] == [E.HANDLER_ORDER.code]


def test_an_order_on_an_unknown_rule_or_one_without_the_event(editions):
    messages = editions.errors(COUNTERS + """
rule a { on hit(p: player) after bee { p.score += 1 } }
rule b { on hit(p: player) before c { p.score *= 2 } }
rule c { on start() { } }
""")
    assert messages == ["unknown rule 'bee'", "rule 'c' has no handler of 'hit'"]


def test_unordered_handlers_sharing_a_counter_are_warned_about(editions):
    c = editions.compile(COUNTERS + """
rule a { on hit(p: player) { p.score += 1 } }
rule b { on hit(p: player) { if p.score > 1 { p.cash += 1 } } }
""")
    [warning] = [w for w in c.warnings if "handlers of 'hit'" in w.message]
    assert "'a'" in warning.message and "both use player.score," in warning.message
    assert warning.code == "unordered-handlers"
    assert warning.span.line == c.program.functions[-1].span.line  # at the later handler


def test_declared_or_exclusive_handlers_are_not_warned_about(editions):
    c = editions.compile(COUNTERS + """
rule a { on hit(p: player) { p.score += 1 } }
rule b { on hit(p: player) after a { if p.score > 1 { p.cash += 1 } } }
rule c { on hit(p: player) when p.position.kind == plain { p.score += 1 } }
rule d { on hit(p: player) when p.position.kind == special { p.score *= 3 } }
""")
    pairs = [w.message for w in c.warnings if "handlers of 'hit'" in w.message]
    assert not [m for m in pairs if "'a' (" in m and "and 'b'" in m]
    assert not [m for m in pairs if "'c' (" in m and "and 'd'" in m]
    assert [m for m in pairs if "'a' (" in m and "and 'c'" in m]  # the control: warned


# A library like the real one: its turn handler in jail lets the player out (and may end
# the turn), its charge keeps a count of held steps no edition names.
JAIL_LIB = """
counter player.in_jail: bool = false
counter holds: int = 0
proc charge_held(p: player, amount: money) {
  holds += 1
  pay(p, bank, amount)
  holds -= 1
}
rule jail {
  on turn(p: player) when p.in_jail {
    p.in_jail = false
    charge_held(p, 5)
  }
}
rule toll {
  on land(p: player, s: space) when s.kind == special { charge_held(p, 1) }
}
rule card_factor {
  on land(p: player, s: space) when p.in_jail { pay(bank, p, 1) }
}
"""


def cross_warnings(editions, body: str) -> list:
    c = editions.compile("import jail\ncounter player.bonus: int = 0\n" + body,
                         libs={"jail": JAIL_LIB})
    return [w for w in c.warnings if w.code == "unordered-handlers"]


def test_an_editions_handler_reading_what_a_library_handler_changes_is_warned(editions):
    [warning] = cross_warnings(editions, """
rule jail_bonus { on turn(p: player) when p.in_jail { p.bonus += 1 } }
""")
    assert "'jail' (jail.rules:" in warning.message and "and 'jail_bonus'" in warning.message
    assert "player.in_jail" in warning.message and "the library's first" in warning.message
    assert warning.span.path.endswith("ed.rules")  # at the edition's handler
    assert "after jail, or before jail" in warning.hint


def test_an_editions_write_that_a_library_handler_reads_is_warned(editions):
    [warning] = cross_warnings(editions, """
rule sent { on land(p: player, s: space) { p.in_jail = true } }
""")
    assert "'card_factor'" in warning.message and "player.in_jail" in warning.message


def test_a_library_counter_the_edition_never_names_is_not_warned_about(editions):
    # both handlers change `holds`, the edition's only through the library's procedure
    assert not cross_warnings(editions, """
rule tax { on land(p: player, s: space) { charge_held(p, 2) } }
""")


def test_a_declared_order_against_a_library_handler_is_not_warned_about(editions):
    assert not cross_warnings(editions, """
rule jail_bonus { on turn(p: player) after jail when p.in_jail { p.bonus += 1 } }
""")


def test_two_edition_handlers_sharing_only_library_bookkeeping_are_not_warned(editions):
    # both change `holds`, only through the library's procedure: its own balanced count
    assert not cross_warnings(editions, """
rule tax { on land(p: player, s: space) { charge_held(p, 2) } }
rule fee { on land(p: player, s: space) { charge_held(p, 1) } }
""")
