"""How Let Them Eat Cake looks in the terminal: the Committee, players by colour."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tricolore.core.terminal import SEAT_NAMES, Renderer, generic_event, secret_panel, who

_OFFICES = {"head": "Head of Committee", "enemy": "Enemy of the Revolution",
            "operator": "Guillotine Operator", "secretary": "Secretary", "inspector": "Food Inspector"}
_CAKE_PHASES = {"coup": "coup window", "ballot": "vote", "tie": "the Head breaks a tie",
                "rigging": "rigging window", "head_medal": "the Head's Medal",
                "guillotine": "execute or mercy", "seize": "seize window",
                "deal": "the Secretary deals", "inspect": "the Food Inspector",
                "donate": "donations", "over": "game over"}


def _who(view: Mapping[str, Any], seat: object) -> str:
    """A player by name and colour ("Marat (Red)"), or by colour alone where the view was given no
    names: the colour is who a player is at the table (its Pawns, its voting cards)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < view["players"]:
        colour = view["colours"][seat]
        return f"{who(view, seat)} ({colour})" if SEAT_NAMES in view else colour
    return str(seat)


def cake_table(view: Mapping[str, Any]) -> list[RenderableType]:
    """The Committee: each player's Pawns, Medals, Generals and stash size; this round's cards and
    the Food Inspector's verdict; the last ballot; then the seat's secrets in a marked panel."""
    election = view["election"]
    head = (f"Round {view['round']} · Head: {_who(view, view['head'])} · "
            f"{_CAKE_PHASES.get(view['phase'], view['phase'])}")
    if election is not None and view["phase"] != "over":
        head += f" · electing the {election['title']}"
        if election["vote_number"] > 1:
            head += f" (vote {election['vote_number']})"
    head += (f" · Pantry {view['pantry']} · Medals in the centre {view['centre_medals']} · "
             f"starter Generals {view['starter_generals_pile']}")
    table = Table(title=head)
    for col in ("player", "office", "Pawns", "votes", "Medals", "Generals", "stash", "hand/used"):
        table.add_column(col)
    offices: dict[int, list[str]] = {}
    for office, seat in view["offices"].items():
        offices.setdefault(seat, []).append(_OFFICES[office])
    for s in range(view["players"]):
        g = view["generals"][s]
        pawns = str(view["pawns"][s]) + (" (1 on the Guillotine)" if view["guillotine"] == s else "")
        table.add_row(_who(view, s), ", ".join(offices.get(s, [])), pawns, str(view["votes"][s]),
                      str(view["medals"][s]), f"{g['pantry'] + g['starter']}",
                      f"{view['stash_cards'][s]} cards",
                      f"{view['hand_cards'][s]}/{view['used_cards'][s]}",
                      style="bold" if s == view["seat"] else "")
    out: list[RenderableType] = [table]
    if view["draw"]:
        verdict = {"safe": " · the batch is safe", "unsafe": " · the batch is UNSAFE"}
        out.append(Text("This round's cards: " + ", ".join(
            f"#{c['card']} {c['name']}" + ("" if c["to"] is None else
                                           f" → {_who(view, c['to'])}" + (" (seized)" if c["seized"]
                                                                         else ""))
            for c in view["draw"]) + verdict.get(view["inspection"] or "", "")))
    ballot = view["last_ballot"]
    if ballot is not None:
        out.append(Text(f"Last ballot ({_OFFICES[ballot['office']]}): " + ", ".join(
            f"{_who(view, s)} → {_who(view, c)}" for s, c in enumerate(ballot["cards"])
            if c is not None)))
    you = view.get("you")
    if you is not None and view["phase"] != "over":
        lines = [f"Your stash: {you['stash']} = {you['cakes']} cakes",
                 "Your hand: " + ", ".join(_who(view, c) for c in you["hand"]),
                 "Used: " + (", ".join(_who(view, c) for c in you["used"]) or "none")]
        if you["sealed_vote"] is not None:
            lines.append(f"Your sealed vote: {_who(view, you['sealed_vote'])}")
        received = you["received"]
        if received is not None:
            lines.append(f"Your card this round: {received['name']}"
                         + (" (in your stash)" if received["in_stash"] else ""))
        out.append(secret_panel(lines))
    return out


