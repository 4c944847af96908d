"""Culottes keeps its families of free actions, and the parts of its view, from one position to the
next while what they are made of is unchanged (``State.kept``): in every position of many random
games, with deals made often, what a seat is offered must read exactly as what a fresh copy, which
keeps nothing, works out anew (the kinds, every parameter's choices and labels, the refusals of a
bad value, and every dependent domain), and the view read only (which shares the parts that did not
change) must be the view made anew, and the secrets read only those made anew."""

from __future__ import annotations

import json
import random
from typing import Any

import tricolore
from tricolore.core.actions import ActionSpace, Domain


def reading(space: ActionSpace, rng: random.Random) -> list[Any]:
    """All a seat can learn of ``space``: its steps, each fixed domain's refusal of a value no
    domain holds, and the dependent domains along a few random choices."""
    out: list[Any] = [space.steps()]
    for family in space.families:
        for name, spec in family.params.items():
            if isinstance(spec, Domain):
                out.append((family.kind, name, spec.problem(name, -7)))
        for _ in range(3):
            chosen: dict[str, Any] = {}
            for name in family.params:
                domain = family.domain(name, chosen)
                out.append((family.kind, name, domain.describe(), domain.problem(name, -7)))
                values = domain.values()
                if not values:
                    break
                chosen[name] = rng.choice(list(values))
    return out


def test_kept_free_actions_and_views_read_as_those_worked_out_anew():
    positions = 0
    for seed in range(12):
        state = tricolore.make("culottes", 3 + seed % 3, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_over():
                break
            for seat in range(state.players):
                fresh = state.clone()  # keeps nothing
                seen = reading(state.free_actions(seat), random.Random(positions))
                assert seen == reading(fresh.free_actions(seat), random.Random(positions)), (seed, seat)
                assert state.view(seat) == fresh.view(seat), (seed, seat)
                assert state.read_only_private_view(seat) == fresh.private_view(seat), (seed, seat)
                positions += 1
            assert state.read_only_public_view() == state.clone().public_view(), seed
            seat = rng.choice(sorted(state.pending()))
            legal, free = state.legal_actions(seat), state.free_actions(seat)
            # deals and gifts half of the time, so that bribes and alliances pile up
            space = free if free and rng.random() < 0.5 else legal
            if not space:
                space = legal
            state.apply(seat, space.sample(rng))
    assert positions > 5000


def test_a_view_read_only_stays_as_it_was_handed_out_while_the_game_goes_on():
    """The parts a read-only view shares with later ones (Book rows, closings, deals, alliances,
    the escrow) are replaced when they change, never changed in place: every view handed out,
    public or a seat's secrets, still reads at the end of the game as it did when it was handed
    out."""
    handed: list[tuple[dict[str, Any], str]] = []
    for seed in range(4):
        state = tricolore.make("culottes", 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            if state.is_over():
                break
            view = state.read_only_public_view()
            handed.append((view, json.dumps(view, sort_keys=True)))
            for secret in map(state.read_only_private_view, range(state.players)):
                handed.append((secret, json.dumps(secret, sort_keys=True)))
            seat = rng.choice(sorted(state.pending()))
            legal, free = state.legal_actions(seat), state.free_actions(seat)
            space = free if free and rng.random() < 0.5 else legal
            state.apply(seat, (space or legal).sample(rng))
        view = state.read_only_public_view()
        handed.append((view, json.dumps(view, sort_keys=True)))
    assert any(view.get("alliances") and view["escrow"]["deposits"] for view, _ in handed)
    alliances = [a for view, _ in handed for a in view.get("alliances", ())]
    assert any(a["status"] != "open" for a in alliances) and any(len(a["members"]) > 1 for a in alliances)
    for view, text in handed:
        assert json.dumps(view, sort_keys=True) == text
