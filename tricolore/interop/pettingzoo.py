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
selected until its action is complete. **Observations** are ``{"observation": ..., "action_mask":
int8 vector}``; ``observation=`` picks the form of the first (``"flat"``, the default, a float32
vector; ``"structured"``, a dict of named arrays; ``"hashed"``, a float32 vector:
:func:`tricolore.interop.observation.make_observer`). Observations are fresh arrays: they stay as
they are whatever the environment does next.
``infos[agent]`` is empty unless ``raw_view=True``: then ``infos[agent]["view"]`` is the seat's
own view as JSON, and ``infos[agent]["building"]`` the action it is building.

**Turns.** The selected agent is always a seat the game asks to act (``state.pending()``). When
several are asked at once (a sealed role, a vote, a bid) they act in turn in seat order, each
seeing only its own view: a sealed choice is never shown to the others. A response window is
ordinary turns. After an action, the next agent is the next seat asked, going round the table from
the one that acted, so every seat asked gets its turn. **Free actions** (gifts, transfers, deals,
agreeing to end) are offered with the prompt's: a seat takes them on its turn, and its prompt stays
open, so it acts again; a free action that changed nothing or repeats is not offered again, and a
seat takes at most :data:`~tricolore.interop.episode.FREE_ACTIONS_PER_STAGE` in one stage of the
game (:class:`~tricolore.interop.episode.StallGuard`), so no policy can stall a game.

**Rewards** (``reward=``): ``"win"`` (default), the share of the win at the end, ``1/k`` to each
of the ``k`` winners; ``"score"``, the final score placed between the table's lowest and highest;
``"shaped"``, the win share plus a potential-based shaping term every step (see
:mod:`tricolore.interop.episode`). A game still running after ``max_steps`` steps (default
:data:`MAX_STEPS`; a step is one index) is **truncated**.

**An index the mask rules out** raises :class:`~tricolore.core.errors.IllegalAction` with a
sentence and changes nothing; with ``invalid_action="penalty"`` it is answered instead, as in the
Gymnasium environments, with reward :data:`INVALID_ACTION_PENALTY` for that agent and the sentence
in its info (``infos[agent]["invalid_action"]``), the game unchanged; it still counts as a step.

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
from typing import Any

import numpy as np

from tricolore.interop import RL_EXTRA

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as missing:
    raise ImportError(f"the PettingZoo environments need PettingZoo and Gymnasium; {RL_EXTRA}") from missing

from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.model import Seat, State, copy_json
from tricolore.core.registry import get_game
from tricolore.interop.codec import FlatActions, Partial
from tricolore.interop.episode import (
    MAX_STEPS,
    Episode,
    agent_name,
    check_choice,
    default_players,
    environment_options,
)

INVALID_ACTION_PENALTY = -0.01
"""The reward for an index the mask rules out, with ``invalid_action="penalty"``."""
INVALID_ACTIONS = ("raise", "penalty")
"""What an index the mask rules out gets: an :class:`IllegalAction`, or the penalty."""


def _seat(agent: str) -> Seat:
    return int(agent[7:])  # "player_<seat>"


class _Table:
    """What both forms share: the game, its codec, the episode and the spaces."""

    def __init__(self, game: str, players: int | None, seed: int | None, max_steps: int,
                 options: Mapping[str, Any], noop: bool, observation: str, reward: str,
                 raw_view: bool, invalid_action: str) -> None:
        found = get_game(game)
        self.game_name = found.info.name
        self.players = default_players(game) if players is None else players
        self.codec = FlatActions(game, self.players, environment_options(game, options))
        self.game_options = self.codec.options
        if type(max_steps) is not int or max_steps < 1:
            raise OptionsError(f"max_steps must be a whole number of at least 1; got {max_steps!r}")
        if type(raw_view) is not bool:
            raise OptionsError(f"raw_view must be true or false; got {raw_view!r}")
        self.raw_view = raw_view
        self.invalid_action = check_choice("invalid_action", invalid_action, INVALID_ACTIONS)
        self.episode = Episode(self.codec, observation, reward)
        self.max_steps = max_steps
        self.seed = 0 if seed is None else seed
        self.actions = self.codec.size + (1 if noop else 0)
        self.possible_agents = [agent_name(s) for s in range(self.players)]
        self._obs_space = spaces.Dict({
            "observation": self.episode.space,
            "action_mask": spaces.Box(0, 1, (self.actions,), np.int8)})
        self._act_space = spaces.Discrete(self.actions)

    def new_state(self, seed: int | None) -> State:
        if seed is not None:
            self.seed = seed
        return self.episode.start(self.seed)

    def raw_info(self, seat: Seat, partial: Partial) -> dict[str, Any]:
        """The seat's view and the action it is building, as JSON."""
        return {"view": copy_json(self.episode.view(seat)),
                "building": None if partial.empty else partial.action()}


