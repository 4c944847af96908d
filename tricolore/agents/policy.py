"""Trained policies: a small neural network over the flat action space, saved as ``.npz``, and the
strategy ``policy:PATH`` that plays one.

A :class:`Policy` is a two-layer perceptron: the observation of
:class:`~tricolore.interop.observation.ObservationEncoder` (the hashed view) goes through one
hidden layer of ``tanh`` units, then to two heads, the *policy* head (one logit per index of the
game's :class:`~tricolore.interop.codec.FlatActions`) and the *value* head (one number: the win
share the seat can expect). The policy is a softmax over the indices its mask allows. It is what
``examples/selfplay.py`` trains by self-play (see ``docs/agents.md``, "Training by self-play").

A saved policy holds its weights and what it was trained on: the game, the table size and the
game's options, since the observation's length and the action space depend on all three.

**The strategy.** ``policy:PATH`` plays the policy saved at ``PATH`` (a file a ``.npz``
:meth:`Policy.save` wrote), taking the likeliest index at every step; ``policy:PATH@sample=true``
draws each index from the policy's distribution instead. It plays at a table of the size it was
trained for; anywhere else it is refused with one sentence. Like a person at the table it is
offered its free actions (agreeing to end, gifts) with its prompt's (``trades``), and after
:data:`FREE_IN_A_ROW` free actions in a row it must answer its prompt, so that a game always
moves on.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, cast

import numpy as np

from tricolore.agents.params import Parameter, Value
from tricolore.core.actions import ActionSpace
from tricolore.core.errors import OptionsError
from tricolore.core.model import Game, Prompt, Seat, State
from tricolore.interop.codec import FlatActions
from tricolore.interop.observation import ObservationEncoder, hash_view

NAME = "policy"
"""The strategy's name: ``policy:PATH``."""
FORMAT = 1
"""The version of the saved file's layout."""
FREE_IN_A_ROW = 2
"""Free actions (taken beside a prompt, which stays open) at most in a row before the policy
must answer its prompt."""
WEIGHTS = ("w1", "b1", "w_pi", "b_pi", "w_v", "b_v")
"""The arrays of a policy, in order: the hidden layer, the policy head, the value head."""


