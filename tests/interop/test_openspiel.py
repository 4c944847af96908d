"""Every Tricolore game as an OpenSpiel game: registration, play, information states, and
OpenSpiel's own IS-MCTS and CFR on the revolutionary trials."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import (
    cfr,
    exploitability,
    external_sampling_mccfr,
    get_all_states,
    ismcts,
    mcts,
)
from open_spiel.python.policy import UniformRandomPolicy

from tricolore.agents import decide, make_agent
from tricolore.core import IllegalAction, OptionsError, get_game, list_games
from tricolore.interop.codec import FlatActions
from tricolore.interop.observation import VIEW_FEATURES, ObservationEncoder
from tricolore.interop.openspiel import openspiel_name, register

NAMES = register()
GAMES = [info.name for info in list_games()]
TRIALS = "tricolore_culottes_trials"
SMALLEST_TRIALS = {"players": 3, "trials": 1, "arguments_per_debate": 0, "first_accused": 0,
                   "free_actions": False}
"""The smallest faithful revolutionary trials at 3 players: one trial, no arguments in the
debate (only passes), seat 0 accused, and no agreeing to stop early (a one-trial game ends after
its trial anyway); every rule of the trial is still played."""


def play_randomly(state, rng: np.random.RandomState):
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"seat {state.current_player()} is asked with no legal step"
        state.apply_action(int(rng.choice(legal)))
    return state


def assert_win_shares(returns: list[float]) -> None:
    assert sum(returns) == pytest.approx(1.0)
    winners = [r for r in returns if r > 0]
    assert winners and all(r == pytest.approx(1 / len(winners)) for r in winners)


def statements_of_the_smallest_trials():
    """Every position of the smallest trials just after the accused (seat 0) stated something,
    by (statement, truth)."""
    game = pyspiel.load_game(TRIALS, SMALLEST_TRIALS)
    found, todo = {}, [game.new_initial_state()]
    while todo:
        state = todo.pop()
        if state.engine.truth is not None:
            found[state.engine.statement, state.engine.truth] = state
            continue
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            todo.append(child)
    return found


def a_statement_true_and_false():
    """Two positions differing only in the truth the accused noted."""
    found = statements_of_the_smallest_trials()
    statement = next(s for s, truth in found if truth and (s, False) in found)
    return found[statement, True], found[statement, False]


# -- registration ---------------------------------------------------------------------------------
def test_every_registered_game_is_registered_with_openspiel_under_its_name():
    assert [openspiel_name(name) for name in GAMES] == NAMES
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert register() == NAMES  # registering again is harmless
    assert register("culottes-trials") == [TRIALS]


def test_an_unknown_game_is_refused_with_a_sentence_naming_the_known_ones():
    with pytest.raises(OptionsError, match=r"there is no game called 'chess'; games are: .*culottes"):
        register("chess")


@pytest.mark.parametrize("name", GAMES)
def test_the_game_type_and_info_describe_the_tricolore_game(name):
    info = get_game(name).info
    game = pyspiel.load_game(openspiel_name(name))
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == (pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if info.chance
                                else pyspiel.GameType.ChanceMode.DETERMINISTIC)
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (kind.min_num_players, kind.max_num_players) == (info.min_players, info.max_players)
    assert game.num_players() == info.min_players
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.num_distinct_actions() == FlatActions(name, info.min_players).size


def test_options_are_parameters_and_a_bad_one_is_refused_with_the_games_sentence():
    game = pyspiel.load_game(TRIALS, {"players": 4, "trials": 2, "arguments_per_debate": 1})
    assert game.num_players() == 4
    assert game.new_initial_state().engine.trials_total == 2
    with pytest.raises(OptionsError, match="the option trials must be from 1 to 100; got 0"):
        pyspiel.load_game(TRIALS, {"trials": 0})
    with pytest.raises(OptionsError, match="is for 3 to 12 players; you asked for 30"):
        pyspiel.load_game(TRIALS, {"players": 30})
    with pytest.raises(OptionsError, match="max_game_length must be at least 1"):
        pyspiel.load_game(TRIALS, {"max_game_length": 0})
    # the trials have no chance during play: their initial state is the seed's, always the same
    with pytest.raises(OptionsError, match="the parameter seed of Culottes: revolutionary trials "
                       "must be at least 0; got -1"):
        pyspiel.load_game(TRIALS, {"seed": -1})
    pyspiel.load_game("tricolore_culottes", {"seed": -1})


def test_a_null_option_is_minus_one_and_a_list_option_is_text():
    culottes = pyspiel.load_game("tricolore_culottes", {"players": 3, "closing_faces": "6",
                                                         "first_player": 2})
    engine = culottes.new_initial_state().engine
    assert engine.options.closing_faces == (6,)
    assert engine.options.first_player == 2
    with pytest.raises(OptionsError, match="a list of whole numbers written like"):
        pyspiel.load_game("tricolore_culottes", {"closing_faces": "five"})


# -- play -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_game_plays_to_its_end_with_random_steps(name):
    game = pyspiel.load_game(openspiel_name(name))
    rng = np.random.RandomState(3)
    state = play_randomly(game.new_initial_state(), rng)
    assert state.engine.is_over() and not state.truncated
    assert_win_shares(state.returns())
    winners = state.engine.result().winners
    assert [s for s, r in enumerate(state.returns()) if r > 0] == sorted(winners)


def test_openspiels_random_simulation_test_passes_on_the_trials():
    pyspiel.random_sim_test(pyspiel.load_game(TRIALS, {"players": 3}), num_sims=3,
                            serialize=False, verbose=False)


def test_a_game_with_chance_deals_afresh_with_seed_minus_one_and_the_same_with_a_seed():
    fresh = pyspiel.load_game("tricolore_revolution", {"players": 3})
    assert fresh.new_initial_state().engine.digest() != fresh.new_initial_state().engine.digest()
    fixed = pyspiel.load_game("tricolore_revolution", {"players": 3, "seed": 5})
    assert fixed.new_initial_state().engine.digest() == fixed.new_initial_state().engine.digest()


def test_a_step_the_mask_rules_out_is_refused_and_changes_nothing():
    state = pyspiel.load_game(TRIALS, SMALLEST_TRIALS).new_initial_state()
    refused = next(a for a in range(state.get_game().num_distinct_actions())
                   if a not in state.legal_actions())
    before = (state.engine.digest(), state.building, state.history())
    with pytest.raises(IllegalAction, match=rf"^Step {refused} is not one of the legal steps now: "
                       r".+ is not offered\.$"):
        state.apply_action(refused)
    assert (state.engine.digest(), state.building, state.history()) == before


def test_a_clone_is_independent_of_its_original():
    state = pyspiel.load_game(TRIALS, SMALLEST_TRIALS).new_initial_state()
    clone = state.clone()
    play_randomly(clone, np.random.RandomState(0))
    assert clone.is_terminal() and not state.is_terminal()
    assert state.history() == [] and state.engine.trial == 1


def test_a_game_cut_short_by_its_length_pays_the_share_of_the_win_by_the_standing():
    game = pyspiel.load_game(TRIALS, {"players": 3, "max_game_length": 5})
    state = play_randomly(game.new_initial_state(), np.random.RandomState(0))
    assert state.truncated and len(state.history()) == 5
    assert state.returns() == [pytest.approx(1 / 3)] * 3  # nobody has a point yet: all tied


def test_every_state_of_the_smallest_trials_has_legal_steps_and_every_end_shares_the_win():
    game = pyspiel.load_game(TRIALS, SMALLEST_TRIALS)
    states = get_all_states.get_all_states(game, include_terminals=True, include_chance_states=False)
    ends = [s for s in states.values() if s.is_terminal()]
    assert ends and len(ends) < len(states)
    for state in states.values():
        if state.is_terminal():
            assert_win_shares(state.returns())
        else:
            assert state.legal_actions()


# -- information --------------------------------------------------------------------------------------
def test_a_voter_cannot_tell_a_true_statement_from_a_false_one():
    true_state, false_state = a_statement_true_and_false()
    voter = true_state.current_player()
    assert voter != 0
    assert true_state.information_state_string(voter) == false_state.information_state_string(voter)
    assert np.array_equal(true_state.information_state_tensor(voter),
                          false_state.information_state_tensor(voter))
    # the accused knows
    assert true_state.information_state_string(0) != false_state.information_state_string(0)


def test_resampling_keeps_what_the_seat_knows_and_redraws_what_it_does_not():
    state, _ = a_statement_true_and_false()
    voter = state.current_player()
    known = state.information_state_string(voter)
    rng = np.random.RandomState(5)
    truths = set()
    for _ in range(20):
        sample = state.resample_from_infostate(voter, rng.uniform)
        assert sample.information_state_string(voter) == known
        assert sample.legal_actions() == state.legal_actions()
        truths.add(sample.engine.truth)
    assert truths == {True, False}
    assert state.engine.truth is True  # the real state is left alone


def test_the_steps_of_an_unfinished_action_are_known_to_its_seat_only():
    state = pyspiel.load_game(TRIALS, SMALLEST_TRIALS).new_initial_state()
    while not state.building:
        assert not state.is_terminal(), "no action of the trials takes more than one step"
        before = state
        state = state.clone()
        state.apply_action(state.legal_actions()[-1])
    seat, other = state.current_player(), (state.current_player() + 1) % 3
    assert seat == before.current_player()
    assert state.information_state_string(seat) != before.information_state_string(seat)
    assert state.information_state_string(other) == before.information_state_string(other)


def test_the_information_sets_of_the_smallest_trials_are_sound_for_cfr():
    """Every state of an information set offers the same legal steps, and the seat recalls its own
    past: states it cannot tell apart were reached through the same information sets and steps of
    its own (perfect recall)."""
    game = pyspiel.load_game(TRIALS, SMALLEST_TRIALS)
    legal_of, past_of = {}, {}
    todo = [(game.new_initial_state(), ((), (), ()))]
    while todo:
        state, pasts = todo.pop()
        if state.is_terminal():
            continue
        seat = state.current_player()
        key = state.information_state_string(seat)
        assert legal_of.setdefault(key, state.legal_actions()) == state.legal_actions()
        assert past_of.setdefault(key, pasts[seat]) == pasts[seat]
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            todo.append((child, tuple((*p, (key, action)) if s == seat else p
                                      for s, p in enumerate(pasts))))
    assert len(legal_of) == 152


def test_the_observation_tensor_is_the_shared_encoding_and_the_information_state_adds_events():
    game = pyspiel.load_game(TRIALS, SMALLEST_TRIALS)
    state = game.new_initial_state()
    while not state.building:
        state.apply_action(state.legal_actions()[-1])
    seat = state.current_player()
    encoder = ObservationEncoder(FlatActions("culottes-trials", 3))
    expected = encoder.encode(state.engine, seat, state.partial)
    assert np.array_equal(state.observation_tensor(seat), expected)
    assert game.observation_tensor_shape() == [encoder.size]
    assert game.information_state_tensor_shape() == [encoder.size + VIEW_FEATURES]
    info = np.asarray(state.information_state_tensor(seat))
    assert np.array_equal(info[:encoder.size], expected) and info[encoder.size:].any()


def test_importing_tricolore_does_not_need_openspiel():
    code = ("import sys, tricolore, tricolore.agents, tricolore.sim.runner; "
            "sys.exit('pyspiel' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


# -- OpenSpiel's algorithms on the revolutionary trials at 3 players -------------------------------------
def play_ismcts_against_random(params: dict, seed: int, simulations: int = 20) -> tuple[int, list]:
    """One game of the trials at 3 players: OpenSpiel's IS-MCTS in seat ``seed % 3``, uniformly
    random steps in the others; every step is checked legal. Returns the searcher's seat and the
    returns."""
    game = pyspiel.load_game(TRIALS, {"players": 3, "seed": seed, **params})
    rng = np.random.RandomState(seed)
    searcher = seed % 3
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                           max_simulations=simulations, random_state=rng,
                           allow_inconsistent_action_sets=True)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    state = game.new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        action = bot.step(state) if state.current_player() == searcher else rng.choice(legal)
        assert action in legal
        state.apply_action(int(action))
    assert state.engine.is_over()
    assert_win_shares(state.returns())
    return searcher, state.returns()


def test_openspiels_ismcts_plays_the_trials_legally_with_free_actions_offered():
    for seed in range(3):
        play_ismcts_against_random({"trials": 2}, seed)


def test_openspiels_ismcts_wins_more_of_the_trials_than_a_random_player_would():
    games = 60
    share = sum(returns[seat] for seat, returns in (
        play_ismcts_against_random({"trials": 1, "free_actions": False}, seed)
        for seed in range(games))) / games
    assert share > 1 / 3  # a random player's share of the win at 3 players; measured: 0.45


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_ismcts_searches_every_game_from_resampled_information_states(name):
    # IS-MCTS asserts that every resampled state has the searching seat's information state
    game = pyspiel.load_game(openspiel_name(name), {"seed": 3})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=5,
                           random_state=rng, allow_inconsistent_action_sets=True)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    state, steps, searches = game.new_initial_state(), 0, 0
    while searches < 3:
        assert not state.is_terminal()
        legal = state.legal_actions()
        if steps % 7 == 0 and len(legal) > 1:
            action, searches = bot.step(state), searches + 1
        else:
            action = rng.choice(legal)
        assert action in legal
        state.apply_action(int(action))
        steps += 1


def test_cfr_on_the_smallest_trials_gives_a_valid_average_policy_closer_to_equilibrium():
    game = pyspiel.load_game(TRIALS, SMALLEST_TRIALS)
    solver = cfr.CFRSolver(game)
    for _ in range(5):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    table = policy.action_probability_array
    assert table.shape[0] == len(policy.state_lookup) > 0
    assert np.allclose(table.sum(axis=1), 1.0)
    for key, row in policy.state_lookup.items():
        legal = policy.legal_actions_mask[row]
        assert np.all(table[row][legal == 0] == 0), key
    uniform = exploitability.nash_conv(game, UniformRandomPolicy(game))
    assert exploitability.nash_conv(game, policy) < uniform / 2  # measured: 0.08 against 0.25


def test_external_sampling_mccfr_on_the_trials_gives_a_valid_average_policy():
    game = pyspiel.load_game(TRIALS, {"players": 3, "trials": 1, "arguments_per_debate": 1,
                                      "free_actions": False})
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(5):
        solver.iteration()
    policy = solver.average_policy()
    rng = np.random.RandomState(0)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            probs = policy.action_probabilities(state)
            assert set(probs) == set(state.legal_actions())
            assert sum(probs.values()) == pytest.approx(1.0)
            state.apply_action(int(rng.choice(list(probs), p=list(probs.values()))))


def test_the_openspiel_example_in_the_docs_runs_and_prints_what_it_says(capsys):
    text = (Path(__file__).resolve().parents[2] / "docs" / "agents.md").read_text()
    section = text[text.index("## OpenSpiel"):]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    exec(compile(code.group(1), "docs/agents.md", "exec"), {})
    returns, scores, nash_conv, probabilities = capsys.readouterr().out.splitlines()
    assert_win_shares(json.loads(returns))
    assert len(json.loads(scores.replace("(", "[").replace(")", "]"))) == 3
    assert float(nash_conv) < 0.05
    assert probabilities.startswith("{")


@pytest.mark.parametrize("name", GAMES)
def test_a_named_strategy_plays_a_seat_through_openspiel_by_spelling_its_actions(name):
    game = get_game(name)
    strategy = next(iter(game.strategies))
    players = game.info.min_players
    short = {"max_rounds": 2} if "max_rounds" in {
        o["name"] for o in game.info.options.schema(players)} else {}
    spiel = pyspiel.load_game(openspiel_name(name), {"players": players, "seed": 4, **short})
    codec = FlatActions(name, players, short)
    bot, rng = make_agent(game, strategy), random.Random(2)
    state, noise = spiel.new_initial_state(), np.random.RandomState(2)
    planned: list[int] = []
    spelled = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            if not planned:
                planned = codec.spell(state.engine, 0, decide(bot, state.engine, 0, rng))
                spelled += 1
            step = planned.pop(0)
            assert step in state.legal_actions()
            state.apply_action(step)
        else:
            state.apply_action(int(noise.choice(state.legal_actions())))
    assert state.engine.is_over() and spelled >= 2
    assert_win_shares(state.returns())
