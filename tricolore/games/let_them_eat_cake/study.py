"""Let Them Eat Cake's study: the standard experiments and what playing from memory changes.

``tricolore study let-them-eat-cake`` runs it (see :mod:`tricolore.sim.studies`)."""

from __future__ import annotations

from tricolore.sim.studies.common import GameStudy, Setup, compare_experiment, standard
from tricolore.sim.study import Study


def study(setup: Setup) -> Study:
    """Let Them Eat Cake, and its own question: what playing from memory changes."""
    mixed, common = standard(setup)
    memory = setup.mixed("memory-mode", "memory mode", memory_mode=True)
    plain = type(mixed)(mixed.key, "the cards on the table", mixed.spec)
    own = compare_experiment(
        "memory",
        "Memory mode",
        "Does memory mode (voting cards kept only in the players' memory) change "
        "the game's length, how it ends, and who wins?",
        [plain, memory],
        {
            "rounds": "rounds per game",
            "end_by_death": "share of games ended by a death",
            "decisions": "decisions per game",
        },
        "memory mode",
    )
    return Study("let-them-eat-cake", "Let Them Eat Cake: who wins, and memory mode", (*common, own))


STUDY = GameStudy(study, players=5, games=4000)
"""A typical table of 5; 4,000 games per arm, enough for intervals of a few points."""
