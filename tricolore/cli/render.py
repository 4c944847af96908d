"""Terminal rendering of views, events and results, one renderer per game with a generic fallback.

A game's renderer is a pair of functions: ``table(view) -> list of rich renderables`` and
``event(event, view) -> str``. Register it in :data:`RENDERERS` under the game's name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text


@dataclass(frozen=True, slots=True)
class Renderer:
    """How one game looks in the terminal."""

    table: Callable[[Mapping[str, Any]], list[RenderableType]]
    event: Callable[[Mapping[str, Any], Mapping[str, Any]], str]
    result: Callable[[Mapping[str, Any]], list[RenderableType]]


def _generic_table(view: Mapping[str, Any]) -> list[RenderableType]:
    return [Panel(json.dumps(view, indent=1, ensure_ascii=False), title="view")]


def _generic_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "to"))
    return f"{event['kind']}: {fields}"


def _generic_result(view: Mapping[str, Any]) -> list[RenderableType]:
    result = view.get("result") or {}
    table = Table(title="Scores")
    table.add_column("seat")
    table.add_column("score", justify="right")
    for seat, score in enumerate(result.get("scores", [])):
        table.add_row(str(seat), str(score))
    return [table]


def secret_panel(lines: list[str]) -> Panel:
    """The seat's own secrets, in the panel every game marks the same way."""
    return Panel("\n".join(lines), title="SECRET: only you see this", border_style="red")


