"""The PettingZoo, Gymnasium and OpenSpiel adapters pass their libraries' own API tests on
every bundled edition (short games: a turn cap, few cycles)."""

from __future__ import annotations

import pickle

import pytest

pettingzoo = pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from boardrules.pettingzoo import env, single_agent  # noqa: E402

EDITIONS = ["disney_theme_park", "animal_crossing", "builder", "super_mario_celebration"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_pettingzoo_api(edition):
    api_test(env(edition, players=4, turn_cap=12), num_cycles=60)


def test_pettingzoo_seeds_repeat_games():
    seed_test(lambda: env("super_mario_celebration", players=3, turn_cap=12), num_cycles=30)


@pytest.mark.parametrize("edition", EDITIONS)
def test_gymnasium_single_seat(edition):
    check_env(single_agent(edition, players=2, turn_cap=12), skip_render_check=True)


def test_an_aec_game_ends_with_the_winners_reward():
    aec = env("super_mario_celebration", players=2, turn_cap=8)
    aec.reset(seed=3)
    final = {}
    for agent in aec.agent_iter():
        observed, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            final[agent] = reward
            aec.step(None)
            continue
        assert reward == 0.0
        aec.step(int(observed["action_mask"].nonzero()[0][-1]))
    winner = aec.game.winner()
    assert final == {f"player_{winner}": 1.0, f"player_{1 - winner}": -1.0}


def test_environments_check_the_players():
    with pytest.raises(ValueError, match="2 to 8 players, not 1"):
        env("disney_theme_park", players=1)


def test_single_seat_masks_and_illegal_actions():
    gym_env = single_agent("disney_theme_park", players=2, turn_cap=10)
    observed, _ = gym_env.reset(seed=1)
    illegal = int((observed["action_mask"] == 0).nonzero()[0][0])
    _, _, _, _, info = gym_env.step(illegal)
    assert info["illegal_action"]
    assert gym_env.aec.game.answers[0][1] == 0  # only seat 0 answers from outside


pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("edition", EDITIONS)
def test_openspiel_random_sim(edition):
    import boardrules.openspiel  # noqa: F401  (registers the editions)

    game = pyspiel.load_game(f"boardrules_{edition}", {"players": 2, "turn_cap": 4})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_checks_the_players():
    import boardrules.openspiel  # noqa: F401

    with pytest.raises(ValueError, match="2 to 8 players, not 9"):
        pyspiel.load_game("boardrules_disney_theme_park", {"players": 9})


def test_openspiel_actions_in_the_editions_words_and_pickled_states():
    import boardrules.openspiel  # noqa: F401

    game = pyspiel.load_game("boardrules_disney_theme_park", {"players": 3})
    state = game.new_initial_state()
    for _ in range(20):
        state.apply_action(state.legal_actions()[-1])
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    words = [state.action_to_string(a) for a in state.legal_actions()]
    decision = state._state.decision
    assert all(w.startswith(f"{decision}: ") for w in words)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert str(state) != str(copy) or state.history() != copy.history()


def test_openspiel_games_have_explicit_chance_nodes():
    """Dice are chance nodes with their outcomes and probabilities, in the edition's words."""
    import boardrules.openspiel  # noqa: F401

    game = pyspiel.load_game("boardrules_disney_theme_park", {"players": 4})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert max(a for a, _ in outcomes) < game.max_chance_outcomes()
    words = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes]
    assert words[0].startswith("roll ") and words[0] != words[-1]
    twin = state.clone()
    state.apply_action(outcomes[0][0])
    twin.apply_action(outcomes[-1][0])
    assert state.history() != twin.history()
