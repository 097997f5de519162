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

What this uses of the built-in matching (``tamalou.mechanics.matching``), read through
``MatchingLike`` below: its listing (``list_matches``, and ``list_closing`` in the closing window), its
state (``g.state_of("matching")``: ``win``, the thrown card; ``win_by``, who took it; ``tried``, the
cards each player threw on it; ``waiting``, who a window phase still waits for), ``closing_moves_on``
(a window phase moves on after each throw) and ``penalise`` (a miss's penalty, within
``penalty_cap``). The keys ``race`` and ``window`` are read with their defaults when the installed
tamalou predates them.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import tamalou
from pydantic import ConfigDict
from tamalou import Action, Event, IllegalAction, MatchAction, Phase
from tamalou.engine import NO_CARD

#: The phase of a window that opens after a card's power (``rules.matching.window = "after_power"``).
WINDOW = "window"

if TYPE_CHECKING:
    from tamalou import Game
    from tamalou.rules import Rulebook


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


class MatchingLike(Protocol):
    """What sum matching reads of the built-in matching mechanic."""

    index: int

    def list_matches(self, g: Game, p: int, out: list[Action]) -> None: ...

    def list_closing(self, g: Game, p: int, out: list[Action]) -> None: ...

    def closing_moves_on(self, g: Game, events: list[Event]) -> None: ...

    def penalise(self, g: Game, p: int, count: int, events: list[Event]) -> None: ...


_ACTIONS: dict[tuple[int, int, int], SumMatch] = {}


def sum_match(p: int, first: int, second: int) -> SumMatch:
    """The action ``SumMatch(p, (first, second))``, made once per process (actions are values)."""
    key = (p, first, second)
    a = _ACTIONS.get(key)
    if a is None:
        a = _ACTIONS[key] = SumMatch(p, (first, second))
    return a


