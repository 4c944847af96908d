"""What people training agents rely on across the environments: vector environments, no stalls,
rewards, observation forms, seeding and registration."""

import json
import os
import random
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import parallel_seed_test, seed_test

import tricolore.interop  # noqa: F401 -- registers the ids
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.registry import games
from tricolore.interop.episode import FREE_ACTIONS_PER_STAGE, MAX_STEPS, SHAPING_WEIGHT, Episode
from tricolore.interop.gymnasium import IDS, TricoloreEnv
from tricolore.interop.pettingzoo import INVALID_ACTION_PENALTY, env, parallel_env

GAMES = sorted(games())


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def pick(mask, rng, greedy=False):
    legal = np.flatnonzero(mask)
    if not len(legal):
        return 0  # an episode that just ended: the vector environment resets and ignores it
    return int(legal[0]) if greedy else int(rng.choice(legal))


def play_rewards(table, rng):
    """Play a reset AEC table to its end with masked random actions: each agent's summed rewards,
    and how many rewards were not zero."""
    totals = dict.fromkeys(table.possible_agents, 0.0)
    nonzero = 0
    while table.agents:
        agent = table.agent_selection
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        nonzero += reward != 0
        if terminated or truncated:
            table.step(None)
            continue
        table.step(pick(observation["action_mask"], rng))
    return totals, nonzero


# -- vector environments ------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("env_id", sorted(IDS))
def test_every_id_runs_as_a_vector_environment_through_autoreset(env_id, mode):
    envs = gymnasium.make_vec(env_id, num_envs=4, vectorization_mode=mode, max_steps=60)
    try:
        observations, infos = envs.reset(seed=3)
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(200):
            actions = np.array([pick(m, rng) for m in observations["action_mask"]])
            observations, rewards, terminated, truncated, infos = envs.step(actions)
            assert observations["action_mask"].shape == (4, envs.single_action_space.n)
            assert rewards.shape == (4,)
            ended += int((terminated | truncated).sum())
            for value in infos.values():
                assert isinstance(value, np.ndarray)
        assert ended >= 8  # every copy went through several episodes, each reset automatically
        assert np.array_equal(infos["action_mask"], observations["action_mask"])
    finally:
        envs.close()


def test_invalid_actions_stack_in_a_vector_environment():
    envs = gymnasium.make_vec("tricolore/Trials-v0", num_envs=2, vectorization_mode="sync")
    envs.reset(seed=1)
    masks = envs.reset(seed=1)[0]["action_mask"]
    refused = np.array([int(np.flatnonzero(m == 0)[0]) for m in masks])
    _, rewards, _, _, infos = envs.step(refused)
    assert list(rewards) == [INVALID_ACTION_PENALTY] * 2
    assert all("not allowed now" in text for text in infos["invalid_action"])
    envs.close()


def test_the_raw_view_is_given_only_when_asked():
    quiet = TricoloreEnv("revolution", players=3)
    assert set(quiet.reset(seed=2)[1]) == {"action_mask"}
    loud = TricoloreEnv("revolution", players=3, raw_view=True)
    _, info = loud.reset(seed=2)
    assert info["view"] == loud.state.view(0)
    table = env("revolution", players=3)
    table.reset(seed=2)
    assert table.infos["player_0"] == {}
    assert parallel_env("revolution", players=3).reset(seed=2)[1]["player_1"] == {}


@pytest.mark.parametrize("form", ["flat", "structured", "hashed"])
def test_the_parallel_environment_vectorises_with_supersuit(form):
    import supersuit  # imported here: its module answers unknown attributes with ImportError

    table = parallel_env("revolution", players=3, max_steps=40, observation=form)
    space = table.observation_space("player_0")["observation"]
    vec = supersuit.pettingzoo_env_to_vec_env_v1(table)
    vec = supersuit.concat_vec_envs_v1(vec, 2, num_cpus=0, base_class="gymnasium")
    observations, _ = vec.reset(seed=1)
    assert vec.num_envs == 6  # two tables of three seats
    stacked = observations["observation"]
    if form == "structured":
        assert {k: v.shape for k, v in stacked.items()} == {k: (6, *b.shape) for k, b in space.spaces.items()}
    else:
        assert stacked.shape == (6, *space.shape)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(100):
        actions = np.array([pick(m, rng) for m in observations["action_mask"]])
        observations, _, terminated, truncated, _ = vec.step(actions)
        ended += int((terminated | truncated).sum())
    assert ended >= 6
    vec.close()


