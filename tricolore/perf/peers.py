"""OpenSpiel's games played with the benchmark's random loop, as peers measured in the same run.

Needs the ``bench`` extra (``pip install 'tricolore[bench]'``, which installs ``open_spiel``).
Chance nodes are sampled from their outcome probabilities; at a simultaneous node every player
picks among its own legal actions and the joint action is applied at once, as OpenSpiel's own
random-play example does. A decision is one player's pick; chance draws are not decisions (our
games draw chance inside ``apply``, where it is part of the cost of a decision).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Peer:
    """An OpenSpiel game the benchmark plays: its name in ``pyspiel.load_game`` and what it is."""

    name: str
    implementation: str
    kind: str


PEERS = (
    Peer("goofspiel", "C++", "simultaneous, 2 players, 13 cards"),
    Peer("negotiation", "C++", "sequential, 2 players, proposals and utterances"),
    Peer("python_kuhn_poker", "Python", "sequential, 2 players, 3 cards"),
)


def unavailable() -> str | None:
    """Why the peers cannot be played here, or ``None`` when OpenSpiel is installed."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python import games  # noqa: F401  registers the python_* games
    except ImportError:
        return "open_spiel is not installed; pip install 'tricolore[bench]' to measure the peers"
    return None


def version() -> str | None:
    """The installed OpenSpiel's version, if any."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("open_spiel")
    except PackageNotFoundError:
        return None


def load(name: str) -> Any:
    """The OpenSpiel game ``name`` (OpenSpiel installed)."""
    import pyspiel
    from open_spiel.python import games  # noqa: F401  registers the python_* games

    return pyspiel.load_game(name)


def play(game: Any, rng: random.Random) -> int:
    """One random game of the OpenSpiel ``game``; return the number of decisions made."""
    state = game.new_initial_state()
    players = game.num_players()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        elif state.is_simultaneous_node():
            joint = []
            for player in range(players):
                legal = state.legal_actions(player)
                if legal:
                    joint.append(legal[rng.randrange(len(legal))])
                    decisions += 1
                else:
                    joint.append(0)
            state.apply_actions(joint)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def run_for(game: Any, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Play whole random games of ``game`` for at least ``seconds``: (games, decisions, seconds)."""
    games = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        decisions += play(game, rng)
        games += 1
        elapsed = time.perf_counter() - start
    return games, decisions, elapsed
