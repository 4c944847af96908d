"""Single-agent Gymnasium environments: one learner seat against named strategies.

>>> import gymnasium
>>> import tricolore.interop  # registers tricolore/Culottes-v0 and the others
>>> env = gymnasium.make("tricolore/Revolution-v0", players=3, opponents="random", max_rounds=2)
>>> observation, info = env.reset(seed=1)
>>> done = False
>>> while not done:
...     action = env.action_space.sample(observation["action_mask"])
...     observation, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated

**Registered ids** (at import of :mod:`tricolore.interop`): ``tricolore/Culottes-v0``,
``tricolore/Trials-v0`` (the revolutionary trials, Culottes' tutorial), ``tricolore/LetThemEatCake-v0``,
``tricolore/Revolution-v0``, ``tricolore/BreadAndCircuses-v0``. Any registered game can also be
made directly: ``TricoloreEnv("culottes", players=5)``. Every id works with
``gymnasium.make_vec(id, num_envs=n, vectorization_mode="sync")`` and ``"async"``.

**Arguments.** ``players`` (default 4, or the nearest size the game allows); ``seat``, the
learner's seat (default 0); ``opponents``, one strategy name for every other seat or a list with
one per other seat in seat order (any name :func:`tricolore.agents.make_agent` knows: ``random``,
the game's own strategies, ``ismcts:50``; default: the game's first own strategy); ``max_steps``;
``observation`` (``"flat"``, the default, ``"structured"``, ``"hashed"``); ``reward`` (``"win"``, ``"score"``,
``"shaped"``, see :mod:`tricolore.interop.episode`); ``raw_view``; any other keyword is a game
option (``regulated_bribery=True``).

**Spaces.** The action space is the game's flat action space, ``Discrete(codec.size)``
(:class:`~tricolore.interop.codec.FlatActions`): an action of the game takes one step per part
(its kind, then each parameter), and the opponents move only once it is complete. The observation is
``{"observation": ..., "action_mask": int8 vector}`` as in the PettingZoo environments;
``info`` holds only arrays and scalars, so vector environments can stack it:
``info["action_mask"]`` is the mask again, and with ``raw_view=True`` ``info["view"]`` is the
learner's view as JSON (a dictionary that a vector environment cannot stack).

``reset(seed=...)`` seeds the game and the opponents' generator (its ``options`` are accepted and
unused: the game's options are given when the environment is made).

**Turns.** The learner acts whenever the game asks its seat (its free actions — gifts, deals —
offered with its prompt's, as far as :class:`~tricolore.interop.episode.StallGuard` allows); the
opponents act, each through :func:`tricolore.agents.decide`, while it is not asked. **Reward**: by
default at the end of the game, the learner's share of the win (``1/k`` if it is one of ``k``
winners, else 0); see ``reward``. **An invalid action** (an index its mask rules out) changes
nothing in the game and is answered with reward :data:`INVALID_ACTION_PENALTY`,
``info["invalid_action"]`` holding the sentence that refuses it; it still counts as a step. After
``max_steps`` steps (learner indices and opponent actions; default :data:`MAX_STEPS`) a game still
running is **truncated**.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from tricolore.interop import RL_EXTRA

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as missing:
    raise ImportError(f"the Gymnasium environments need Gymnasium; {RL_EXTRA}") from missing

from tricolore.agents import Agent, decide, make_agent
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.model import State, copy_json
from tricolore.core.registry import get_game
from tricolore.interop.codec import FlatActions
from tricolore.interop.episode import MAX_STEPS, Episode, default_players, environment_options

INVALID_ACTION_PENALTY = -0.01
"""The reward for an index the mask rules out (the game is unchanged)."""

IDS: dict[str, str] = {
    "tricolore/Culottes-v0": "culottes",
    "tricolore/Trials-v0": "culottes-trials",
    "tricolore/LetThemEatCake-v0": "let-them-eat-cake",
    "tricolore/Revolution-v0": "revolution",
    "tricolore/BreadAndCircuses-v0": "bread-and-circuses",
}
"""The registered Gymnasium ids and their games."""


def default_opponent(game: str) -> str:
    """The game's first own strategy, or ``random`` if it has none."""
    return next(iter(get_game(game).strategies), "random")


