"""The words of actions (``Action.describe``): the phrases they are made of, read from a seat's view, and the
words each card power gives its uses. ``tamalou.actions`` says each action with them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .views import PlayerView, SeatView

#: What ``pass`` declines, by phase (``Pass.describe``).
PASS_WORDS = {
    "draw": "pass: do not draw again",
    "power": "pass: do not use the power",
    "swap": "pass: do not swap",
    "call": "pass: do not call",
    "closing": "pass: do not match",
    "window": "pass: do not match",
    "give": "pass: give nothing",
}

#: The words of each card power's uses, by power name (``CardPower.use_text``: a template over the phrases of
#: ``Action.describe``); filled as power classes are defined.
POWER_USE_TEXTS: dict[str, str] = {}


class Words:
    """The phrases an action's words are made of, for the player who takes it (``Action.describe``), read from the
    seat's ``view`` where one is given: ``{mine}`` (own ``slot``: "your slot 2 (7H)", the card named when the seat
    sees it), ``{theirs}`` (``target``'s ``target_slot``), ``{picked}`` (``owner``'s ``slot``, one's own by
    default), ``{target}`` (a player), ``{my_slots}`` and ``{owner_slots}`` (``slots``, one's own or ``owner``'s),
    ``{top}`` (the card on the discard: "the 7H", or "the thrown card"), ``{held}`` ("the 7H", or "the card you
    hold"), and each field of the action (lists as "0, 3")."""

    def __init__(self, action: Any, view: PlayerView | SeatView | None, seat: Callable[[int], str]) -> None:
        self.action, self.view, self.seat = action, view, seat
        self.me: int | None = getattr(action, "player", None)

    def whose(self, q: int) -> str:
        return "your" if q == self.me else f"{self.seat(q)}'s"

    def card(self, q: int, slot: int) -> str | None:
        """The card in ``q``'s ``slot`` as the view shows it (``None``: unknown to the seat, or no view)."""
        if self.view is None or not 0 <= q < len(self.view.hands):
            return None
        return next((s.card for s in self.view.hands[q] if s.slot == slot), None)

    def slot(self, q: int | None, slot: int | None) -> str:
        if q is None or slot is None:
            return "a card"
        card = self.card(q, slot)
        return f"{self.whose(q)} slot {slot}" + (f" ({card})" if card else "")

    def slots(self, q: int | None, slots: Any) -> str:
        if q is None or not isinstance(slots, tuple | list):
            return "cards"
        if len(slots) == 1:
            return self.slot(q, slots[0])
        cards = [self.card(q, s) for s in slots]
        shown = f" ({', '.join(c or '?' for c in cards)})" if any(cards) else ""
        return f"{self.whose(q)} slots {self.listed(slots)}{shown}"

    @property
    def held(self) -> str:
        card = self.view.held if self.view is not None else None
        return f"the {card}" if card else "the card you hold"

    @property
    def top(self) -> str:
        card = self.view.discard_top if self.view is not None else None
        return f"the {card}" if card else "the thrown card"

    @staticmethod
    def listed(value: Any) -> str:
        return ", ".join(str(v) for v in value) if isinstance(value, tuple | list) else str(value)

    def format(self, template: str) -> str:
        a = self.action
        names = [f.name for f in fields(a)]
        phrases: dict[str, Any] = {name: self.listed(getattr(a, name)) for name in names}
        owner = getattr(a, "owner", None)
        owner = self.me if owner is None else owner
        target = getattr(a, "target", None)
        phrases.update(
            mine=self.slot(self.me, getattr(a, "slot", None)),
            theirs=self.slot(target, getattr(a, "target_slot", None)),
            picked=self.slot(owner, getattr(a, "slot", None)),
            target="a player" if target is None else ("yourself" if target == self.me else self.seat(target)),
            my_slots=self.slots(self.me, getattr(a, "slots", None)),
            owner_slots=self.slots(owner, getattr(a, "slots", None)),
            top=self.top,
            held=self.held,
        )
        try:
            return template.format(**phrases)
        except (KeyError, IndexError, ValueError):
            return f"{a.type.replace('_', ' ')}: {', '.join(f'{k} {v}' for k, v in phrases.items() if k in names)}"
