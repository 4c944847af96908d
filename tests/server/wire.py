"""A random person at a table, speaking protocol version 1 over a real websocket."""

from __future__ import annotations

import itertools
import random
from typing import Any

from tests.server.conftest import Socket

SHORT = {"bread-and-circuses": {"max_rounds": 3}, "culottes": {"max_rounds": 2},
         "let-them-eat-cake": {"max_rounds": 2}, "revolution": {"max_rounds": 2},
         "culottes-trials": {"trials": 2}}
"""Options that keep a game short enough to play whole in a test."""

_ids = itertools.count()


def pick(domain: dict[str, Any], rng: random.Random) -> Any:
    """A value from a described domain, as a person filling in the page's form would choose."""
    kind = domain["kind"]
    if kind == "choice":
        return rng.choice(domain["options"])
    if kind == "amount":
        return rng.randint(domain["low"], min(domain["high"], domain["low"] + 3))
    if kind == "text":
        return "Vive la nation"[: domain["max_length"]]
    if kind == "subset":
        return rng.sample(domain["options"], rng.randint(domain["min_size"], domain["max_size"]))
    if kind == "bid":
        gold = domain["chips"].get("gold", 0)
        open_to_all = [s["name"] for s in domain["spaces"]
                       if not s["forbidden"] and (s["max_gold"] is None or s["max_gold"] >= gold)]
        return {rng.choice(open_to_all): {c: n for c, n in domain["chips"].items() if n}}
    raise AssertionError(f"no form for {kind}")


def choose(sock: Socket, rng: random.Random) -> dict[str, Any] | None:
    """An action from the socket's current prompt, asking the server for dependent domains."""
    prompt = sock.prompt
    if not prompt or not prompt["actions"]:
        return None
    family = rng.choice(prompt["actions"])
    action: dict[str, Any] = {"type": family["type"]}
    for param in family["params"]:
        if param["optional"]:
            continue
        domain = param.get("domain")
        if param.get("depends"):
            ask = f"d{next(_ids)}"
            sock.send({"type": "domain", "id": ask, "kind": family["type"], "param": param["name"],
                       "chosen": {k: v for k, v in action.items() if k != "type"}})
            reply = sock.expect_reply(ask)
            if reply["type"] != "domain":
                return None
            domain = reply["domain"]
        assert domain is not None
        action[param["name"]] = pick(domain, rng)
    return action


TABLE_FAULTS = ("not_saved", "conflict", "closed", "table_closed", "seat_gone", "seat_moved",
                "table_moved", "elsewhere", "no_such_table", "not_started")
"""Refusals from the table rather than the rules: never the answer to a stale prompt. A stale
prompt is refused by the game's own rule, whichever it is (in Let Them Eat Cake a vote asked for
after a bot has moved the game on gets ``no_vote_now``)."""


def play_until_over(socks: list[Socket], rng: random.Random, limit: int = 3000) -> int:
    """Let every person act on their prompts until the game ends; returns the actions accepted."""
    accepted = 0
    for _ in range(limit):
        for sock in socks:
            sock.drain()
        if any(s.status == "over" for s in socks):
            return accepted
        moved = False
        for sock in socks:
            action = choose(sock, rng)
            if action is None:
                continue
            reply = sock.act(action, f"a{next(_ids)}")
            moved = True
            if reply["type"] == "ack":
                accepted += 1
            else:  # a stale prompt or an unlucky choice: refused by the rules as data, nothing changed
                assert reply["type"] == "error" and reply["code"] not in TABLE_FAULTS, reply
                assert reply["message"].strip(), reply
        if not moved:
            socks[0].wait_for_update()
    raise AssertionError("the game did not end")
