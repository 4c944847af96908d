"""Every game's study: the experiments ``tricolore study GAME`` runs (see :mod:`tricolore.sim.study`).

Each study is built from a :class:`~tricolore.sim.studies.common.Setup` (games per arm, players,
seed); :data:`PLAYERS` gives the table size each study uses by default.
"""

from __future__ import annotations

from collections.abc import Callable

from tricolore.sim.studies import culottes, others
from tricolore.sim.studies.common import Setup
from tricolore.sim.study import Study

STUDIES: dict[str, Callable[[Setup], Study]] = {
    "culottes": culottes.study,
    "culottes-trials": others.trials,
    "let-them-eat-cake": others.let_them_eat_cake,
    "revolution": others.revolution,
    "bread-and-circuses": others.bread_and_circuses,
}
PLAYERS = {
    "culottes": 5,
    "culottes-trials": 4,
    "let-them-eat-cake": 5,
    "revolution": 4,
    "bread-and-circuses": 6,
}
"""The table size each study plays at: a typical table of the game."""
GAMES = {
    "culottes": 2000,
    "culottes-trials": 5000,
    "let-them-eat-cake": 4000,
    "revolution": 4000,
    "bread-and-circuses": 5000,
}
"""Games per arm by default: enough for intervals of a few points, within half an hour on two
cores. Culottes plays 2,000: its study has 31 distinct arms (the role choice, the bribe sweep, the
defence's halves and the cockade tables each add arms) at about 20 ms of one core a game, some
62,000 games or 10 to 25 minutes on two cores depending on their load; paired on the seed, 2,000
games still give win-share differences to within about 1.5 points."""
QUICK_GAMES = 30
"""Games per arm with ``--quick``: a smoke run that shows every figure, not a finding."""


def build(game: str, games: int | None = None, players: int | None = None, seed: int = 0) -> Study:
    """The study of ``game`` at the given size (its defaults where not given)."""
    setup = Setup(
        game,
        games if games is not None else GAMES[game],
        players if players is not None else PLAYERS[game],
        seed,
    )
    return STUDIES[game](setup)
