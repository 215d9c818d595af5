"""Equivalent notes and the mutants they name, by what a mutant changes, never by a line
number or an internal name: a note stays on its mutant when lines are added above it,
and is to be read again exactly when the code it argues about changes.

A mutant answers to these line-free names (`names`):

- a declared number's, its name, `boardwalk.rent[3]`;
- its key, `proc owe_rent: 0 -> 1` (an aggregate by its rules text);
- a changed number or comparison with the expression around it,
  `proc owe_rent: rent > 0 -> rent > 1`;
- its key on the rules text of the statement it stands on (that line's part),
  ``proc owe_rent: 0 -> 1 on line `if rent > 0 {` ``;
- a changed number's or comparison's enclosing expression on that text,
  ``proc owe_rent: rent > 0 -> rent > 1 on line `if rent > 0 {` ``;
- its key on its text in the block it stands in, ``... on line `release(p)` under `if paid {` `` (or
  ``under the else of `if paid {` ``), when its origin writes that statement twice;
- the last with its ordinal among the mutants of the origin reading alike there too,
  `... #2`;

and, for notes written before these, to its place, `rent.rules:95: proc owe_rent: 0 -> 1`.
A note that names no mutant is stale; one that names several is ambiguous and notes none
of them: the report lists each one's shortest unambiguous name (`note_names`).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import NamedTuple

from ..compiler.mutation.mutations import Mutant, note_key
from ..compiler.pipeline import Compilation


class Notes(NamedTuple):
    """The mutants the rules' `equivalent` notes name, and the notes that name none or
    several."""

    noted: dict[int, str]  # mutant id -> the note's reason and place
    stale: list[str]  # `file:line: NAME` of each note that names no mutant
    ambiguous: list[str]  # `file:line: NAME names N mutants: NAME1; NAME2...`
    names: dict[int, str]  # each mutant's shortest unambiguous name (`note_names`)


def names(found: list[Mutant]) -> dict[int, list[str]]:
    """Each mutant's line-free names, as the report would print them, shortest form first."""
    seen: Counter[str] = Counter()
    out = {}
    for m in found:
        last = m.under_name or m.line_name
        seen[last] += 1
        out[m.id] = [n for n in (m.number, m.key, m.context_name, m.line_name, m.context_line_name,
                                 m.under_name,
                                 f"{last} #{seen[last]}") if n]
    return out


def _answers(found: list[Mutant], free: dict[int, list[str]]) -> dict[int, set[str]]:
    """Every name (folded) each mutant answers to: its line-free names and its places."""
    return {m.id: {note_key(n) for n in free[m.id]} | ({m.located_key, m.context_key} - {""})
            for m in found}


def _shortest(free: dict[int, list[str]], answers: dict[int, set[str]]) -> dict[int, str]:
    counts = Counter(n for names in answers.values() for n in names)
    return {i: min((n for n in names[:-1] if counts[note_key(n)] == 1), key=len,
                   default=names[-1]) for i, names in free.items()}


def note_names(found: list[Mutant]) -> dict[int, str]:
    """Each mutant's shortest line-free name that no other mutant answers to: what a note
    should quote (the ordinal form, last, only when all others read alike)."""
    free = names(found)
    return _shortest(free, _answers(found, free))


def match_notes(checked: Compilation, found: list[Mutant]) -> Notes:
    """The reason of each mutant that exactly one `equivalent` note names (by id), the notes
    that name none (stale) and those that name several (ambiguous)."""
    free = names(found)
    answers = _answers(found, free)
    named: dict[str, list[Mutant]] = {}
    for m in found:
        for name in answers[m.id]:
            named.setdefault(name, []).append(m)
    notes = Notes({}, [], [], _shortest(free, answers))
    for note in checked.symbols.equivalents:
        where = f"{Path(note.span.path).name}:{note.span.line}"
        mutants = named.get(note_key(note.mutant), [])
        if not mutants:
            notes.stale.append(f"{where}: {note.mutant}")
        elif len(mutants) > 1:
            notes.ambiguous.append(f"{where}: {note.mutant} names {len(mutants)} mutants: "
                                   + "; ".join(notes.names[m.id] for m in mutants))
        else:
            notes.noted[mutants[0].id] = f"{note.reason} ({where})"
    return notes
