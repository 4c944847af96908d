"""Random play to the end of a game (or for a number of decisions), as a simulation of random
players, a search's rollouts and the benchmark play it.

A loop of four calls a decision (who is asked, the legal actions, a draw, the action applied) is
the whole of random play; written here, it is compiled with the engine, so on the compiled build
each call is a native call to the state's compiled method rather than one the interpreter looks
up and dispatches. The pure build runs the same loop as Python. Each function plays exactly the
decisions the loop it replaces played, drawing the same numbers, so seeds, records and digests are
unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tricolore.core.draws import pick
from tricolore.core.model import State
from tricolore.core.record import Record


def play_at_random(state: State, rngs: Sequence[random.Random], limit: int = -1,
                   record: Record | None = None) -> int:
    """Play ``state`` on until it is over, or for ``limit`` decisions when ``limit`` is 0 or
    more; return the decisions made. Each decision is the lowest seat asked drawing from its legal
    actions (a kind uniformly, then each parameter from its domain) with ``rngs[seat]``, or with
    ``rngs[0]`` for every seat when one generator is given; the action is applied trusted, and
    appended to ``record`` if one is given. Without a record, the state plays what it draws
    (:meth:`~tricolore.core.model.State.play_drawn`), which a game may do without writing the
    action out."""
    shared = len(rngs) == 1
    rng = rngs[0]
    count = 0
    while count != limit and not state.is_over():
        seat = state.acting()[0]
        if record is None:
            state.play_drawn(seat, rng if shared else rngs[seat])
        else:
            action = state.legal_actions(seat).sample(rng if shared else rngs[seat])
            state.play_trusted(seat, action)
            record.add(seat, action)
        count += 1
    return count


def play_moves_at_random(state: State, rng: random.Random, limit: int = -1) -> int:
    """Play ``state`` on by its moves (:meth:`~tricolore.core.model.State.legal_moves`), each
    decision a move of the lowest seat asked drawn uniformly with ``rng``, until it is over or for
    ``limit`` decisions; return the decisions made."""
    count = 0
    while count != limit and not state.is_over():
        seat = state.acting()[0]
        moves = state.legal_moves(seat)
        state.apply_move(seat, moves[pick(rng, len(moves))])
        count += 1
    return count


__all__ = ["play_at_random", "play_moves_at_random"]
