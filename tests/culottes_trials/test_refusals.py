"""Revolutionary trials: the mistakes players make are refused with the rule that refuses them,
players by name (docs/games/culottes-trials.md, "Refusals")."""

import pytest

import tricolore
from tricolore.core import IllegalAction

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
"""The players' names, as the server passes them to ``IllegalAction.for_names``."""


def new(players=5, **options):
    """A tutorial whose first accused is Ann (seat 0)."""
    options.setdefault("first_accused", 0)
    return tricolore.make("culottes-trials", players, seed=0, **options)


def refusal(state, seat, action):
    """The refusal of ``action``, as the named players read it; the state must be unchanged."""
    before = state.digest()
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert state.digest() == before
    return caught.value


def said(state, seat, action):
    return refusal(state, seat, action).for_names(PLAYERS[:state.players])


def to_first_vote(state):
    state.apply(0, {"type": "designate", "grabbers": [1]})
    state.apply(0, {"type": "state", "statement": "I drew a heart on this paper", "truth": True})


def to_debate(state):
    to_first_vote(state)
    for seat in state.voters():
        state.apply(seat, {"type": "vote", "guess": True})


# -- designate and state: the accused's part -----------------------------------------------------
def test_only_the_accused_designates_and_states():
    state = new()
    assert said(state, 2, {"type": "designate", "grabbers": [1]}) == (
        "Only the accused, Ann, designates the grabbers.")
    assert said(state, 2, {"type": "state", "statement": "x", "truth": True}) == (
        "Only the accused, Ann, makes the statement.")


def test_the_accused_designates_before_stating_and_does_each_once():
    state = new()
    assert said(state, 0, {"type": "state", "statement": "x", "truth": True}) == (
        "First designate the other grabbers, then make your statement.")
    state.apply(0, {"type": "designate", "grabbers": []})
    assert said(state, 0, {"type": "designate", "grabbers": [1]}) == (
        "You have already designated the grabbers of this trial; now make your statement.")
    state.apply(0, {"type": "state", "statement": "I drew a heart on this paper", "truth": False})
    assert said(state, 0, {"type": "state", "statement": "x", "truth": True}) == (
        "You have already made your statement in this trial.")


def test_the_accused_is_a_grabber_already_and_designates_others():
    refused = refusal(new(), 0, {"type": "designate", "grabbers": [2, 0]})
    assert refused.code == "bad_designate"
    assert refused.message == "You are the accused and a grabber already; designate other players."


def test_grabbers_are_at_most_half_the_players():
    assert said(new(5), 0, {"type": "designate", "grabbers": [1, 2]}) == (
        "Grabbers, the accused included, may be at most half the players, 2 of 5: designate at "
        "most 1 other player.")
    assert said(new(7), 0, {"type": "designate", "grabbers": [1, 2, 3]}) == (
        "Grabbers, the accused included, may be at most half the players, 3 of 7: designate at "
        "most 2 other players.")
    assert said(new(3), 0, {"type": "designate", "grabbers": [1]}) == (
        "With 3 players the accused is the only grabber: designate nobody.")


def test_a_seat_that_does_not_exist_is_refused_naming_the_players_who_may_be_designated():
    assert said(new(), 0, {"type": "designate", "grabbers": [9]}) == (
        "The grabbers are chosen among the other players, Bob, Cy, Dee and Eve; you sent 9.")
    assert said(new(3), 0, {"type": "designate", "grabbers": ["Bob"]}) == (
        "The grabbers are chosen among the other players, Bob and Cy; you sent 'Bob'.")


def test_the_designation_offered_refuses_a_seat_number_without_naming_seats():
    """A value checked against the offered designation alone (a terminal's typed answer, the
    browser's question about a parameter) is refused by the rule, never by a list of seat numbers."""
    state = new()
    grabbers = state.legal_actions(0).family("designate").domain("grabbers", {})
    for sent in ([9], [0], ["Bob"]):
        why = grabbers.problem("grabbers", sent)
        assert why == "the accused is a grabber already, and names other players at this table"
        assert not any(ch.isdigit() for ch in why)
    assert grabbers.problem("grabbers", [1]) is None


