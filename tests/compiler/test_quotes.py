"""The quotes pass (quotes.py, rulebook.py): every quote occurs verbatim, white space folded."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardrules.compiler.common.diagnostics import Reporter
from boardrules.compiler.common.error_codes import ErrorCode as E
from boardrules.compiler.front.quotes import check_quotes, quoted_units, rulebook_path
from boardrules.compiler.front.rulebook import Rulebook, fold, load_rulebook


def book(text: str) -> Rulebook:
    return Rulebook(Path("rulebook.txt"), text)


# ---- folding and matching ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text, folded",
    [
        ("a  b", "a b"),
        ("  a\n\tb \r\n c  ", "a b c"),
        ("one\n\ntwo", "one two"),
        ("no\u00a0break", "no break"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_fold(text, folded):
    assert fold(text) == folded


def test_quote_spanning_a_line_break_matches():
    rulebook = book("Each player is given\n1,500 dollars.  Then the\n\n   game starts.")
    assert rulebook.contains("Each player is given 1,500 dollars.")
    assert rulebook.contains("dollars. Then the game starts.")
    assert rulebook.contains("  given   1,500\ndollars.  ")


def test_quote_must_be_verbatim():
    rulebook = book("Each player is given 1,500 dollars.")
    assert not rulebook.contains("Each player is given 1500 dollars.")
    assert not rulebook.contains("each player is given")  # case matters
    assert not rulebook.contains("Eachplayer")  # white space is folded, not removed
    assert not rulebook.contains("")
    assert not rulebook.contains(" \n ")


def test_closest_is_the_longest_agreeing_prefix():
    rulebook = book("Each player is given\n1,500 dollars.")
    assert rulebook.closest("Each player is given 2,000 dollars.") == "Each player is given "
    assert rulebook.closest("Nothing like it") == ""
    assert rulebook.closest("Each player is given 1,500 dollars.") == (
        "Each player is given 1,500 dollars.")


def test_load_rulebook_reads_utf8(tmp_path):
    path = tmp_path / "rb.txt"
    path.write_text("Wishes® and Résumé", encoding="utf-8")
    assert load_rulebook(path).contains("Wishes® and Résumé")


# ---- the pass -------------------------------------------------------------------------------


def test_rulebook_path_is_next_to_the_edition(editions):
    symbols, _ = editions.collect("")
    path = editions.root / "ed" / "ed.rules"
    found, span = rulebook_path(symbols, path)
    assert found == (editions.root / "ed" / "rulebook.txt").resolve()
    assert span.line == 2  # the edition's `rulebook` property


def test_correct_quotes_pass_across_line_breaks(editions):
    compilation = editions.compile(
        "param start_cash: money = 100\n"
        '  quote "Each player starts with 100 beans."\n'
        "rule toll {\n"
        '  quote "Whoever lands on a space pays its toll."\n'
        "}\n",
        until="quotes",
    )
    assert not compilation.reporter.errors
    assert compilation.rulebook.contains("100 beans. Whoever")


def test_misquote_fails_with_a_hint(editions):
    diagnostics = editions.diagnostics(
        'rule toll {\n  quote "Each player starts with 200 beans."\n}\n')
    (diag,) = diagnostics
    assert diag.code == E.NOT_IN_RULEBOOK.code
    assert diag.hint == "the rulebook agrees up to: ...'Each player starts with '"
    assert (diag.span.line, diag.span.column) == (14, 3)


def test_quote_with_nothing_in_common(editions):
    (diag,) = editions.diagnostics('use turn { quote "Zebras" }\n')
    assert diag.hint.startswith("no part of it occurs in the rulebook")


def test_quotes_are_checked_wherever_they_are_attached(editions):
    body = (
        'param a: int = 1 quote "bad 1"\n'
        'counter player.b: int = 0 quote "bad 2"\n'
        'group g "G" quote "bad 3"\n'
        'deck luck(p: player) "Luck" { card c "C" quote "bad 4" } quote "bad 5"\n'
        'die six faces 1 to 6 quote "bad 6"\n'
        'decision d(p: player) by p -> bool { } quote "bad 7"\n'
        'use turn { quote "bad 8" }\n'
        'game { turn_limit 10 quote "bad 9" }\n'
        'rule r { quote "bad 10" }\n'
        'enum e { x } quote "bad 11"\n'
        'set a = 2 quote "bad 12"\n'
    )
    symbols, _ = editions.collect(body)
    units = quoted_units(symbols)
    assert sorted(q.text for quotes in units.values() for q in quotes) == sorted(
        f"bad {i}" for i in range(1, 13))
    assert {"a", "player_b", "g", "c", "luck", "six", "d", "turn", "game_turn_limit", "r",
            "e"} <= set(units)
    reporter = Reporter()
    check_quotes(symbols, editions.root / "ed" / "ed.rules", reporter)
    assert len(reporter.errors) == 12
    assert {d.code for d in reporter.errors} == {E.NOT_IN_RULEBOOK.code}


def test_waivers(editions):
    symbols, _ = editions.collect(
        'waive "The Test Game." because "a title"\n'
        'waive "Not in the book" because "reason"\n'
        'waive "Each player" because "  "\n'
    )
    reporter = Reporter()
    check_quotes(symbols, editions.root / "ed" / "ed.rules", reporter)
    assert [(d.span.line, d.code) for d in reporter.errors] == [
        (14, E.NOT_IN_RULEBOOK.code),
        (15, E.MISSING_REASON.code),
    ]


def test_missing_rulebook(editions):
    symbols, _ = editions.collect("", rulebook=None)
    reporter = Reporter()
    assert check_quotes(symbols, editions.root / "ed" / "ed.rules", reporter) is None
    (diag,) = reporter.errors
    assert diag.code == E.RULEBOOK_FILE.code
    assert diag.span.line == 2  # points at the `rulebook` property


def test_quote_errors_do_not_hide_later_errors(editions):
    """The quotes pass does not stop compilation: the checker's errors come too."""
    located = editions.located(
        'rule r { quote "Zebras" on turn(p: player) { move(p, true) } }\n')
    assert located == [(E.NOT_IN_RULEBOOK.code, 13, 10), (E.TYPE_MISMATCH.code, 13, 54)]


