"""What every environment shares about an episode: the game being played through the flat action
codec, its rewards, its observations, the guard against stalls, and the step cap.

:class:`Episode` is the engine under the Gymnasium, PettingZoo AEC and Parallel environments: it
holds the state, counts its versions (one per action applied), and caches per version what the
environments hand out again and again (masks, views, observations, potentials), so nothing is
worked out twice for one position.

**Rewards** (``reward=``, :data:`REWARDS`):

- ``"win"`` (default): at the end, the seat's share of the win, ``1/k`` to each of the ``k``
  winners, 0 to the others.
- ``"score"``: at the end, the seat's final score placed between the lowest and the highest score
  at the table, ``(score - lowest) / (highest - lowest)``, in [0, 1] (1 for everyone when all
  scores are equal). The same rule in every game, whose scores differ in scale (Culottes' points
  may be negative, Revolution!'s run to hundreds): the reward is the seat's standing by score, not
  only whether it won.
- ``"shaped"``: the win share at the end, plus at every step the change of a potential ``Φ``
  (potential-based shaping, Ng, Harada and Russell, 1999: ``r + Φ(s') - Φ(s)`` with ``Φ = 0`` at
  the end, so the shaping terms of an episode sum to ``-Φ(s₀)`` whatever the policy does, and
  optimal play is unchanged). ``Φ`` is :data:`SHAPING_WEIGHT` × ``tanh`` of the seat's own score
  by the game's own scoring (``result()``) of the position now, in units of the game's
  :data:`SCORE_SCALE`. Every game scores an unfinished position, so this follows each game's
  score-relevant quantities as they change (Culottes' points, Let Them Eat Cake's cakes, Medals
  and Generals, Revolution!'s influence, Bread and Circuses' Gold, the trials' points). The
  position is scored in a world consistent with what the seat knows (the engine's
  ``determinize``, seeded by the version): a seat's own score is something it knows in four games
  (the tests check it), and the others' scores, which may rest on their secrets, are not used.
  In Culottes a seat's score may rest on a citizen whose nature it does not know; then that
  citizen is as the sampled world has it.
  A game cut short pays no terminal share; the shaping terms up to the cut are paid.

**Stalls** (:class:`StallGuard`). A policy could stall a game for ever with free actions (agreeing
to end and taking it back, a disclosure, taking a tile back): actions after which the seat is still
asked, at the same stage of the game (its phase, round, turn and trial, :func:`stage`). So a free
action that changed nothing the seat can see (its view is the same after it, as it is when the
state's digest is) or that repeats one the seat took already is not offered again to that seat
(masked) until it takes an action that is not free; and after :data:`FREE_ACTIONS_PER_STAGE` free
actions in one stage a seat is offered only the kinds of its prompt's actions it has not taken
freely. A seat asked always keeps something to choose: if the guard would bar everything, the
codec's mask is offered as it is. Revolution! has no end while bids tie, so the environments end it
after 40 rounds unless ``max_rounds`` is given (:data:`ENVIRONMENT_OPTIONS`). With this, a masked
random policy and one that always takes the first legal index finish every game well before
:data:`MAX_STEPS`.

**Observations** (``observation=``, :data:`OBSERVATIONS`): ``"flat"`` (default), ``"structured"``
or ``"hashed"``, made by :func:`tricolore.interop.observation.make_observer`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tricolore.core.actions import restored
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.model import Seat, State
from tricolore.core.registry import get_game
from tricolore.interop.codec import FlatActions, Partial, whole_index

MAX_STEPS = 5000
"""Steps after which a game still running is truncated (an environment's default)."""
FREE_ACTIONS_PER_STAGE = 4
"""Free actions a seat may take in one stage of a game (:func:`stage`); then only the kinds of its
prompt's actions it has not taken freely are offered."""
REWARDS = ("win", "score", "shaped")
"""The reward schemes (see the module's documentation)."""
OBSERVATIONS = ("hashed", "structured", "flat")
"""The observation forms (see :mod:`tricolore.interop.observation`)."""
SHAPING_WEIGHT = 0.1
"""The largest size of the shaping potential (the win is worth 1)."""
SCORE_SCALE: dict[str, float] = {
    "culottes": 5.0, "culottes-trials": 3.0, "let-them-eat-cake": 20.0, "revolution": 100.0,
    "bread-and-circuses": 10.0}
"""A typical score in each game (the shaping potential's unit)."""
DEFAULT_SCORE_SCALE = 10.0
"""The unit of a game not in :data:`SCORE_SCALE`."""


def win_shares(state: State) -> list[float]:
    """The reward of each seat at the end: ``1/k`` for each of the ``k`` winners, else 0."""
    winners = state.result().winners
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.players)]


