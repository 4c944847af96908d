"""Every Tricolore game as an OpenSpiel game, so that OpenSpiel's own algorithms play it.

>>> import pyspiel
>>> from tricolore.interop.openspiel import register
>>> "tricolore_culottes_trials" in register()
True
>>> game = pyspiel.load_game("tricolore_culottes_trials", {"players": 3, "trials": 1})
>>> state = game.new_initial_state()
>>> state.current_player() in range(3) and not state.is_terminal()
True

:func:`register` registers each game as ``tricolore_<name>`` (dashes become underscores) with
``pyspiel.register_game``; importing this module registers every game already, as OpenSpiel's own
Python games do, so ``import tricolore.interop.openspiel`` is enough before ``pyspiel.load_game``.
How a Tricolore game becomes an OpenSpiel game:

- **Turns.** OpenSpiel asks one player at a time (``SEQUENTIAL`` dynamics). When several seats are
  asked at once (a sealed vote, a response window), the lowest pending seat acts first, as
  ``tricolore.sim.runner.play_game`` asks them; a sealed choice stays hidden from the seats that
  act after it, so simultaneous moves stay simultaneous in what each seat knows.
- **Actions.** An action is built in small steps over the shared flat action codec
  (``tricolore.interop.codec.FlatActions``): each OpenSpiel action is one step (a kind, then each
  parameter), ``num_distinct_actions`` is the codec's size, and the Tricolore action is applied when
  its last step is chosen. A game of *n* Tricolore actions is so a longer game of OpenSpiel actions.
- **Chance.** A game without chance during play (the revolutionary trials) is ``DETERMINISTIC``:
  the draws it makes before play (the trials' first accused) come from the ``seed`` parameter
  (default 0, and at least 0), so every initial state is the same. A game with chance during
  play (a die, a deck) is ``SAMPLED_STOCHASTIC``: the engine draws from the state's own seeded
  generator, which a clone copies; ``seed`` -1 (the default) gives every initial state a fresh
  seed from the game's own sequence, a seed from 0 the same deal every time. The engine does not
  expose chance outcomes.
- **Returns.** The share of the win: 1/*k* to each of the *k* winners, 0 to the others
  (``CONSTANT_SUM``, summing to 1, paid at the end).
- **Length.** ``max_game_length`` (a parameter, :data:`MAX_GAME_LENGTH` OpenSpiel actions by
  default) caps a game: a game cut short ends there and pays the share of the win by the current
  standing (``result()`` of the unfinished game), or equal shares where the game cannot score an
  unfinished game.
- **Information.** A seat's information state is everything the engine lets it see: the events
  it may see (``events_for``), its view, and the steps of the action it is building. Its
  observation is its view and those steps. The tensors are the shared observation encoding
  (``tricolore.interop.observation``), and the hashed events for an information state.
  ``resample_from_infostate`` is the engine's ``determinize``, so OpenSpiel's IS-MCTS samples
  exactly what the seat could believe.
- **Free actions.** The codec offers a seat its free actions (gifts, deals, agreeing to end)
  beside its prompt's, at its turns; the seat stays to act until it takes one of its prompt's.
  ``free_actions`` false offers only the prompt's actions (a smaller tree, for CFR).
- **Parameters.** ``players``, ``seed``, ``max_game_length``, ``free_actions`` and each game
  option: a whole number, a flag or a text as itself; a list of whole numbers as text
  (``"5,6"``); -1 for a whole-number option that may be null (the rulebook's way, such as a first
  player drawn at random).

Importing this module needs OpenSpiel (``pip install 'tricolore[rl]'``); nothing else in
Tricolore imports it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

import numpy as np

from tricolore.interop import RL_EXTRA

try:
    import pyspiel
except ImportError as missing:
    raise ImportError(f"the OpenSpiel games need OpenSpiel; {RL_EXTRA}") from missing

from tricolore.core import Game, GameInfo, IllegalAction, OptionsError, State, get_game, list_games
from tricolore.interop.codec import FlatActions, Partial
from tricolore.interop.observation import VIEW_FEATURES, ObservationEncoder, hash_view

PREFIX = "tricolore_"
"""What every registered name starts with."""
MAX_GAME_LENGTH = 20_000
"""Default cap on a game's length, in OpenSpiel actions (steps of Tricolore actions)."""
NULL = -1
"""The parameter value standing for a null option: OpenSpiel parameters cannot be null."""
RESERVED = ("players", "seed", "max_game_length", "free_actions")
"""Parameters of every game, beside its options."""


def openspiel_name(game: str) -> str:
    """The name a Tricolore game is registered under: ``culottes-trials`` →
    ``tricolore_culottes_trials``."""
    return PREFIX + game.replace("-", "_")


