"""A round rebuilt from what one seat knows: ``SeatDeal`` (the engine's constructor for search) and
``round_from_seat``.

A search that plays a game forward from one seat's information (``tamalou.bots.ismcts``, or a third party's)
needs full rounds consistent with that seat's view: the cards it sees where it sees them, every other card dealt
at random into the places it cannot see, and each mechanic's state as the seat can know it
(``Mechanic.resample``, the search contract). The engine builds them here, so that no search writes a field of
the round: ``SeatDeal(info, variant, rng)`` rebuilds the round once (its ``template``, checked as a snapshot)
and ``deal(rng)`` gives a copy with the unknown cards dealt at random; ``round_from_seat(info, variant, rng)``
does both for one round. A view that does not fit the variant's deck, or a rebuilt round that is not a
consistent one, raises ``Unbuildable``.
"""

from __future__ import annotations

import random

from ..actions import Discard, Pass
from ..errors import SnapshotError, Unbuildable
from ..mechanic import overrides
from ..rng import Rng
from ..schema import Variant
from ..views import SeatInfo
from .deal import set_universe
from .round import Round
from .rulebook import rulebook
from .state import DRAW, HOLD, NO_CARD, PEEK, Phase

__all__ = ["SeatDeal", "round_from_seat"]

_BUILTIN_PHASES = frozenset(p.value for p in Phase)


