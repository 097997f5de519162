"""A mechanic and a power that give words to their events (``event_texts``) and the mechanic a title: a six
thrown is announced (event ``six_thrown``), and the power ``shout`` (on the 4s here) says so (``shouted``).
``tests/api/test_plugin_words.py`` uses it."""

from __future__ import annotations

from typing import Any, ClassVar

import tamalou
from tamalou import Action, Event, Power, Round


class Sixes(tamalou.Mechanic):
    name = "sixes"
    title = "a six thrown is announced to the table"
    event_texts: ClassVar[dict[str, str]] = {"six_thrown": "{player} throws a six ({card}, {how})"}

    def thrown(self, g: Round, card: int, how: str, events: list[Event]) -> bool:
        if g.rank[card] == "6":
            events.append(Event("six_thrown", {"player": g.current_player, "card": g.text[card], "how": how}))
        return False


class Shout(tamalou.CardPower):
    """Shout, and nothing else."""

    name = "shout"
    event_texts: ClassVar[dict[str, str]] = {"shouted": "{player} shouts"}

    def uses(self, g: Round, p: int) -> list[Action]:
        return [self.action(p)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        events.append(Event("shouted", {"player": a.player}))
        return None


@tamalou.hookimpl
def tamalou_mechanics() -> list[type[tamalou.Mechanic]]:
    return [Sixes]


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [Shout]
