import random

import pytest

from tricolore.core import ActionFamily, ActionSpace, Amount, Choice, IllegalAction, Subset, Text


def space() -> ActionSpace:
    return ActionSpace((
        ActionFamily("cake_vote", {"citizen": Choice((0, 1, 2)),
                                   "side": Choice(("sans_culotte", "privileged")),
                                   "cakes": Amount(1, 3, limit="Danton has 3 cakes")}),
        ActionFamily("give", {"from": Choice((0, 1)),
                              "cakes": lambda chosen: Amount(1, 2 if chosen.get("from") == 0 else 5)}),
        ActionFamily("recruit", {"name": Text(10, frozenset({"Danton"}))}, optional=frozenset({"name"})),
        ActionFamily("pass"),
    ))


def test_illegal_amount_message_uses_the_rules_words():
    with pytest.raises(IllegalAction) as exc:
        space().check({"type": "cake_vote", "citizen": 0, "side": "privileged", "cakes": 5})
    assert exc.value.message == "Danton has 3 cakes; you tried 5."
    assert exc.value.code == "bad_cake_vote"


@pytest.mark.parametrize("action, fragment", [
    ({"type": "cake_vote", "citizen": 0, "side": "privileged"}, "A cake vote needs its cakes"),
    ({"type": "cake_vote", "citizen": 0, "side": "privileged", "cakes": 1, "x": 1}, "A cake vote has no x"),
    ({"type": "cake_vote", "citizen": True, "side": "privileged", "cakes": 1}, "The citizen must be"),
    ({"type": "cake_vote", "citizen": 0, "side": "privileged", "cakes": 1.0}, "whole number"),
    ({"type": "recruit", "name": "danton"}, "already taken"),
    ({"type": "recruit", "name": "   "}, "must not be blank"),
    ({"type": "emigrate"}, "You cannot emigrate now"),
    ({"cakes": 1}, "\"type\""),
])
def test_refusals_say_what_is_wrong(action, fragment):
    with pytest.raises(IllegalAction) as exc:
        space().check(action)
    assert fragment in exc.value.message


def test_every_refusal_is_a_sentence():
    assert IllegalAction("not_your_turn", "it is not your turn").message == "It is not your turn."
    assert IllegalAction("x", "Done already!").message == "Done already!"


def test_dependent_domain_follows_earlier_choice():
    s = space()
    assert s.contains({"type": "give", "from": 1, "cakes": 5})
    assert not s.contains({"type": "give", "from": 0, "cakes": 5})


def test_optional_parameter_may_be_left_out():
    assert space().contains({"type": "recruit"})


def test_samples_are_always_contained():
    s, rng = space(), random.Random(1)
    for _ in range(500):
        assert s.contains(s.sample(rng))


def test_enumeration_counts_every_action():
    s = ActionSpace((ActionFamily("cake_vote", {"citizen": Choice((0, 1, 2)),
                                                "side": Choice(("sans_culotte", "privileged")),
                                                "cakes": Amount(1, 3)}), ActionFamily("pass")))
    assert len(s) == 3 * 2 * 3 + 1
    assert all(s.contains(a) for a in s)


def test_subset_domain():
    d = Subset((1, 2, 3), max_size=2)
    assert d.problem("grabbers", [1, 3]) is None
    assert "at most 2" in d.problem("grabbers", [1, 2, 3])
    assert "twice" in d.problem("grabbers", [1, 1])
    assert len(d.values()) == 1 + 3 + 3


def test_steps_describe_the_decomposition():
    steps = space().steps()
    assert [s["type"] for s in steps] == ["cake_vote", "give", "recruit", "pass"]
    assert steps[0]["params"][2] == {"name": "cakes", "optional": False,
                                     "domain": {"kind": "amount", "low": 1, "high": 3}}
    assert steps[1]["params"][1]["depends"] is True
