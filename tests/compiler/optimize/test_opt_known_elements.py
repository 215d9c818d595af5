"""known-elements: list reads whose element is known to be in range are not
bounds-checked."""

from __future__ import annotations

from opt_programs import DATA, function

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.optimize import analyse
from boardrules.compiler.ir.optimize.walk import body_exprs, walk_expr

# ---- known-elements ---------------------------------------------------------------------------

ELEMENT_RULES = DATA + """enum tool { hammer, saw, drill }
counter player.tools: int[tool] = 0
counter player.slots: int[6] = 0
decision lend(p: player) by p -> tool? where t: p.tools[t] > 0 {
  default none
}
proc held(p: player) -> int {
  return count(t in each tool where p.tools[t] > 0)
}
proc spare(p: player, k: int) -> int {
  return p.slots[k] + p.tools[saw]
}
rule r { on turn(p: player) {
  for t in each tool {
    p.tools[t] += 1
  }
  if ask lend(p) == none { move(p, held(p) + spare(p, p.seat)) }
} }
"""


def test_a_list_read_by_a_variable_that_walks_its_range_is_not_bounds_checked(editions):
    program = editions.compile(ELEMENT_RULES, until="known-elements").program
    held = next(a for a in program.aggregates if a.kind == "count")
    assert next(n for n in walk_expr(held.where) if isinstance(n, ir.State)).element_known
    lend = next(d for d in program.decisions if d.name == "lend")
    assert next(n for n in walk_expr(lend.where) if isinstance(n, ir.State)).element_known
    spare = [n for n in body_exprs(function(program, "proc_spare").body)
             if isinstance(n, ir.State) and n.element is not None]
    assert {ir_text.expr(n.element): n.element_known for n in spare} == {"k": False, "1": True}
    loop_writes = [n for n in body_exprs(function(program, "rule_r_0").body)
                   if isinstance(n, ir.State) and n.element is not None]
    assert loop_writes and all(n.element_known for n in loop_writes)
    fx = analyse(program)
    assert held.name not in fx.unsafe and "proc_spare" in fx.unsafe
    compilation = editions.compile(ELEMENT_RULES, until="codegen")
    assert next(d for d in compilation.program.decisions if d.name == "lend").lazy
    code = compilation.code
    body = code[code.index(f"def {held.name}("):]
    assert "self.chk(" not in body[:body.index("\n    @cython")]


def test_a_list_read_by_a_value_of_its_enum_is_not_bounds_checked(editions):
    """`p.tools[t]`, t a tool (never none): one of the list's members, whatever the value,
    also once `uses(p, t)` is inlined into a loop over the tools (Builder's resources kept
    27 such checks); `some(t)` of an optional tool too (none fails in `some`). An int is
    still checked (`p.slots[k]` above)."""
    program = editions.compile(ELEMENT_RULES + (
        "proc uses(p: player, t: tool) -> int { return p.tools[t] }\n"
        "proc maybe(p: player, t: tool?) -> int { return p.tools[some(t)] }\n"
        "proc busy(p: player) -> int { return sum(uses(p, t) + maybe(p, t) for t in each tool) }\n"
        "rule busy_turns { on turn(p: player) { move(p, busy(p) % 2) } }\n"),
        until="known-elements").program
    reads = {f.name: [n.element_known for n in body_exprs(f.body)
                      if isinstance(n, ir.State) and n.element is not None]
             for f in program.functions if f.name in ("proc_uses", "proc_maybe")}
    assert reads == {"proc_uses": [True], "proc_maybe": [True]}
