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

from tricolore.core.actions import rebuilt
from tricolore.core.chance import ChanceError, check_script
from tricolore.core.errors import IllegalAction, OptionsError, RecordError
from tricolore.core.inputs import RECORD_DEPTH, InputError, loads
from tricolore.core.model import Seat, State, copy_json
from tricolore.core.registry import get_game

RECORD_FORMAT = 1
MAX_RECORD_BYTES = 64 << 20
"""Largest record file read; a long game's record is well under a megabyte."""


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
    chance: dict[str, list[Any]] | None = None
    """The script of chance the game started with, if any (see :mod:`tricolore.core.chance`)."""

    @classmethod
    def start(cls, state: State, keep_digests: bool = True) -> Record:
        """An empty record for a state just made by its game's ``new``."""
        return cls(state.info.name, state.info.rules_version, state.players, state.seed,
                   state.options.as_dict(),  # type: ignore[attr-defined]
                   [], [] if keep_digests else None, state.chance_script())

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
        if self.chance is not None:
            out["chance"] = self.chance
        return out

    def dumps(self) -> str:
        """The record as a JSON text."""
        return json.dumps(self.as_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """A record from JSON data; malformed data raises :class:`RecordError` with a sentence.

        ``format`` may be left out (it is then the current one); a format this build does not
        know, such as one written by a newer build, is refused.
        """
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        form = data.get("format", RECORD_FORMAT)
        if type(form) is not int:
            raise RecordError(f"the record's 'format' must be a whole number, not {form!r:.40}")
        if form != RECORD_FORMAT:
            raise RecordError(f"the record is in format {form}, and this build reads only format "
                              f"{RECORD_FORMAT}")
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
        if digests is not None and (not isinstance(digests, list) or len(digests) != len(actions)
                                    or not all(isinstance(d, str) for d in digests)):
            raise RecordError("the record's digests must list one digest (a text) per action")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("the record's options must be a JSON object")
        chance = data.get("chance")
        if chance is not None:
            try:
                chance = check_script(chance)
            except ChanceError as exc:
                raise RecordError(f"the record's chance: {exc}") from None
        return cls(data["game"], data["rules_version"], data["players"], data["seed"], options,
                   actions, digests, chance)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record from a JSON file (UTF-8); every refusal is a :class:`RecordError`
        naming the file."""
        try:
            with Path(path).open("rb") as file:
                raw = file.read(MAX_RECORD_BYTES + 1)
            if len(raw) > MAX_RECORD_BYTES:
                raise RecordError(f"{path} is not a record: it is larger than "
                                  f"{MAX_RECORD_BYTES >> 20} MB")
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{path} is not a record: byte {exc.start} is not UTF-8 text") from None
        except IsADirectoryError:
            raise RecordError(f"cannot read {path}: it is a folder") from None
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            data = loads(text, RECORD_DEPTH)
        except InputError as exc:
            if exc.malformed:
                raise RecordError(f"{path} is not JSON: {exc}") from None
            raise RecordError(f"{path} is not a record: {exc}") from None
        try:
            return cls.from_dict(data)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None

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
        return game.new(record.players, record.seed, record.options, chance=record.chance)
    except (OptionsError, ChanceError) as exc:
        raise RecordError(f"the record's set-up is refused: {exc}") from None


def _apply(state: State, index: int, seat: Seat, action: dict[str, Any]) -> None:
    try:
        state.apply(seat, action)
    except IllegalAction as exc:
        raise RecordError(f"action {index} by seat {seat} is refused: {exc.message}") from None
    except ChanceError as exc:
        raise RecordError(f"action {index} by seat {seat} draws against the record's chance: {exc}") from None


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

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


@dataclass(frozen=True, slots=True)
class Verification:
    """What replaying a record found: the digests that differ, and whether the game is over
    after the record's last action (a record that stops early is not a whole game)."""

    mismatches: list[Mismatch]
    over: bool

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)


def check_record(record: Record) -> Verification:
    """Replay the record, comparing each digest, and see whether it reaches the game's end."""
    if record.digests is None:
        raise RecordError("the record keeps no digests to verify")
    mismatches = []
    state = new_state(record)
    for i, (seat, action) in enumerate(record.actions):
        _apply(state, i, seat, action)
        actual = state.digest()
        if actual != record.digests[i]:
            mismatches.append(Mismatch(i, record.digests[i], actual))
    return Verification(mismatches, state.is_over())


def verify(record: Record) -> list[Mismatch]:
    """Replay the record and compare each digest; an empty list means it verifies."""
    return check_record(record).mismatches