# -- parameters ------------------------------------------------------------------------------------
def parameters(info: GameInfo) -> dict[str, Any]:
    """The game's OpenSpiel parameters with their defaults (see the module's docs)."""
    spec: dict[str, Any] = {"players": info.min_players, "seed": NULL if info.chance else 0,
                            "max_game_length": MAX_GAME_LENGTH, "free_actions": True}
    for option in info.options.schema(info.max_players):
        name, kind, default = option["name"], option["kind"], option["default"]
        if name in RESERVED:
            continue
        if kind == "bool":
            spec[name] = bool(default)
        elif kind in ("int", "seat"):
            spec[name] = NULL if default is None else int(default)
        elif kind == "number":
            spec[name] = float(NULL if default is None else default)
        elif kind == "list":
            spec[name] = ",".join(str(v) for v in default or ())
        else:
            spec[name] = "" if default is None else str(default)
    return spec


def options_from(info: GameInfo, params: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options from OpenSpiel parameters; a bad value gets
    :class:`~tricolore.core.OptionsError` with a sentence."""
    out: dict[str, Any] = {}
    for option in info.options.schema(info.max_players):
        name, kind, nullable = option["name"], option["kind"], option["nullable"]
        if name in RESERVED or name not in params:
            continue
        value = params[name]
        if kind == "list":
            text = str(value).strip()
            try:
                out[name] = [int(v) for v in text.split(",")] if text else []
            except ValueError:
                raise OptionsError(f"the option {name} is a list of whole numbers written like "
                                   f"\"5,6\"; got {text!r}") from None
        elif nullable and value == (NULL if kind in ("int", "seat", "number") else ""):
            out[name] = None
        else:
            out[name] = value
    return out


# -- what clones share and what they copy ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Table:
    """What every state of one OpenSpiel game shares: the game, its table and its codec."""

    definition: Game
    players: int
    options: Mapping[str, Any]
    actions: FlatActions
    max_length: int
    free_actions: bool
    """Whether a seat is offered its free actions (gifts, deals, agreeing to end) at its turns."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self  # shared by every state of the game, never changed


@dataclass(slots=True)
class Position:
    """A Tricolore state and the action being built: what a state owns and a clone copies.

    OpenSpiel clones a Python state by deep-copying its attributes, so this copies itself with
    the engine's own ``clone``.
    """

    engine: State
    partial: Partial
    chosen: tuple[int, ...] = ()
    """The steps of the action being built, in order."""
    legal: list[int] | None = field(default=None)
    """The legal steps, once worked out in this position."""
    seat: int | None = field(default=None)
    """The seat to act, once worked out in this position."""
    tensors: dict[tuple[int, bool, bool], np.ndarray] | None = field(default=None)
    """The observation tensors worked out in this position, per (player, perfect recall,
    spectator)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return Position(self.engine.clone(), self.partial, self.chosen, self.legal, self.seat)


# -- the game and its states ---------------------------------------------------------------------------
class TricoloreGame(pyspiel.Game):
    """A Tricolore game as an OpenSpiel game; :func:`register` makes one subclass per game."""

    definition: ClassVar[Game]
    game_type: ClassVar[pyspiel.GameType]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        info = self.definition.info
        chosen = {**parameters(info), **dict(params or {})}
        players, seed, max_length = chosen["players"], chosen["seed"], chosen["max_game_length"]
        for name, value in (("players", players), ("seed", seed), ("max_game_length", max_length)):
            if type(value) is not int:
                raise OptionsError(f"the parameter {name} must be a whole number; got {value!r}")
        if max_length < 1:
            raise OptionsError(f"the parameter max_game_length must be at least 1; got {max_length}")
        if seed < (NULL if info.chance else 0):
            fresh = "-1 (a fresh seed for every game) or " if info.chance else ""
            raise OptionsError(f"the parameter seed of {info.title} must be {fresh}at least 0; got "
                               f"{seed}")
        if type(chosen["free_actions"]) is not bool:
            raise OptionsError("the parameter free_actions must be true or false; got "
                               f"{chosen['free_actions']!r}")
        options = options_from(info, chosen)
        self.definition.new(players, 0, options)  # refuses bad options with their sentence now
        actions = FlatActions(info.name, players, options)
        super().__init__(self.game_type, pyspiel.GameInfo(
            num_distinct_actions=actions.size, max_chance_outcomes=0, num_players=players,
            min_utility=0.0, max_utility=1.0, utility_sum=1.0, max_game_length=max_length),
            dict(chosen))
        self.table = Table(self.definition, players, options, actions, max_length,
                           chosen["free_actions"])
        self.seed = seed
        self._seeds = random.Random(0)

    def new_initial_state(self) -> TricoloreState:
        """A game at its start (with a fresh seed from the game's sequence when ``seed`` is -1)."""
        seed = self._seeds.getrandbits(63) if self.seed == NULL else self.seed
        engine = self.definition.new(self.table.players, seed, self.table.options)
        return TricoloreState(self, self.table, engine)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> TricoloreObserver:
        """An observer: the observation (default) or, with ``perfect_recall``, the information
        state."""
        return TricoloreObserver(self.table.actions,
                                 iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                                 params)


class TricoloreState(pyspiel.State):
    """A Tricolore state, with the steps of the action the current player is building."""

    def __init__(self, game: pyspiel.Game, table: Table, engine: State) -> None:
        super().__init__(game)
        self._table = table
        self._position = Position(engine, table.actions.start())
        self._moves = 0

    @property
    def engine(self) -> State:
        """The Tricolore state (read it; change it only through ``apply_action``)."""
        return self._position.engine

    @property
    def partial(self) -> Partial:
        """The codec's partial action the current player is building."""
        return self._position.partial

    @property
    def building(self) -> tuple[int, ...]:
        """The steps chosen so far of the action the current player is building."""
        return self._position.chosen

    @property
    def truncated(self) -> bool:
        """Whether the game was cut short by ``max_game_length`` before its end."""
        return self._moves >= self._table.max_length and not self.engine.is_over()

    def current_player(self) -> int:
        """The lowest seat the engine asks, or ``TERMINAL``."""
        position = self._position
        if position.seat is None:
            position.seat = (int(pyspiel.PlayerId.TERMINAL) if self.is_terminal()
                             else position.engine.acting()[0])
        return position.seat

    def is_terminal(self) -> bool:
        """Whether the game is over, or cut short by ``max_game_length``."""
        return self.engine.is_over() or self._moves >= self._table.max_length

    def _legal_actions(self, player: int) -> list[int]:
        """The codec's legal steps for the current player (none for the others)."""
        if player != self.current_player() or player < 0:
            return []
        position = self._position
        if position.legal is None:
            actions, engine = self._table.actions, position.engine
            mask = np.array(actions.mask(engine, player, position.partial))
            if not self._table.free_actions and position.partial == actions.start():
                prompted = engine.legal_actions(player).kinds
                for kind in engine.free_actions(player).kinds:
                    if kind not in prompted:
                        mask[actions.index_of_kind(kind)] = 0
            position.legal = [int(i) for i in np.flatnonzero(mask)]
        return list(position.legal)

    def _apply_action(self, action: int) -> None:
        """One step of the current player's action; the Tricolore action is applied once it is
        complete. A step not among the legal steps raises ``IllegalAction`` and changes nothing."""
        seat = self.current_player()
        if int(action) not in self._legal_actions(seat):
            raise IllegalAction("not_legal_now", f"step {int(action)} is not one of the legal steps "
                                f"now: {self._table.actions.describe(int(action))} is not offered")
        position = self._position
        partial, complete = self._table.actions.choose(position.engine, seat, position.partial,
                                                       int(action))
        if complete is None:
            position.partial, position.chosen = partial, (*position.chosen, int(action))
        else:
            position.engine.apply(seat, complete)
            position.partial, position.chosen = self._table.actions.start(), ()
        position.legal = position.seat = None
        position.tensors = None
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        """What the step means (the codec's description)."""
        return f"seat {player}: {self._table.actions.describe(int(action))}"

    def returns(self) -> list[float]:
        """The share of the win at the end (1/k for each of k winners), zeros before."""
        if not self.is_terminal():
            return [0.0] * self._table.players
        return win_shares(self.engine)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TricoloreState:
        """A state consistent with all ``player_id`` knows: the engine's ``determinize``, seeded
        by ``probability_sampler`` (a callable returning a number in [0, 1)). The steps of an
        action being built stay if ``player_id`` is building it; another seat's are its secret."""
        rng = random.Random(int(probability_sampler() * 2**53))
        engine = self.engine.determinize(player_id, rng)
        other = TricoloreState(self.get_game(), self._table, engine)
        if player_id == self.current_player():
            other._position.partial = self._position.partial
            other._position.chosen = self._position.chosen
        other._moves = self._moves
        return other

    def __str__(self) -> str:
        """The table as a spectator sees it, and the steps of the action being built."""
        return json.dumps({"view": self.engine.view(None), "moves": self._moves,
                           "building": list(self.building)}, sort_keys=True, separators=(",", ":"))


def win_shares(engine: State) -> list[float]:
    """Each seat's share of the win: 1/k for each of the k winners. An unfinished game is scored
    by its standing, or shared equally when the game cannot score it."""
    players = engine.players
    try:
        winners = engine.result().winners
    except Exception:  # a game may refuse to score an unfinished game; then nobody is ahead
        return [1.0 / players] * players
    if not winners:
        return [1.0 / players] * players
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]


# -- observations ---------------------------------------------------------------------------------------
class TricoloreObserver:
    """Observations and information states, as OpenSpiel's ``PyObserver`` (see
    ``open_spiel/python/observation.py``).

    The string is canonical JSON: the seat, its view and the steps of the action it is building,
    and for an information state (``perfect_recall``) every event the seat may see. Public
    information is always included; ``private_info`` ``NONE`` observes as a spectator (no seat's
    secrets), ``SINGLE_PLAYER`` as the seat.

    The tensor is the shared observation encoding
    (:class:`tricolore.interop.observation.ObservationEncoder`: the seat, its prompt, the action
    it is building and its hashed view; a spectator has only the hashed view), and for an
    information state the events the seat may see, hashed the same way
    (:data:`~tricolore.interop.observation.VIEW_FEATURES` more values).
    """

    def __init__(self, actions: FlatActions, iig_obs_type: pyspiel.IIGObservationType,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"Tricolore observations take no parameters; got {dict(params)}.")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Tricolore observes as one seat or as a spectator, never with every "
                             "seat's secrets.")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.spectator = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.encoder = ObservationEncoder(actions)
        size = self.encoder.size + (VIEW_FEATURES if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:self.encoder.size]}
        if self.perfect_recall:
            self.dict["events"] = self.tensor[self.encoder.size:]

    def payload(self, state: TricoloreState, player: int) -> dict[str, Any]:
        """What ``player`` observes of ``state``, as JSON."""
        seat = None if self.spectator else player
        engine = state.engine
        out: dict[str, Any] = {"seat": seat, "view": engine.view(seat)}
        if self.perfect_recall:
            out["events"] = engine.events_for(seat)
        if self._building(state, seat):
            out["building"] = list(state.building)
        return out

    @staticmethod
    def _building(state: TricoloreState, seat: int | None) -> bool:
        """Whether ``seat`` is building an action (only it knows the steps)."""
        return seat is not None and not state.is_terminal() and seat == state.current_player()

    def set_from(self, state: TricoloreState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as ``player`` observes it (worked out once per
        position: OpenSpiel's algorithms ask again and again)."""
        position = state._position
        key = (player, self.perfect_recall, self.spectator)
        if position.tensors is None:
            position.tensors = {}
        found = position.tensors.get(key)
        if found is not None:
            self.tensor[:] = found
            return
        self._fill(state, player)
        position.tensors[key] = self.tensor.copy()

    def _fill(self, state: TricoloreState, player: int) -> None:
        self.tensor.fill(0.0)
        engine = state.engine
        observation = self.dict["observation"]
        if self.spectator:
            hash_view(engine.view(None), observation[self.encoder.size - VIEW_FEATURES:])
        else:
            partial = state.partial if self._building(state, player) else None
            observation[:] = self.encoder.encode(engine, player, partial)
        if self.perfect_recall:
            hash_view({"events": engine.events_for(None if self.spectator else player)},
                      self.dict["events"])

    def string_from(self, state: TricoloreState, player: int) -> str:
        """``state`` as ``player`` observes it, as canonical JSON."""
        return json.dumps(self.payload(state, player), sort_keys=True, separators=(",", ":"))


# -- registration -------------------------------------------------------------------------------------
def game_type(info: GameInfo) -> pyspiel.GameType:
    """The OpenSpiel description of a Tricolore game (see the module's docs)."""
    hidden = info.hidden_information or info.simultaneous
    return pyspiel.GameType(
        short_name=openspiel_name(info.name),
        long_name=f"Tricolore: {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if info.chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(info))


def register(game: str | None = None) -> list[str]:
    """Register every Tricolore game (or only ``game``) with OpenSpiel, and return the names
    registered, such as ``tricolore_culottes_trials``. Registering twice is harmless; an unknown
    game is refused with :class:`~tricolore.core.OptionsError` naming the known ones."""
    infos = [get_game(game).info] if game is not None else list_games()
    known = set(pyspiel.registered_names())
    names = []
    for info in infos:
        name = openspiel_name(info.name)
        if name not in known:
            kind = game_type(info)
            cls = type(f"Tricolore_{info.name.replace('-', '_')}", (TricoloreGame,),
                       {"definition": get_game(info.name), "game_type": kind,
                        "__doc__": f"{info.title} as an OpenSpiel game."})
            pyspiel.register_game(kind, cls)
        names.append(name)
    return names


register()  # as OpenSpiel's own Python games do: importing the module registers the games
