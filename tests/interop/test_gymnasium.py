import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tricolore.interop  # noqa: F401 -- registers the ids
from tricolore.agents import decide, make_agent
from tricolore.core.errors import OptionsError
from tricolore.core.registry import games, get_game
from tricolore.interop.gymnasium import IDS, INVALID_ACTION_PENALTY, TricoloreEnv


def short(game):
    names = {o["name"] for o in get_game(game).info.options.schema(get_game(game).info.min_players)}
    return {"max_rounds": 2} if "max_rounds" in names else {}


def test_every_registered_game_has_an_id_and_every_id_a_game():
    assert sorted(IDS.values()) == sorted(games())
    assert sorted(IDS) == sorted(i for i in gymnasium.registry if i.startswith("tricolore/"))


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_every_id_passes_gymnasiums_env_checker(env_id):
    env = gymnasium.make(env_id, max_steps=200)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not caught, [str(w.message) for w in caught]


def play(env, seed, rng):
    observation, info = env.reset(seed=seed)
    assert np.array_equal(observation["action_mask"], info["action_mask"])
    total, steps, done = 0.0, 0, False
    trail = []
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        assert "invalid_action" not in info
        total += reward
        steps += 1
        done = terminated or truncated
        trail.append((action, reward, observation["observation"].sum()))
    return total, terminated, trail


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_a_random_learner_plays_whole_episodes_against_the_default_strategy(env_id):
    game = IDS[env_id]
    env = gymnasium.make(env_id, players=get_game(game).info.min_players, max_steps=4000, **short(game))
    rng = np.random.default_rng(0)
    for seed in (1, 2):
        total, terminated, _ = play(env, seed, rng)
        assert terminated
        winners = env.unwrapped.state.result().winners
        assert total == (1 / len(winners) if 0 in winners else 0.0)


@pytest.mark.parametrize("env_id", ["tricolore/Revolution-v0", "tricolore/Culottes-v0"])
def test_seeding_reproduces_an_episode(env_id):
    game = IDS[env_id]
    env = gymnasium.make(env_id, players=3 if game == "revolution" else 4, opponents="random",
                         max_steps=300, **short(game))
    first = play(env, 42, np.random.default_rng(7))
    second = play(env, 42, np.random.default_rng(7))
    assert first[2] == second[2]
    other = play(env, 43, np.random.default_rng(7))
    assert other[2] != first[2]


def test_an_invalid_action_costs_the_penalty_and_changes_nothing():
    env = TricoloreEnv("revolution", players=3)
    observation, _ = env.reset(seed=3)
    digest = env.state.digest()
    masked = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation2, reward, terminated, truncated, info = env.step(masked)
    assert reward == INVALID_ACTION_PENALTY
    assert "not allowed now" in info["invalid_action"]
    assert env.state.digest() == digest
    assert np.array_equal(observation["observation"], observation2["observation"])
    assert not terminated and not truncated


def test_the_learner_may_take_another_seat_and_opponents_may_be_named_per_seat():
    env = TricoloreEnv("let-them-eat-cake", players=3, seat=2, opponents=["random", "kingmaker"],
                       raw_view=True)
    observation, info = env.reset(seed=0)
    assert info["view"] == env.state.view(2)
    assert observation["observation"][2] == 1.0  # the one-hot of the learner's seat
    assert sorted(env.opponents) == [0, 1]
    assert type(env.opponents[0]).__name__ == "RandomAgent"
    assert type(env.opponents[1]).__name__ != "RandomAgent"


def test_bad_arguments_are_refused_with_a_sentence():
    with pytest.raises(OptionsError, match="seat"):
        TricoloreEnv("culottes", seat=9)
    with pytest.raises(OptionsError, match="one per other seat"):
        TricoloreEnv("culottes", players=4, opponents=["random"])
    with pytest.raises(OptionsError, match="no strategy"):
        TricoloreEnv("culottes", opponents="genius")
    with pytest.raises(OptionsError, match="max_steps"):
        TricoloreEnv("culottes", max_steps=-1)


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_a_named_strategy_plays_whole_episodes_as_the_learner(env_id):
    game = get_game(IDS[env_id])
    bot, rng = make_agent(game, next(iter(game.strategies))), random.Random(3)
    env = gymnasium.make(env_id, players=game.info.min_players, max_steps=4000, **short(IDS[env_id]))
    observation, _ = env.reset(seed=4)
    table = env.unwrapped
    planned: list[int] = []
    spelled, done = 0, False
    while not done:
        if not planned:
            planned = table.codec.spell(table.state, table.seat, decide(bot, table.state, table.seat, rng))
            spelled += 1
        step = planned.pop(0)
        assert observation["action_mask"][step] == 1
        observation, _, terminated, truncated, info = env.step(step)
        assert "invalid_action" not in info
        done = terminated or truncated
    assert terminated and spelled >= 2
