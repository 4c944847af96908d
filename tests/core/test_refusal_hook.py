"""One way to refuse: ``apply`` asks the state's ``refusal`` hook for the game's own sentence."""

from typing import Any

import pytest

import tricolore
from tricolore.core import GameDefinition, IllegalAction, State
from tricolore.core.actions import Action
from tricolore.games.culottes_trials.rules import INFO, TrialsState

GAMES = ["bread-and-circuses", "culottes", "culottes-trials", "let-them-eat-cake", "revolution"]


class AskedTrials(TrialsState):
    """Records every refusal it is asked about and answers with ``answer``."""

    asked: list[tuple[int, dict[str, Any], str, str]]
    answer: IllegalAction | None

    def refusal(self, seat: int, action: Action, refused: IllegalAction) -> IllegalAction | None:
        self.asked.append((seat, dict(action), refused.code, refused.message))
        return self.answer


def trials(answer: IllegalAction | None) -> AskedTrials:
    state = GameDefinition(INFO, AskedTrials).new(4, seed=3)
    assert isinstance(state, AskedTrials)
    state.asked = []
    state.answer = answer
    return state


def refused(state: State, seat: Any, action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    return caught.value


@pytest.mark.parametrize("name", GAMES)
def test_no_game_overrides_apply_and_each_words_its_refusals_in_the_hook(name: str):
    state_class = type(tricolore.make(name, tricolore.get_game(name).info.min_players))
    assert state_class.apply is State.apply
    assert state_class.refusal is not State.refusal


def test_the_hooks_answer_replaces_the_generic_refusal_and_changes_nothing():
    state = trials(IllegalAction("house_rule", "the house refuses it"))
    accused = state.accused
    other = (accused + 1) % state.players
    before = state.digest()
    error = refused(state, other, {"type": "vote", "guess": True})
    assert (error.code, error.message) == ("house_rule", "The house refuses it.")
    assert error.__cause__ is None and error.__suppress_context__
    assert state.digest() == before
    [(seat, action, code, message)] = state.asked
    assert (seat, action) == (other, {"type": "vote", "guess": True})
    assert code in ("not_allowed_now", "not_your_turn")
    assert message != "The house refuses it."


def test_without_an_answer_the_generic_refusal_stands():
    state = trials(None)
    accused = state.accused
    other = (accused + 1) % state.players
    error = refused(state, other, {"type": "designate", "grabbers": []})
    assert (error.code, error.message) == (
        "not_your_turn", f"It is not your turn; waiting for seat {accused}.")
    assert state.asked == [(other, {"type": "designate", "grabbers": []}, error.code, error.message)]
    worded = tricolore.make("culottes-trials", 4, seed=3)
    assert refused(worded, other, {"type": "designate", "grabbers": []}).message == (
        f"Only the accused, seat {accused}, designates the grabbers.")
    bad = refused(state, accused, {"type": "designate", "grabbers": [accused]})
    assert bad.code == "bad_designate" and state.asked[-1][2] == "bad_designate"


def test_a_seat_not_at_the_table_a_malformed_action_and_a_finished_game_are_not_asked():
    state = trials(IllegalAction("house_rule", "the house refuses it"))
    assert refused(state, 9, {"type": "vote", "guess": True}).code == "no_such_seat"
    assert refused(state, 0, {"guess": True}).code == "malformed"
    assert refused(state, 0, ["vote"]).code == "malformed"
    state.over = True
    state.changed()
    assert refused(state, 0, {"type": "vote", "guess": True}).code == "game_over"
    assert state.asked == []


def test_a_legal_action_is_not_asked_about():
    state = trials(IllegalAction("house_rule", "the house refuses it"))
    state.apply(state.accused, {"type": "designate", "grabbers": []})
    assert state.asked == []
