"""What the round reads of its variant's rulebook: ``RulebookFace``, and ``DeckTables``.

The rulebook (``tamalou.engine.rulebook.Rulebook``) asks the plugins once per variant and keeps their answers;
the round's state holds it as ``rb`` and its code reads the answers below, each a plain attribute or a call. The
rulebook imports the core (it builds the phase table from the flow's own rows), so the round's state names it
through this Protocol, declared beneath both: the engine's modules then import one way only. mypy checks that
``Rulebook`` is one (``engine/rulebook.py``). (The rulebook is not compiled: the compiled core reads it through
Python's lookup either way.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..mechanic import MechanicRules

if TYPE_CHECKING:
    from ..cards import Card
    from ..hookspecs import Tally
    from ..mechanic import Mechanic
    from ..powers import CardPower

#: A deck's cards, texts, ranks, values and power names, by card id (``Rulebook.deck_tables``).
DeckTables = tuple[list["Card"], list[str], list[str], list[int], list[str]]


class RulebookFace(MechanicRules, Protocol):
    """The answers of a variant's plugins, as the round reads them (with what a mechanic's ``bind`` is handed:
    the variant, the mechanics, the hooks)."""

    @property
    def mechanics(self) -> list[Mechanic]:
        """The mechanics that play a part, in their order."""

    @property
    def powers(self) -> dict[str, CardPower]:
        """Every power of the variant by name."""

    @property
    def threshold(self) -> int:
        """The call threshold."""

    @property
    def call_allowed_hook(self) -> object | None:
        """``None`` when no plugin implements ``tamalou_call_allowed``."""

    @property
    def from_discard(self) -> bool:
        """Whether a turn may draw the discard's top card (``rules.draw.from_discard``)."""

    @property
    def discard_forbidden(self) -> frozenset[str]:
        """The ranks that may not be taken from the discard."""

    @property
    def must_replace(self) -> bool:
        """Whether a card taken from the discard must replace one."""

    @property
    def placed_face_up(self) -> bool:
        """Whether a card placed in a layout lies face up (``rules.draw.placed``)."""

    @property
    def public_peek(self) -> bool:
        """Whether the opening peek turns the cards face up for everyone."""

    @property
    def reshuffle(self) -> bool:
        """Whether an empty stock is made again from the discard."""

    @property
    def max_turns(self) -> int:
        """The turn limit of a round."""

    @property
    def guarded(self) -> bool:
        """Whether third-party code plays a part (``apply`` then guards every action)."""

    @property
    def presence(self) -> tuple[tuple[Callable[..., object], Callable[..., None]], ...]:
        """The ``before_action`` and ``undo`` of the mechanics that watch every action."""

    def deck_for(self, players: int) -> list[Card]:
        """The deck of a table of ``players``."""

    def deck_tables(self, players: int) -> DeckTables:
        """The cards, texts, ranks, values and power names of that deck, by card id."""

    def value(self, card: Card) -> int:
        """A card's points (the value hooks applied)."""

    def power_name(self, card: Card) -> str:
        """The name of a card's power (``"none"`` for none)."""

    def same_kind(self, thrown: Card, top: Card) -> bool:
        """Whether ``thrown`` may be matched on ``top``."""

    def call_allowed(self, game: Any, player: int) -> bool:
        """Whether ``player`` may call now."""

    def judge(self, tally: Tally) -> tuple[list[list[int]], list[int], list[int]]:
        """The ranking, winners and scores of a finished round, as the hooks judge them."""
