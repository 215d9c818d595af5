"""The IR as text: for `boardrules compile --dump-ir` and the generated code's comments.

Expressions read close to the rules language (`t.owner == p`, `agg_3(s)`); a
function is its signature and an indented block, so that the program after each
optimization pass can be read and diffed.
"""

from __future__ import annotations

from . import derived
from . import nodes as ir


def expr(e: ir.Expr | None) -> str:
    """One expression as a line of text."""
    match e:
        case None:
            return ""
        case ir.Const(value=bool(value)):
            return "true" if value else "false"
        case ir.Const(type=ir.Type(name="none")):
            return "none"
        case ir.Const():
            return repr(e.value)
        case ir.Local() | ir.Builtin():
            return e.name
        case ir.Hoisted():
            return f"{'lazy ' if e.lazy else ''}hoisted {e.name}"
        case ir.Table() | ir.State():
            field = e.table if isinstance(e, ir.Table) else e.array
            owner = "game" if getattr(e, "entity", None) is None else expr(e.entity)
            element = f"[{expr(e.element)}]" if e.element is not None else ""
            return f"{owner}.{field}{element}"
        case ir.Derived():
            return f"{expr(e.entity)}.{e.what.split('_', 1)[1]}"
        case ir.Check():
            return f"check({expr(e.holds)})"
        case ir.Unary():
            return f"({e.op} {expr(e.operand)})" if e.op == "not" else f"(-{expr(e.operand)})"
        case ir.Binary():
            op = {"//": "/"}.get(e.op, e.op)
            return f"({expr(e.left)} {op} {expr(e.right)})"
        case ir.Conditional():
            return f"(if {expr(e.test)} then {expr(e.then)} else {expr(e.otherwise)})"
        case ir.CallProc() | ir.KernelCall():
            return f"{e.function}({', '.join(expr(a) for a in e.args)})"
    return repr(e)


def domain(var: str, d: ir.Domain, where: ir.Expr | None) -> str:
    text = f"{var} in {expr(d.low)}..{expr(d.high)}"
    if d.kind == "players":
        text = f"{var} in players"
    if d.index and d.others:
        text += f" by index {d.index}[all but {', '.join(expr(e) for e in d.others)}]"
    elif d.index:
        text += f" by index {d.index}[{expr(d.key)}]"
    if d.kept:
        text += f" kept by {d.kept}"
    if d.mask is not None:
        passing = " and ".join(expr(c) for c in d.masked) or "every one"
        text += f" as bits (of {d.mask.bit_count()} passing {passing})"
    for w in d.words:
        text += (f" and whole keys of {w.table_index} at {expr(w.value)} in {w.counter_index}"
                 if w.table_index else f" and {w.counter_index}[{expr(w.value)}]")
    return text + (f" where {expr(where)}" if where is not None else "")


def _hoisted_lets(hoisted: tuple[tuple[str, ir.Expr], ...]) -> str:
    return "".join(f"let hoisted {name} = {expr(e)}; " for name, e in hoisted)


def aggregate(a: ir.Aggregate) -> str:
    """`best(-t.buildings for t in 0..41 where ...)`: what an aggregate computes."""
    value = f"{expr(a.value)} for " if a.value is not None else ""
    lets = _hoisted_lets(a.hoisted)
    if a.prechecks:
        lets += f"unless {' and '.join(expr(c) for c in a.prechecks)}: nothing; "
    if a.guard is not None:
        lets = f"unless {expr(a.guard)}: nothing; {lets}"
    if a.counted is not None:
        lets = f"from the counts of {a.counted.counter_index} by {a.counted.table_index}: {lets}"
    if a.summed is not None:
        lets = f"{_summed(a.summed)}, else {lets}"
    if a.kept is not None:
        lets = f"keeping its members: {lets}"
    limit = f" up to {a.limit}" if a.limit else ""
    return f"{lets}{a.kind}({value}{domain(a.var, a.domain, a.where)}){limit}"


def _summed(q: derived.SumQuery) -> str:
    """Where an aggregate answered from a kept sum reads it (its scan, the check, follows)."""
    at = f"[{expr(q.value)}]"
    if q.keyed == "==":
        return f"from the kept sum {q.kept_sum} at {expr(q.key)}, {at}"
    if q.keyed == "!=":
        return f"from the kept sum {q.kept_sum}{at} less its part at {expr(q.key)}"
    return f"from the kept sum {q.kept_sum}{at}"


def memo_follows(m: derived.Memo) -> list[str]:
    """What a memo's stamp follows besides the counters it reads whole: per entity, a
    player's cards of one kind, per owner, per value of a field (also the generated
    lookup's comment)."""
    return [*(f"{array} of {param}" for array, param in m.per_entity),
            *([f"card_holder of {m.held_key[0]}'s cards of {m.held_key[1]}"] if m.held_key
              else []),
            *([f"card_holder of {m.held_decks[0]}'s cards of "
               f"{' and '.join(name for _, name in m.held_decks[1])}"] if m.held_decks else []),
            *(f"{array} owned by {param}" for array, param in m.per_owner),
            *(f"{array} of {param}" if direct else f"{array} of {param}'s {table}"
              for array, param, table, direct in m.per_field)]


