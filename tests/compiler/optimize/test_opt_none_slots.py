"""drop-none-slots: a counter index keeps no members of none when no walk asks for them
(test_opt_index.py's test of every write then checks such an index)."""

from __future__ import annotations

from opt_programs import DATA, DATA_BOARD

from boardrules.compiler.ir.optimize.none_slots import uses_of_none

OWNED = ("proc mine(p: player) -> int { return count(s in spaces where s.owner == p) }\n"
         "proc others(p: player) -> int {\n"
         "  return count(s in spaces where s.owner != none and s.owner != p) }\n")


def test_an_index_walked_for_players_only_keeps_no_members_of_none(editions):
    program = editions.compile(DATA + OWNED + (
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, mine(p))\n} }\n"),
        until="drop-none-slots").program
    (index,) = program.counter_indexes
    assert uses_of_none(program) == {index.name: False}
    assert (index.offset, index.values) == (0, 4)  # the four seats, and no slot of none


def test_an_index_walked_for_none_keeps_its_members(editions):
    program = editions.compile(DATA + OWNED + (
        "proc free() -> int { return count(s in spaces where s.owner == none) }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  s.owner = p\n  move(p, mine(p) + others(p) + free())\n} }\n"),
        until="drop-none-slots").program
    (index,) = program.counter_indexes
    assert (index.offset, index.values) == (-1, 5)


def test_a_walk_of_bits_of_every_owner_but_some_starts_from_every_owners_word(editions):
    """Three spaces make `others` a walk of bits: without a word of none's members, it
    takes the spaces with an owner (every value's word) but p's, and counts as a scan."""
    from boardrules.compiler.back.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    path = editions.write(DATA_BOARD + DATA + OWNED + (
        "proc claim(p: player, s: space) { s.owner = p }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  claim(p, s)\n  move(p, others(p))\n} }\n"), prelude=False)
    program = compile_rules(path).program
    (index,) = program.counter_indexes
    assert index.bits and uses_of_none(program) == {index.name: False}
    assert (index.offset, index.values) == (0, 4)
    code = generate(program, "ed.rules")
    assert "self.vxany_space_owner()" in code
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(code, "<generated>", "exec"), namespace)  # noqa: S102 - the point of the test
    game = namespace["Game"](3, seed=1)
    others = next(a.name for a in program.aggregates if a.kind == "count")
    for seat, space in ((0, 2), (1, 0), (2, 1), (0, 0), (1, 2)):
        game.invoke("proc_claim", (seat, space))
        owners = [game.state_get("c_space_owner", s) for s in range(3)]
        for p in range(3):
            assert game.invoke(others, (p,)) == sum(o not in (-1, p) for o in owners)
    game.state_set("c_space_owner", 1, -1)
    assert [game.invoke(others, (p,)) for p in range(3)] == [1, 1, 2]  # owners: p1, none, p2


def test_none_walked_only_as_bits_keeps_its_word_but_no_list(editions):
    """The spaces nobody owns, walked as bits, beside lists walked for players only: none
    keeps its word (and slot) but no list, and every write and a write from outside keep
    the word right."""
    import random

    from boardrules.compiler.back.codegen import generate
    from boardrules.compiler.pipeline import compile_rules

    path = editions.write(DATA_BOARD + DATA + OWNED + (
        "proc free() -> int {\n"
        "  return count(s in spaces where s.owner == none and not s.special) }\n"
        "proc claim(p: player?, s: space) { s.owner = p }\n"
        "rule r { on land(p: player, s: space) {\n"
        "  claim(p, s)\n  move(p, mine(p) + free())\n} }\n"), prelude=False)
    program = compile_rules(path).program
    (index,) = program.counter_indexes
    assert (index.offset, index.bits, index.none_listed) == (-1, True, False)
    code = generate(program, "ed.rules")
    assert "if 1 <= old < 5:" in code
    namespace: dict = {"__name__": "generated_under_test"}
    exec(compile(code, "<generated>", "exec"), namespace)  # noqa: S102 - the point of the test
    game = namespace["Game"](3, seed=1)
    counts = {a.name.split("_in_proc_")[1]: a.name for a in program.aggregates
              if a.kind == "count"}
    rng = random.Random(5)
    for step in range(200):
        if step % 50 == 49:
            game.state_set("c_space_owner", rng.randrange(3), rng.randrange(-1, 3))
        else:
            game.invoke("proc_claim", (rng.randrange(-1, 3), rng.randrange(3)))
        owners = [game.state_get("c_space_owner", s) for s in range(3)]
        assert game.invoke(counts["free"], ()) == owners[1:].count(-1), step  # s0 is special
        for p in range(3):
            assert game.invoke(counts["mine"], (p,)) == owners.count(p), (step, p)
