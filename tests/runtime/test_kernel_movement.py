"""The kernel's movement: pass and land events, wrap-around, offboard spaces, placing."""

from __future__ import annotations

import pytest

SPACES = ("start", "a", "b", "c", "d", "e", "lockup")
PASSES, LANDINGS = 1, 2  # counter_values() order: player.passed, space.passes, space.landings


def space(name: str) -> int:
    return SPACES.index(name)


@pytest.fixture
def recording(tiny):
    """A started game that records every pass and land event the kernel raises."""

    class Recording(tiny.Game):
        def event_pass(self, p, s):
            self.events.append(("pass", p, SPACES[s]))
            return super().event_pass(p, s)

        def event_land(self, p, s):
            self.events.append(("land", p, SPACES[s]))
            return super().event_land(p, s)

    game = Recording(2, seed=3, trace=True)
    game.events = []
    game.start()
    game.stack_cards(0, [4])  # a `nothing` card on top, should b or e be landed on
    return game


def test_track_layout(tiny):
    g = tiny.Game(2)
    assert g.track_length == 6 and g.n_spaces == 7
    assert [g.track_of[s] for s in range(7)] == [0, 1, 2, 3, 4, 5, 3]
    assert [g.space_at_track[t] for t in range(6)] == [0, 1, 2, 3, 4, 5]
    assert tiny.TRACK == (0, 1, 2, 3, 4, 5, 3)
    # every space's is a track position: a move reads its pass gap there, with no lap taken
    assert all(0 <= g.track_of[s] < g.track_length for s in range(g.n_spaces))


def test_move_passes_then_lands(recording):
    recording.k_move(0, 3)
    assert recording.events == [("pass", 0, "a"), ("pass", 0, "b"), ("land", 0, "c")]
    assert recording.position[0] == space("c")
    assert recording.landings()[space("c")] == 1
    assert recording.moves == 1
    values = recording.counter_values()
    assert values[PASSES][space("a")] == values[PASSES][space("b")] == 1
    assert values[LANDINGS][space("c")] == 1
    assert recording.trace()[-1].endswith(" at c")


def test_one_step_passes_nothing(recording):
    recording.k_move(1, 1)
    assert recording.events == [("land", 1, "a")]


def test_wrap_around_passes_start(recording):
    recording.k_place(0, space("d"))
    recording.events.clear()
    recording.k_move(0, 3)
    assert recording.events == [("pass", 0, "e"), ("pass", 0, "start"), ("land", 0, "a")]
    assert recording.position[0] == space("a")
    assert recording.players_cash() == [110, 100]  # the salary for passing start


def test_landing_on_start_is_not_passing_it(recording):
    recording.k_place(0, space("e"))
    recording.events.clear()
    recording.k_move(0, 1)
    assert recording.events == [("land", 0, "start")]
    assert recording.players_cash() == [100, 100]


def test_long_move_laps_the_track(recording):
    recording.k_move(0, 13)
    passed = [s for kind, _, s in recording.events if kind == "pass"]
    assert passed == ["a", "b", "c", "d", "e", "start"] * 2
    assert recording.events[-1] == ("land", 0, "a")
    assert recording.players_cash() == [120, 100]


def test_moving_back_passes_nothing(recording):
    recording.k_place(0, space("a"))
    recording.events.clear()
    recording.k_move(0, -2)
    assert recording.events == [("land", 0, "e")]
    assert recording.position[0] == space("e")
    assert recording.players_cash() == [100, 100]  # going back over start pays nothing
    recording.k_move(0, -13)
    assert recording.position[0] == space("d")


def test_place_raises_no_events_and_counts_a_landing(recording):
    recording.k_place(1, space("lockup"))
    assert recording.events == []
    assert recording.position[1] == space("lockup")
    assert recording.landings()[space("lockup")] == 1
    assert recording.counter_values()[LANDINGS][space("lockup")] == 0  # no land event


def test_moving_off_an_offboard_space(recording):
    recording.k_place(0, space("lockup"))  # beside c, at track position 3
    recording.events.clear()
    recording.k_move(0, 2)
    assert recording.events == [("pass", 0, "d"), ("land", 0, "e")]
    recording.k_place(1, space("lockup"))
    recording.events.clear()
    recording.k_move(1, 3)
    assert recording.events == [("pass", 1, "d"), ("pass", 1, "e"), ("land", 1, "start")]


def test_move_to_passes_what_lies_between(recording):
    recording.k_place(0, space("a"))
    recording.events.clear()
    recording.k_move_to(0, space("e"))
    assert recording.events == [("pass", 0, "b"), ("pass", 0, "c"), ("pass", 0, "d"),
                                ("land", 0, "e")]


def test_move_to_wraps_around(recording):
    recording.k_place(0, space("e"))
    recording.events.clear()
    recording.k_move_to(0, space("b"))
    assert recording.events == [("pass", 0, "start"), ("pass", 0, "a"), ("land", 0, "b")]
    assert recording.players_cash() == [110, 100]


def test_move_to_an_offboard_space_lands_there(recording):
    recording.k_place(0, space("a"))
    recording.events.clear()
    recording.k_move_to(0, space("lockup"))
    assert recording.events == [("pass", 0, "b"), ("land", 0, "lockup")]
    assert recording.position[0] == space("lockup")


def test_distance_and_space_at(tiny):
    g = tiny.Game(2)
    assert g.k_distance(space("a"), space("d")) == 3
    assert g.k_distance(space("d"), space("a")) == 3  # forward, around the track
    assert g.k_distance(space("c"), space("lockup")) == 0
    assert g.k_distance(space("e"), space("start")) == 1
    assert [g.k_space_at(t) for t in (0, 5, 6, 13, -1, -7)] == [
        space("start"), space("e"), space("start"), space("a"), space("e"), space("e")]
    n = g.track_length
    for a in range(len(SPACES)):  # the modulo formula, for every pair (off-track included)
        for b in range(len(SPACES)):
            expected = ((g.track_of[b] - g.track_of[a]) % n + n) % n
            assert g.k_distance(a, b) == expected, (a, b)


def test_a_turn_moves_by_the_roll(tiny):
    game = tiny.Game(2, seed=1)
    game.start()
    game.script_rolls([3, 4])
    assert game.play(2) == 2
    assert game.turn == 2 and game.current == 0  # seat 0 first (no `first` rule), then 1
    assert [game.position[0], game.position[1]] == [space("c"), space("d")]
    assert game.counter_values()[0] == [2, 3]  # player.passed
