"""A game's batched path: many games played at once (in numpy, say) rather than one by one.

A game that has one declares ``BATCH``, a :class:`BatchPath`, in a ``batch.py`` beside its rules;
``tricolore simulate GAME --batch`` plays it (:func:`tricolore.core.registry.companions` finds it).
Its rows are those of any other run: each game's seed, scores, winners, length and metrics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tricolore.core.record import Record


class BatchPlayed(Protocol):
    """What a batch played."""

    def rows(self) -> Iterator[dict[str, Any]]:
        """One plain row per game, in seed order: ``seed``, ``scores`` (one per seat),
        ``winners`` (seats), ``actions`` (the game's length in decisions) and ``metrics``."""
        ...

    def records(self) -> list[Record]:
        """Every game as a record the engine replays (when played with ``records``)."""
        ...


@dataclass(frozen=True, slots=True)
class BatchPath:
    """A game's batched path: the strategies it plays, and how it plays a batch.

    ``play(games, players, seed, lineups, options, records)`` plays ``games`` games of ``players``,
    game ``i`` with seed ``seed + i`` and the line-up ``lineups[i]`` (one strategy per seat), under
    the table's ``options``; with ``records`` it keeps what :meth:`BatchPlayed.records` needs. Bad
    arguments raise ``ValueError`` or :class:`~tricolore.core.errors.OptionsError` with a sentence.
    """

    strategies: tuple[str, ...]
    play: Callable[[int, int, int, Sequence[Sequence[str]], Mapping[str, Any], bool], BatchPlayed]