class Policy:
    """A two-layer perceptron with a policy head and a value head (see the module's documentation).

    ``weights`` maps each name of :data:`WEIGHTS` to its array: ``w1`` (observation × hidden),
    ``b1`` (hidden), ``w_pi`` (hidden × actions), ``b_pi`` (actions), ``w_v`` (hidden × 1),
    ``b_v`` (1).
    """

    def __init__(self, weights: Mapping[str, np.ndarray], game: str, players: int,
                 options: Mapping[str, Any] | None = None) -> None:
        missing = [k for k in WEIGHTS if k not in weights]
        if missing:
            raise OptionsError(f"a policy needs the arrays {', '.join(WEIGHTS)}; "
                               f"{', '.join(missing)} missing")
        self.weights = {k: np.asarray(weights[k], dtype=np.float64) for k in WEIGHTS}
        self.game = game
        self.players = players
        self.options = dict(options or {})
        self.codec = FlatActions(game, players, self.options)
        self.encoder = ObservationEncoder(self.codec)
        w1, w_pi = self.weights["w1"], self.weights["w_pi"]
        if w1.shape[0] != self.encoder.size or w_pi.shape[1] != self.codec.size:
            raise OptionsError(f"the policy's layers ({w1.shape[0]} inputs, {w_pi.shape[1]} actions) do not "
                               f"fit {game} for {players} players ({self.encoder.size} inputs, "
                               f"{self.codec.size} actions)")

    @classmethod
    def initial(cls, game: str, players: int, options: Mapping[str, Any] | None = None,
                hidden: int = 64, seed: int = 0, spread: float = 0.15) -> Policy:
        """A fresh policy: the hidden layer's weights drawn at random with standard deviation
        ``spread`` (an observation has a few dozen non-zero features of about 1, so the hidden
        units start in the bend of ``tanh``), the heads at zero, so it starts uniform over every
        mask and values every position at 0."""
        codec = FlatActions(game, players, options)
        inputs = ObservationEncoder(codec).size
        rng = np.random.default_rng(seed)
        weights = {"w1": rng.normal(0.0, spread, (inputs, hidden)),
                   "b1": np.zeros(hidden),
                   "w_pi": np.zeros((hidden, codec.size)), "b_pi": np.zeros(codec.size),
                   "w_v": np.zeros((hidden, 1)), "b_v": np.zeros(1)}
        return cls(weights, game, players, options)

    # -- the network ----------------------------------------------------------------------------
    def forward(self, observations: np.ndarray, masks: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For a batch of observations and their masks: the hidden layer, the log-probabilities of
        every index (``-inf`` where masked) and the values."""
        w = self.weights
        hidden = np.tanh(observations @ w["w1"] + w["b1"])
        logits = hidden @ w["w_pi"] + w["b_pi"]
        return hidden, masked_log_softmax(logits, masks), (hidden @ w["w_v"] + w["b_v"])[:, 0]

    def choose(self, observation: np.ndarray, mask: np.ndarray, rng: random.Random | None = None) -> int:
        """An index the mask allows: the likeliest (``rng`` is ``None``) or one drawn with ``rng``."""
        _, log_p, _ = self.forward(observation[None, :], mask[None, :])
        if rng is None:
            return int(np.argmax(log_p[0]))
        allowed = np.flatnonzero(mask)
        return int(rng.choices(allowed, weights=np.exp(log_p[0, allowed]))[0])

    # -- files ----------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the policy to ``path`` (``.npz``: the arrays, and what it was trained on)."""
        about = {"format": FORMAT, "game": self.game, "players": self.players, "options": self.options}
        arrays: dict[str, Any] = {"about": np.array(json.dumps(about)), **self.weights}
        np.savez(path, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Policy:
        """The policy saved at ``path``; an :class:`OptionsError` with one sentence if there is no
        such file or it is not a saved policy."""
        try:
            with np.load(path, allow_pickle=False) as data:
                about = json.loads(str(data["about"]))
                weights = {k: data[k] for k in WEIGHTS}
        except FileNotFoundError:
            raise OptionsError(f"there is no policy file {str(path)!r}") from None
        except (OSError, ValueError, KeyError) as exc:
            raise OptionsError(f"{str(path)!r} is not a saved policy ({type(exc).__name__})") from None
        if not isinstance(about, dict) or about.get("format") != FORMAT:
            raise OptionsError(f"{str(path)!r} is not a saved policy of format {FORMAT}")
        return cls(weights, str(about["game"]), int(about["players"]), about.get("options") or {})


def masked_log_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Row-wise log-softmax over the indices each mask allows; ``-inf`` elsewhere."""
    allowed = masks.astype(bool)
    shifted = np.where(allowed, logits, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    with np.errstate(divide="ignore"):
        return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


class _Seen:
    """What a seat knows, shaped as the codec and the encoder read a state: its prompt (from the
    view's ``pending``, public in every game) and the actions it is offered. It holds nothing
    else, so the policy reads nothing the seat may not know."""

    def __init__(self, view: Mapping[str, Any], legal: ActionSpace) -> None:
        self._pending = MappingProxyType({
            int(p["seat"]): Prompt(int(p["seat"]), tuple(p["kinds"]), bool(p["secret"]), p.get("window"))
            for p in view.get("pending", ())})
        self._legal = legal

    def pending(self) -> Mapping[Seat, Prompt]:
        return self._pending

    def legal_actions(self, seat: Seat) -> ActionSpace:
        return self._legal

    def free_actions(self, seat: Seat) -> ActionSpace:
        return ActionSpace(())


_LOADED: dict[tuple[str, float], Policy] = {}


def load_cached(path: str) -> Policy:
    """:meth:`Policy.load`, once per file and version (a tournament makes an agent per game)."""
    try:
        stamp = os.stat(path).st_mtime
    except OSError:
        raise OptionsError(f"there is no policy file {path!r}") from None
    key = (os.path.abspath(path), stamp)
    if key not in _LOADED:
        if len(_LOADED) > 64:
            _LOADED.clear()
        _LOADED[key] = Policy.load(path)
    return _LOADED[key]


class PolicyAgent:
    """Plays a :class:`Policy` (the strategy ``policy:PATH``; see the module's documentation)."""

    name = NAME
    trades = True  # offered its free actions beside its prompt's, as the environments offer them
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "sample": Parameter(False, doc="draw each index from the policy's distribution (false: take "
                                       "the likeliest)"),
    }

    def __init__(self, policy: Policy, *, sample: bool = False) -> None:
        self.policy = policy
        self.sample = sample
        self._free = 0  # free actions taken in a row

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """The action the policy builds, index by index, from the seat's view and ``legal``."""
        policy = self.policy
        seat = int(view["seat"])
        if view.get("players") != policy.players or view.get("game", policy.game) != policy.game:
            raise OptionsError(f"this policy plays {policy.game} for {policy.players} players; the table is "
                               f"{view.get('game')} for {view.get('players')}")
        seen = _Seen(view, legal)
        prompt = seen.pending().get(seat)
        if prompt is not None and self._free >= FREE_IN_A_ROW:
            seen = _Seen(view, ActionSpace(tuple(f for f in legal.families if f.kind in prompt.kinds)))
        state = cast(State, seen)  # the codec and the encoder read only pending and the actions
        codec, partial = policy.codec, policy.codec.start()
        hashed = hash_view(view)
        while True:
            mask = codec.mask(state, seat, partial)
            observation = policy.encoder.encode(state, seat, partial, hashed=hashed)
            index = policy.choose(observation, mask, rng if self.sample else None)
            partial, built = codec.choose(state, seat, partial, index)
            if built is not None:
                free = prompt is None or built["type"] not in prompt.kinds
                self._free = self._free + 1 if free else 0
                return built


def make(game: Game, strategy: str) -> PolicyAgent:
    """The agent of ``policy:PATH`` or ``policy:PATH@sample=true`` for ``game``; an
    :class:`OptionsError` with one sentence for a missing file, a policy of another game or a
    bad setting."""
    head, *settings = strategy.strip().split("@")
    name, colon, path = head.partition(":")
    if name != NAME or not colon or not path.strip():
        raise OptionsError("a trained policy is written policy:PATH, the path of its .npz file")
    policy = load_cached(path.strip())
    if policy.game != game.info.name:
        raise OptionsError(f"the policy {path.strip()!r} plays {policy.game}, not {game.info.name}")
    values: dict[str, Any] = {}
    for setting in settings:
        key, equals, value = setting.partition("=")
        key = key.strip()
        if not equals or key not in PolicyAgent.parameters:
            raise OptionsError(f"the policy setting {setting!r} is not one of "
                               f"{', '.join(k + '=' for k in PolicyAgent.parameters)}")
        values[key] = PolicyAgent.parameters[key].convert(key, value)
    return PolicyAgent(policy, **values)



def canonical(strategy: str) -> str:
    """``policy:PATH`` with its settings written the one way (a default left out)."""
    head, *settings = strategy.strip().split("@")
    kept = []
    for setting in settings:
        key, _, value = setting.partition("=")
        key = key.strip()
        parameter = PolicyAgent.parameters.get(key)
        if parameter is None:
            raise OptionsError(f"the policy setting {setting!r} is not one of "
                               f"{', '.join(k + '=' for k in PolicyAgent.parameters)}")
        converted = parameter.convert(key, value)
        if converted != parameter.default:
            kept.append(f"{key}={str(converted).lower() if isinstance(converted, bool) else converted}")
    return "@".join([head.strip(), *sorted(kept)])


def settings(strategy: str) -> dict[str, Value]:
    """Every setting of ``policy:PATH@...`` with its value, defaults included."""
    out: dict[str, Value] = {k: p.default for k, p in PolicyAgent.parameters.items()}
    for setting in strategy.strip().split("@")[1:]:
        key, _, value = setting.partition("=")
        key = key.strip()
        if key in PolicyAgent.parameters:
            out[key] = PolicyAgent.parameters[key].convert(key, value)
    return out

