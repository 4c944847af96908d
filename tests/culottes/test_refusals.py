"""Culottes: the mistakes players make are refused with the rule that refuses them, in the
players' words, citizens by name (docs/games/culottes.md, "Refusals")."""

import pytest

import tricolore
from tricolore.core import IllegalAction

PLAYERS = ["Ann", "Bob", "Cy"]
"""The players' names, as the server passes them to ``IllegalAction.for_names``."""


def table(**options):
    """Three players; seat 0 (Robespierre) starts, Danton is seat 1's, Marat seat 2's; the die
    never closes a trial."""
    options.setdefault("first_player", 0)
    state = tricolore.make("culottes", 3, seed=0, chance={"randint": [1] * 100}, **options)
    for seat, name in enumerate(["Robespierre", "Danton", "Marat"]):
        state.apply(seat, {"type": "choose_role", "role": "revolutionary", "name": name})
    return state


def refusal(state, seat, action):
    """The refusal of ``action``; the state must be unchanged by it."""
    before = state.digest()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert state.digest() == before
    return caught.value


def finish_turn(state):
    seat = state.current
    while state.current == seat:
        state.apply(seat, {"type": "pass"})


# -- whose turn, which phase --------------------------------------------------------------------
def test_acting_out_of_turn_names_the_player_everyone_waits_for():
    state = table()
    refused = refusal(state, 1, {"type": "buy_cockade"})
    assert refused.code == "not_your_turn"
    assert refused.message == "It is not your turn; waiting for seat 0."
    assert refused.for_names(PLAYERS) == "It is not your turn; waiting for Ann."


def test_play_begins_only_once_every_role_is_chosen():
    state = tricolore.make("culottes", 3, seed=0, first_player=0)
    refused = refusal(state, 0, {"type": "cake_vote", "citizen": 1, "side": "privileged", "cakes": 1})
    assert refused.message == ("Play begins once every player has secretly chosen a role; "
                               "choose yours first.")
    state.apply(0, {"type": "choose_role", "role": "grabber"})
    refused = refusal(state, 0, {"type": "give_cakes", "from": 0, "to": 1, "cakes": 1})
    assert refused.code == "not_your_turn"
    assert refused.for_names(PLAYERS) == ("Play begins once every player has chosen a role; "
                                          "waiting for Bob and Cy.")


def test_a_role_is_chosen_once_and_never_changed():
    state = tricolore.make("culottes", 3, seed=0, first_player=0)
    state.apply(1, {"type": "choose_role", "role": "grabber"})
    refused = refusal(state, 1, {"type": "choose_role", "role": "revolutionary"})
    assert refused.for_names(PLAYERS) == "You have already chosen your role; waiting for Ann and Cy."
    state = table()
    for seat in (0, 2):
        assert refusal(state, seat, {"type": "choose_role", "role": "grabber"}).message == (
            "Every player chose a role at the start of the game, and a role is never changed.")


def test_a_role_is_revolutionary_or_grabber():
    state = tricolore.make("culottes", 3, seed=0)
    assert refusal(state, 0, {"type": "choose_role", "role": "king"}).message == (
        "The role must be 'revolutionary' or 'grabber'; you sent 'king'.")


def test_two_citizens_cannot_share_a_name():
    state = tricolore.make("culottes", 3, seed=0)
    state.apply(0, {"type": "choose_role", "role": "grabber", "name": "Danton"})
    assert refusal(state, 1, {"type": "choose_role", "role": "grabber", "name": "danton"}).message == (
        "The name 'danton' is already taken.")


def test_the_game_over_refuses_every_action():
    state = table(max_rounds=1)
    for _ in range(3):
        finish_turn(state)
    assert state.is_over()
    assert refusal(state, 0, {"type": "pass"}).message == "The game is over."


# -- steps 1 to 7: the current citizen -----------------------------------------------------------
def test_step2_a_citizen_buys_at_most_one_cockade_a_turn():
    state = table()
    state.apply(0, {"type": "buy_cockade"})
    refused = refusal(state, 0, {"type": "buy_cockade"})
    assert refused.code == "not_allowed_now"
    assert refused.message == ("Robespierre has already bought a cockade this turn; a citizen buys "
                               "at most one a turn.")


def test_step2_cockades_are_bought_before_donating_and_voting():
    state = table()
    state.apply(0, {"type": "donate", "cakes": 1})
    assert refusal(state, 0, {"type": "buy_cockade"}).message == (
        "Robespierre has already donated to the Bastille this turn; cockades are bought before "
        "that, at step 2.")
    state = table()
    state.apply(0, {"type": "cake_vote", "citizen": 1, "side": "privileged", "cakes": 1})
    assert refusal(state, 0, {"type": "buy_cockade"}).message == (
        "Robespierre has already cake-voted this turn; cockades are bought before that, at step 2.")


def test_step3_a_citizen_donates_once_a_turn_and_before_the_cake_vote():
    state = table()
    state.apply(0, {"type": "donate", "cakes": 2})
    assert refusal(state, 0, {"type": "donate", "cakes": 1}).message == (
        "Robespierre has already donated this turn; a citizen donates once a turn.")
    state = table()
    state.apply(0, {"type": "cake_vote", "citizen": 1, "side": "privileged", "cakes": 1})
    assert refusal(state, 0, {"type": "donate", "cakes": 1}).message == (
        "Robespierre has already cake-voted this turn; donations come before the cake vote, at step 3.")


