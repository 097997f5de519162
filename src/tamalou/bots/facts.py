"""What the ruleset tells a bot: ``_Facts``, the public facts of one ruleset (card values, what matching
compares, the deck's values, the threshold, the mechanics that give hints), worked out once per ruleset and
process and shared by every bot of that ruleset (``_facts``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from ..cards import parse_card
from ..engine.mechanic import Mechanic
from ..engine.rulebook import Rulebook

T = TypeVar("T")


class _Lazy(dict[str, T], Generic[T]):
    """A table by card text, filled from the deck, that works out a card it does not hold on first use."""

    def __init__(self, work_out: Callable[[str], T]) -> None:
        super().__init__()
        self._work_out = work_out

    def __missing__(self, card: str) -> T:
        fact = self[card] = self._work_out(card)
        return fact


class _Facts:
    """The public facts of one ruleset a bot decides with, worked out once per ruleset and process (shared
    by every bot of that ruleset): card values, what matching compares, the deck's values, the threshold."""

    __slots__ = (
        "can_match",
        "deck_size",
        "deck_total",
        "hinting",
        "kinds",
        "opponents",
        "rb",
        "same_pairs",
        "threshold",
        "value_counts",
        "values",
    )

    def __init__(self, rb: Rulebook) -> None:
        self.rb = rb
        self.values: _Lazy[int] = _Lazy(lambda card: rb.value(parse_card(card)))
        for c in rb.deck:
            self.values[str(c)] = rb.value(c)
        deck_values = [self.values[str(c)] for c in rb.deck]
        self.deck_total = sum(deck_values)
        self.deck_size = len(deck_values)
        self.value_counts: dict[int, int] = {}
        for v in deck_values:
            self.value_counts[v] = self.value_counts.get(v, 0) + 1
        #: What matching compares, per card (its rank, or its value); ``None`` when a plugin decides
        #: (``tamalou_same_kind``): pairs are then asked of the rulebook once each.
        self.kinds: _Lazy[object] | None = None
        if rb.same_kind_hook is None:
            by_value = rb.variant.rules.matching.by == "value"
            values = self.values
            self.kinds = _Lazy(lambda card: values[card] if by_value else parse_card(card).rank)
        self.same_pairs: dict[tuple[str, str], bool] = {}
        self.threshold = rb.threshold
        self.can_match = rb.variant.rules.matching.enabled
        self.opponents = self.can_match and rb.variant.rules.matching.opponents
        #: The mechanics that give hints for their moves (``Mechanic.hint``), in their order.
        self.hinting: tuple[Mechanic, ...] = tuple(m for m in rb.mechanics if rb.overrides(m, "hint"))

    def same_kind(self, thrown: str, top: str) -> bool:
        """Whether ``thrown`` may be matched on ``top`` (the rulebook's answer)."""
        kinds = self.kinds
        if kinds is not None:
            return kinds[thrown] == kinds[top]
        same = self.same_pairs.get((thrown, top))
        if same is None:
            same = self.same_pairs[thrown, top] = self.rb.same_kind(parse_card(thrown), parse_card(top))
        return same


_FACTS: dict[int, _Facts] = {}


def _facts(rb: Rulebook) -> _Facts:
    facts = _FACTS.get(id(rb))
    if facts is None or facts.rb is not rb:
        if len(_FACTS) > 64:
            _FACTS.clear()
        facts = _FACTS[id(rb)] = _Facts(rb)
    return facts
