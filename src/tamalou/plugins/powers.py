"""The built-in card powers, registered through ``tamalou_powers`` like any plugin's.

French (000): 7, 8 "regarder au choix l'une des cartes de son jeu" (``peek_own``); 9, 10 "regarder
une carte du jeu d'un adversaire" (``peek_opponent``); J, Q "échanger à l'aveugle une carte de son
jeu avec une carte du jeu d'un adversaire" (``blind_swap``); black K "échanger ... avec une carte du
jeu d'un adversaire qu'il a la possibilité de regarder" (``look_and_swap``). tamalou.fun (003): Jack
"play again" (``play_again``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, Power, Swap
from ..events import Event
from ..hookspecs import hookimpl
from ..powers import TURN_TAKEN, CardPower

if TYPE_CHECKING:
    from ..engine.game import Game


class PeekOwn(CardPower):
    """Look at one of your own cards."""

    name = "peek_own"

    def uses(self, g: Game, p: int) -> list[Action]:
        return [self.action(p, s) for s in g.occupied(p)]

    def usable(self, g: Game, p: int) -> bool:
        return not g.empty(p)

    def refusal(self, g: Game, a: Power) -> str | None:
        if a.target is not None or a.target_slot is not None or a.owner is not None or not g.slot_ok(a.player, a.slot):
            return "peek_own needs one of your own occupied slots: 'slot'"
        return None

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None
        g.look(a.player, a.player, a.slot, events)


class PeekOpponent(CardPower):
    """Look at one card of an opponent."""

    name = "peek_opponent"

    def uses(self, g: Game, p: int) -> list[Action]:
        return [self.action(p, None, q, s) for q in g.targets(p) for s in g.occupied(q)]

    def usable(self, g: Game, p: int) -> bool:
        return bool(g.targets(p))

    def refusal(self, g: Game, a: Power) -> str | None:
        if a.slot is not None or a.owner is not None:
            return f"{self.name} takes 'target' and 'target_slot', not 'slot'"
        return self.target_refusal(g, a, exchanging=self.exchanges)

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        g.look(a.player, a.target, a.target_slot, events)


class BlindSwap(CardPower):
    """Swap one of your cards with one of an opponent's, nobody looking."""

    name = "blind_swap"
    exchanges = True

    def uses(self, g: Game, p: int) -> list[Action]:
        targets = [(q, s) for q in g.targets(p, True) for s in g.occupied(q)]
        return [self.action(p, m, q, s) for m in g.occupied(p) for q, s in targets]

    def usable(self, g: Game, p: int) -> bool:
        return not g.empty(p) and bool(g.targets(p, True))

    def refusal(self, g: Game, a: Power) -> str | None:
        why = self.target_refusal(g, a, exchanging=True)
        if why is None and (a.owner is not None or not g.slot_ok(a.player, a.slot)):
            why = "blind_swap needs one of your own occupied slots: 'slot'"
        return why

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None and a.target is not None and a.target_slot is not None
        g.swap(a.player, (a.player, a.slot), (a.target, a.target_slot), events)


class LookAndSwap(PeekOpponent):
    """Look at one card of an opponent, then swap it with one of yours, or not."""

    name = "look_and_swap"
    exchanges = True

    def uses(self, g: Game, p: int) -> list[Action]:
        return [self.action(p, None, q, s) for q in g.targets(p, True) for s in g.occupied(q)]

    def usable(self, g: Game, p: int) -> bool:
        return bool(g.targets(p, True))

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        c = g.look(a.player, a.target, a.target_slot, events)
        return [a.target, a.target_slot, c] if not g.empty(a.player) else None

    def _why_not(self, g: Game, p: int, memo: Any) -> str | None:
        q, s, c = memo
        if g.hands[q][s] != c:
            return "the card you looked at is no longer there"
        if q not in g.targets(p, True):
            return f"player {q} cannot be swapped with now"
        return None

    def next_uses(self, g: Game, p: int, memo: Any) -> list[Action]:
        if self._why_not(g, p, memo) is not None:
            return []
        return [Swap(p, s) for s in g.occupied(p)]

    def next_refusal(self, g: Game, a: Action, memo: Any) -> str | None:
        if not isinstance(a, Swap):
            return "look_and_swap's second step is 'swap' (or 'pass')"
        why = self._why_not(g, a.player, memo)
        if why is None and not g.slot_ok(a.player, a.slot):
            why = f"slot {a.slot} of player {a.player} holds no card"
        return why

    def resolve_next(self, g: Game, a: Action, memo: Any, events: list[Event]) -> Any:
        assert isinstance(a, Swap)
        q, s, _ = memo
        g.swap(a.player, (a.player, a.slot), (q, s), events)


class PlayAgain(CardPower):
    """Play again: draw once more, from the stock (003: "Jack: play again")."""

    name = "play_again"
    passable = False

    def uses(self, g: Game, p: int) -> list[Action]:
        return [self.action(p)] if g.can_draw_stock() else []

    def refusal(self, g: Game, a: Power) -> str | None:
        if a.slot is not None or a.target is not None or a.target_slot is not None or a.owner is not None:
            return "play_again takes no target"
        if not g.can_draw_stock():
            return "the stock is empty"
        return None

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        g.again(a.player, events, stock_only=True)
        events.append(Event("play_again", {"player": a.player}))
        return TURN_TAKEN


@hookimpl
def tamalou_powers() -> list[type[CardPower]]:
    return [PeekOwn, PeekOpponent, BlindSwap, LookAndSwap, PlayAgain]
