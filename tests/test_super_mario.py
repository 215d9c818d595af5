"""The Super Mario Celebration edition: both backends agree on whole games, with the
sound unit and without it, and games among default players end by the rules.

The edition's scenarios (in scenarios/ and conformance/ beside the rules file) run in
tests/test_scenarios.py; these tests look at whole games.
"""

from __future__ import annotations

import pytest

from boardrules.harness.simulate import game_seed

EDITION = "super_mario_celebration"
VARIANTS = {"with sound": {}, "without sound": {"without_sound": True}}


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_backends_give_identical_traces(interpreted, compiled, options, assert_same_game,
                                        play_on_both):
    for index in range(20):
        seed = game_seed(7, index)
        games = play_on_both(interpreted, compiled, 4, seed, options=options)
        assert len(games[0].trace()) > 100, "a whole game leaves a long trace"
        assert_same_game(*games, f"seed {seed}, {options}")


def test_the_variants_play_differently(compiled):
    """The option reaches the game: the same seed plays another game without sound."""
    seed = game_seed(7, 0)
    with_sound = compiled.Game(4, seed=seed, trace=True)
    without = compiled.Game(4, seed=seed, trace=True, options={"without_sound": True})
    with_sound.play()
    without.play()
    assert any("roll sound=" in str(line) for line in with_sound.trace())
    assert not any("roll sound=" in str(line) for line in without.trace())


def test_the_sound_unit_plays_as_the_table_without_sound(compiled):
    """The unit's odds are taken from its printed substitute, outcome for outcome: a
    seed plays the same game with the unit as with the table (the traces differ only
    in naming the sounds)."""
    for index in range(20):
        seed = game_seed(11, index)
        games = [compiled.Game(4, seed=seed, options=options) for options in VARIANTS.values()]
        for game in games:
            game.play()
        with_sound, without = games
        assert with_sound.winner() == without.winner(), f"seed {seed}"
        assert with_sound.players_cash() == without.players_cash(), f"seed {seed}"
        assert with_sound.landings() == without.landings(), f"seed {seed}"


@pytest.mark.parametrize("options", VARIANTS.values(), ids=VARIANTS.keys())
def test_default_games_end_by_bankruptcy(compiled, options):
    for players in (2, 4, 6):
        for index in range(20):
            game = compiled.Game(players, seed=game_seed(3, index), options=options)
            game.play()
            assert game.over and not game.capped, f"{players} players, game {index}"
            # the game ends when, and only when, one player is left: the winner
            assert game.n_alive == 1
            assert game.alive_of(game.winner())