# -- the votes and the debate --------------------------------------------------------------------
def test_the_accused_does_not_vote():
    state = new()
    to_first_vote(state)
    assert said(state, 0, {"type": "vote", "guess": True}) == "The accused does not vote."


def test_the_vote_opens_after_the_statement():
    state = new()
    refused = refusal(state, 2, {"type": "vote", "guess": True})
    assert refused.code == "not_your_turn"
    assert refused.for_names(PLAYERS) == (
        "The vote opens once the accused has made a statement; waiting for Ann.")


def test_each_player_votes_once_in_each_vote():
    state = new()
    to_first_vote(state)
    state.apply(1, {"type": "vote", "guess": False})
    state.apply(2, {"type": "vote", "guess": False})
    assert said(state, 1, {"type": "vote", "guess": True}) == (
        "You have already voted; waiting for Dee and Eve.")


def test_a_guess_is_true_or_false():
    state = new()
    to_first_vote(state)
    assert said(state, 1, {"type": "vote", "guess": "maybe"}) == (
        "The guess must be true (closed fist) or false (open hand); you sent 'maybe'.")


def test_the_debate_comes_between_the_two_votes():
    state = new()
    assert said(state, 1, {"type": "pass"}) == (
        "The debate opens after the accused's statement and the first vote; waiting for Ann.")
    to_first_vote(state)
    assert said(state, 1, {"type": "argue", "text": "A grabber would say that."}) == (
        "Vote first: the debate opens once everyone has voted a first time.")
    state.apply(1, {"type": "vote", "guess": True})
    assert said(state, 1, {"type": "argue", "text": "A grabber would say that."}) == (
        "The debate opens once everyone has voted a first time; waiting for Cy, Dee and Eve.")
    for seat in (2, 3, 4):
        state.apply(seat, {"type": "vote", "guess": True})
    assert said(state, 1, {"type": "vote", "guess": True}) == (
        "The debate comes between the two votes; the second vote opens once everyone has passed.")
    for seat in list(state.pending()):
        state.apply(seat, {"type": "pass"})
    assert state.phase == "second_vote"
    state.apply(1, {"type": "vote", "guess": True})
    assert said(state, 1, {"type": "pass"}) == "The debate is closed; the second vote is under way."


def test_a_player_who_passed_speaks_again_only_after_another_argument():
    state = new()
    to_debate(state)
    state.apply(1, {"type": "pass"})
    refused = refusal(state, 1, {"type": "argue", "text": "I changed my mind."})
    assert refused.code == "not_your_turn"
    assert refused.for_names(PLAYERS) == ("You have passed; you may argue again once someone else "
                                          "argues; waiting for Cy, Dee, Eve and Ann.")
    assert said(state, 1, {"type": "pass"}) == "You have already passed; waiting for Cy, Dee, Eve and Ann."


def test_arguments_per_debate_are_limited():
    state = new(arguments_per_debate=1)
    to_debate(state)
    state.apply(2, {"type": "argue", "text": "They hesitated before answering."})
    assert said(state, 2, {"type": "argue", "text": "Again."}) == (
        "You have made your 1 argument in this debate; you may only pass.")
    state = new(arguments_per_debate=0)
    to_debate(state)
    assert said(state, 2, {"type": "argue", "text": "Hear me."}) == (
        "This table allows no arguments in the debate; you may only pass.")


def test_agreeing_to_stop_takes_true_or_false():
    assert said(new(), 3, {"type": "agree_end", "agree": "yes"}) == (
        "Agree to stop after this trial with true, or withdraw your agreement with false.")


def test_an_argument_that_is_not_text_is_called_an_argument():
    state = new()
    to_debate(state)
    assert said(state, 1, {"type": "argue", "text": -1}) == "The argument must be text; you sent -1."
    assert said(state, 1, {"type": "argue", "text": "  "}) == "The argument must not be blank."
