"""A third party's mechanic in the matching contract (docs/write-a-mechanic.md): seat 1 may never match
(``MatchBlocker``), and every throw on the card on offer is heard (``MatchListener``), in a state object; and in
the views contract: each seat is shown how many of its throws were heard (``view_model``, ``view_extra``); and in
the search contract: a game rebuilt from one seat's information gets that seat's throws back (``resample``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

import tamalou
from tamalou import Round


class Heard:
    __slots__ = ("throws",)

    def __init__(self) -> None:
        self.throws: list[list[int]] = []  # [player, 1 if right else 0] per throw (a state holds ints)


class HeardView(BaseModel):
    """What a seat is shown: how many of its own throws were heard, and how many were right."""

    mine: int
    right: int


class SeatOneNeverMatches(tamalou.Mechanic):
    name = "seat_one_never_matches"
    order = 50
    view_model = HeardView

    def new_state(self, g: Round) -> Heard:
        return Heard()

    def match_blocked(self, g: Round, p: int) -> str | None:
        return "seat 1 never matches (a house rule)" if p == 1 else None

    def match_result(self, g: Round, p: int, right: bool) -> None:
        g.state_of(self.name).throws.append([p, int(right)])

    def resample(self, g: Round, info: tamalou.SeatInfo) -> None:
        me = info.view.player
        shown = info.view.extra[self.name]  # what this mechanic showed the seat: its own throws, no one else's
        misses = shown["mine"] - shown["right"]
        g.state_of(self.name).throws = [[me, 0]] * misses + [[me, 1]] * shown["right"]

    def view_extra(self, g: Round, p: int) -> dict[str, Any]:
        mine = [right for player, right in g.state_of(self.name).throws if player == p]
        return {"mine": len(mine), "right": sum(mine)}


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [SeatOneNeverMatches]