# -- no stalls ------------------------------------------------------------------------------------------
def play_aec(table, seed, greedy):
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while table.agents:
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        table.step(pick(observation["action_mask"], rng, greedy))
        steps += 1
    return steps


@pytest.mark.parametrize("greedy", [False, True], ids=["random", "first-index"])
@pytest.mark.parametrize("name", GAMES)
def test_no_policy_stalls_a_game_of_the_aec_environment(name, greedy):
    table = env(name)
    for seed in (1, 2, 3):
        steps = play_aec(table, seed, greedy)
        assert table.state.is_over()
        assert steps < MAX_STEPS // 2


@pytest.mark.parametrize("greedy", [False, True], ids=["random", "first-index"])
@pytest.mark.parametrize("env_id", sorted(IDS))
def test_no_learner_stalls_a_game_of_the_gymnasium_environment(env_id, greedy):
    table = gymnasium.make(env_id, opponents="random")
    rng = np.random.default_rng(0)
    for seed in (1, 2, 3):
        observation, _ = table.reset(seed=seed)
        done, steps = False, 0
        while not done:
            observation, _, terminated, truncated, info = table.step(
                pick(observation["action_mask"], rng, greedy))
            assert "invalid_action" not in info
            done, steps = terminated or truncated, steps + 1
        assert terminated and table.unwrapped.steps < MAX_STEPS // 2


def test_a_free_action_that_repeats_is_not_offered_again_and_free_actions_are_capped():
    table = env("culottes", players=4, seed=1)
    table.reset(seed=1)
    codec, guard = table.codec, table.episode.guard
    agree = codec.index_of_kind("agree_end")
    yes, no = (codec.describe_all().index(f"agree {v}") for v in ("true", "false"))
    rng = random.Random(0)
    while True:  # random play, never agreeing, until a seat may agree to end at its turn
        agent = table.agent_selection
        mask = table.observe(agent)["action_mask"]
        if mask[agree] and table.partials[agent].empty:
            break
        table.step(int(rng.choice([i for i in np.flatnonzero(mask) if i != agree])))
    seat = int(agent[7:])
    for _ in range(2):  # agreeing is free: the seat still acts; the second time is a repeat
        table.step(agree)
        assert table.observe(agent)["action_mask"][yes]
        table.step(yes)
        assert table.agent_selection == agent
    assert guard.barred[seat] == {(agree, yes)}
    table.step(agree)
    assert list(np.flatnonzero(table.observe(agent)["action_mask"])) == [no]
    with pytest.raises(IllegalAction, match="not offered again"):
        table.step(yes)
    table.step(no)
    table.step(agree)
    table.step(no)  # a repeat again: now neither answer is left, nor the kind
    assert guard.free[seat] == FREE_ACTIONS_PER_STAGE
    assert not table.observe(agent)["action_mask"][agree]


def test_after_the_cap_a_seat_is_offered_only_what_it_has_not_taken_freely():
    table = env("bread-and-circuses", players=4, seed=2)
    table.reset(seed=2)
    guard, codec = table.episode.guard, table.codec
    ready = codec.index_of_kind("ready")
    stage = guard.stage
    rng = np.random.default_rng(1)
    for _ in range(500):  # negotiate without ever being ready, until a seat reaches the cap
        agent = table.agent_selection
        seat = int(agent[7:])
        mask = table.observe(agent)["action_mask"]
        if guard.capped(seat) and table.partials[agent].empty:
            break
        legal = [i for i in np.flatnonzero(mask) if i != ready]
        table.step(int(rng.choice(legal)))
    assert guard.stage == stage  # still negotiating
    assert guard.free[seat] == FREE_ACTIONS_PER_STAGE
    offered = {codec.kinds[i] for i in np.flatnonzero(mask)}
    assert "ready" in offered
    assert not offered & guard.kinds[seat]
    assert offered <= set(table.state.pending()[seat].kinds)


