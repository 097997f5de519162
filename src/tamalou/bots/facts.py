"""What the ruleset tells a bot: ``Facts``, the public facts of one ruleset (card values, what matching
compares, the deck's values at each table, the threshold, the mechanics that give hints), worked out once per
ruleset and process and shared by every bot of that ruleset (``facts_of``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

from ..cards import parse_card
from ..engine.rulebook import Rulebook
from ..mechanic import Mechanic, overrides

T = TypeVar("T")


class _Lazy(dict[str, T], Generic[T]):
    """A table by card text, filled from the deck, that works out a card it does not hold on first use."""

    def __init__(self, work_out: Callable[[str], T]) -> None:
        super().__init__()
        self._work_out = work_out

    def __missing__(self, card: str) -> T:
        fact = self[card] = self._work_out(card)
        return fact


class DeckFacts(NamedTuple):
    """The deck of one table: what its cards add up to, how many they are, how many have each value."""

    total: int
    size: int
    value_counts: dict[int, int]


class Facts:
    """The public facts of one ruleset a bot decides with, worked out once per ruleset and process (shared
    by every bot of that ruleset): card values, what matching compares, the deck's values, the threshold."""

    __slots__ = (
        "can_match",
        "decks",
        "hinting",
        "kinds",
        "opponents",
        "placing",
        "rb",
        "same_pairs",
        "threshold",
        "values",
    )

    def __init__(self, rb: Rulebook) -> None:
        self.rb = rb
        self.values: _Lazy[int] = _Lazy(lambda card: rb.value(parse_card(card)))
        for c in rb.one_deck:
            self.values[str(c)] = rb.value(c)
        one = [self.values[str(c)] for c in rb.one_deck]
        counts: dict[int, int] = {}
        for v in one:
            counts[v] = counts.get(v, 0) + 1
        #: The deck of each table the ruleset allows, by player count (``rules.deck.copies`` decks of one).
        self.decks: dict[int, DeckFacts] = {}
        r = rb.variant.rules
        for players in range(r.players.min, r.players.max + 1):
            k = r.deck.copies_at(players)
            self.decks[players] = DeckFacts(sum(one) * k, len(one) * k, {v: n * k for v, n in counts.items()})
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
        self.hinting: tuple[Mechanic, ...] = tuple(m for m in rb.mechanics if overrides(m, "hint"))
        #: The mechanics that say what a card adds where it would lie (``Mechanic.place_worth``), in their order.
        self.placing: tuple[Mechanic, ...] = tuple(m for m in rb.mechanics if overrides(m, "place_worth"))

    def deck(self, players: int) -> DeckFacts:
        """The deck of a table of ``players``: the nearest count the ruleset allows for another (a bot never
        set up for the ruleset it is shown, which counts with the French deck)."""
        found = self.decks.get(players)
        if found is None:
            counts = list(self.decks)
            found = self.decks[min(max(players, counts[0]), counts[-1])]
        return found

    def same_kind(self, thrown: str, top: str) -> bool:
        """Whether ``thrown`` may be matched on ``top`` (the rulebook's answer)."""
        kinds = self.kinds
        if kinds is not None:
            return kinds[thrown] == kinds[top]
        same = self.same_pairs.get((thrown, top))
        if same is None:
            same = self.same_pairs[thrown, top] = self.rb.same_kind(parse_card(thrown), parse_card(top))
        return same


_FACTS: dict[int, Facts] = {}


def facts_of(rb: Rulebook) -> Facts:
    facts = _FACTS.get(id(rb))
    if facts is None or facts.rb is not rb:
        if len(_FACTS) > 64:
            _FACTS.clear()
        facts = _FACTS[id(rb)] = Facts(rb)
    return facts
