"""The terminal board of Culottes shows what stays on the table: verdicts and the sealed name."""

import re

from rich.console import Console

import tricolore
from tricolore.games.culottes.terminal import RENDERER


def shown(view):
    console = Console(width=120, record=True)
    for part in RENDERER.table(view):
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


def test_the_board_shows_live_deals_and_the_escrow_with_citizens_names_and_events_in_words():
    state = tricolore.make("culottes", 3, seed=0, first_player=0, chance={"randint": [1] * 20})
    for seat, name in enumerate(["Robespierre", "Danton", "Marat"]):
        state.apply(seat, {"type": "choose_role", "role": "grabber", "name": name})
    state.apply(0, {"type": "cake_vote", "citizen": 0, "side": "sans_culotte", "cakes": 2})
    state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1,
                    "side": "sans_culotte", "reward": 1, "cover": 3})
    state.apply(2, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 2})
    console = Console(width=250, record=True)
    for part in RENDERER.table(state.view(None)):
        console.print(part)
    text = console.export_text()
    assert ("Robespierre's bribe to Danton: vote sans-culotte on Robespierre; if that side loses, "
            "up to 3 lost cakes back and 1 more (offered)") in text
    assert "The alliance voting privileged on Robespierre: Marat" in text
    assert ("Escrow holds 5 cakes: Robespierre 4 for Robespierre's bribe to Danton, Marat 1 for the "
            "alliance voting privileged on Robespierre") in text
    lines = [RENDERER.event(e, state.view(None)) for e in state.events_for(None)[-3:]]
    assert lines == [
        "Robespierre offers Danton a bribe: vote sans-culotte on Robespierre, and if that side "
        "loses, up to 3 lost cakes back and 1 more; 4 cakes go into escrow",
        "Marat founds an alliance in the trial of Robespierre: members vote privileged",
        "Marat joins the alliance voting privileged on Robespierre, 1 cake into escrow"]
    assert not re.search(r"(?:bribe|alliance) \d", text + " ".join(lines))
    assert "seat" not in " ".join(lines)