class TricoloreEnv(gymnasium.Env):
    """One seat of a game against named strategies (see the module's documentation)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 -- Gymnasium's convention

    def __init__(self, game: str, players: int | None = None, seat: int = 0,
                 opponents: str | Sequence[str] | None = None, max_steps: int = MAX_STEPS,
                 render_mode: str | None = None, observation: str = "flat", reward: str = "win",
                 raw_view: bool = False, **options: Any) -> None:
        found = get_game(game)
        self.game = found
        self.players = default_players(game) if players is None else players
        self.codec = FlatActions(game, self.players, environment_options(game, options))
        if type(seat) is not int or not 0 <= seat < self.players:
            raise OptionsError(f"the learner's seat must be from 0 to {self.players - 1}; got {seat!r}")
        self.seat = seat
        names = self._opponent_names(game, opponents)
        self.opponent_names = names
        self.opponents: dict[int, Agent] = {}
        others = [s for s in range(self.players) if s != seat]
        for other, name in zip(others, names, strict=True):
            self.opponents[other] = make_agent(found, name)  # an unknown name gets its sentence
        if type(max_steps) is not int or max_steps < 1:
            raise OptionsError(f"max_steps must be a whole number of at least 1; got {max_steps!r}")
        self.max_steps = max_steps
        if render_mode not in (None, "ansi"):
            raise OptionsError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.render_mode = render_mode
        if type(raw_view) is not bool:
            raise OptionsError(f"raw_view must be true or false; got {raw_view!r}")
        self.raw_view = raw_view
        self.episode = Episode(self.codec, observation, reward)
        self.observation_space = spaces.Dict({
            "observation": self.episode.space,
            "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8)})
        self.action_space = spaces.Discrete(self.codec.size)
        self.partial = self.codec.start()
        self.steps = 0
        self._rng = random.Random(0)

    @property
    def state(self) -> State:
        """The game being played (read it; change it only through :meth:`step`)."""
        return self.episode.state

    def _opponent_names(self, game: str, opponents: str | Sequence[str] | None) -> list[str]:
        count = self.players - 1
        if opponents is None:
            return [default_opponent(game)] * count
        if isinstance(opponents, str):
            return [opponents] * count
        names = list(opponents)
        if len(names) != count or not all(isinstance(n, str) for n in names):
            raise OptionsError(f"opponents must be one strategy name or a list of {count} names, one "
                               f"per other seat; got {opponents!r}")
        return names

    # -- the Gymnasium API ---------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game, its seed drawn from the environment's generator (seeded by ``seed``); the
        opponents play until the learner is asked."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31 - 1))
        self.episode.start(game_seed)
        self._rng = random.Random(game_seed)
        self.partial = self.codec.start()
        self.steps = 0
        if self._opponents_play():
            self.episode.rewards([self.seat])  # the shaping potential paid from the learner's first turn
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """One index of the learner's action; see the module's documentation."""
        self.steps += 1
        refused: str | None = None
        episode = self.episode
        before = self.partial
        try:
            if self.state.is_over() or self.seat not in self.state.pending():
                raise IllegalAction("not_your_turn", "the learner is not asked to act")
            self.partial, built = episode.choose(self.seat, before, action)
        except IllegalAction as exc:
            refused = str(exc)
            built = None
        if built is not None:
            episode.apply(self.seat, built, (*before.path, int(action)))
            self._opponents_play()
        terminated = self.state.is_over()
        truncated = not terminated and self.steps >= self.max_steps
        if refused is not None:
            reward = INVALID_ACTION_PENALTY
        elif built is not None:
            reward = episode.rewards([self.seat])[self.seat]
        else:
            reward = 0.0
        info = self._info()
        if refused is not None:
            info["invalid_action"] = refused
        return self._observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        """The spectator's view as JSON text (``render_mode="ansi"``); nothing otherwise."""
        if self.render_mode is None:
            return None
        return json.dumps(self.state.view(None), indent=1)

    # -- helpers ---------------------------------------------------------------------------------
    def _opponents_play(self) -> bool:
        """The opponents act while the learner is not asked (and the game and the cap allow);
        whether any did."""
        state, episode = self.state, self.episode
        acted = False
        while not state.is_over() and self.steps < self.max_steps:
            pending = state.pending()
            if self.seat in pending or not pending:
                break
            other = min(pending)
            episode.apply(other, decide(self.opponents[other], state, other, self._rng), None)
            self.steps += 1
            acted = True
        return acted

    def _mask(self) -> np.ndarray:
        return self.episode.mask(self.seat, self.partial).copy()

    def _observation(self) -> dict[str, Any]:
        return {"observation": self.episode.observe(self.seat, self.partial), "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        if self.raw_view:
            info["view"] = copy_json(self.episode.view(self.seat))
        return info


def register() -> None:
    """Register the ids of :data:`IDS` with Gymnasium (again: nothing happens)."""
    for env_id, game in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="tricolore.interop.gymnasium:TricoloreEnv",
                               kwargs={"game": game})
