"""Mutants in the rules file's terms: IR expressions written back close to the rules
language (`p.cash < amount`, `pay(bank, p, 50)`, `ask buy(p, s)`, an aggregate by its
rules text), the rules text a mutant stands on, and the rules line a mutant changes,
before and after, when the change can be placed on it exactly.

Used by `mutations.py` to describe each mutant and by the mutation report to show a
survivor as a rules-line diff.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from ..common.diagnostics import Span
from ..ir import nodes as ir

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


def _writer(program: ir.Program, aggregates: Mapping[str, str] | None
            ) -> Callable[..., str]:
    """`text` of a part of an expression, with the same program and aggregates."""
    return lambda inner, level=0: text(inner, program, level, aggregates)


def text(e: ir.Expr | None, program: ir.Program, outer: int = 0,
         aggregates: Mapping[str, str] | None = None) -> str:
    """An expression as the rules file would write it (parenthesised where needed); an
    aggregate by its text in `aggregates` (see `aggregate_texts`), when given."""
    sub = _writer(program, aggregates)
    match e:
        case None:
            return ""
        case ir.Const():
            return _const(e, program)
        case ir.Local() | ir.Builtin() | ir.Hoisted():
            return e.name
        case ir.Table() | ir.State():
            name = e.table if isinstance(e, ir.Table) else e.array
            owner = "" if e.entity is None else sub(e.entity, 9) + "."
            element = f"[{sub(e.element)}]" if e.element is not None else ""
            return f"{owner}{_field(name)}{element}"
        case ir.Derived():
            return f"{sub(e.entity, 9)}.{e.what.split('_', 1)[1]}"
        case ir.Unary(op="not"):
            shown, level = f"not {sub(e.operand, 3)}", 3
        case ir.Unary():
            shown, level = f"-{sub(e.operand, 7)}", 7
        case ir.Binary():
            level = _PRECEDENCE.get(e.op, 4)
            op = "/" if e.op == "//" else e.op
            shown = f"{sub(e.left, level)} {op} {sub(e.right, level + 1)}"
        case ir.Conditional():
            shown, level = (f"if {sub(e.test)} then {sub(e.then)} "
                            f"else {sub(e.otherwise)}"), 0
        case ir.CallProc() | ir.KernelCall():
            if aggregates and e.function in aggregates:
                return aggregates[e.function]
            return _call(e.function, ", ".join(sub(a) for a in e.args))
        case _:
            return type(e).__name__.lower()
    return f"({shown})" if level < outer else shown


def statement(s: ir.Stmt, program: ir.Program,
              aggregates: Mapping[str, str] | None = None) -> str:
    """The first line of a statement as the rules file writes it."""
    sub = _writer(program, aggregates)
    match s:
        case ir.Declare():
            return f"let {s.name} = {sub(s.value)}"
        case ir.Assign():
            return f"{sub(s.target)} {s.op} {sub(s.value)}"
        case ir.Evaluate():
            return sub(s.expr)
        case ir.If():
            return f"if {sub(s.test)}"
        case ir.While():
            return f"while {sub(s.test)}"
        case ir.Loop():
            return f"for {s.var} in ..."
        case ir.Return():
            return f"return {sub(s.value)}".rstrip()
        case ir.Raise():
            return "end game" if s.what == "GameOver" else "end turn"
    return type(s).__name__.lower()


# ---- the rules text a mutant stands on -------------------------------------------------------

AGGREGATE_WIDTH = 72  # an aggregate longer than this is named by its start


def written(lines: list[str], span: Span | None, first_line_only: bool = False) -> str:
    """The rules text of a span (its first line's part only, when asked), white space
    folded: what a mutant's name quotes, so that it moves with the code, not its line."""
    if span is None or not 0 < span.line <= len(lines):
        return ""
    if span.line == span.end_line:
        part = lines[span.line - 1][span.column - 1:span.end_column - 1]
    elif first_line_only:
        part = lines[span.line - 1][span.column - 1:]
    else:
        part = " ".join([lines[span.line - 1][span.column - 1:],
                         *lines[span.line:span.end_line - 1],
                         lines[span.end_line - 1][:span.end_column - 1]])
    return " ".join(part.split())


def aggregate_texts(program: ir.Program, texts: Mapping[str, str]) -> dict[str, str]:
    """Each aggregate's name in mutants (`any(t in spaces where t.mortgaged)`): its rules
    text, cut at a word after AGGREGATE_WIDTH characters (`any(t in spaces where ...)`),
    never its internal name, which changes whenever an aggregate is added before it."""
    shown, split = {}, {path: text.splitlines() for path, text in texts.items()}
    for a in program.aggregates:
        whole = written(split.get(a.span.path, []), a.span) if a.span else ""
        if len(whole) > AGGREGATE_WIDTH:
            whole = whole[:AGGREGATE_WIDTH].rsplit(" ", 1)[0] + " ...)"
        if whole:
            shown[a.name] = whole
    return shown


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
    if operator == "data":  # the region is the declared number's literal
        return new if part == old else None
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
