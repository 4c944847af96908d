import pytest

from tricolore.core.jsontext import MAX_DEPTH, JSONRefused, parse_json


def test_json_nested_to_the_limit_is_read_and_one_level_more_is_refused():
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(JSONRefused, match=f"nests deeper than {MAX_DEPTH} levels") as exc:
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert not exc.value.malformed


def test_json_nested_past_the_recursion_limit_is_refused_with_a_reason():
    with pytest.raises(JSONRefused, match="nests deeper") as exc:
        parse_json('{"a": ' * 5000)
    assert not exc.value.malformed


def test_a_number_too_long_for_python_is_refused_with_a_reason():
    with pytest.raises(JSONRefused, match="number longer than 4300 digits"):
        parse_json("9" * 5000)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "{\"a\": -Infinity}", "{not json", ""])
def test_text_that_is_not_json_is_refused_as_malformed(text):
    with pytest.raises(JSONRefused) as exc:
        parse_json(text)
    assert exc.value.malformed
