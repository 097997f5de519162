"""Golf's two moves of its own, as action types (their JSON form is the wire protocol, like tamalou's):

| type      | fields        | when                                                                       |
|-----------|---------------|----------------------------------------------------------------------------|
| `turn_up` | player, slots | the opening of golf-6 and golf-9: the cards a player turns face up          |
| `flip`    | player, slot  | golf-6, golf-9: after discarding a card drawn from the stock, the face-down |
|           |               | card turned face up                                                         |

Everything else a Golf turn does is tamalou's own actions: `draw` (stock or discard), `replace` (the
held card into a slot, face up), `discard` (the held card thrown) and, where knocking is allowed,
`call` (the knock).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from pydantic import ConfigDict
from tamalou import Action, register_action

_FORBID = ConfigDict(extra="forbid", strict=False)


@dataclass(frozen=True, slots=True)
class TurnUp(Action):
    """The opening of golf-6 and golf-9: turn ``slots`` (two or three of one's own slots, a set: tamalou
    makes the action with them in increasing order) face up for everyone. JSON: ``{"type": "turn_up",
    "player": 0, "slots": [0, 4]}``."""

    player: int
    slots: tuple[int, ...]
    at: float | None = None
    type: ClassVar[str] = "turn_up"
    unordered: ClassVar[tuple[str, ...]] = ("slots",)
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """golf-6 and golf-9, after discarding the card drawn from the stock: turn one's own face-down card in
    ``slot`` face up. JSON: ``{"type": "flip", "player": 0, "slot": 2}``."""

    player: int
    slot: int
    at: float | None = None
    type: ClassVar[str] = "flip"
    __pydantic_config__: ClassVar[ConfigDict] = _FORBID


@cache
def turn_up(player: int, slots: tuple[int, ...]) -> TurnUp:
    """``TurnUp(player, slots)``, made once per process (actions are values: listing allocates nothing)."""
    return TurnUp(player, slots)


@cache
def flip(player: int, slot: int) -> Flip:
    """``Flip(player, slot)``, made once per process."""
    return Flip(player, slot)


# Known to ``tamalou.parse_action`` as soon as the package is imported (a ruleset that plays the mechanic
# registers them too, when it is loaded: the mechanic names them in its ``actions``).
register_action(TurnUp)
register_action(Flip)
