"""The built-in card powers, registered through ``tamalou_powers`` like any plugin's.

French (Le Tamalou): 7, 8 "regarder au choix l'une des cartes de son jeu" (``peek_own``); 9, 10 "regarder
une carte du jeu d'un adversaire" (``peek_opponent``); J, Q "échanger à l'aveugle une carte de son
jeu avec une carte du jeu d'un adversaire" (``blind_swap``); black K "échanger ... avec une carte du
jeu d'un adversaire qu'il a la possibilité de regarder" (``look_and_swap``). tamalou.fun (tamalou.fun): Jack
"play again" (``play_again``).

The family beyond the sources (cambia, kaboo, dutch): ``look_both_and_swap`` (cambia K),
``swap_any_blind`` (kaboo and dutch J), ``swap_then_look`` (kaboo Q), ``look_any_two_and_swap``
(kaboo K) and ``give_stock_card`` (dutch A). Rat-a-Tat Cat's "Draw 2": ``draw_up_to``, with its settings
(``tamalou.plugins.draw_powers``).

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

Hints for bots (``CardPower.hint``, ``next_hint``: the bots contract), what the greedy bot plays: a look at
a card of one's own not seen yet; a look at an opponent's card not seen yet, at the opponent whose layout
looks lowest (the nearest to calling); a blind swap of a card for a lower one, one card at least seen
(``BLIND_GAIN`` points when only one is); a look-and-swap's look at a known card it would gain a point by
taking, else at a card not seen; a look at two cards, one's worst and the opponent's lowest; the swap after
a look when the card looked at is lower; a card given to the opponent who looks lowest; playing again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, Power, Swap, untimed
from ..events import Event
from ..hookspecs import hookimpl
from ..powers import TURN_TAKEN, CardPower, CardWorth
from .draw_powers import DrawUpTo

if TYPE_CHECKING:
    from ..round_table import RoundTable
    from ..views import SeatView

#: The expected gain (points) a blind swap with one card not seen needs for a hint above 0: an expected gain
#: is uncertain (a swap of two cards seen needs 1 point).
BLIND_GAIN = 3.0


def card_seen(view: SeatView, player: int | None, slot: int | None) -> str | None:
    """The card at ``player``'s ``slot`` as ``view`` shows it: ``None`` when the seat has not seen it."""
    if player is None or slot is None:
        return None
    for place in view.hands[player]:
        if place.slot == slot:
            return place.card
    return None


def lowest_first(total: float) -> float:
    """A hint between 0 and 1 that is the higher the lower ``total`` is (a layout's expected points): the
    use aimed at the layout that looks lowest wins."""
    return 0.5 - total / (2 * (1 + abs(total)))


def always_above_0(score: float) -> float:
    """A hint between 0 and 1 that is the higher the higher ``score`` is: the use that scores best wins, and
    it wins over passing even when its score is 0 or below."""
    return 0.5 + score / (2 * (1 + abs(score)))


def own_and_other(view: SeatView, a: Power) -> tuple[int, int, int] | None:
    """Of a use on two cards: the seat's own slot, and the player and slot of the other card; ``None`` when
    neither card is the seat's."""
    me = view.player
    owner = me if a.owner is None else a.owner
    if owner == me and a.slot is not None and a.target is not None and a.target_slot is not None:
        return a.slot, a.target, a.target_slot
    if a.target == me and a.target_slot is not None and a.slot is not None:
        return a.target_slot, owner, a.slot
    return None


def own_worst(view: SeatView, worth: CardWorth) -> float | None:
    """The points of the seat's card worth the most (a card not seen at ``worth.unseen()``)."""
    return max((worth.at(view.player, place.slot) for place in view.hands[view.player]), default=None)


def blind_swap_hint(view: SeatView, a: Power, worth: CardWorth) -> float:
    """What a swap nobody looks at gains the seat: its card's points less the other card's, when at least
    one of them has been seen and the gain is at least 1 point (both seen) or ``BLIND_GAIN`` (one seen);
    else 0 (a swap of two other players' cards gains it nothing)."""
    pair = own_and_other(view, a)
    if pair is None:
        return 0.0
    mine, q, s = pair
    seen_mine = card_seen(view, view.player, mine) is not None
    seen_theirs = card_seen(view, q, s) is not None
    if not seen_mine and not seen_theirs:
        return 0.0  # two cards not seen: nothing to count on
    gain = worth.at(view.player, mine) - worth.at(q, s)
    need = 1.0 if seen_mine and seen_theirs else BLIND_GAIN
    return gain if gain >= need else 0.0


