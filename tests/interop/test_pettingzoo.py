import random
import warnings

import numpy as np
import pytest
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.test import api_test, parallel_api_test

from tricolore.agents import decide, make_agent
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.registry import games, get_game
from tricolore.interop.pettingzoo import env, parallel_env

GAMES = sorted(games())


def short(name):
    """Options for a short game of ``name``, so whole games stay quick."""
    names = {o["name"] for o in get_game(name).info.options.schema(get_game(name).info.min_players)}
    return {"max_rounds": 2} if "max_rounds" in names else {}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("name", GAMES)
def test_the_aec_environment_passes_pettingzoos_api_test(name):
    table = env(name, max_steps=200)
    assert isinstance(table, AECEnv)
    api_test(table, num_cycles=40)


@pytest.mark.parametrize("name", GAMES)
def test_the_parallel_environment_passes_pettingzoos_parallel_api_test(name):
    table = parallel_env(name, max_steps=200)
    assert isinstance(table, ParallelEnv)
    parallel_api_test(table, num_cycles=40)


def play_random(table, rng):
    table.reset(seed=3)
    steps = 0
    while table.agents:
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.any()
        table.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return steps


@pytest.mark.parametrize("name", GAMES)
def test_random_agents_play_whole_games_and_winners_share_the_reward(name):
    game = get_game(name)
    table = env(name, players=game.info.min_players, seed=3, max_steps=3000, **short(name))
    totals = dict.fromkeys(table.possible_agents, 0.0)
    table.reset(seed=3)
    rng = random.Random(0)
    while table.agents:
        agent = table.agent_selection
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert table.state.is_over(), "the game should end well before the cap"
    winners = table.state.result().winners
    assert totals == {f"player_{s}": (1 / len(winners) if s in winners else 0.0)
                      for s in range(table.table.players)}


@pytest.mark.parametrize("name", GAMES)
def test_a_named_strategy_plays_its_seat_by_spelling_its_actions(name):
    game = get_game(name)
    strategy = next(iter(game.strategies))
    players = game.info.min_players
    table = env(name, players=players, seed=5, max_steps=600, **short(name))
    table.reset(seed=5)
    bot = make_agent(game, strategy)
    rng = random.Random(1)
    planned: list[int] = []
    bot_actions = 0
    while table.agents:
        agent = table.agent_selection
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        if agent == "player_0":
            if not planned:
                wanted = decide(bot, table.state, 0, rng)
                planned = table.codec.spell(table.state, 0, wanted)
                bot_actions += 1
            index = planned.pop(0)
            assert observation["action_mask"][index] == 1
            table.step(index)
        else:
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert bot_actions >= 2


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_never_finds_another_seats_secrets_in_its_observation_or_info(name):
    game = get_game(name)
    table = env(name, players=game.info.min_players, seed=11, max_steps=400, raw_view=True)
    table.reset(seed=11)
    rng = random.Random(2)
    checked = 0
    for step in range(120):
        if not table.agents or table.state.is_over():
            break
        if step % 5 == 0:
            for agent in table.agents:
                seat = int(agent.split("_")[1])
                assert table.infos[agent]["view"] == table.state.view(seat)
                other_world = table.state.determinize(seat, random.Random(step))
                partial = table.partials[agent]
                mine = table.observe(agent)["observation"]
                theirs = table.episode.observer.encode(other_world, seat, partial)
                assert np.array_equal(mine, theirs), f"{agent}'s observation depends on a secret"
                checked += 1
        observation = table.observe(table.agent_selection)
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert checked >= 10


def test_simultaneous_seats_act_in_turn_and_a_sealed_choice_is_not_shown_to_the_others():
    tables = []
    for role in ("revolutionary", "grabber"):
        table = env("culottes", players=4, seed=1, raw_view=True)
        table.reset(seed=1)
        codec = table.codec
        assert table.agent_selection == "player_0"
        table.step(codec.index_of_kind("choose_role"))
        table.step(codec.describe_all().index(f"role {role}"))
        assert table.agent_selection == "player_1"  # the next seat asked, in seat order
        tables.append(table)
    first, second = tables
    assert first.state.digest() != second.state.digest()
    for agent in ("player_1", "player_2", "player_3"):
        assert first.infos[agent]["view"] == second.infos[agent]["view"]
        assert np.array_equal(first.observe(agent)["observation"], second.observe(agent)["observation"])
    assert first.infos["player_0"]["view"] != second.infos["player_0"]["view"]


