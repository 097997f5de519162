"""The rulebook: a variant's hooks asked once and turned into plain tables for the engine.

Card values, powers and the call threshold are asked of the hooks once per variant and card
(they must be pure); hooks that depend on the state of a game (``tamalou_call_allowed``) are
called only when a plugin other than the built-in defaults implements them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

import pluggy

from .cards import Card, build_deck
from .errors import VariantError
from .hookspecs import Tally
from .plugins import BUILTIN_PLUGINS, rules_manager
from .schema import PowerName, Variant

if TYPE_CHECKING:
    from .engine import Game

_POWERS = frozenset(get_args(PowerName))


def _overridden(pm: pluggy.PluginManager, hook: Any) -> bool:
    """Whether any plugin besides the built-ins implements ``hook``."""
    return any(impl.plugin_name not in BUILTIN_PLUGINS for impl in hook.get_hookimpls())


class Rulebook:
    """Everything the engine needs to referee one variant, asked of its plugins once."""

    __slots__ = (
        "_power",
        "_same_kind_hook",
        "_tables",
        "_value",
        "absent_turn_seconds",
        "absent_turns_to_leave",
        "call_allowed_hook",
        "call_at_start",
        "caller_may_match",
        "clocked",
        "countdown_seconds",
        "deck",
        "discard_forbidden",
        "empty_layout",
        "from_discard",
        "landing",
        "late_miss",
        "lockouts",
        "match_by_rank",
        "match_enabled",
        "max_cards",
        "max_turns",
        "must_replace",
        "opponents",
        "passed_on",
        "peek_seconds",
        "penalty_cards",
        "per_turn",
        "pm",
        "powers_optional",
        "protect_caller",
        "reshuffle",
        "swap_show_seconds",
        "threshold",
        "turn_seconds",
        "variant",
        "verified",
        "while_playing",
        "wrong_penalty_cards",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.pm = rules_manager(variant)
        r = variant.rules
        self.deck: list[Card] = build_deck(r.deck.ranks, r.deck.suits, r.deck.jokers, r.deck.copies)
        self._value: dict[Card, int] = {}
        self._power: dict[Card, str] = {}
        threshold = self.pm.hook.tamalou_call_threshold(variant=variant)
        if not isinstance(threshold, int):
            raise VariantError(f"tamalou_call_threshold returned {threshold!r}, expected an integer")
        self.threshold: int = threshold
        hook = self.pm.hook
        self.call_allowed_hook = hook.tamalou_call_allowed if _overridden(self.pm, hook.tamalou_call_allowed) else None
        self._same_kind_hook = hook.tamalou_same_kind if _overridden(self.pm, hook.tamalou_same_kind) else None
        for card in self.deck:
            self.value(card)
            self.power(card)
        self._tables: tuple[list[Card], list[str], list[str], list[int]] | None = None
        # Plain attributes for the engine's hot paths (no pydantic attribute chains per step).
        m, d, c = r.matching, r.draw, r.call
        self.match_enabled = m.enabled
        self.max_cards = m.max_cards
        self.match_by_rank = m.by == "rank" and self._same_kind_hook is None
        self.opponents = m.opponents
        self.passed_on = r.powers.passed_on
        self.late_miss = m.late == "miss"
        self.caller_may_match = m.caller_may_match
        self.penalty_cards = m.penalty_cards
        self.from_discard = d.from_discard
        self.discard_forbidden = frozenset(d.discard_forbidden)
        self.must_replace = d.discard_must_replace
        self.per_turn = d.per_turn
        self.reshuffle = d.stock_empty == "reshuffle"
        self.landing = r.powers.trigger == "landing"
        self.powers_optional = r.powers.optional
        self.call_at_start = c.when == "start_of_turn"
        self.verified = c.verified
        self.wrong_penalty_cards = c.wrong_penalty_cards
        self.protect_caller = c.protect_caller
        self.empty_layout = c.empty_layout
        self.max_turns = r.end.max_turns
        t = r.timing
        self.turn_seconds = t.turn_seconds
        self.absent_turn_seconds = t.absent_turn_seconds
        self.absent_turns_to_leave = t.absent_turns_to_leave
        self.peek_seconds = t.peek_seconds
        self.swap_show_seconds = t.swap_show_seconds
        self.countdown_seconds = t.countdown_seconds
        self.lockouts = t.lockouts
        self.while_playing = m.while_playing
        # Whether matching needs the clock's checks (time-dependent blocks, or the own-turn block).
        self.clocked = t.turn_seconds > 0 or not m.while_playing

    def deck_tables(self) -> tuple[list[Card], list[str], list[str], list[int]]:
        """Cards, texts, ranks and values of the deck, by card id (shared: never mutate them)."""
        if self._tables is None:
            deck = self.deck
            self._tables = (
                deck,
                [str(c) for c in deck],
                [c.rank for c in deck],
                [self.value(c) for c in deck],
            )
        return self._tables

    def value(self, card: Card) -> int:
        v = self._value.get(card)
        if v is None:
            v = self.pm.hook.tamalou_card_value(variant=self.variant, card=card)
            if not isinstance(v, int):
                raise VariantError(f"no value for card {card} (tamalou_card_value returned {v!r})")
            self._value[card] = v
        return v

    def power(self, card: Card) -> str:
        p = self._power.get(card)
        if p is None:
            p = self.pm.hook.tamalou_card_power(variant=self.variant, card=card) or "none"
            if p not in _POWERS:
                raise VariantError(f"unknown power {p!r} for card {card} (powers: {', '.join(sorted(_POWERS))})")
            self._power[card] = p
        return p

    def same_kind(self, thrown: Card, top: Card) -> bool:
        """Whether ``thrown`` may be matched on ``top``."""
        if self._same_kind_hook is not None:
            answer = self._same_kind_hook(variant=self.variant, thrown=thrown, top=top)
            if answer is not None:
                return bool(answer)
        if self.variant.rules.matching.by == "value":
            return self.value(thrown) == self.value(top)
        return thrown.rank == top.rank

    def call_allowed(self, game: Game, player: int) -> bool:
        if self.call_allowed_hook is None:
            return True
        answer = self.call_allowed_hook(game=game, player=player)
        return True if answer is None else bool(answer)

    def rank(self, tally: Tally) -> list[list[int]]:
        return self.pm.hook.tamalou_rank(variant=self.variant, tally=tally)  # type: ignore[no-any-return]

    def winners(self, tally: Tally, ranking: list[list[int]]) -> list[int]:
        return self.pm.hook.tamalou_winners(  # type: ignore[no-any-return]
            variant=self.variant, tally=tally, ranking=ranking
        )

    def round_scores(self, tally: Tally, winners: list[int]) -> list[int]:
        return self.pm.hook.tamalou_round_scores(  # type: ignore[no-any-return]
            variant=self.variant, tally=tally, winners=winners
        )


def rulebook(variant: Variant) -> Rulebook:
    """The rulebook of ``variant``, built once and kept on the variant."""
    rb = variant._rulebook
    if rb is None:
        rb = Rulebook(variant)
        variant._rulebook = rb
    return rb  # type: ignore[return-value]
