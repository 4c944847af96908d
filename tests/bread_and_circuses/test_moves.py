"""Bread and Circuses' moves: its prompt's actions as whole numbers (docs/games/bread-and-circuses.md,
"Moves"), checked against the rules at every position of random games."""

import contextlib
import json
import random

import pytest

import tricolore
from tricolore.core.conformance import check_moves_throughout, play_on_moves
from tricolore.games.bread_and_circuses.data import SABOTAGE, TILES
from tricolore.games.bread_and_circuses.rules import (
    DISCLOSE_MOVES,
    MOVE_COUNT,
    PASS_MOVE,
    PLAY_MOVES,
    READY_MOVE,
    SABOTAGE_MOVES,
    TAKE_BACK_MOVE,
    TARGET_SLOTS,
    BreadState,
)

PLAYERS = range(3, 9)
MOVE_ONLY_BOUND = 50_000
"""Decisions a game played with moves only stays under (random play makes a few thousand)."""
FREE_KINDS = {"give_gold", "offer_deal", "solicit_deal", "accept_deal", "decline_deal",
              "withdraw_deal", "withdraw_ready"}


def card_move(card: str, target: int | None) -> int:
    """The move of ``card`` naming ``target``, from the numbering in the docs."""
    c = [s.name for s in SABOTAGE].index(card)
    return SABOTAGE_MOVES + TARGET_SLOTS * c + (0 if target is None else target + 1)


def disclose_move(tile: str, icon: str) -> int:
    return DISCLOSE_MOVES + 3 * TILES.index(tile) + TILES.index(icon)


def every_move_action(state: BreadState) -> dict[int, str]:
    """Every move's action as JSON text, by move."""
    found = {}
    for move in range(MOVE_COUNT):
        with contextlib.suppress(ValueError):  # not every number below MOVE_COUNT is a move
            found[move] = json.dumps(state.move_action(move), sort_keys=True)
    return found


# -- the moves match the rules -------------------------------------------------------------------
@pytest.mark.parametrize("bribery", [False, True])
@pytest.mark.parametrize("players", PLAYERS)
def test_moves_are_the_prompts_actions_at_every_position_of_random_games(players, bribery):
    for seed in range(2):
        state = tricolore.make("bread-and-circuses", players, seed=seed,
                               options={"regulated_bribery": bribery})
        assert check_moves_throughout(state, random.Random(seed)) > 20


@pytest.mark.parametrize("players", PLAYERS)
def test_games_played_with_moves_only_finish_and_leave_the_move_actions_unchanged(players):
    probe = tricolore.make("bread-and-circuses", players, seed=0)
    assert isinstance(probe, BreadState)
    before = every_move_action(probe)
    for seed in range(3):
        state = tricolore.make("bread-and-circuses", players, seed=seed)
        state.record_events = False
        played = play_on_moves(state, random.Random(seed), MOVE_ONLY_BOUND)
        assert state.acting() == () and state.end_reason in ("gold", "riots", "rounds")
        replayed = tricolore.make("bread-and-circuses", players, seed=seed)
        for seat, move in played:  # every move is an action the checked entry point accepts
            replayed.apply(seat, state.move_action(move))
        assert replayed.digest() == state.digest()
    assert every_move_action(probe) == before


# -- the numbering ---------------------------------------------------------------------------------
def test_numbering_each_move_is_one_action_the_same_in_every_position(start, act):
    early, later = start(4), start(5, seed=3)
    act(later, 0, "disclose", tile="bread", icon="circus")
    actions = every_move_action(early)
    # 3 without parameters, 3 tiles, 9 disclosures, one move per card naming nobody and one per
    # seat (of 8) for a card naming a player: 9 + 7 * 8
    assert len(actions) == 3 + 3 + 9 + 9 + 7 * 8 == 80
    assert len(set(actions.values())) == len(actions)
    assert all(later.move_action(m) is early.move_action(m) for m in actions)
    assert early.move_action(PASS_MOVE) == {"type": "pass"}
    assert early.move_action(READY_MOVE) == {"type": "ready"}
    assert early.move_action(TAKE_BACK_MOVE) == {"type": "take_back"}
    assert early.move_action(PLAY_MOVES + 2) == {"type": "play", "tile": "abstain"}
    assert early.move_action(disclose_move("circus", "bread")) == {
        "type": "disclose", "tile": "circus", "icon": "bread"}
    assert early.move_action(card_move("Pickpocket", 7)) == {
        "type": "play_sabotage", "card": "Pickpocket", "target": 7}
    for bad in (-1, MOVE_COUNT, card_move("Monopoly", None) + 1, card_move("Pickpocket", None)):
        with pytest.raises(ValueError, match="no such move"):
            early.move_action(bad)


