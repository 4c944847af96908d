"""The trials' moves: their actions as whole numbers (``legal_moves``, ``apply_move``)."""

from __future__ import annotations

import json
import math
import random

import pytest

import tricolore
from tricolore.core.conformance import check_moves_throughout, play_on_moves
from tricolore.games.culottes_trials.rules import (
    EXAMPLE_ARGUMENTS,
    EXAMPLE_STATEMENTS,
    PASS_MOVE,
    VOTE_FALSE,
    VOTE_TRUE,
    max_grabbers,
)


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_every_position_numbers_exactly_its_prompt(players):
    for seed in range(3):
        state = tricolore.make("culottes-trials", players, seed=seed)
        assert check_moves_throughout(state, random.Random(seed)) > 10


@pytest.mark.parametrize("players", [3, 6, 12])
def test_a_game_played_on_moves_alone_ends_and_leaves_every_action_as_it_was(players):
    probe = tricolore.make("culottes-trials", players, seed=0)
    before = {m: json.dumps(probe.move_action(m), sort_keys=True) for m in range(200)}
    for seed in range(5):
        state = tricolore.make("culottes-trials", players, seed=seed)
        kinds = {state.move_action(move)["type"] for _, move in play_on_moves(state, random.Random(seed))}
        assert state.is_over() and len(state.result().scores) == players
        assert {"designate", "state", "vote", "argue", "pass"} <= kinds
    assert {m: json.dumps(probe.move_action(m), sort_keys=True) for m in range(200)} == before


@pytest.mark.parametrize("players", [3, 5, 8])
def test_the_accused_may_designate_any_others_up_to_the_grabbers_limit(players):
    state = tricolore.make("culottes-trials", players, seed=0)
    accused = state.accused
    designations = [state.move_action(m)["grabbers"] for m in state.legal_moves(accused)]
    most = max_grabbers(players) - 1
    assert len(designations) == sum(math.comb(players - 1, k) for k in range(most + 1))
    assert all(accused not in g and len(g) <= most and g == sorted(g) for g in designations)


def test_statements_and_arguments_come_from_the_examples_true_and_false():
    state = tricolore.make("culottes-trials", 5, seed=0)
    state.apply(state.accused, {"type": "designate", "grabbers": []})
    stated = [state.move_action(m) for m in state.legal_moves(state.accused)]
    assert {(a["statement"], a["truth"]) for a in stated} == {
        (s, t) for s in EXAMPLE_STATEMENTS for t in (True, False)}
    assert {a["text"] for a in map(state.move_action, range(200)) if a["type"] == "argue"} == set(
        EXAMPLE_ARGUMENTS)


def test_every_voter_votes_true_or_false_and_the_accused_has_no_move():
    state = tricolore.make("culottes-trials", 4, seed=0)
    accused = state.accused
    state.apply(accused, {"type": "designate", "grabbers": []})
    state.apply(accused, {"type": "state", "statement": "I was born in Arras.", "truth": True})
    assert state.acting() == tuple(s for s in range(4) if s != accused)
    assert all(state.legal_moves(s) == [VOTE_TRUE, VOTE_FALSE] for s in state.acting())
    assert state.legal_moves(accused) == []
    assert state.move_action(PASS_MOVE) == {"type": "pass"}
