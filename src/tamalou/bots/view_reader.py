"""What the cautious and the greedy bot share: ``ViewReader`` (the ruleset's public facts, read in
``setup``, and what a seat's view tells of the cards), ``ViewWorth`` (the cards as they count them, handed
to a power's hints) and the cards a view shows at a slot (``card_at``, ``_target_card``)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..actions import Action, Give, Power
from ..engine.rulebook import Rulebook, rulebook
from ..powers import best_place, hinted_move, placed_worth
from ..schema import Variant
from ..views import SeatView
from .facts import Facts, facts_of

if TYPE_CHECKING:
    from typing import Self


class ViewReader:
    """What the cautious and the greedy bot share: the ruleset's public facts (read in ``setup``, the
    French rules when it was never called) and what a view tells of the cards."""

    def __init__(self, seed: int = 0, variant: Variant | str | None = None, *, call_at: int | None = None) -> None:
        self.rng = random.Random(seed)
        #: Its calling level, a setting: it calls when it counts its total at or under it. ``None``: the ruleset's
        #: call threshold (``tamalou_call_threshold``, ``rules.call.threshold``), the total that wins a call where
        #: a rule reads it and the level a house rule gives its bots where none does (``tamalou show`` says which).
        self.call_at = call_at
        self.player: int | None = None
        self._facts: Facts | None = None
        if variant is not None:
            self.setup(variant)

    def setup(self, variant: Variant | str, player: int | None = None) -> None:
        """Learn the ruleset (card values, powers, threshold); ``play_game`` calls it."""
        from ..rulesets.loader import load_variant

        v = variant if isinstance(variant, Variant) else load_variant(variant)
        self._facts = facts_of(rulebook(v))
        self.player = player

    @property
    def call_level(self) -> int:
        """The total at or under which it calls: ``call_at``, else the ruleset's call threshold."""
        return self.facts.threshold if self.call_at is None else self.call_at

    @property
    def facts(self) -> Facts:
        if self._facts is None:
            self.setup("french")
        assert self._facts is not None
        return self._facts

    @property
    def rb(self) -> Rulebook:
        return self.facts.rb

    def value(self, card: str) -> int:
        """The points of ``card`` (its text, as views show it) in this ruleset."""
        return self.facts.values[card]

    def estimate(self, view: SeatView) -> float:
        """The expected value of a card this player has not seen: the mean of the unseen cards (the deck
        less the discard, the cards the view shows and the card held)."""
        facts = self.facts
        values = facts.values
        discard = view.discard
        deck = facts.deck(view.players)  # (the deck of this table: rules.deck.copies may depend on its size)
        total = deck.total - sum(map(values.__getitem__, discard))
        n = deck.size - len(discard)
        for hand in view.hands:
            for s in hand:
                if s.card is not None:
                    total -= values[s.card]
                    n -= 1
        if view.held is not None:
            total -= values[view.held]
            n -= 1
        if n <= 0:
            return deck.total / max(1, deck.size)
        return total / n

    def _worth(self, card: str | None, est: float) -> float:
        return est if card is None else float(self.facts.values[card])

    def _same_kind(self, a: str, b: str) -> bool:
        return self.facts.same_kind(a, b)

    def expected_total(self, view: SeatView, player: int, est: float) -> float:
        """What ``player``'s layout is worth to this seat: known cards at their value, unknown ones at ``est``."""
        values = self.facts.values
        return sum(est if s.card is None else values[s.card] for s in view.hands[player])

    def card_worth(self, view: SeatView) -> ViewWorth:
        """The cards as this seat counts them, for a power's hints (``tamalou.powers.CardWorth``)."""
        return ViewWorth(self, view)

    def placed(self, view: SeatView, slot: int, card: str | None, worth: ViewWorth) -> float:
        """What ``card`` (``None``: unseen) adds lying in the seat's ``slot``, by the ruleset's mechanics'
        ``place_worth`` (``tamalou.powers.placed_worth``)."""
        return placed_worth(self.facts.placing, view, slot, card, worth)

    def best_place(self, view: SeatView, card: str | None, slots: Iterable[int]) -> tuple[float, int] | None:
        """Where among the seat's ``slots`` keeping ``card`` gains the most (``tamalou.powers.best_place``)."""
        return best_place(self.facts.placing, view, card, slots, self.card_worth(view))

    def hinted(self, view: SeatView, mine: list[Action]) -> Action | None:
        """The move the ruleset's mechanics hint at among ``mine`` (``Mechanic.hint``, ``hinted_move``), or
        ``None`` when none of them has an opinion: how both bots play a move they have no rule of their own for."""
        hinting = self.facts.hinting
        if not hinting:
            return None
        return hinted_move(hinting, view, mine, self.card_worth(view))

    def _give(self, view: SeatView, mine: list[Action], est: float) -> Action:
        """A card to give (opponent matching): the own card worth the most."""
        gives = [a for a in mine if isinstance(a, Give)]
        if not gives:
            return mine[0]
        return max(gives, key=lambda a: (self._worth(card_at(view, view.player, a.slot), est), -a.slot))

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A copy that decides as this one would (same random state, same memory); the ruleset's
        tables are shared, not copied."""
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other


class ViewWorth:
    """The cards as the cautious and the greedy bot count them (a ``tamalou.powers.CardWorth``): a card at its
    value, a card the seat has not seen at the mean of the cards it has not seen (``ViewReader.estimate``)."""

    __slots__ = ("_reader", "_unseen", "_view")

    def __init__(self, reader: ViewReader, view: SeatView) -> None:
        self._reader = reader
        self._view = view
        self._unseen = reader.estimate(view)

    def value(self, card: str) -> float:
        return float(self._reader.value(card))

    def unseen(self) -> float:
        return self._unseen

    def at(self, player: int, slot: int) -> float:
        return self._reader._worth(card_at(self._view, player, slot), self._unseen)

    def layout(self, player: int) -> float:
        return self._reader.expected_total(self._view, player, self._unseen)


def card_at(view: SeatView, player: int, slot: int) -> str | None:
    for s in view.hands[player]:
        if s.slot == slot:
            return s.card
    return None


def _target_card(view: SeatView, a: Power) -> str | None:
    if a.target is None or a.target_slot is None:
        return None
    return card_at(view, a.target, a.target_slot)