def test_numbering_a_card_that_names_nobody_has_an_explicit_null_target(start):
    state = start(4, hands=[["Forged Promise"], [], [], []])
    move = card_move("Forged Promise", None)
    assert move in state.legal_moves(0)
    action = state.move_action(move)
    assert action == {"type": "play_sabotage", "card": "Forged Promise", "target": None}
    legal = state.legal_actions(0)
    assert legal.contains(action)
    assert not legal.contains({"type": "play_sabotage", "card": "Forged Promise"})


def test_numbering_a_card_that_names_a_player_has_one_move_per_player_it_may_name(start, act):
    state = start(5, hands=[["Informant", "Pickpocket"], [], [], [], []], gold=[5, 0, 5, 5, 5])
    # nobody has disclosed, so Informant names nobody; seat 1 has no Gold to pick
    assert sorted(m for m in state.legal_moves(0) if m >= SABOTAGE_MOVES) == [
        card_move("Pickpocket", 2), card_move("Pickpocket", 3), card_move("Pickpocket", 4)]
    act(state, 1, "disclose", tile="bread", icon="bread")
    act(state, 3, "disclose", tile="circus", icon="bread")
    sabotage = sorted(m for m in state.legal_moves(0) if m >= SABOTAGE_MOVES)
    assert sabotage == [card_move("Informant", 1), card_move("Informant", 3),
                        card_move("Pickpocket", 2), card_move("Pickpocket", 3),
                        card_move("Pickpocket", 4)]


def test_numbering_forged_promise_adds_the_abstain_disclosures_and_accusation_removes_all(start, act):
    state = start(4, hands=[["Forged Promise"], ["Public Accusation"], [], []])
    on_abstain = {disclose_move(tile, "abstain") for tile in TILES}
    disclosures = {disclose_move(tile, icon) for tile in TILES for icon in ("bread", "circus")}
    assert disclosures <= set(state.legal_moves(0)) and not on_abstain & set(state.legal_moves(0))
    state.apply_move(0, card_move("Forged Promise", None))
    assert disclosures | on_abstain <= set(state.legal_moves(0))
    state.apply_move(0, disclose_move("abstain", "abstain"))
    assert state.disclosed[0] == ("abstain", "abstain") and TAKE_BACK_MOVE in state.legal_moves(0)
    state.apply_move(1, card_move("Public Accusation", 0))
    assert sorted(state.legal_moves(0)) == [READY_MOVE]


# -- what the moves leave out ----------------------------------------------------------------------
def test_moves_leave_out_the_free_actions_which_stay_open_through_apply(start, act):
    state = start(4, regulated_bribery=True)
    assert not any(json.loads(text)["type"] in FREE_KINDS for text in every_move_action(state).values())
    state.apply_move(0, READY_MOVE)
    act(state, 1, "disclose", tile="bread", icon="bread")  # clears seat 0's ready
    assert state.acting() == (0, 1, 2, 3) and state.legal_moves(0) == [READY_MOVE]
    act(state, 0, "disclose", tile="circus", icon="circus")  # still open, as a free action
    act(state, 0, "give_gold", to=2, gold=1)
    act(state, 0, "offer_deal", to=2, gold=1, condition="play", tile="bread", when="this")
    assert state.legal_moves(0) == [READY_MOVE] and state.gold[0] == 3


# -- speed: repeated answers are shared lists ---------------------------------------------------------
def test_sharing_a_repeated_answer_is_one_list(start, act, play_round):
    state, other = start(4), start(6, seed=2)
    assert state.legal_moves(1) is other.legal_moves(4)  # disclose, ready: no card, no disclosure
    assert state.legal_moves(0) == [*sorted(disclose_move(t, i) for t in TILES
                                           for i in ("bread", "circus")), READY_MOVE]
    play_round(state, {}, disclose={3: ("bread", "bread")})
    assert state.acting() == (0, 1, 2)
    assert state.legal_moves(0) is state.legal_moves(2)
    assert [state.move_action(m)["tile"] for m in state.legal_moves(0)] == list(TILES)
    assert state.legal_moves(3) == []


def test_sharing_a_window_asks_one_seat_which_may_pass_or_play_its_cards(start, play_round):
    state = start(4, hands=[["Exposed Lie"], ["Secret Granary"], [], []])
    play_round(state, {0: "bread", 1: "bread", 2: "circus", 3: "abstain"})
    assert state.acting() == (0,) and state.legal_moves(0) == [PASS_MOVE]  # no After-Reveal card
    state.apply_move(0, PASS_MOVE)
    assert state.acting() == (1,) and state.legal_moves(0) == []
    assert state.legal_moves(1) == [card_move("Secret Granary", None), PASS_MOVE]
