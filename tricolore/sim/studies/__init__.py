"""Every game's study: the experiments ``tricolore study GAME`` runs (see :mod:`tricolore.sim.study`).

A game declares its study in a ``study.py`` beside its rules, as ``STUDY``: a
:class:`~tricolore.sim.studies.common.GameStudy` (the function that builds its experiments from a
:class:`~tricolore.sim.studies.common.Setup`, and the table size and games per arm it plays by
default). The registry finds it (:func:`tricolore.core.registry.companions`);
:mod:`tricolore.sim.studies.common` holds what every game's study shares.
"""

from __future__ import annotations

from tricolore.core.errors import OptionsError
from tricolore.core.registry import companions, games
from tricolore.sim.studies.common import GameStudy, Setup
from tricolore.sim.study import Study

QUICK_GAMES = 30
"""Games per arm with ``--quick``: a smoke run that shows every figure, not a finding."""


def study_of(game: str) -> GameStudy | None:
    """The study the game registered as ``game`` declares, or None; a ``STUDY`` that is not a
    :class:`GameStudy` gets a sentence."""
    found = companions(game).study
    if found is not None and not isinstance(found, GameStudy):
        raise OptionsError(f"the study of the game {game!r} must be a GameStudy "
                           f"(tricolore.sim.studies.common); its study.py declares {type(found).__name__}")
    return found


def studies() -> dict[str, GameStudy]:
    """Every registered game's study, by game."""
    found = {name: study_of(name) for name in games()}
    return {name: s for name, s in found.items() if s is not None}


def build(game: str, games: int | None = None, players: int | None = None, seed: int = 0) -> Study:
    """The study of ``game`` at the given size (its defaults where not given)."""
    declared = study_of(game)
    if declared is None:
        raise OptionsError(f"the game {game!r} has no study: a study.py beside its rules declares one")
    setup = Setup(
        game,
        games if games is not None else declared.games,
        players if players is not None else declared.players,
        seed,
    )
    return declared.build(setup)
