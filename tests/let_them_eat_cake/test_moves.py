"""The moves of Let Them Eat Cake: its prompts' actions as whole numbers
(docs/games/let-them-eat-cake.md, "Moves")."""

import json
import random

import pytest

import tricolore
from tests.let_them_eat_cake.conftest import to_inspector, to_secretary
from tricolore.core.conformance import check_moves_throughout, play_on_moves, random_play
from tricolore.games.let_them_eat_cake.data import GENERAL
from tricolore.games.let_them_eat_cake.rules import (
    DEAL_MOVES,
    DONATE_MOVES,
    DONATE_NOBODY_MOVE,
    INFO,
    MOVE_COUNT,
    MOVE_SEATS,
    PASS_MOVE,
    LetThemEatCakeState,
)

SIZES = range(INFO.min_players, INFO.max_players + 1)
MOST_DECISIONS = 5000
"""More decisions than any random game takes (they end by death, cake or an empty Pantry)."""


def every_move_action():
    state = tricolore.make("let-them-eat-cake", 3, seed=0)
    return [state.move_action(m) for m in range(MOVE_COUNT)]


def as_text(action):
    return json.dumps(action, sort_keys=True)


def prompt_actions(state, seat):
    """The prompt's actions, enumerated from the action space, in the moves' form: a donation
    with nobody to take a Medal from sends ``take_from`` null rather than leaving it out."""
    out = set()
    for action in state.legal_actions(seat):
        if action["type"] == "donate":
            action = {"take_from": None, **action}
        out.add(as_text(action))
    return out


def move_actions(state, seat):
    return {as_text(state.move_action(m)) for m in state.legal_moves(seat)}


@pytest.mark.parametrize("players", SIZES)
def test_every_position_of_random_games_numbers_its_prompts_actions(players):
    for seed in range(4):
        state = tricolore.make("let-them-eat-cake", players, seed=seed)
        assert check_moves_throughout(state, random.Random(seed)) > 20


@pytest.mark.parametrize("players", SIZES)
def test_the_moves_are_exactly_the_prompts_actions(players):
    """Nothing is left out: every action the prompt enumerates is a move, and no other."""
    for seed in range(3):
        state = tricolore.make("let-them-eat-cake", players, seed=100 + seed)
        rng = random.Random(seed)
        for position in random_play(state, rng):
            for seat in range(players):
                assert move_actions(position, seat) == prompt_actions(position, seat)


@pytest.mark.parametrize("players", SIZES)
def test_whole_games_played_with_moves_only_end_and_leave_the_actions_unchanged(players):
    before = [as_text(a) for a in every_move_action()]
    kinds = set()
    for seed in range(6):
        state = tricolore.make("let-them-eat-cake", players, seed=seed)
        state.record_events = False
        played = play_on_moves(state, random.Random(seed), MOST_DECISIONS)
        kinds |= {state.move_action(move)["type"] for _, move in played}
        assert state.acting() == () and all(state.legal_moves(s) == [] for s in range(players))
        assert state.result().winners
    assert {"vote", "pass", "award_medal", "remove_medal", "execute", "mercy", "deal",
            "inspect"} <= kinds
    assert [as_text(a) for a in every_move_action()] == before


def test_a_move_stands_for_one_action_whatever_the_position():
    actions = every_move_action()
    assert len({as_text(a) for a in actions}) == MOVE_COUNT  # no two moves share an action
    other = tricolore.make("let-them-eat-cake", 6, seed=9)
    assert all(other.move_action(m) is actions[m] for m in range(MOVE_COUNT))  # made once, shared
    for bad in (-1, MOVE_COUNT):
        with pytest.raises(ValueError, match="no such move"):
            other.move_action(bad)


def test_the_blocks_are_as_wide_as_the_largest_table():
    """A block holds a seat, or a drawn card (one per player), of any table."""
    assert INFO.max_players == MOVE_SEATS
    state = tricolore.make("let-them-eat-cake", 6, seed=0)
    assert state.move_action(DEAL_MOVES + MOVE_SEATS * 5 + 4) == {"type": "deal", "card": 5, "to": 4}
    assert state.move_action(DONATE_MOVES + 5) == {"type": "donate", "take_from": 5}
    assert state.move_action(MOVE_COUNT - 1) == {"type": "deal", "card": 5, "to": 5}


