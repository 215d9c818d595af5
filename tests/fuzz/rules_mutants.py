"""Mutants of the shipped rules files, drawn with hypothesis (issue 13, "Guards that stay").

A mutant is a shipped `.rules` file (an edition or a library module) with one to three
token-level or structural changes: lines deleted, duplicated, swapped; numbers set to edge
values; operators swapped; names replaced; tokens, unicode or escapes inserted; deep
nesting; truncation. `mutant(data)` draws one, for a test that feeds it to every stage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"
EDITIONS = sorted(p.parent.name for p in RULESETS.glob("*/*.rules") if p.parent.name != "lib")
LIBRARIES = sorted(p.stem for p in (RULESETS / "lib").glob("*.rules"))

TOKEN = re.compile(r'''
    (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<comment>\#[^\n]*)
  | (?P<number>[0-9]+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>==|!=|<=|>=|\+=|-=|\*=|->|[-+*/%<>=])
  | (?P<punct>[{}()\[\],.:?])
  | (?P<space>\s+)
  | (?P<other>.)
''', re.VERBOSE | re.DOTALL)

EDGE_NUMBERS = ("0", "1", "-1", "2", "16", "17", "256", "257", "512", "513", "65536",
                "1000000", "1000001", "2147483647", "2147483648", "(0 - 2147483647 - 1)",
                "4294967296", "99999999999999999999", "9" * 40)
OPERATORS = ("+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "not",
             "=", "+=", "-=", "*=", "->", ".")
KEYWORDS = ("if", "else", "while", "for", "in", "where", "let", "return", "end", "turn",
            "game", "rule", "on", "when", "proc", "param", "set", "counter", "field", "none",
            "true", "false", "some", "ask", "draw", "trigger", "quote", "assume", "import",
            "edition", "board", "space", "deck", "card", "keep", "copies", "decision", "by",
            "from", "to", "default", "prompt", "scenario", "expect", "given", "players",
            "each", "cards", "spaces", "groups", "cells", "legal", "bank", "current", "enum",
            "option", "group", "die", "faces", "grid", "event", "use", "waive", "because",
            "assumption", "offboard", "at", "over", "score", "first", "turn_limit", "play",
            "dice", "answer", "count", "sum", "any", "all", "max_of", "min_of", "best",
            "first_of", "desc", "break", "by s.price", "by 0 - x desc",
            "int", "bool", "str", "money", "player", "cell", "x", "do", "log", "pay", "move")
PUNCTUATION = ("{", "}", "(", ")", "[", "]", ",", ".", ":", "?", '"', "#", "\\", "'", ";")
# characters that differ between line counting schemes, normalise, or are not printable
UNICODE = ("\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x85", "\r", "\r\n", "\t", "\x00",
           "\ufeff", "\u00e9", "\u00df", "\ufb01", "\U0001d538", "\U0001f600", "\u0301",
           "\u200b", "\u202e", "\u0130", "\u212a", "\u0663", "\u00b2", "\u3000", "\u00a0",
           "\ud7ff", "\U0010ffff", "\x7f")
ESCAPES = ("\\ud83d", "\\ude00", "\\ud83d\\ude00", "\\u0000", "\\n", "\\r", '\\"', "\\\\",
           "\\x41", "\\u12", "\\", "\\t", "\\u2028", "\\u001b[31m")
DEPTHS = (30, 49, 50, 51, 99, 100, 101, 150, 300, 1000, 3000)


@dataclass(frozen=True)
class Mutant:
    """A shipped file (`edition` or `lib/NAME`), its mutated text and what was done."""

    target: str  # an edition's name, or "lib/NAME"
    original: Path
    text: str
    changes: tuple[str, ...]
    invalid_utf8: bool = False


def target_path(target: str) -> Path:
    if target.startswith("lib/"):
        return RULESETS / "lib" / f"{target[4:]}.rules"
    return RULESETS / target / f"{target}.rules"


def tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, offset) of every token, spaces included."""
    return [(m.lastgroup or "other", m.group(), m.start()) for m in TOKEN.finditer(text)]


def _pick(data: st.DataObject, items, label: str):
    return data.draw(st.sampled_from(items), label=label)


def _index(data: st.DataObject, n: int, label: str) -> int:
    return data.draw(st.integers(0, max(n - 1, 0)), label=label)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _line_edit(text: str, data: st.DataObject, how: str) -> tuple[str, str]:
    lines = _lines(text)
    i = _index(data, len(lines), "line")
    if how == "delete_lines":
        n = data.draw(st.integers(1, 12), label="count")
        del lines[i:i + n]
        return "\n".join(lines), f"delete {n} line(s) at {i + 1}"
    if how == "duplicate_lines":
        n = data.draw(st.integers(1, 12), label="count")
        lines[i:i] = lines[i:i + n]
        return "\n".join(lines), f"duplicate {n} line(s) at {i + 1}"
    j = _index(data, len(lines), "other line")
    if how == "swap_lines":
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines), f"swap lines {i + 1} and {j + 1}"
    line = lines.pop(i)
    lines.insert(j, line)
    return "\n".join(lines), f"move line {i + 1} to {j + 1}"