def score_shares(state: State) -> list[float]:
    """Each seat's final score between the lowest (0) and the highest (1) at the table."""
    scores = [float(s) for s in state.result().scores]
    low, high = min(scores), max(scores)
    if high == low:
        return [1.0] * len(scores)
    return [(s - low) / (high - low) for s in scores]


ENVIRONMENT_OPTIONS: dict[str, dict[str, Any]] = {"revolution": {"max_rounds": 40}}
"""Game options the environments use unless given: Revolution! has no end while bids tie (one
policy playing every seat ties for ever), so an environment's game ends after 40 rounds (varied
play fills the board in 12 to 26)."""


def environment_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` over the environments' defaults for ``game`` (:data:`ENVIRONMENT_OPTIONS`)."""
    return {**ENVIRONMENT_OPTIONS.get(get_game(game).info.name, {}), **options}


def agent_name(seat: Seat) -> str:
    """The PettingZoo agent of ``seat``: ``player_0``..."""
    return f"player_{seat}"


def default_players(game: str) -> int:
    """A table of 4, or the nearest size the game allows."""
    info = get_game(game).info
    return min(max(4, info.min_players), info.max_players)


def check_choice(name: str, value: object, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``; an :class:`OptionsError` with a sentence otherwise."""
    if not isinstance(value, str) or value not in allowed:
        raise OptionsError(f"{name} must be one of {', '.join(repr(a) for a in allowed)}; got {value!r}")
    return value


def make_observation(codec: FlatActions, form: str) -> Any:
    """The observer of ``form`` for ``codec`` (:func:`~tricolore.interop.observation.make_observer`)."""
    from tricolore.interop import observation

    check_choice("observation", form, OBSERVATIONS)
    return observation.make_observer(codec, form)


STAGE = ("phase", "round", "turn", "trial")
"""The attributes of a game's state that say where the game is (those it has)."""


def stage(state: State, names: Sequence[str] = STAGE) -> tuple[Any, ...]:
    """Where the game is: its phase, round, turn and trial (:data:`STAGE`, those it has).
    ``names``: those of :data:`STAGE` the game's state has (:func:`stage_names`), if known."""
    return tuple(getattr(state, name, None) for name in names)


def stage_names(state: State) -> tuple[str, ...]:
    """The attributes of :data:`STAGE` ``state`` has: asked once a game, since looking for one a
    state does not have raises and catches an exception inside ``getattr``."""
    return tuple(name for name in STAGE if hasattr(state, name))


class StallGuard:
    """Keeps seats from stalling a game with free actions (see the module's documentation)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return restored(self, self.players)

    def __init__(self, players: int) -> None:
        self.players = players
        self.stage: tuple[Any, ...] = ()
        """Where the game is (:func:`stage`); free actions are counted within one stage."""
        self.free: list[int] = []
        """The free actions each seat took in this stage."""
        self.kinds: list[set[str]] = []
        """Their kinds, per seat."""
        self.taken: list[set[tuple[int, ...]]] = []
        """The free actions (as flat paths) each seat took since its last action of a prompt."""
        self.barred: list[set[tuple[int, ...]]] = []
        """The free actions no longer offered to each seat."""
        self.start(())

    def start(self, stage: tuple[Any, ...]) -> None:
        """A new episode, or a new stage of the game: every seat's count starts again."""
        players = range(self.players)
        self.stage = stage
        self.free = [0 for _ in players]
        self.kinds = [set() for _ in players]
        self.taken = [set() for _ in players]
        self.barred = [set() for _ in players]

    def capped(self, seat: Seat) -> bool:
        """Whether ``seat`` took :data:`FREE_ACTIONS_PER_STAGE` free actions in this stage."""
        return self.free[seat] >= FREE_ACTIONS_PER_STAGE

    def record(self, seat: Seat, kind: str, path: tuple[int, ...] | None, free: bool, changed: bool,
               stage: tuple[Any, ...]) -> None:
        """``seat`` took an action of ``kind`` (spelled ``path``; ``None`` for a seat that does not
        choose through the mask), which was ``free`` (the seat still asked after it, in the same
        stage), ``changed`` what the seat sees or not, and led to ``stage``."""
        if stage != self.stage:
            self.start(stage)
        elif not free:
            self.taken[seat].clear()
            self.barred[seat].clear()
        else:
            self.free[seat] += 1
            self.kinds[seat].add(kind)
            if path is not None:
                if not changed or path in self.taken[seat]:
                    self.barred[seat].add(path)
                self.taken[seat].add(path)


class Episode:
    """One game played through the flat action codec, with the caches, rewards and stall guard
    every environment shares (see the module's documentation)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return restored(self, self.codec, self.observation_form, self.reward)

    def __init__(self, codec: FlatActions, observation: str = "flat", reward: str = "win") -> None:
        self.codec = codec
        self.game = get_game(codec.game)
        self.players = codec.players
        self.reward = check_choice("reward", reward, REWARDS)
        if observation == "hashed":
            from tricolore.interop.observation import ViewHasher
            shared = ViewHasher(kept=self.players)
            self.observers = [make_observation(codec, observation) for _ in range(self.players)]
            for observer in self.observers:
                observer.hasher = shared
        else:
            self.observers = [make_observation(codec, observation)] * self.players
        """The observer of each seat. The structured forms share one, which reads the public part
        of a version's views once for all the seats; hashed, one per seat (each keeps what it
        worked out for the last view it saw), sharing one
        :class:`~tricolore.interop.observation.ViewHasher`, which hashes a part of a view once for
        all the seats that see it."""
        self.observer = self.observers[0]
        self.observation_form = observation
        self.scale = SCORE_SCALE.get(codec.game, DEFAULT_SCORE_SCALE)
        self.guard = StallGuard(self.players)
        self.state: State = self.game.new(self.players, 0, codec.options)
        self.version = 0
        self._cache: dict[Any, Any] = {}
        self._split = type(self.state).views_split()
        self._stage = stage_names(self.state)
        """The attributes of :data:`STAGE` the game's states have."""
        self._paid = [0.0] * self.players
        noop = np.zeros(codec.size + 1, dtype=np.int8)
        noop[codec.size] = 1
        noop.flags.writeable = False
        self._noop = noop
        """The mask of a seat not asked in the Parallel form: the no-op alone (read-only, one
        array every such seat is given)."""

    @property
    def space(self) -> Any:
        """The Gymnasium space of the ``"observation"`` entry."""
        return self.observer.space

    def start(self, seed: int) -> State:
        """A new game with ``seed`` (the last game's state is released:
        :meth:`~tricolore.core.model.State.release`)."""
        self.state.release()
        self.state = self.game.new(self.players, seed, self.codec.options)
        self.version = 0
        self._cache.clear()
        self._stage = stage_names(self.state)
        self.guard.start(stage(self.state, self._stage))
        self._paid = [self.potential(s) for s in range(self.players)]
        return self.state

    # -- masks and steps ---------------------------------------------------------------------------
    def mask(self, seat: Seat, partial: Partial) -> np.ndarray:
        """The indices offered to ``seat`` building ``partial``: the codec's, less the free actions
        the stall guard bars (read-only; worked out once per version)."""
        return self._mask_found(seat, partial)[1]

    def offers_anything(self, seat: Seat, partial: Partial) -> bool:
        """Whether :meth:`mask` allows any index."""
        return self._mask_found(seat, partial)[2]

    def _mask_found(self, seat: Seat, partial: Partial) -> tuple[Partial, np.ndarray, bool]:
        """The partial, :meth:`mask` and whether it allows anything (worked out once per version)."""
        key = ("mask", seat, partial.path)
        found = self._cache.get(key)
        if found is not None and (found[0] is partial or found[0] == partial):
            return found
        state = self.state
        if state.is_over() or seat not in state.pending():
            mask = np.zeros(self.codec.size, dtype=np.int8)
            anything = False
        else:
            mask = self._offered(seat, partial)
            anything = bool(np.count_nonzero(mask))  # not mask.any(), interpreted in numpy
            if not anything:
                mask = self.codec.mask(state, seat, partial)  # never leave a seat asked with nothing
                anything = bool(np.count_nonzero(mask))
        mask.flags.writeable = False
        found = self._cache[key] = (partial, mask, anything)
        return found

    def _offered(self, seat: Seat, partial: Partial) -> np.ndarray:
        """The codec's mask less what the stall guard bars (possibly empty)."""
        mask = self.codec.mask(self.state, seat, partial)
        if partial.empty and self.guard.capped(seat):
            prompted, used = self.state.legal_actions(seat).kinds, self.guard.kinds[seat]
            for index, kind in enumerate(self.codec.kinds):
                if kind not in prompted or kind in used:
                    mask[index] = 0
        barred = self.guard.barred[seat]
        if barred:
            depth = len(partial.path)
            for index in sorted({p[depth] for p in barred if len(p) > depth and p[:depth] == partial.path}):
                if mask[index] and self._dead(seat, partial, index):
                    mask[index] = 0
        return mask

    def _dead(self, seat: Seat, partial: Partial, index: int) -> bool:
        """Whether every action ``index`` leads to from ``partial`` is barred."""
        path = (*partial.path, index)
        if path in self.guard.barred[seat]:
            return True
        after, action = self.codec.choose(self.state, seat, partial, index)
        if action is not None:
            return False
        return not np.count_nonzero(self._offered(seat, after))

    def choose(self, seat: Seat, partial: Partial, index: object) -> tuple[Partial, dict[str, Any] | None]:
        """As :meth:`FlatActions.choose`, refusing too what the stall guard bars."""
        index = whole_index(index)
        if 0 <= index < self.codec.size and not self.mask(seat, partial)[index] \
                and self.codec.mask(self.state, seat, partial)[index]:
            raise IllegalAction("stalling", f"{self.codec.describe(index)} is not offered again until "
                                "an action of a prompt is taken")
        return self.codec.choose(self.state, seat, partial, index)

    def apply(self, seat: Seat, action: dict[str, Any], path: tuple[int, ...] | None) -> None:
        """Apply ``action`` (spelled ``path``) for ``seat``, and tell the stall guard (``path``
        ``None``: a seat that does not choose through the mask, such as a named strategy's).

        The action is *free* if the seat is still asked after it and the game is at the same
        stage; it *changed nothing* if the seat's view is the same after it (so the guard never
        learns what the seat may not know)."""
        state = self.state
        seen = None if path is None else self._sight(seat)
        state.apply(seat, action)
        self.changed()
        now = stage(state, self._stage)
        free = now == self.guard.stage and seat in state.pending()
        changed = seen is None or not free or self._sight(seat) != seen
        self.guard.record(seat, action["type"], path, free, changed, now)

    def _sight(self, seat: Seat) -> object:
        """What ``seat`` sees now, to tell whether an action changed it: its view, or, when the
        game's views are a public part and each seat's secrets, those two parts (made once per
        version, and what the observations read, so that no view is put together for it)."""
        if self._split:
            return (self._public(), self._private(seat))
        return self.view(seat)

    # -- every seat at once (the Parallel form) ------------------------------------------------------
    def step_together(self, chosen: Sequence[object], partials: list[Partial], noop: int,
                      strict: bool) -> tuple[list[str | None], bool]:
        """One index from every seat at once: ``chosen[seat]`` an index, or ``noop`` or ``None``
        for none; ``partials[seat]`` the action it is building (replaced in place by what it
        builds next). The actions completed are applied in seat order (one made illegal by an
        earlier one is dropped: its seat is asked again); a seat whose action can no longer be
        finished after them starts again. Returns each seat's refusal (``None`` if its index was
        taken) and whether anything was applied. ``strict``: at the first refusal, return at once,
        having changed nothing."""
        asked = self.state.pending()
        refusals: list[str | None] = [None] * self.players
        after: list[Partial | None] = [None] * self.players
        built: list[tuple[Seat, dict[str, Any], tuple[int, ...]]] = []
        for seat in range(self.players):
            index = chosen[seat]
            if seat not in asked and (index is None or (type(index) is int and index == noop)):
                continue  # a seat not asked, sending the no-op
            partial = partials[seat]
            sentence: str | None = None
            try:
                number = noop if index is None else whole_index(index)
                if number == noop:
                    if seat in asked and self.offers_anything(seat, partial):
                        sentence = f"agent {agent_name(seat)} is asked to act and cannot pass"
                elif seat not in asked:
                    sentence = f"agent {agent_name(seat)} is not asked to act: send the no-op"
                else:
                    after[seat], action = self.choose(seat, partial, number)
                    if action is not None:
                        built.append((seat, action, (*partial.path, number)))
            except IllegalAction as refused:
                sentence = str(refused)
            if sentence is not None:
                refusals[seat] = sentence
                if strict:
                    return refusals, False
        for seat in range(self.players):
            moved = after[seat]
            if moved is not None:
                partials[seat] = moved
        applied = False
        for seat, action, path in built:
            try:
                self.apply(seat, action, path)
                applied = True
            except IllegalAction:  # made illegal by one applied before it: asked again
                pass
        if applied:
            now = self.state.pending()
            for seat in range(self.players):
                partial = partials[seat]
                if partial.empty:
                    continue
                if not (self.offers_anything(seat, partial) if seat in now
                        else bool(np.count_nonzero(self.codec.mask(self.state, seat, partial)))):
                    partials[seat] = self.codec.start()
        return refusals, applied

    def step_parallel(self, agents: Sequence[str], actions: Mapping[str, Any], partials: list[Partial],
                      noop: int, strict: bool, last_step: bool, penalty: float
                      ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
                                 dict[str, dict[str, Any]]]:
        """One step of the Parallel form: ``actions[agent]`` from every seat (``agents[seat]``),
        through :meth:`step_together`. ``strict``: a refusal raises
        :class:`~tricolore.core.errors.IllegalAction` having changed nothing; otherwise it costs
        its seat ``penalty`` and its sentence is in its info. ``last_step``: the step cap is
        reached with this step (a game still running is truncated). Returns the observations,
        rewards, terminations, truncations and infos, keyed by agent."""
        if type(actions) is not dict and not isinstance(actions, Mapping):  # an ABC check is slow
            raise IllegalAction("malformed", "a Parallel step takes a dictionary of each agent's action "
                                f"index, like {{{agents[0]!r}: 3}}; you sent {type(actions).__name__}")
        given: dict[str, Any] = actions if isinstance(actions, dict) else dict(actions)  # read natively
        chosen = [given.get(agent) for agent in agents]
        refusals, applied = self.step_together(chosen, partials, noop, strict)
        if strict:
            for sentence in refusals:
                if sentence is not None:
                    raise IllegalAction("masked_out", sentence)
        over = self.state.is_over()
        shares = self.rewards() if applied or over else [0.0] * self.players
        cut = not over and last_step
        rewards: dict[str, float] = {}
        infos: dict[str, dict[str, Any]] = {}
        for seat, agent in enumerate(agents):
            sentence = refusals[seat]
            if sentence is None:
                rewards[agent] = shares[seat]
                infos[agent] = {}
            else:
                rewards[agent] = shares[seat] + penalty
                infos[agent] = {"invalid_action": sentence}
        # comprehensions, not dict.fromkeys: the compiled build builds these natively, where it
        # calls dict.fromkeys through Python
        terminations = {agent: over for agent in agents}  # noqa: C420
        truncations = {agent: cut for agent in agents}  # noqa: C420
        return self.observations_together(agents, partials), rewards, terminations, truncations, infos

    def observations_together(self, agents: Sequence[str], partials: Sequence[Partial]
                              ) -> dict[str, dict[str, Any]]:
        """Every seat's observation and mask (:meth:`observe_all`, :meth:`masks_together`), keyed
        by its agent (``agents[seat]``)."""
        seen = self.observe_all(partials)
        masks = self.masks_together(partials)
        return {agent: {"observation": seen[seat], "action_mask": masks[seat]}
                for seat, agent in enumerate(agents)}

    def masks_together(self, partials: Sequence[Partial]) -> list[np.ndarray]:
        """Every seat's mask with the no-op as its last index (read-only): a seat asked gets
        :meth:`mask` (the no-op only if that offers nothing), any other the no-op alone (one
        shared array: a step's masks are read, never changed, and most seats are not asked)."""
        asked = self.state.pending()
        size = self.codec.size
        noop = self._noop
        out: list[np.ndarray] = []
        for seat in range(self.players):
            if seat in asked:
                _, mask, anything = self._mask_found(seat, partials[seat])
                if anything:
                    row = np.zeros(size + 1, dtype=np.int8)
                    row[:size] = mask
                    row.flags.writeable = False
                    out.append(row)
                    continue
            out.append(noop)
        return out

    def changed(self) -> None:
        """A new version of the state: what was cached for the last one is forgotten."""
        self.version += 1
        self._cache.clear()

    # -- what a seat sees ----------------------------------------------------------------------------
    def view(self, seat: Seat) -> dict[str, Any]:
        """``seat``'s view (made once per version; do not change it). The public part of a
        version's views is made once and shared by every seat's view (when the game's view is
        :meth:`~tricolore.core.model.State.public_view` plus its secrets), so an observer reads
        it once for all."""
        key = ("view", seat)
        found = self._cache.get(key)
        if found is None:
            state = self.state
            if self._split:
                found = dict(self._public())
                found["seat"] = seat
                you = self._private(seat)
                if you is not None:
                    found["you"] = you
            else:
                found = state.view(seat)
            self._cache[key] = found
        return found

    def _public(self) -> dict[str, Any]:
        """The public part of this version's views (made once)."""
        public = self._cache.get("public")
        if public is None:
            public = self._cache["public"] = self.state.read_only_public_view()
        return public

    def _private(self, seat: Seat) -> dict[str, Any] | None:
        """``seat``'s secrets in this version (made once)."""
        key = ("private", seat)
        if key in self._cache:
            return self._cache[key]
        you = self._cache[key] = self.state.read_only_private_view(seat)
        return you

    def observe(self, seat: Seat, partial: Partial | None) -> Any:
        """``seat``'s observation building ``partial`` (fresh arrays the caller may keep; worked
        out once per version and partial)."""
        path = None if partial is None else partial.path
        key = ("observation", seat, path)
        found = self._cache.get(key)
        observer = self.observers[seat]
        if found is None or (found[0] is not partial and found[0] != partial):
            found = (partial, observer.vector(self.state, seat, partial, view=self.view(seat),
                                              public=self._cache.get("public")))
            self._cache[key] = found
        return observer.output(found[1].copy())

    def observe_all(self, partials: Sequence[Partial | None]) -> list[Any]:
        """Every seat's observation, ``partials[seat]`` the action it is building: as
        :meth:`observe` gives each, worked out together when the game's views are its public part
        plus each seat's secrets and the form is structured or flat (the public arrays are then
        read once and turned to every seat in one step)."""
        observer = self.observer
        if not self._split or self.observation_form == "hashed":
            return [self.observe(seat, partials[seat]) for seat in range(self.players)]
        secrets = self._cache.get("secrets")
        if secrets is None:  # one list a version, so that the observer knows them by identity
            secrets = self._cache["secrets"] = [self._private(seat) for seat in range(self.players)]
        vectors = observer.vectors(self.state, self._public(), secrets, partials)
        if self.observation_form == "flat":
            return vectors
        return [observer.output(vector) for vector in vectors]

    # -- rewards ----------------------------------------------------------------------------------------
    def potential(self, seat: Seat) -> float:
        """The shaping potential ``Φ`` of ``seat`` now (0 unless the reward is ``"shaped"``, and 0
        once the game is over)."""
        if self.reward != "shaped" or self.state.is_over():
            return 0.0
        key = ("potential", seat)
        found = self._cache.get(key)
        if found is None:
            world = self.state.determinize(seat, random.Random(self.version * self.players + seat))
            try:
                scores = world.result().scores
            except Exception:  # a game may refuse to score an unfinished game: no gradient then
                scores = (0.0,) * self.players
            found = self._cache[key] = SHAPING_WEIGHT * math.tanh(float(scores[seat]) / self.scale)
        return found

    def rewards(self, seats: Sequence[Seat] | None = None) -> list[float]:
        """Each seat's reward since the last call (see the module's documentation); with
        ``seats``, the shaping terms of those seats only (the others' are left for later)."""
        over = self.state.is_over()
        if over:
            final = score_shares(self.state) if self.reward == "score" else win_shares(self.state)
        else:
            final = [0.0] * self.players
        if self.reward != "shaped":
            return final
        out = list(final)
        for seat in range(self.players) if seats is None else seats:
            now = self.potential(seat)
            out[seat] += now - self._paid[seat]
            self._paid[seat] = now
        return out
