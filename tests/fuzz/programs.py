"""Small random rules programs for the differential test (issue 13, "Guards that stay").

`edition(seed, n)` writes one edition holding `n` generated programs: each is a rule
`prog_K` that runs on a turn when the counter `mode` is K, reads its inputs from the
counters `arg1`..`arg3`, and does arithmetic with edge values, loops, aggregates,
decisions, cards, counters, payments, moves and a window (`market`), often through a
procedure `f_K` of its own. The generator knows the language's types, so nearly every
program checks; what the compiler rejects (a constant out of range, say) is dropped by
the test.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

PRELUDE = '''edition "Differential" {
  rulebook "rulebook.txt"
  players 2 to 4
}
enum kind { plain, property }
enum color { red, green, blue }
field space.price: int = 0
field space.rent: int[3]
field card.value: int = 0
counter mode: int = 0
counter arg1: int = 0
counter arg2: int = 0
counter arg3: int = 0
counter result: int = 0
counter pinged: int = 0
counter space.owner: player? = none
counter space.level: int = 0
counter player.score: int = 0
counter player.flags: int[4] = 0
counter player.hue: color? = none
board {
  space s0 "Start" plain
  space s1 "One" property { price = 60, rent = [2, 10, 2147483647] }
  space s2 "Two" plain
  space s3 "Three" property { price = 2147483647, rent = [0, 1, 2] }
  space s4 "Four" plain
  space s5 "Five" property { price = 100, rent = [5, 6, 7] }
}
die six faces 1 to 6
die odd faces [1, 3, 5, 1000000]
die tint faces [red, red, green, blue]
deck chance(p: player) "Chance" {
  card c_pay "Pay" { value = 3 } do { pay(p, bank, 15) }
  card c_move "Move" { value = 2147483647 } do { move(p, 2) }
  card c_keep "Keep" keep { value = 7 }
  card c_many "Many" copies 3 { value = 1 } do { p.score += 1 }
}
event ping(n: int)
decision pick(p: player, low: int, high: int) by p -> int from low to high {
  default low
}
decision maybe(p: player, low: int, high: int) by p -> int? from low to high {
  default none
}
decision yes(p: player, x: int) by p -> bool {
  default x > 0
}
decision where_to(p: player, x: int) by p -> space? where s: s.level <= x {
  default best(s.price for s in legal)
}
decision hue(p: player) by p -> color where c: c != blue {
}
rule plain_turn { on turn(p: player) when mode == 0 { move(p, roll(six)) } }
rule pinging { on ping(n: int) { pinged += n } }
rule buying {
  on land(p: player, s: space) when s.price > 0 and s.owner == none {
    if p.cash >= s.price and ask yes(p, s.price) {
      pay(p, bank, s.price)
      s.owner = p
    }
  }
}
proc rec(n: int) -> int {
  if n <= 0 {
    return 0
  }
  return rec(n - 1) + 1
}
proc clamp(x: int, low: int, high: int) -> int {
  return max(low, min(x, high))
}
proc twice(x: int) -> int {
  return x * 2
}
proc worth(q: player) -> int {
  return q.cash + sum(s.price for s in spaces where s.owner == q)
}
counter player.sales: int = 0
decision sell(p: player) by p -> bool {
  default p.sales < 1 + pinged % 3 and p.cash > 10
}
# a window whose code reads no die, deck or outer local: closed at once, untraced, after
# writes it does not read (blind_writes.py)
proc market(p: player) {
  window q from p rounds 2 {
    if ask sell(q) {
      q.sales += 1
      pay(q, bank, 5)
    }
  }
}
'''
RULEBOOK = "The Differential Game.\n\nEvery program runs on both backends alike.\n"

LITERALS = (0, 0, 1, 1, 2, 3, 5, 7, 10, 100, 255, 256, 65535, 65536, 1000000, 1000001,
            2147483647, 1073741824, 46341)
SPACES = ("s0", "s1", "s2", "s3", "s4", "s5")
ARGS = ("arg1", "arg2", "arg3")
INPUTS = ((0, 0, 0), (1, -1, 2), (2147483647, 1, -1), (-2147483647 - 1, -1, 3),
          (46341, 46341, 7), (1000000, -1000000, 0), (5, 3, 200), (-7, 2, 250))


@dataclass
class Env:
    """What is in scope: int locals (and which may be assigned), players, spaces."""

    ints: list[str]
    assignable: list[str]
    players: list[str]
    spaces: list[str] = field(default_factory=lambda: list(SPACES))

    def inner(self) -> Env:
        return Env(list(self.ints), list(self.assignable), list(self.players), list(self.spaces))


class Generator:
    """Well-typed random statements and expressions of the rules language."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.fresh = 0

    def name(self, prefix: str) -> str:
        self.fresh += 1
        return f"{prefix}{self.fresh}"

    # ---- expressions ----
    def int_(self, env: Env, depth: int, pure: bool = False) -> str:
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self._int_leaf(env, pure)
        d = depth - 1
        kind = r.choice(("bin", "bin", "bin", "neg", "call", "cond", "agg", "agg", "ask",
                         "index", "misc"))
        if kind == "bin":
            op = r.choice(("+", "-", "*", "/", "%", "+", "-", "*"))
            right = self.int_(env, d, pure)
            if op in "/%" and r.random() < 0.8:  # mostly a divisor that cannot be zero
                right = f"({right} % {r.choice((2, 7, 46341))} + 1)"
            return f"({self.int_(env, d, pure)} {op} {right})"
        if kind == "neg":
            return f"-{self.int_(env, d, pure)}"
        if kind == "call":
            which = r.choice(("abs", "min", "max", "clamp", "twice", "rec", "worth"))
            if which == "abs":
                return f"abs({self.int_(env, d, pure)})"
            if which in ("min", "max"):
                return f"{which}({self.int_(env, d, pure)}, {self.int_(env, d, pure)})"
            if which == "clamp":
                return f"clamp({', '.join(self.int_(env, d, pure) for _ in range(3))})"
            if which == "worth":
                return f"worth({r.choice(env.players)})"
            return f"{which}({self.int_(env, d, pure)})"
        if kind == "cond":
            return (f"(if {self.bool_(env, d, pure)} then {self.int_(env, d, pure)} "
                    f"else {self.int_(env, d, pure)})")
        if kind == "agg":
            return self._aggregate(env, d)
        if kind == "ask" and not pure:
            low = self.int_(env, d, True)
            high = f"{low} + {r.choice((0, 1, 3, 10))}"
            high = high if r.random() < 0.8 else self.int_(env, d, True)
            decision = r.choice(("pick", "pick", "maybe"))
            who = r.choice(env.players)
            if decision == "maybe":  # none is -1: kept apart from a number by a test
                return f"(if ask maybe({who}, {low}, {high}) == none then -1 else 1)"
            return f"ask pick({r.choice(env.players)}, {low}, {high})"
        if kind == "index":
            index = self.int_(env, d, pure)
            index = index if r.random() < 0.15 else f"({index} % 3)"  # mostly in range
            if r.random() < 0.5:
                return f"{r.choice(env.players)}.flags[{index}]"
            return f"{r.choice(env.spaces)}.rent[{index}]"
        if kind == "misc" and not pure:
            return r.choice((f"random(({self.int_(env, d, True)} % 6) + 1)", "roll(six)",
                             "roll(odd)", "cards_left(chance)"))
        return self._int_leaf(env, pure)

    def _int_leaf(self, env: Env, pure: bool) -> str:
        r = self.r
        kind = r.choice(("lit", "lit", "local", "local", "local", "arg", "state", "builtin"))
        if kind == "lit":
            return str(r.choice(LITERALS))
        if kind == "local" and env.ints:
            return r.choice(env.ints)
        if kind == "arg":
            return r.choice(ARGS)
        if kind == "state":
            return r.choice((f"{r.choice(env.players)}.cash", f"{r.choice(env.players)}.score",
                             f"{r.choice(env.spaces)}.level", f"{r.choice(env.spaces)}.price",
                             f"{r.choice(env.players)}.seat", f"{r.choice(env.spaces)}.track",
                             "result", "pinged"))
        return r.choice(("turn", "players_count", str(r.choice(LITERALS))))

    def _aggregate(self, env: Env, depth: int) -> str:
        r = self.r
        inner = env.inner()
        domain_kind = r.choice(("range", "range", "players", "spaces", "cards"))
        var = self.name("x")
        if domain_kind == "range":
            low = self.int_(env, depth, True)
            high = r.choice((f"{low} + {r.choice((0, 1, 5, 20))}", self.int_(env, depth, True),
                             f"({self.int_(env, depth, True)} % 30)"))
            domain = f"{low} to {high}"
            inner.ints.append(var)
        elif domain_kind == "players":
            domain = "players"
            inner.players.append(var)
        elif domain_kind == "spaces":
            domain = "spaces"
            inner.spaces.append(var)
        else:
            domain = r.choice(("cards chance", "cards"))
        where = f" where {self.bool_(inner, depth, True)}" if r.random() < 0.6 else ""
        kind = r.choice(("sum", "count", "max_of", "min_of", "sum"))
        if kind == "count":
            return f"count({var} in {domain}{where})"
        if domain_kind == "cards":
            value = r.choice((f"{var}.value", "1", self.int_(inner, depth, True)))
        else:
            value = self.int_(inner, depth, True)
        return f"{kind}({value} for {var} in {domain}{where})"

    def bool_(self, env: Env, depth: int, pure: bool = False) -> str:
        r = self.r
        if depth <= 0 or r.random() < 0.3:
            op = r.choice(("==", "!=", "<", "<=", ">", ">="))
            return f"{self.int_(env, 0, pure)} {op} {self.int_(env, min(depth, 1), pure)}"
        d = depth - 1
        kind = r.choice(("cmp", "cmp", "and", "or", "not", "any", "all", "entity", "ask"))
        if kind == "cmp":
            op = r.choice(("==", "!=", "<", "<=", ">", ">="))
            return f"{self.int_(env, d, pure)} {op} {self.int_(env, d, pure)}"
        if kind in ("and", "or"):
            return f"({self.bool_(env, d, pure)} {kind} {self.bool_(env, d, pure)})"
        if kind == "not":
            return f"not ({self.bool_(env, d, pure)})"
        if kind in ("any", "all"):
            inner = env.inner()
            var = self.name("y")
            inner.ints.append(var)
            low = self.int_(env, d, True)
            domain = f"{low} to {low} + {r.choice((0, 2, 9))}"
            if kind == "any":
                return f"any({var} in {domain} where {self.bool_(inner, d, True)})"
            return f"all({self.bool_(inner, d, True)} for {var} in {domain})"
        if kind == "entity":
            s, q, q2 = r.choice(env.spaces), r.choice(env.players), r.choice(env.players)
            value = self.int_(Env([], [], ["z"]), 0, True)  # of the candidate z
            return r.choice((f"{s}.owner == {q}", f"{s}.owner != none", f"holds({q}, c_keep)",
                             f"{q}.alive", f"{q}.hue == red", f"{s} == space_at({q}.seat)",
                             f"best({value} for z in players) == {q}",
                             # in another order: first_of's key, best's ties
                             f"first_of(z in players where {value} > {r.choice((0, 1))} by "
                             f"z.cash{r.choice(('', ' desc'))}) == {q}",
                             f"best({value} % 2 for z in players by z.score desc) == {q}",
                             f"first_of(t in spaces by t.level - t.price) == {s}",
                             f"best(t.level - {self.int_(env, d, True)} for t in spaces) == {s}",
                             # bit walks: others' spaces, and one owner's, pruned by a field
                             f"any(t in spaces where t.owner != none and t.owner != {q}"
                             f" and t.price > {r.choice((0, 60, 99))})",
                             f"count(t in spaces where t.owner == {q} and t.price >= 100) > 0",
                             # what one player owns, and a game counter's side: per owner
                             f"any(t in spaces where t.owner == {q} and t.level > "
                             f"{r.choice((0, 1, 5))} and pinged > {r.choice((0, 3))})",
                             f"sum(t.level for t in spaces where t.owner == {q}) > "
                             f"{r.choice((0, 2))}",
                             # a part per player: words of bits (factor-masks)
                             f"any(fq in players where fq != {q} and any(fk in 0 to 3 where "
                             f"{q}.flags[fk] > {r.choice((0, 1))} and fq.flags[fk] <= "
                             f"{r.choice((0, 2))}))",
                             f"best(count(fk in 0 to 3 where {q}.flags[fk] != 0 and "
                             f"fq.flags[fk] > {r.choice((-1, 1))}) for fq in players) == {q2}"))
        if kind == "ask" and not pure:
            return f"ask yes({r.choice(env.players)}, {self.int_(env, d, True)})"
        return f"{self.int_(env, d, pure)} > 0"

    # ---- statements ----
    def block(self, env: Env, depth: int, size: int) -> list[str]:
        lines: list[str] = []
        for _ in range(size):
            lines += self.statement(env, depth)
        return lines

    def loop_body(self, env: Env, depth: int) -> list[str]:
        """A loop's body, sometimes with a `break` under a condition among its statements
        (the condition reads only what is visible before the body)."""
        stop = f"if {self.bool_(env, 1)} {{ break }}" if self.r.random() < 0.35 else ""
        lines = self.block(env, depth - 1, 2)
        if stop:  # between two lines: each is a statement's, or a block's end or else
            lines.insert(self.r.randint(0, len(lines)), stop)
        return lines

    def statement(self, env: Env, depth: int) -> list[str]:
        r = self.r
        e = min(depth + 1, 3)
        kinds = ["let", "let", "assign", "state", "pay", "if", "for", "while", "card", "misc",
                 "move", "market"]
        kind = r.choice(kinds if depth > 0 else kinds[:5] + ["card", "misc", "market"])
        if kind == "let" or (kind == "assign" and not env.assignable):
            name = self.name("v")
            value = self.int_(env, e)
            env.ints.append(name)
            env.assignable.append(name)
            return [f"let {name} = {value}"]
        if kind == "assign":
            op = r.choice(("=", "+=", "-=", "*="))
            return [f"{r.choice(env.assignable)} {op} {self.int_(env, e)}"]
        if kind == "state":
            target = r.choice(("result", "pinged", f"{r.choice(env.players)}.score",
                               f"{r.choice(env.spaces)}.level",
                               f"{r.choice(env.players)}.flags[({self.int_(env, 1)}) % 4]"))
            return [f"{target} {r.choice(('=', '+=', '-='))} {self.int_(env, e)}"]
        if kind == "pay":
            q = r.choice(env.players)
            payer, payee = r.choice(((q, "bank"), ("bank", q), (q, f"next_player({q})")))
            return [f"pay({payer}, {payee}, {self.int_(env, e)})"]
        if kind == "move":
            q = r.choice(env.players)
            return [r.choice((f"move({q}, {self.int_(env, e)} % 13)", f"move({q}, roll(six))",
                              f"place({q}, space_at({self.int_(env, e)}))",
                              f"move_to({q}, {r.choice(env.spaces)})"))]
        if kind == "if":
            inner, other = env.inner(), env.inner()
            lines = [f"if {self.bool_(env, e)} {{", *self.block(inner, depth - 1, 2)]
            if r.random() < 0.5:
                lines += ["} else {", *self.block(other, depth - 1, 2)]
            if r.random() < 0.1:
                lines.append("end turn")
            return [*lines, "}"]
        if kind == "for":
            inner = env.inner()
            var = self.name("i")
            ordered = r.random() < 0.3  # by a key: a range's bounds are then constants
            if r.random() < 0.3:
                inner.players.append(var)
                head = f"for {var} in players"
            elif ordered:
                inner.ints.append(var)
                low = r.choice((-3, 0, 2))
                head = f"for {var} in {low} to {low + r.choice((0, 1, 4, 12))}"
            else:
                inner.ints.append(var)
                low = self.int_(env, 1)
                high = r.choice((f"{low} + {r.choice((0, 1, 4, 12))}", self.int_(env, 1)))
                head = f"for {var} in {low} to {high}"
            where = f" where {self.bool_(inner, 1, True)}" if r.random() < 0.4 else ""
            if ordered:  # a key of the member, often with ties, or of anything in scope
                own = (f"{var}.cash % 3", f"{var}.score", f"{var}.seat * 2 - {var}.cash") \
                    if var in inner.players else (f"{var} % 3", f"0 - {var}", f"{var} * {var}")
                key = r.choice((*own, self.int_(inner, 1, True)))
                where += f" by {key}{r.choice(('', ' desc'))}"
            return [f"{head}{where} {{", *self.loop_body(inner, depth), "}"]
        if kind == "while":
            counter = self.name("w")
            inner = env.inner()
            limit = f"(({self.int_(env, 1)}) % 9)"
            return [f"let {counter} = 0", f"while {counter} < {limit} {{", f"{counter} += 1",
                    *self.loop_body(inner, depth), "}"]
        if kind == "card":
            q = r.choice(env.players)
            return [r.choice((f"draw chance({q})", f"give_card(c_keep, {q})", f"draw chance({q})",
                              "return_card(c_keep)",
                              f"if holds({q}, c_keep) {{ return_card(c_keep) }}",
                              "if c_keep.holder != none { return_card(c_keep) }",
                              f"let t{self.fresh} = take_top(chance)\nif t{self.fresh} != none "
                              f"{{ give_card(some(t{self.fresh}), {q}) }}", "shuffle(chance)"))]
        q = r.choice(env.players)
        if kind == "market":  # a window, often after writes it does not read
            return [f"market({q})"]
        return [r.choice((f"trigger ping({self.int_(env, e)})", f'log("v {self.fresh}")',
                          f"{r.choice(env.spaces)}.owner = {q}",
                          f"{r.choice(env.spaces)}.owner = none",
                          f"let sp{self.fresh} = ask where_to({q}, {self.int_(env, 1, True)})",
                          f"{q}.hue = ask hue({q})",
                          f"{r.choice(env.players)}.hue = none"))]