class TricoloreAEC(AECEnv):
    """A game as a PettingZoo AEC environment (see the module's documentation)."""

    def __init__(self, game: str, players: int | None = None, seed: int | None = None,
                 max_steps: int = MAX_STEPS, render_mode: str | None = None,
                 observation: str = "flat", reward: str = "win", raw_view: bool = False,
                 invalid_action: str = "raise", **options: Any) -> None:
        super().__init__()
        self.table = _Table(game, players, seed, max_steps, options, False, observation, reward,
                            raw_view, invalid_action)
        self.episode = self.table.episode
        self.metadata = {"name": f"tricolore_{self.table.game_name.replace('-', '_')}_v0",
                         "render_modes": ["ansi"], "is_parallelizable": False}
        if render_mode not in (None, "ansi"):
            raise OptionsError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(self.table.possible_agents)
        self.codec = self.table.codec
        self._none = np.zeros(self.codec.size, dtype=np.int8)
        self._none.flags.writeable = False
        self._start = self.codec.start()
        self._written = True  # whether an info may hold something (then they are emptied)
        self.table.new_state(None)
        self._reset_bookkeeping()

    @property
    def state(self) -> State:
        """The game being played (read it; change it only through :meth:`step`)."""
        return self.episode.state

    def observation_space(self, agent: str) -> spaces.Space:
        """The same for every agent: the observation and the action mask."""
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
        self.steps = 0
        self._refresh_infos()
        self.agent_selection = self._first_asked()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds it (by default the seed given at creation, then the last
        one). The game's options are given at creation; ``options`` here is accepted and unused."""
        self.table.new_state(seed)
        self._reset_bookkeeping()

    def _first_asked(self, after: Seat = -1) -> str:
        pending = sorted(self.state.pending())
        if not pending:
            return self.agents[0] if self.agents else agent_name(0)
        later = [s for s in pending if s > after]
        return agent_name((later or pending)[0])

    def _refresh_infos(self) -> None:
        """Each agent's info: empty, or with ``raw_view`` its view and the action it builds."""
        if not self.table.raw_view:
            if self._written:
                for agent in self.agents:
                    self.infos[agent] = {}
                self._written = False
            return
        for agent in self.agents:
            self.infos[agent] = self.table.raw_info(_seat(agent), self.partials[agent])

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation and action mask (all zeros when it is not its turn)."""
        seat = _seat(agent)
        partial = self.partials.get(agent) or self._start
        if agent == self.agent_selection and not self.terminations.get(agent) \
                and not self.truncations.get(agent):
            mask = self.episode.mask(seat, partial)
        else:
            mask = self._none
        return {"observation": self.episode.observe(seat, partial), "action_mask": mask.copy()}

    def step(self, action: Any) -> None:
        """One index of the selected agent's action; see the module's documentation for an index
        its mask rules out."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = _seat(agent)
        episode = self.episode
        before = self.partials[agent]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        try:
            partial, built = episode.choose(seat, before, action)
        except IllegalAction as refused:
            if self.table.invalid_action == "raise":
                raise
            self.steps += 1
            self.rewards[agent] = INVALID_ACTION_PENALTY
            self._truncate()
            self._refresh_infos()
            self.infos[agent]["invalid_action"] = str(refused)
            self._written = True
            self._accumulate_rewards()
            return
        self.partials[agent] = partial
        self.steps += 1
        if built is not None:
            episode.apply(seat, built, (*before.path, int(action)))
            if self.state.is_over():
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self._first_asked(seat)
            for a, reward in zip(self.possible_agents, episode.rewards(), strict=True):
                self.rewards[a] = reward
        self._truncate()
        self._refresh_infos()
        self._accumulate_rewards()

    def _truncate(self) -> None:
        if self.steps >= self.table.max_steps and not self.state.is_over():
            self.truncations = dict.fromkeys(self.agents, True)

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
                 max_steps: int = MAX_STEPS, render_mode: str | None = None,
                 observation: str = "flat", reward: str = "win", raw_view: bool = False,
                 invalid_action: str = "raise", **options: Any) -> None:
        self.table = _Table(game, players, seed, max_steps, options, True, observation, reward,
                            raw_view, invalid_action)
        self.episode = self.table.episode
        self.metadata = {"name": f"tricolore_{self.table.game_name.replace('-', '_')}_v0",
                         "render_modes": ["ansi"]}
        if render_mode not in (None, "ansi"):
            raise OptionsError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(self.table.possible_agents)
        self.agents = list(self.possible_agents)
        self.codec = self.table.codec
        self.noop = self.codec.size
        self.table.new_state(None)
        self._partials: list[Partial] = [self.codec.start() for _ in self.possible_agents]
        """The action each seat is building, in seat order."""
        self.steps = 0

    @property
    def state(self) -> State:
        """The game being played (read it; change it only through :meth:`step`)."""
        return self.episode.state

    @property
    def partials(self) -> dict[str, Partial]:
        """The action each agent is building."""
        return dict(zip(self.possible_agents, self._partials, strict=True))

    def observation_space(self, agent: str) -> spaces.Space:
        """The same for every agent: the observation and the action mask."""
        return self.table._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(codec.size + 1)``: the flat actions, then the no-op."""
        return self.table._act_space

    def _raw_infos(self, infos: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """``infos`` with each agent's raw view when ``raw_view`` is set."""
        if self.table.raw_view:
            for seat, agent in enumerate(self.possible_agents):
                infos[agent].update(self.table.raw_info(seat, self._partials[seat]))
        return infos

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game; as :meth:`TricoloreAEC.reset`."""
        self.table.new_state(seed)
        self.agents = list(self.possible_agents)
        self._partials = [self.codec.start() for _ in self.possible_agents]
        self.steps = 0
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        return self.episode.observations_together(self.agents, self._partials), self._raw_infos(infos)

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                         dict[str, bool], dict[str, dict[str, Any]]]:
        """One index from every agent: the seats asked choose at once, the others send the no-op.
        An index a mask rules out is refused (see the module's documentation). Once the game is
        over (no agents left), a step changes nothing and returns empty mappings."""
        if not self.agents:
            return {}, {}, {}, {}, {}
        # every seat is a live agent while the game runs; the seats' partials are replaced in
        # place, and left as they were after a refusal
        observations, rewards, terminations, truncations, infos = self.episode.step_parallel(
            self.possible_agents, actions, self._partials, self.noop, self.table.invalid_action == "raise",
            self.steps + 1 >= self.table.max_steps, INVALID_ACTION_PENALTY)
        self.steps += 1
        self._raw_infos(infos)
        first = self.possible_agents[0]
        if terminations[first] or truncations[first]:
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
        render_mode: str | None = None, observation: str = "flat", reward: str = "win",
        raw_view: bool = False, invalid_action: str = "raise", **options: Any) -> TricoloreAEC:
    """The AEC environment of ``game`` for ``players`` seats (default 4, or the nearest size the
    game allows); ``options`` are the game's options (``regulated_bribery=True``); see the
    module's documentation for the others."""
    return TricoloreAEC(game, players, seed, max_steps, render_mode, observation, reward, raw_view,
                        invalid_action, **options)


def parallel_env(game: str, players: int | None = None, seed: int | None = None,
                 max_steps: int = MAX_STEPS, render_mode: str | None = None,
                 observation: str = "flat", reward: str = "win", raw_view: bool = False,
                 invalid_action: str = "raise", **options: Any) -> TricoloreParallelEnv:
    """The Parallel environment of ``game``: as :func:`env`, every seat asked choosing at once."""
    return TricoloreParallelEnv(game, players, seed, max_steps, render_mode, observation, reward,
                                raw_view, invalid_action, **options)
