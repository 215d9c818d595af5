"""memoize-procedures (procedure_memo.py, clamps.py): a pure procedure that walks members,
asked from two places, keeps its value per argument tuple, stamped by what it reads (per
owner where it reads only what its player owns or its mates hold) and by the cash of its
player; one clamped by a game counter keeps that counter apart. Each kept value equals a
recomputation after every write."""

from __future__ import annotations

import dataclasses
import random

from opt_programs import DATA, DATA_BOARD, function

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir
from boardrules.compiler.ir.optimize.clamps import clamp_of

# what p could take of the stock: the levels of p's spaces, one by one, and of their group
# mates (another player's, maybe), at most the stock
WANTED = """counter stock: int = 8
proc wanted(p: player) -> int {
  if not any(s in spaces where s.owner == p) {
    return 0
  }
  let cap = min(count(s in spaces where s.owner == p) * 2, stock)
  let most = 0
  for s in spaces where s.owner == p {
    if most >= cap {
      return cap
    }
    most = max(most, most + s.level + sum(t.level for t in spaces where t.group == s.group)
    + sum(if t.owner == none then 1 else 0 for t in spaces where t.group == s.group) + BODY)
  }
  return min(most, cap)
}
proc claim(p: player, s: space) { s.owner = p }
proc raise_level(s: space) { s.level += 1 }
proc take(n: int) { stock -= n }
rule r { on turn(p: player) {
  claim(p, s1)
  raise_level(s2)
  take(p.cash / 1000)
  move(p, wanted(p) + wanted(p) + CASH)
} }
"""


def _rules(body: str = "1", cash: str = "0", board: str = DATA_BOARD) -> str:
    """The program on DATA_BOARD (or, board "", on the tests' prelude's)."""
    return board + DATA + WANTED.replace("BODY", body).replace("CASH", cash)


def _memo(editions, rules: str):
    program = editions.compile(rules, until="memoize-procedures", prelude=False).program
    return function(program, "proc_wanted").memo, program


def test_a_clamped_walk_is_memoized_per_owner_with_its_clamp_apart(editions):
    memo, program = _memo(editions, _rules())
    assert memo is not None and memo.clamp is not None
    assert "stock" not in memo.reads and memo.owner == "space_owner"
    assert {array for array, _ in memo.per_owner} == {"space_level", "space_owner"}
    assert memo.mates  # (it reads the levels of the group mates of p's spaces)
    assert "clamped by game.game_stock" in ir_text.program(program)
    assert not memo.cash_of  # (it reads no cash)


def test_a_clamp_is_kept_apart_only_where_the_proof_holds():
    """Every other use of the clamp, a return not through it, a local that may shrink:
    no clamp (the memo, if any, is stamped by the counter)."""
    cap = ir.Local(ir.INT, "cap")
    most = ir.Local(ir.INT, "most")
    stock = ir.State(ir.INT, "stock", None, False)
    other = ir.Const(ir.INT, 4)

    def proc(*body: ir.Stmt) -> ir.Function:
        return ir.Function("f", (), ir.INT, body, (), "f")

    let = ir.Declare(None, "cap", ir.INT, ir.KernelCall(ir.INT, "min", (other, stock)))
    grow = ir.Assign(None, most, "=", ir.KernelCall(ir.INT, "max", (most, other)))
    start = ir.Declare(None, "most", ir.INT, ir.Const(ir.INT, 0))
    stop = ir.If(None, ir.Binary(ir.BOOL, ">=", most, cap), (ir.Return(None, cap),), ())
    end = ir.Return(None, ir.KernelCall(ir.INT, "min", (most, cap)))
    assert clamp_of(proc(let, start, stop, grow, end)) is not None
    assert clamp_of(proc(let, start, stop, grow, ir.Return(None, most))) is None
    shrink = ir.Assign(None, most, "=", ir.Binary(ir.INT, "-", most, other))
    assert clamp_of(proc(let, start, stop, shrink, end)) is None
    read = ir.Evaluate(None, ir.Binary(ir.INT, "+", cap, other))
    assert clamp_of(proc(let, start, read, stop, grow, end)) is None
    both = ir.Declare(None, "cap", ir.INT, ir.KernelCall(ir.INT, "min", (stock, stock)))
    assert clamp_of(proc(both, start, stop, grow, end)) is None


def test_the_clamp_stays_in_the_stamp_when_the_rest_reads_it(editions):
    memo, _ = _memo(editions, _rules(body="stock"))
    assert memo is not None and memo.clamp is None and "game_stock" in memo.reads


def test_a_procedure_reading_its_players_cash_keeps_it(editions):
    memo, _ = _memo(editions, _rules(body="p.cash"))
    assert memo is not None and memo.cash_of == "p"


def test_the_cost_rule_leaves_a_procedure_asked_once_or_without_a_walk(editions):
    once = _rules().replace("wanted(p) + wanted(p)", "wanted(p)")
    assert _memo(editions, once)[0] is None
    program = editions.compile(_rules(), until="memoize-procedures", prelude=False).program
    assert all(f.memo is None for f in program.functions if f.name != "proc_wanted")


def _afresh(game, name: str, *args):
    """The procedure's answer with every kept value outdated (on a copy: the game goes on
    with its memos as they are)."""
    copy = game.copy()
    copy.memo_forget()
    return getattr(copy, name)(*args)


def test_a_kept_value_equals_a_recomputation_after_every_write(editions):
    """Random claims, levels and stock taken, and writes through the reflection API: the
    memo's answer is the procedure's, worked out afresh, every time."""
    compilation, code, namespace = editions.module(_rules(), prelude=False)
    assert "def compute_proc_wanted" in code
    rng = random.Random(7)
    checked = hits = 0
    for seed in range(5):
        game = namespace["Game"](3, seed=seed)
        for _ in range(200):
            action = rng.randrange(5)
            if action == 0:
                game.invoke("proc_claim", (rng.randrange(3), rng.randrange(3)))
            elif action == 1:
                game.invoke("proc_raise_level", (rng.randrange(3),))
            elif action == 2:
                game.invoke("proc_take", (rng.randrange(-2, 3),))
            elif action == 3:
                game.state_set("c_space_owner", rng.randrange(3), rng.randrange(-1, 3))
            for p in range(3):
                before = game.memo_stamp[:]
                kept = game.proc_wanted(p)
                hits += before == game.memo_stamp
                assert kept == _afresh(game, "proc_wanted", p), (seed, p)
                checked += 1
    assert checked == 3000 and hits > 500


def test_both_backends_play_the_same_with_the_memo(editions):
    """The memo changes no game: the program interpreted, compiled and without any
    optimization plays the same seeded games."""
    modules = editions.three_ways(_rules(cash="p.cash / 1000", board=""), "pm")

    def traces(module) -> list:
        played = []
        for seed in range(4):
            game = module.Game(3, seed=seed, policies=["random"] * 3, trace=True)
            game.play(60)
            played.append(game.trace())
        return played

    interpreted, compiled, plain = (traces(module) for module in modules)
    assert interpreted == compiled == plain and len(interpreted[0]) > 20


def test_a_memo_is_dumped_with_what_it_follows(editions):
    _, program = _memo(editions, _rules())
    text = ir_text.program(program)
    assert "memoized in" in text.split("def proc_wanted", 1)[1].split("\n")[1]
    assert dataclasses.replace(function(program, "proc_wanted"), memo=None).memo is None