def look_two_hint(view: SeatView, a: Power, worth: CardWorth) -> float:
    """A look at one of the seat's cards and another player's, to swap them after: its card worth the most
    for the other worth the least, a card not seen counting half a point more on its side for what the look
    teaches. Always worth a look (above 0) when one card is the seat's."""
    pair = own_and_other(view, a)
    if pair is None:
        return 0.0
    mine, q, s = pair
    own = worth.at(view.player, mine) + (0.5 if card_seen(view, view.player, mine) is None else 0.0)
    other = worth.at(q, s) - (0.5 if card_seen(view, q, s) is None else 0.0)
    return always_above_0(own - other)


def swap_looked_gain(view: SeatView, worth: CardWorth, first: Power) -> float:
    """What swapping the two cards the seat looked at (``first``, one of them its own) gains it: its card's
    points less the other's when both are seen and the other is lower; else 0."""
    pair = own_and_other(view, first)
    if pair is None:
        return 0.0
    mine, q, s = pair
    mine_card, theirs = card_seen(view, view.player, mine), card_seen(view, q, s)
    if mine_card is None or theirs is None:
        return 0.0
    gain = worth.value(mine_card) - worth.value(theirs)
    return gain if gain > 0 else 0.0


class PeekOwn(CardPower):
    """Look at one of your own cards."""

    name = "peek_own"
    use_text = "look at {mine}"
    title = "Look at one of your own cards"

    def uses(self, g: RoundTable, p: int) -> list[Action]:
        return [self.action(p, s) for s in g.occupied(p)]

    def usable(self, g: RoundTable, p: int) -> bool:
        return not g.empty(p)

    def refusal(self, g: RoundTable, a: Power) -> str | None:
        if a.target is not None or a.target_slot is not None or a.owner is not None or not g.slot_ok(a.player, a.slot):
            return "peek_own needs one of your own occupied slots: 'slot'"
        return None

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None
        g.look(a.player, a.player, a.slot, events)

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        # A card of one's own not seen yet is worth a look; one seen, not.
        return 1.0 if card_seen(view, view.player, action.slot) is None else 0.0


class PeekOpponent(CardPower):
    """Look at one card of an opponent."""

    name = "peek_opponent"
    use_text = "look at {theirs}"
    title = "Look at one card of an opponent"

    def uses(self, g: RoundTable, p: int) -> list[Action]:
        return [self.action(p, target=q, target_slot=s) for q in g.targets(p, self.exchanges) for s in g.occupied(q)]

    def usable(self, g: RoundTable, p: int) -> bool:
        return bool(g.targets(p))

    def refusal(self, g: RoundTable, a: Power) -> str | None:
        if a.slot is not None or a.owner is not None:
            return f"{self.name} takes 'target' and 'target_slot', not 'slot'"
        return self.target_refusal(g, a, exchanging=self.exchanges)

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        g.look(a.player, a.target, a.target_slot, events)

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        if action.target is None or card_seen(view, action.target, action.target_slot) is not None:
            return 0.0  # seen already: nothing to learn
        return lowest_first(worth.layout(action.target))  # the opponent nearest to calling first


class BlindSwap(CardPower):
    """Swap one of your cards with one of an opponent's, nobody looking."""

    name = "blind_swap"
    use_text = "swap {mine} with {theirs}, nobody looking"
    title = "Swap one of your cards with one of an opponent's, nobody looking"
    exchanges = True

    def uses(self, g: RoundTable, p: int) -> list[Action]:
        theirs = [(q, g.occupied(q)) for q in g.targets(p, True)]
        return [self.action(p, m, q, s) for m in g.occupied(p) for q, slots in theirs for s in slots]

    def usable(self, g: RoundTable, p: int) -> bool:
        return not g.empty(p) and bool(g.targets(p, True))

    def refusal(self, g: RoundTable, a: Power) -> str | None:
        why = self.target_refusal(g, a, exchanging=True)
        if why is None and (a.owner is not None or not g.slot_ok(a.player, a.slot)):
            why = f"{self.name} needs one of your own occupied slots: 'slot'"
        return why

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None and a.target is not None and a.target_slot is not None
        g.swap(a.player, (a.player, a.slot), (a.target, a.target_slot), events)

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        return blind_swap_hint(view, action, worth)


