"""Culottes' moves: its actions as whole numbers (``legal_moves``, ``apply_move``)."""

from __future__ import annotations

import json
import random

import pytest

import tricolore
from tricolore.core.conformance import check_moves_throughout, play_on_moves
from tricolore.games.culottes.rules import (
    CAKE_VOTE_MOST,
    DONATE_MOST,
    PASS_MOVE,
    RECRUIT_MOVE,
    CulottesState,
)


def actions_of(state: CulottesState, seat: int) -> list[dict]:
    return [state.move_action(m) for m in state.legal_moves(seat)]


@pytest.mark.parametrize("players", [3, 5, 8, 12])
def test_every_position_numbers_exactly_its_prompt(players):
    for seed in range(3):
        state = tricolore.make("culottes", players, seed=seed)
        assert check_moves_throughout(state, random.Random(seed)) > 10


@pytest.mark.parametrize("players", [3, 5, 12])
def test_a_game_played_on_moves_alone_ends_and_leaves_every_action_as_it_was(players):
    probe = tricolore.make("culottes", players, seed=0)
    before = {m: json.dumps(probe.move_action(m), sort_keys=True) for m in range(300)}
    for seed in range(5):
        state = tricolore.make("culottes", players, seed=seed)
        kinds = {state.move_action(move)["type"] for _, move in play_on_moves(state, random.Random(seed))}
        assert state.is_over() and state.result().winners
        assert {"choose_role", "cake_vote", "pass"} <= kinds
    assert {m: json.dumps(probe.move_action(m), sort_keys=True) for m in range(300)} == before


def test_amounts_stop_where_a_random_player_stops_and_larger_ones_stay_open_to_apply(start):
    state = start(5)  # seat 0's citizen holds 20 cakes, at step 1
    donations = sorted(a["cakes"] for a in actions_of(state, 0) if a["type"] == "donate")
    votes = {(a["citizen"], a["side"], a["cakes"]) for a in actions_of(state, 0) if a["type"] == "cake_vote"}
    assert donations == list(range(1, DONATE_MOST + 1))
    assert {cakes for _, _, cakes in votes} == set(range(1, CAKE_VOTE_MOST + 1))
    assert {citizen for citizen, _, _ in votes} == set(range(len(state.citizens)))
    state.apply(0, {"type": "donate", "cakes": DONATE_MOST + 4})
    assert state.citizens[0].cakes == 20 - DONATE_MOST - 4


def test_a_citizen_without_cakes_offers_neither_donation_nor_cake_vote(start):
    state = start(3)
    state.citizens[0].cakes = 0
    state.changed()
    kinds = {a["type"] for a in actions_of(state, 0)}
    assert kinds == {"buy_cockade", "emigrate", "pass", "agree_end"}


def test_a_recruit_and_a_role_are_named_by_the_rules():
    state = tricolore.make("culottes", 3, seed=1)
    assert [state.move_action(m) for m in state.legal_moves(state.acting()[0])] == [
        {"type": "choose_role", "role": "revolutionary"}, {"type": "choose_role", "role": "grabber"}]
    assert state.move_action(RECRUIT_MOVE) == {"type": "recruit"}
    assert state.move_action(PASS_MOVE) == {"type": "pass"}


def test_a_move_stands_for_the_same_action_in_every_game():
    one = tricolore.make("culottes", 3, seed=1)
    other = tricolore.make("culottes", 12, seed=7)
    for move in range(200):
        assert one.move_action(move) == other.move_action(move)
    with pytest.raises(ValueError, match="no such move"):
        one.move_action(-1)


def test_a_seat_not_asked_has_no_moves(start):
    state = start(4)
    assert state.acting() == (0,)
    assert [state.legal_moves(seat) for seat in (1, 2, 3)] == [[], [], []]
