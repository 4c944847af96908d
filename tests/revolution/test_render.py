"""The terminal shows what stays on the table: the winners of past rounds."""

import re

from rich.console import Console

from tricolore.games.revolution.terminal import revolution_table


def shown(view) -> str:
    console = Console(width=200, record=True)
    for part in revolution_table(view):
        console.print(part)
    return console.export_text()


def test_the_terminal_shows_the_winners_of_past_rounds(start, bid):
    state = start(3, chips=[{"gold": 5}, {"gold": 5}, {"gold": 5}])
    assert "Winners of past rounds" not in shown(state.view(0))
    bid(state, {0: {"Printer": {"gold": 5}}, 1: {"Priest": {"gold": 5}}, 2: {"Merchant": {"gold": 5}}})
    bid(state, {0: {"Priest": {"gold": 5}}, 1: {"Printer": {"gold": 5}}, 2: {"Merchant": {"gold": 5}}})
    past = shown(state.view(0)).split("Winners of past rounds")[1]
    assert re.search(r"Printer\s*│ seat 0\s*│ seat 1\s*│", past)
    assert re.search(r"Merchant\s*│ seat 2\s*│ seat 2\s*│", past)
    assert "General" not in past  # nobody won it