class LookAndSwap(PeekOpponent):
    """Look at one card of an opponent, then swap it with one of yours, or not."""

    name = "look_and_swap"
    use_text = "look at {theirs}, then swap it with one of yours or not"
    title = "Look at one card of an opponent, then swap it with one of yours, or not"
    exchanges = True

    def usable(self, g: RoundTable, p: int) -> bool:
        return bool(g.targets(p, True))

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        assert a.target is not None and a.target_slot is not None
        c = g.look(a.player, a.target, a.target_slot, events)
        return [a.target, a.target_slot, c] if not g.empty(a.player) else None

    def _why_not(self, g: RoundTable, p: int, memo: Any) -> str | None:
        q, s, c = memo
        if g.hands[q][s] != c:
            return "the card you looked at is no longer there"
        if q not in g.targets(p, True):
            return f"player {q} cannot be swapped with now"
        return None

    def next_uses(self, g: RoundTable, p: int, memo: Any) -> list[Action]:
        if self._why_not(g, p, memo) is not None:
            return []
        return [Swap(p, s) for s in g.occupied(p)]

    def next_refusal(self, g: RoundTable, a: Action, memo: Any) -> str | None:
        if not isinstance(a, Swap):
            return "look_and_swap's second step is 'swap' (or 'pass')"
        why = self._why_not(g, a.player, memo)
        if why is None and not g.slot_ok(a.player, a.slot):
            why = f"slot {a.slot} of player {a.player} holds no card"
        return why

    def resolve_next(self, g: RoundTable, a: Action, memo: Any, events: list[Event]) -> Any:
        assert isinstance(a, Swap)
        q, s, _ = memo
        g.swap(a.player, (a.player, a.slot), (q, s), events)

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        if action.target is None:
            return 0.0
        seen = card_seen(view, action.target, action.target_slot)
        if seen is None:
            # A card not seen may be a low one: a look at the opponent nearest to calling, below a known low card.
            return lowest_first(worth.layout(action.target))
        worst = own_worst(view, worth)
        gain = 0.0 if worst is None else worst - worth.value(seen)
        return gain if gain >= 1 else 0.0  # a known card worth taking: the lower the better

    def next_hint(self, view: SeatView, action: Action, worth: CardWorth, first: Power) -> float | None:
        seen = card_seen(view, first.target, first.target_slot)
        if not isinstance(action, Swap) or seen is None:
            return 0.0
        gain = worth.at(view.player, action.slot) - worth.value(seen)
        return gain if gain >= 1 else 0.0  # the card looked at in place of one's worst, if a point lower at least


class PlayAgain(CardPower):
    """Play again: draw once more, from the stock (tamalou.fun: "Jack: play again")."""

    name = "play_again"
    use_text = "play again"
    title = "Play again: draw once more, from the stock"
    passable = False

    def uses(self, g: RoundTable, p: int) -> list[Action]:
        return [self.action(p)] if g.can_draw_stock() else []

    def refusal(self, g: RoundTable, a: Power) -> str | None:
        if a.slot is not None or a.target is not None or a.target_slot is not None or a.owner is not None:
            return "play_again takes no target"
        if not g.can_draw_stock():
            return "the stock is empty"
        return None

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        g.again(a.player, events, stock_only=True)
        events.append(Event("play_again", {"player": a.player}))
        return TURN_TAKEN

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        return 1.0  # another draw: always worth it


