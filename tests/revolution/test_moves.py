"""Revolution!'s moves: its prompt's actions as whole numbers (docs/games/revolution.md, "Moves"),
checked against the rules at every position of random games."""

import json
import random

import pytest

import tricolore
from tricolore.core.conformance import check_moves_throughout, play_on_moves
from tricolore.games.revolution.bids import holding_number, holding_of
from tricolore.games.revolution.data import CURRENCIES, SEED_CHART
from tricolore.games.revolution.rules import (
    BID_MOVES,
    DECLINE_MOVE,
    MARKER_SLOTS,
    REMOVE_MOVES,
    SEAT_SLOTS,
    SPY_MOVES,
    SWAP_MOVES,
    RevolutionState,
)

AREA_NUMBER = {name: a for a, name in enumerate(
    ["Tavern", "Market", "Plantation", "Cathedral", "Harbor", "Town Hall", "Fortress"])}


def marker(area: str, owner: int) -> int:
    """A marker's number, from the numbering in the docs."""
    return SEAT_SLOTS * AREA_NUMBER[area] + owner


def bid_move(held: tuple[int, int, int], force: str | None, blackmail: str | None, gold: str | None
             ) -> int:
    """The move putting all of ``held``'s Force on ``force``, and so on (``None``: none held)."""
    names = [s.name for s in SEED_CHART]
    spaces = [0 if name is None else names.index(name) for name in (force, blackmail, gold)]
    code = (spaces[0] * len(names) + spaces[1]) * len(names) + spaces[2]
    return BID_MOVES + holding_number(held) * len(names) ** 3 + code


def actions(state: RevolutionState, seat: int) -> list[str]:
    return sorted(json.dumps(state.move_action(m), sort_keys=True) for m in state.legal_moves(seat))


