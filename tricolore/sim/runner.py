"""Playing whole games between agents, the loop every batch job and test drives."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tricolore.agents import Agent, Message, RandomAgent, decide, take_said
from tricolore.core.model import State
from tricolore.core.playout import play_at_random
from tricolore.core.record import Record


def agent_rng(seed: int, seat: int) -> random.Random:
    """The random generator of the agent in ``seat`` for the game of ``seed``: independent of the
    game's own generator, so an agent's draws never change the game's dice."""
    return random.Random(f"agent:{seed}:{seat}")


class EndlessGame(RuntimeError):
    """A game that did not end within its bound of actions: the strategies at the table keep it
    going (the sentence says which game and seed, to replay it)."""


@dataclass(slots=True)
class Played:
    """A finished game: its final state, its record, the number of actions taken, and the chat
    of the agents that talk (in the order it was said)."""

    state: State
    record: Record
    actions: int
    chat: list[Message] = field(default_factory=list)


def play_game(
    state: State, agents: Sequence[Agent], *, keep_digests: bool = False, max_actions: int = 1_000_000
) -> Played:
    """Play ``state`` to its end, each pending seat asked in seat order.

    Agents choose from :func:`~tricolore.agents.offered_actions`, asked by
    :func:`~tricolore.agents.decide`. What a talking agent says is kept in the chat, and each
    talking agent is told the messages it may read before it decides.

    Raises :class:`EndlessGame` if the game has not ended after ``max_actions`` actions.
    """
    record = Record.start(state, keep_digests)
    rngs = [agent_rng(state.seed, s) for s in range(state.players)]
    if not keep_digests and all(type(a) is RandomAgent for a in agents):
        # random players only: the same decisions, each drawn with its seat's generator, in the
        # engine's own (compiled) loop
        count = play_at_random(state, rngs, max_actions, record)
        if not state.is_over():
            raise EndlessGame(_endless(state, max_actions))
        return Played(state, record, count)
    # An action the engine drew itself (a random agent's) needs no second check.
    apply = [state.apply_trusted if getattr(a, "draws_legal", False) else state.apply for a in agents]
    chat: list[Message] = []
    count = 0
    while not state.is_over():
        if count >= max_actions:
            raise EndlessGame(_endless(state, max_actions))
        seat = state.acting()[0]  # the lowest seat asked, found without making the prompts
        action = decide(agents[seat], state, seat, rngs[seat], chat=chat)
        apply[seat](seat, action)
        record.add(seat, action, state if keep_digests else None)
        chat.extend(Message(seat, said.text, said.to) for said in take_said(agents[seat]))
        count += 1
    return Played(state, record, count, chat)


def _endless(state: State, max_actions: int) -> str:
    return (f"the {state.info.name} game of seed {state.seed} did not end in {max_actions:,} "
            "actions: its strategies keep it going; bound it with the game's max_rounds option "
            "where it has one (--option max_rounds=100)")
