"""The sum-matching move: its action type (``SumMatch``) and the mechanic that lists and applies it.

The rule (a house rule from the comments under the French rules): "il y a un 10 qui tombe dans la
défausse. J'ai un 6 et 4 dans mon jeu => Je peux poser les deux cartes".

- **When**: exactly when the built-in matching would let the player throw one of their own cards (the
  same window: the card a turn threw, until somebody else took it; out of turn too; the caller and
  the clock's lockouts as the variant says; the closing window of a called round; the window phase
  that opens after a power with ``rules.matching.window = "after_power"``), provided the player may
  still throw two cards on this thrown card (``rules.matching.max_cards``: a sum counts as two cards
  thrown) and has two cards. This mechanic asks the matching mechanic's own listing, so whatever opens
  or closes matching opens or closes sum matching.
- **What**: two of one's own occupied slots, in the order they go down (the second ends on top of the
  discard). Every pair is listed, right or wrong: listing only right sums would tell the player their
  face-down cards.
- **Right** (the two values add up to the thrown card's value): both cards go face up onto the discard;
  the player has taken the thrown card, as a right match does (with ``rules.matching.race = false``
  nobody takes it: every right throw counts).
- **Wrong**: a miss. Both cards are shown to everyone and go back to their slots; the player takes the
  variant's matching penalty (``rules.matching.penalty_cards``) once, for the wrong sum, never past
  ``rules.matching.penalty_cap`` cards in their layout when the ruleset sets one.

What this uses of the built-in matching is its declared contract (``tamalou.mechanics.matching``,
``MATCHING_CONTRACT`` 1; docs/write-a-mechanic.md): ``Matching.of(rulebook)`` finds it; ``refusal`` says why a
throw of one's own cards would be refused now (the phase and the window, the caller, ``max_cards``, the
clock's lockouts), ``card_on_offer`` and ``taken_by`` what may be matched and who took it, ``window_phases``
where matching lists its own actions; ``record_throw`` counts a throw (a right one takes the card, the clock
hears of a miss), ``penalise`` deals a miss's penalty within ``penalty_cap``, and ``closing_moves_on`` moves a
window phase on after a throw. No state slot of matching is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, Any, ClassVar

import tamalou
from pydantic import ConfigDict
from tamalou import Action, Event, IllegalAction
from tamalou.mechanics.match_contract import MATCHING_CONTRACT
from tamalou.mechanics.matching import Matching

if TYPE_CHECKING:
    from tamalou import RoundTable
    from tamalou.mechanic import MechanicRules

#: The version of the matching contract this mechanic is written against.
CONTRACT = 1


@dataclass(frozen=True, slots=True)
class SumMatch(Action):
    """Throw two of one's own cards together on the thrown card, claiming their values add up to its
    value. ``slots``: the two slots, in the order the cards go down. JSON:
    ``{"type": "sum_match", "player": 1, "slots": [0, 3]}``."""

    player: int
    slots: tuple[int, ...]
    at: float | None = None
    type: ClassVar[str] = "sum_match"
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid", strict=False)


_ACTIONS: dict[tuple[int, int, int], SumMatch] = {}


def sum_match(p: int, first: int, second: int) -> SumMatch:
    """The action ``SumMatch(p, (first, second))``, made once per process (actions are values)."""
    key = (p, first, second)
    a = _ACTIONS.get(key)
    if a is None:
        a = _ACTIONS[key] = SumMatch(p, (first, second))
    return a


class SumMatching(tamalou.Mechanic):
    """Lists ``sum_match`` wherever matching would take a throw of two of one's own cards, and applies it."""

    name = "sum_matching"
    order = 15  # after matching (10): a thrown card opens matching's window first
    actions = (SumMatch,)

    def __init__(self, variant: tamalou.Variant) -> None:
        super().__init__(variant)
        self.penalty = variant.rules.matching.penalty_cards
        self.windows = Matching.window_phases_of(variant)  # where matching lists its own actions
        self.matching: Matching | None = None  # found in bind

    @classmethod
    def wanted(cls, variant: tamalou.Variant) -> bool:
        return variant.rules.matching.enabled

    def bind(self, rb: MechanicRules) -> None:
        if MATCHING_CONTRACT != CONTRACT:
            raise tamalou.VariantError(
                f"sum matching is written for the matching contract {CONTRACT}; this tamalou has {MATCHING_CONTRACT}",
                key="plugins",
            )
        self.matching = Matching.of(rb)
        if self.matching is None:
            raise tamalou.VariantError("sum matching needs matching (rules.matching.enabled)", key="plugins")

    # ---------------------------------------------------------------- phases

    def anytime(self) -> tuple[Any, dict[type, Any]]:
        # Listed in every open phase (as matching is); accepted in any phase, checked in ``refusal``.
        return self.list_sums, {SumMatch: self.do_sum_match}

    def phases(self) -> dict[str, tamalou.PhaseSpec]:
        # A window phase is not open: it lists its own actions (matching's, and ours added here).
        return {phase: tamalou.PhaseSpec(self.list_sums) for phase in self.windows}

    # ---------------------------------------------------------------- listing

    def _matching(self) -> Matching:
        assert self.matching is not None, "the rulebook binds every mechanic before a game starts"
        return self.matching

    def why_not(self, g: RoundTable, p: int) -> str | None:
        """Why ``p`` may not throw two of their cards on the card on offer now, or ``None``: matching's own
        refusal of a two-card throw, and a card somebody already took (a sum is never late)."""
        matching = self._matching()
        why = matching.refusal(g, p, 2)
        if why is None and matching.taken_by(g) not in (-1, p):
            why = f"player {matching.taken_by(g)} already took the thrown card"
        return why

    def list_sums(self, g: RoundTable, p: int, out: list[Action]) -> None:
        if g.card_count(p) < 2 or self.why_not(g, p) is not None:
            return
        out.extend(sum_match(p, a, b) for a, b in permutations(g.occupied(p), 2))

    # ---------------------------------------------------------------- applying

    def refusal(self, g: RoundTable, a: SumMatch) -> str | None:
        """Why ``a`` may not be played now, or ``None``. Changes nothing."""
        p = a.player
        if not g.player_ok(p):
            return f"no player {p}"
        slots = a.slots
        if len(slots) != 2 or slots[0] == slots[1]:
            return "a sum match names two different slots of yours"
        for s in slots:
            if not g.slot_ok(p, s):
                return f"slot {s} of player {p} holds no card"
        why = self.why_not(g, p)
        if why is not None and why.startswith("you may throw"):
            return f"a sum match throws 2 cards; {why}"
        return why

    def do_sum_match(self, g: RoundTable, a: SumMatch) -> list[Event]:
        why = self.refusal(g, a)
        if why is not None:
            raise IllegalAction(why, a)
        # From here on nothing refuses: the game changes.
        matching = self._matching()
        p = a.player
        win = matching.card_on_offer(g)
        first, second = a.slots
        cards = [g.card_at(p, first), g.card_at(p, second)]
        right = g.value[cards[0]] + g.value[cards[1]] == g.value[win]
        in_window = g.phase in self.windows
        facts = {"player": p, "slots": [first, second], "cards": [g.text[c] for c in cards], "on": g.text[win]}
        events: list[Event] = []
        if right:
            g.throw_from(p, first)
            g.throw_from(p, second)
            events.append(Event("sum_matched", facts))
        else:
            for c in cards:
                g.show(c)  # back to its slot, everyone saw it
            events.append(Event("sum_missed", facts))
            matching.penalise(g, p, self.penalty, events)
        matching.record_throw(g, p, 2, right)
        g.after_out_of_turn(events)  # an emptied layout may end the round
        if in_window and g.phase in self.windows:
            matching.closing_moves_on(g, events)
        return events