# -- the moves match the rules -------------------------------------------------------------------
@pytest.mark.parametrize("edition", ["seed", "sjg"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_moves_are_the_prompts_actions_at_every_position_of_random_games(players, edition):
    for seed in range(2):
        state = tricolore.make("revolution", players, seed=seed, options={"edition": edition})
        assert check_moves_throughout(state, random.Random(seed)) > 20


@pytest.mark.parametrize("edition", ["seed", "sjg"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_played_with_moves_only_finish_and_replay_through_apply(players, edition):
    for seed in range(3):
        state = tricolore.make("revolution", players, seed=seed, options={"edition": edition})
        state.record_events = False
        played = play_on_moves(state, random.Random(seed))
        assert state.acting() == () and state.end_reason == "board_full"
        replayed = tricolore.make("revolution", players, seed=seed, options={"edition": edition})
        for seat, move in played:  # every move is an action the checked entry point accepts
            replayed.apply(seat, json.loads(json.dumps(state.move_action(move))))
        assert replayed.digest() == state.digest()


# -- the numbering ---------------------------------------------------------------------------------
def test_numbering_holdings_are_numbered_by_their_total_then_force_then_blackmail():
    assert [holding_of(n) for n in range(5)] == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0),
                                                 (0, 0, 2)]
    numbers = {holding_number((f, b, t - f - b)) for t in range(25) for f in range(t + 1)
               for b in range(t + 1 - f)}
    assert numbers == set(range(len(numbers)))  # every holding a number, none twice
    for n in numbers:
        assert holding_number(holding_of(n)) == n


def test_numbering_a_bid_move_puts_each_currencys_chips_on_one_space(start):
    state = start(3)
    move = bid_move((1, 1, 3), "Printer", "Priest", "Card")
    assert move in state.legal_moves(0)
    assert state.move_action(move) == {"type": "bid", "placement": {
        "Card": {"gold": 3}, "Printer": {"force": 1}, "Priest": {"blackmail": 1}}}
    together = bid_move((1, 1, 3), "Printer", "Printer", "Printer")
    assert state.move_action(together)["placement"] == {"Printer": {"blackmail": 1, "force": 1,
                                                                    "gold": 3}}


def test_numbering_every_bid_of_one_space_a_currency_is_a_move_and_nothing_else(start):
    state = start(3, chips=[{"force": 1, "blackmail": 1, "gold": 3}, {"gold": 4}, {}])
    takes = {c: [s.name for s in SEED_CHART if s.allows(c)] for c in CURRENCIES}
    expected = {bid_move((1, 1, 3), f, b, g) for f in takes["force"] for b in takes["blackmail"]
                for g in takes["gold"]}
    assert set(state.legal_moves(0)) == expected
    # four Gold may not all go on Card (at most three there)
    assert set(state.legal_moves(1)) == {bid_move((0, 0, 4), None, None, g)
                                         for g in takes["gold"] if g != "Card"}
    assert state.legal_moves(2) == [bid_move((0, 0, 0), None, None, None)]
    assert state.move_action(state.legal_moves(2)[0]) == {"type": "bid", "placement": {}}


def test_numbering_the_spy_replaces_any_opponents_marker_or_declines(start, bid):
    state = start(3, board={"Tavern": [0, 1, 0], "Market": [1, 0, 2]})
    bid(state, {0: {"Spy": {"gold": 3}, "Printer": {"force": 1, "blackmail": 1}},
                1: {"Professor": {"gold": 3}, "Printer": {"blackmail": 1, "force": 1}},
                2: {"Professor": {"gold": 3}, "Printer": {"blackmail": 1, "force": 1}}})
    assert state.acting() == (0,)
    assert sorted(state.legal_moves(0)) == sorted([
        DECLINE_MOVE, SPY_MOVES + marker("Tavern", 1), SPY_MOVES + marker("Market", 2)])
    assert state.move_action(SPY_MOVES + marker("Market", 2)) == {
        "type": "spy", "area": "Market", "victim": 2}
    assert state.legal_moves(1) == [] and state.legal_moves(2) == []


def test_numbering_the_apothecary_swaps_each_two_markers_of_different_players_once(start, bid):
    state = start(3, board={"Tavern": [1, 1, 0], "Fortress": [0, 0, 1]})
    bid(state, {0: {"Apothecary": {"gold": 3}, "Printer": {"force": 1, "blackmail": 1}},
                1: {"Professor": {"gold": 3}, "Printer": {"blackmail": 1, "force": 1}},
                2: {"Professor": {"gold": 3}, "Printer": {"blackmail": 1, "force": 1}}})
    assert state.acting() == (0,)
    tavern0, tavern1, fortress2 = marker("Tavern", 0), marker("Tavern", 1), marker("Fortress", 2)
    expected = [DECLINE_MOVE] + [SWAP_MOVES + MARKER_SLOTS * a + b for a, b in (
        (tavern0, tavern1), (tavern0, fortress2), (tavern1, fortress2))]
    assert sorted(state.legal_moves(0)) == sorted(expected)
    assert state.move_action(SWAP_MOVES + MARKER_SLOTS * tavern1 + fortress2) == {
        "type": "swap", "first_area": "Tavern", "first_owner": 1, "second_area": "Fortress",
        "second_owner": 2}


def test_numbering_remove_1_influence_may_not_be_declined(start, bid):
    state = start(2, board={"Harbor": [0, 2]}, deck=["remove_influence"])
    bid(state, {0: {"Card": {"gold": 1}, "Printer": {"force": 1, "blackmail": 1, "gold": 2}},
                1: {"Professor": {"force": 1, "blackmail": 1, "gold": 3}}})
    assert state.acting() == (0,)
    assert state.legal_moves(0) == [REMOVE_MOVES + marker("Harbor", 1)]
    assert actions(state, 0) == [json.dumps({"area": "Harbor", "type": "remove_influence",
                                             "victim": 1}, sort_keys=True)]


@pytest.mark.parametrize("move", [
    -1,
    SWAP_MOVES + MARKER_SLOTS * marker("Tavern", 1) + marker("Fortress", 1),  # one player's two
    bid_move((1, 0, 0), "Card", None, None),  # Force on Card
    bid_move((0, 0, 4), None, None, "Card"),  # four Gold on Card
    bid_move((0, 0, 3), "Printer", None, "Priest"),  # a space for Force, which it lacks
])
def test_numbering_anything_else_is_not_a_move(start, move):
    with pytest.raises(ValueError, match="no such move"):
        start(2).move_action(move)


def test_moves_share_their_actions_and_apply_move_keeps_them_unchanged(start):
    state = start(2)
    move = bid_move((1, 1, 3), "Priest", "Printer", "Merchant")
    assert state.move_action(move) is state.move_action(move)
    before = json.dumps(state.move_action(move), sort_keys=True)
    other = start(2)
    state.apply_move(0, move)
    other.apply(0, state.move_action(move))
    assert state.digest() == other.digest()
    assert json.dumps(state.move_action(move), sort_keys=True) == before
