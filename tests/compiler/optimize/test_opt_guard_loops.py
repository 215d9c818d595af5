"""guard-loops: a loop windows run, skipped when no member passes its kept part."""

from __future__ import annotations

from opt_programs import DATA, function

from boardrules.compiler.ir import ir_text
from boardrules.compiler.ir import nodes as ir

# ---- guard-loops -----------------------------------------------------------------------------

LOOP_RULES = DATA + """counter player.tokens: int = 0
proc offer(p: player) {
  window q from p {
    hand_out(q)
  }
}
proc hand_out(p: player) {
  for q in players where q != p and q.tokens > 0 and p.cash > q.cash {
    q.tokens -= 1
    pay(p, q, 1)
  }
  for s in spaces where s.owner == none and 10 / (s.level + 1) > 1 {
    s.level += 1
  }
  for q in players where q != p {
    move(q, 0)
  }
}
proc give(p: player) {
  p.tokens += 2
  pay(bank, p, p.seat * 3)
}
rule r { on turn(p: player) {
  offer(p)
  give(p)
} }
"""


def test_a_loop_windows_run_is_skipped_when_no_member_passes_its_kept_part(editions):
    program = editions.compile(LOOP_RULES, until="guard-loops").program
    hand_out = function(program, "proc_hand_out")
    tokens, levels, moves = hand_out.body
    assert isinstance(tokens, ir.If) and isinstance(tokens.then[0], ir.Loop)
    guard = next(a for a in program.aggregates if a.name == tokens.test.function)
    assert guard.kind == "any" and ir_text.expr(guard.where) == (
        "((q != p) and (q.player_tokens > 0))")  # not the cash: it changes every turn
    assert [name for name, _ in guard.params] == ["p"]
    assert isinstance(levels, ir.Loop)  # its filter may raise (a division)
    assert isinstance(moves, ir.Loop)  # it tests locals only: nothing to keep
    memoized = editions.compile(LOOP_RULES, until="memoize-aggregates").program
    assert next(a for a in memoized.aggregates if a.name == guard.name).memo is not None


def test_a_guarded_loop_plays_as_before(editions, monkeypatch):
    """The same seeded games with the guard as without it (the pass left out)."""
    from boardrules.compiler import pipeline
    from boardrules.compiler.back.codegen import generate

    def games(program: ir.Program) -> list:
        namespace: dict = {"__name__": "generated_under_test"}
        exec(compile(generate(program, "ed.rules"), "<generated>", "exec"), namespace)
        played = []
        for seed in range(5):
            game = namespace["Game"](3, seed=seed)
            game.play(12)
            played.append((game.turn, game.players_cash(), game.counter_values(),
                           [game.state_get("c_player_tokens", q) for q in range(3)]))
        return played

    path = editions.write(LOOP_RULES)
    guarded = pipeline.compile_rules(path).program
    assert any(a.name.startswith("agg_loop") for a in guarded.aggregates)
    monkeypatch.setattr(pipeline, "PASSES",
                        [p for p in pipeline.PASSES if p[0] != "guard-loops"])
    plain = pipeline.compile_rules(path).program
    assert not any(a.name.startswith("agg_loop") for a in plain.aggregates)
    played = games(guarded)
    assert played == games(plain)
    assert any(sum(tokens) < 2 * turns for turns, _, _, tokens in played)  # the loop ran