# -- rewards ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_the_shaped_reward_gives_a_signal_along_a_random_episode_and_sums_to_the_win(name):
    table = env(name, reward="shaped", seed=4)
    table.reset(seed=4)
    start = {a: table.episode.potential(int(a[7:])) for a in table.possible_agents}
    totals, nonzero = play_rewards(table, np.random.default_rng(4))
    assert table.state.is_over()
    assert nonzero >= 3
    winners = table.state.result().winners
    for agent, total in totals.items():
        share = 1 / len(winners) if int(agent[7:]) in winners else 0.0
        # potential-based: the shaping terms telescope to -Φ(s₀), whatever was played
        assert total == pytest.approx(share - start[agent], abs=1e-9)
    assert all(abs(p) <= SHAPING_WEIGHT for p in start.values())


@pytest.mark.parametrize("env_id", sorted(IDS))
def test_the_learners_shaped_reward_is_not_zero_along_an_episode(env_id):
    """In every episode some reward before the last step is not zero (the trials' potential moves
    only at a verdict, once or twice an episode)."""
    table = gymnasium.make(env_id, reward="shaped", opponents="random")
    for seed in (5, 6, 7):
        observation, _ = table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        rewards, done = [], False
        while not done:
            observation, reward, terminated, truncated, _ = table.step(pick(observation["action_mask"], rng))
            rewards.append(reward)
            done = terminated or truncated
        assert sum(r != 0 for r in rewards[:-1]) >= 1, f"seed {seed}: {rewards}"


@pytest.mark.parametrize("name", ["bread-and-circuses", "culottes-trials", "let-them-eat-cake", "revolution"])
def test_the_shaping_potential_reveals_no_secret(name):
    table = env(name, reward="shaped", seed=6)
    table.reset(seed=6)
    rng = np.random.default_rng(6)
    episode = table.episode
    checked = 0
    for step in range(300):
        if not table.agents or table.state.is_over():
            break
        if step % 20 == 0:
            for seat in range(episode.players):
                other = Episode(episode.codec, reward="shaped")
                other.state = episode.state.determinize(seat, random.Random(step))
                other.version = episode.version
                assert other.potential(seat) == episode.potential(seat)
                checked += 1
        table.step(pick(table.observe(table.agent_selection)["action_mask"], rng))
    assert checked >= 8


@pytest.mark.parametrize("name", GAMES)
def test_the_score_reward_places_the_final_score_between_the_lowest_and_the_highest(name):
    table = env(name, reward="score", seed=7)
    table.reset(seed=7)
    totals, _ = play_rewards(table, np.random.default_rng(7))
    scores = table.state.result().scores
    low, high = min(scores), max(scores)
    for agent, total in totals.items():
        expected = 1.0 if high == low else (scores[int(agent[7:])] - low) / (high - low)
        assert total == pytest.approx(expected)
        assert 0.0 <= total <= 1.0


# -- observation forms ------------------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["structured", "flat"])
def test_every_environment_takes_each_observation_form(form):
    from gymnasium.utils.env_checker import check_env

    gym = TricoloreEnv("let-them-eat-cake", players=3, observation=form, max_steps=200)
    check_env(gym)
    table = env("revolution", players=3, observation=form)
    table.reset(seed=1)
    observation = table.observe(table.agent_selection)
    assert table.observation_space(table.agent_selection).contains(observation)
    parallel = parallel_env("culottes-trials", observation=form)
    observations, _ = parallel.reset(seed=1)
    assert all(parallel.observation_space(a).contains(o) for a, o in observations.items())