class SwapThenLook(BlindSwap):
    """Swap one of your cards with another player's card, then look at the card you received (kaboo Q).
    Everyone sees the swap; the card received is shown to you alone."""

    name = "swap_then_look"
    use_text = "swap {mine} with {theirs}, then look at the card you receive"
    title = "Swap one of your cards with another player's card, then look at the card you received"

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        super().resolve(g, a, events)
        assert a.slot is not None
        g.look(a.player, a.player, a.slot, events)


class LookBothAndSwap(BlindSwap):
    """Look at one of your cards and one of an opponent's, then swap those two, or not (cambia K).

    First step: ``power`` with ``slot``, ``target``, ``target_slot`` (the uses of ``blind_swap``);
    everyone sees which two cards were looked at (two ``looked`` events, the cards secret to you).
    Second step: ``swap`` with the slot you looked at, or ``pass``."""

    name = "look_both_and_swap"
    use_text = "look at {mine} and {theirs}, then swap them or not"
    title = "Look at one of your cards and one of an opponent's, then swap those two, or not"

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        assert a.slot is not None and a.target is not None and a.target_slot is not None
        mine = g.look(a.player, a.player, a.slot, events)
        theirs = g.look(a.player, a.target, a.target_slot, events)
        return [a.slot, a.target, a.target_slot, mine, theirs]

    def _why_not(self, g: RoundTable, p: int, memo: Any) -> str | None:
        m, q, s, mine, theirs = memo
        if g.hands[p][m] != mine or g.hands[q][s] != theirs:
            return "the cards you looked at are no longer both in place"
        if q not in g.targets(p, True):
            return f"player {q} cannot be swapped with now"
        return None

    def next_uses(self, g: RoundTable, p: int, memo: Any) -> list[Action]:
        return [] if self._why_not(g, p, memo) is not None else [Swap(p, memo[0])]

    def next_refusal(self, g: RoundTable, a: Action, memo: Any) -> str | None:
        if not isinstance(a, Swap):
            return f"{self.name}'s second step is 'swap' with the slot you looked at (or 'pass')"
        if a.slot != memo[0]:
            return f"only the card you looked at (your slot {memo[0]}) may be swapped"
        return self._why_not(g, a.player, memo)

    def resolve_next(self, g: RoundTable, a: Action, memo: Any, events: list[Event]) -> Any:
        m, q, s, _, _ = memo
        g.swap(a.player, (a.player, m), (q, s), events)

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        return look_two_hint(view, action, worth)

    def next_hint(self, view: SeatView, action: Action, worth: CardWorth, first: Power) -> float | None:
        if not isinstance(action, Swap) or action.slot != first.slot:
            return 0.0
        return swap_looked_gain(view, worth, first)


def table_layouts(g: RoundTable, p: int) -> list[int]:
    """The layouts a power of ``p`` that picks "any two cards on the table" picks from, in seat order:
    ``p``'s own (unless empty, locked or sealed) and those of ``g.targets(p, exchanging=True)``."""
    mine = not g.empty(p) and not (g.locked | g.sealed) >> p & 1
    return sorted([p, *g.targets(p, True)]) if mine else g.targets(p, True)


class SwapAnyBlind(CardPower):
    """Swap any two cards on the table, of two different layouts (yours included or not), nobody
    looking (kaboo and dutch J). Everyone sees which two places were swapped."""

    name = "swap_any_blind"
    use_text = "swap {picked} with {theirs}, nobody looking"
    title = "Swap any two cards on the table, of two different layouts (yours included or not), nobody looking"
    exchanges = True

    def uses(self, g: RoundTable, p: int) -> list[Action]:
        places = [(q, g.occupied(q)) for q in table_layouts(g, p)]
        return [
            self.action(p, s1, o2, s2, o1)
            for i, (o1, slots1) in enumerate(places)
            for o2, slots2 in places[i + 1 :]
            for s1 in slots1
            for s2 in slots2
        ]

    def usable(self, g: RoundTable, p: int) -> bool:
        return len(table_layouts(g, p)) >= 2

    def refusal(self, g: RoundTable, a: Power) -> str | None:
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

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        assert a.owner is not None and a.slot is not None and a.target is not None and a.target_slot is not None
        g.swap(a.player, (a.owner, a.slot), (a.target, a.target_slot), events)

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        return blind_swap_hint(view, action, worth)


