"""What one seat sees, as a fixed-size float32 tensor: ``observation(view, variant)``.

Built only from a seat's view (``game.seat_view(p)`` or ``game.view(p)``) and the ruleset's public
facts (its deck, phases and powers), so it holds nothing the seat may not see. Seats are numbered
*relative* to the observer, as the action ids are (``+0`` is the observer, ``+1`` the next seat...),
and slot ``s`` of a layout is at position ``s`` (what a slot-naming action id names). Every value is in
``[-1, 1]``.

Cards are encoded by *kind*: the deck's cards grouped by what the rules read from them (rank,
points, power; French: A to Q, the black kings, the red kings), one-hot over ``Observer.kinds``. The deck
counted against is the table's (``rules.deck.copies`` may give more players more decks).

The sections, in order (``Observer.of(variant, players).layout`` gives each one's offset and size; n is
the player count, S ``max_slots``, K the number of kinds, P the number of phases, W of powers):

| section | size | what |
|---|---|---|
| phase | P | one-hot of ``view.phase`` over ``Observer.phases`` |
| current_player | n | one-hot of the seat to move |
| to_act | n | the seats the round waits for |
| caller | n + 1 | who called (the last: nobody) |
| holding | n + 1 | who holds a drawn card (the last: nobody) |
| giver | n + 1 | who owes a card (opponent matching; the last: nobody) |
| power | W + 1 | the power on offer (``Observer.powers``; the last: none) |
| held | K + 1 | the observer's held card (the last: none) |
| discard_top | K + 1 | the discard's top card (the last: an empty discard) |
| discard_counts | K | per kind: its cards in the discard / its cards in the deck |
| public | 4 | stock / deck size, discard / deck size, turn / max turns, round over |
| seats | 5 n | per seat: see below |
| slots | (K + 3) S n | per seat, per slot: occupied, known, points / top value, kind one-hot |
| extra | X | the mechanics' own view fields declared ``int`` or ``bool`` (``Observer.extras``) |

Per seat (``seats``): its cards / S, the cards the observer knows there / S, their points / (S × top
value), its cards in slots S and beyond / S, whether it left the round. "Top value" is the largest
absolute card value of the deck (``Observer.max_value``); points of unknown cards count 0.

The mechanics' fields (``extra``): each field of a mechanic's ``view_model`` annotated ``int`` or ``bool``, in the
mechanics' order then the model's: a ``bool`` is 1 or 0; an ``int`` is divided by its bound (the largest absolute
value of its ``ge``, ``gt``, ``le``, ``lt``) when it declares one, else squashed as ``x / (1 + |x|)``; a field the
view leaves out (``None``) is 0. Other fields (lists, strings) are left out: encode them in a bot of your own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, get_args

import numpy as np
import numpy.typing as npt

from ..engine.round import Round
from ..engine.rulebook import rulebook
from ..engine.state import NO_CARD
from ..rulesets.loader import load_variant
from ..schema import Variant
from ..views import PlayerView, SeatView, Slot
from .encoding import default_max_slots

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["Observer", "observation", "observation_size", "observation_string", "table_view"]

View = SeatView | PlayerView

_OBSERVERS: dict[tuple[int, int, int], tuple[Variant, Observer]] = {}


class Observer:
    """The observation layout of one ruleset and player count; ``encode(view)`` fills it."""

    __slots__ = (
        "_kind_of",
        "_value_of",
        "copies",
        "deck_size",
        "extras",
        "kinds",
        "layout",
        "max_slots",
        "max_turns",
        "max_value",
        "phases",
        "players",
        "powers",
        "size",
        "variant",
    )

    def __init__(self, variant: Variant, players: int, *, max_slots: int) -> None:
        rb = rulebook(variant)
        self.variant = variant
        self.players = players
        self.max_slots = max_slots
        _, texts, ranks, values, powers = rb.deck_tables(players)  # the deck of this table
        kinds: dict[tuple[str, int, str], int] = {}
        self._kind_of: dict[str, int] = {}
        self._value_of: dict[str, int] = {}
        copies: list[int] = []
        for text, rank, value, power in zip(texts, ranks, values, powers, strict=True):
            k = kinds.setdefault((rank, value, power), len(kinds))
            if k == len(copies):
                copies.append(0)
            copies[k] += 1
            self._kind_of[text] = k
            self._value_of[text] = value
        #: The card kinds, in deck order: (rank, points, power).
        self.kinds: list[tuple[str, int, str]] = list(kinds)
        self.copies = copies
        self.deck_size = len(texts)
        self.max_value = max(1, *(abs(v) for v in values))
        self.max_turns = variant.rules.end.max_turns
        #: The ruleset's phases (``view.phase`` values), sorted.
        self.phases: list[str] = sorted(str(p) for p in rb.flow.rows)
        #: The ruleset's powers, sorted.
        self.powers: list[str] = sorted(rb.powers)
        n, k = players, len(self.kinds)
        sizes = [
            ("phase", len(self.phases)),
            ("current_player", n),
            ("to_act", n),
            ("caller", n + 1),
            ("holding", n + 1),
            ("giver", n + 1),
            ("power", len(self.powers) + 1),
            ("held", k + 1),
            ("discard_top", k + 1),
            ("discard_counts", k),
            ("public", 4),
            ("seats", 5 * n),
            ("slots", (k + 3) * max_slots * n),
        ]
        #: The mechanics' view fields encoded (section ``extra``): (mechanic, field, bound: 0 for a bool, the
        #: largest absolute bound of an int, or ``None`` for an unbounded int), in order.
        self.extras: list[tuple[str, str, float | None]] = [
            (m.name, name, bound)
            for m in rb.mechanics
            if m.view_model is not None
            for name, bound in _encoded_fields(m.view_model)
        ]
        if self.extras:
            sizes.append(("extra", len(self.extras)))
        #: Each section's name, offset and size.
        self.layout: list[tuple[str, int, int]] = []
        offset = 0
        for name, size in sizes:
            self.layout.append((name, offset, size))
            offset += size
        self.size = offset

    @classmethod
    def of(cls, variant: Variant | str | Sequence[str], players: int, *, max_slots: int | None = None) -> Observer:
        """The observer of ``variant`` for ``players`` players (made once per process)."""
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        slots = default_max_slots(v) if max_slots is None else max_slots
        key = (id(v), players, slots)
        found = _OBSERVERS.get(key)
        if found is not None and found[0] is v:
            return found[1]
        obs = cls(v, players, max_slots=slots)
        _OBSERVERS[key] = (v, obs)
        return obs

    def section(self, name: str) -> slice:
        """Where section ``name`` is in the tensor."""
        for n, offset, size in self.layout:
            if n == name:
                return slice(offset, offset + size)
        raise KeyError(name)

    def kind(self, card: str) -> int:
        k = self._kind_of.get(card)
        if k is None:
            raise ValueError(f"card {card!r} is not in the deck of {self.variant.name}")
        return k

    def encode(self, view: View) -> npt.NDArray[np.float32]:
        """The observation of ``view`` (a ``SeatView`` or a ``PlayerView``)."""
        n, me, big_s = self.players, view.player, self.max_slots
        if view.players != n:
            raise ValueError(f"this observer is for {n} players, the view for {view.players}")
        k_count = len(self.kinds)
        out = np.zeros(self.size, dtype=np.float32)
        at = {name: offset for name, offset, _ in self.layout}

        def rel(seat: int) -> int:
            return (seat - me) % n

        def seat_or_none(name: str, seat: int | None) -> None:
            out[at[name] + (n if seat is None else rel(seat))] = 1.0

        try:
            out[at["phase"] + self.phases.index(str(view.phase))] = 1.0
        except ValueError:
            raise ValueError(f"phase {view.phase!r} is none of {self.variant.name}'s phases {self.phases}") from None
        if not view.is_over:
            out[at["current_player"] + rel(view.current_player)] = 1.0
        for p in view.to_act:
            out[at["to_act"] + rel(p)] = 1.0
        seat_or_none("caller", view.caller)
        seat_or_none("holding", view.holding)
        seat_or_none("giver", view.giver)
        w = len(self.powers)
        out[at["power"] + (w if view.power is None else self.powers.index(view.power))] = 1.0
        out[at["held"] + (k_count if view.held is None else self.kind(view.held))] = 1.0
        top = view.discard[-1] if view.discard else None
        out[at["discard_top"] + (k_count if top is None else self.kind(top))] = 1.0
        counts = at["discard_counts"]
        for card in view.discard:
            k = self.kind(card)
            out[counts + k] += 1.0 / self.copies[k]
        public = at["public"]
        out[public] = min(1.0, view.stock_size / self.deck_size)
        out[public + 1] = min(1.0, len(view.discard) / self.deck_size)
        out[public + 2] = min(1.0, view.turn / self.max_turns)
        out[public + 3] = 1.0 if view.is_over else 0.0
        left = set(view.left)
        seats, slots, width = at["seats"], at["slots"], k_count + 3
        top_value = self.max_value
        for p in range(n):
            r = rel(p)
            known = total = beyond = 0
            hand: Sequence[Any] = view.hands[p]
            for s in hand:
                if s.slot >= big_s:
                    beyond += 1
                    if s.card is not None:
                        known += 1
                        total += self._value_of[s.card]
                    continue
                base = slots + (r * big_s + s.slot) * width
                out[base] = 1.0
                if s.card is not None:
                    known += 1
                    value = self._value_of.get(s.card)
                    if value is None:
                        self.kind(s.card)  # raises: not a card of this deck
                    total += value or 0
                    out[base + 1] = 1.0
                    out[base + 2] = (value or 0) / top_value
                    out[base + 3 + self.kind(s.card)] = 1.0
            row = seats + 5 * r
            out[row] = min(1.0, len(hand) / big_s)
            out[row + 1] = min(1.0, known / big_s)
            out[row + 2] = max(-1.0, min(1.0, total / (big_s * top_value)))
            out[row + 3] = min(1.0, beyond / big_s)
            out[row + 4] = 1.0 if p in left else 0.0
        if self.extras:
            base = at["extra"]
            for i, (mechanic, name, bound) in enumerate(self.extras):
                value = view.extra.get(mechanic, {}).get(name)
                if value is None:
                    continue
                x = float(value)
                if bound is None:
                    x = x / (1.0 + abs(x))
                elif bound:
                    x = max(-1.0, min(1.0, x / bound))
                out[base + i] = x
        return out


def _encoded_fields(model: type[BaseModel]) -> list[tuple[str, float | None]]:
    """The fields of a mechanic's ``view_model`` the observation encodes: ``(name, bound)`` of each ``bool`` (bound 0)
    and ``int`` (its largest absolute bound, ``None`` without one), ``int | None`` and ``bool | None`` included."""
    out: list[tuple[str, float | None]] = []
    for name, info in model.model_fields.items():
        kinds = set(get_args(info.annotation)) - {type(None)} if get_args(info.annotation) else {info.annotation}
        if kinds == {bool}:
            out.append((name, 0.0))
        elif kinds == {int}:
            bounds = [
                abs(float(getattr(m, attr)))
                for m in info.metadata
                for attr in ("ge", "gt", "le", "lt")
                if getattr(m, attr, None) is not None
            ]
            out.append((name, max(bounds) if bounds and max(bounds) > 0 else None))
    return out


def observation(
    view: View, variant: Variant | str | Sequence[str], *, max_slots: int | None = None
) -> npt.NDArray[np.float32]:
    """The observation tensor of ``view`` (``numpy.float32``, ``observation_size(variant, players)``
    long; the layout is the module's table). ``variant`` is the game's ruleset (``game.variant``)."""
    return Observer.of(variant, view.players, max_slots=max_slots).encode(view)


def observation_size(variant: Variant | str | Sequence[str], players: int, *, max_slots: int | None = None) -> int:
    """The length of ``observation(view, variant)`` for ``players`` players."""
    return Observer.of(variant, players, max_slots=max_slots).size


def observation_string(view: View) -> str:
    """What ``view``'s seat sees, as text: a line of public facts, then one line per layout, each card as
    ``slot:card`` (``??``: a card the seat does not know; an emptied slot is left out). Seats are absolute
    here, not relative."""
    me = view.player

    def who(p: int | None) -> str:
        return "-" if p is None else str(p)

    head = (
        f"seat {me} of {view.players} | phase {view.phase} | turn {view.turn} | to move {view.current_player} "
        f"| to act {','.join(map(str, view.to_act)) or '-'} | caller {who(view.caller)} "
        f"| holding {who(view.holding)} | giver {who(view.giver)} | power {view.power or '-'} "
        f"| held {view.held or '-'} | stock {view.stock_size} | discard {' '.join(view.discard) or '-'}"
        + (" | over" if view.is_over else "")
    )
    lines = [head]
    hands: Sequence[Sequence[Any]] = view.hands
    for p, hand in enumerate(hands):
        cards = " ".join(f"{s.slot}:{s.card or '??'}" for s in hand) or "(no card)"
        lines.append(f"seat {p}{' (me)' if p == me else ''}: {cards}")
    return "\n".join(lines)


def table_view(game: Round, seat: int) -> SeatView:
    """``seat``'s view with every card in it: what the seat would see if it knew every card on the table (the
    held card and the discard included; the stock's order is not a view's). For a global state (PettingZoo's
    ``state()``, a centralised critic), never for a seat's decision."""
    view = game.seat_view(seat)
    text, up = game.text, game.face_up
    view.hands = [
        [Slot(s, text[c], bool(up >> c & 1)) for s, c in enumerate(hand) if c != NO_CARD] for hand in game.hands
    ]
    if game.held != NO_CARD:
        view.held = text[game.held]
    return view
