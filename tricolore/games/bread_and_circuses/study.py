"""Bread and Circuses' study: the standard experiments and what Regulated Bribery does to the riots.

``tricolore study bread-and-circuses`` runs it (see :mod:`tricolore.sim.studies`)."""

from __future__ import annotations

from tricolore.sim.studies.common import GameStudy, Setup, compare_experiment, standard
from tricolore.sim.study import Study


def study(setup: Setup) -> Study:
    """Bread and Circuses, and its own question: what Regulated Bribery does to the riots."""
    mixed, common = standard(setup)
    free = type(mixed)(mixed.key, "the basic rules", mixed.spec)
    regulated = setup.mixed("regulated-bribery", "Regulated Bribery", regulated_bribery=True)
    own = compare_experiment(
        "bribery",
        "Regulated Bribery and the riots",
        "Does Regulated Bribery (binding deals) change the riots, the length of the game and who wins?",
        [free, regulated],
        {"riots": "riots per game", "rounds": "rounds per game", "deals_paid": "deals paid per game"},
        "Regulated Bribery",
    )
    return Study("bread-and-circuses", "Bread and Circuses: who wins, and Regulated Bribery", (*common, own))


STUDY = GameStudy(study, players=6, games=5000)
"""A typical table of 6; 5,000 games per arm, enough for intervals of a few points."""
