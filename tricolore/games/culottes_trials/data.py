"""The fixed facts of the revolutionary trials: the phases of a trial."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """The phases of a trial, in order."""

    DESIGNATE = "designate"
    """The accused secretly names the other grabbers."""
    STATEMENT = "statement"
    """The accused states a fact about themselves, true or false."""
    FIRST_VOTE = "first_vote"
    """Everyone else guesses, sealed; the vote is shown but not counted."""
    DEBATE = "debate"
    """Arguments, clockwise from the accused's left."""
    SECOND_VOTE = "second_vote"
    """The vote that counts, sealed."""


__all__ = ["Phase"]