def test_step4_a_citizen_cake_votes_once_a_turn():
    state = table()
    state.apply(0, {"type": "cake_vote", "citizen": 1, "side": "privileged", "cakes": 1})
    refused = refusal(state, 0, {"type": "cake_vote", "citizen": 2, "side": "privileged", "cakes": 1})
    assert refused.code == "not_allowed_now"
    assert refused.message == ("Robespierre has already cake-voted this turn; a citizen cake-votes "
                               "once a turn.")


def test_a_citizen_cannot_stake_more_cakes_than_its_sheet_holds():
    state = table()
    assert refusal(state, 0, {"type": "cake_vote", "citizen": 1, "side": "sans_culotte",
                              "cakes": 25}).message == "Robespierre has 20 cakes; you tried 25."
    assert refusal(state, 0, {"type": "donate", "cakes": 21}).message == (
        "Robespierre has 20 cakes; you tried 21.")


def test_a_citizen_without_cakes_cannot_donate_vote_or_give():
    state = table()
    state.apply(0, {"type": "give_cakes", "from": 0, "to": 1, "cakes": 20})
    assert refusal(state, 0, {"type": "donate", "cakes": 1}).message == "Robespierre has no cakes to donate."
    assert refusal(state, 0, {"type": "cake_vote", "citizen": 1, "side": "privileged",
                              "cakes": 1}).message == "Robespierre has no cakes to vote with."
    refused = refusal(state, 0, {"type": "give_cakes", "from": 0, "to": 1, "cakes": 1})
    assert refused.message == "None of your citizens has any cakes to give."
    state.apply(2, {"type": "give_cakes", "from": 2, "to": 1, "cakes": 20})
    refused = refusal(state, 2, {"type": "give_cakes", "from": 2, "to": 1, "cakes": 1})
    assert refused.code == "not_allowed_now"
    assert refused.message == "None of your citizens has any cakes to give."


def test_a_vote_on_a_citizen_that_does_not_exist_lists_the_citizens_by_name():
    state = table()
    refused = refusal(state, 0, {"type": "cake_vote", "citizen": 7, "side": "privileged", "cakes": 1})
    assert refused.message == "The citizen must be Robespierre, Danton or Marat; you sent 7."


def test_step1_an_emigrated_citizen_must_come_back_before_acting():
    state = table()
    state.apply(0, {"type": "emigrate"})
    for _ in range(3):
        finish_turn(state)
    for action in ({"type": "buy_cockade"}, {"type": "donate", "cakes": 1}, {"type": "emigrate"},
                   {"type": "cake_vote", "citizen": 1, "side": "privileged", "cakes": 1}):
        refused = refusal(state, 0, action)
        assert refused.code == "not_allowed_now"
        assert refused.message == "Robespierre has emigrated: say vive la révolution first, or pass."
    state.apply(0, {"type": "vive_la_revolution"})
    assert refusal(state, 0, {"type": "vive_la_revolution"}).message == (
        "Robespierre is already back from emigration.")


def test_step1_only_an_emigrated_citizen_says_vive_la_revolution():
    state = table()
    assert refusal(state, 0, {"type": "vive_la_revolution"}).message == (
        "Robespierre has not emigrated; vive la révolution brings back an emigrated citizen.")


def test_step8_recruiting_comes_once_each_citizen_has_played():
    state = table()
    refused = refusal(state, 0, {"type": "recruit"})
    assert refused.code == "not_allowed_now"
    assert refused.message == ("Recruiting is step 8, once each of your citizens has played; pass "
                               "to finish with Robespierre.")


def test_step8_once_every_citizen_has_played_only_recruiting_is_left():
    state = table()
    state.apply(0, {"type": "pass"})
    for action in ({"type": "buy_cockade"}, {"type": "emigrate"}, {"type": "donate", "cakes": 1}):
        assert refusal(state, 0, action).message == (
            "Your citizens have all played this turn; now recruit a new citizen or pass (step 8).")


# -- at any time ---------------------------------------------------------------------------------
def test_cakes_are_given_from_your_own_citizens_to_another_players():
    state = table()
    assert refusal(state, 0, {"type": "give_cakes", "from": 1, "to": 2, "cakes": 1}).message == (
        "You may give cakes only from one of your own citizens with cakes: Robespierre.")
    assert refusal(state, 0, {"type": "give_cakes", "from": 0, "to": 0, "cakes": 1}).message == (
        "Cakes go to another player's citizen, not to one of your own (Robespierre).")
    assert refusal(state, 1, {"type": "give_cakes", "from": 1, "to": 0, "cakes": 21}).message == (
        "Danton has 20 cakes; you tried 21.")


def test_agreeing_to_end_takes_true_or_false_until_everyone_agrees():
    state = table()
    for seat in (0, 1):
        assert refusal(state, seat, {"type": "agree_end", "agree": "yes"}).message == (
            "Agree to end the game with true, or withdraw your agreement with false.")
    for seat in range(3):
        state.apply(seat, {"type": "agree_end", "agree": True})
    refused = refusal(state, 1, {"type": "agree_end", "agree": False})
    assert refused.code == "not_allowed_now"
    assert refused.message == ("Every player has already agreed to end the game; each plays one "
                               "last turn.")
