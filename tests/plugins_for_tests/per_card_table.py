"""A correct plugin (a control of ``tamalou verify``) that keeps a per-card table: how often each card was thrown by a
turn, one entry per card of the game (104 with two decks); every seat is shown how many aces were thrown (public: a
thrown card is seen by all, and stays known to have been thrown once it is reshuffled into the stock)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

import tamalou


class Thrown:
    __slots__ = ("counts",)

    def __init__(self, cards: int) -> None:
        self.counts = [0] * cards


class AcesView(BaseModel):
    aces: int


class AcesThrown(tamalou.Mechanic):
    name = "aces_thrown"
    view_model = AcesView

    def new_state(self, g: tamalou.Round) -> Thrown:
        return Thrown(len(g.text))

    def thrown(self, g: tamalou.Round, card: int, how: str, events: list[tamalou.Event]) -> bool:
        g.state_of(self.name).counts[card] += 1
        return False

    def view_extra(self, g: tamalou.Round, p: int) -> dict[str, Any]:
        counts = g.state_of(self.name).counts
        return {"aces": sum(n for c, n in enumerate(counts) if g.text[c][:-1] == "A")}


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [AcesThrown]
