"""The conformance suite every registered game runs, public so third-party games can run it too.

:func:`check_game` plays random games of many seeds and checks, at every step:

- the game asks someone while it is not over, every pending seat has a legal action, and a sampled
  action is accepted;
- views of the seats checked and of a spectator are JSON, and so are the log, result and record;
- **the leak test**: ``view(seat)`` equals ``view(seat)`` of ``determinize(seat, rng)``, so no
  field of a view depends on a secret that seat does not know; ``determinize`` leaves the real
  state untouched. Every seat is checked at every ``every_seat_every``-th step and one seat in
  rotation at the steps between (so a long game costs a few views per step, not two per seat);
- random malformed or illegal actions, and actions from seats not asked, are refused with
  :class:`IllegalAction` and leave the digest unchanged;
- ``clone()`` is independent of the original;

Play mixes free actions (transfers, agreements) by any seat into the prompted ones. At the end it
checks that the game ended within a bound, and that the record survives JSON and replays
to every digest.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tricolore.core.errors import IllegalAction
from tricolore.core.model import Game, State
from tricolore.core.record import Record, verify

_JUNK: tuple[Any, ...] = (None, -1, 0, 10**9, 2.5, "", "x" * 500, [], {}, True, [-1], "sans_culotte")


class ConformanceError(AssertionError):
    """A game broke the contract of the core model; the message says where and how."""


@dataclass(frozen=True, slots=True)
class Report:
    """What a conformance run covered."""

    games: int
    actions: int
    refusals: int
    leak_checks: int


def _json(data: object, what: str) -> str:
    try:
        return json.dumps(data, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{what} is not JSON: {exc}") from None


def _bad_actions(state: State, seat: int, good: Mapping[str, Any], rng: random.Random
                 ) -> Iterable[tuple[int, object]]:
    yield seat, "not an object"
    yield seat, {"cakes": 1}
    yield seat, {"type": "no_such_action"}
    yield seat, {**good, "unexpected_field": 1}
    for key in [k for k in good if k != "type"]:
        for junk in rng.sample(_JUNK, 3):
            yield seat, {**good, key: junk}
        yield seat, {k: v for k, v in good.items() if k != key}
    others = [s for s in range(state.players) if s not in state.pending()]
    if others:
        yield rng.choice(others), good
    yield state.players, good
    yield -1, good


def check_step(state: State, rng: random.Random, log_since: int = 0,
               seats: Iterable[int] | None = None) -> tuple[int, int]:
    """Check one position (views, leaks, refusals, clone); returns (refusals, leak checks).

    ``seats`` are leak-checked (default: all). The public log is checked from event ``log_since``
    on (earlier events were checked before).
    """
    pending = state.pending()
    if not pending:
        raise ConformanceError("the game is not over but nobody is asked to act")
    checked = list(range(state.players) if seats is None else seats)
    views = {seat: _json(state.view(seat), f"view({seat})") for seat in [None, *checked]}
    _json(state.events_for(None, log_since), "the public log")
    before = state.digest()
    for seat in checked:
        twin = state.determinize(seat, random.Random(rng.random()))
        mine = views[seat]
        theirs = _json(twin.view(seat), f"view({seat}) of a determinized state")
        if mine != theirs:
            raise ConformanceError(f"view({seat}) differs after determinize({seat}): a secret leaks "
                                   f"into the view, or determinize changes what the seat knows.\n"
                                   f"  real:         {_first_difference(mine, theirs)}")
        if twin.pending().keys() != pending.keys():
            raise ConformanceError(f"determinize({seat}) changes who is asked to act")
    if state.digest() != before:
        raise ConformanceError("determinize changed the real state")
    refused: list[tuple[int, object]] = []
    seat = min(pending)
    legal = state.legal_actions(seat)
    if not legal:
        raise ConformanceError(f"seat {seat} is pending but has no legal action")
    good = legal.sample(rng)
    for bad_seat, bad in _bad_actions(state, seat, good, rng):
        allowed = (isinstance(bad, Mapping) and 0 <= bad_seat < state.players
                   and ((bad_seat in pending and state.legal_actions(bad_seat).contains(bad))
                        or state.free_actions(bad_seat).contains(bad)))
        if allowed:
            continue
        try:
            state.apply(bad_seat, bad)  # type: ignore[arg-type]
        except IllegalAction as exc:
            if not exc.message or not exc.code:
                raise ConformanceError(f"a refusal of {bad!r} has no code or message") from None
        else:
            raise ConformanceError(f"seat {bad_seat}'s illegal action {bad!r} was accepted")
        refused.append((bad_seat, bad))
    if state.digest() != before:  # one digest for all refusals, then find the culprit
        raise ConformanceError(f"refusing {_culprit(state, refused)} changed the state")
    twin = state.clone()
    twin.apply(seat, legal.sample(rng))
    if state.digest() != before:
        raise ConformanceError("applying an action to a clone changed the original")
    return len(refused), len(checked)


def _culprit(state: State, refused: list[tuple[int, object]]) -> str:
    """Which refused action changes a state: replayed one by one on clones of ``state`` (which
    is already changed, so a culprit that changes it again is found; else all are named)."""
    for bad_seat, bad in refused:
        twin = state.clone()
        before = twin.digest()
        with contextlib.suppress(IllegalAction):
            twin.apply(bad_seat, bad)  # type: ignore[arg-type]
        if twin.digest() != before:
            return f"{bad!r} from seat {bad_seat}"
    return "one of " + ", ".join(f"{bad!r} from seat {s}" for s, bad in refused)


def random_action(state: State, rng: random.Random, free_rate: float = 0.1
                  ) -> tuple[int, dict[str, Any]]:
    """A random legal action: usually the first pending seat's, sometimes (``free_rate``) a free
    action (a transfer, an agreement) by any seat that has one."""
    if rng.random() < free_rate:
        seats = [s for s in range(state.players) if state.free_actions(s)]
        if seats:
            seat = rng.choice(seats)
            return seat, state.free_actions(seat).sample(rng)
    seat = min(state.pending())
    return seat, state.legal_actions(seat).sample(rng)


def random_play(state: State, rng: random.Random, free_rate: float = 0.1) -> Iterator[State]:
    """Play ``state`` to its end with :func:`random_action`, yielding it after every action."""
    while not state.is_over():
        state.apply(*random_action(state, rng, free_rate))
        yield state


def _first_difference(a: str, b: str) -> str:
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"...{a[max(0, i - 80):i + 80]}...\n  determinized: ...{b[max(0, i - 80):i + 80]}..."


def check_game(game: Game, players: int, seeds: Iterable[int], *, options: Any = None,
               max_actions: int = 20_000, every_seat_every: int = 4) -> Report:
    """Run the conformance suite for ``game`` with ``players`` over ``seeds``.

    Raises :class:`ConformanceError` naming the seed and step of the first failure.
    """
    games = actions = refusals = leaks = 0
    for seed in seeds:
        state = game.new(players, seed, options)
        record = Record.start(state)
        rng = random.Random(f"conformance:{seed}")
        step = log_checked = 0
        try:
            while not state.is_over():
                if step >= max_actions:
                    raise ConformanceError(f"the game has not ended after {max_actions} actions")
                seats = None if step % every_seat_every == 0 else [step % players]
                r, lk = check_step(state, rng, log_checked, seats)
                log_checked = len(state.log)
                refusals += r
                leaks += lk
                seat, action = random_action(state, rng)
                state.apply(seat, action)
                record.add(seat, action, state)
                step += 1
            result = state.result()
            _json(result.as_dict(), "the result")
            if len(result.scores) != players or not result.winners:
                raise ConformanceError("the result must score every seat and name a winner")
            for seat in [None, *range(players)]:
                _json(state.view(seat), f"final view({seat})")
            copy = Record.from_dict(json.loads(record.dumps()))
            mismatches = verify(copy)
            if mismatches:
                raise ConformanceError(f"replay differs at action {mismatches[0].index}")
        except ConformanceError as exc:
            raise ConformanceError(f"{game.info.name}, {players} players, seed {seed}, "
                                   f"step {step}: {exc}") from None
        games += 1
        actions += step
    return Report(games, actions, refusals, leaks)