class SumMatching(tamalou.Mechanic):
    """Lists ``sum_match`` wherever matching lists a match of one's own card, and applies it."""

    name = "sum_matching"
    order = 15  # after matching (10): a thrown card opens matching's window first
    actions = (SumMatch,)

    def __init__(self, variant: tamalou.Variant) -> None:
        super().__init__(variant)
        m = variant.rules.matching
        self.max_cards = m.max_cards
        self.penalty = m.penalty_cards
        self.race: bool = getattr(m, "race", True)
        # The window phases where matching lists its own actions (they are not open to out-of-turn
        # actions): the closing window of a called round (untimed rulesets; timed ones have their
        # countdown), and the window after a power.
        windows: list[str] = []
        if m.closing_window and variant.rules.timing.turn_seconds == 0:
            windows.append(Phase.CLOSING)
        if getattr(m, "window", "at_throw") == "after_power":
            windows.append(WINDOW)
        self.windows = frozenset(windows)
        self.matching: MatchingLike | None = None  # found in bind
        self.results: list[Any] = []

    @classmethod
    def wanted(cls, variant: tamalou.Variant) -> bool:
        return variant.rules.matching.enabled

    def bind(self, rb: Rulebook) -> None:
        found: Any = next((m for m in rb.mechanics if m.name == "matching"), None)
        for attr in ("list_matches", "list_closing", "closing_moves_on", "penalise"):
            if not callable(getattr(found, attr, None)):
                raise tamalou.VariantError(
                    f"sum matching needs the built-in matching mechanic (its {attr!r} is missing)", key="plugins"
                )
        self.matching = found
        # Other mechanics hear about every throw on a window, right or not (a clock's lockout after a
        # miss), through the same method matching calls.
        self.results = [m.match_result for m in rb.mechanics if m is not self and hasattr(m, "match_result")]

    # ---------------------------------------------------------------- phases

    def anytime(self) -> tuple[Any, dict[type, Any]]:
        # Listed in every open phase (as matching is); accepted in any phase, checked in ``refusal``.
        return self.list_sums, {SumMatch: self.do_sum_match}

    def phases(self) -> dict[str, tamalou.PhaseSpec]:
        # A window phase is not open: it lists its own actions (matching's, and ours added here).
        return {phase: tamalou.PhaseSpec(self.list_sums) for phase in self.windows}

    # ---------------------------------------------------------------- listing

    def _matching(self) -> MatchingLike:
        assert self.matching is not None, "the rulebook binds every mechanic before a game starts"
        return self.matching

    def may_match(self, g: Game, p: int) -> bool:
        """Whether matching lists a match of one of ``p``'s own cards now (the same window)."""
        matching = self._matching()
        probe: list[Action] = []
        if g.phase in self.windows:
            matching.list_closing(g, p, probe)
        else:
            matching.list_matches(g, p, probe)
        return any(isinstance(a, MatchAction) and a.owner in (None, p) for a in probe)

    def _room(self, g: Game, p: int) -> bool:
        """Whether ``p`` may still throw two cards on this thrown card."""
        st = g.state_of("matching")
        return bool(st.tried[p] + 2 <= self.max_cards)

    def list_sums(self, g: Game, p: int, out: list[Action]) -> None:
        if g.card_count(p) < 2 or not self._room(g, p) or not self.may_match(g, p):
            return
        out.extend(sum_match(p, a, b) for a, b in permutations(g.occupied(p), 2))

    # ---------------------------------------------------------------- applying

    def refusal(self, g: Game, a: SumMatch) -> str | None:
        """Why ``a`` may not be played now, or ``None``. Changes nothing."""
        p = a.player
        if not g.player_ok(p):
            return f"no player {p}"
        phase = g.phase
        if phase not in g.flow.open and phase not in self.windows:
            return f"no matching now (phase {str(phase)!r})"
        slots = a.slots
        if len(slots) != 2 or slots[0] == slots[1]:
            return "a sum match names two different slots of yours"
        for s in slots:
            if not g.slot_ok(p, s):
                return f"slot {s} of player {p} holds no card"
        st = g.state_of("matching")
        if st.win == NO_CARD:
            return "there is no thrown card to match on"
        if st.win_by not in (-1, p):
            return f"player {st.win_by} already took the thrown card"
        if phase in self.windows and not st.waiting >> p & 1:
            if phase == Phase.CLOSING:
                return "you have had your last chance to match in this round"
            return "you have passed on this card's window"
        if not self._room(g, p):
            left = self.max_cards - st.tried[p]
            return f"a sum match throws 2 cards; you may throw {left} more on this one ({self.max_cards} at most)"
        if not self.may_match(g, p):
            return "you may not match now"
        return None

    def do_sum_match(self, g: Game, a: SumMatch) -> list[Event]:
        why = self.refusal(g, a)
        if why is not None:
            raise IllegalAction(why, a)
        # From here on nothing refuses: the game changes.
        p = a.player
        st = g.state_of("matching")
        win = st.win
        first, second = a.slots
        cards = [g.card_at(p, first), g.card_at(p, second)]
        right = g.value[cards[0]] + g.value[cards[1]] == g.value[win]
        st.tried[p] += 2
        in_window = g.phase in self.windows
        if g.phase == Phase.CLOSING:  # one last chance each (a window after a power waits for a pass)
            st.waiting &= ~(1 << p)
        facts = {"player": p, "slots": [first, second], "cards": [g.text[c] for c in cards], "on": g.text[win]}
        events: list[Event] = []
        if right:
            g.throw_from(p, first)
            g.throw_from(p, second)
            if self.race:  # the thrown card is taken (else every right throw counts)
                st.win_by = p
            events.append(Event("sum_matched", facts))
        else:
            for c in cards:
                g.show(c)  # back to its slot, everyone saw it
            events.append(Event("sum_missed", facts))
            self.penalise(g, p, events)
        for hook in self.results:
            hook(g, p, right)
        g.after_out_of_turn(events)  # an emptied layout may end the round
        if in_window and g.phase in self.windows:
            self._matching().closing_moves_on(g, events)
        return events

    def penalise(self, g: Game, p: int, events: list[Event]) -> None:
        """The matching penalty for one miss, within ``penalty_cap``: matching's own ``penalise``."""
        self._matching().penalise(g, p, self.penalty, events)
