"""Broken on purpose: a power that exchanges two opponents' cards in secret and leaves who knows what as it was.

"shuffle_two" exchanges two cards of two opponents, nobody looking: nobody should know either card afterwards,
or at least nobody should know where each went. The bug: it swaps the cards in the layouts and says only that
"player p shuffled", so whoever knew one of the cards still knows it, now in its new place, which they never saw
(``tamalou verify`` reports ``knowledge_follows_moves``). ``g.swap`` names both places in its event; a secret
exchange must forget the cards' knowers (``g.knowers[card] = 0``).
"""

from __future__ import annotations

from typing import Any

import tamalou
from tamalou import Action, Event, Power, Round


class ShuffleTwo(tamalou.CardPower):
    """Exchange, nobody looking, a card of one opponent with a card of another."""

    name = "shuffle_two"
    exchanges = True

    def uses(self, g: Round, p: int) -> list[Action]:
        opponents = g.targets(p, True)
        if len(opponents) < 2:
            return []
        first, second = opponents[0], opponents[1]
        return [self.action(p, s, second, t, owner=first) for s in g.occupied(first) for t in g.occupied(second)]

    def resolve(self, g: Round, a: Power, events: list[Event]) -> Any:
        assert a.owner is not None and a.slot is not None and a.target is not None and a.target_slot is not None
        mine, theirs = g.hands[a.owner], g.hands[a.target]
        mine[a.slot], theirs[a.target_slot] = theirs[a.target_slot], mine[a.slot]  # BUG: knowers kept, unseen move
        events.append(Event("shuffled", {"player": a.player}))


@tamalou.hookimpl
def tamalou_powers() -> list[type[tamalou.CardPower]]:
    return [ShuffleTwo]
