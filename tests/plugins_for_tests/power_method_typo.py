"""A plugin whose card power misspells a method of ``tamalou.CardPower``: ``refusl`` (for ``refusal``) would
never be called, and the power would accept what it means to refuse."""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Power, Round


class Glance(tamalou.CardPower):
    name = "glance"
    title = "Glance at nothing"

    def refusl(self, g: Round, a: Power) -> str | None:  # the typo
        return "never"


@tamalou.hookimpl
def tamalou_powers() -> list[Any]:
    return [Glance]