# ---- a quote that occurs more than once -------------------------------------------------

TWICE = """Test Game

Play
Each turn, roll the die and move. Pay the toll.
Then the next player plays.

Chance
Draw a card and do what it says. Pay the toll.
The card goes back under the deck.
"""

def test_a_quote_found_twice_is_a_warning_naming_both_lines(editions):
    c = editions.compile('rule toll { quote "Pay the toll." }\n', rulebook=TWICE)
    [warning] = [w for w in c.warnings if "occurs" in w.message]
    assert warning.message == ("quote occurs 2 times in the rulebook, at rulebook.txt lines "
                               "4, 8, and is quoted 1 time: coverage credits the first 1")
    assert warning.code == "repeated-quote"
    assert warning.span.line == 13  # after the prelude


def test_occurrences_on_one_line_name_the_line_once(editions):
    c = editions.compile('rule toll { quote "the toll" }\n', rulebook=TWICE.replace(
        "Then the next player plays.", "Then the toll, the toll, the toll."))
    [warning] = [w for w in c.warnings if "occurs" in w.message]
    assert warning.message.startswith("quote occurs 5 times in the rulebook, at rulebook.txt "
                                      "lines 4, 5 (3 times), 8, and is quoted 1 time")


def test_coverage_credits_a_repeated_quote_once(editions):
    from boardrules.harness.coverage import coverage

    c = editions.compile('rule toll { quote "Pay the toll." }\n', rulebook=TWICE,
                         until="codegen")
    statuses = [(s.sentence.text, s.status) for s in coverage(c, []).sentences
                if "toll" in s.sentence.text]
    assert [status for _, status in statuses] == ["untested", "uncovered"], statuses


def test_a_text_quoted_once_for_each_place_covers_each_place(editions):
    """The n-th quote of a text that stands at several places takes the n-th: both of the
    rulebook's "Pay the toll." are covered, and nothing is warned."""
    from boardrules.harness.coverage import coverage

    c = editions.compile('rule toll { quote "Pay the toll." }\n'
                         'rule chance_toll { quote "Pay the toll." }\n', rulebook=TWICE,
                         until="codegen")
    assert not [w for w in c.warnings if "occurs" in w.message]
    statuses = [s.status for s in coverage(c, []).sentences if "toll" in s.sentence.text]
    assert statuses == ["untested", "untested"]
