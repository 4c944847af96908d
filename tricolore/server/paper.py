"""Pages for tables playing on paper: the Culottes Book of Public Safety and end-of-game scoring.

``/book`` is a static page that keeps the Book of Public Safety in the browser and works offline
(a service worker at ``/book-sw.js`` caches it). ``/score/<game>`` is a short page where a table
reads its board at the end, and ``POST /api/score/<game>`` scores those readings with the game's
own scoring: the readings are set on the smallest end position of the game and the state is asked
for its :meth:`~tricolore.core.State.result`, so a page never counts differently from the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse
from pydantic import BaseModel

from tricolore.core import OptionsError, State, get_game
from tricolore.games.let_them_eat_cake.rules import LetThemEatCakeState
from tricolore.games.revolution.data import AREAS, CURRENCIES, EDITIONS

STATIC = Path(__file__).with_name("static")
MAX_READING = 9999
"""Largest number a reading may hold: far above any real board's count."""


def whole(value: Any, what: str, low: int = 0, high: int = MAX_READING) -> int:
    """``value`` as a whole number from ``low`` to ``high``; otherwise an :class:`OptionsError`."""
    if type(value) is not int or not low <= value <= high:
        raise OptionsError(f"{what} must be a whole number from {low} to {high}, not {str(value)[:20]}")
    return value


def field_of(mapping: Any, key: str, what: str) -> Any:
    """``mapping[key]``, with a sentence when the readings are not shaped as expected."""
    if not isinstance(mapping, Mapping) or key not in mapping:
        raise OptionsError(f"the readings must give {what}")
    return mapping[key]


def seats(readings: Any, game: str) -> list[Any]:
    """The readings' ``players`` list, one entry per seat, checked against the game's player range."""
    players = field_of(readings, "players", "a list of players")
    info = get_game(game).info
    if not isinstance(players, list) or not info.min_players <= len(players) <= info.max_players:
        raise OptionsError(f"{info.title} is played by {info.min_players} to {info.max_players} "
                           "players; give one reading per player")
    return players


def end_position(game: str, players: int, options: Mapping[str, Any] | None = None) -> State:
    """A fresh state of ``game`` whose readings the caller overwrites, marked over."""
    state = get_game(game).new(players, 0, options)
    state.phase = type(state.phase)("over")  # type: ignore[attr-defined]  # the game's own phase type
    return state


def score_revolution(readings: Any) -> State:
    """Revolution!: each player's support on the track, markers in each area and, for the
    published edition, chips still held."""
    players = seats(readings, "revolution")
    edition = readings.get("edition", "seed")
    if not isinstance(edition, str) or edition not in EDITIONS:
        raise OptionsError(f"the edition must be one of {', '.join(EDITIONS)}, not {str(edition)[:20]!r}")
    state: Any = end_position("revolution", len(players), {"edition": edition})
    for seat, p in enumerate(players):
        name = f"player {seat + 1}"
        state.support[seat] = whole(field_of(p, "support", f"{name}'s support"), f"{name}'s support")
        areas = field_of(p, "areas", f"{name}'s markers in each area")
        for area in AREAS:
            state.board[area.name][seat] = whole(field_of(areas, area.name, f"{name}'s markers in the "
                                                          f"{area.name}"),
                                                 f"{name}'s markers in the {area.name}", 0, area.spaces)
        chips = p.get("chips", {}) if isinstance(p, Mapping) else {}
        state.set_holding(seat, {c: whole(chips.get(c, 0) if isinstance(chips, Mapping) else 0,
                                          f"{name}'s {c} chips") for c in CURRENCIES})
    for area in AREAS:
        if sum(state.board[area.name]) > area.spaces:
            raise OptionsError(f"the {area.name} has {area.spaces} spaces, but the readings place "
                               f"{sum(state.board[area.name])} markers there")
    return state


def score_let_them_eat_cake(readings: Any) -> State:
    """Let Them Eat Cake: each player's cake, Pawns and Generals, and who (if anyone) lost their
    head on the Guillotine."""
    players = seats(readings, "let-them-eat-cake")
    state: Any = end_position("let-them-eat-cake", len(players))
    assert isinstance(state, LetThemEatCakeState)
    dead = readings.get("dead")
    state.dead = None if dead is None else whole(dead, "the guillotined player's seat", 0, len(players) - 1)
    for seat, p in enumerate(players):
        name = f"player {seat + 1}"
        cakes = whole(field_of(p, "cakes", f"{name}'s cake"), f"{name}'s cake")
        state.stashes[seat] = [state._card(cakes, False, None)] if cakes else []
        state.pawns[seat] = whole(field_of(p, "pawns", f"{name}'s Pawns"), f"{name}'s Pawns")
        state.pantry_generals[seat] = whole(field_of(p, "generals", f"{name}'s Generals"),
                                            f"{name}'s Generals")
        state.starter_generals[seat] = 0
    return state


