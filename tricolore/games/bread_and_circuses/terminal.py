"""How Bread and Circuses looks in the terminal: each noble's Gold, disclosure and tile, and the deals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tricolore.core.terminal import Renderer, generic_event, secret_panel, who, whom


def bread_terms(condition: Mapping[str, Any]) -> str:
    """A deal's condition in words: "play bread", "play any tile but abstain" or "disclose
    honestly", and the round it is about."""
    if "play" in condition:
        what = f"play {condition['play']}"
    elif "any_but" in condition:
        what = f"play any tile but {condition['any_but']}"
    else:
        what = "disclose honestly"
    return f"{what} in round {condition['round']}"


def bread_table(view: Mapping[str, Any]) -> list[RenderableType]:
    """Each noble's Gold, disclosure, Sabotage hand size and tile; the deals; then the seat's
    secrets in a marked panel."""
    title = (f"Round {view['round']} · {view['phase'].replace('_', ' ')} · Riot Counter "
             f"{view['riots']}/5 · Gold to win {view['gold_to_end']} · first player "
             f"{view['first_player']}")
    if view["counts"] is not None:
        title += f" · Breads {view['counts']['breads']}, Circuses {view['counts']['circuses']}"
    if view["tie_break"]:
        title += " · tied for the most Gold: the first round with one richest player ends the game"
    table = Table(title=title)
    for col in ("player", "Gold", "disclosure", "ready", "Sabotage", "tile", "counts as"):
        table.add_column(col)
    for s in range(view["players"]):
        disclosure = view["disclosures"][s] or ("barred" if s in view["barred"] else "-")
        tile = view["tiles"][s] if view["tiles"] else "-"
        counts = view["counts_as"][s] if view["counts_as"] else "-"
        table.add_row(who(view, s), str(view["gold"][s]), disclosure, "yes" if view["ready"][s] else "",
                      f"{view['sabotage_cards'][s]} cards", tile, counts,
                      style="bold" if s == view["seat"] else "")
    out: list[RenderableType] = [table]
    last = view.get("last_round")
    if last is not None and view["tiles"] is None:  # this round's tiles not shown yet
        tiles = ", ".join(f"{who(view, s)} {t}" + (f" (as {c})" if c != t else "")
                          for s, (t, c) in enumerate(zip(last["tiles"], last["counts_as"], strict=True)))
        out.append(Text(f"Round {last['round']}: {tiles} · {last['counts']['breads']} Bread, "
                        f"{last['counts']['circuses']} Circus · " + ("riot" if last["riot"] else "no riot")))
    live = [d for d in view["deals"] if d["status"] in ("offered", "accepted")]
    if live:
        out.append(Text("Deals: " + "; ".join(
            f"#{d['id']} {who(view, d['payer'])} pays {who(view, d['payee'])} {d['amount']} Gold if they "
            f"{bread_terms(d['condition'])} ({d['status']}, "
            f"{'offered' if d['offered_by'] == d['payer'] else 'asked'} by {who(view, d['offered_by'])})"
            for d in live)))
    you = view.get("you")
    if you is not None and view["phase"] != "over":
        lines = [f"Your Sabotage cards: {', '.join(you['sabotage']) or 'none'}"]
        if you["disclosed_tile"]:
            lines.append(f"Your disclosed tile: {you['disclosed_tile']}")
        if you["sealed_tile"]:
            lines.append(f"Your tile: {you['sealed_tile']}")
        for target, tile in enumerate(you["informant"]):
            if tile is not None:
                lines.append(f"Your informant says {who(view, target)} disclosed {tile}")
        out.append(secret_panel(lines))
    return out


def bread_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event."""
    k = event["kind"]
    lines = {
        "sabotage_dealt": lambda: f"(secret) {who(view, event['seat'])}'s Sabotage cards: "
                                  + ", ".join(event["cards"]),
        "round_started": lambda: f"— round {event['round']} — Gold {event['gold']}, "
                                 f"riots {event['riots']}",
        "disclosed": lambda: f"{who(view, event['seat'])} discloses on the {event['icon']} icon",
        "disclosed_tile": lambda: f"(secret) the tile is {event['tile']}",
        "disclosure_taken_back": lambda: f"{who(view, event['seat'])} takes their disclosure back",
        "ready": lambda: f"{who(view, event['seat'])} is ready",
        "ready_withdrawn": lambda: f"{who(view, event['seat'])} is not ready after all",
        "ready_cleared": lambda: f"{who(view, event['by'])}'s change: "
                                 + whom(view, event["seats"]) + " must say ready again",
        "negotiation_over": lambda: "negotiation is over",
        "has_chosen": lambda: f"{who(view, event['seat'])} has placed a tile",
        "tiles_revealed": lambda: "tiles: " + ", ".join(
            f"{who(view, s)} {t}" + (" (honest)" if h else "")
            for s, (t, h) in enumerate(zip(event["tiles"], event["honest"], strict=True))),
        "sabotage_played": lambda: f"{who(view, event['seat'])} plays {event['card']}"
                                   + ("" if event["target"] is None else f" on {who(view, event['target'])}"),
        "informant_report": lambda: f"(secret) {who(view, event['target'])} disclosed {event['tile']}",
        "riot_check": lambda: ("RIOT! " if event["riot"] else "no riot: ")
                              + f"{event['breads']} Bread, {event['circuses']} Circus",
        "round_scored": lambda: "Gold paid: " + ", ".join(
            f"{who(view, s)} {p['paid']:+d}" for s, p in enumerate(event["payouts"]))
            + (f" · the Riot Counter moves {event['riot_advance']}" if event["riot"] else ""),
        "gold_given": lambda: f"{who(view, event['giver'])} gives {event['gold']} Gold to "
                              f"{who(view, event['receiver'])}",
        "deal_offered": lambda: (
            f"deal #{event['id']}: {who(view, event['payer'])} offers {who(view, event['payee'])} "
            if event["offered_by"] == event["payer"] else
            f"deal #{event['id']}: {who(view, event['payee'])} asks {who(view, event['payer'])} for ")
            + f"{event['amount']} Gold to {bread_terms(event['condition'])}",
        "deal_accepted": lambda: f"deal #{event['deal']} accepted: it binds both",
        "deal_declined": lambda: f"deal #{event['deal']} declined",
        "deal_withdrawn": lambda: f"deal #{event['deal']} withdrawn",
        "deal_lapsed": lambda: f"deal #{event['deal']} lapsed",
        "deal_settled": lambda: f"deal #{event['id']} " + (
            f"paid: {event['paid']} Gold to {who(view, event['payee'])}" if event["status"] == "paid"
            else "lapsed: the condition was not met"),
        "tie_plays_on": lambda: f"a tie at {event['gold']} Gold: play goes on",
        "game_over": lambda: f"the game is over ({event['reason']})",
    }
    return lines[k]() if k in lines else generic_event(event, view)


def bread_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """Gold per noble, round by round."""
    result = view["result"]
    table = Table(title="Bread and Circuses: Gold")
    table.add_column("player")
    rounds = len(result["breakdown"][0]["rounds"])
    for r in range(max(0, rounds - 8), rounds):
        table.add_column(f"r{r + 1}", justify="right")
    table.add_column("Gold", justify="right")
    for s in result["ranking"]:
        b = result["breakdown"][s]
        won = " WINNER" if s in result["winners"] else ""
        table.add_row(f"{who(view, s)}{won}", *(f"{g:+d}" for g in b["rounds"][-8:]), str(b["gold"]))
    return [table]


RENDERER = Renderer(bread_table, bread_event, bread_result)
