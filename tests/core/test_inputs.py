import pytest

from tricolore.core.inputs import RECORD_DEPTH as MAX_DEPTH
from tricolore.core.inputs import InputError, clean_text, loads, text_problem


def test_json_nested_to_the_limit_is_read_and_one_level_more_is_refused():
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH, MAX_DEPTH) is not None
    with pytest.raises(InputError, match=f"nests deeper than {MAX_DEPTH} levels") as exc:
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), MAX_DEPTH)
    assert not exc.value.malformed


def test_json_nested_past_the_recursion_limit_is_refused_with_a_reason():
    with pytest.raises(InputError, match="nests deeper") as exc:
        loads('{"a": ' * 5000)
    assert not exc.value.malformed


def test_a_number_too_long_for_python_is_refused_with_a_reason():
    with pytest.raises(InputError, match="number longer than 4300 digits"):
        loads("9" * 5000)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "{\"a\": -Infinity}", "{not json", ""])
def test_text_that_is_not_json_is_refused_as_malformed(text):
    with pytest.raises(InputError) as exc:
        loads(text)
    assert exc.value.malformed


def test_a_lone_surrogate_anywhere_in_json_is_refused():
    with pytest.raises(InputError, match="lone surrogate") as exc:
        loads('{"a": ["ok", {"\\ud800": 1}]}')
    assert not exc.value.malformed and exc.value.parsed == {"a": ["ok", {"\ud800": 1}]}


@pytest.mark.parametrize(("text", "says"), [
    ("Danton", None), ("line\nbreak", "control characters"), ("\x1b[31m", "control characters"),
    ("\udfff", "valid Unicode"), ("x" * 41, "at most 40 characters"), (7, "must be text")])
def test_text_from_outside_is_valid_unicode_without_control_characters_and_bounded(text, says):
    why = text_problem(text, "name", 40)
    assert (why is None) if says is None else (says in why)


def test_chat_may_hold_line_breaks_but_no_other_control_character():
    assert text_problem("two\nlines\tand a tab", "chat message", 500, lines=True) is None
    assert "control" in text_problem("nul\x00", "chat message", 500, lines=True)


@pytest.mark.parametrize("override", ["\u202e", "\u202a", "\u2066", "\u2069"])
def test_a_name_cannot_reorder_the_text_around_it_to_pass_for_another_player(override):
    assert "control" in text_problem(f"Ann{override}notnaD", "name", 40)
    assert "control" in text_problem(f"hello{override}olleh", "chat message", 500, lines=True)


def test_stored_text_is_repaired_into_text_that_can_be_sent():
    assert clean_text("Dan\ud800ton\x00", 40) == "Dan\ufffdton"
