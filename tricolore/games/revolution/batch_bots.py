"""Revolution!'s named strategies as arrays: ``printer-first`` and ``area-control`` in the batch.

These are the decisions of :mod:`tricolore.games.revolution.bots`, made for many games at once:

- **the bid**, chip by chip, strongest currency first, each chip on the space where it adds most
  value (the space's value, shaken by up to a half, tripled for a Force chip, divided by one plus
  the chips already bid there), among the spaces :class:`~tricolore.games.revolution.bids.ChipByChip`
  offers, so every bid is legal; ties go to the space whose name comes last, as the bots' ``max``
  over (value, currency, space) does;
- **the space values**: ``printer-first``'s are fixed by the chart; ``area-control``'s depend on
  the board (an open area within reach, the biggest swing the Spy or the Apothecary would make);
- **the Spy, the Apothecary and Remove 1 Influence**: the choice that most improves the area
  support the player would win if the game ended now, less the best opponent's; the first such
  choice in the bots' order, declined when it gains nothing (a removal is always made).

The batch plays the strategies with their parameters' defaults (the constants of
:mod:`~tricolore.games.revolution.bots`). With the shake turned off (``rng=None``) a bid here is
the bot's bid with a generator that always draws 0; ``tests/revolution/test_batch.py`` checks
that, and every power choice, against the bots on positions of real games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tricolore.games.revolution.bids import table_of
from tricolore.games.revolution.bots import (
    AREA_CARD_WORTH,
    AREA_REACH,
    CHIP_WORTH,
    FORCE_WEIGHT,
    PRINTER_CARD_WORTH,
    PRINTER_POWER_BONUS,
    SHAKE,
)
from tricolore.games.revolution.data import CURRENCIES, FORCE, MAX_SPACES_PER_BID

Array = npt.NDArray[Any]
NAMED = ("printer-first", "area-control")
"""The named strategies the batch plays, as :mod:`~tricolore.games.revolution.bots` names them."""
CHUNK = 4096
"""Rows of games evaluated at once for the Apothecary's swaps (their arrays grow as areas² × players²)."""


# -- standing on the board -------------------------------------------------------------------------
# Boards are turned so that the deciding player is column 0 ("me first"): their standing is then
# column 0 less the best of the others, with no per-row masks over a large array.
def _leaders(markers: Array, support: Array) -> Array:
    """Each player's support from areas they lead alone: ``markers`` [..., P], ``support`` the
    area's support, broadcast against ``markers`` without its last axis."""
    best = markers.max(axis=-1, keepdims=True)
    top = markers == best
    sole = (top.sum(axis=-1, keepdims=True, dtype=np.int8) == 1) & (best > 0)
    return (top & sole) * np.asarray(support, dtype=np.int16)[..., None]


def _standing(won: Array) -> Array:
    """Column 0 less the best other column of ``won`` [..., P] (me first)."""
    others = won[..., 1]
    for k in range(2, won.shape[-1]):
        others = np.maximum(others, won[..., k])
    return won[..., 0] - others


def _me_first(board: Array, me: Array) -> tuple[Array, Array]:
    """``board`` [D, A, P] with each row's players turned so that ``me`` is column 0, as int16,
    and the turn (``order[d, k]`` is the seat in column ``k``)."""
    p = board.shape[-1]
    order = (me[:, None] + np.arange(p)[None, :]) % p
    return np.take_along_axis(board, order[:, None, :], axis=2).astype(np.int16), order


def _by_seat(values: Array, order: Array) -> Array:
    """``values`` [D, ..., P] indexed by turned column, re-indexed by seat."""
    out = np.empty_like(values)
    shape = (len(order),) + (1,) * (values.ndim - 2) + (order.shape[1],)
    np.put_along_axis(out, np.broadcast_to(order.reshape(shape), values.shape), values, axis=-1)
    return out


def now_points(board: Array, me: Array, area_support: Array) -> Array:
    """The area points of ``me`` on ``board`` as it is ([D]): support of the areas ``me`` leads
    alone, less the best opponent's."""
    turned, _ = _me_first(board, me)
    return _standing(_leaders(turned, area_support[None, :]).sum(axis=1, dtype=np.int16))


def spy_gains(board: Array, me: Array, area_support: Array, remove: bool = False) -> tuple[Array, Array]:
    """For each (area, victim): the area points after the Spy replaces the victim's marker with
    ``me``'s (or, with ``remove``, after the victim's marker is removed), and whether that choice
    exists. ``board`` [D, A, P]; returns two [D, A, P] arrays (points, valid)."""
    p = board.shape[-1]
    turned, order = _me_first(board, me)
    w = _leaders(turned, area_support[None, :])  # [D, A, P]
    base = w.sum(axis=1, dtype=np.int16)  # [D, P]
    delta = -np.eye(p, dtype=np.int16)  # [V, P]
    if not remove:
        delta[:, 0] += 1
    variant = turned[:, :, None, :] + delta[None, None]  # [D, A, V, P]
    won = (base[:, None, None, :] - w[:, :, None, :]) + _leaders(variant, area_support[None, :, None])
    points = _standing(won)  # [D, A, V]
    valid = turned > 0
    valid[:, :, 0] = False
    return _by_seat(points, order), _by_seat(valid, order)


