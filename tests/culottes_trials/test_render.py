"""The terminal board of the revolutionary trials keeps the last trial's outcome in sight."""

from rich.console import Console

import tricolore
from tricolore.core.terminal import named
from tricolore.games.culottes_trials.terminal import RENDERER


def test_the_board_shows_the_last_trials_majority_truth_and_grabbers():
    state = tricolore.make("culottes-trials", 3, seed=0, first_accused=0)
    state.apply(0, {"type": "designate", "grabbers": []})
    state.apply(0, {"type": "state", "statement": "I have candy in my pocket", "truth": True})
    for seat in (1, 2):
        state.apply(seat, {"type": "vote", "guess": False})
    for seat in list(state.pending()):
        state.apply(seat, {"type": "pass"})
    for seat in (1, 2):
        state.apply(seat, {"type": "vote", "guess": False})
    console = Console(width=160, record=True)
    for part in RENDERER.table(named(state.view(None), ["Marat", "Danton", "Olympe"])):
        console.print(part)
    assert ("Last trial (Marat accused): the majority said false, the truth was true; grabbers "
            "were Marat") in console.export_text()
