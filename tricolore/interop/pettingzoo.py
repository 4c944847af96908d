"""PettingZoo environments for every registered game: ``env(...)`` (AEC) and ``parallel_env(...)``.

>>> from tricolore.interop.pettingzoo import env
>>> table = env("culottes", players=4, seed=7, max_steps=200)
>>> table.reset(seed=7)
>>> while table.agents:
...     agent = table.agent_selection
...     observation, reward, terminated, truncated, info = table.last()
...     if terminated or truncated:
...         table.step(None)
...     else:
...         table.step(table.action_space(agent).sample(observation["action_mask"]))

**Agents** are the seats, ``player_0`` to ``player_{n-1}``. **Actions** are the indices of the
game's flat action space (:class:`~tricolore.interop.codec.FlatActions`): an action of the game is
built in steps (its kind, then each parameter), one index per step, and the same agent stays
selected until its action is complete. **Observations** are ``{"observation": float32 vector,
"action_mask": int8 vector}`` (:mod:`tricolore.interop.observation`); ``infos[agent]["view"]`` is
the seat's own view as JSON, and ``infos[agent]["building"]`` the action it is building.

**Turns.** The selected agent is always a seat the game asks to act (``state.pending()``). When
several are asked at once (a sealed role, a vote, a bid) they act in turn in seat order, each
seeing only its own view: a sealed choice is never shown to the others. A response window is
ordinary turns. After an action, the next agent is the next seat asked, going round the table from
the one that acted, so every seat asked gets its turn. **Free actions** (gifts, transfers, deals,
agreeing to end) are offered with the prompt's: a seat takes them on its turn, and its prompt stays
open, so it acts again.

**Rewards** come at the end of a game only: the share of the win, ``1/k`` to each of the ``k``
winners, 0 to the others. A game still running after ``max_steps`` steps (default
:data:`MAX_STEPS`; a step is one index) is **truncated**, everyone with reward 0.

**Parallel.** PettingZoo's ``aec_to_parallel`` requires every live agent to act once per cycle;
here only the seats the game asks act, and an action may take several steps, so it does not apply.
:class:`TricoloreParallelEnv` is written on ``ParallelEnv`` directly: each step, every seat asked
sends one index of its action at once, and every other seat gets a mask with only the no-op index
(the last one, ``size``). Completed actions are applied in seat order; one that an earlier one in
the same step made illegal is dropped, and that seat is asked again. A partly built action is kept
while it can still be completed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

import numpy as np

from tricolore.interop import RL_EXTRA

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as missing:
    raise ImportError(f"the PettingZoo environments need PettingZoo and Gymnasium; {RL_EXTRA}") from missing

from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.model import Seat, State
from tricolore.core.registry import get_game
from tricolore.interop.codec import FlatActions, Partial
from tricolore.interop.episode import MAX_STEPS, default_players, win_shares
from tricolore.interop.observation import BOUND, ObservationEncoder, hash_view


def agent_name(seat: Seat) -> str:
    """The agent of ``seat``: ``player_0``..."""
    return f"player_{seat}"


class _Table:
    """What both forms share: the game, its codec and encoder, the spaces."""

    def __init__(self, game: str, players: int | None, seed: int | None, max_steps: int,
                 options: Mapping[str, Any], noop: bool) -> None:
        found = get_game(game)
        self.game_name = found.info.name
        self.players = default_players(game) if players is None else players
        self.codec = FlatActions(game, self.players, options)
        self.game_options = self.codec.options
        self.encoder = ObservationEncoder(self.codec)
        if type(max_steps) is not int or max_steps < 1:
            raise OptionsError(f"max_steps must be a whole number of at least 1; got {max_steps!r}")
        self.max_steps = max_steps
        self.seed = 0 if seed is None else seed
        self.actions = self.codec.size + (1 if noop else 0)
        self.possible_agents = [agent_name(s) for s in range(self.players)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-BOUND, BOUND, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions,), np.int8)})
        self._act_space = spaces.Discrete(self.actions)

    def new_state(self, seed: int | None) -> State:
        if seed is not None:
            self.seed = seed
        return get_game(self.game_name).new(self.players, self.seed, self.game_options)


class TricoloreAEC(AECEnv):
    """A game as a PettingZoo AEC environment (see the module's documentation)."""

    def __init__(self, game: str, players: int | None = None, seed: int | None = None,
                 max_steps: int = MAX_STEPS, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.table = _Table(game, players, seed, max_steps, options, noop=False)
        self.metadata = {"name": f"tricolore_{self.table.game_name.replace('-', '_')}_v0",
                         "render_modes": ["ansi"], "is_parallelizable": False}
        if render_mode not in (None, "ansi"):
            raise OptionsError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(self.table.possible_agents)
        self.codec = self.table.codec
        self.state: State = self.table.new_state(None)
        self._reset_bookkeeping()

    def observation_space(self, agent: str) -> spaces.Space:
        """The same for every agent: the observation vector and the action mask."""
        return self.table._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(codec.size)`` for every agent."""
        return self.table._act_space

    def _reset_bookkeeping(self) -> None:
        self.agents = list(self.possible_agents)
        self.partials = {a: self.codec.start() for a in self.agents}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._hashed: dict[str, np.ndarray] = {}
        self.steps = 0
        self._refresh_infos(changed=True)
        self.agent_selection = self._first_asked()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds it (by default the seed given at creation, then the last
        one). The game's options are given at creation; ``options`` here is accepted and unused."""
        self.state = self.table.new_state(seed)
        self._reset_bookkeeping()

    def _first_asked(self, after: Seat = -1) -> str:
        pending = sorted(self.state.pending())
        if not pending:
            return self.agents[0] if self.agents else agent_name(0)
        later = [s for s in pending if s > after]
        return agent_name((later or pending)[0])

    def _refresh_infos(self, changed: bool) -> None:
        """Each agent's view (made again when the game has ``changed``) and the action it is
        building."""
        for agent in self.agents:
            seat = int(agent.split("_")[1])
            info = self.infos.get(agent)
            if changed or not info:
                info = self.infos[agent] = {"view": self.state.view(seat)}
                self._hashed.pop(agent, None)
            partial = self.partials[agent]
            info["building"] = None if partial.empty else partial.action()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation vector and action mask (all zeros when it is not its turn)."""
        seat = int(agent.split("_")[1])
        partial = self.partials.get(agent, self.codec.start())
        mask = (self.codec.mask(self.state, seat, partial) if agent == self.agent_selection
                and not self.state.is_over() else np.zeros(self.codec.size, dtype=np.int8))
        hashed = self._hashed.get(agent)
        if hashed is None:
            view = self.infos[agent]["view"] if agent in self.infos else self.state.view(seat)
            hashed = self._hashed[agent] = hash_view(view)
        return {"observation": self.table.encoder.encode(self.state, seat, partial, hashed=hashed),
                "action_mask": mask}

    def step(self, action: Any) -> None:
        """One index of the selected agent's action; an index its mask rules out raises
        :class:`~tricolore.core.errors.IllegalAction` with a sentence and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = int(agent.split("_")[1])
        partial, built = self.codec.choose(self.state, seat, self.partials[agent], action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.partials[agent] = partial
        self.steps += 1
        if built is not None:
            self.state.apply(seat, built)
            if self.state.is_over():
                for a, share in zip(self.possible_agents, win_shares(self.state), strict=True):
                    self.rewards[a] = share
                    self.terminations[a] = True
            else:
                self.agent_selection = self._first_asked(seat)
        if not self.state.is_over() and self.steps >= self.table.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._refresh_infos(changed=built is not None)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The spectator's view as JSON text (``render_mode="ansi"``); nothing otherwise."""
        if self.render_mode is None:
            return None
        return json.dumps(self.state.view(None), indent=1)

    def close(self) -> None:
        """Nothing to release."""


class TricoloreParallelEnv(ParallelEnv):
    """A game as a PettingZoo Parallel environment (see the module's documentation)."""

    def __init__(self, game: str, players: int | None = None, seed: int | None = None,
                 max_steps: int = MAX_STEPS, render_mode: str | None = None, **options: Any) -> None:
        self.table = _Table(game, players, seed, max_steps, options, noop=True)
        self.metadata = {"name": f"tricolore_{self.table.game_name.replace('-', '_')}_v0",
                         "render_modes": ["ansi"]}
        if render_mode not in (None, "ansi"):
            raise OptionsError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(self.table.possible_agents)
        self.agents = list(self.possible_agents)
        self.codec = self.table.codec
        self.noop = self.codec.size
        self.state: State = self.table.new_state(None)
        self.partials: dict[str, Partial] = {}
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space:
        """The same for every agent: the observation vector and the action mask."""
        return self.table._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(codec.size + 1)``: the flat actions, then the no-op."""
        return self.table._act_space

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = int(agent.split("_")[1])
        partial = self.partials[agent]
        mask = np.zeros(self.table.actions, dtype=np.int8)
        if seat in self.state.pending() and not self.state.is_over():
            mask[:self.noop] = self.codec.mask(self.state, seat, partial)
        if not mask.any():
            mask[self.noop] = 1
        return {"observation": self.table.encoder.encode(self.state, seat, partial),
                "action_mask": mask}

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {a: {"view": self.state.view(int(a.split("_")[1]))} for a in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game; as :meth:`TricoloreAEC.reset`."""
        self.state = self.table.new_state(seed)
        self.agents = list(self.possible_agents)
        self.partials = {a: self.codec.start() for a in self.agents}
        self.steps = 0
        return {a: self._observe(a) for a in self.agents}, self._infos()

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                         dict[str, bool], dict[str, dict[str, Any]]]:
        """One index from every agent: the seats asked choose at once, the others send the no-op.
        An index a mask rules out raises :class:`IllegalAction` with a sentence."""
        asked = self.state.pending()
        built: list[tuple[Seat, dict[str, Any]]] = []
        after: dict[str, Partial] = {}
        for agent in self.agents:
            seat = int(agent.split("_")[1])
            index = actions.get(agent, self.noop)
            if index is None or int(index) == self.noop:
                if seat in asked and self.codec.mask(self.state, seat, self.partials[agent]).any():
                    raise IllegalAction("masked_out", f"{agent} is asked to act and cannot pass")
                continue
            if seat not in asked:
                raise IllegalAction("not_your_turn", f"{agent} is not asked to act: send the no-op")
            after[agent], action = self.codec.choose(self.state, seat, self.partials[agent], index)
            if action is not None:
                built.append((seat, action))
        self.partials.update(after)
        for seat, action in built:
            with suppress(IllegalAction):  # made illegal by one applied before it: asked again
                self.state.apply(seat, action)
        for agent in self.agents:
            partial = self.partials[agent]
            if not partial.empty and not self.codec.mask(
                    self.state, int(agent.split("_")[1]), partial).any():
                self.partials[agent] = self.codec.start()
        self.steps += 1
        over = self.state.is_over()
        shares = win_shares(self.state) if over else [0.0] * self.table.players
        rewards = {a: shares[int(a.split("_")[1])] for a in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        cut = not over and self.steps >= self.table.max_steps
        truncations = dict.fromkeys(self.agents, cut)
        observations = {a: self._observe(a) for a in self.agents}
        infos = self._infos()
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The spectator's view as JSON text (``render_mode="ansi"``); nothing otherwise."""
        if self.render_mode is None:
            return None
        return json.dumps(self.state.view(None), indent=1)

    def close(self) -> None:
        """Nothing to release."""


def env(game: str, players: int | None = None, seed: int | None = None, max_steps: int = MAX_STEPS,
        render_mode: str | None = None, **options: Any) -> TricoloreAEC:
    """The AEC environment of ``game`` for ``players`` seats (default 4, or the nearest size the
    game allows); ``options`` are the game's options (``regulated_bribery=True``)."""
    return TricoloreAEC(game, players, seed, max_steps, render_mode, **options)


def parallel_env(game: str, players: int | None = None, seed: int | None = None,
                 max_steps: int = MAX_STEPS, render_mode: str | None = None,
                 **options: Any) -> TricoloreParallelEnv:
    """The Parallel environment of ``game``: as :func:`env`, every seat asked choosing at once."""
    return TricoloreParallelEnv(game, players, seed, max_steps, render_mode, **options)
