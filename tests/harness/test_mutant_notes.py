"""Equivalent notes name a mutant by what it changes (harness/mutant_notes.py): an aggregate
by its rules text, alike mutants by the rules text they stand on or their block, never by a
line number; a note that names several mutants notes none and is reported.

On a copy of tests/editions/mutation_demo whose tax rule writes one payment in both
branches of an `if` on an aggregate; compiled to the check pass only (no mutant runs)."""

from __future__ import annotations

import re
from pathlib import Path

from boardrules.compiler.mutation.mutation_text import AGGREGATE_WIDTH
from boardrules.compiler.mutation.mutations import mutants
from boardrules.compiler.pipeline import compile_rules
from boardrules.harness.mutant_notes import match_notes, names, note_names

EDITION = Path(__file__).resolve().parents[1] / "editions" / "mutation_demo" / \
    "mutation_demo.rules"
TAX = '''  on land(p: player, s: space) when s.kind == tax and p.cash >= 3 {
    pay(p, bank, 3)
  }'''
BRANCHES = '''  on land(p: player, s: space) when s.kind == tax and p.cash >= 3 {
    if any(q in players where q.cash > 100) {
      pay(p, bank, 3)
    } else {
      pay(p, bank, 3)
      pay(p, bank, 3)
    }
  }'''
ANY = "any(q in players where q.cash > 100)"


def _edition(tmp_path: Path, notes: str = "", above: str = "") -> Path:
    folder = tmp_path / "mutation_demo"
    folder.mkdir(exist_ok=True)
    (folder / "rulebook.txt").write_text((EDITION.parent / "rulebook.txt").read_text())
    text = EDITION.read_text()
    assert TAX in text
    path = folder / "mutation_demo.rules"
    path.write_text(above + text.replace(TAX, BRANCHES) + notes)
    return path


def _checked(path: Path):
    checked = compile_rules(path, until="check")
    return checked, mutants(checked)


def test_an_aggregate_is_named_by_its_rules_text(tmp_path):
    _, found = _checked(_edition(tmp_path))
    negated = [m for m in found if m.origin == "rule tax" and m.before == ANY]
    assert negated and negated[0].after == f"not {ANY}"
    assert not [m for m in found if "agg_" in m.key or "<aggregate" in m.key]


def test_a_long_aggregate_is_cut_at_a_word(tmp_path):
    long = "any(q in players where q.cash > 100 and q.position != p.position and " \
        "q.cash > p.cash)"
    assert len(long) > AGGREGATE_WIDTH
    path = _edition(tmp_path)
    path.write_text(path.read_text().replace(ANY, long))
    _, found = _checked(path)
    shown = next(m.before for m in found if m.origin == "rule tax" and m.operator == "negate"
                 and m.before.startswith("any("))
    assert shown == "any(q in players where q.cash > 100 and q.position != p.position and ...)"
    assert len(shown) <= AGGREGATE_WIDTH + len(" ...)")


def test_alike_mutants_are_told_apart_without_a_line_number(tmp_path):
    """The three payments read alike: the one in the `if` by its block, the two in the
    `else` by their block and, written identically there, by their ordinal."""
    _, found = _checked(_edition(tmp_path))
    shortest = note_names(found)
    drops = [m for m in found if m.origin == "rule tax" and m.operator == "drop"]
    assert [shortest[m.id] for m in drops] == [
        f"rule tax: pay(p, bank, 3) -> (removed) on line `pay(p, bank, 3)` under `if {ANY} {{`",
        "rule tax: pay(p, bank, 3) -> (removed) on line `pay(p, bank, 3)` under the else of "
        f"`if {ANY} {{` #1",
        "rule tax: pay(p, bank, 3) -> (removed) on line `pay(p, bank, 3)` under the else of "
        f"`if {ANY} {{` #2"]
    # a number named by the expression around it, where that is unique
    guard = next(m for m in found if m.origin == "rule tax" and m.context[0] == "p.cash >= 3"
                 and m.after == "4")
    assert shortest[guard.id] == "rule tax: p.cash >= 3 -> p.cash >= 4"
    # the usual name when nothing else reads alike
    swap = next(m for m in found if m.origin == "rule bonus" and m.operator == "swap")
    assert shortest[swap.id] == "rule bonus: pay(bank, p, 5) -> pay(p, bank, 5)"
    assert not [n for n in shortest.values() if re.match(r"\S+\.rules:\d+:", n)]  # no place
    assert all(names(found)[m.id][-1].endswith(("#1", "#2")) for m in drops)


def test_a_note_stays_on_its_mutant_when_lines_are_added_above(tmp_path):
    first, _ = _checked(_edition(tmp_path))
    found = mutants(first)
    shortest = note_names(found)
    drop = next(m for m in found if m.origin == "rule tax" and m.operator == "drop")
    note = f'\nequivalent "{shortest[drop.id]}" because "a test"\n'
    for above in ("", "# one line\n# and another\n\n"):
        checked, moved = _checked(_edition(tmp_path, note, above))
        noted, stale, ambiguous, _ = match_notes(checked, moved)
        same = next(m for m in moved if m.id == drop.id)
        assert list(noted) == [drop.id] and same.line == drop.line + above.count("\n")
        assert stale == ambiguous == []


def test_a_note_naming_several_mutants_notes_none_and_is_reported(tmp_path):
    notes = ('\nequivalent "rule tax: pay(p, bank, 3) -> (removed)" because "three of them"\n'
             'equivalent "rule tax: a -> b" because "none"\n')
    checked, found = _checked(_edition(tmp_path, notes))
    noted, stale, ambiguous, _ = match_notes(checked, found)
    assert noted == {} and len(stale) == 1 and "rule tax: a -> b" in stale[0]
    assert len(ambiguous) == 1
    assert "pay(p, bank, 3) -> (removed) names 3 mutants: " in ambiguous[0]
    assert ambiguous[0].count(" on line `pay(p, bank, 3)` under ") == 3
