"""The named Revolution! strategies play legal, finished games and do what their docs say."""

import random

import pytest

import tricolore
from tricolore.agents import make_agent
from tricolore.core import ActionSpace
from tricolore.games.revolution.bots import AreaControl, PrinterFirst, area_points
from tricolore.games.revolution.data import Phase
from tricolore.sim.runner import play_game


def play(seed, seats, edition="seed"):
    game = tricolore.get_game("revolution")
    return play_game(game.new(len(seats), seed, {"edition": edition}),
                     [make_agent(game, s) for s in seats]).state


@pytest.mark.parametrize("edition", ["seed", "sjg"])
def test_named_strategies_finish_games_in_both_editions(edition):
    for seed in range(15):
        state = play(seed, ["printer-first", "area-control", "printer-first", "area-control"], edition)
        assert state.is_over() and state.end_reason == "board_full"


def test_printer_first_puts_its_force_on_the_printer():
    state = tricolore.make("revolution", 3, seed=1)
    action = PrinterFirst().act(state.view(0), state.legal_actions(0), random.Random(0))
    assert action["placement"]["Printer"].get("force") == 1


def test_area_control_uses_the_spy_for_the_biggest_swing():
    state = tricolore.make("revolution", 3, seed=1)
    state.board["Fortress"] = [2, 3, 0]
    state.board["Tavern"] = [1, 2, 0]
    state.phase, state.decider = Phase.SPY, 0
    state.changed()
    action = AreaControl().act(state.view(0), state.legal_actions(0), random.Random(0))
    assert action == {"type": "spy", "area": "Fortress", "victim": 1}  # 3-2 for seat 1 becomes 3-2 for 0


def test_area_points_count_only_plurality_winners():
    board = {a: [0, 0, 0] for a in ("Tavern", "Market", "Plantation", "Cathedral", "Harbor",
                                    "Town Hall", "Fortress")}
    board["Cathedral"] = [3, 2, 2]
    board["Fortress"] = [1, 1, 0]
    assert area_points(board, 0) == 35 and area_points(board, 1) == -35


def test_area_control_beats_printer_first_and_random_over_many_games():
    wins = {"area-control": 0.0, "printer-first": 0.0, "random": 0.0}
    seats = ["area-control", "printer-first", "random", "random"]
    for seed in range(40):
        state = play(seed, seats)
        for w in state.result().winners:
            wins[seats[w]] += 1 / len(state.result().winners)
    assert wins["area-control"] > wins["printer-first"] > wins["random"]


def test_bots_only_send_legal_actions():
    state = tricolore.make("revolution", 4, seed=3)
    for bot in (PrinterFirst(), AreaControl()):
        legal = state.legal_actions(0)
        assert isinstance(legal, ActionSpace) and legal.contains(bot.act(state.view(0), legal,
                                                                         random.Random(1)))


def test_both_strategies_decline_the_spy_when_no_choice_improves_their_area_support():
    state = tricolore.make("revolution", 3, seed=1)
    for area in state.board:
        state.board[area] = [0, 0, 0]
    state.board["Fortress"] = [3, 1, 0]  # seat 0 already wins the Fortress alone
    state.phase, state.decider = Phase.SPY, 0
    state.changed()
    for bot in (PrinterFirst(), AreaControl()):
        assert bot.act(state.view(0), state.legal_actions(0), random.Random(0)) == {"type": "decline"}


def test_printer_first_values_a_character_by_support_and_chips_and_a_card_at_two_and_a_half():
    view = tricolore.make("revolution", 3, seed=1).view(0)
    printer = next(s for s in view["chart"] if s["name"] == "Printer")
    card = next(s for s in view["chart"] if s["special"] == "card")
    assert PrinterFirst().space_value(view, card) == 2.5
    assert PrinterFirst().space_value(view, printer) >= 10


def test_area_control_values_an_area_within_reach_above_one_lost_or_full():
    state = tricolore.make("revolution", 3, seed=1)
    view = state.view(0)
    space = next(s for s in view["chart"] if s["area"] is not None)
    area = space["area"]
    open_value = AreaControl().space_value(view, space)
    state.board[area] = [0, 2, 0]  # trails by two: out of reach
    state.changed()
    assert AreaControl().space_value(state.view(0), space) < open_value
