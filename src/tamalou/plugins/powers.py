"""The built-in card powers, registered through ``tamalou_powers`` like any plugin's.

French (Le Tamalou): 7, 8 "regarder au choix l'une des cartes de son jeu" (``peek_own``); 9, 10 "regarder
une carte du jeu d'un adversaire" (``peek_opponent``); J, Q "échanger à l'aveugle une carte de son
jeu avec une carte du jeu d'un adversaire" (``blind_swap``); black K "échanger ... avec une carte du
jeu d'un adversaire qu'il a la possibilité de regarder" (``look_and_swap``). tamalou.fun (tamalou.fun): Jack
"play again" (``play_again``).

The family beyond the sources (cambia, kaboo, dutch): ``look_both_and_swap`` (cambia K),
``swap_any_blind`` (kaboo and dutch J), ``swap_then_look`` (kaboo Q), ``look_any_two_and_swap``
(kaboo K) and ``give_stock_card`` (dutch A).

How the uses are written (each listed whole, and accepted exactly as listed):

- own card and an opponent's (``blind_swap``, ``swap_then_look``, ``look_both_and_swap``):
  ``slot`` (yours), ``target``, ``target_slot``;
- two cards of two different layouts anywhere on the table (``swap_any_blind``,
  ``look_any_two_and_swap``): ``owner``/``slot`` and ``target``/``target_slot``, always with
  ``owner < target`` (one action per pair of cards) and ``owner`` given even when it is you; the
  layouts are yours and those of ``g.targets(p, exchanging=True)`` (never a player out of the round,
  a locked or a sealed layout; your own neither when it is locked or sealed);
- ``give_stock_card``: ``target`` only.

Second steps ("swap them or not", ``pass`` declines): ``look_and_swap`` and ``look_both_and_swap``
answer with ``swap`` naming your slot (for ``look_both_and_swap``, only the slot you looked at);
``look_any_two_and_swap`` answers with the same ``power`` action again (the two places it names,
which ``swap`` cannot say when neither card is yours).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ..actions import Action, Power, Swap, made, untimed
from ..engine.state import NO_CARD
from ..events import Event
from ..hookspecs import hookimpl
from ..powers import TURN_TAKEN, CardPower

if TYPE_CHECKING:
    from ..engine.game import Game

#: The ``Power`` actions of the powers that pair two places (a blind swap...), as grids: for (power class,
#: seat, owner of the first place, owner of the second), ``grid[m][s]`` is the use on slot ``m`` of the first
#: and slot ``s`` of the second. Listing a blind swap of n cards against three layouts of n cards takes
#: 3n² actions: read from a grid row by row at C speed rather than looked up one by one. A grid grows in
#: each direction apart (doubling), so that one long layout does not make a square of its length.
_GRIDS: dict[tuple[Any, ...], list[list[Action]]] = {}
#: The same for the powers that aim at one place: for (power class, seat, owner), ``row[s]`` is the use on
#: slot ``s`` of ``owner``'s layout (owner ``None``: the seat's own, the action naming ``slot`` alone).
_ROWS: dict[tuple[Any, ...], list[Action]] = {}


def _maker(power: CardPower) -> Callable[[int, int | None, int | None, int | None, int | None], Action]:
    """How a grid or a row makes ``power``'s actions from (player, slot, target, target_slot, owner):
    ``power.action`` if its class replaces it, else a ``Power`` made by ``actions.made``: unchecked (the
    values are seats and slot numbers the grid counts itself) and not kept in ``action``'s table, for the
    grids of long layouts hold thousands of them."""
    if type(power).action is not CardPower.action:
        return power.action
    return partial(made, Power)


def _grown(have: int, need: int) -> int:
    """A grid dimension of ``have`` that must hold ``need``: as it is, or doubled (8 at least)."""
    return have if need <= have else max(need, 8, 2 * have)


def _grid(power: CardPower, p: int, first: int | None, second: int, rows: int, cols: int) -> list[list[Action]]:
    """The grid of ``power``'s uses by ``p`` pairing a slot of ``first``'s layout (``None``: ``p``'s own,
    no ``owner`` field) with one of ``second``'s, at least ``rows`` × ``cols`` (made once, grown when a
    layout outgrows it)."""
    key = (type(power), p, first, second)
    grid = _GRIDS.get(key)
    if grid is None or len(grid) < rows or len(grid[0]) < cols:
        r = _grown(len(grid) if grid else 0, rows)
        c = _grown(len(grid[0]) if grid else 0, cols)
        make = _maker(power)
        grid = [[make(p, m, second, s, first) for s in range(c)] for m in range(r)]
        _GRIDS[key] = grid
    return grid


def _row(power: CardPower, p: int, owner: int | None, size: int) -> list[Action]:
    """``power``'s uses by ``p`` on each slot of ``owner``'s layout (``None``: ``p``'s own), at least
    ``size`` of them (made once, grown when the layout outgrows it)."""
    key = (type(power), p, owner)
    row = _ROWS.get(key)
    if row is None or len(row) < size:
        n = _grown(len(row) if row else 0, size)
        make = _maker(power)
        row = [make(p, s, None, None, None) if owner is None else make(p, None, owner, s, None) for s in range(n)]
        _ROWS[key] = row
    return row


def _on_layout(power: CardPower, g: Game, p: int, owner: int | None, out: list[Action]) -> None:
    """Append ``power``'s uses by ``p`` on every occupied slot of ``owner``'s layout (``None``: ``p``'s own)."""
    hand = g.hands[p if owner is None else owner]
    row = _row(power, p, owner, len(hand))
    if NO_CARD in hand:
        out.extend([row[s] for s, c in enumerate(hand) if c != NO_CARD])
    else:
        out.extend(row[: len(hand)])


def _paired(
    power: CardPower, p: int, first: int | None, slots: list[int], second: int, others: list[int]
) -> list[Action]:
    """``power``'s uses by ``p`` on each slot of ``slots`` (of ``first``) with each of ``others`` (of ``second``),
    in that order."""
    if not slots or not others:
        return []
    grid = _grid(power, p, first, second, slots[-1] + 1, others[-1] + 1)
    out: list[Action] = []
    for m in slots:
        out.extend(map(grid[m].__getitem__, others))
    return out


class PeekOwn(CardPower):
    """Look at one of your own cards."""

    name = "peek_own"

    def uses(self, g: Game, p: int) -> list[Action]:
        out: list[Action] = []
        _on_layout(self, g, p, None, out)
        return out

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
        out: list[Action] = []
        for q in g.targets(p, self.exchanges):
            _on_layout(self, g, p, q, out)
        return out

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
        mine = g.occupied(p)
        if not mine:
            return []
        last = mine[-1]
        grids = []
        for q in g.targets(p, True):
            hand = g.hands[q]
            if NO_CARD in hand:
                theirs = g.occupied(q)
                grids.append((_grid(self, p, None, q, last + 1, theirs[-1] + 1), theirs, 0))
            else:  # every slot: a slice of the grid's row (``targets`` has only layouts with a card)
                grids.append((_grid(self, p, None, q, last + 1, len(hand)), [], len(hand)))
        out: list[Action] = []
        for m in mine:  # each own slot, then each target's slots in turn
            for grid, theirs, every in grids:
                if every:
                    out.extend(grid[m][:every])
                else:
                    out.extend(map(grid[m].__getitem__, theirs))
        return out

    def usable(self, g: Game, p: int) -> bool:
        return not g.empty(p) and bool(g.targets(p, True))

    def refusal(self, g: Game, a: Power) -> str | None:
        why = self.target_refusal(g, a, exchanging=True)
        if why is None and (a.owner is not None or not g.slot_ok(a.player, a.slot)):
            why = f"{self.name} needs one of your own occupied slots: 'slot'"
        return why

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None and a.target is not None and a.target_slot is not None
        g.swap(a.player, (a.player, a.slot), (a.target, a.target_slot), events)


class LookAndSwap(PeekOpponent):
    """Look at one card of an opponent, then swap it with one of yours, or not."""

    name = "look_and_swap"
    exchanges = True

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
    """Play again: draw once more, from the stock (tamalou.fun: "Jack: play again")."""

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


class SwapThenLook(BlindSwap):
    """Swap one of your cards with another player's card, then look at the card you received (kaboo Q).
    Everyone sees the swap; the card received is shown to you alone."""

    name = "swap_then_look"

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        super().resolve(g, a, events)
        assert a.slot is not None
        g.look(a.player, a.player, a.slot, events)


class LookBothAndSwap(BlindSwap):
    """Look at one of your cards and one of an opponent's, then swap those two, or not (cambia K).

    First step: ``power`` with ``slot``, ``target``, ``target_slot`` (the uses of ``blind_swap``);
    everyone sees which two cards were looked at (two ``looked`` events, the cards secret to you).
    Second step: ``swap`` with the slot you looked at, or ``pass``."""

    name = "look_both_and_swap"

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None and a.target is not None and a.target_slot is not None
        mine = g.look(a.player, a.player, a.slot, events)
        theirs = g.look(a.player, a.target, a.target_slot, events)
        return [a.slot, a.target, a.target_slot, mine, theirs]

    def _why_not(self, g: Game, p: int, memo: Any) -> str | None:
        m, q, s, mine, theirs = memo
        if g.hands[p][m] != mine or g.hands[q][s] != theirs:
            return "the cards you looked at are no longer both in place"
        if q not in g.targets(p, True):
            return f"player {q} cannot be swapped with now"
        return None

    def next_uses(self, g: Game, p: int, memo: Any) -> list[Action]:
        return [] if self._why_not(g, p, memo) is not None else [Swap(p, memo[0])]

    def next_refusal(self, g: Game, a: Action, memo: Any) -> str | None:
        if not isinstance(a, Swap):
            return f"{self.name}'s second step is 'swap' with the slot you looked at (or 'pass')"
        if a.slot != memo[0]:
            return f"only the card you looked at (your slot {memo[0]}) may be swapped"
        return self._why_not(g, a.player, memo)

    def resolve_next(self, g: Game, a: Action, memo: Any, events: list[Event]) -> Any:
        m, q, s, _, _ = memo
        g.swap(a.player, (a.player, m), (q, s), events)


def table_layouts(g: Game, p: int) -> list[int]:
    """The layouts a power of ``p`` that picks "any two cards on the table" picks from, in seat order:
    ``p``'s own (unless empty, locked or sealed) and those of ``g.targets(p, exchanging=True)``."""
    mine = not g.empty(p) and not (g.locked | g.sealed) >> p & 1
    return sorted([p, *g.targets(p, True)]) if mine else g.targets(p, True)


class SwapAnyBlind(CardPower):
    """Swap any two cards on the table, of two different layouts (yours included or not), nobody
    looking (kaboo and dutch J). Everyone sees which two places were swapped."""

    name = "swap_any_blind"
    exchanges = True

    def uses(self, g: Game, p: int) -> list[Action]:
        places = [(q, g.occupied(q)) for q in table_layouts(g, p)]
        out: list[Action] = []
        for i, (o1, slots1) in enumerate(places):
            for o2, slots2 in places[i + 1 :]:
                out.extend(_paired(self, p, o1, slots1, o2, slots2))
        return out

    def usable(self, g: Game, p: int) -> bool:
        return len(table_layouts(g, p)) >= 2

    def refusal(self, g: Game, a: Power) -> str | None:
        o1, s1, o2, s2 = a.owner, a.slot, a.target, a.target_slot
        if o1 is None or o2 is None or s1 is None or s2 is None:
            return f"{self.name} picks two cards: 'owner' and 'slot', 'target' and 'target_slot'"
        if not (g.player_ok(o1) and g.player_ok(o2)) or o1 >= o2:
            return f"{self.name} picks two different layouts, the lower seat as 'owner' ('owner' < 'target')"
        layouts = table_layouts(g, a.player)
        for q, s in ((o1, s1), (o2, s2)):
            if q not in layouts:
                return f"the cards of player {q} cannot be picked now"
            if not g.slot_ok(q, s):
                return f"slot {s} of player {q} holds no card"
        return None

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.owner is not None and a.slot is not None and a.target is not None and a.target_slot is not None
        g.swap(a.player, (a.owner, a.slot), (a.target, a.target_slot), events)


class LookAnyTwoAndSwap(SwapAnyBlind):
    """Pick any two cards on the table, of two different layouts, look at both, then swap them, or not
    (kaboo K). Everyone sees which two were picked (two ``looked`` events, the cards secret to you) and
    whether they were swapped (``swapped``, or ``passed``).

    First step: the uses of ``swap_any_blind``. Second step: the same ``power`` action again (swap
    them), or ``pass``."""

    name = "look_any_two_and_swap"

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.owner is not None and a.slot is not None and a.target is not None and a.target_slot is not None
        first = g.look(a.player, a.owner, a.slot, events)
        second = g.look(a.player, a.target, a.target_slot, events)
        return [a.owner, a.slot, a.target, a.target_slot, first, second]

    def next_uses(self, g: Game, p: int, memo: Any) -> list[Action]:
        o1, s1, o2, s2, first, second = memo
        if g.hands[o1][s1] != first or g.hands[o2][s2] != second:
            return []
        layouts = table_layouts(g, p)
        if o1 not in layouts or o2 not in layouts:
            return []
        return [self.action(p, s1, o2, s2, o1)]

    def next_refusal(self, g: Game, a: Action, memo: Any) -> str | None:
        if not isinstance(a, Power):
            return f"{self.name}'s second step is the same 'power' action again (or 'pass')"
        uses = self.next_uses(g, a.player, memo)
        if not uses:
            return "the two cards you looked at can no longer be swapped"
        if untimed(a) != uses[0]:
            return "only the two cards you looked at may be swapped: repeat the same 'power' action"
        return None

    def resolve_next(self, g: Game, a: Action, memo: Any, events: list[Event]) -> Any:
        o1, s1, o2, s2, _, _ = memo
        g.swap(a.player, (o1, s1), (o2, s2), events)


class GiveStockCard(CardPower):
    """Give the stock's top card, face down and seen by nobody, to another player: it joins their
    layout in a new slot (dutch A). Everyone sees who got it and where (event ``given``: ``player``
    the receiver, ``slot``, ``by``); nobody sees the card. A locked or sealed layout gets nothing."""

    name = "give_stock_card"
    exchanges = True

    def uses(self, g: Game, p: int) -> list[Action]:
        return [self.action(p, None, q) for q in g.targets(p, True)] if g.can_draw_stock() else []

    def usable(self, g: Game, p: int) -> bool:
        return g.can_draw_stock() and bool(g.targets(p, True))

    def refusal(self, g: Game, a: Power) -> str | None:
        if a.slot is not None or a.target_slot is not None or a.owner is not None:
            return f"{self.name} takes only 'target' (the player who gets the card)"
        if not g.player_ok(a.target) or a.target == a.player:
            return "'target' must be another player"
        if a.target not in g.targets(a.player, True):
            return f"player {a.target} cannot be given a card now"
        if not g.can_draw_stock():
            return "the stock is empty"
        return None

    def resolve(self, g: Game, a: Power, events: list[Event]) -> Any:
        assert a.target is not None
        g.deal_unseen(a.target, events, 1, kind="given", by=a.player)


@hookimpl
def tamalou_powers() -> list[type[CardPower]]:
    return [
        PeekOwn,
        PeekOpponent,
        BlindSwap,
        LookAndSwap,
        PlayAgain,
        SwapThenLook,
        LookBothAndSwap,
        SwapAnyBlind,
        LookAnyTwoAndSwap,
        GiveStockCard,
    ]