def call_tree(seed: int, k: int, deep: bool = True) -> tuple[list[str], list[str], bool]:
    """Deep and branching calls for program K, from a stream of their own (the rest of the
    program is what it was without them): declarations, and the statements of its rule.
    A tree of procedures, each calling the one below once to three times (exponential in
    its depth: the turn's budget counts calls, call_budget.py), a recursion that ends by
    itself at a depth near the limit of 200 or past it, one that branches, or landings
    that move again until a counter says stop. Often none. Last: whether the calls come
    first in the rule (else last, when the rule may have ended the turn already). Not
    `deep`: trees and branching recursions that stay well within the turn's budget (one
    run to the budget takes a second interpreted)."""
    r = random.Random(seed * 7_919 + k)
    first = r.random() < 0.5
    kind = r.choice(("none", "none", "none", "tree", "tree", "recursion", "branching",
                     "landing"))
    depth = r.choice((1, 2, 5, 9, 12, 14, 17, 19, 22, 36) if deep else (1, 2, 5, 9, 12, 13))
    limit = r.choice((10, 150, 199, 200, 201, 260, "a % 260", "abs(a % 300)"))
    name = f"t{k}"
    if kind == "tree":
        lines = [f"proc {name}_0(n: int) -> int {{ return (n * 7 + {r.choice(LITERALS)}) "
                 "% 11 }"]
        for i in range(1, depth + 1):
            calls = [f"{name}_{i - 1}(n + {j})" for j in range(r.choice((1, 2, 2, 2, 3)))]
            joined = calls[0]
            for call in calls[1:]:
                joined = f"{r.choice(('max', 'min'))}({joined}, {call})"
            if r.random() < 0.2:  # a branch: counted as written, both ways
                joined = f"(if n % 3 == 0 then {name}_{i - 1}(n) else {joined})"
            lines.append(f"proc {name}_{i}(n: int) -> int {{ return {joined} }}")
        return lines, [f"result = {name}_{depth}(a % 5)"], first
    if kind == "recursion":
        return ([f"proc {name}(n: int) -> int {{", "  if n <= 0 {", "    return 0", "  }",
                 f"  return {name}(n - 1) + 1", "}"], [f"result = {name}({limit})"], first)
    if kind == "branching":
        return ([f"proc {name}(n: int) -> int {{", "  if n < 2 {", "    return n", "  }",
                 f"  return {name}(n - 1) + {name}(n - 2)", "}"],
                [f"result = {name}({r.choice(('a % 40', 20, 27, 31) if deep else (9, 15))})"],
                first)
    if kind == "landing":  # (a handler reads the input itself: the rule's `a` is not in scope)
        bound = str(limit).replace("a %", "arg1 %")
        return ([f"counter {name}_depth: int = 0", f"rule {name}_lands {{",
                 f"  on land(q: player, s: space) when mode == {k} {{",
                 f"    if {name}_depth < {bound} {{", f"      {name}_depth += 1",
                 f"      move(q, -{r.choice((1, 3, 5))})", "    }", "  }", "}"],
                [f"{name}_depth = 0", f"move(p, {r.choice((1, 2))})"], first)
    return [], [], first