def test_trading_has_no_moves(start):
    """Gifts are free actions, not the prompt's: a seat that may trade but is not asked has no
    move, and an asked seat's moves never give."""
    state = start(4, head=0)
    assert state.phase == "ballot"
    state.apply(0, {"type": "vote", "candidate": 1})
    assert state.free_actions(0).kinds and state.legal_moves(0) == []
    for seat in (1, 2, 3):
        assert {state.move_action(m)["type"] for m in state.legal_moves(seat)} == {"vote"}


def test_a_donation_with_no_medal_to_take_sends_take_from_null(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    act(state, 3, "inspect", safe=True)
    assert state.acting() == (0,)
    offered = [state.move_action(m) for m in state.legal_moves(0)]
    takers = [s for s in (1, 2, 3) if state.medals[s]]
    assert offered == [*({"type": "donate", "take_from": s} for s in takers),
                       {"type": "donate", "take_from": None}, {"type": "pass"}]
    for s in range(4):
        state.medals[s] = 0
    state.changed()
    assert state.legal_moves(0) == [DONATE_NOBODY_MOVE, PASS_MOVE]
    assert state.legal_actions(0).contains({"type": "donate"})  # left out: the same action


def test_a_donor_whose_cake_card_was_given_away_may_only_pass(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, GENERAL, 9, 2, 7, 7, 7, 7])
    to_inspector(state, elect, act)
    act(state, 3, "inspect", safe=True)
    act(state, 0, "give_cakes", to=1, cards=[len(state.stashes[0]) - 1])
    assert state.acting() == (0,) and state.legal_moves(0) == [PASS_MOVE]


def test_the_heads_medal_moves_offer_only_what_is_possible(start, elect):
    state = start(4, head=0, centre=0)
    elect(state, 1)
    assert state.phase == "head_medal" and state.acting() == (1,)
    assert [state.move_action(m) for m in state.legal_moves(1)] == [
        {"type": "remove_medal", "from": s} for s in (0, 2, 3)]


def test_the_secretarys_deals_pair_every_card_left_with_every_player_left(start, elect, act):
    state = start(4, head=0, medals=[3, 3, 3, 0], deck=[5, 0, 9, 2, 7, 7, 7, 7])
    to_secretary(state, elect, act, secretary=2)
    assert state.phase == "deal" and len(state.legal_moves(2)) == 4 * 4
    act(state, 2, "deal", card=0, to=3)
    assert [state.move_action(m) for m in state.legal_moves(2)] == [
        {"type": "deal", "card": c, "to": t} for c in (1, 2, 3) for t in (0, 1, 2)]


def test_positions_that_ask_the_same_share_one_list(start):
    """The hot path allocates no list for a prompt it has answered before."""
    state = start(5, head=0)
    assert state.legal_moves(1) is state.legal_moves(1)
    assert state.legal_moves(0) is start(5, head=3, seed=2).legal_moves(0)  # the same hand


# Positions reached through the public API, as in test_rules.py.
def test_the_state_class_numbers_its_moves():
    assert LetThemEatCakeState.numbers_moves()


@pytest.mark.parametrize("players", [3, 5, 6])
def test_a_space_shared_between_positions_is_the_one_its_position_would_make(players):
    """After a ballot the legal actions are shared between positions with the same facts (and a
    deal's players between deals to the same players): each is what the position makes anew."""
    rng = random.Random(players)
    checked = 0
    for seed in range(12):
        state = tricolore.make("let-them-eat-cake", players, seed=seed)
        while not state.is_over():
            seat = state.acting()[0]
            space = state.legal_actions(seat)
            if state.phase == "deal":
                family = space.family("deal")
                assert family is not None
                cards, to = family.params["card"], family.params["to"]
                assert cards.options == state.unplaced_cards()
                assert cards.labels == tuple(
                    "General" if state.draw[i] == GENERAL else f"Cake {state.draw[i]}" for i in cards.options)
                assert to.options == state.players_without_card()
                checked += 1
            elif state.phase in ("coup", "donate", "tie", "head_medal"):
                assert space == state._made_space(seat)
                checked += 1
            state.apply(seat, space.sample(rng))
    assert checked > 100
