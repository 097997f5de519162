"""An action field that is a set of slots (``Action.unordered``): the action is made with them in increasing
order however they are given, in Python or in JSON, so that it equals the one listed; a class that declares a
field that is not a tuple of slots is refused when it is registered."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest

from tamalou import Action, parse_action, register_action
from tamalou.actions import ACTION_TYPES
from tamalou.verify.neighbourhood import _listing_keys


@dataclass(frozen=True, slots=True)
class TurnTogether(Action):
    """Turn up several of one's own cards at once (the slots are a set)."""

    player: int
    slots: tuple[int, ...]
    at: float | None = None
    type: ClassVar[str] = "turn_together"
    unordered: ClassVar[tuple[str, ...]] = ("slots",)


@dataclass(frozen=True, slots=True)
class Ordered(Action):
    """The same fields, in an order that means something (no ``unordered``)."""

    player: int
    slots: tuple[int, ...]
    at: float | None = None
    type: ClassVar[str] = "ordered_slots"


@pytest.fixture
def registered() -> Iterator[None]:
    """``TurnTogether`` registered for this test only (other tests list every registered action type)."""
    register_action(TurnTogether)
    yield
    ACTION_TYPES.pop(TurnTogether.type)


@pytest.mark.usefixtures("registered")
def test_a_set_of_slots_is_made_in_increasing_order() -> None:
    assert TurnTogether(0, (4, 1, 2)) == TurnTogether(0, (1, 2, 4))
    assert TurnTogether(0, [3, 0]).slots == (0, 3)  # type: ignore[arg-type]
    parsed = parse_action({"type": "turn_together", "player": 1, "slots": [5, 2]})
    assert parsed == TurnTogether(1, (2, 5))
    assert parsed.to_dict() == {"type": "turn_together", "player": 1, "slots": [2, 5]}
    assert _listing_keys(TurnTogether(0, (4, 1))) == _listing_keys(TurnTogether(0, (1, 4)))
    # Without the declaration, the order is the action's own.
    assert Ordered(0, (4, 1)) != Ordered(0, (1, 4)) and Ordered(0, (4, 1)).slots == (4, 1)


def test_a_field_that_is_no_set_of_slots_is_refused_at_registration() -> None:
    @dataclass(frozen=True, slots=True)
    class Wrong(Action):
        player: int
        slot: int
        at: float | None = None
        type: ClassVar[str] = "wrong_unordered"
        unordered: ClassVar[tuple[str, ...]] = ("slot",)

    with pytest.raises(TypeError, match=r"Wrong\.unordered names 'slot': expected fields of type tuple\[int, \.\.\.\]"):
        register_action(Wrong)
    assert "wrong_unordered" not in ACTION_TYPES