def score_bread_and_circuses(readings: Any) -> State:
    """Bread and Circuses: each player's Gold."""
    players = seats(readings, "bread-and-circuses")
    state: Any = end_position("bread-and-circuses", len(players))
    for seat, p in enumerate(players):
        state.gold[seat] = whole(field_of(p, "gold", f"player {seat + 1}'s Gold"),
                                 f"player {seat + 1}'s Gold")
    state.history = []
    return state


def reading(key: str, label: str, high: int = MAX_READING, edition: str | None = None) -> dict[str, Any]:
    """One number a table reads per player; ``key`` is dotted for nested readings."""
    return {"key": key, "label": label, "max": high, "edition": edition}


FORMS: Mapping[str, dict[str, Any]] = {
    "revolution": {
        "table": [{"key": "edition", "label": "Edition", "choices": [
            ["seed", "The rulebook's"], ["sjg", "The published one (chips held score)"]]}],
        "per_player": [reading("support", "Support on the track"),
                       *(reading(f"areas.{a.name}", f"Markers in the {a.name} ({a.support} support)",
                                 a.spaces) for a in AREAS),
                       *(reading(f"chips.{c}", f"{c.capitalize()} chips held", edition="sjg")
                         for c in CURRENCIES)]},
    "let-them-eat-cake": {
        "table": [{"key": "dead", "label": "Guillotined", "choices": "seat-or-none"}],
        "per_player": [reading("cakes", "Cake (the Cake cards' total)"), reading("pawns", "Pawns"),
                       reading("generals", "Generals")]},
    "bread-and-circuses": {"table": [], "per_player": [reading("gold", "Gold")]},
}
"""What each scoring page asks: table-wide choices and the numbers read per player."""


def form(game: str) -> dict[str, Any]:
    """The readings a game's scoring page asks for, with the game's title and player range."""
    if game not in FORMS:
        raise OptionsError(f"there is no scoring helper for {str(game)[:40]!r}; "
                           f"there are: {', '.join(FORMS)}")
    info = get_game(game).info
    return {"game": game, "title": info.title, "min_players": info.min_players,
            "max_players": info.max_players, **FORMS[game]}


SCORERS: Mapping[str, Callable[[Any], State]] = {
    "revolution": score_revolution,
    "let-them-eat-cake": score_let_them_eat_cake,
    "bread-and-circuses": score_bread_and_circuses,
}
"""The games a table can score by hand, each turning readings into an end position."""


def score(game: str, readings: Any) -> dict[str, Any]:
    """``game``'s result for the readings a table took off its board: ``scores``, ``breakdown``,
    ``ranking`` (best first) and ``winners``, exactly as the engine's ``result()`` gives them."""
    scorer = SCORERS.get(game)
    if scorer is None:
        raise OptionsError(f"there is no scoring helper for {str(game)[:40]!r}; "
                           f"there are: {', '.join(SCORERS)}")
    result = scorer(readings).result().as_dict()
    return {k: result[k] for k in ("scores", "breakdown", "ranking", "winners")}


class Readings(BaseModel):
    """What a table read off its board at the end: ``players`` holds one reading per player
    (see ``GET /api/score/<game>`` for the numbers each game asks); ``edition`` is Revolution!'s,
    ``dead`` the seat Let Them Eat Cake's Guillotine took, if any."""

    players: list[dict[str, Any]]
    edition: str = "seed"
    dead: int | None = None


class Refusal(BaseModel):
    """Readings that cannot be scored: ``detail`` is one sentence saying why."""

    detail: str


router = APIRouter()


@router.get("/book", include_in_schema=False)
def book_page() -> FileResponse:
    """The Book of Public Safety for a table playing on paper."""
    return FileResponse(STATIC / "book.html")


@router.get("/book-sw.js", include_in_schema=False)
def book_service_worker() -> FileResponse:
    """The service worker that keeps the Book's page working offline (served at the root so that
    its scope covers ``/book``)."""
    return FileResponse(STATIC / "book-sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


@router.get("/score/{game}", include_in_schema=False)
def score_page(game: str) -> FileResponse:
    """A game's scoring helper page."""
    if game not in SCORERS:
        raise HTTPException(404, "There is no scoring helper for that game.")
    return FileResponse(STATIC / "score.html")


@router.get("/api/score/{game}", responses={404: {"model": Refusal,
                                                 "description": "No scoring helper by that name."}})
def score_form(game: str) -> dict[str, Any]:
    """What the scoring page of ``game`` asks the table to read off its board."""
    try:
        return form(game)
    except OptionsError as exc:
        raise HTTPException(404, str(exc)) from None


@router.post("/api/score/{game}", responses={
    400: {"model": Refusal, "description": "The readings cannot be scored; the sentence says why."},
    413: {"model": Refusal, "description": "The request body is too large."}})
def score_readings(game: str, readings: Readings) -> dict[str, Any]:
    """Score what a table read off its board at the end with the game's own scoring."""
    try:
        return score(game, readings.model_dump())
    except OptionsError as exc:
        raise HTTPException(400, str(exc)) from None
