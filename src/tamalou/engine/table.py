"""The table: the only code that moves cards and changes who knows them.

Every primitive keeps knowledge exact, so a power or a mechanic built on these never has to think about it: a card
shown to a player is known by them (``look``); a card face up is known by all (``throw``, ``show``, and ``turn_up``,
which also marks a layout's card as lying face up); a card moved in a way everyone sees keeps its knowers (``swap``,
``move``); a card dealt face down unseen is known by nobody (``penalty``, ``deal_unseen``); a reshuffle forgets. The
reading helpers (``occupied``, ``targets``...) are what powers and mechanics decide with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from .._compiling import mypyc_attr
from ..cards import Card
from ..events import Event
from .round_state import State
from .state import NO_CARD, Phase

_BUILTIN = frozenset(p.value for p in Phase)

#: The most events one step may have made when the discard is reshuffled into the stock: past it, the step is a rule
#: that draws again and again and never stops (a hook redrawing until a number card comes, from a stock of power
#: cards only: each redraw reshuffles the discard back), refused before it fills the memory.
MOST_EVENTS_AT_A_RESHUFFLE = 10_000


@mypyc_attr(allow_interpreted_subclasses=True)
class Table(State):
    """Card moves and knowledge, on top of the saved state."""

    __slots__ = ()

    # ----------------------------------------------------------------------------- reading

    def layout(self, player: int) -> list[str | None]:
        """The cards of ``player`` per slot as text (``None`` for an emptied slot). Full information:
        for tests, tools and the end of a round, never for a player's eyes (use ``view``)."""
        return [None if c == NO_CARD else self.text[c] for c in self.hands[player]]

    def occupied(self, player: int) -> list[int]:
        """The slots of ``player`` that hold a card."""
        hand = self.hands[player]
        if NO_CARD not in hand:
            return list(range(len(hand)))
        return [s for s, c in enumerate(hand) if c != NO_CARD]

    def card_count(self, player: int) -> int:
        """How many cards ``player``'s layout holds."""
        hand = self.hands[player]
        return len(hand) - hand.count(NO_CARD)

    def empty(self, player: int) -> bool:
        """Whether ``player``'s layout holds no card (every slot emptied, or no slot at all)."""
        hand = self.hands[player]
        return hand.count(NO_CARD) == len(hand)

    def total(self, player: int) -> int:
        """The true card total of ``player`` (full information: not for a player's eyes)."""
        value = self.value
        return sum(value[c] for c in self.hands[player] if c != NO_CARD)

    def knows(self, player: int, card: int) -> bool:
        """Whether ``player`` knows the card with id ``card`` (and so where it is)."""
        return bool(self.knowers[card] >> player & 1)

    def card(self, card: int) -> Card:
        return self.cards[card]

    def card_at(self, owner: int, slot: int) -> int:
        """The card id in ``owner``'s ``slot`` (``NO_CARD`` if emptied)."""
        return self.hands[owner][slot]

    @property
    def discard_top(self) -> Card | None:
        return self.cards[self.discard[-1]] if self.discard else None

    def phase_named(self, name: str) -> str:
        """The phase called ``name`` (a ``Phase`` for a built-in one), to go back to a saved phase."""
        return Phase(name) if name in _BUILTIN else name

    def player_ok(self, p: object) -> TypeGuard[int]:
        return type(p) is int and 0 <= p < self.players

    def slot_ok(self, p: int, s: object) -> bool:
        """Whether ``s`` is an occupied slot of ``p``."""
        hand = self.hands[p]
        return type(s) is int and 0 <= s < len(hand) and hand[s] != NO_CARD

    def is_out(self, p: int) -> bool:
        """Whether ``p`` left the round (they are never targeted and never act)."""
        return bool(self.left >> p & 1)

    def unaimable(self, exchanging: bool = False) -> int:
        """The players nobody may aim at now, as a bit mask (see ``targets``; an empty layout aside)."""
        return self.left | self.sealed | (self.locked if exchanging else 0)

    def targetable(self, p: int, q: int, exchanging: bool = False) -> bool:
        """Whether ``q`` is one of ``targets(p, exchanging)`` (without building the list)."""
        hand = self.hands[q]
        return q != p and not self.unaimable(exchanging) >> q & 1 and hand.count(NO_CARD) != len(hand)

    def targets(self, p: int, exchanging: bool = False) -> list[int]:
        """The other players ``p`` may aim at: those with a card, still in the round, whose layout is not
        sealed (nobody looks at it, exchanges with it, matches from it or gives into it), and, when cards
        are exchanged with them (``exchanging``), whose layout is not locked (a protected caller)."""
        blocked = self.unaimable(exchanging)
        hands = self.hands
        return [
            q
            for q in range(self.players)
            if q != p and not blocked >> q & 1 and hands[q].count(NO_CARD) != len(hands[q])
        ]

    def reshuffle_possible(self) -> bool:
        return self.rb.reshuffle and len(self.discard) > 1

    def can_draw_stock(self) -> bool:
        return bool(self.stock) or self.reshuffle_possible()

    # ----------------------------------------------------------------------------- moving

    def look(self, p: int, owner: int, slot: int, events: list[Event]) -> int:
        """Show ``p`` the card in ``owner``'s ``slot`` (``p`` alone); returns its id."""
        c = self.hands[owner][slot]
        self.knowers[c] |= 1 << p
        events.append(Event("looked", {"player": p, "owner": owner, "slot": slot}, {"card": self.text[c]}, 1 << p))
        return c

    def show(self, card: int) -> None:
        """Show ``card`` to everyone: every seat knows it (a card in a layout stays face down: ``turn_up``
        turns one face up)."""
        self.knowers[card] = self.all_mask

    def turn_up(self, owner: int, slot: int, events: list[Event], by: int | None = None) -> int:
        """Turn the card in ``owner``'s ``slot`` face up, for everyone, where it lies; returns its id. It is known
        to every seat and marked face up (``face_up``: every view shows the slot as such; the mark stays while the
        card moves between layouts and goes when it leaves them); the event ``turned_up`` names the slot and the
        card (public), and ``by`` when someone else turned it. A card face up already is turned up again."""
        c = self.hands[owner][slot]
        self.knowers[c] = self.all_mask
        self.face_up |= 1 << c
        data: dict[str, object] = {"player": owner, "slot": slot, "card": self.text[c]}
        if by is not None and by != owner:
            data["by"] = by
        events.append(Event("turned_up", data))
        return c

    def is_up(self, owner: int, slot: int) -> bool:
        """Whether the card in ``owner``'s ``slot`` lies face up (``turn_up``); ``False`` for an emptied slot."""
        c = self.hands[owner][slot]
        return c != NO_CARD and bool(self.face_up >> c & 1)

    def face_down(self, player: int) -> list[int]:
        """``player``'s occupied slots whose card lies face down (not ``turn_up``)."""
        up = self.face_up
        return [s for s, c in enumerate(self.hands[player]) if c != NO_CARD and not up >> c & 1]

    def show_layout(self, p: int) -> None:
        """Every card of ``p``'s layout face up for everyone."""
        allmask = self.all_mask
        for c in self.hands[p]:
            if c != NO_CARD:
                self.knowers[c] = allmask

    def swap(self, by: int, a: tuple[int, int], b: tuple[int, int], events: list[Event]) -> None:
        """Exchange two placed cards (``(owner, slot)`` each) for ``by``; everyone sees which places
        changed, so each card keeps its knowers."""
        (pa, sa), (pb, sb) = a, b
        ha, hb = self.hands[pa], self.hands[pb]
        ha[sa], hb[sb] = hb[sb], ha[sa]
        data = {"player": by, "slot": sa, "target": pb, "target_slot": sb}
        if pa != by:
            data["owner"] = pa
        events.append(Event("swapped", data))
        for hook in self.rb.hooks.swapped:
            hook(self, by)

    def move(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Move the card in ``a`` (``(owner, slot)``) into the empty place ``b``, in everyone's sight
        of the places but unseen (its knowers stay as they are); returns its id."""
        (pa, sa), (pb, sb) = a, b
        c = self.hands[pa][sa]
        self.hands[pa][sa] = NO_CARD
        self.hands[pb][sb] = c
        return c

    def remove(self, owner: int, slot: int) -> int:
        """Take the card out of ``owner``'s ``slot`` (the slot stays, empty); returns it."""
        hand = self.hands[owner]
        c = hand[slot]
        hand[slot] = NO_CARD
        return c

    def place(self, owner: int, slot: int, card: int) -> None:
        """Put ``card`` into ``owner``'s ``slot`` (an existing slot) with its knowers as they are."""
        self.hands[owner][slot] = card

    def place_held(self, slot: int | None = None) -> int:
        """Put the held card into its holder's ``slot`` (an emptied one) or, with ``None``, a new slot;
        it keeps its knowers (its holder saw it). Returns the slot."""
        p, c = self.holder, self.held
        hand = self.hands[p]
        if slot is None:
            hand.append(c)
            slot = len(hand) - 1
        else:
            hand[slot] = c
        self.held = NO_CARD
        self.holder = -1
        return slot

    def throw(self, card: int) -> None:
        """Put ``card`` face up on the discard."""
        self.discard.append(card)
        self.knowers[card] = self.all_mask
        if self.face_up:
            self.face_up &= ~(1 << card)  # (a layout's mark: the discard is face up anyway)

    def throw_from(self, owner: int, slot: int) -> int:
        """Put the card in ``owner``'s ``slot`` face up on the discard (the slot stays, empty)."""
        hand = self.hands[owner]
        c = hand[slot]
        hand[slot] = NO_CARD
        self.discard.append(c)
        self.knowers[c] = self.all_mask
        if self.face_up:
            self.face_up &= ~(1 << c)
        return c

    def draw_stock(self, p: int, events: list[Event]) -> int:
        """``p`` takes the stock's top card and sees it (the discard reshuffled first if needed)."""
        if not self.stock:
            self.reshuffle(events)
        c = self.stock.pop()
        self.knowers[c] = 1 << p
        return c

    def replace_from_stock(
        self, owner: int, slot: int, events: list[Event], *, face_up: bool = False, by: int | None = None
    ) -> int:
        """Replace the card in ``owner``'s ``slot`` with the stock's top card, in everyone's sight: the old card goes
        face up on the discard, the new one lies face up for everyone (``face_up``, as ``turn_up``) or face down and
        seen by nobody. The event ``replaced_from_stock`` says it (the thrown card, and the new one when face up:
        public facts). The stock is refilled from the discard first when it is empty and the ruleset allows it;
        when no card can be drawn, nothing moves, the event ``no_card`` says so and ``NO_CARD`` is returned, else
        the new card's id."""
        if not self.stock and self.reshuffle_possible():
            self.reshuffle(events)
        if not self.stock:
            events.append(Event("no_card", {"player": owner}))
            return NO_CARD
        new = self.stock.pop()
        old = self.throw_from(owner, slot)
        self.hands[owner][slot] = new
        data: dict[str, object] = {"player": owner, "slot": slot, "thrown": self.text[old]}
        if face_up:
            self.knowers[new] = self.all_mask
            self.face_up |= 1 << new
            data["card"] = self.text[new]
        else:
            self.knowers[new] = 0
        if by is not None and by != owner:
            data["by"] = by
        events.append(Event("replaced_from_stock", data))
        return new

    def take_discard(self) -> int:
        """Take the discard's top card (face up: everyone keeps knowing it)."""
        c = self.discard.pop()
        for hook in self.rb.hooks.discard_taken:
            hook(self, c)
        return c

    def reshuffle(self, events: list[Event]) -> None:
        """The discard but its top, shuffled face down into a new stock: nobody knows those cards. A ``RuntimeError``
        when the step has made ``MOST_EVENTS_AT_A_RESHUFFLE`` events already (a rule that never stops drawing)."""
        if len(events) > MOST_EVENTS_AT_A_RESHUFFLE:
            raise RuntimeError(
                f"the discard is reshuffled into the stock again after {len(events)} events of one step: a rule that "
                "draws again and again and never stops"
            )
        top = self.discard.pop()
        pile = self.discard
        for c in pile:
            self.knowers[c] = 0
        self.rng.shuffle(pile)
        self.stock = pile
        self.discard = [top]
        events.append(Event("reshuffled", {"stock_size": len(self.stock)}))

    def deal_unseen(
        self, p: int, events: list[Event], count: int = 1, *, kind: str = "penalty", by: int | None = None
    ) -> int:
        """``count`` cards from the stock's top, face down and seen by nobody, each into a new slot of
        ``p``'s layout (the discard reshuffled when needed). Returns how many were dealt: fewer when
        no card is left, which an event says."""
        hand = self.hands[p]
        stock = self.stock
        if count == 1 and stock and by is None:  # the usual penalty: one card, the stock not empty
            c = stock.pop()
            self.knowers[c] = 0
            hand.append(c)
            events.append(Event(kind, {"player": p, "slot": len(hand) - 1}))
            return 1
        for i in range(count):
            if not self.stock and self.reshuffle_possible():
                self.reshuffle(events)
            if not self.stock:
                events.append(Event("no_penalty_card" if kind == "penalty" else "no_card", {"player": p}))
                return i
            c = self.stock.pop()
            self.knowers[c] = 0
            hand.append(c)
            data = {"player": p, "slot": len(hand) - 1}
            if by is not None:
                data["by"] = by
            events.append(Event(kind, data))
        return count

    def penalty(self, p: int, count: int, events: list[Event]) -> None:
        """``count`` penalty cards for ``p`` (stops when no card is left)."""
        self.deal_unseen(p, events, count)

    def peek(self, p: int, slots: Sequence[int], events: list[Event]) -> None:
        """An opening peek: ``p`` sees their own ``slots`` (one event); with ``rules.peek.public``, the cards are
        turned face up for everyone instead (``turn_up``: an event each)."""
        if self.rb.public_peek:
            for s in slots:
                self.turn_up(p, s, events)
            return
        hand = self.hands[p]
        for s in slots:
            self.knowers[hand[s]] |= 1 << p
        events.append(
            Event("peeked", {"player": p, "slots": list(slots)}, {"cards": [self.text[hand[s]] for s in slots]}, 1 << p)
        )
