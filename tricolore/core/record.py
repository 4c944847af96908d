"""Records: a game as its name, rules version, players, seed, options and ordered actions.

A record replays to the same state, digest for digest. Records are the unit of persistence,
export, replay and bug reports; they are plain JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tricolore.core.errors import IllegalAction, OptionsError, RecordError
from tricolore.core.model import Seat, State, copy_json
from tricolore.core.registry import get_game

RECORD_FORMAT = 1


@dataclass(slots=True)
class Record:
    """A replayable game. ``digests[i]`` is the state's digest after ``actions[i]``, if kept."""

    game: str
    rules_version: str
    players: int
    seed: int
    options: dict[str, Any]
    actions: list[tuple[Seat, dict[str, Any]]] = field(default_factory=list)
    digests: list[str] | None = None

    @classmethod
    def start(cls, state: State, keep_digests: bool = True) -> Record:
        """An empty record for a state just made by its game's ``new``."""
        return cls(state.info.name, state.info.rules_version, state.players, state.seed,
                   state.options.as_dict(),  # type: ignore[attr-defined]
                   [], [] if keep_digests else None)

    def add(self, seat: Seat, action: Mapping[str, Any], state: State | None = None) -> None:
        """Append an accepted action (a copy of it); with ``state``, also its digest after the
        action."""
        self.actions.append((seat, copy_json(action)))
        if self.digests is not None:
            if state is None:
                raise ValueError("this record keeps digests: pass the state after the action")
            self.digests.append(state.digest())

    def as_dict(self) -> dict[str, Any]:
        """The record as JSON."""
        out: dict[str, Any] = {
            "format": RECORD_FORMAT, "game": self.game, "rules_version": self.rules_version,
            "players": self.players, "seed": self.seed, "options": self.options,
            "actions": [[s, a] for s, a in self.actions]}
        if self.digests is not None:
            out["digests"] = self.digests
        return out

    def dumps(self) -> str:
        """The record as a JSON text."""
        return json.dumps(self.as_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """A record from JSON data; malformed data raises :class:`RecordError` with a sentence."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        for key, kind in (("game", str), ("rules_version", str), ("players", int), ("seed", int),
                          ("actions", list)):
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise RecordError(f"the record's {key!r} is missing or of the wrong type")
        actions = []
        for i, item in enumerate(data["actions"]):
            if (not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int
                    or not isinstance(item[1], dict)):
                raise RecordError(f"action {i} must be [seat, {{...}}]")
            actions.append((item[0], item[1]))
        digests = data.get("digests")
        if digests is not None and (not isinstance(digests, list) or len(digests) != len(actions)):
            raise RecordError("the record's digests must list one digest per action")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("the record's options must be a JSON object")
        return cls(data["game"], data["rules_version"], data["players"], data["seed"], options,
                   actions, digests)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record from a JSON file."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None

    def save(self, path: str | Path) -> None:
        """Write the record as a JSON file."""
        Path(path).write_text(self.dumps(), encoding="utf-8")


def new_state(record: Record) -> State:
    """The record's game at its start."""
    game = get_game(record.game)
    if record.rules_version != game.info.rules_version:
        raise RecordError(f"the record was made under {record.game} rules version "
                          f"{record.rules_version}; this build has {game.info.rules_version}")
    try:
        return game.new(record.players, record.seed, record.options)
    except OptionsError as exc:
        raise RecordError(f"the record's set-up is refused: {exc}") from None


def _apply(state: State, index: int, seat: Seat, action: dict[str, Any]) -> None:
    try:
        state.apply(seat, action)
    except IllegalAction as exc:
        raise RecordError(f"action {index} by seat {seat} is refused: {exc.message}") from None


def replay_steps(record: Record) -> Iterator[tuple[int, State]]:
    """Each action of the record applied in turn: yields (action index, state after it)."""
    state = new_state(record)
    for i, (seat, action) in enumerate(record.actions):
        _apply(state, i, seat, action)
        yield i, state


def replay(record: Record) -> State:
    """The state at the end of the record."""
    state = new_state(record)
    for i, (seat, action) in enumerate(record.actions):
        _apply(state, i, seat, action)
    return state


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A digest that differs on replay."""

    index: int
    expected: str
    actual: str


def verify(record: Record) -> list[Mismatch]:
    """Replay the record and compare each digest; an empty list means it verifies."""
    if record.digests is None:
        raise RecordError("the record keeps no digests to verify")
    mismatches = []
    for i, state in replay_steps(record):
        actual = state.digest()
        if actual != record.digests[i]:
            mismatches.append(Mismatch(i, record.digests[i], actual))
    return mismatches
