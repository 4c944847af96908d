"""How the revolutionary trials looks in the terminal: the trial in progress and the points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tricolore.core.terminal import Renderer, generic_event, secret_panel, who, whom


def trials_table(view: Mapping[str, Any]) -> list[RenderableType]:
    """The trial in progress and the points."""
    lines = [f"Trial {view['trial']} of {view['trials_total']} · accused: {who(view, view['accused'])} "
             f"· phase: {view['phase']}",
             f"Statement: {view['statement'] or '(not yet made)'}"]
    if view["first_vote"] is not None:
        lines.append("First vote: " + ", ".join(
            f"{who(view, s)}: {_guess(g)}" for s, g in enumerate(view["first_vote"]) if g is not None))
    for a in view["arguments"]:
        lines.append(f"  {who(view, a['seat'])} argues: {a['text']}")
    lines.append("Points: " + ", ".join(f"{who(view, s)}: {p}" for s, p in enumerate(view["points"])))
    if view["history"]:
        last = view["history"][-1]
        lines.append(f"Last trial ({who(view, last['accused'])} accused): the majority said "
                     f"{_guess(last['majority'])}, the truth was {_guess(last['truth'])}; grabbers "
                     f"were {whom(view, last['grabbers'])}")
    out: list[RenderableType] = [Panel("\n".join(lines), title="Revolutionary trials")]
    you = view.get("you")
    if you is not None:
        secret = [f"Your role: {you['role'] or 'not yet whispered'}"]
        if "truth" in you:
            grabbers = "not named yet" if you["grabbers"] is None else whom(view, you["grabbers"])
            secret.append(f"Grabbers: {grabbers}; the statement is "
                          f"{'not noted yet' if you['truth'] is None else you['truth']}")
        out.append(secret_panel(secret))
    return out


def _guess(g: bool) -> str:
    return "true" if g else "false"


def trials_event(event: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """One line per event of the revolutionary trials."""
    k = event["kind"]
    lines = {
        "trial_started": lambda: f"— trial {event['trial']}: {who(view, event['accused'])} is accused —",
        "your_role": lambda: f"(secret) {who(view, event['seat'])} is told: {event['role']}",
        "roles_whispered": lambda: f"{who(view, event['accused'])} has whispered everyone's role",
        "statement": lambda: f"{who(view, event['accused'])} states: « {event['statement']} »",
        "truth_noted": lambda: f"(secret) the statement is {_guess(event['truth'])}",
        "has_chosen": lambda: f"{who(view, event['seat'])} has voted",
        "first_vote": lambda: "first vote (not counted): " + ", ".join(
            f"{who(view, s)} {_guess(g)}" for s, g in enumerate(event["votes"]) if g is not None),
        "argument": lambda: f"{who(view, event['seat'])} argues: {event['text']}",
        "debate_closed": lambda: "the debate is over: second vote, for good",
        "trial_closed": lambda: (
            "second vote: " + ", ".join(f"{who(view, s)} {_guess(g)}"
                                        for s, g in enumerate(event["second_vote"]) if g is not None)
            + f"; the majority says {_guess(event['majority'])}, the truth is {_guess(event['truth'])}: "
            + ("revolutionaries score" if event["majority_right"] else "grabbers score")
            + f" (grabbers were {whom(view, event['grabbers'])})"),
        "agrees_to_end": lambda: f"{who(view, event['seat'])} "
                                 + ("agrees to stop" if event["agree"] else "no longer agrees to stop"),
        "game_over": lambda: "the tutorial is over",
    }
    return lines[k]() if k in lines else generic_event(event, view)


def trials_result(view: Mapping[str, Any]) -> list[RenderableType]:
    """Points per seat, trial by trial."""
    result = view["result"]
    table = Table(title="Revolutionary trials: points")
    table.add_column("player")
    for h in view["history"]:
        table.add_column(f"trial {h['trial']}", justify="right")
    table.add_column("total", justify="right")
    for seat, b in enumerate(result["breakdown"]):
        cells = [f"{t['points']} ({t['role'][0].upper()})" for t in b["trials"]]
        won = " WINNER" if seat in result["winners"] else ""
        table.add_row(f"{who(view, seat)}{won}", *cells, str(b["points"]))
    return [table, Text("(R) revolutionary, (G) grabber in that trial")]


RENDERER = Renderer(trials_table, trials_event, trials_result)
