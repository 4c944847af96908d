"""Revolution!'s study: the standard experiments and the seed edition against the published one.

``tricolore study revolution`` runs it (see :mod:`tricolore.sim.studies`)."""

from __future__ import annotations

from tricolore.sim.studies.common import GameStudy, Setup, compare_experiment, standard
from tricolore.sim.study import Study


def study(setup: Setup) -> Study:
    """Revolution!, the seed edition against the published one."""
    mixed, common = standard(setup)
    seed_edition = type(mixed)(mixed.key, "the seed edition", mixed.spec)
    published = setup.mixed("edition-sjg", "the published edition", edition="sjg")
    own = compare_experiment(
        "edition",
        "The seed edition against the published one",
        "How does the published edition (Steve Jackson Games) play against the seed's rules?",
        [seed_edition, published],
        {"rounds": "rounds per game", "decisions": "decisions per game"},
        "the edition",
    )
    return Study("revolution", "Revolution!: who wins, and the two editions", (*common, own))


STUDY = GameStudy(study, players=4, games=4000)
"""A typical table of 4; 4,000 games per arm, enough for intervals of a few points."""
