"""The revolutionary trials' study: which strategy wins, seat advantage, length.

``tricolore study culottes-trials`` runs it (see :mod:`tricolore.sim.studies`)."""

from __future__ import annotations

from tricolore.sim.studies.common import GameStudy, Setup, standard
from tricolore.sim.study import Study


def study(setup: Setup) -> Study:
    """The revolutionary trials: which strategy wins, seat advantage, length."""
    _, common = standard(setup)
    return Study("culottes-trials", "The revolutionary trials: who wins and how long", tuple(common))


STUDY = GameStudy(study, players=4, games=5000)
"""A typical table of 4; 5,000 games per arm, enough for intervals of a few points."""
