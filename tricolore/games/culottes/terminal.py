"""How Culottes looks in the terminal: citizens by name, the Book of Public Safety and the deals
the engine keeps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tricolore.core.terminal import Renderer, generic_event, secret_panel, who


def _name(view: Mapping[str, Any], citizen: object) -> str:
    if isinstance(citizen, int) and 0 <= citizen < len(view["citizens"]):
        return str(view["citizens"][citizen]["name"])
    return str(citizen)


def _side(side: str) -> str:
    return side.replace("_", "-")


def culottes_table(view: Mapping[str, Any]) -> list[RenderableType]:
    """The public table, then the seat's secrets in a marked panel."""
    steps = {1: "pick citizen", 2: "buy a cockade", 3: "donate", 4: "cake vote", 6: "emigrate",
             8: "recruit"}
    head = (f"Turn {view['turn']} · round {view['rounds_completed'] + 1} · "
            f"{who(view, view['current_player'])} plays")
    if view["current_citizen"] is not None:
        head += f" {_name(view, view['current_citizen'])}"
    if view["step"] is not None:
        head += f" · step {view['step']}: {steps.get(view['step'], '')}"
    head += f" · Bastille: {view['bastille']} cakes"
    if view["last_roll"] is not None:
        head += f" · last roll {view['last_roll']}"
    if view["end_agreed"]:
        head += f" · END AGREED, final turns left: {view['final_turns_left']}"
    table = Table(title=head, expand=False)
    for col in ("#", "citizen", "player", "cakes", "cockades", "status", "scales S/P", "Bastille cakes"):
        table.add_column(col)
    mine = (view.get("you") or {}).get("citizens") or {}
    for c in view["citizens"]:
        status = {"cap": "Phrygian cap", "scale": "on trial", "none": "-"}[c["status"]]
        if c["emigrated"]:
            status += " (emigrated)"
        scales = f"{c['scales']['sans_culotte']}/{c['scales']['privileged']}" if c["scales"] else ""
        style = "bold" if str(c["id"]) in mine else ""
        table.add_row(str(c["id"]), c["name"] + (" (recruit)" if c["recruited"] else ""),
                      who(view, c["owner"]), str(c["cakes"]), str(c["cockades"]), status, scales,
                      str(c["bastille_cakes"]), style=style)
    out: list[RenderableType] = [table]
    if view["book"]:
        book = Table(title="Book of Public Safety (last rows)")
        for col in ("row", "voter", "citizen", "cakes", "side", "closed"):
            book.add_column(col)
        for r in view["book"][-6:]:
            book.add_row(str(r["row"]), _name(view, r["voter"]), _name(view, r["citizen"]),
                         str(r["cakes"]), _side(r["side"]), "" if r["closing"] is None else
                         f"#{r['closing']}")
        out.append(book)
    verdicts = [c for c in view["closings"] if c.get("verdict")][-3:]
    if verdicts:
        out.append(Text("Verdicts: " + "; ".join(
            f"{_name(view, c['citizen'])} {_side(c['verdict'])} ({c['winning_cakes']} against "
            f"{c['lost_cakes']}, turn {c['turn']})" for c in verdicts)))
    out += culottes_deals(view)
    you = view.get("you")
    if you is not None and view["phase"] != "over":
        lines = [f"Your role: {you['role'] or 'not chosen yet'}"]
        if you.get("sealed_name"):
            lines.append(f"Your first citizen's name, sealed with your role: {you['sealed_name']}")
        for cid, secret in you["citizens"].items():
            puppet = " (puppet)" if secret["puppet"] else ""
            lines.append(f"{_name(view, int(cid))}: {_side(secret['nature'])}{puppet}")
        out.append(secret_panel(lines))
    return out


def _bribe(view: Mapping[str, Any], deal_id: object) -> str:
    """A bribe named by its citizens, as the game's refusals and menus name it: "Robespierre's
    bribe to Danton"."""
    deal = next((d for d in view.get("deals", ()) if d["id"] == deal_id), None)
    if deal is None:
        return "a bribe"
    return f"{_name(view, deal['briber'])}'s bribe to {_name(view, deal['voter'])}"