def swap_gains(board: Array, me: Array, area_support: Array) -> tuple[Array, Array]:
    """For each (first area, second area, other player): the area points after ``me``'s marker
    in the first area and the other's in the second change places, and whether that swap is one
    the bots consider. Returns two [D, A, A, P] arrays (points, valid)."""
    _, a, p = board.shape
    turned, order = _me_first(board, me)
    w = _leaders(turned, area_support[None, :])  # [D, A, P]
    base = w.sum(axis=1, dtype=np.int16)
    eye = np.eye(p, dtype=np.int16)
    gives = eye.copy()
    gives[:, 0] -= 1  # me -1, the other +1
    first = _leaders(turned[:, :, None, :] + gives[None, None], area_support[None, :, None])
    first -= w[:, :, None, :]  # [D, A1, O, P]: what the first area's change does
    second = _leaders(turned[:, :, None, :] - gives[None, None], area_support[None, :, None])
    second -= w[:, :, None, :]  # [D, A2, O, P]
    first += base[:, None, None, :]
    won = first[:, :, None] + second[:, None]  # [D, A1, A2, O, P]
    points = _standing(won)  # [D, A1, A2, O]
    valid = ((turned[:, :, 0] > 0)[:, :, None, None] & (turned > 0)[:, None, :, :]
             & ~np.eye(a, dtype=bool)[None, :, :, None])
    valid[..., 0] = False
    return _by_seat(points, order), _by_seat(valid, order)


def best_choice(points: Array, valid: Array, now: Array, strict: bool) -> tuple[Array, Array]:
    """The first valid choice with the most points per row (choices flattened in C order), and
    whether it is taken: with ``strict`` only a real gain over ``now``, else whenever one exists."""
    flat = np.where(valid, points, np.iinfo(np.int16).min).reshape(len(points), -1)
    pick = flat.argmax(axis=1)
    gain = flat[np.arange(len(flat)), pick].astype(np.int64) - now
    has = np.asarray(valid.reshape(len(valid), -1).any(axis=1))
    taken = np.logical_and(has, gain > 0) if strict else np.asarray(has)
    return pick, taken


def power_choice(kind: str, board: Array, me: Array, area_support: Array) -> tuple[Array, Array]:
    """The bots' choice for ``kind`` (``"spy"``, ``"swap"`` or ``"remove_influence"``) on each
    row's ``board``: the index of the choice (in the order of :func:`spy_gains` or
    :func:`swap_gains`, flattened) and whether it is made. The Spy and the Apothecary are declined
    when no choice gains area points; a removal is always made."""
    if kind == "swap":
        points, valid = swap_gains(board, me, area_support)
    else:
        points, valid = spy_gains(board, me, area_support, remove=kind == "remove_influence")
    return best_choice(points, valid, now_points(board, me, area_support),
                       strict=kind != "remove_influence")


# -- space values ----------------------------------------------------------------------------------
def space_values(strategy: str, chart: Any, board: Array, markers_left: Array | None, me: Array
                 ) -> Array:
    """What winning each space is worth to ``strategy`` ([D, S] floats), as the bots value them.

    ``chart`` is the batch's :class:`~tricolore.games.revolution.batch.Chart`; ``board`` the
    markers [D, A, P]; ``markers_left`` [D, P] in the published edition, else ``None``."""
    worth = np.array([CHIP_WORTH[c] for c in CURRENCIES])
    plain = chart.support + (chart.gains * worth).sum(axis=1)  # support plus the chips won
    special = np.array([s.special for s in chart.spaces], dtype=object)
    d, s_count = len(board), len(chart.spaces)
    if strategy == "printer-first":
        row = plain + np.where(special != None, PRINTER_POWER_BONUS, 0.0)  # noqa: E711 (names)
        row = np.where(special == "card", PRINTER_CARD_WORTH, row)
        return np.tile(row, (d, 1))
    if strategy != "area-control":
        raise ValueError(f"the batch has no strategy {strategy!r}")
    out = np.tile(plain * 0.5, (d, 1))
    out_of_markers = (np.zeros(d, dtype=bool) if markers_left is None
                      else markers_left[np.arange(d), me] == 0)
    rows = np.arange(d)
    for si in range(s_count):
        area = int(chart.area[si])
        if area >= 0:
            markers = board[:, area, :].astype(np.int64)
            mine = markers[rows, me]
            others = np.where(np.arange(markers.shape[1]) == me[:, None], -1, markers).max(axis=1)
            reach = (markers.sum(axis=1) < chart.area_spaces[area]) & (mine - others >= -AREA_REACH)
            value = (np.where(reach, chart.area_support[area] / 3, 2.0)
                     + chart.support[si] * 0.3)
            out[:, si] = np.where(out_of_markers, out[:, si], value)
    now = now_points(board, me, chart.area_support)
    for si, kind in ((chart.spy, "spy"), (chart.apothecary, "apothecary")):
        if si < 0:
            continue
        best = np.zeros(d, dtype=np.int64)
        for lo in range(0, d, CHUNK):
            part = slice(lo, lo + CHUNK)
            points, valid = (spy_gains(board[part], me[part], chart.area_support) if kind == "spy"
                             else swap_gains(board[part], me[part], chart.area_support))
            flat = np.where(valid, points, np.iinfo(np.int16).min).reshape(len(points), -1)
            has = valid.reshape(len(valid), -1).any(axis=1)
            best[part] = np.where(has, flat.max(axis=1), 0)
        out[:, si] = np.maximum(0.0, (best - now) / 3)
    if chart.card >= 0:
        out[:, chart.card] = AREA_CARD_WORTH
    return out