def memo(m: derived.Memo) -> str:
    """`memoized in 24 slots from 292, kept until ... changes`: what a memo's stamp follows."""
    follows = [*(r for r in m.reads if "@" not in r),  # a side: shown with its comparison
               *memo_follows(m)]
    sides = "".join(f"; side of {expr(comparison)}" for _, comparison in m.thresholds)
    sides += "".join(f"; an owner change in a group of {index} that its player owns all but one of"
                     for index in m.near)
    cash = (f"; the cash of {m.cash_of}{' (its range)' if m.cash_range else ''}"
            if m.cash_of else "")
    if m.spans >= 0:
        cash += f"; every player's cash, its range (from row {m.spans})"
    clamp = f"; clamped by {expr(m.clamp)}" if m.clamp is not None else ""
    return (f"memoized in {m.slots} slots from {m.base}, kept until one of "
            f"{', '.join(follows)} changes{sides}{cash}{clamp}")


def block(body: tuple[ir.Stmt, ...], indent: str = "  ") -> list[str]:
    lines: list[str] = []
    for s in body:
        match s:
            case ir.Declare():
                lines.append(f"{indent}let {s.name}: {s.type} = {expr(s.value)}")
            case ir.Assign():
                lines.append(f"{indent}{expr(s.target)} {s.op} {expr(s.value)}")
            case ir.Evaluate():
                lines.append(f"{indent}{expr(s.expr)}")
            case ir.If():
                lines.append(f"{indent}if {expr(s.test)}")
                lines += block(s.then, indent + "  ")
                if s.otherwise:
                    lines.append(f"{indent}else")
                    lines += block(s.otherwise, indent + "  ")
            case ir.While():
                lines.append(f"{indent}while {expr(s.test)}")
                lines += block(s.body, indent + "  ")
            case ir.Loop() if s.order is not None:
                lines.append(f"{indent}for {domain(s.var, s.domain, s.order_where)} by "
                             f"{expr(s.order)}{' desc' if s.desc else ''}"
                             + (f", then while {expr(s.where)}" if s.where is not None else ""))
                lines += block(s.body, indent + "  ")
            case ir.Loop():
                lines.append(f"{indent}for {domain(s.var, s.domain, s.where)}")
                lines += block(s.body, indent + "  ")
            case ir.Return():
                lines.append(f"{indent}return {expr(s.value)}".rstrip())
            case ir.Raise():
                lines.append(f"{indent}end {'game' if s.what == 'GameOver' else 'turn'}")
    return lines


def _signature(name: str, params, returns: str) -> str:
    return f"{name}({', '.join(f'{n}: {t}' for n, t in params)}) -> {returns}"


def program(p: ir.Program) -> str:
    """The whole program: functions, aggregates, decisions and indexes."""
    lines: list[str] = []
    for f in p.functions:
        lines.append(f"def {_signature(f.name, f.params, str(f.returns))}  # {f.origin}")
        if f.guard is not None:
            lines.append(f"  when {expr(f.guard)}")
        if f.memo is not None:
            lines.append(f"  {memo(f.memo)}")
        lines += block(f.body)
    for a in p.aggregates:
        lines.append(f"aggregate {_signature(a.name, a.params, str(a.type))} = {aggregate(a)}")
        if a.memo is not None:
            lines.append(f"  {memo(a.memo)}")
    for d in p.decisions:
        lets = _hoisted_lets(d.hoisted)
        choice = {"bool": "bool", "int": f"{lets}{expr(d.low)}..{expr(d.high)}"}.get(
            d.kind, domain(d.var, d.domain, d.where) if d.domain else "")
        lazy = " (lazy)" if d.lazy else ""
        if d.default_legal:
            lazy += " (its default within its range)" if d.kind == "int" else \
                " (its default one of its options)"
        walk = f"; options walk {lets}{domain(d.var, d.walk, d.walk_where)}" if d.walk else ""
        if d.options_default is not None:
            walk += f"; its default among the listed options: {expr(d.options_default)}"
        lines.append(f"decision {_signature(d.name, d.params, choice)} by {expr(d.by)} "
                     f"default {expr(d.default) or 'none'}{lazy}{walk}")
    for ix in p.indexes:
        lines.append(f"index {ix.name} on {ix.table}: offset {ix.offset}, "
                     f"starts {list(ix.starts)}, members {list(ix.items)}")
    for cx in p.counter_indexes:
        kept = ("none and " if cx.none_listed else "none (as bits) and ") if cx.offset < 0 else ""
        lines.append(f"counter index {cx.name} on {cx.counter}: the members of "
                     f"{kept}{cx.values + cx.offset} values"
                     f"{(' (and as bits)' if cx.listed else ' (as bits only)') if cx.bits else ''}"
                     f"{''.join(f', whole keys of {t}' for t in cx.whole_by)}")
    for ks in p.kept_sums:
        by = f" and by the key of {ks.table_index}" if ks.table_index else ""
        lines.append(f"kept sum {ks.name}: sum({expr(ks.value)} for {ks.var}) per value of "
                     f"{ks.counter_index}{by}, kept by the writes of "
                     f"{', '.join(ks.reads)} and of the counter")
    return "\n".join(lines) + "\n"