class SeatDeal:
    """The rounds consistent with one seat's information (``info``: its ``SeatView`` and legal actions):
    ``template``, rebuilt once and checked as a snapshot, and ``deal(rng)``, a copy of it with the cards the seat
    does not know dealt at random into the places it cannot see. ``unknown`` lists those cards' ids and
    ``places`` the places (``(owner, slot)``; ``(-1, i)`` the stock's ``i``-th card; ``(-2, 0)`` a held card),
    with who is taken to know each (``place_knowers``: a seat that peeked at its own card knows it)."""

    __slots__ = ("place_knowers", "places", "player", "template", "unknown")

    def __init__(self, info: SeatInfo, variant: Variant, rng: random.Random) -> None:
        view, legal = info.view, info.legal
        rb = rulebook(variant)
        me = view.player
        players = view.players
        g = Round(None)
        g.init_runtime(variant, players)
        set_universe(g, rb.deck_for(players))  # the deck of this table
        pool: dict[str, list[int]] = {}
        for card_id, text in enumerate(g.text):
            pool.setdefault(text, []).append(card_id)

        def take(text: str) -> int:
            ids = pool.get(text)
            if not ids:
                raise Unbuildable(f"the view shows {text!r} more often than the deck holds it")
            return ids.pop()

        everyone = (1 << players) - 1
        n = len(g.text)
        knowers = [0] * n
        #: Each unknown place ((owner, slot); (-1, i) the stock's i-th card; (-2, 0) a held card) and who
        #: is taken to know the card there.
        places: list[tuple[int, int]] = []
        place_knowers: list[int] = []
        discard = [take(t) for t in view.discard]
        for c in discard:
            knowers[c] = everyone
        peek = variant.rules.peek
        peeked_slots = set(peek.slots) if peek.mode == "fixed" else set(range(peek.count))
        hands: list[list[int]] = []
        face_up = 0  # the cards the view shows face up: known to every seat, and face up in the rebuilt game too
        for p, hand in enumerate(view.hands):
            row = [NO_CARD] * (max((s.slot for s in hand), default=-1) + 1)
            for s in hand:
                if s.card is not None:
                    c = row[s.slot] = take(s.card)
                    if s.face_up:
                        knowers[c] = everyone
                        face_up |= 1 << c
                    else:
                        knowers[c] |= 1 << me
                else:
                    places.append((p, s.slot))
                    place_knowers.append(1 << p if p != me and s.slot in peeked_slots else 0)
            hands.append(row)
        held = NO_CARD
        holder = -1 if view.holding is None else view.holding
        if holder >= 0:
            if view.held is not None:
                held = take(view.held)
                knowers[held] |= 1 << me
            else:
                places.append((-2, 0))
                place_knowers.append(1 << holder)
        for i in range(view.stock_size):
            places.append((-1, i))
            place_knowers.append(0)
        unknown = [c for ids in pool.values() for c in ids]
        if len(unknown) != len(places):
            raise Unbuildable(f"{len(places)} places without a known card for {len(unknown)} unknown cards")
        unknown.sort()
        phase: str = Phase(view.phase) if view.phase in _BUILTIN_PHASES else view.phase
        mine = legal if view.current_player == me else ()
        g.seed = rng.getrandbits(63)
        g.rng = Rng(g.seed)
        # Turns go round from the first player (``turn`` counts them all): the seat that played the first turn.
        g.first_player = (view.current_player - view.turn) % view.players
        g.first_given = False
        g.starter = None
        g.hands = hands
        g.stock = [NO_CARD] * view.stock_size
        g.discard = discard
        g.knowers = knowers
        g.face_up = face_up
        g.phase = phase
        g.current_player = view.current_player
        g.turn = view.turn
        g.caller = view.caller
        g.last_lap = view.last_lap
        g.last_lap_reason = view.last_lap_reason or ""
        g.held = held
        g.holder = holder
        # A card taken from the discard that must replace one: throwing it is not listed.
        from_discard = phase == HOLD and holder == me and rb.must_replace and not any(type(a) is Discard for a in mine)
        g.held_from = ("discard" if from_discard else "stock") if holder >= 0 else ""
        second = phase == DRAW and any(type(a) is Pass for a in mine)  # a second draw may be declined
        g.draws = 0 if phase in (DRAW, PEEK) and not second else 1
        g.stock_only = False
        g.reason = ""
        g.left = sum(1 << p for p in view.left)
        call = variant.rules.call
        g.locked = g.sealed = 0
        if view.caller is not None and call.protect_caller:
            g.locked = 1 << view.caller
            if call.protect_from == "everything":
                g.sealed = 1 << view.caller
        g.now = float(view.now)
        g.actions = []
        g.deal_spec = None
        g._result = None
        # Places first filled in order, so that the template is a whole game; ``sample`` deals them again.
        self._fill(g, places, place_knowers, unknown)
        # Each mechanic's state, from what the seat knows: the search contract (``Mechanic.resample``), the
        # same for a built-in mechanic and a plugin's.
        g.ms = [m.new_state(g) for m in rb.mechanics]
        for m in rb.mechanics:
            if overrides(m, "resample"):
                m.resample(g, info)
        try:
            self.template = Round.from_json(g.to_json(), variant, trusted=True)
        except SnapshotError as exc:
            raise Unbuildable(str(exc)) from None
        self.places = places
        self.place_knowers = place_knowers
        self.unknown = unknown
        self.player = me

    @staticmethod
    def _fill(g: Round, places: list[tuple[int, int]], place_knowers: list[int], ids: list[int]) -> None:
        knowers, hands, stock = g.knowers, g.hands, g.stock
        for (owner, slot), who, c in zip(places, place_knowers, ids, strict=True):
            if owner >= 0:
                hands[owner][slot] = c
            elif owner == -1:
                stock[slot] = c
            else:
                g.held = c
            knowers[c] = who

    def deal(self, rng: random.Random) -> Round:
        """A copy of the template with the unknown cards dealt at random into the unknown places."""
        g = self.template.copy()
        ids = self.unknown[:]
        rng.shuffle(ids)
        self._fill(g, self.places, self.place_knowers, ids)
        return g


def round_from_seat(info: SeatInfo, variant: Variant, rng: random.Random) -> Round:
    """One full round consistent with a seat's information, the cards it does not know dealt at random (``rng``
    draws the round's own seed too); ``Unbuildable`` when the view does not fit ``variant``."""
    return SeatDeal(info, variant, rng).deal(rng)