def _alliance(view: Mapping[str, Any], alliance_id: object) -> str:
    """An alliance named by its side and trial: "the alliance voting privileged on Robespierre"."""
    alliance = next((a for a in view.get("alliances", ()) if a["id"] == alliance_id), None)
    if alliance is None:
        return "an alliance"
    return f"the alliance voting {_side(alliance['side'])} on {_name(view, alliance['trial'])}"


def bribe_terms(view: Mapping[str, Any], deal: Mapping[str, Any]) -> str:
    """A bribe in words: who promises what to whom."""
    return (f"{_bribe(view, deal['id'])}: vote {_side(deal['side'])} on {_name(view, deal['trial'])}; "
            f"if that side loses, up to {deal['cover']} lost cakes back and {deal['reward']} more")


def culottes_deals(view: Mapping[str, Any]) -> list[RenderableType]:
    """The live bribes and alliances, and what the escrow holds for them."""
    live = [d for d in view.get("deals", ()) if d["status"] in ("offered", "accepted")]
    allied = [a for a in view.get("alliances", ()) if a["status"] == "open"]
    escrow = view.get("escrow") or {"cakes": 0, "deposits": []}
    if not (live or allied or escrow["cakes"]):
        return []
    lines = [f"{bribe_terms(view, d)} ({d['status']})" for d in live]
    lines += [f"{_alliance(view, a['id'])[0].upper()}{_alliance(view, a['id'])[1:]}: "
              + ", ".join(_name(view, m["citizen"]) for m in a["members"]) for a in allied]
    lines.append(f"Escrow holds {escrow['cakes']} cakes: " + (", ".join(
        f"{_name(view, e['depositor'])} {e['cakes']} for "
        + (_bribe(view, e["id"]) if e["for"] == "bribe" else _alliance(view, e["id"]))
        for e in escrow["deposits"]) or "none"))
    return [Panel("\n".join(lines), title="Deals kept by the engine")]