# -- the bid ---------------------------------------------------------------------------------------
class GreedyBids:
    """Bids built chip by chip by value, for many players at once (see the module docstring)."""

    def __init__(self, chart: Any) -> None:
        table = table_of(chart.spaces)
        self.s = len(chart.spaces)
        self.caps = np.array([[-1 if k is None else k for k in caps] for caps in table.caps])  # [3, S]
        self.open_all = np.array(table.open_all)
        self.any_open = table.any_open
        # Ties go to the last name: argmax over spaces ordered by name, last first.
        self.by_name = np.array(sorted(range(self.s), key=lambda i: table.names[i], reverse=True))
        self.weight = [FORCE_WEIGHT if c == FORCE else 1.0 for c in CURRENCIES]

    def build(self, holdings: Array, values: Array, rng: np.random.Generator | None) -> Array:
        """Each row's bid ([D, S, 3] chips by space and currency) for ``holdings`` [D, 3] and
        space ``values`` [D, S]; ``rng=None`` bids without the shake."""
        d = len(holdings)
        counts = np.zeros((d, self.s, 3), dtype=np.int64)
        placed = np.zeros((d, self.s), dtype=np.int64)  # chips on each space, every currency
        left = holdings.astype(np.int64).copy()
        while True:
            rows = np.flatnonzero(left.any(axis=1))
            if not len(rows):
                return counts
            currency = (left[rows] > 0).argmax(axis=1)  # the strongest currency still held
            for c in range(3):
                r = rows[currency == c]
                if not len(r):
                    continue
                here = placed[r]
                ok = self._options(counts[r], here, left[r], c)
                score = values[r]
                if rng is not None:
                    score = score * (1 + rng.random(score.shape) * SHAKE)
                score = score * self.weight[c] / (1 + here)
                score[~ok] = -np.inf
                pick = self.by_name[score[:, self.by_name].argmax(axis=1)]
                counts[r, pick, c] += 1
                placed[r, pick] += 1
                left[r, c] -= 1

    def _options(self, counts: Array, placed: Array, left: Array, c: int) -> Array:
        """[R, S]: the spaces the next chip (currency ``c``) may go to, as ``ChipByChip.options``:
        under its limit, within the six spaces, leaving chips that can all still be placed."""
        caps = self.caps[c]
        used = placed > 0  # [R, S]
        n_used = used.sum(axis=1)
        open_used = (used & self.open_all).any(axis=1)
        can_open = n_used < MAX_SPACES_PER_BID
        candidate = np.where(used, True, can_open[:, None]) & (caps != 0)
        capped = np.flatnonzero(caps > 0)
        if len(capped):
            candidate[:, capped] &= counts[:, capped, c] < caps[capped]
        if self.any_open:
            sure_new = (n_used + 1 < MAX_SPACES_PER_BID) | open_used
            sure_old = can_open | open_used
        else:
            sure_new = sure_old = open_used
        if sure_new.all() and sure_old.all():
            return candidate
        fits = np.where(used, sure_old[:, None], sure_new[:, None] | self.open_all[None, :])
        unsure = candidate & ~fits
        if unsure.any():
            ri, si = np.nonzero(unsure)
            candidate[ri, si] = self._completable(counts[ri], left[ri], c, si)
        return candidate

    def _completable(self, counts: Array, left: Array, c: int, si: Array) -> Array:
        """Whether the chips left after one of currency ``c`` on space ``si`` (one per row) fit in
        the spaces the bid may still use."""
        k = len(si)
        used = np.asarray(counts.any(axis=2))
        here = np.arange(self.s)[None, :] == si[:, None]  # [K, S]
        room = MAX_SPACES_PER_BID - used.sum(axis=1) - ~used[np.arange(k), si]
        ok = np.ones(k, dtype=bool)
        for c2 in range(3):
            need = left[:, c2] - (c2 == c)
            caps = self.caps[c2]
            reachable = (used | here | (room > 0)[:, None]) & (caps != 0)
            unlimited = (reachable & (caps < 0)).any(axis=1)
            space_left = caps[None, :] - counts[:, :, c2] - (here if c2 == c else 0)
            capacity = np.where(reachable & (caps > 0), space_left, 0).sum(axis=1)
            ok &= (need <= 0) | unlimited | (capacity >= need)
        return ok
