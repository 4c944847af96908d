"""How Revolution! looks in the terminal: the Bidding Chart, the areas and each player's chips."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table

from tricolore.core.terminal import Renderer, generic_event, secret_panel, who

_CHIP = {"force": "F", "blackmail": "B", "gold": "G"}


def _chips(chips: Mapping[str, int]) -> str:
    return " ".join(f"{n}{_CHIP[c]}" for c, n in chips.items() if n) or "-"


def revolution_table(view: Mapping[str, Any]) -> list[RenderableType]:
    """The Bidding Chart with the last revealed bids, the areas, each player's chips and support;
    then the seat's sealed bid in a marked panel."""
    players = view["players"]
    title = (f"Round {view['round']} · {view['phase']} · edition {view['edition']}"
             + (f" · deck {view['deck']}" if view["edition"] == "seed" else ""))
    chart = Table(title=title)
    chart.add_column("#")
    chart.add_column("space")
    chart.add_column("gives (+support)")
    chart.add_column("not with")
    for s in range(players):
        chart.add_column(who(view, s))
    chart.add_column("won by")
    results = {r["space"]: r for r in view["resolved"]}
    for i, space in enumerate(view["chart"], 1):
        gives = [f"+{space['support']}"] if space["support"] else []
        gives += [_chips(space["chips"])] if space["chips"] else []
        gives += [space["area"]] if space["area"] else []
        gives += [space["special"]] if space["special"] else []
        bids = [_chips(((view["revealed"] or [{}] * players)[s] or {}).get(space["name"], {}))
                for s in range(players)]
        result = results.get(space["name"])
        won = "" if result is None else ("-" if result["winner"] is None else who(view, result["winner"]))
        chart.add_row(str(i), space["name"], " ".join(gives),
                      ", ".join(_CHIP[c] for c in space["forbidden"]), *bids, won)
    areas = Table(title="Areas (markers per seat)")
    for col in ("area", "spaces", "support", *(who(view, s) for s in range(players))):
        areas.add_column(col)
    for a in view["areas"]:
        areas.add_row(a["name"], f"{sum(a['markers'])}/{a['spaces']}", str(a["support"]),
                      *(str(n) for n in a["markers"]))
    seats = Table(title="Players")
    for col in ("player", "chips", "support", "bid"):
        seats.add_column(col)
    chosen = set((view["bids"] or {}).get("chosen", []))
    for s in range(players):
        status = "placed" if s in chosen else ("placing" if view["bids"] else "")
        seats.add_row(who(view, s), _chips(view["chips"][s]), str(view["support"][s]), status,
                      style="bold" if s == view["seat"] else "")
    out: list[RenderableType] = [chart, areas, seats]
    past = view.get("past_rounds") or []
    if past:
        out.append(_revolution_past_rounds(view, past[-_PAST_ROUNDS_SHOWN:]))
    you = view.get("you")
    if you is not None and you["sealed_bid"] is not None:
        out.append(secret_panel([f"{space}: {_chips(c)}" for space, c in you["sealed_bid"].items()]))
    return out


_PAST_ROUNDS_SHOWN = 4


def _revolution_past_rounds(view: Mapping[str, Any], past: list[Mapping[str, Any]]) -> Table:
    """Who won each space in the latest past rounds (a dash: nobody); a space nobody won in
    those rounds is left out."""
    table = Table(title="Winners of past rounds")
    table.add_column("space")
    for r in past:
        table.add_column(f"round {r['round']}")
    for i, space in enumerate(view["chart"]):
        winners = [r["winners"][i] for r in past]
        if any(w is not None for w in winners):
            table.add_row(space["name"], *("-" if w is None else who(view, w) for w in winners))
    return table


def revolution_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event."""
    k = event["kind"]
    lines = {
        "round_started": lambda: f"— round {event['round']} — chips: " + ", ".join(
            f"{who(view, s)} {_chips(c)}" for s, c in enumerate(event["chips"])),
        "topped_up": lambda: f"{who(view, event['seat'])} tops up with {event['gold']} Gold",
        "has_chosen": lambda: f"{who(view, event['seat'])} has placed a bid",
        "bids_revealed": lambda: "shields down: " + "; ".join(
            f"{who(view, s)}: " + ", ".join(f"{sp} {_chips(c)}" for sp, c in p.items())
            for s, p in enumerate(event["bids"]) if p is not None),
        "space_resolved": lambda: f"{event['space']}: " + (
            "tie, nobody" if event["tie"] else "no bid" if event["winner"] is None
            else f"{who(view, event['winner'])}"),
        "influence_placed": lambda: f"{who(view, event['seat'])} places a marker in the {event['area']}",
        "area_full": lambda: f"the {event['area']} is full: no marker for {who(view, event['seat'])}",
        "no_markers_left": lambda: f"{who(view, event['seat'])} has no markers left",
        "spy": lambda: f"the Spy: {who(view, event['seat'])} replaces {who(view, event['victim'])}'s marker "
                       f"in the {event['area']}",
        "apothecary": lambda: f"the Apothecary: {who(view, event['seat'])} swaps "
                              f"{who(view, event['first_owner'])}'s marker in the {event['first_area']} with "
                              f"{who(view, event['second_owner'])}'s in the {event['second_area']}",
        "declined": lambda: f"{who(view, event['seat'])} does not use the {event['power']}",
        "card_drawn": lambda: f"{who(view, event['seat'])} draws {event['title']}",
        "deck_reshuffled": lambda: "the deck is reshuffled",
        "influence_removed": lambda: (f"{who(view, event['seat'])} removes "
                                      f"{who(view, event['victim'])}'s marker from the {event['area']}"),
        "round_resolved": lambda: f"support: {event['support']}",
        "game_over": lambda: "the game is over",
    }
    return lines[k]() if k in lines else generic_event(event, view)


def revolution_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """The support track, each area won, leftover chips, and the total."""
    result = view["result"]
    table = Table(title="Revolution!: popular support")
    for col in ("player", "track", "areas won", "leftover chips", "total"):
        table.add_column(col)
    for s in result["ranking"]:
        b = result["breakdown"][s]
        won = " WINNER" if s in result["winners"] else ""
        areas = ", ".join(f"{a} {v}" for a, v in b["areas"].items()) or "-"
        table.add_row(f"{who(view, s)}{won}", str(b["track"]), areas, str(b["leftover_chips"]),
                      str(b["score"]))
    return [table]


RENDERER = Renderer(revolution_table, revolution_event, revolution_result)
