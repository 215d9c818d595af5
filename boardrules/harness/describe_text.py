"""Values, types and bounds of the checked syntax tree written back as the rules language
writes them (`p.cash`, `if short_game then 3 else 4`, `money[6]`), for `boardrules
describe`: it shows an edition's data and signatures, never its handlers' code, so only
the expressions that data holds need a printer.
"""

from __future__ import annotations

from ..compiler.front import ast

_PRECEDENCE = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
               "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}


def type_text(ref: ast.TypeRef | None) -> str:
    """`money`, `player?`, `money[6]`, `int[resource]`; `void` for a procedure without a
    result."""
    if ref is None:
        return "void"
    shown = ref.name
    if ref.length:
        shown += f"[{ref.length}]"
    elif ref.index_enum:
        shown += f"[{ref.index_enum}]"
    return shown + ("?" if ref.optional else "")


def params_text(params: tuple[ast.Param, ...]) -> str:
    """`p: player, s: space`."""
    return ", ".join(f"{p.name}: {type_text(p.type)}" for p in params)


def expr_text(e: ast.Expr | None, outer: int = 0) -> str:
    """An expression as the rules file writes it (parenthesised where precedence needs)."""
    match e:
        case None:
            return ""
        case ast.BoolLit():
            return "true" if e.value else "false"
        case ast.IntLit():
            return str(e.value)
        case ast.StrLit():
            return '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        case ast.NoneLit():
            return "none"
        case ast.Name():
            return e.name
        case ast.Attr():
            return f"{expr_text(e.target, 9)}.{e.name}"
        case ast.Index():
            return f"{expr_text(e.target, 9)}[{expr_text(e.index)}]"
        case ast.Call():
            return f"{e.name}({', '.join(expr_text(a) for a in e.args)})"
        case ast.Ask():
            return f"ask {e.decision}({', '.join(expr_text(a) for a in e.args)})"
        case ast.ListLit():
            return f"[{', '.join(expr_text(i) for i in e.items)}]"
        case ast.Not():
            return _wrapped(f"not {expr_text(e.operand, 3)}", 3, outer)
        case ast.Neg():
            return f"-{expr_text(e.operand, 7)}"
        case ast.BinOp():
            level = _PRECEDENCE.get(e.op, 5)
            text = f"{expr_text(e.left, level)} {e.op} {expr_text(e.right, level + 1)}"
            return _wrapped(text, level, outer)
        case ast.Cond():
            text = (f"if {expr_text(e.test)} then {expr_text(e.then)} "
                    f"else {expr_text(e.otherwise)}")
            return _wrapped(text, 0, outer)
        case ast.Aggregate():
            return _wrapped(f"{e.kind}(...)", 9, outer)
    return "..."


def _wrapped(text: str, level: int, outer: int) -> str:
    return f"({text})" if level < outer else text