def culottes_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event, citizens by name."""
    k = event["kind"]
    n = lambda key: _name(view, event[key])  # noqa: E731
    bribe = lambda: _bribe(view, event["deal"])  # noqa: E731
    alliance = lambda: _alliance(view, event["alliance"])  # noqa: E731
    lines = {
        "role_chosen": lambda: f"(secret) {who(view, event['seat'])} plays as a {event['role']}",
        "citizens_named": lambda: "citizens: " + ", ".join(
            f"{name} ({who(view, view['citizens'][i]['owner'])})" for i, name in enumerate(event["names"])),
        "has_chosen": lambda: f"{who(view, event['seat'])} has chosen",
        "turn_ended": lambda: f"{who(view, event['seat'])}'s turn ends",
        "turn_started": lambda: f"— turn {event['turn']}: {who(view, event['seat'])} —",
        "vive_la_revolution": lambda: f"{n('citizen')}: « Vive la révolution ! »",
        "cockade_bought": lambda: f"{n('citizen')} buys a cockade",
        "donated": lambda: f"{n('citizen')} donates {event['cakes']} cakes to the Bastille",
        "cake_vote": lambda: f"{n('voter')} votes {event['cakes']} cakes that {n('citizen')} is "
                             f"{_side(event['side'])}",
        "die_rolled": lambda: f"the die shows {event['roll']}"
                              + (": the trial closes!" if event["closes_trial"] else ""),
        "trial_closed": lambda: f"verdict on {n('citizen')}: {_side(event['verdict'])} "
                                f"({event['winning_cakes']} against {event['lost_cakes']}); rewards: "
                                + ", ".join(f"{_name(view, r['voter'])} +{r['returned']}+{r['reward']}"
                                            for r in event["rewards"]),
        "emigrated": lambda: f"{n('citizen')} emigrates",
        "passed": lambda: f"{n('citizen')} passes",
        "recruited": lambda: f"{who(view, event['seat'])} recruits {event['name']}",
        "recruit_nature": lambda: f"(secret) {n('citizen')} is {_side(event['nature'])}"
                                  + (", a puppet" if event["puppet"] else ""),
        "bastille_distribution": lambda: "the Bastille feeds " + ", ".join(
            _name(view, c) for c in event["citizens"]),
        "agrees_to_end": lambda: f"{who(view, event['seat'])} "
                                 + ("agrees to end" if event["agree"] else "no longer agrees to end"),
        "end_agreed": lambda: "all players agree to end: everyone plays one last turn",
        "cakes_given": lambda: f"{_name(view, event['giver'])} gives {event['cakes']} cakes to "
                               f"{_name(view, event['receiver'])}",
        "trial_abandoned": lambda: f"the open trial of {n('citizen')} ends without verdict; "
                                   "cakes go back to their voters",
        "game_over": lambda: f"the game is over: {event['reason']}",
        "bribe_offered": lambda: f"{n('briber')} offers {n('voter')} a bribe: vote "
                                 f"{_side(event['side'])} on {n('trial')}, and if that side loses, up "
                                 f"to {event['cover']} lost cakes back and {event['reward']} more; "
                                 f"{event['deposit']} cakes go into escrow",
        "bribe_accepted": lambda: f"{n('voter')} accepts {bribe()}: it binds until the trial closes",
        "bribe_declined": lambda: f"{n('voter')} declines {bribe()}; "
                                  f"{event['returned']} cakes come back from escrow",
        "bribe_withdrawn": lambda: f"{n('briber')} withdraws {bribe()}; "
                                   f"{event['returned']} cakes come back from escrow",
        "bribe_lapsed": lambda: f"{bribe()} lapses; {event['returned']} cakes come back from escrow",
        "bribe_settled": lambda: (
            f"{bribe()} kept: {n('voter')} voted the promised side and lost, and gets "
            f"{event['reimbursed']} cakes back and {event['reward']} more; "
            if event["reimbursed"] or event["reward"] else
            f"{bribe()} settled: nothing owed to {n('voter')}; ")
            + f"{event['returned']} cakes back to {n('briber')}",
        "alliance_founded": lambda: f"{n('founder')} founds an alliance in the trial of {n('trial')}: "
                                    f"members vote {_side(event['side'])}",
        "alliance_joined": lambda: f"{n('citizen')} joins {alliance()}, 1 cake into escrow",
        "alliance_settled": lambda: f"{alliance()} settled: loyal "
                                    + (", ".join(_name(view, c) for c in event["loyal"]) or "none")
                                    + "; forfeited by "
                                    + (", ".join(_name(view, c) for c in event["disloyal"]) or "none")
                                    + f" ({event['forfeited']} cakes shared among the loyal)",
        "alliance_dissolved": lambda: f"{alliance()} is dissolved; "
                                      f"{event['returned']} cakes come back from escrow",
    }
    return lines[k]() if k in lines else generic_event(event, view)


def culottes_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """The full reveal and each player's score breakdown."""
    result = view["result"]
    out: list[RenderableType] = []
    for seat, b in enumerate(result["breakdown"]):
        won = " — WINNER" if seat in result["winners"] else ""
        t = Table(title=f"{who(view, seat)}: {b['role']}, score {b['score']}{won}")
        for col in ("citizen", "nature", "cakes", "cockades", "cockade cost", "Bastille cakes", "score"):
            t.add_column(col)
        for c in b["citizens"]:
            t.add_row(c["name"] + (" (puppet)" if c["puppet"] else ""), _side(c["nature"]),
                      str(c["cakes"]), str(c["cockades"]), str(c["cockade_cost"]),
                      str(c["bastille_cakes"]), str(c["score"]))
        out.append(t)
        out.append(Text(f"  {b['combined']} of citizens; recruits: {b['recruits']} "
                        f"(cost {b['recruit_cost']}); Bastille to sans-culottes "
                        f"{b['bastille_to_sans_culottes']}, to privileged {b['bastille_to_privileged']}"))
    return out


RENDERER = Renderer(culottes_table, culottes_event, culottes_result)
