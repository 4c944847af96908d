"""Culottes tutorial (revolutionary trials), rule by rule."""

import random

import pytest

import tricolore
from tricolore.core import IllegalAction
from tricolore.core.conformance import random_play
from tricolore.games.culottes_trials.rules import majority_guess, max_grabbers, trial_points


def new(players=5, **options):
    options.setdefault("first_accused", 0)
    return tricolore.make("culottes-trials", players, seed=0, **options)


def run_trial(state, grabbers, truth, first, second, arguments=()):
    accused = state.accused
    state.apply(accused, {"type": "designate", "grabbers": list(grabbers)})
    state.apply(accused, {"type": "state", "statement": "I drew a heart on this paper", "truth": truth})
    for seat, guess in first.items():
        state.apply(seat, {"type": "vote", "guess": guess})
    for seat, text in arguments:
        state.apply(seat, {"type": "argue", "text": text})
    for seat in list(state.pending()):
        state.apply(seat, {"type": "pass"})
    for seat, guess in second.items():
        state.apply(seat, {"type": "vote", "guess": guess})


def test_the_accused_designates_grabbers_secretly():
    state = new()
    state.apply(0, {"type": "designate", "grabbers": [2]})
    assert state.view(2)["you"]["role"] == "grabber"
    assert state.view(1)["you"]["role"] == "revolutionary"
    assert "grabbers" not in state.view(1)["you"]
    assert state.view(0)["you"]["grabbers"] == [0, 2]
    assert [e["role"] for e in state.events_for(3) if e["kind"] == "your_role"] == ["revolutionary"]


def test_grabbers_never_more_than_half_the_players():
    assert max_grabbers(5) == 2 and max_grabbers(6) == 3 and max_grabbers(3) == 1
    state = new(5)
    with pytest.raises(IllegalAction, match="at most 1"):
        state.apply(0, {"type": "designate", "grabbers": [1, 2]})


def test_the_statements_truth_is_secret_until_the_trial_closes():
    state = new()
    state.apply(0, {"type": "designate", "grabbers": []})
    state.apply(0, {"type": "state", "statement": "Roger is in love with me", "truth": False})
    assert state.view(1)["statement"] == "Roger is in love with me"
    assert "truth" not in state.view(1)["you"]
    assert state.view(0)["you"]["truth"] is False


def test_the_accused_does_not_vote():
    state = new()
    run_prefix = [("designate", {"grabbers": []}), ("state", {"statement": "x", "truth": True})]
    for kind, fields in run_prefix:
        state.apply(0, {"type": kind, **fields})
    assert sorted(state.pending()) == [1, 2, 3, 4]
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "vote", "guess": True})


def test_first_vote_is_simultaneous_shown_to_all_and_not_counted():
    state = new()
    state.apply(0, {"type": "designate", "grabbers": []})
    state.apply(0, {"type": "state", "statement": "x", "truth": True})
    state.apply(1, {"type": "vote", "guess": False})
    assert state.view(2)["vote"]["chosen"] == [1] and state.view(2)["first_vote"] is None
    for seat in (2, 3, 4):
        state.apply(seat, {"type": "vote", "guess": False})
    assert state.view(2)["first_vote"] == [None, False, False, False, False]  # seat 0 is accused
    assert state.phase == "debate"
    assert state.points == [0] * 5


def test_debate_between_the_votes_until_everyone_has_passed():
    state = new(3)
    state.apply(0, {"type": "designate", "grabbers": []})
    state.apply(0, {"type": "state", "statement": "x", "truth": True})
    for seat in (1, 2):
        state.apply(seat, {"type": "vote", "guess": True})
    state.apply(1, {"type": "pass"})
    state.apply(2, {"type": "argue", "text": "A grabber would say exactly that."})
    assert sorted(state.pending()) == [0, 1, 2]
    for seat in (0, 1, 2):
        state.apply(seat, {"type": "pass"})
    assert state.phase == "second_vote"


def test_arguments_per_debate_are_limited():
    state = new(3, arguments_per_debate=1)
    state.apply(0, {"type": "designate", "grabbers": []})
    state.apply(0, {"type": "state", "statement": "x", "truth": True})
    for seat in (1, 2):
        state.apply(seat, {"type": "vote", "guess": True})
    state.apply(1, {"type": "argue", "text": "first"})
    assert state.pending()[1].kinds == ("pass",)


def test_second_vote_majority_decides_and_a_tie_counts_as_true():
    assert majority_guess({1: True, 2: False}) is True
    assert majority_guess({1: False, 2: False, 3: True}) is False


def test_right_majority_gives_each_revolutionary_a_point():
    assert trial_points(5, accused=0, grabbers=frozenset({0, 3}), majority_right=True) == [0, 1, 1, 0, 1]
    state = new()
    run_trial(state, [3], True, dict.fromkeys((1, 2, 3, 4), True), {1: True, 2: True, 3: False, 4: False})
    assert state.points == [0, 1, 1, 0, 1]


def test_wrong_majority_gives_the_accused_two_and_other_grabbers_one():
    state = new()
    run_trial(state, [3], False, dict.fromkeys((1, 2, 3, 4), True), dict.fromkeys((1, 2, 3, 4), True))
    assert state.points == [2, 0, 0, 1, 0]
    assert state.history[0]["grabbers"] == [0, 3] and state.history[0]["truth"] is False


def test_the_role_of_the_accused_passes_to_the_left():
    state = new()
    run_trial(state, [], True, dict.fromkeys((1, 2, 3, 4), True), dict.fromkeys((1, 2, 3, 4), True))
    assert state.accused == 1 and state.trial == 2


def test_ends_after_the_number_of_trials_option():
    state = new(3, trials=1)
    run_trial(state, [], True, {1: True, 2: True}, {1: True, 2: True})
    assert state.is_over()
    assert state.result().scores == (0, 1, 1)


def test_ends_when_every_player_agrees_at_the_end_of_the_trial():
    state = new(3)
    for seat in range(3):
        state.apply(seat, {"type": "agree_end", "agree": True})
    assert not state.is_over()
    run_trial(state, [], True, {1: True, 2: True}, {1: True, 2: True})
    assert state.is_over()


def test_secrets_stay_out_of_public_views_and_events_until_the_trial_closes():
    state = tricolore.make("culottes-trials", 5, seed=3)
    for _ in random_play(state, random.Random(3)):
        closed = len(state.history)
        public = [e for e in state.events_for(None) if e["kind"] != "trial_closed"]
        assert all("truth" not in e and "grabbers" not in e and "role" not in e for e in public)
        view = state.view(None)
        assert "you" not in view and len(view["history"]) == closed


def test_the_first_accused_is_the_one_draw_of_chance():
    state = tricolore.make("culottes-trials", 4, seed=0, chance={"randrange": [2]})
    assert state.accused == 2 and set(state.pending()) == {2}
    chosen = tricolore.make("culottes-trials", 4, seed=0, first_accused=1, chance={"randrange": [3]})
    assert chosen.accused == 1 and chosen.rng.drawn == {}
