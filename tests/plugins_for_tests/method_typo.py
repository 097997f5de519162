"""A plugin whose mechanic misspells a method of ``tamalou.Mechanic``: ``turn_begins`` (for ``turn_began``)
would never be called."""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Event, Round


class Greeter(tamalou.Mechanic):
    name = "greeter"

    def turn_begins(self, g: Round, p: int, events: list[Event]) -> None:  # the typo
        events.append(Event("greeted", {"player": p}))

    def greeting(self, p: int) -> str:  # a helper of its own, far from every method of Mechanic: allowed
        return f"hello, P{p}"


@tamalou.hookimpl
def tamalou_mechanics() -> list[Any]:
    return [Greeter]
