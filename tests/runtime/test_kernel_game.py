"""The kernel's game loop: dice (scripted and random), turns, the cap, the end, copies."""

from __future__ import annotations

import pytest

SPACES = ("start", "a", "b", "c", "d", "e", "lockup")
D6, ODD = 0, 1


def state(game) -> dict:
    """Everything observable about a game, to compare two games."""
    return {
        "turn": game.turn, "current": game.current, "over": game.over, "capped": game.capped,
        "cash": game.players_cash(),
        "positions": [game.position[p] for p in range(game.n_players)],
        "alive": [game.alive[p] for p in range(game.n_players)],
        "counters": game.counter_values(), "landings": game.landings(),
        "deck": game.deck_order(0),
        "holders": game.holders(), "fired": game.fired(6), "moves": game.moves,
    }


# ---- dice ----------------------------------------------------------------------------------------


def test_random_rolls_are_faces_and_reproducible(tiny):
    a, b = tiny.Game(2, seed=8), tiny.Game(2, seed=8)
    rolls = [a.k_roll(D6) for _ in range(600)]
    assert rolls == [b.k_roll(D6) for _ in range(600)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert {a.k_roll(ODD) for _ in range(200)} == {1, 3, 5}


def test_scripted_rolls_come_first_in_order(tiny):
    game = tiny.Game(2, seed=8)
    twin = tiny.Game(2, seed=8)
    game.script_rolls([6, 1])
    game.script_rolls([2])  # appended after the unconsumed ones
    assert [game.k_roll(D6) for _ in range(3)] == [6, 1, 2]
    # then random again, and the scripted rolls did not consume the random stream
    assert [game.k_roll(D6) for _ in range(20)] == [twin.k_roll(D6) for _ in range(20)]


def test_the_inline_roll_flag_is_what_it_stands_for_after_every_change(tiny):
    """k_roll tests one flag (dice_plain) instead of the scripted rolls left, strict rolls,
    the trace and chance nodes: after each change of one of them, and each roll, the flag
    is their recomputation."""
    def plain(game) -> bool:
        return (game.dice_pos >= game.dice_len and not game.dice_strict
                and not game.tracing and game.chance_mode == 0)

    game = tiny.Game(2, seed=8)
    seen = []
    for step in (lambda: game.script_rolls([6, 1]), lambda: game.k_roll(D6),
                 lambda: game.k_roll(D6), lambda: game.k_roll(D6),
                 lambda: game.strict_rolls(True), lambda: game.script_rolls([2]),
                 lambda: game.k_roll(D6), lambda: game.strict_rolls(False),
                 lambda: game.set_chance_mode(1), lambda: game.set_chance_mode(0)):
        step()
        assert bool(game.dice_plain) == plain(game)
        seen.append(bool(game.dice_plain))
    assert seen == [False, False, True, True, False, False, False, True, False, True]
    assert not tiny.Game(2, seed=8, trace=True).dice_plain


def test_scripted_roll_must_be_a_face_of_the_die_rolled(tiny):
    game = tiny.Game(2, seed=8)
    game.script_rolls([3, 2])
    assert game.k_roll(ODD) == 3
    with pytest.raises(tiny.RuleError, match="scripted roll 2 is not a face of die 1"):
        game.k_roll(ODD)
    game.script_rolls([7])
    with pytest.raises(tiny.RuleError, match="scripted roll 7 is not a face of die 0"):
        game.play(1)


def test_scripted_rolls_drive_the_turns(tiny):
    game = tiny.Game(3, seed=2)
    game.start()
    game.stack_cards(0, [4])  # a `nothing` card for whoever lands on b
    game.script_rolls([1, 2, 3, 6])
    game.play(4)
    assert [SPACES[game.position[p]] for p in range(3)] == ["a", "b", "c"]
    assert game.players_cash() == [110, 100, 100]  # seat 0 went round: the salary


# ---- turns, the cap, the end ---------------------------------------------------------------------


def test_turns_rotate_through_the_seats(tiny):
    game = tiny.Game(3, seed=2, trace=True)
    game.start()
    seats = []
    for _ in range(7):
        seats.append(game.current)
        game.play(1)
    assert seats == [0, 1, 2, 0, 1, 2, 0]
    assert game.turn == 7
    assert len([line for line in game.trace() if line.startswith("turn ")]) == 7


def test_the_turn_passes_to_the_left_skipping_retired_players(tiny):
    """Every edition's "the turn passes to the left": the kernel's turn order, tested once."""
    game = tiny.Game(4, seed=2)
    game.start()
    assert [game.k_next_player(p) for p in range(4)] == [1, 2, 3, 0]
    game.k_retire(1)
    assert [game.k_next_player(p) for p in (0, 2, 3)] == [2, 3, 0]
    seats = []
    for _ in range(6):
        seats.append(game.current)
        game.play(1)
    assert seats == [0, 2, 3, 0, 2, 3]
    game.k_retire(2)
    game.k_retire(3)  # the last one in: the turn stays with them
    assert game.k_next_player(0) == 0
    game.state_set("alive", 3, 1)  # set from outside: back in, after p1
    assert [game.k_next_player(p) for p in (0, 3)] == [3, 0]


def test_a_round_ends_when_every_player_still_in_has_had_a_turn(tiny):
    """Rounds (`rounds` in the rules, the round limit): counted as players still in have
    their turns, through a retirement mid-round, one set from outside, and a copy."""
    game = tiny.Game(3, seed=4)
    game.start()

    def rounds_after_each_turn(g, turns: int) -> list[int]:
        counts = []
        for _ in range(turns):
            g.play(1)
            counts.append(g.round_count)
        return counts

    assert rounds_after_each_turn(game, 2) == [0, 0]
    copied = game.copy()
    game.k_retire(2)  # the one yet to play this round
    assert rounds_after_each_turn(game, 4) == [1, 1, 2, 2]  # rounds of seats 0 and 1
    assert rounds_after_each_turn(copied, 3) == [1, 1, 1]  # the copy's seat 2 still in
    copied.state_set("alive", 0, 0)  # seat 0 leaves from outside the rules
    assert rounds_after_each_turn(copied, 3) == [2, 2, 3]  # rounds of seats 1 and 2


def test_turn_cap_ends_the_game_as_capped(tiny):
    game = tiny.Game(2, seed=5, turn_cap=7)
    assert game.play() == 7
    assert (game.turn, game.over, game.capped) == (7, True, True)
    assert game.play() == 0  # over: nothing more happens
    assert game.turn == 7


def test_default_cap_is_the_editions_turn_limit(tiny):
    game = tiny.Game(2, seed=5)
    assert game.turn_cap == tiny.TURN_LIMIT == 50
    game.play()
    assert game.turn == 50 and game.capped


def test_play_some_turns_then_the_rest(tiny):
    game, whole = tiny.Game(2, seed=6, turn_cap=20), tiny.Game(2, seed=6, turn_cap=20)
    assert game.play(3) == 3
    assert (game.turn, game.over) == (3, False)
    assert game.play(100) == 17
    whole.play()
    assert state(game) == state(whole)


def test_game_ends_when_one_player_is_left(tiny):
    game = tiny.Game(3, seed=6)
    game.start()
    game.k_retire(1)
    assert game.n_alive == 2 and game.k_next_player(0) == 2
    game.play(2)
    assert not game.over
    game.k_retire(2)
    game.play()
    assert game.over and not game.capped
    assert game.winner() == 0


def test_player_count_is_checked(tiny):
    with pytest.raises(ValueError):
        tiny.Game(1)
    with pytest.raises(ValueError):
        tiny.Game(5)


# ---- copies -------------------------------------------------------------------------------------


@pytest.mark.parametrize("policies", [None, ["random", "random", "default"]])
def test_copy_continues_identically(tiny, policies):
    game = tiny.Game(3, seed=13, policies=policies)
    game.play(10)
    twin = game.copy()
    assert state(twin) == state(game)
    game.play()
    twin.play()
    assert state(twin) == state(game)
    assert twin.turn == 50


def test_copy_is_independent(tiny):
    game = tiny.Game(2, seed=13)
    game.play(5)
    before = state(game)
    twin = game.copy()
    twin.k_pay(0, 1, 50)
    twin.k_place(0, SPACES.index("lockup"))
    twin.c_space_landings[0] += 5
    twin.k_draw(0)
    twin.play(5)
    assert state(game) == before


def test_copy_before_start(tiny):
    game = tiny.Game(2, seed=3)
    twin = game.copy()
    game.play()
    twin.play()
    assert state(twin) == state(game)


def test_copy_keeps_scripted_rolls(tiny):
    game = tiny.Game(2, seed=13)
    game.start()
    game.script_rolls([6, 6, 6])
    twin = game.copy()
    game.play(3)
    twin.play(3)
    assert state(twin) == state(game)


def test_compiled_and_interpreted_disney_agree(disney_interpreted, disney_compiled):
    games = [module.Game(3, seed=31, turn_cap=40, trace=True)
             for module in (disney_interpreted, disney_compiled)]
    for game in games:
        game.play()
    a, b = games
    assert a.players_cash() == b.players_cash()
    assert a.trace() == b.trace()
    assert a.counter_values() == b.counter_values()


def test_compiled_copy_continues_identically(disney_compiled):
    game = disney_compiled.Game(3, seed=5, turn_cap=60)
    game.play(20)
    twin = game.copy()
    game.play()
    twin.play()
    assert twin.players_cash() == game.players_cash()
    assert twin.counter_values() == game.counter_values()
    assert twin.turn == game.turn


def test_a_loop_without_end_is_a_rules_error(tmp_path):
    """A `while` that never ends stops with a RuleError on both backends, not a hang."""
    from boardrules.runtime.loader import load_module

    edition = tmp_path / "loop" / "loop.rules"
    edition.parent.mkdir()
    (edition.parent / "rulebook.txt").write_text("Loop\n\nEach turn, wait.\n")
    edition.write_text('edition "Loop" { rulebook "rulebook.txt" players 2 to 2 }\n'
                       'enum kind { plain }\nboard { space a "A" plain }\n'
                       'rule turn { quote "Each turn, wait." on turn(p: player) '
                       '{ while true { } } }\n')
    module = load_module(str(edition), "interpreted")
    game = module.Game(2)
    with pytest.raises(module.RuleError, match="more than 1000000 rounds"):
        game.play(1)