class LookAnyTwoAndSwap(SwapAnyBlind):
    """Pick any two cards on the table, of two different layouts, look at both, then swap them, or not
    (kaboo K). Everyone sees which two were picked (two ``looked`` events, the cards secret to you) and
    whether they were swapped (``swapped``, or ``passed``).

    First step: the uses of ``swap_any_blind``. Second step: the same ``power`` action again (swap
    them), or ``pass``."""

    name = "look_any_two_and_swap"
    use_text = "look at {picked} and {theirs}, then swap them or not"
    title = "Pick any two cards on the table, of two different layouts, look at both, then swap them, or not"

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        assert a.owner is not None and a.slot is not None and a.target is not None and a.target_slot is not None
        first = g.look(a.player, a.owner, a.slot, events)
        second = g.look(a.player, a.target, a.target_slot, events)
        return [a.owner, a.slot, a.target, a.target_slot, first, second]

    def next_uses(self, g: RoundTable, p: int, memo: Any) -> list[Action]:
        o1, s1, o2, s2, first, second = memo
        if g.hands[o1][s1] != first or g.hands[o2][s2] != second:
            return []
        layouts = table_layouts(g, p)
        if o1 not in layouts or o2 not in layouts:
            return []
        return [self.action(p, s1, o2, s2, o1)]

    def next_refusal(self, g: RoundTable, a: Action, memo: Any) -> str | None:
        if not isinstance(a, Power):
            return f"{self.name}'s second step is the same 'power' action again (or 'pass')"
        uses = self.next_uses(g, a.player, memo)
        if not uses:
            return "the two cards you looked at can no longer be swapped"
        if untimed(a) != uses[0]:
            return "only the two cards you looked at may be swapped: repeat the same 'power' action"
        return None

    def resolve_next(self, g: RoundTable, a: Action, memo: Any, events: list[Event]) -> Any:
        o1, s1, o2, s2, _, _ = memo
        g.swap(a.player, (o1, s1), (o2, s2), events)

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        return look_two_hint(view, action, worth)

    def next_hint(self, view: SeatView, action: Action, worth: CardWorth, first: Power) -> float | None:
        same = isinstance(action, Power) and (action.owner, action.slot, action.target, action.target_slot) == (
            first.owner,
            first.slot,
            first.target,
            first.target_slot,
        )
        return swap_looked_gain(view, worth, first) if same else 0.0


class GiveStockCard(CardPower):
    """Give the stock's top card, face down and seen by nobody, to another player: it joins their
    layout in a new slot (dutch A). Everyone sees who got it and where (event ``given``: ``player``
    the receiver, ``slot``, ``by``); nobody sees the card. A locked or sealed layout gets nothing."""

    name = "give_stock_card"
    use_text = "give {target} the stock's top card, unseen"
    title = (
        "Give the stock's top card, face down and seen by nobody, to another player: it joins their layout in a new "
        "slot"
    )
    exchanges = True

    def uses(self, g: RoundTable, p: int) -> list[Action]:
        return [self.action(p, None, q) for q in g.targets(p, True)] if g.can_draw_stock() else []

    def usable(self, g: RoundTable, p: int) -> bool:
        return g.can_draw_stock() and bool(g.targets(p, True))

    def refusal(self, g: RoundTable, a: Power) -> str | None:
        if a.slot is not None or a.target_slot is not None or a.owner is not None:
            return f"{self.name} takes only 'target' (the player who gets the card)"
        if not g.player_ok(a.target) or a.target == a.player:
            return "'target' must be another player"
        if a.target not in g.targets(a.player, True):
            return f"player {a.target} cannot be given a card now"
        if not g.can_draw_stock():
            return "the stock is empty"
        return None

    def resolve(self, g: RoundTable, a: Power, events: list[Event]) -> Any:
        assert a.target is not None
        g.deal_unseen(a.target, events, 1, kind="given", by=a.player)

    def hint(self, view: SeatView, action: Power, worth: CardWorth) -> float | None:
        if action.target is None:
            return 0.0
        return lowest_first(worth.layout(action.target))  # to the opponent nearest to calling


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
        DrawUpTo,
    ]
