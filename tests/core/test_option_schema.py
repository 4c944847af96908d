"""Each game's options describe themselves for a lobby's controls: kind, default, bounds, choices
and help, all read from the options class, so that the form and the rules cannot disagree."""

import pytest

from tests.core.test_option_bounds import PAST_THE_BOUND
from tricolore.core import OptionsError
from tricolore.core.registry import get_game, list_games


@pytest.mark.parametrize("info", list_games(), ids=lambda i: i.name)
def test_the_schema_lists_every_option_with_its_default_kind_and_help(info):
    schema = info.options.schema(info.max_players)
    assert [o["name"] for o in schema] == list(info.options().as_dict())
    for option in schema:
        assert option["default"] == info.options().as_dict()[option["name"]]
        assert option["kind"] in ("bool", "int", "number", "text", "choice", "seat", "list")
        assert option["help"] and "``" not in option["help"]


@pytest.mark.parametrize(("game", "name", "value", "low", "high"), PAST_THE_BOUND)
def test_the_schema_gives_the_bounds_the_rules_enforce(game, name, value, low, high):
    info = get_game(game).info
    option = next(o for o in info.options.schema(info.max_players) if o["name"] == name)
    assert (option["min"], option["max"]) == (low, high)
    with pytest.raises(OptionsError):
        get_game(game).new(info.max_players, 1, {name: value})


def test_a_choice_option_offers_exactly_the_values_the_rules_accept():
    info = get_game("revolution").info
    edition = next(o for o in info.options.schema(4) if o["name"] == "edition")
    assert edition["kind"] == "choice" and edition["choices"] == ["seed", "sjg"]
    for choice in edition["choices"]:
        get_game("revolution").new(3, 1, {"edition": choice})


def test_nullable_options_say_so_and_booleans_are_booleans():
    schema = {o["name"]: o for o in get_game("culottes").info.options.schema(12)}
    assert schema["max_rounds"]["nullable"] and schema["max_rounds"]["default"] is None
    assert schema["deals"]["kind"] == "bool" and not schema["deals"]["nullable"]
    assert schema["closing_faces"]["kind"] == "list"


SEAT_OPTIONS = [("culottes", "first_player"), ("bread-and-circuses", "first_player"),
                ("culottes-trials", "first_accused"), ("let-them-eat-cake", "first_head")]


@pytest.mark.parametrize(("game", "name"), SEAT_OPTIONS)
def test_an_option_naming_a_seat_is_offered_as_a_seat_of_the_table(game, name):
    info = get_game(game).info
    option = next(o for o in info.options.schema(info.min_players) if o["name"] == name)
    assert option["kind"] == "seat" and option["nullable"]
    assert (option["min"], option["max"]) == (0, info.min_players - 1)
    get_game(game).new(info.min_players, 1, {name: info.min_players - 1})
    with pytest.raises(OptionsError):
        get_game(game).new(info.min_players, 1, {name: info.min_players})