def cake_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event, players by colour."""
    k = event["kind"]
    w = lambda key: _who(view, event[key])  # noqa: E731
    lines = {
        "game_started": lambda: f"the Head of Committee token goes to {w('head')}",
        "starter_cakes": lambda: f"(secret) {w('seat')}'s starter Cakes: {event['cakes']}",
        "round_started": lambda: f"— round {event['round']} —",
        "election_opened": lambda: f"election of the {_OFFICES[event['office']]}",
        "has_chosen": lambda: f"{w('seat')} has played a Voting card",
        "ballot_revealed": lambda: "votes: " + (", ".join(
            f"{_who(view, s)} → {_who(view, c)}" for s, c in enumerate(event["cards"])
            if c is not None) if "cards" in event else "(memory mode)") + " · tally " + ", ".join(
            f"{_who(view, c)} {v}" for c, v in enumerate(event["tally"]) if v),
        "tie_broken": lambda: f"the Head {w('head')} breaks the tie for {w('winner')}",
        "vote_result": lambda: f"{w('winner')} wins the vote",
        "coup": lambda: f"COUP! {w('seat')} names {w('winner')} {_OFFICES[event['office']]}",
        "vote_rigging_alleged": lambda: f"{w('seat')} alleges vote rigging: the vote is held again",
        "generals_spent": lambda: f"{w('seat')} spends {event['generals']} Generals"
                                  + (" and a Medal" if event["medal"] else ""),
        "elected": lambda: f"{w('seat')} is {_OFFICES[event['office']]}",
        "unity_rule": lambda: "unity! Medals lost by " + (", ".join(
            _who(view, s) for s in event["lost_medal"]) or "nobody"),
        "head_medal": lambda: f"the Head takes {event['gained']} Medal from the centre",
        "medal_awarded": lambda: f"the Head awards a Medal to {w('seat')}",
        "medal_removed": lambda: f"the Head removes a Medal from {w('seat')}",
        "enemy_candidates": lambda: "fewest Medals: " + ", ".join(
            _who(view, s) for s in event["candidates"])
            + ("" if event["immune"] is None else f" ({_who(view, event['immune'])} has the army)"),
        "enemy_of_the_revolution": lambda: f"{w('seat')} is the Enemy: a Pawn to the Guillotine",
        "executed": lambda: f"{w('operator')} executes {w('seat')}'s Pawn"
                            + (" — KILLED" if event["pawns"] == 0 else
                               f" ({event['medals']} Medals back"
                               + (", a General" if event["general"] else "") + ")"),
        "mercy": lambda: f"{w('operator')} shows mercy and loses a Medal",
        "pantry_drawn": lambda: "the Secretary draws: " + ", ".join(event["cards"]),
        "cake_seized": lambda: f"{w('seat')} seizes card #{event['card']}",
        "card_dealt": lambda: f"card #{event['card']} goes to {w('receiver')}",
        "batch_inspected": lambda: "the batch is " + ("safe" if event["safe"] else "UNSAFE"),
        "let_them_eat_cake": lambda: f"\"Let them eat cake!\" cries {w('seat')}, donating "
                                     f"Cake {event['value']}" + (
            "" if event["took_medal_from"] is None else
            f" and taking a Medal from {w('took_medal_from')}"),
        "hand_refreshed": lambda: f"{w('seat')} takes back their Voting cards",
        "medals_given": lambda: f"{w('giver')} gives {event['medals']} Medals to {w('receiver')}",
        "generals_given": lambda: f"{w('giver')} gives {event['generals']} Generals to "
                                  f"{w('receiver')}",
        "cakes_given": lambda: f"{w('giver')} gives {event['cards']} Cake cards to {w('receiver')}",
        "cake_values_given": lambda: f"(secret) the Cake cards were worth {event['values']}",
        "game_over": lambda: f"the game is over ({event['reason']})",
    }
    return lines[k]() if k in lines else generic_event(event, view)


def cake_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """Every stash revealed, ranked: alive, cake, Pawns, Generals."""
    result = view["result"]
    reason = {"cake": "a stash reached the winning cakes", "death": "a player was killed",
              "pantry": "the Pantry ran out", "rounds": "the last round was played"}
    table = Table(title=f"Let Them Eat Cake: {reason.get(view['end_reason'], view['end_reason'])}")
    for col in ("seat", "alive", "cakes", "Cake cards", "Pawns", "Generals", "Medals"):
        table.add_column(col)
    for s in result["ranking"]:
        b = result["breakdown"][s]
        won = " WINNER" if s in result["winners"] else ""
        table.add_row(_who(view, s) + won, "yes" if b["alive"] else "KILLED", str(b["cakes"]),
                      str(b["cake_cards"]), str(b["pawns"]), str(b["generals"]), str(b["medals"]))
    return [table]


RENDERER = Renderer(cake_table, cake_event, cake_result)
