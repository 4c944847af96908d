"""The table options of Revolution!, and their bounds.

Kept apart from the rules so that they stay ordinary Python classes in the compiled build:
a table reads their field types and the docstring under each field (the lobby's help).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from tricolore.core import Options, OptionsError
from tricolore.games.revolution.data import EDITIONS

MAX_ROUNDS = 1000
"""The upper bound of ``max_rounds``."""


@dataclass(frozen=True, slots=True)
class RevolutionOptions(Options):
    """Table options; the defaults are the seed edition's rules."""

    choices: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({"edition": tuple(EDITIONS)})
    edition: str = "seed"
    """``"seed"``: the rulebook's edition; ``"sjg"``: the published edition (Steve Jackson Games)."""
    max_rounds: int | None = None
    """Designed: end the game after this many rounds (for simulations and timed tables)."""

    def validate(self, players: int) -> None:
        """Check the edition and ranges."""
        if self.edition not in EDITIONS:
            raise OptionsError(f"the option edition must be one of {', '.join(EDITIONS)}; "
                               f"got {self.edition[:40]!r}")
        self.check_range("max_rounds", 1, MAX_ROUNDS)