def program(seed: int, k: int, deep: bool = True) -> str:
    """The text of program K: a rule, and often a procedure of its own."""
    g = Generator(seed * 100_003 + k)
    env = Env(["a", "b", "c"], ["a", "b", "c"], ["p"])
    lines = [f"rule prog_{k} {{", f"  on turn(p: player) when mode == {k} {{",
             "    let a = arg1", "    let b = arg2", "    let c = arg3"]
    body = g.block(env, depth=2, size=g.r.randint(2, 5))
    proc: list[str] = []
    if g.r.random() < 0.6:
        inner = Env(["a", "b", "c"], ["a", "b", "c"], ["q"])
        proc = [f"proc f_{k}(q: player, a: int, b: int, c: int) -> int {{",
                *("  " + line for line in g.block(inner, depth=2, size=g.r.randint(1, 4))),
                f"  return {g.int_(inner, 2)}", "}"]
        body.append(f"result = f_{k}(p, a, b, c)")
    trees, calls, first = call_tree(seed, k, deep)
    body = calls + body if first else body + calls
    body.append(f"result += {g.int_(env, 2)}")
    lines += ["    " + line for line in "\n".join(body).split("\n")]
    lines += ["    end turn", "  }", "}"]
    return "\n".join(trees + proc + lines) + "\n"


def edition(seed: int, ids: list[int], written: dict[int, str] | None = None,
            deep: bool = True) -> tuple[str, dict[int, tuple[int, int]]]:
    """The edition's text with programs `ids` (generated, or `written` out for some), and
    each program's first and last line (`deep`: see call_tree)."""
    text = PRELUDE
    spans = {}
    for k in ids:
        start = text.count("\n") + 1
        text += (written or {}).get(k) or program(seed, k, deep)
        spans[k] = (start, text.count("\n"))
    return text, spans
