import random

import pytest

import tricolore
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


def test_a_kind_of_action_takes_its_article_in_a_refusal():
    offer = ActionSpace((ActionFamily("offer_bribe", {"cover": Amount(1, 3)}), ActionFamily("pass")))
    for action, says in [({"type": "offer_bribe"}, "An offer bribe needs its cover."),
                         ({"type": "pass", "colour": 1}, "A pass has no colour.")]:
        with pytest.raises(IllegalAction) as exc:
            offer.check(action)
        assert exc.value.message == says


@pytest.mark.parametrize("sent, shown", [(None, "null"), (True, "true"), ([1, None], "[1, null]"),
                                         ({"a": None}, '{"a": null}'), ("x", "'x'")])
def test_a_refused_value_is_shown_as_it_was_sent(sent, shown):
    with pytest.raises(IllegalAction) as exc:
        space().check({"type": "cake_vote", "citizen": 0, "side": "privileged", "cakes": sent})
    assert exc.value.message == f"The cakes must be a whole number; you sent {shown}."


def test_a_long_choice_names_twelve_values_and_counts_the_others():
    names = tuple(f"Citizen {i}" for i in range(15))
    many = ActionSpace((ActionFamily("vote", {"citizen": Choice(tuple(range(15)), names)}),))
    with pytest.raises(IllegalAction) as exc:
        many.check({"type": "vote", "citizen": 99})
    assert exc.value.message == ("The citizen must be " + ", ".join(names[:12])
                                 + " or one of 3 others; you sent 99.")


def test_an_action_no_game_has_is_refused_without_asking_to_wait():
    state = tricolore.make("culottes", 3, seed=0)
    state.apply(0, {"type": "choose_role", "role": "grabber"})
    before = state.digest()
    for seat, says in [(0, 'This game has no action "fly".'),
                       (1, 'This game has no action "fly"; you may choose role.')]:
        with pytest.raises(IllegalAction) as exc:
            state.apply(seat, {"type": "fly"})
        assert exc.value.message == says and exc.value.code == "not_allowed_now"
    assert state.digest() == before
    with pytest.raises(IllegalAction, match="waiting for seat 1 and seat 2"):  # waiting helps here
        state.apply(0, {"type": "cake_vote"})


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


def _worded_count(lead: str, names: tuple[str, ...]) -> str:
    _worded_count.calls += 1  # type: ignore[attr-defined]
    return lead + " or ".join(names)


_worded_count.calls = 0  # type: ignore[attr-defined]


def test_a_worded_refusal_is_worded_only_when_a_value_is_refused():
    import pickle

    from tricolore.core.actions import worded

    before = _worded_count.calls  # type: ignore[attr-defined]
    space = ActionSpace((ActionFamily("give", {"to": Choice((1, 2), ("Danton", "Marat"), worded(
        _worded_count, "cakes go to ", ("Danton", "Marat")))}),))
    space.check({"type": "give", "to": 2})
    space.sample(random.Random(3))
    assert _worded_count.calls == before  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction) as refused:
        space.check({"type": "give", "to": 7})
    assert str(refused.value) == "Cakes go to Danton or Marat."
    assert _worded_count.calls == before + 1  # type: ignore[attr-defined]
    choice = space.family("give").params["to"]  # type: ignore[union-attr]
    assert pickle.loads(pickle.dumps(choice)) == choice


def _made_lazily(made: list[str], whole: ActionSpace) -> ActionSpace:
    def make(kind: str, args: tuple[object, ...]) -> ActionFamily:
        made.append(kind)
        return next(f for f in whole.families if f.kind == kind)

    return ActionSpace(kinds=whole.kinds, make=make, args=())


def test_a_space_made_lazily_makes_only_the_family_drawn_and_draws_as_the_whole_space_would():
    for seed in range(40):
        made: list[str] = []
        lazy = _made_lazily(made, space())
        assert lazy.kinds == space().kinds and lazy
        drawn = lazy.sample(random.Random(seed))
        assert drawn == space().sample(random.Random(seed))
        assert made == [drawn["type"]]


def _plain_family(kind: str, args: tuple[object, ...]) -> ActionFamily:
    return ActionFamily(kind, {"cakes": Amount(1, args[0])} if kind == "vote" else {})  # type: ignore[arg-type]


def test_a_space_made_lazily_is_the_space_of_its_families():
    import pickle

    made: list[str] = []
    whole = space()
    lazy = _made_lazily(made, whole)
    assert lazy == whole and lazy.families == whole.families
    assert made == list(whole.kinds)  # each made once, when the families were asked for
    assert lazy.families is lazy.families and made == list(whole.kinds)
    plain = ActionSpace(kinds=("pass", "vote"), make=_plain_family, args=(3,))
    built = ActionSpace((ActionFamily("pass"), _plain_family("vote", (3,))))
    assert pickle.loads(pickle.dumps(plain)) == plain == built
    with pytest.raises(AttributeError):
        lazy.families = ()  # type: ignore[misc]


def test_a_text_works_out_the_names_taken_only_when_a_name_is_checked_or_drawn():
    asked: list[int] = []

    def taken() -> frozenset[str]:
        asked.append(1)
        return frozenset({"Danton"})

    recruit = ActionSpace((ActionFamily("recruit", {"name": Text(10, taken, ("Danton", "Marat"))},
                                        optional=frozenset({"name"})),))
    assert recruit.sample(random.Random(1)) == {"type": "recruit"} and not asked
    assert not recruit.contains({"type": "recruit", "name": "danton"}) and asked
    assert Text(10, taken, ("Danton", "Marat")).sample(random.Random(1)) == "Marat"