# -- Culottes ------------------------------------------------------------------------------------
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
    head = (f"Turn {view['turn']} · round {view['rounds_completed'] + 1} · seat "
            f"{view['current_player']} plays")
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
    for col in ("#", "citizen", "seat", "cakes", "cockades", "status", "scales S/P", "Bastille cakes"):
        table.add_column(col)
    mine = (view.get("you") or {}).get("citizens") or {}
    for c in view["citizens"]:
        status = {"cap": "Phrygian cap", "scale": "on trial", "none": "-"}[c["status"]]
        if c["emigrated"]:
            status += " (emigrated)"
        scales = f"{c['scales']['sans_culotte']}/{c['scales']['privileged']}" if c["scales"] else ""
        style = "bold" if str(c["id"]) in mine else ""
        table.add_row(str(c["id"]), c["name"] + (" (recruit)" if c["recruited"] else ""),
                      str(c["owner"]), str(c["cakes"]), str(c["cockades"]), status, scales,
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


def bribe_terms(view: Mapping[str, Any], deal: Mapping[str, Any]) -> str:
    """A bribe in words: who promises what to whom."""
    return (f"bribe {deal['id']}: {_name(view, deal['briber'])} to {_name(view, deal['voter'])}, "
            f"vote {_side(deal['side'])} on {_name(view, deal['trial'])}; if that side loses, up to "
            f"{deal['cover']} lost cakes back and {deal['reward']} more")


def culottes_deals(view: Mapping[str, Any]) -> list[RenderableType]:
    """The live bribes and alliances, and what the escrow holds for them."""
    live = [d for d in view.get("deals", ()) if d["status"] in ("offered", "accepted")]
    allied = [a for a in view.get("alliances", ()) if a["status"] == "open"]
    escrow = view.get("escrow") or {"cakes": 0, "deposits": []}
    if not (live or allied or escrow["cakes"]):
        return []
    lines = [f"{bribe_terms(view, d)} ({d['status']})" for d in live]
    lines += [f"alliance {a['id']} in the trial of {_name(view, a['trial'])}: members vote "
              f"{_side(a['side'])}: " + ", ".join(_name(view, m["citizen"]) for m in a["members"])
              for a in allied]
    lines.append(f"Escrow holds {escrow['cakes']} cakes: " + (", ".join(
        f"{_name(view, e['depositor'])} {e['cakes']} for {e['for']} {e['id']}"
        for e in escrow["deposits"]) or "none"))
    return [Panel("\n".join(lines), title="Deals kept by the engine")]


def culottes_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event, citizens by name."""
    k = event["kind"]
    n = lambda key: _name(view, event[key])  # noqa: E731
    lines = {
        "role_chosen": lambda: f"(secret) seat {event['seat']} plays as a {event['role']}",
        "citizens_named": lambda: "citizens: " + ", ".join(
            f"{name} (seat {view['citizens'][i]['owner']})" for i, name in enumerate(event["names"])),
        "has_chosen": lambda: f"seat {event['seat']} has chosen",
        "turn_ended": lambda: f"seat {event['seat']}'s turn ends",
        "turn_started": lambda: f"— turn {event['turn']}: seat {event['seat']} —",
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
        "recruited": lambda: f"seat {event['seat']} recruits {event['name']}",
        "recruit_nature": lambda: f"(secret) {n('citizen')} is {_side(event['nature'])}"
                                  + (", a puppet" if event["puppet"] else ""),
        "bastille_distribution": lambda: "the Bastille feeds " + ", ".join(
            _name(view, c) for c in event["citizens"]),
        "agrees_to_end": lambda: f"seat {event['seat']} "
                                 + ("agrees to end" if event["agree"] else "no longer agrees to end"),
        "end_agreed": lambda: "all players agree to end: everyone plays one last turn",
        "cakes_given": lambda: f"{_name(view, event['giver'])} gives {event['cakes']} cakes to "
                               f"{_name(view, event['receiver'])}",
        "trial_abandoned": lambda: f"the open trial of {n('citizen')} ends without verdict; "
                                   "cakes go back to their voters",
        "game_over": lambda: f"the game is over: {event['reason']}",
        "bribe_offered": lambda: f"{n('briber')} offers {n('voter')} a bribe ({event['deal']}): vote "
                                 f"{_side(event['side'])} on {n('trial')}, and if that side loses, up "
                                 f"to {event['cover']} lost cakes back and {event['reward']} more; "
                                 f"{event['deposit']} cakes go into escrow",
        "bribe_accepted": lambda: f"{n('voter')} accepts bribe {event['deal']}: it binds until the "
                                  "trial closes",
        "bribe_declined": lambda: f"{n('voter')} declines bribe {event['deal']}; "
                                  f"{event['returned']} cakes come back from escrow",
        "bribe_withdrawn": lambda: f"{n('briber')} withdraws bribe {event['deal']}; "
                                   f"{event['returned']} cakes come back from escrow",
        "bribe_lapsed": lambda: f"bribe {event['deal']} lapses; {event['returned']} cakes come back "
                                "from escrow",
        "bribe_settled": lambda: (
            f"bribe {event['deal']} kept: {n('voter')} voted the promised side and lost, and gets "
            f"{event['reimbursed']} cakes back and {event['reward']} more; "
            if event["reimbursed"] or event["reward"] else
            f"bribe {event['deal']} settled: nothing owed to {n('voter')}; ")
            + f"{event['returned']} cakes back to {n('briber')}",
        "alliance_founded": lambda: f"{n('founder')} founds alliance {event['alliance']} in the trial "
                                    f"of {n('trial')}: members vote {_side(event['side'])}",
        "alliance_joined": lambda: f"{n('citizen')} joins alliance {event['alliance']}, 1 cake into "
                                   "escrow",
        "alliance_settled": lambda: f"alliance {event['alliance']} settled: loyal "
                                    + (", ".join(_name(view, c) for c in event["loyal"]) or "none")
                                    + "; forfeited by "
                                    + (", ".join(_name(view, c) for c in event["disloyal"]) or "none")
                                    + f" ({event['forfeited']} cakes shared among the loyal)",
        "alliance_dissolved": lambda: f"alliance {event['alliance']} is dissolved; "
                                      f"{event['returned']} cakes come back from escrow",
    }
    return lines[k]() if k in lines else _generic_event(event, view)


def culottes_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """The full reveal and each player's score breakdown."""
    result = view["result"]
    out: list[RenderableType] = []
    for seat, b in enumerate(result["breakdown"]):
        won = " — WINNER" if seat in result["winners"] else ""
        t = Table(title=f"Seat {seat}: {b['role']}, score {b['score']}{won}")
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


# -- Revolutionary trials ------------------------------------------------------------------------
def trials_table(view: Mapping[str, Any]) -> list[RenderableType]:
    """The trial in progress and the points."""
    lines = [f"Trial {view['trial']} of {view['trials_total']} · accused: seat {view['accused']} "
             f"· phase: {view['phase']}",
             f"Statement: {view['statement'] or '(not yet made)'}"]
    if view["first_vote"] is not None:
        lines.append("First vote: " + ", ".join(
            f"seat {s}: {_guess(g)}" for s, g in enumerate(view["first_vote"]) if g is not None))
    for a in view["arguments"]:
        lines.append(f"  seat {a['seat']} argues: {a['text']}")
    lines.append("Points: " + ", ".join(f"seat {s}: {p}" for s, p in enumerate(view["points"])))
    if view["history"]:
        last = view["history"][-1]
        lines.append(f"Last trial (seat {last['accused']} accused): the majority said "
                     f"{_guess(last['majority'])}, the truth was {_guess(last['truth'])}; grabbers "
                     f"were seats {last['grabbers']}")
    out: list[RenderableType] = [Panel("\n".join(lines), title="Revolutionary trials")]
    you = view.get("you")
    if you is not None:
        secret = [f"Your role: {you['role'] or 'not yet whispered'}"]
        if "truth" in you:
            secret.append(f"Grabbers: {you['grabbers']}; the statement is "
                          f"{'not noted yet' if you['truth'] is None else you['truth']}")
        out.append(secret_panel(secret))
    return out


def _guess(g: bool) -> str:
    return "true" if g else "false"


def trials_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event of the revolutionary trials."""
    k = event["kind"]
    lines = {
        "trial_started": lambda: f"— trial {event['trial']}: seat {event['accused']} is accused —",
        "your_role": lambda: f"(secret) seat {event['seat']} is told: {event['role']}",
        "roles_whispered": lambda: f"seat {event['accused']} has whispered everyone's role",
        "statement": lambda: f"seat {event['accused']} states: « {event['statement']} »",
        "truth_noted": lambda: f"(secret) the statement is {_guess(event['truth'])}",
        "has_chosen": lambda: f"seat {event['seat']} has voted",
        "first_vote": lambda: "first vote (not counted): " + ", ".join(
            f"seat {s} {_guess(g)}" for s, g in enumerate(event["votes"]) if g is not None),
        "argument": lambda: f"seat {event['seat']} argues: {event['text']}",
        "debate_closed": lambda: "the debate is over: second vote, for good",
        "trial_closed": lambda: (
            "second vote: " + ", ".join(f"seat {s} {_guess(g)}"
                                        for s, g in enumerate(event["second_vote"]) if g is not None)
            + f"; the majority says {_guess(event['majority'])}, the truth is {_guess(event['truth'])}: "
            + ("revolutionaries score" if event["majority_right"] else "grabbers score")
            + f" (grabbers were seats {event['grabbers']})"),
        "agrees_to_end": lambda: f"seat {event['seat']} "
                                 + ("agrees to stop" if event["agree"] else "no longer agrees to stop"),
        "game_over": lambda: "the tutorial is over",
    }
    return lines[k]() if k in lines else _generic_event(event, view)


def trials_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """Points per seat, trial by trial."""
    result = view["result"]
    table = Table(title="Revolutionary trials: points")
    table.add_column("seat")
    for h in view["history"]:
        table.add_column(f"trial {h['trial']}", justify="right")
    table.add_column("total", justify="right")
    for seat, b in enumerate(result["breakdown"]):
        cells = [f"{t['points']} ({t['role'][0].upper()})" for t in b["trials"]]
        won = " WINNER" if seat in result["winners"] else ""
        table.add_row(f"{seat}{won}", *cells, str(b["points"]))
    return [table, Text("(R) revolutionary, (G) grabber in that trial")]


# -- Let Them Eat Cake ---------------------------------------------------------------------------
_OFFICES = {"head": "Head of Committee", "enemy": "Enemy of the Revolution",
            "operator": "Guillotine Operator", "secretary": "Secretary", "inspector": "Food Inspector"}
_CAKE_PHASES = {"coup": "coup window", "ballot": "vote", "tie": "the Head breaks a tie",
                "rigging": "rigging window", "head_medal": "the Head's Medal",
                "guillotine": "execute or mercy", "seize": "seize window",
                "deal": "the Secretary deals", "inspect": "the Food Inspector",
                "donate": "donations", "over": "game over"}


def _who(view: Mapping[str, Any], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < view["players"]:
        return f"{view['colours'][seat]} ({seat})"
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
    for col in ("seat", "office", "Pawns", "votes", "Medals", "Generals", "stash", "hand/used"):
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
    return lines[k]() if k in lines else _generic_event(event, view)


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


# -- Revolution! ---------------------------------------------------------------------------------
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
        chart.add_column(f"seat {s}")
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
        won = "" if result is None else ("-" if result["winner"] is None else f"seat {result['winner']}")
        chart.add_row(str(i), space["name"], " ".join(gives),
                      ", ".join(_CHIP[c] for c in space["forbidden"]), *bids, won)
    areas = Table(title="Areas (markers per seat)")
    for col in ("area", "spaces", "support", *(f"seat {s}" for s in range(players))):
        areas.add_column(col)
    for a in view["areas"]:
        areas.add_row(a["name"], f"{sum(a['markers'])}/{a['spaces']}", str(a["support"]),
                      *(str(n) for n in a["markers"]))
    seats = Table(title="Players")
    for col in ("seat", "chips", "support", "bid"):
        seats.add_column(col)
    chosen = set((view["bids"] or {}).get("chosen", []))
    for s in range(players):
        status = "placed" if s in chosen else ("placing" if view["bids"] else "")
        seats.add_row(str(s), _chips(view["chips"][s]), str(view["support"][s]), status,
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
            table.add_row(space["name"], *("-" if w is None else f"seat {w}" for w in winners))
    return table


def revolution_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event."""
    k = event["kind"]
    lines = {
        "round_started": lambda: f"— round {event['round']} — chips: " + ", ".join(
            f"seat {s} {_chips(c)}" for s, c in enumerate(event["chips"])),
        "topped_up": lambda: f"seat {event['seat']} tops up with {event['gold']} Gold",
        "has_chosen": lambda: f"seat {event['seat']} has placed a bid",
        "bids_revealed": lambda: "shields down: " + "; ".join(
            f"seat {s}: " + ", ".join(f"{sp} {_chips(c)}" for sp, c in p.items())
            for s, p in enumerate(event["bids"]) if p is not None),
        "space_resolved": lambda: f"{event['space']}: " + (
            "tie, nobody" if event["tie"] else "no bid" if event["winner"] is None
            else f"seat {event['winner']}"),
        "influence_placed": lambda: f"seat {event['seat']} places a marker in the {event['area']}",
        "area_full": lambda: f"the {event['area']} is full: no marker for seat {event['seat']}",
        "no_markers_left": lambda: f"seat {event['seat']} has no markers left",
        "spy": lambda: f"the Spy: seat {event['seat']} replaces seat {event['victim']}'s marker "
                       f"in the {event['area']}",
        "apothecary": lambda: f"the Apothecary: seat {event['seat']} swaps seat "
                              f"{event['first_owner']}'s marker in the {event['first_area']} with "
                              f"seat {event['second_owner']}'s in the {event['second_area']}",
        "declined": lambda: f"seat {event['seat']} does not use the {event['power']}",
        "card_drawn": lambda: f"seat {event['seat']} draws {event['title']}",
        "deck_reshuffled": lambda: "the deck is reshuffled",
        "influence_removed": lambda: f"seat {event['seat']} removes seat {event['victim']}'s marker "
                                     f"from the {event['area']}",
        "round_resolved": lambda: f"support: {event['support']}",
        "game_over": lambda: "the game is over",
    }
    return lines[k]() if k in lines else _generic_event(event, view)


def revolution_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """The support track, each area won, leftover chips, and the total."""
    result = view["result"]
    table = Table(title="Revolution!: popular support")
    for col in ("seat", "track", "areas won", "leftover chips", "total"):
        table.add_column(col)
    for s in result["ranking"]:
        b = result["breakdown"][s]
        won = " WINNER" if s in result["winners"] else ""
        areas = ", ".join(f"{a} {v}" for a, v in b["areas"].items()) or "-"
        table.add_row(f"seat {s}{won}", str(b["track"]), areas, str(b["leftover_chips"]),
                      str(b["score"]))
    return [table]


# -- Bread and Circuses --------------------------------------------------------------------------
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
    for col in ("seat", "Gold", "disclosure", "ready", "Sabotage", "tile", "counts as"):
        table.add_column(col)
    for s in range(view["players"]):
        disclosure = view["disclosures"][s] or ("barred" if s in view["barred"] else "-")
        tile = view["tiles"][s] if view["tiles"] else "-"
        counts = view["counts_as"][s] if view["counts_as"] else "-"
        table.add_row(str(s), str(view["gold"][s]), disclosure, "yes" if view["ready"][s] else "",
                      f"{view['sabotage_cards'][s]} cards", tile, counts,
                      style="bold" if s == view["seat"] else "")
    out: list[RenderableType] = [table]
    last = view.get("last_round")
    if last is not None and view["tiles"] is None:  # this round's tiles not shown yet
        tiles = ", ".join(f"seat {s} {t}" + (f" (as {c})" if c != t else "")
                          for s, (t, c) in enumerate(zip(last["tiles"], last["counts_as"], strict=True)))
        out.append(Text(f"Round {last['round']}: {tiles} · {last['counts']['breads']} Bread, "
                        f"{last['counts']['circuses']} Circus · " + ("riot" if last["riot"] else "no riot")))
    live = [d for d in view["deals"] if d["status"] in ("offered", "accepted")]
    if live:
        out.append(Text("Deals: " + "; ".join(
            f"#{d['id']} seat {d['payer']} pays seat {d['payee']} {d['amount']} Gold if they "
            f"{bread_terms(d['condition'])} ({d['status']}, "
            f"{'offered' if d['offered_by'] == d['payer'] else 'asked'} by seat {d['offered_by']})"
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
                lines.append(f"Your informant says seat {target} disclosed {tile}")
        out.append(secret_panel(lines))
    return out


def bread_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event."""
    k = event["kind"]
    lines = {
        "sabotage_dealt": lambda: f"(secret) seat {event['seat']}'s Sabotage cards: "
                                  + ", ".join(event["cards"]),
        "round_started": lambda: f"— round {event['round']} — Gold {event['gold']}, "
                                 f"riots {event['riots']}",
        "disclosed": lambda: f"seat {event['seat']} discloses on the {event['icon']} icon",
        "disclosed_tile": lambda: f"(secret) the tile is {event['tile']}",
        "disclosure_taken_back": lambda: f"seat {event['seat']} takes their disclosure back",
        "ready": lambda: f"seat {event['seat']} is ready",
        "ready_withdrawn": lambda: f"seat {event['seat']} is not ready after all",
        "ready_cleared": lambda: f"seat {event['by']}'s change: seat"
                                 + ("s " if len(event["seats"]) > 1 else " ")
                                 + ", ".join(map(str, event["seats"])) + " must say ready again",
        "negotiation_over": lambda: "negotiation is over",
        "has_chosen": lambda: f"seat {event['seat']} has placed a tile",
        "tiles_revealed": lambda: "tiles: " + ", ".join(
            f"seat {s} {t}" + (" (honest)" if h else "")
            for s, (t, h) in enumerate(zip(event["tiles"], event["honest"], strict=True))),
        "sabotage_played": lambda: f"seat {event['seat']} plays {event['card']}"
                                   + ("" if event["target"] is None else f" on seat {event['target']}"),
        "informant_report": lambda: f"(secret) seat {event['target']} disclosed {event['tile']}",
        "riot_check": lambda: ("RIOT! " if event["riot"] else "no riot: ")
                              + f"{event['breads']} Bread, {event['circuses']} Circus",
        "round_scored": lambda: "Gold paid: " + ", ".join(
            f"seat {s} {p['paid']:+d}" for s, p in enumerate(event["payouts"]))
            + (f" · the Riot Counter moves {event['riot_advance']}" if event["riot"] else ""),
        "gold_given": lambda: f"seat {event['giver']} gives {event['gold']} Gold to "
                              f"seat {event['receiver']}",
        "deal_offered": lambda: (
            f"deal #{event['id']}: seat {event['payer']} offers seat {event['payee']} "
            if event["offered_by"] == event["payer"] else
            f"deal #{event['id']}: seat {event['payee']} asks seat {event['payer']} for ")
            + f"{event['amount']} Gold to {bread_terms(event['condition'])}",
        "deal_accepted": lambda: f"deal #{event['deal']} accepted: it binds both",
        "deal_declined": lambda: f"deal #{event['deal']} declined",
        "deal_withdrawn": lambda: f"deal #{event['deal']} withdrawn",
        "deal_lapsed": lambda: f"deal #{event['deal']} lapsed",
        "deal_settled": lambda: f"deal #{event['id']} " + (
            f"paid: {event['paid']} Gold to seat {event['payee']}" if event["status"] == "paid"
            else "lapsed: the condition was not met"),
        "tie_plays_on": lambda: f"a tie at {event['gold']} Gold: play goes on",
        "game_over": lambda: f"the game is over ({event['reason']})",
    }
    return lines[k]() if k in lines else _generic_event(event, view)


def bread_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """Gold per noble, round by round."""
    result = view["result"]
    table = Table(title="Bread and Circuses: Gold")
    table.add_column("seat")
    rounds = len(result["breakdown"][0]["rounds"])
    for r in range(max(0, rounds - 8), rounds):
        table.add_column(f"r{r + 1}", justify="right")
    table.add_column("Gold", justify="right")
    for s in result["ranking"]:
        b = result["breakdown"][s]
        won = " WINNER" if s in result["winners"] else ""
        table.add_row(f"seat {s}{won}", *(f"{g:+d}" for g in b["rounds"][-8:]), str(b["gold"]))
    return [table]


RENDERERS: dict[str, Renderer] = {
    "culottes": Renderer(culottes_table, culottes_event, culottes_result),
    "culottes-trials": Renderer(trials_table, trials_event, trials_result),
    "let-them-eat-cake": Renderer(cake_table, cake_event, cake_result),
    "revolution": Renderer(revolution_table, revolution_event, revolution_result),
    "bread-and-circuses": Renderer(bread_table, bread_event, bread_result),
}
GENERIC = Renderer(_generic_table, _generic_event, _generic_result)


def renderer(game: str) -> Renderer:
    """The game's renderer, or the generic one."""
    return RENDERERS.get(game, GENERIC)