def test_bad_environment_choices_are_refused_with_a_sentence():
    with pytest.raises(OptionsError, match="reward must be one of"):
        env("culottes", reward="money")
    with pytest.raises(OptionsError, match="observation"):
        TricoloreEnv("culottes", observation="pixels")
    with pytest.raises(OptionsError, match="invalid_action must be one of"):
        parallel_env("culottes", invalid_action="ignore")
    with pytest.raises(OptionsError, match="raw_view"):
        TricoloreEnv("culottes", raw_view="yes")


# -- seeds and registration ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_pettingzoos_seed_tests_pass(name):
    seed_test(lambda: env(name, max_steps=300), num_cycles=20)
    # parallel_seed_test samples actions without their masks: refused indices get the penalty
    parallel_seed_test(lambda: parallel_env(name, max_steps=300, invalid_action="penalty"), num_cycles=20)


def test_a_refused_index_in_the_parallel_form_with_the_penalty_changes_nothing():
    table = parallel_env("revolution", players=3, invalid_action="penalty")
    observations, _ = table.reset(seed=1)
    digest = table.state.digest()
    actions = {a: int(np.flatnonzero(o["action_mask"] == 0)[0]) for a, o in observations.items()}
    _, rewards, _, _, infos = table.step(actions)
    assert table.state.digest() == digest
    assert all(r == INVALID_ACTION_PENALTY for r in rewards.values())
    assert all("invalid_action" in info for info in infos.values())


def test_an_index_that_is_not_a_whole_number_in_the_parallel_form_is_refused_with_a_sentence():
    for invalid_action in ("raise", "penalty"):
        table = parallel_env("revolution", players=3, invalid_action=invalid_action)
        observations, _ = table.reset(seed=1)
        digest = table.state.digest()
        actions = dict.fromkeys(observations, "one")
        if invalid_action == "raise":
            with pytest.raises(IllegalAction, match="whole number"):
                table.step(actions)
        else:
            _, rewards, _, _, infos = table.step(actions)
            assert all("whole number" in info["invalid_action"] for info in infos.values())
            assert all(r == INVALID_ACTION_PENALTY for r in rewards.values())
        assert table.state.digest() == digest


TRAJECTORY = """
import json, sys, numpy as np
from tricolore.interop.pettingzoo import env
out = []
for name in sys.argv[1:]:
    table = env(name, reward="shaped")
    table.reset(seed=8)
    rng = np.random.default_rng(8)
    while table.agents:
        observation, reward, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        index = int(legal[0]) if len(out) % 3 else int(rng.choice(legal))
        out.append([index, round(float(reward), 12), float(observation["observation"].sum())])
        table.step(index)
print(json.dumps(out))
"""


def test_trajectories_are_the_same_in_other_processes_and_hash_seeds():
    runs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", TRAJECTORY, *GAMES], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed}, check=True, timeout=600)
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    assert len(runs[0]) > 100


def test_importing_the_openspiel_module_registers_every_game():
    code = ("import pyspiel, tricolore.interop.openspiel\n"
            "print(pyspiel.load_game('tricolore_culottes_trials').num_players())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          timeout=300)
    assert done.stdout.strip() == "3"


def test_an_openspiel_observation_tensor_is_worked_out_once_per_state():
    import pyspiel

    from tricolore.interop import openspiel

    game = pyspiel.load_game("tricolore_revolution", {"players": 3})
    state = game.new_initial_state()
    first = np.array(state.observation_tensor(0))
    assert state._position.tensors is not None and len(state._position.tensors) == 1
    assert np.array_equal(np.array(state.observation_tensor(0)), first)
    fresh = openspiel.TricoloreObserver(state._table.actions, pyspiel.IIGObservationType(
        perfect_recall=False), None)
    fresh._fill(state, 0)
    assert np.array_equal(fresh.tensor, first)
    state.apply_action(state.legal_actions()[0])
    assert state._position.tensors is None  # a new position: worked out again
    assert not np.array_equal(np.array(state.observation_tensor(0)), first)