def test_a_masked_out_index_is_refused_with_a_sentence():
    table = env("revolution", players=3)
    table.reset()
    with pytest.raises(IllegalAction, match="not allowed now"):
        table.step(table.codec.size - 1)


@pytest.mark.parametrize("sent", [[1, 2], "3", None, 3])
def test_a_parallel_step_that_is_not_a_dictionary_is_refused_with_a_sentence(sent):
    table = parallel_env("culottes")
    table.reset(seed=1)
    before = table.state.digest()
    with pytest.raises(IllegalAction, match="takes a dictionary of each agent's action index"):
        table.step(sent)
    assert table.state.digest() == before


def test_a_game_that_runs_past_the_cap_is_truncated_with_no_reward():
    table = env("revolution", players=3, max_steps=10)
    steps = play_random(table, random.Random(0))
    assert steps == 10
    assert not table.state.is_over()


def test_bad_environment_arguments_are_refused_with_a_sentence():
    with pytest.raises(OptionsError, match="max_steps"):
        env("culottes", max_steps=0)
    with pytest.raises(OptionsError, match="no game called"):
        env("chess")
    with pytest.raises(OptionsError, match="unknown option"):
        env("culottes", colour="red")


def test_in_the_parallel_form_seats_not_asked_may_only_send_the_no_op():
    table = parallel_env("let-them-eat-cake", players=3, seed=2)
    observations, _ = table.reset(seed=2)
    asked = {f"player_{s}" for s in table.state.pending()}
    for agent, observation in observations.items():
        mask = observation["action_mask"]
        if agent in asked:
            assert mask[:table.noop].any() and not mask[table.noop]
        else:
            assert list(np.flatnonzero(mask)) == [table.noop]


def test_a_parallel_steps_masks_are_read_only_and_its_observations_fresh():
    table = parallel_env("culottes", players=4, seed=3)
    observations, _ = table.reset(seed=3)
    for _ in range(6):
        kept = {agent: observation["observation"].copy() for agent, observation in observations.items()}
        for observation in observations.values():
            with pytest.raises(ValueError, match="read-only"):
                observation["action_mask"][0] = 1
        actions = {agent: int(np.flatnonzero(o["action_mask"])[0]) for agent, o in observations.items()}
        before = observations
        observations, *_ = table.step(actions)
        for agent, observation in before.items():  # a step hands out new arrays, never the old ones
            assert observation["observation"] is not observations[agent]["observation"]
            assert np.array_equal(observation["observation"], kept[agent])
            observation["observation"][:] = 0.0  # the caller's to change


def test_parallel_random_agents_play_a_whole_game():
    table = parallel_env("revolution", players=3, seed=4, max_steps=5000, max_rounds=2)
    observations, _ = table.reset(seed=4)
    rng = random.Random(0)
    rewards = {}
    while table.agents:
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
        observations, rewards, _, _, _ = table.step(actions)
    assert table.state.is_over()
    assert sum(rewards.values()) == pytest.approx(1.0)
    digest = table.state.digest()
    assert table.step(dict.fromkeys(table.possible_agents, table.noop)) == ({}, {}, {}, {}, {})
    assert table.state.digest() == digest and table.agents == []


@pytest.mark.parametrize("form", ["flat", "hashed"])
def test_the_action_being_built_is_in_the_info_and_the_observation(form):
    table = env("revolution", players=3, seed=1, raw_view=True, observation=form)
    table.reset(seed=1)
    before = table.observe("player_0")["observation"]
    bid = table.codec.index_of_kind("bid")
    table.step(bid)
    assert table.agent_selection == "player_0"  # the same seat until its bid is complete
    assert table.infos["player_0"]["building"] == {"type": "bid"}
    assert table.infos["player_1"]["building"] is None
    after = table.observe("player_0")["observation"]
    changed = np.flatnonzero(after != before)
    if form == "hashed":
        assert list(changed) == [3 + 3 + bid]  # the seat one-hot (3), the prompt (3), then the partial
    else:
        assert list(changed) == [table.episode.observer.structured.where("partial").start + bid]
        assert after[table.episode.observer.structured.where("partial")].sum() == 1


def test_the_benchmark_plays_the_same_culottes_games_through_both_forms():
    from benchmarks.environments import same_games

    figures = same_games("culottes", games=2, rounds=1)  # raises if a replay ends elsewhere
    assert figures["decisions"] > 50
    assert figures["aec_us"] > 0 and figures["parallel_us"] > 0
