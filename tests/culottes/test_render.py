"""The terminal board of Culottes shows what stays on the table: verdicts and the sealed name."""

from rich.console import Console

import tricolore
from tricolore.cli.render import RENDERERS


def shown(view):
    console = Console(width=120, record=True)
    for part in RENDERERS["culottes"].table(view):
        console.print(part)
    return console.export_text()


def test_the_board_shows_past_verdicts_and_the_name_sealed_with_the_role():
    state = tricolore.make("culottes", 3, seed=0, first_player=0, chance={"randint": [6]})
    state.apply(0, {"type": "choose_role", "role": "grabber", "name": "Danton"})
    assert "sealed with your role: Danton" in shown(state.view(0))
    assert "Danton" not in shown(state.view(1))
    state.apply(1, {"type": "choose_role", "role": "revolutionary", "name": "Marat"})
    state.apply(2, {"type": "choose_role", "role": "revolutionary", "name": "Olympe"})
    state.apply(0, {"type": "cake_vote", "citizen": 1, "side": "privileged", "cakes": 3})
    assert "Verdicts: Marat privileged (3 against 0, turn 1)" in shown(state.view(None))
