"""Mutants in the rules file's terms: IR expressions written back close to the rules
language (`p.cash < amount`, `pay(bank, p, 50)`, `ask buy(p, s)`), and the rules line
a mutant changes, before and after, when the change can be placed on it exactly.

Used by `mutations.py` to describe each mutant and by the mutation report to show a
survivor as a rules-line diff.
"""

from __future__ import annotations

import re

from . import ir

_OWNERS = ("player_", "space_", "group_", "card_", "cell_")
_PRECEDENCE = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
               "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}


def _const(e: ir.Const, program: ir.Program) -> str:
    value, name = e.value, e.type.name
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if value == -1 and (e.type.optional or name == "none"):
        return "bank" if name == "player" else "none"
    names = {"space": program.space_ids, "card": program.card_ids, "group": program.group_ids,
             "deck": tuple(d.name for d in program.decks)}.get(name) or program.enums.get(name)
    if names and 0 <= value < len(names):
        return names[value]
    return str(value)


def _field(name: str) -> str:
    for prefix in _OWNERS:
        if name.startswith(prefix):
            return name[len(prefix):]
    for prefix in ("game_", "option_"):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _call(name: str, args: str) -> str:
    for prefix, shown in (("proc_", "{}({})"), ("decide_", "ask {}({})"),
                          ("draw_", "draw {}({})"), ("event_", "trigger {}({})"),
                          ("k_", "{}({})")):
        if name.startswith(prefix):
            return shown.format(name[len(prefix):], args)
    if name.startswith("agg_"):
        return f"<aggregate {name.split('_in_')[0]}>({args})"
    return f"{name}({args})"


def text(e: ir.Expr | None, program: ir.Program, outer: int = 0) -> str:
    """An expression as the rules file would write it (parenthesised where needed)."""
    match e:
        case None:
            return ""
        case ir.Const():
            return _const(e, program)
        case ir.Local() | ir.Builtin() | ir.Hoisted():
            return e.name
        case ir.Table() | ir.State():
            name = e.table if isinstance(e, ir.Table) else e.array
            owner = "" if e.entity is None else text(e.entity, program, 9) + "."
            element = f"[{text(e.element, program)}]" if e.element is not None else ""
            return f"{owner}{_field(name)}{element}"
        case ir.Derived():
            return f"{text(e.entity, program, 9)}.{e.what.split('_', 1)[1]}"
        case ir.Unary(op="not"):
            shown, level = f"not {text(e.operand, program, 3)}", 3
        case ir.Unary():
            shown, level = f"-{text(e.operand, program, 7)}", 7
        case ir.Binary():
            level = _PRECEDENCE.get(e.op, 4)
            op = "/" if e.op == "//" else e.op
            shown = f"{text(e.left, program, level)} {op} {text(e.right, program, level + 1)}"
        case ir.Conditional():
            shown, level = (f"if {text(e.test, program)} then {text(e.then, program)} "
                            f"else {text(e.otherwise, program)}"), 0
        case ir.CallProc() | ir.KernelCall():
            return _call(e.function, ", ".join(text(a, program) for a in e.args))
        case _:
            return type(e).__name__.lower()
    return f"({shown})" if level < outer else shown


def statement(s: ir.Stmt, program: ir.Program) -> str:
    """The first line of a statement as the rules file writes it."""
    match s:
        case ir.Declare():
            return f"let {s.name} = {text(s.value, program)}"
        case ir.Assign():
            return f"{text(s.target, program)} {s.op} {text(s.value, program)}"
        case ir.Evaluate():
            return text(s.expr, program)
        case ir.If():
            return f"if {text(s.test, program)}"
        case ir.While():
            return f"while {text(s.test, program)}"
        case ir.Loop():
            return f"for {s.var} in ..."
        case ir.Return():
            return f"return {text(s.value, program)}".rstrip()
        case ir.Raise():
            return "end game" if s.what == "GameOver" else "end turn"
    return type(s).__name__.lower()


# ---- the rules line, before and after ------------------------------------------------------

def _replace_once(line: str, pattern: str, replacement: str) -> str | None:
    """The line with the only match of `pattern` replaced, or None when it does not occur
    exactly once (then the change cannot be placed on the line)."""
    found = list(re.finditer(pattern, line))
    if len(found) != 1:
        return None
    match = found[0]
    return line[:match.start()] + replacement + line[match.end():]


def number_pattern(value: int) -> str:
    """A regular expression for an integer literal as it stands on a rules line."""
    return rf"(?<![\w.]){abs(value)}(?![\w])"


COMPARISON_PATTERNS = {"<": r"(?<![<>=!])<(?![=])", "<=": r"<=", ">": r"(?<![<>=!-])>(?![=])",
                       ">=": r">=", "==": r"==", "!=": r"!="}


def mutated_line(line: str, operator: str, old: str, new: str, keyword: str = "",
                 region: tuple[int, int] = (0, 0)) -> str | None:
    """The rules line after the mutation, when it can be placed exactly; else None.

    `old` and `new` are what the operator changed (a number, an operator); a negated
    condition is the one after `keyword` (if, while, when, where) up to the block's brace.
    `region` is where on the line the mutated statement stands (1-based columns, end
    excluded; 0 for the line's end): the change is looked for there only."""
    start = max(region[0] - 1, 0)
    end = region[1] - 1 if region[1] > 0 else len(line)
    head, part, tail = line[:start], line[start:end], line[end:]
    if operator in ("drop", "end-turn"):
        rest = (head + tail).rstrip()
        return "" if not rest.strip() else f"{head.rstrip()} {tail.lstrip()}".rstrip()
    changed = _changed(part, operator, old, new, keyword)
    return None if changed is None else head + changed + tail


def _key_end(part: str, start: int) -> int:
    """Where the key of `by KEY` that starts at `start` ends: at a loop's block, or at the
    parenthesis that closes its aggregate (or the end of the line)."""
    depth = 0
    for i in range(start, len(part)):
        if part[i] in "([":
            depth += 1
        elif part[i] in ")]":
            if depth == 0:
                return i
            depth -= 1
        elif part[i] == "{" and depth == 0:
            return i
    return len(part)


def _changed(part: str, operator: str, old: str, new: str, keyword: str) -> str | None:
    if operator in ("const", "param"):
        numeric = old.lstrip("-").isdigit()
        pattern = number_pattern(int(old)) if numeric else rf"\b{re.escape(old)}\b"
        return _replace_once(part, pattern, new)
    if operator == "compare":
        return _replace_once(part, COMPARISON_PATTERNS[old], new)
    if operator == "order":  # `desc` removed, or added after the key
        if old == "desc":
            return _replace_once(part, r"\s+desc\b", "")
        found = list(re.finditer(r"\bby\s", part))
        if len(found) != 1:
            return None
        start = found[0].end()
        key = part[start:_key_end(part, start)].rstrip()
        return part[:start] + key + " desc" + part[start + len(key):]
    if operator == "and-or":
        return _replace_once(part, rf"\s{old}\s", f" {new} ")
    if operator == "negate" and keyword and len(re.findall(rf"\b{keyword}\s", part)) == 1:
        found = (re.match(rf"^(.*?\b{keyword}\s+)(.+?)(\s*\{{.*)$", part)
                 or re.match(rf"^(.*?\b{keyword}\s+)(.+?)()$", part))
        if found:
            head, condition, rest = found.groups()
            ordered = re.match(r"^(.+?)(\s+by\s.*)$", condition)  # an ordered walk's filter
            if ordered:
                condition, rest = ordered.group(1), ordered.group(2) + rest
            return f"{head}not ({condition}){rest}"
    return None
