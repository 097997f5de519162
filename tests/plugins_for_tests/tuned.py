"""A mechanic with settings in the variant file (``options_model``, the table ``[options.echo]``): a thrown card
of rank ``rank`` is echoed to the table (event ``echoed``), ``times`` times; with ``enabled = false`` the mechanic
plays no part (its ``wanted`` reads its settings). ``tests/api/test_mechanic_options.py`` uses it."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

import tamalou
from tamalou import Event, Round, Variant


class EchoOptions(BaseModel):
    """What the table ``[options.echo]`` of a variant file may say."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    enabled: bool = True
    rank: str = "6"
    times: int = Field(1, ge=1, le=3)


class Echo(tamalou.Mechanic):
    name = "echo"
    title = "a thrown card of one rank is echoed to the table"
    options_model = EchoOptions
    event_texts: ClassVar[dict[str, str]] = {"echoed": "{player}'s {card} echoes"}

    @classmethod
    def wanted(cls, variant: Variant) -> bool:
        return bool(cls.options_of(variant).enabled)

    def thrown(self, g: Round, card: int, how: str, events: list[Event]) -> bool:
        if g.rank[card] == self.options.rank:
            for _ in range(self.options.times):
                events.append(Event("echoed", {"player": g.current_player, "card": g.text[card]}))
        return False


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Echo]