def _token_edit(text: str, data: st.DataObject, how: str) -> tuple[str, str]:
    toks = tokens(text)
    kinds = {"edge_number": ("number",), "swap_operator": ("op",),
             "replace_name": ("name",), "swap_tokens": ("name", "number", "op", "punct"),
             "delete_token": ("name", "number", "op", "punct", "string"),
             "string_escape": ("string",), "deep_expression": ("number",),
             "insert_token": ("space",)}[how]
    chosen = [t for t in toks if t[0] in kinds]
    if how == "swap_operator":
        chosen += [t for t in toks if t[0] == "name" and t[1] in ("and", "or", "not")]
    if not chosen:
        return text, f"{how}: nothing to change"
    kind, old, at = chosen[_index(data, len(chosen), "token")]
    end = at + len(old)
    if how == "edge_number":
        new = _pick(data, EDGE_NUMBERS, "number")
    elif how == "swap_operator":
        new = _pick(data, OPERATORS, "operator")
    elif how == "replace_name":
        names = sorted({t[1] for t in toks if t[0] == "name"})
        new = data.draw(st.sampled_from(names) | st.sampled_from(KEYWORDS), label="name")
    elif how == "delete_token":
        new = ""
    elif how == "string_escape":
        cut = data.draw(st.integers(1, max(1, len(old) - 1)), label="where")
        new = old[:cut] + _pick(data, ESCAPES, "escape") + old[cut:]
    elif how == "deep_expression":
        depth = _pick(data, DEPTHS, "depth")
        shape = _pick(data, ("neg", "parens", "sum", "not"), "shape")
        new = {"neg": "-" * depth + old, "parens": "(" * depth + old + ")" * depth,
               "sum": " + ".join([old] * depth), "not": old}[shape]
        if shape == "not":
            new = "(" + "not " * depth + "true) == true and " + old
    elif how == "insert_token":
        extra = data.draw(st.sampled_from(KEYWORDS) | st.sampled_from(PUNCTUATION)
                          | st.sampled_from(EDGE_NUMBERS) | st.sampled_from(OPERATORS)
                          | st.just('"text"'), label="inserted")
        new = old + extra + " "
    else:  # swap_tokens: with the next token of a kind that matters
        later = [t for t in toks if t[2] > at and t[0] in kinds]
        if not later:
            return text, "swap_tokens: nothing to swap"
        _, other, other_at = later[0]
        new_text = (text[:at] + other + text[end:other_at] + old
                    + text[other_at + len(other):])
        return new_text, f"swap {old!r} and {other!r} at {_line_of(text, at)}"
    return text[:at] + new + text[end:], f"{how}: {old!r} -> {new[:40]!r} at {_line_of(text, at)}"


def _line_of(text: str, offset: int) -> str:
    return f"line {text.count(chr(10), 0, offset) + 1}"


def _char_edit(text: str, data: st.DataObject, how: str) -> tuple[str, str]:
    at = _index(data, len(text) + 1, "offset")
    where = _line_of(text, at)
    if how == "truncate":
        return text[:at], f"truncate at {where}"
    if how == "delete_chars":
        n = data.draw(st.integers(1, 40), label="count")
        return text[:at] + text[at + n:], f"delete {n} character(s) at {where}"
    if how == "insert_unicode":
        ch = _pick(data, UNICODE, "character")
        return text[:at] + ch + text[at:], f"insert {ch!r} at {where}"
    raise AssertionError(how)


def _deep_block(text: str, data: st.DataObject) -> tuple[str, str]:
    """Wrap one statement-looking line in many nested blocks."""
    lines = _lines(text)
    candidates = [i for i, line in enumerate(lines)
                  if re.match(r"\s+(pay|move|let|return|[a-z_]+\.[a-z_]+ [-+]?=)", line)]
    if not candidates:
        return text, "deep_block: no statement"
    i = candidates[_index(data, len(candidates), "statement")]
    depth = _pick(data, DEPTHS, "depth")
    kind = _pick(data, ("if true {", "while false {", "for i in 0 to 1 {"), "block")
    lines[i] = kind * depth + lines[i] + "}" * depth
    return "\n".join(lines), f"nest line {i + 1} in {depth} x {kind!r}"


LINE_EDITS = ("delete_lines", "duplicate_lines", "swap_lines", "move_line")
TOKEN_EDITS = ("edge_number", "edge_number", "swap_operator", "replace_name", "swap_tokens",
               "delete_token", "string_escape", "deep_expression", "insert_token")
CHAR_EDITS = ("truncate", "delete_chars", "insert_unicode")
EDITS = LINE_EDITS + TOKEN_EDITS + CHAR_EDITS + ("deep_block", "invalid_utf8")


def mutate(text: str, data: st.DataObject, how: str) -> tuple[str, str]:
    if how in LINE_EDITS:
        return _line_edit(text, data, how)
    if how in TOKEN_EDITS:
        return _token_edit(text, data, how)
    if how in CHAR_EDITS:
        return _char_edit(text, data, how)
    if how == "deep_block":
        return _deep_block(text, data)
    return text, "invalid UTF-8 byte"  # invalid_utf8: applied when the file is written


def mutant(data: st.DataObject, originals: dict[str, str]) -> Mutant:
    """Draw a target file (from `originals`, target -> text: a snapshot, as the files may
    change meanwhile) and one to three changes to it."""
    target = _pick(data, sorted(originals), "target")
    original = target_path(target)
    text = originals[target]
    changes = []
    invalid = False
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        how = _pick(data, EDITS, "edit")
        invalid = invalid or how == "invalid_utf8"
        text, change = mutate(text, data, how)
        changes.append(change)
    return Mutant(target, original, text, tuple(changes), invalid)
