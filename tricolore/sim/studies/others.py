"""The studies of the revolutionary trials, Let Them Eat Cake, Revolution! and Bread and Circuses:
the standard experiments and each game's own question."""

from __future__ import annotations

from tricolore.sim.studies.common import Setup, compare_experiment, standard
from tricolore.sim.study import Study


def trials(setup: Setup) -> Study:
    """The revolutionary trials: which strategy wins, seat advantage, length."""
    _, common = standard(setup)
    return Study("culottes-trials", "The revolutionary trials: who wins and how long", tuple(common))


def let_them_eat_cake(setup: Setup) -> Study:
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


def revolution(setup: Setup) -> Study:
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


def bread_and_circuses(setup: Setup) -> Study:
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
