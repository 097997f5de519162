"""The pairing powers (a blind swap of one's own card with an opponent's; kaboo's and dutch's swap of any
two cards) list their uses from grids of actions made once, and the powers that aim at one card (a peek at
one's own card or an opponent's, the look-and-swap) from rows made once: the lists are exactly those of
the plain definition, in the same order, at every step of random games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tamalou.actions import Action
from tamalou.engine import Round, new_round
from tamalou.plugins.powers import BlindSwap, LookAndSwap, PeekOpponent, PeekOwn, SwapAnyBlind, table_layouts


def by_definition_blind(g: Round, p: int) -> list[Action]:
    """Each own occupied slot, then each target's occupied slots, in seat order."""
    targets = [(q, s) for q in g.targets(p, True) for s in g.occupied(q)]
    return [BlindSwap.action(p, m, q, s) for m in g.occupied(p) for q, s in targets]


def by_definition_any(g: Round, p: int) -> list[Action]:
    """Every pair of places of two different layouts, the first layout before the second."""
    places = [(q, g.occupied(q)) for q in table_layouts(g, p)]
    return [
        SwapAnyBlind.action(p, s1, o2, s2, o1)
        for i, (o1, slots1) in enumerate(places)
        for o2, slots2 in places[i + 1 :]
        for s1 in slots1
        for s2 in slots2
    ]


def by_definition_one_card(g: Round, p: int) -> dict[str, list[Action]]:
    """Each own occupied slot; each occupied slot of each opponent that may be looked at (or, for the
    look-and-swap, exchanged with), in seat order."""
    return {
        "peek_own": [PeekOwn.action(p, s) for s in g.occupied(p)],
        "peek_opponent": [PeekOpponent.action(p, None, q, s) for q in g.targets(p) for s in g.occupied(q)],
        "look_and_swap": [LookAndSwap.action(p, None, q, s) for q in g.targets(p, True) for s in g.occupied(q)],
    }


@pytest.mark.parametrize("name", ["french", "kaboo", "dutch", "tamalou-fun"])
def test_the_listed_uses_are_the_definitions(name: str) -> None:
    blind, swap_any = BlindSwap(), SwapAnyBlind()
    one_card = {"peek_own": PeekOwn(), "peek_opponent": PeekOpponent(), "look_and_swap": LookAndSwap()}
    compared = 0
    for seed in range(6):
        rng = random.Random(seed)
        g = new_round(name, players=rng.choice([2, 3, 4]), seed=seed)
        steps = 0
        while not g.is_over and steps < 300:  # (a random kaboo round may last thousands of steps)
            steps += 1
            for p in range(g.players):
                assert blind.uses(g, p) == by_definition_blind(g, p)
                assert swap_any.uses(g, p) == by_definition_any(g, p)
                assert {k: power.uses(g, p) for k, power in one_card.items()} == by_definition_one_card(g, p)
                compared += 1
            g.apply(rng.choice(g.legal_actions(g.current_player)))
    assert compared > 100


def test_a_returned_list_is_the_callers_own() -> None:
    g = new_round("french", players=3, seed=1)
    first = BlindSwap().uses(g, 0)
    first.clear()
    assert BlindSwap().uses(g, 0) == by_definition_blind(g, 0) != []


def test_made_sets_every_field_but_at_and_checks_only_their_count() -> None:
    """``actions.made``, which grids and rows build their actions with: the same value as the checked
    constructor, ``at`` left unset; a wrong number of values, or a class with a field kept outside its
    slots, is a TypeError rather than a half-made action."""
    from dataclasses import dataclass

    from tamalou.actions import Power, Swap, made

    assert made(Power, 1, 2, 3, 0, None) == Power(1, 2, 3, 0) and made(Power, 1, 2, 3, 0, None).at is None
    assert made(Power, 0, None, 2, 1, 3) == Power(0, None, 2, 1, None, 3)
    assert made(Swap, 2, 1) == Swap(2, 1)
    with pytest.raises(TypeError, match="one value per field"):
        made(Power, 1, 2)

    @dataclass(frozen=True)
    class Loose(Swap):  # no slots of its own: a __dict__
        extra: int = 0

    with pytest.raises(TypeError, match="all slots"):
        made(Loose, 1, 2, 3)


def test_timed_copies_every_field_and_sets_at_for_every_action_class() -> None:
    """``actions.timed``, which stamps every action of a timed game: the fields of the action and the
    ``at`` given (the value of ``dataclasses.replace(action, at=...)``), for each built-in action class with
    every field set, and for a plugin's classes, with slots and without (fields in a ``__dict__``); the
    action stamped is left as it was."""
    import dataclasses
    from dataclasses import dataclass

    from tamalou.actions import ACTION_TYPES, MatchAction, Power, Swap, field_names, timed

    assert set(ACTION_TYPES) >= {"draw", "power", "match", "tick"}
    samples: list[Any] = [cls(**{name: _sample(name) for name in field_names(cls)}) for cls in ACTION_TYPES.values()]

    @dataclass(frozen=True, slots=True)
    class Tight(Swap):
        extra: int = 5

    @dataclass(frozen=True)
    class Loose(Swap):  # no slots of its own: a __dict__
        extra: int = 6

    samples += [Tight(2, 1, extra=7), Loose(2, 1, extra=8), MatchAction(1, (0, 2), owner=3), Power(0, 1, 2, 3, None, 4)]
    for action in samples:
        before = [getattr(action, name) for name in field_names(type(action))]
        for at in (12.5, 0.0, None):
            stamped = timed(action, at)
            assert type(stamped) is type(action) and stamped is not action
            assert [getattr(stamped, name) for name in field_names(type(action))] == [
                at if name == "at" else getattr(action, name) for name in field_names(type(action))
            ]
            if at is not None:
                assert stamped == dataclasses.replace(action, at=at)
        assert [getattr(action, name) for name in field_names(type(action))] == before


def _sample(name: str) -> Any:
    """A value for an action's field by its name: a player, a slot, a place, a choice, a time."""
    values = {"slots": (1,), "source": "stock", "slot": 2, "player": 1, "target": 0, "target_slot": 3, "at": 9.0}
    return values.get(name, 1)
