"""Self-play training (examples/selfplay.py) and the trained-policy strategy ``policy:PATH``."""

from __future__ import annotations

import csv
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from typer.testing import CliRunner

from tricolore.agents import canonical_strategy, make_agent, offered_actions, strategy_parameters
from tricolore.agents.policy import Policy, PolicyAgent
from tricolore.cli.main import app
from tricolore.core.errors import OptionsError
from tricolore.core.registry import get_game
from tricolore.interop.gymnasium import TricoloreEnv
from tricolore.sim.runner import play_game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "selfplay.py"
TRIALS = get_game("culottes-trials")


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("selfplay_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve the module's annotations through it
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, str]]]:
    """A policy trained on a tiny budget against the skeptic and its own snapshots."""
    selfplay = load_example()
    out = tmp_path_factory.mktemp("selfplay")
    config = selfplay.Config(opponents="skeptic", steps=1024, iterations=8, seconds=1e9,
                             eval_games=60, eval_every=4, snapshot_every=2, seed=0, out=out)
    selfplay.train(config)
    with open(out / "curve.csv") as f:
        return out, list(csv.DictReader(f))


def test_training_beats_a_random_choice_on_the_same_evaluation_games(
        trained: tuple[Path, list[dict[str, str]]]) -> None:
    out, curve = trained
    assert [int(row["iteration"]) for row in curve] == [0, 4, 8]
    assert (out / "curve.png").stat().st_size > 0
    assert sorted(p.name for p in (out / "snapshots").iterdir()) == [
        "policy-0002.npz", "policy-0004.npz", "policy-0006.npz", "policy-0008.npz"]
    first, last = curve[0], curve[-1]
    # the untrained policy is uniform over each mask: random, on the same 60 games with the same draws
    assert first["win_share"] == first["random_win_share"] == last["random_win_share"]
    # random wins about a third of them; seeds 0 to 3 of the training ended between 0.78 and 0.93
    assert float(last["win_share"]) > float(last["random_win_share"]) + 0.3, curve


def test_the_saved_policy_plays_through_make_agent_as_it_played_in_training(
        trained: tuple[Path, list[dict[str, str]]]) -> None:
    out, curve = trained
    strategy = f"policy:{out / 'policy.npz'}@sample=true"
    wins = 0.0
    for seed in range(60):
        seat = seed % 3
        names = ["skeptic", "skeptic"]
        names.insert(seat, strategy)
        agents = [make_agent(TRIALS, name) for name in names]
        played = play_game(TRIALS.new(3, seed), agents)
        winners = played.state.result().winners
        wins += 1 / len(winners) if seat in winners else 0.0
    # the policy does about as well here as it did on the environment's evaluation games
    assert wins / 60 > float(curve[-1]["random_win_share"]) + 0.3


def test_the_agent_picks_what_the_environment_would_offer_the_learner(
        trained: tuple[Path, list[dict[str, str]]]) -> None:
    out, _ = trained
    policy = Policy.load(out / "policy.npz")
    env = TricoloreEnv("culottes-trials", players=3, seat=1, opponents="skeptic", observation="hashed")
    observation, _ = env.reset(seed=3)
    state = env.state
    agent = make_agent(TRIALS, f"policy:{out / 'policy.npz'}")
    # at the learner's first decision, the agent's first index is the environment's greedy index
    view, seat = state.view(1), 1
    expected = policy.choose(observation["observation"], observation["action_mask"])
    action = agent.act(view, offered_actions(state, seat, agent), random.Random(0))
    assert env.codec.spell(state, seat, action)[0] == expected


def test_simulate_and_tournament_accept_a_policy(trained: tuple[Path, list[dict[str, str]]]) -> None:
    out, _ = trained
    strategy = f"policy:{out / 'policy.npz'}"
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "culottes-trials", "--players", "3", "--games", "6", "--json",
                                 "--workers", "1", "--seats", f"{strategy},skeptic,skeptic"])
    assert result.exit_code == 0, result.output
    assert strategy in json.loads(result.output)["strategies"]
    result = runner.invoke(app, ["tournament", "culottes-trials", "--players", "3", "--games", "6",
                                 "--workers", "1", "--strategies", f"{strategy}@sample=true,skeptic"])
    assert result.exit_code == 0, result.output


def test_sampling_is_a_parameter_written_one_way(trained: tuple[Path, list[dict[str, str]]]) -> None:
    out, _ = trained
    path = out / "policy.npz"
    greedy = make_agent(TRIALS, f"policy:{path}")
    sampled = make_agent(TRIALS, f"policy:{path}@sample=true")
    assert isinstance(greedy, PolicyAgent) and isinstance(sampled, PolicyAgent)
    assert (greedy.sample, sampled.sample) == (False, True)
    assert canonical_strategy(TRIALS, f"policy:{path}@sample=false") == f"policy:{path}"
    assert strategy_parameters(TRIALS, f"policy:{path}@sample=yes") == {"sample": True}
    # sampling draws from the policy's distribution: over many draws more than one index comes up
    rng = random.Random(1)
    policy = greedy.policy
    mask = np.zeros(policy.codec.size, dtype=np.int8)
    mask[[1, 3, 5]] = 1
    observation = np.zeros(policy.encoder.size, dtype=np.float32)
    assert len({policy.choose(observation, mask, rng) for _ in range(60)}) > 1
    assert policy.choose(observation, mask) in (1, 3, 5)


@pytest.mark.parametrize(("strategy", "words"), [
    ("policy:/no/such/file.npz", "there is no policy file"),
    ("policy:", "policy:PATH"),
    ("policy:{path}@greedy=1", "not one of sample="),
    ("policy:{path}@sample=often", "must be true or false"),
])
def test_bad_policy_strategies_get_one_sentence(trained: tuple[Path, list[dict[str, str]]], strategy: str,
                                                words: str) -> None:
    out, _ = trained
    with pytest.raises(OptionsError, match=words):
        make_agent(TRIALS, strategy.format(path=out / "policy.npz"))


def test_a_policy_refuses_another_game_and_another_table_size(
        trained: tuple[Path, list[dict[str, str]]], tmp_path: Path) -> None:
    out, _ = trained
    with pytest.raises(OptionsError, match="plays culottes-trials, not revolution"):
        make_agent(get_game("revolution"), f"policy:{out / 'policy.npz'}")
    agent = make_agent(TRIALS, f"policy:{out / 'policy.npz'}")
    state = TRIALS.new(4, 0)
    seat = min(state.pending())
    with pytest.raises(OptionsError, match="for 3 players"):
        agent.act(state.view(seat), state.legal_actions(seat), random.Random(0))
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a policy")
    with pytest.raises(OptionsError, match="is not a saved policy"):
        make_agent(TRIALS, f"policy:{broken}")
